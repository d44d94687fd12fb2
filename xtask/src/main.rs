//! Project automation for levkit, run as `cargo xtask <command>`:
//!
//! - `codegen [--check]`: regenerates (or checks) the files derived from other sources;
//! - `ci`: everything CI runs, in order, stopping at the first failure;
//! - `bench`: one table of speed and memory, beside the reference tools';
//! - `fuzz`: the fuzz targets (nightly, cargo-fuzz).

mod bench;
mod codegen;
mod fuzz;
mod pgo;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Instant;

const USAGE: &str = "usage: cargo xtask <command>

commands:
  codegen [--check]   regenerate the generated files (--check: fail if one is stale)
  ci                  run every CI step in order, stopping at the first failure
  bench               measure levkit (profile-guided) beside lev_comp and crawl, print one table
                      (LEVKIT_REF_LEV_COMP: a lev_comp 3.4.3; LEVKIT_REF_CRAWL: crawl 0.28.0)
  fuzz [--seconds N] [--corpus] [TARGET...]
                      run the fuzz targets (all by default) for N seconds each (default 60),
                      seeded from test-data/ (--corpus: and from $LEVKIT_CORPUS)
  dist                build editors/vscode/levkit.vsix, with the release server bundled
                      (profile-guided with the llvm-tools rustup component)
  e2e-vscode          (opt-in) drive the .vsix in code-server; saves the README screenshot
  pictures            regenerate the README's level pictures in docs/images";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["codegen"] => codegen::run(codegen::Mode::Write),
        ["codegen", "--check"] => codegen::run(codegen::Mode::Check),
        ["ci"] => ci(),
        ["bench"] => bench::run(),
        ["fuzz", rest @ ..] => fuzz_command(rest),
        ["dist"] => dist(),
        ["e2e-vscode"] => dist().and_then(|()| {
            run_steps(&[Step {
                name: "vs code end to end",
                program: "bash",
                args: &["editors/vscode/e2e/run.sh"],
                dir: ".",
            }])
        }),
        ["pictures"] => pictures(),
        ["help" | "--help" | "-h"] => {
            println!("{USAGE}");
            Ok(())
        }
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root: the parent of this crate's directory.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// The shared test corpus: `$LEVKIT_CORPUS`, or `../shared/corpus` beside the workspace.
pub fn corpus_dir() -> PathBuf {
    match std::env::var_os("LEVKIT_CORPUS") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root().join("../shared/corpus"),
    }
}

/// One command of a step list, run from the workspace root.
struct Step {
    name: &'static str,
    /// `cargo` (the one running us) or another program on PATH.
    program: &'static str,
    args: &'static [&'static str],
    /// Where to run, relative to the workspace root.
    dir: &'static str,
}

impl Step {
    const fn cargo(name: &'static str, args: &'static [&'static str]) -> Step {
        Step {
            name,
            program: "cargo",
            args,
            dir: ".",
        }
    }

    /// npm in the VS Code extension's folder.
    const fn npm(name: &'static str, args: &'static [&'static str]) -> Step {
        Step {
            name,
            program: "npm",
            args,
            dir: "editors/vscode",
        }
    }
}

/// Where test groups that could not run record themselves (see `levkit-test-support`, and
/// the editor tests).
fn skip_record() -> PathBuf {
    workspace_root().join("target/skipped-tests.txt")
}

/// Runs every CI step, then lists the test groups that were skipped; under `CI=true` a skip
/// is a failure, so that CI cannot pass without running everything.
fn ci() -> Result<(), String> {
    let record = skip_record();
    let _ = std::fs::remove_file(&record);
    let outcome = run_steps(&ci_steps()).and_then(|()| fuzz_smoke());
    let skipped: Vec<String> = std::fs::read_to_string(&record)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    if skipped.is_empty() {
        eprintln!("no test group was skipped");
    } else {
        eprintln!("\n*** {} test group(s) SKIPPED:", skipped.len());
        for line in &skipped {
            eprintln!("***   {line}");
        }
    }
    outcome?;
    if !skipped.is_empty() && std::env::var("CI").is_ok_and(|v| v == "true") {
        return Err("CI=true and some test groups were skipped (listed above)".into());
    }
    Ok(())
}

/// Everything CI runs, in order. New steps (such as the editors' node tests) go here.
fn ci_steps() -> Vec<Step> {
    vec![
        Step::cargo("format", &["fmt", "--all", "--check"]),
        Step::cargo(
            "clippy",
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        ),
        Step::cargo("generated files", &["xtask", "codegen", "--check"]),
        Step::cargo("tests", &["test", "--workspace"]),
        Step::npm("editor dependencies", &["ci", "--no-audit", "--no-fund"]),
        Step::npm("editor tests", &["test"]),
        Step {
            name: "neovim test",
            program: "bash",
            args: &["editors/nvim/test/run.sh"],
            dir: ".",
        },
    ]
}

/// Seconds each fuzz target runs in CI: about a minute in all.
const SMOKE_SECONDS: u64 = 5;

/// The fuzz targets built with nightly and run a few seconds each from `test-data/` seeds;
/// without nightly or cargo-fuzz, a recorded skip (which fails CI under `CI=true`).
fn fuzz_smoke() -> Result<(), String> {
    eprintln!("\n==> fuzz smoke: every target for {SMOKE_SECONDS} s");
    let started = Instant::now();
    if let Some(reason) = fuzz::missing_tools() {
        record_skip("fuzz smoke", &reason);
        return Ok(());
    }
    fuzz::run(&fuzz::Run {
        targets: fuzz::TARGETS.iter().map(|(name, _)| *name).collect(),
        seconds: SMOKE_SECONDS,
        with_corpus: false,
        random_seed: Some(1),
    })?;
    eprintln!(
        "<== fuzz smoke passed in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `cargo xtask fuzz [--seconds N] [--corpus] [TARGET...]`.
fn fuzz_command(args: &[&str]) -> Result<(), String> {
    let mut run = fuzz::Run {
        targets: Vec::new(),
        seconds: 60,
        with_corpus: false,
        random_seed: None,
    };
    let mut args = args.iter();
    while let Some(&arg) = args.next() {
        match arg {
            "--seconds" => {
                run.seconds = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .ok_or("--seconds takes a number")?
            }
            "--corpus" => run.with_corpus = true,
            name => {
                let known = fuzz::TARGETS.iter().find(|(n, _)| *n == name);
                let (name, _) = known.ok_or_else(|| {
                    let names: Vec<&str> = fuzz::TARGETS.iter().map(|(n, _)| *n).collect();
                    format!("no fuzz target {name}; the targets: {}", names.join(", "))
                })?;
                run.targets.push(name);
            }
        }
    }
    if run.targets.is_empty() {
        run.targets = fuzz::TARGETS.iter().map(|(name, _)| *name).collect();
    }
    if let Some(reason) = fuzz::missing_tools() {
        return Err(reason);
    }
    fuzz::run(&run).map(|_| ())
}

/// Notes a test group that could not run, as `levkit_test_support::skipped` does.
fn record_skip(group: &str, reason: &str) {
    use std::io::Write;
    eprintln!("\n*** SKIPPED {group}: {reason} ***\n");
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(skip_record())
    {
        let _ = writeln!(file, "{group}: {reason}");
    }
}

/// The VS Code marketplace's name for this platform (`vsce package --target`).
fn vscode_target() -> Result<&'static str, String> {
    Ok(match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "x86_64") => "linux-x64",
        ("linux", "aarch64") => "linux-arm64",
        ("linux", "arm") => "linux-armhf",
        ("macos", "x86_64") => "darwin-x64",
        ("macos", "aarch64") => "darwin-arm64",
        ("windows", "x86_64") => "win32-x64",
        ("windows", "aarch64") => "win32-arm64",
        (os, arch) => return Err(format!("no VS Code platform for {os} on {arch}")),
    })
}

/// The VS Code extension, packaged with this platform's server (stripped: the `dist`
/// profile) and the grammars, declaring the platform it is for.
fn dist() -> Result<(), String> {
    let target = vscode_target()?;
    let server = pgo::build("dist")?;
    run_steps(&[Step::npm(
        "extension dependencies",
        &["ci", "--no-audit", "--no-fund"],
    )])?;
    let root = workspace_root();
    let extension = root.join("editors/vscode");
    let copy = |from: &Path, to: &Path| {
        std::fs::create_dir_all(to.parent().unwrap_or(to)).map_err(|e| e.to_string())?;
        std::fs::copy(from, to)
            .map(|_| ())
            .map_err(|e| format!("cannot copy {}: {e}", from.display()))
    };
    let binary = if cfg!(windows) {
        "levkit.exe"
    } else {
        "levkit"
    };
    copy(&server, &extension.join("server").join(binary))?;
    for entry in std::fs::read_dir(root.join("syntaxes")).map_err(|e| e.to_string())? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if let Some(name) = path.file_name() {
            copy(&path, &extension.join("syntaxes").join(name))?;
        }
    }
    run_steps(&[Step::npm("bundle", &["run", "build"])])?;
    // What goes in: the bundle, media, grammars, server; never the tests or the e2e scripts.
    let listed = Command::new("npx")
        .args(["vsce", "ls", "--no-dependencies"])
        .current_dir(&extension)
        .output()
        .map_err(|e| format!("cannot run vsce: {e}"))?;
    let files = String::from_utf8_lossy(&listed.stdout);
    let stray: Vec<&str> = files
        .lines()
        .filter(|f| {
            ["e2e/", "test/", "src/", "node_modules/"]
                .iter()
                .any(|d| f.starts_with(d))
        })
        .collect();
    if !listed.status.success() || !stray.is_empty() {
        return Err(format!(
            "the .vsix would hold files it should not: {stray:?}"
        ));
    }
    let status = Command::new("npm")
        .args(["run", "package", "--", "--target", target])
        .current_dir(&extension)
        .status()
        .map_err(|e| format!("cannot run npm: {e}"))?;
    if !status.success() {
        return Err(format!("packaging failed ({status})"));
    }
    let size = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len()) / 1_000_000;
    eprintln!(
        "wrote {} for {target}: {} MB, its server {} MB",
        extension.join("levkit.vsix").display(),
        size(&extension.join("levkit.vsix")),
        size(&extension.join("server").join(binary)),
    );
    Ok(())
}

/// The README's pictures: three of the game's levels and a random level, as SVG.
fn pictures() -> Result<(), String> {
    run_steps(&[Step::cargo(
        "release levkit",
        &["build", "--release", "--bin", "levkit"],
    )])?;
    let root = workspace_root();
    let levkit = root.join("target/release/levkit");
    let corpus = corpus_dir();
    let images = root.join("docs/images");
    std::fs::create_dir_all(&images).map_err(|e| e.to_string())?;
    let des = |file: &str| {
        corpus
            .join("nethack-3.4.3")
            .join(file)
            .display()
            .to_string()
    };
    let jobs: Vec<(&str, Vec<String>)> = vec![
        (
            "castle.svg",
            vec![
                "preview".into(),
                des("castle.des"),
                "--format".into(),
                "svg".into(),
            ],
        ),
        (
            "oracle.svg",
            vec![
                "preview".into(),
                des("oracle.des"),
                "--format".into(),
                "svg".into(),
            ],
        ),
        (
            "soko1-1.svg",
            vec![
                "preview".into(),
                des("sokoban.des"),
                "--level".into(),
                "soko1-1".into(),
                "--format".into(),
                "svg".into(),
            ],
        ),
        (
            "mklev.svg",
            [
                "generate", "--seed", "42", "--depth", "5", "--format", "svg",
            ]
            .map(String::from)
            .to_vec(),
        ),
    ];
    for (name, args) in jobs {
        let output = Command::new(&levkit)
            .args(&args)
            .output()
            .map_err(|e| format!("cannot run levkit: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "levkit {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        std::fs::write(images.join(name), &output.stdout).map_err(|e| e.to_string())?;
        eprintln!("wrote docs/images/{name}");
    }
    Ok(())
}

/// The cargo that runs us (cargo sets `$CARGO`), so nested runs use the same toolchain.
fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

fn run_steps(steps: &[Step]) -> Result<(), String> {
    let total = Instant::now();
    for (number, step) in steps.iter().enumerate() {
        eprintln!(
            "\n==> [{}/{}] {}: {} {}",
            number + 1,
            steps.len(),
            step.name,
            step.program,
            step.args.join(" ")
        );
        let started = Instant::now();
        let program = if step.program == "cargo" {
            cargo()
        } else {
            step.program.into()
        };
        let status = Command::new(program)
            .args(step.args)
            .current_dir(workspace_root().join(step.dir))
            .status()
            .map_err(|e| format!("step `{}`: cannot start {}: {e}", step.name, step.program))?;
        let elapsed = started.elapsed().as_secs_f64();
        if !status.success() {
            return Err(format!(
                "step `{}` failed after {elapsed:.1}s ({status}): {} {}",
                step.name,
                step.program,
                step.args.join(" ")
            ));
        }
        eprintln!("<== {} passed in {elapsed:.1}s", step.name);
    }
    eprintln!(
        "\nall {} steps passed in {:.1}s",
        steps.len(),
        total.elapsed().as_secs_f64()
    );
    Ok(())
}
