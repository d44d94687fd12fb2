//! `levkit`: the command-line edge of the toolchain. Each subcommand reads files, asks the
//! analysis database, and prints; exit codes are part of the contract (see README).

mod check;
mod compile;
mod generate;
mod output;
mod preview;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use levkit_syntax::Dialect;

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
        #[arg(long, value_enum, default_value_t = DialectArg::Auto)]
        dialect: DialectArg,
    },
}

/// `--dialect`: which format to read files as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DialectArg {
    /// Recognise each file by its content.
    Auto,
    /// NetHack 3.4.3 special levels (lev_comp).
    Nethack,
    /// NetHack 3.4.3 dungeon description (dgn_comp).
    NethackDungeon,
    /// COM S 327 monster descriptions.
    Rlg327Monster,
    /// COM S 327 object descriptions.
    Rlg327Object,
    /// Dungeon Crawl Stone Soup vaults.
    Dcss,
}

impl DialectArg {
    pub fn forced(self) -> Option<Dialect> {
        match self {
            DialectArg::Auto => None,
            DialectArg::Nethack => Some(Dialect::NethackDes),
            DialectArg::NethackDungeon => Some(Dialect::NethackDungeon),
            DialectArg::Rlg327Monster => Some(Dialect::Rlg327Monster),
            DialectArg::Rlg327Object => Some(Dialect::Rlg327Object),
            DialectArg::Dcss => Some(Dialect::DcssDes),
        }
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
    ExitCode::from(code)
}

fn lsp() -> u8 {
    match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => {
            runtime.block_on(levkit_lsp::run_stdio());
            EXIT_OK
        }
        Err(error) => {
            eprintln!("levkit: cannot start the language server: {error}");
            EXIT_TROUBLE
        }
    }
}

fn parse(path: &PathBuf, dialect: DialectArg) -> u8 {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            eprintln!("levkit: cannot read {}: {error}", path.display());
            return EXIT_TROUBLE;
        }
    };
    let mut db = levkit_ide::RootDatabase::default();
    let file = db.add_file(path.clone(), &bytes, dialect.forced());
    let parse = levkit_ide::parse(&db, file);
    print!("{}", parse.debug_tree());
    let index = levkit_ide::line_index(&db, file);
    let text = file.text(&db);
    let mut errors: Vec<_> = file
        .encoding_error(&db)
        .iter()
        .chain(parse.errors())
        .collect();
    errors.sort_by_key(|d| d.range.start());
    for error in &errors {
        let at = index.line_col_chars(text, error.range.start());
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
