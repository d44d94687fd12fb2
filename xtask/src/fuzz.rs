//! `cargo xtask fuzz`: the fuzz targets of `fuzz/` (cargo-fuzz on the nightly toolchain),
//! seeded from `test-data/` and, for long runs, from the shared corpus, copied into
//! `fuzz/corpus/<target>/` at run time (never committed). Each run ends with a line per
//! target: seconds, executions, and whether it crashed (the input is then in
//! `fuzz/artifacts/<target>/`). CI's smoke run is repeatable: a fixed libFuzzer seed and a
//! fresh corpus of seeds alone, so it fails on regressions, not on luck.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::{corpus_dir, workspace_root};

/// Every fuzz target, with where its seeds come from.
pub const TARGETS: &[(&str, Seeds)] = &[
    ("parse_nethack_des", Seeds::NethackDes),
    ("parse_dungeon_def", Seeds::DungeonDef),
    ("parse_rlg327", Seeds::Rlg327),
    ("parse_dcss", Seeds::Dcss),
    ("analysis_nethack_des", Seeds::NethackDes),
    ("analysis_dungeon_def", Seeds::DungeonDef),
    ("analysis_rlg327", Seeds::Rlg327),
    ("analysis_dcss", Seeds::Dcss),
    ("lua_syntax", Seeds::Dcss),
    ("compile_nethack", Seeds::NethackDes),
    ("load_lev", Seeds::Lev),
    ("mklev", Seeds::SeedAndDepth),
    ("lsp_sync", Seeds::EditScripts),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seeds {
    NethackDes,
    DungeonDef,
    Rlg327,
    Dcss,
    Lev,
    SeedAndDepth,
    EditScripts,
}

/// The options of a run.
pub struct Run {
    pub targets: Vec<&'static str>,
    pub seconds: u64,
    /// Seed from the shared corpus as well as from `test-data/`.
    pub with_corpus: bool,
    /// libFuzzer's random seed: fixed in CI, so that a run there repeats (a prefix of) the
    /// mutations a run here made, rather than failing at random on a new find; random when
    /// hunting.
    pub random_seed: Option<u32>,
}

/// What a target's run did.
pub struct Outcome {
    pub target: &'static str,
    pub seconds: f64,
    pub executions: u64,
    pub crashed: bool,
}

/// Why fuzzing cannot run here (no nightly toolchain, no cargo-fuzz), if it cannot.
pub fn missing_tools() -> Option<String> {
    let works = |args: &[&str]| {
        Command::new("cargo")
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !works(&["+nightly", "--version"]) {
        return Some(
            "the nightly toolchain is not installed (rustup toolchain install nightly)".into(),
        );
    }
    if !works(&["+nightly", "fuzz", "--version"]) {
        return Some(
            "cargo-fuzz is not installed (cargo +nightly install cargo-fuzz --locked)".into(),
        );
    }
    None
}

fn fuzz_dir() -> PathBuf {
    workspace_root().join("fuzz")
}

/// `program` at a lower priority than the people using the machine (`nice`, where there is
/// one).
fn niced(program: &Path) -> Command {
    let nice = Command::new("nice")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if nice {
        let mut command = Command::new("nice");
        command.args(["-n", "10"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

/// `cargo +nightly fuzz ...` in `fuzz/`, niced.
fn cargo_fuzz(args: &[&str]) -> Command {
    let mut command = niced(Path::new("cargo"));
    // The toolchain of the cargo that runs xtask must not leak into the nightly one.
    command
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("CARGO")
        .env_remove("RUSTC")
        .args(["+nightly", "fuzz"])
        .args(args)
        .current_dir(fuzz_dir());
    command
}

/// Builds every target.
pub fn build() -> Result<(), String> {
    let status = cargo_fuzz(&["build"])
        .status()
        .map_err(|e| format!("cannot run cargo fuzz: {e}"))?;
    if !status.success() {
        return Err(format!("cargo fuzz build failed ({status})"));
    }
    Ok(())
}

/// Seeds, builds and runs each target in turn for `run.seconds`.
pub fn run(run: &Run) -> Result<Vec<Outcome>, String> {
    build()?;
    let mut outcomes = Vec::new();
    for &target in &run.targets {
        let (_, seeds) = TARGETS
            .iter()
            .find(|(name, _)| *name == target)
            .ok_or_else(|| format!("no fuzz target {target}"))?;
        // A repeatable run starts from the seeds alone, not from what earlier runs found.
        let corpus = match run.random_seed {
            Some(_) => {
                let dir = fuzz_dir().join("corpus-repeatable").join(target);
                let _ = std::fs::remove_dir_all(&dir);
                dir
            }
            None => fuzz_dir().join("corpus").join(target),
        };
        seed(*seeds, &corpus, run.with_corpus)?;
        outcomes.push(run_target(target, &corpus, run)?);
    }
    eprintln!(
        "\n{:<22} {:>9} {:>13}  result",
        "fuzz target", "seconds", "executions"
    );
    for o in &outcomes {
        eprintln!(
            "{:<22} {:>9.0} {:>13}  {}",
            o.target,
            o.seconds,
            o.executions,
            if o.crashed {
                format!("CRASH: see fuzz/artifacts/{}/", o.target)
            } else {
                "ok".into()
            }
        );
    }
    if outcomes.iter().any(|o| o.crashed) {
        return Err("a fuzz target crashed (listed above)".into());
    }
    Ok(outcomes)
}

fn run_target(target: &'static str, corpus: &Path, run: &Run) -> Result<Outcome, String> {
    let seconds = run.seconds;
    eprintln!("\n==> fuzz {target} for {seconds} s");
    let binary = built(target)?;
    let artifacts = fuzz_dir().join("artifacts").join(target);
    std::fs::create_dir_all(&artifacts).map_err(|e| e.to_string())?;
    let mut args = vec![
        corpus.to_string_lossy().into_owned(),
        format!("-artifact_prefix={}/", artifacts.display()),
        format!("-max_total_time={seconds}"),
        "-max_len=16384".into(),
        "-timeout=20".into(),
        "-rss_limit_mb=4096".into(),
        "-print_final_stats=1".into(),
    ];
    if let Some(seed) = run.random_seed {
        args.push(format!("-seed={seed}"));
    }
    // The server's runtime and its blocking threads live as long as the process, by design;
    // LeakSanitizer would report what they hold, both after an input (libFuzzer's flag) and
    // at exit (the sanitizer's own option). The battery measures the server's memory instead.
    let mut sanitizer = "detect_odr_violation=0".to_string();
    if target == "lsp_sync" {
        args.push("-detect_leaks=0".into());
        sanitizer.push_str(":detect_leaks=0");
    }
    let started = std::time::Instant::now();
    // The binary itself rather than `cargo fuzz run`, which would build again first: a
    // long run keeps the binary it started with whatever happens to the sources meanwhile.
    let output = niced(&binary)
        .args(&args)
        .env("ASAN_OPTIONS", sanitizer)
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", binary.display()))?;
    let log = String::from_utf8_lossy(&output.stderr);
    let executions = log
        .lines()
        .find_map(|l| l.strip_prefix("stat::number_of_executed_units:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0);
    let crashed = !output.status.success();
    if crashed {
        // The end of libFuzzer's report says what failed and where the input was saved.
        let lines: Vec<&str> = log.lines().collect();
        for line in &lines[lines.len().saturating_sub(60)..] {
            eprintln!("{line}");
        }
    }
    Ok(Outcome {
        target,
        seconds: started.elapsed().as_secs_f64(),
        executions,
        crashed,
    })
}

/// Where `cargo fuzz build` put a target: `fuzz/target/<host triple>/release/<target>`.
fn built(target: &str) -> Result<PathBuf, String> {
    let dir = fuzz_dir().join("target");
    std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("release").join(target))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("the fuzz target {target} was not built"))
}

/// Copies the seeds of `kind` into `dir` (files already there are kept: a long run's corpus
/// grows across runs).
fn seed(kind: Seeds, dir: &Path, with_corpus: bool) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let root = workspace_root();
    let corpus = corpus_dir();
    let mut files: Vec<PathBuf> = Vec::new();
    let test_data = |sub: &str, ext: &str, files: &mut Vec<PathBuf>| {
        walk(&root.join("test-data").join(sub), ext, files)
    };
    match kind {
        Seeds::NethackDes => {
            test_data("nethack-des", "des", &mut files);
            if with_corpus {
                walk(&corpus.join("nethack-3.4.3"), "des", &mut files);
            }
        }
        Seeds::DungeonDef => {
            test_data("nethack-dungeon", "def", &mut files);
            if with_corpus {
                walk(&corpus.join("nethack-3.4.3"), "def", &mut files);
            }
        }
        Seeds::Rlg327 => {
            test_data("rlg327", "txt", &mut files);
            if with_corpus {
                for sub in ["monsters", "objects", "spec_examples"] {
                    walk(&corpus.join("rlg327").join(sub), "txt", &mut files);
                }
            }
        }
        Seeds::Dcss => {
            test_data("dcss-des", "des", &mut files);
            if with_corpus {
                walk(&corpus.join("dcss-0.28.0/des"), "des", &mut files);
                walk(&corpus.join("dcss-0.28.0/oracle-cases"), "des", &mut files);
            }
        }
        Seeds::Lev => {
            walk(&root.join("test-data"), "lev", &mut files);
            if with_corpus {
                walk(&corpus.join("nethack-3.4.3/golden"), "lev", &mut files);
            }
        }
        Seeds::SeedAndDepth => {
            // Little-endian seed, then the depth's byte.
            for (seed, depth) in [(1u32, 1u8), (42, 5), (2026, 12), (7, 26), (u32::MAX, 0)] {
                let mut bytes = seed.to_le_bytes().to_vec();
                bytes.push(depth);
                write_seed(dir, &format!("seed{seed}-depth{depth}"), &bytes)?;
            }
        }
        Seeds::EditScripts => {
            // Small files of each dialect, as documents with no edits and with a short script.
            for (sub, ext) in [
                ("nethack-des/parser/ok", "des"),
                ("nethack-dungeon/parser/ok", "def"),
                ("rlg327/parser", "txt"),
                ("dcss-des/parser/ok", "des"),
            ] {
                test_data(sub, ext, &mut files);
            }
            files.retain(|f| std::fs::metadata(f).is_ok_and(|m| m.len() < 4096));
            for file in &files {
                let mut bytes = std::fs::read(file).map_err(|e| e.to_string())?;
                bytes.push(0xff);
                bytes.extend(b"\x01\x00\x02\x05\x01\x03\x04\x07\x00\x01\x02\x03\x00\x09\x10");
                write_seed(dir, &format!("script-{}", seed_name(&root, file)), &bytes)?;
            }
        }
    }
    for file in &files {
        let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = seed_name(
            if file.starts_with(&root) {
                &root
            } else {
                &corpus
            },
            file,
        );
        write_seed(dir, &name, &bytes)?;
    }
    Ok(())
}

fn seed_name(base: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(base).unwrap_or(file);
    format!(
        "seed-{}",
        relative.to_string_lossy().replace(['/', '\\'], "_")
    )
}

fn write_seed(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = dir.join(name);
    if path.exists() {
        return Ok(());
    }
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The files under `dir` whose extension is `ext`, depth first, each folder in name order.
pub(crate) fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}
