//! `levkit`: the command-line edge of the toolchain. Each subcommand reads files, asks the
//! analysis database, and prints; exit codes are part of the contract (see README).

mod check;
mod compile;
mod generate;
mod live;
mod output;
mod parallel;
mod preview;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use levkit_syntax::Dialect;

/// mimalloc rather than the system allocator: the analysis makes many small short-lived
/// allocations on every thread, and glibc's per-thread arenas spent a fifth of `check`
/// growing their heaps; the server's keystrokes are a third faster too. (`levkit lsp` then
/// asks for small pages: see `levkit_lsp::prefer_small_pages`.)
#[global_allocator]
static ALLOCATOR: levkit_lsp::Allocator = levkit_lsp::Allocator;

/// The process starts on small pages: the allocator asks for huge ones, and before `main` the
/// kernel zeroed two of them (4 MB) for its first few allocations, a seventh of `--version`'s
/// time and a compile of the NetHack corpus at 33 MB instead of 13. Commands that read
/// megabytes turn huge pages back on ([`huge_pages_for`]). A constructor ahead of the
/// allocator's own (priority 101), as the standard library keeps its arguments (99).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array.00100")]
static SMALL_PAGES_FIRST: extern "C" fn() = small_pages_first;

#[cfg(target_os = "linux")]
extern "C" fn small_pages_first() {
    set_huge_pages(false);
    small_first_arena();
}

/// The allocator reserves its address space an arena at a time, 1 GiB by default, and zeroes
/// the arena's bookkeeping (a bitmap per size class over all of it) before its first
/// allocation: 40 of the 360 pages `--version` faults in. Arenas of 64 MiB keep that to a
/// few pages; a command that needs more memory gets more arenas (mimalloc doubles their size
/// every eight).
#[cfg(target_os = "linux")]
fn small_first_arena() {
    // mimalloc's `mi_option_arena_reserve` (its number in the C enum, which the CLI tests
    // check), in KiB; set before the allocator starts, as MIMALLOC_ARENA_RESERVE would be.
    const ARENA_RESERVE: libc::c_int = 23;
    const ARENA_KIB: libc::c_long = 64 << 10;
    unsafe extern "C" {
        fn mi_option_set(option: libc::c_int, value: libc::c_long);
    }
    // SAFETY: a plain store into mimalloc's table of options, which needs no initialisation.
    unsafe { mi_option_set(ARENA_RESERVE, ARENA_KIB) };
}

/// Huge pages pay from this much source on: the DCSS corpus (4.5 MB) is checked faster with
/// them, the NetHack corpus (300 KB) compiled slower.
const HUGE_PAGES_FROM: u64 = 2 << 20;

/// Turns huge pages back on when the files a command is about to read add up to enough text,
/// by their sizes: decided before reading, so that the sources' own buffers are among the
/// memory they serve (turned on after reading, the DCSS corpus check faulted in 3,400 pages
/// rather than 650, and took 3% longer). Files that reading sniffs first are not counted:
/// most are other text and are skipped, and description files are small either way.
pub fn huge_pages_for(paths: &[PathBuf]) {
    let size = |path: &PathBuf| {
        if levkit_files::is_sniffed(path) {
            0
        } else {
            std::fs::metadata(path).map_or(0, |m| m.len())
        }
    };
    let total: u64 = parallel::map_files(paths, (), |(), path| size(path))
        .into_iter()
        .sum();
    if total >= HUGE_PAGES_FROM {
        set_huge_pages(true);
        levkit_lsp::Allocator::fewer_size_classes();
    }
}

fn set_huge_pages(allowed: bool) {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes plain integers and touches no memory of ours.
    unsafe {
        libc::prctl(
            libc::PR_SET_THP_DISABLE,
            libc::c_ulong::from(!allowed),
            0,
            0,
            0,
        );
    }
    #[cfg(not(target_os = "linux"))]
    let _ = allowed;
}

#[derive(Parser)]
#[command(
    name = "levkit",
    version,
    about = "Check, compile and preview roguelike level description files"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Report errors and warnings in level files (directories are searched recursively).
    Check(check::CheckArgs),
    /// Compile NetHack levels to `.lev` files (one per level) and dungeon.def to `dungeon`, or
    /// print RLG327 descriptions (`--emit print|json`).
    Compile(compile::CompileArgs),
    /// Print a random NetHack 3.4.3 level (rooms and corridors) for a seed and depth, as the
    /// game's own generator builds it.
    Generate(generate::GenerateArgs),
    /// Print a compiled `.lev` file as readable records.
    Inspect { file: PathBuf },
    /// Run the language server on standard input and output.
    Lsp,
    /// Show a level as the game would build it for a seed (text, colours, SVG, HTML, JSON
    /// or the golden-levels terrain format), or a dungeon.def as an overview.
    Preview(preview::PreviewArgs),
    /// Print a file's syntax tree, one node or token per line.
    Parse {
        file: PathBuf,
        #[arg(long, default_value = "auto", value_parser = DialectArg::parser())]
        dialect: DialectArg,
    },
}

/// `--dialect`: which format to read files as (`auto`: recognise each file by its content).
/// The values are the dialects' own names ([`Dialect::name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DialectArg(pub Option<Dialect>);

impl DialectArg {
    pub fn forced(self) -> Option<Dialect> {
        self.0
    }

    fn parser() -> impl clap::builder::TypedValueParser<Value = DialectArg> {
        use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
        let values =
            std::iter::once(PossibleValue::new("auto").help("Recognise each file by its content"))
                .chain(
                    Dialect::choosable()
                        .map(|d| PossibleValue::new(d.name()).help(d.description())),
                );
        PossibleValuesParser::new(values).map(|name| DialectArg(Dialect::from_name(&name)))
    }
}

/// Exit codes: no errors, errors found, usage or I/O problem.
pub const EXIT_OK: u8 = 0;
pub const EXIT_ERRORS: u8 = 1;
pub const EXIT_TROUBLE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Compile(args) => compile::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Inspect { file } => compile::inspect(&file),
        Command::Lsp => lsp(),
        Command::Parse { file, dialect } => parse(&file, dialect),
        Command::Preview(args) => preview::run(&args),
    };
    // What a normal exit would still write: standard output's buffer (standard error has none).
    let _ = std::io::Write::flush(&mut std::io::stdout());
    end_process(code)
}

/// Ends the process at once, without the exit handlers: mimalloc's would hand every free page
/// back to the kernel one `madvise` at a time (120 calls after compiling the NetHack corpus),
/// pages the kernel reclaims with the whole address space a moment later anyway.
fn end_process(code: u8) -> ExitCode {
    #[cfg(feature = "pgo-training")]
    {
        unsafe extern "C" {
            fn __llvm_profile_write_file() -> libc::c_int;
        }
        // SAFETY: the profiling runtime of an instrumented build, called once, at the end.
        unsafe { __llvm_profile_write_file() };
    }
    #[cfg(unix)]
    // SAFETY: `_exit` only ends the process; every file the commands wrote is closed.
    unsafe {
        libc::_exit(code.into())
    }
    #[cfg(not(unix))]
    ExitCode::from(code)
}

fn lsp() -> u8 {
    levkit_lsp::prefer_small_pages();
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => {
            let status = runtime.block_on(levkit_lsp::run_stdio());
            // Requests still at work must not keep a client that said `exit` waiting.
            runtime.shutdown_background();
            status
        }
        Err(error) => {
            eprintln!("levkit: cannot start the language server: {error}");
            EXIT_TROUBLE
        }
    }
}

fn parse(path: &std::path::Path, dialect: DialectArg) -> u8 {
    let bytes = match levkit_files::read_named(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("levkit: cannot read {}: {error}", path.display());
            return EXIT_TROUBLE;
        }
    };
    let mut host = levkit_ide::AnalysisHost::new();
    let file = host.set_file_bytes(path, &bytes);
    host.set_dialect_override(file, dialect.forced());
    let analysis = host.analysis();
    let (Ok((tree, errors)), Ok(text), Ok(index)) = (
        analysis.syntax_tree(file),
        analysis.file_text(file),
        analysis.line_index(file),
    ) else {
        return EXIT_TROUBLE;
    };
    print!("{tree}");
    for error in &errors {
        let at = index.line_col_chars(&text, error.range.start());
        eprintln!(
            "{}:{}:{}: {}[{}]: {}",
            path.display(),
            at.line + 1,
            at.col + 1,
            error.severity,
            error.code,
            error.message
        );
    }
    if errors
        .iter()
        .any(|e| e.severity == levkit_diagnostics::Severity::Error)
    {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}
