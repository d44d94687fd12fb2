//! `levkit compile` and `levkit inspect`: levels to the files the game loads, and back.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use levkit_diagnostics::Severity;
use levkit_ide::{Analysis, AnalysisHost, Decoded, Emit as EmitKind, FileId};

use crate::output::{self, FileReport};
use crate::parallel::map_files;
use crate::{DialectArg, EXIT_ERRORS, EXIT_OK, EXIT_TROUBLE};

#[derive(Args)]
pub struct CompileArgs {
    /// Level files (`.des`), dungeon descriptions (`dungeon.def`) or descriptions to compile.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Where to write the compiled files (created if missing).
    #[arg(long, short, default_value = ".")]
    out: PathBuf,
    #[arg(long, default_value = "auto", value_parser = DialectArg::parser())]
    dialect: DialectArg,
    /// What to produce: the game's files, or on standard output a print-out or JSON (RLG327
    /// descriptions) or the Lua the game generates (DCSS vaults).
    #[arg(long, value_enum, default_value_t = Emit::Files)]
    emit: Emit,
    /// With `--emit print`: reproduce the course reference parser's print-out byte for byte.
    #[arg(long)]
    compat: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Emit {
    /// `.lev` files and `dungeon`, written to `--out`.
    Files,
    /// The definitions as the RLG327 assignment prints them.
    Print,
    /// The definitions as JSON.
    Json,
    /// The Lua the game generates from each vault, as its `-dump-maps` prints it.
    Lua,
}

pub fn run(args: &CompileArgs) -> u8 {
    let emit = match (args.emit, args.compat) {
        (Emit::Files, _) => EmitKind::Files,
        (Emit::Print, false) => EmitKind::Print,
        (Emit::Print, true) | (Emit::Json, true) => EmitKind::PrintCompat,
        (Emit::Json, false) => EmitKind::Json,
        (Emit::Lua, _) => EmitKind::Lua,
    };
    if emit == EmitKind::Files
        && let Err(error) = std::fs::create_dir_all(&args.out)
    {
        eprintln!("levkit: cannot create {}: {error}", args.out.display());
        return EXIT_TROUBLE;
    }
    crate::huge_pages_for(&args.files);
    // Read and decoded on every core, as `check` does; the database takes them in order.
    let contents = map_files(&args.files, (), |(), path| {
        (path, levkit_files::read_named(path).map(Decoded::new))
    });
    let mut host = AnalysisHost::new();
    let mut status = EXIT_OK;
    let mut files = Vec::new();
    for (path, decoded) in contents {
        match decoded {
            Ok(decoded) => {
                let file = host.set_file_decoded(path.clone(), decoded);
                host.set_dialect_override(file, args.dialect.forced());
                files.push(file);
            }
            Err(error) => {
                eprintln!("levkit: cannot read {}: {error}", path.display());
                status = EXIT_TROUBLE;
            }
        }
    }
    let analysis = host.analysis();
    let outcomes = map_files(&files, analysis, |analysis, &file| {
        compile_one(analysis, file, emit, &args.out)
    });
    // The process ends after the report: freeing the analysis would only cost time.
    std::mem::forget(host);
    let mut stdout = std::io::stdout().lock();
    let mut stderr = std::io::stderr().lock();
    for outcome in outcomes {
        let _ = stderr.write_all(outcome.messages.as_bytes());
        // A closed pipe (`| head`) is not an error worth a panic.
        let _ = stdout.write_all(outcome.text.as_bytes());
        status = status.max(outcome.status);
    }
    status
}

/// What compiling one source file did, to be printed in order.
#[derive(Default)]
struct Outcome {
    /// Diagnostics and messages, for standard error.
    messages: String,
    /// What `--emit` prints, for standard output.
    text: String,
    status: u8,
}

impl Outcome {
    fn fail(&mut self, status: u8, message: String) {
        self.messages.push_str(&message);
        self.messages.push('\n');
        self.status = self.status.max(status);
    }
}

fn compile_one(analysis: &Analysis, file: FileId, emit: EmitKind, out: &Path) -> Outcome {
    let mut outcome = Outcome::default();
    let (Ok(report), Ok(compiled)) = (FileReport::of(analysis, file), analysis.compile(file, emit))
    else {
        outcome.fail(EXIT_TROUBLE, "levkit: the analysis was interrupted".into());
        return outcome;
    };
    let path = report.path.clone();
    // Printed outputs go to standard output; diagnostics are for the files written.
    if emit == EmitKind::Files {
        outcome.messages = output::human(&report, false);
    }
    if let Some(reason) = compiled.refusal {
        outcome.fail(
            EXIT_ERRORS,
            format!("levkit: nothing compiled from {}: {reason}", path.display()),
        );
        return outcome;
    }
    outcome.text = compiled.text.unwrap_or_default();
    // A print-out that leaves something out says what, with the diagnostics that say why.
    if !compiled.dropped.is_empty() && emit != EmitKind::Files {
        outcome.messages = output::human(&report, false);
    }
    for what in &compiled.dropped {
        outcome.fail(
            EXIT_ERRORS,
            format!(
                "levkit: {what} of {} is left out: it has errors",
                path.display()
            ),
        );
    }
    for compiled in compiled.files {
        let target = out.join(&compiled.name);
        match compiled.bytes {
            Some(bytes) => {
                if let Err(error) = write_atomically(&target, &bytes) {
                    outcome.fail(
                        EXIT_TROUBLE,
                        format!("levkit: cannot write {}: {error}", target.display()),
                    );
                }
            }
            None => outcome.fail(
                EXIT_ERRORS,
                format!(
                    "levkit: {} not written: its source in {} has errors",
                    compiled.name,
                    path.display()
                ),
            ),
        }
    }
    // Errors that no output accounts for (a level header too broken to name its level, say)
    // still fail the run: a build step must not pass over a source it could not compile.
    let has_errors = report
        .diagnostics
        .iter()
        .any(|d| d.severity == Severity::Error);
    if has_errors && outcome.status < EXIT_ERRORS {
        if emit != EmitKind::Files {
            outcome.messages = output::human(&report, false);
        }
        outcome.fail(
            EXIT_ERRORS,
            format!(
                "levkit: {} has errors, so not everything in it was compiled",
                path.display()
            ),
        );
    }
    outcome
}

/// Writes `bytes` to `path` unless it holds them already. A write goes through a temporary
/// file in the same directory renamed into place, so a reader never sees a half-written level
/// and an older, longer file never leaves stale bytes. Leaving an identical file alone spares
/// the rename, the dearest part of compiling again into the same folder (ext4 also flushes
/// the data of a file that replaces another).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let done = match std::fs::metadata(path) {
        Ok(metadata) => holds(path, &metadata, bytes),
        // A new file: linked in once written, or else through a temporary after all.
        Err(error) => error.kind() == std::io::ErrorKind::NotFound && link_new(path, bytes).is_ok(),
    };
    if done {
        return Ok(());
    }
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temporary = path.with_file_name(format!(".{file_name}.{}.tmp", std::process::id()));
    std::fs::write(&temporary, bytes)?;
    std::fs::rename(&temporary, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temporary);
    })
}

/// Writes a file that does not exist yet as a nameless file in its directory, linked under its
/// name once written: as atomic as a rename, and cheaper than creating, naming and renaming a
/// temporary. Fails (and the caller renames) where the file system or kernel cannot, or if
/// `path` appeared meanwhile.
#[cfg(target_os = "linux")]
fn link_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::ffi::CString;
    use std::os::fd::AsRawFd;
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::OpenOptionsExt;
    let directory = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_TMPFILE)
        .open(directory)?;
    file.write_all(bytes)?;
    let from = CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))?;
    let to = CString::new(path.as_os_str().as_bytes())?;
    // SAFETY: both names are NUL-terminated strings that outlive the call.
    let linked = unsafe {
        libc::linkat(
            libc::AT_FDCWD,
            from.as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::AT_SYMLINK_FOLLOW,
        )
    };
    if linked == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
fn link_new(_path: &Path, _bytes: &[u8]) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Whether `path` is a regular file holding exactly `bytes`. Its size is asked first, so
/// that nothing but a regular file of the right size is opened (opening a FIFO would block).
fn holds(path: &Path, metadata: &std::fs::Metadata, bytes: &[u8]) -> bool {
    use std::io::Read;
    if !metadata.is_file() || metadata.len() != bytes.len() as u64 {
        return false;
    }
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut old = vec![0; bytes.len()];
    // The end must follow: the file may have grown since its size was asked.
    file.read_exact(&mut old).is_ok() && old == bytes && file.read(&mut [0]).is_ok_and(|n| n == 0)
}

pub fn inspect(path: &Path) -> u8 {
    let bytes = match levkit_files::read_named(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("levkit: cannot read {}: {error}", path.display());
            return EXIT_TROUBLE;
        }
    };
    match levkit_ide::inspect_lev(&bytes) {
        Ok(text) => {
            print!("{text}");
            EXIT_OK
        }
        Err((partial, error)) => {
            print!("{partial}");
            eprintln!(
                "levkit: {} is not a valid NetHack 3.4.3 level file: {error}",
                path.display()
            );
            EXIT_ERRORS
        }
    }
}
