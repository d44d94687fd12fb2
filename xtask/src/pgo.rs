//! A profile-guided build of `levkit`: an instrumented build runs the commands people run
//! (check and compile, every dialect), and LLVM then lays out and inlines the real build by
//! what those runs did. On the DCSS corpus check: 738 M to 668 M instructions and about 10%
//! less time; the NetHack compile 35 M to 30 M. The training runs also record the order in
//! which each first calls its functions, and the linker (LLVM's, on x86_64 Linux) lays the
//! functions out by it, so that a command maps fewer pages of code.
//!
//! It needs `llvm-profdata` of the compiler's own LLVM (`rustup component add llvm-tools`);
//! without it the build is the plain release build, and says so.
//!
//! On Linux with glibc the binary is linked statically (still position-independent): no
//! shared library is looked up, loaded or bound at start, which takes a process from 1.6 ms
//! to 1.1 ms here (a tenth of compiling the NetHack corpus), and the binary the editors
//! bundle runs whatever the C library of the machine it lands on.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::fuzz::walk;
use crate::{cargo, corpus_dir, workspace_root};

const BINARY: &str = if cfg!(windows) {
    "levkit.exe"
} else {
    "levkit"
};

/// Builds `levkit` with `profile`, guided by a profile when the tools are there, and returns
/// the path of the binary.
pub fn build(profile: &str) -> Result<PathBuf, String> {
    let root = workspace_root();
    let host = host_triple()?;
    // Where cargo puts the binary for `--target <host>` under a target folder.
    let binary_in = |target_dir: &Path| {
        target_dir
            .join(&host)
            .join(profile_dir(profile))
            .join(BINARY)
    };
    let Some(profdata) = llvm_profdata(&host) else {
        eprintln!(
            "xtask: llvm-profdata not found (rustup component add llvm-tools): \
             building levkit without a profile"
        );
        cargo_build(profile, &host, None, None, None)?;
        return Ok(binary_in(&root.join("target")));
    };
    let work = root.join("target/pgo");
    let raw = work.join("raw");
    let _ = std::fs::remove_dir_all(&raw);
    std::fs::create_dir_all(&raw).map_err(|e| e.to_string())?;
    // Instrumented, in a target folder of its own (its flags would rebuild everything in the
    // usual one), for the host triple only so that build scripts stay uninstrumented.
    let training_target = work.join("target");
    // Temporal instrumentation also records the order in which each run first calls its
    // functions, which the linker reads to lay them out (see `layout_flags`).
    cargo_build(
        profile,
        &host,
        Some(format!(
            "-Cprofile-generate={} -Cllvm-args=-pgo-temporal-instrumentation",
            raw.display()
        )),
        Some("levkit/pgo-training"),
        Some(&training_target),
    )?;
    train(&binary_in(&training_target), &work, &raw)?;
    let merged = work.join("levkit.profdata");
    let status = Command::new(&profdata)
        .arg("merge")
        .arg("-o")
        .arg(&merged)
        .arg(&raw)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", profdata.display()))?;
    if !status.success() {
        return Err(format!("llvm-profdata merge failed ({status})"));
    }
    cargo_build(
        profile,
        &host,
        Some(format!(
            "-Cprofile-use={} {}",
            merged.display(),
            layout_flags(&host, &merged)
        )),
        None,
        None,
    )?;
    Ok(binary_in(&root.join("target")))
}

/// The runs the profile is made of: every fixture of `test-data/` (every dialect, and their
/// errors), and where the corpus is, half of the DCSS vault files (the bench checks all of
/// them), the NetHack corpus checked and compiled, and the RLG327 files.
fn train(levkit: &Path, work: &Path, raw: &Path) -> Result<(), String> {
    let root = workspace_root();
    let run = |args: &[&std::ffi::OsStr]| -> Result<(), String> {
        // Errors in the files are part of the training; only a crash is a failure.
        let status = Command::new(levkit)
            .args(args)
            // A file per run (`%p`, the process): runs merged into one file as they end keep
            // the first run's order of calls only.
            .env("LLVM_PROFILE_FILE", raw.join("levkit-%p.profraw"))
            .current_dir(&root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run {}: {e}", levkit.display()))?;
        match status.code() {
            Some(0..=1) => Ok(()),
            _ => Err(format!("the instrumented levkit failed ({status})")),
        }
    };
    let os = |s: &'static str| std::ffi::OsStr::new(s);
    run(&[os("check"), os("test-data")])?;
    let corpus = corpus_dir();
    if !corpus.is_dir() {
        eprintln!(
            "xtask: no corpus at {}: the profile comes from test-data/ alone",
            corpus.display()
        );
        return Ok(());
    }
    let mut vaults = Vec::new();
    walk(&corpus.join("dcss-0.28.0/des"), "des", &mut vaults);
    vaults.sort();
    let mut args = vec![os("check").to_owned()];
    args.extend(vaults.iter().step_by(2).map(|p| p.as_os_str().to_owned()));
    run(&args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>())?;
    let nethack = corpus.join("nethack-3.4.3");
    run(&[os("check"), nethack.as_os_str()])?;
    let mut levels = Vec::new();
    walk(&nethack, "des", &mut levels);
    levels.retain(|p| p.parent() == Some(nethack.as_path()));
    let out = work.join("compiled");
    let mut args = vec![os("compile").to_owned(), os("-o").to_owned(), out.into()];
    args.extend(levels.iter().map(|p| p.as_os_str().to_owned()));
    run(&args.iter().map(|a| a.as_os_str()).collect::<Vec<_>>())?;
    run(&[os("check"), corpus.join("rlg327").as_os_str()])
}

/// What every build of the binary is linked with for `target`: glibc statically, where it
/// is glibc (given with `--target`, the flag reaches the binary only, not the build scripts
/// and procedural macros, which cannot be static).
fn link_flags(target: &str) -> &'static str {
    if target.ends_with("-linux-gnu") {
        "-Ctarget-feature=+crt-static"
    } else {
        ""
    }
}

/// How the linker lays out the functions of the profile-guided build, where it is LLVM's
/// (rustc's default on x86_64 Linux): balanced partitioning over the training runs' orders of
/// first calls, so that the functions a run calls share pages. A process maps its code 64 KiB
/// at a time as it first runs it: so laid out, compiling the NetHack corpus maps 873 pages of
/// code rather than 1,208, and its peak resident memory is 8.2 MiB rather than 9.8 (its time
/// did not change measurably).
fn layout_flags(target: &str, profile: &Path) -> String {
    if target == "x86_64-unknown-linux-gnu" {
        format!(
            "-Clink-arg=-Wl,--irpgo-profile={} -Clink-arg=-Wl,--bp-startup-sort=function",
            profile.display()
        )
    } else {
        String::new()
    }
}

/// `cargo build` of levkit with `profile` for `target` (always named, so that compiler flags
/// reach the binary only), with compiler flags, features and a target folder of its own
/// where given.
fn cargo_build(
    profile: &str,
    target: &str,
    rustflags: Option<String>,
    features: Option<&str>,
    target_dir: Option<&Path>,
) -> Result<(), String> {
    let mut command = Command::new(cargo());
    command
        .args(["build", "--profile", profile, "--bin", "levkit"])
        .current_dir(workspace_root());
    command.args(["--target", target]);
    if let Some(features) = features {
        command.args(["--features", features]);
    }
    let flags = [
        std::env::var("RUSTFLAGS").unwrap_or_default(),
        link_flags(target).to_string(),
        rustflags.unwrap_or_default(),
    ];
    // Added to the user's own flags, not put in their place.
    let flags: Vec<&str> = flags
        .iter()
        .map(|f| f.trim())
        .filter(|f| !f.is_empty())
        .collect();
    if !flags.is_empty() {
        command.env("RUSTFLAGS", flags.join(" "));
    }
    if let Some(dir) = target_dir {
        command.env("CARGO_TARGET_DIR", dir);
    }
    let status = command
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    status
        .success()
        .then_some(())
        .ok_or_else(|| format!("building levkit failed ({status})"))
}

/// Where cargo puts a profile's artefacts (`dev` builds go to `debug`).
fn profile_dir(profile: &str) -> &str {
    match profile {
        "dev" => "debug",
        other => other,
    }
}

fn host_triple() -> Result<String, String> {
    let output = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| "rustc -vV names no host".into())
}

/// The `llvm-profdata` of the compiler's LLVM (a profile is read only by the LLVM that
/// wrote it), from the `llvm-tools` component.
fn llvm_profdata(host: &str) -> Option<PathBuf> {
    let output = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .ok()?;
    let sysroot = String::from_utf8_lossy(&output.stdout).trim().to_string();
    let path = Path::new(&sysroot)
        .join("lib/rustlib")
        .join(host)
        .join("bin/llvm-profdata");
    path.is_file().then_some(path)
}
