//! Project automation: `cargo xtask codegen [--check]`, `cargo xtask ci`, `cargo xtask bench`.

mod codegen;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("codegen") => codegen::run(args.iter().any(|a| a == "--check")),
        Some("ci") => ci(),
        Some("bench") => run_steps(&[Step::cargo("bench", &["bench", "--workspace"])]),
        _ => {
            eprintln!("usage: cargo xtask <codegen [--check] | ci | bench>");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Where the test corpus is: `$LEVKIT_CORPUS`, or `../shared/corpus` beside the workspace.
pub fn corpus_dir() -> PathBuf {
    std::env::var_os("LEVKIT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("../shared/corpus"))
}

struct Step {
    name: &'static str,
    program: &'static str,
    args: Vec<&'static str>,
}

impl Step {
    fn cargo(name: &'static str, args: &[&'static str]) -> Step {
        Step {
            name,
            program: "cargo",
            args: args.to_vec(),
        }
    }
}

/// What CI runs, in order; editors' tests join this list when they exist.
fn ci_steps() -> Vec<Step> {
    vec![
        Step::cargo("format", &["fmt", "--all", "--check"]),
        Step::cargo(
            "lint",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        ),
        Step::cargo(
            "generated files",
            &[
                "run",
                "--quiet",
                "--package",
                "xtask",
                "--",
                "codegen",
                "--check",
            ],
        ),
        Step::cargo("tests", &["test", "--workspace"]),
    ]
}

fn ci() -> Result<(), String> {
    run_steps(&ci_steps())
}

fn run_steps(steps: &[Step]) -> Result<(), String> {
    for step in steps {
        eprintln!(
            "==> {} ({} {})",
            step.name,
            step.program,
            step.args.join(" ")
        );
        let started = Instant::now();
        let status = Command::new(step.program)
            .args(&step.args)
            .current_dir(workspace_root())
            .status()
            .map_err(|e| format!("cannot run {}: {e}", step.program))?;
        eprintln!(
            "<== {} took {:.1}s",
            step.name,
            started.elapsed().as_secs_f64()
        );
        if !status.success() {
            return Err(format!("step `{}` failed", step.name));
        }
    }
    Ok(())
}
