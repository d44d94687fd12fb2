//! What `compile` produces, whatever the dialect: files the game loads, or text.

/// What to make of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Emit {
    /// The files the game loads (`.lev` files, `dungeon`).
    Files,
    /// A print-out (RLG327: the assignment's).
    Print,
    /// The print-out of the course's reference parser, quirks included (RLG327).
    PrintCompat,
    /// The definitions as JSON (RLG327).
    Json,
    /// The Lua crawl generates from each vault, as its `-dump-maps` prints it (DCSS).
    Lua,
}

impl Emit {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Emit::Files => "the game's files",
            Emit::Print => "a print-out (--emit print)",
            Emit::PrintCompat => "the reference parser's print-out (--emit print --compat)",
            Emit::Json => "JSON (--emit json)",
            Emit::Lua => "Lua (--emit lua)",
        }
    }
}

/// One output file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompiledFile {
    /// The file name the original tool writes.
    pub name: String,
    /// The bytes, or `None` when the source has errors and the file must not be written.
    pub bytes: Option<Vec<u8>>,
}

/// The result of compiling one source file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Compiled {
    pub files: Vec<CompiledFile>,
    /// Text for standard output.
    pub text: Option<String>,
    /// Why the file cannot be compiled this way at all (wrong dialect, nothing to compile).
    pub refusal: Option<String>,
    /// What a print-out leaves out because it has errors (such as `the MONSTER entry "Foo" at
    /// line 12`); the file's diagnostics say why. Files not written are in `files` instead.
    pub dropped: Vec<String>,
}

impl Compiled {
    pub(crate) fn refused(reason: String) -> Compiled {
        Compiled {
            refusal: Some(reason),
            ..Compiled::default()
        }
    }
}
