//! The incremental analysis database that the CLI and the language server share.
//!
//! Inputs are files (path, text, an optional dialect override); everything else is a salsa
//! query keyed by file, so an edit recomputes only what depends on it. The analysis never does
//! I/O: callers read files and hand over their text.

pub mod actions;
pub mod completion;
pub mod docs;
pub mod hover;
mod links;
pub mod navigation;
pub mod preview;
pub mod rlg327;
pub mod structure;

pub use links::{Workspace, link_diagnostics};

use std::path::{Path, PathBuf};

use levkit_diagnostics::{Code, Diagnostic, LineIndex, TextRange, TextSize};
use levkit_syntax::{Dialect, Parse};

#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(deref)]
    pub path: PathBuf,
    #[returns(deref)]
    pub text: String,
    /// The error found while decoding the file's bytes, if they were not UTF-8.
    #[returns(ref)]
    pub encoding_error: Option<Diagnostic>,
    /// The dialect chosen by the user; `None` means "recognise it from the content".
    #[returns(copy)]
    pub dialect_override: Option<Dialect>,
}

#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

impl RootDatabase {
    /// Adds a file from its raw bytes (decoded here, with a diagnostic if they are not UTF-8).
    pub fn add_file(
        &mut self,
        path: impl Into<PathBuf>,
        bytes: &[u8],
        dialect_override: Option<Dialect>,
    ) -> SourceFile {
        let (text, encoding_error) = levkit_syntax::decode(bytes);
        SourceFile::new(self, path.into(), text, encoding_error, dialect_override)
    }

    /// Replaces a file's text (an editor's change).
    pub fn set_text(&mut self, file: SourceFile, text: String) {
        use salsa::Setter;
        file.set_text(self).to(text);
        if file.encoding_error(self).is_some() {
            file.set_encoding_error(self).to(None);
        }
    }
}

/// The file's dialect: the override, or what its content says.
#[salsa::tracked(returns(copy))]
pub fn dialect(db: &dyn salsa::Database, file: SourceFile) -> Dialect {
    file.dialect_override(db)
        .unwrap_or_else(|| Dialect::detect(file.path(db), file.text(db)))
}

#[salsa::tracked]
pub fn parse(db: &dyn salsa::Database, file: SourceFile) -> Parse {
    levkit_syntax::parse(file.text(db), dialect(db, file))
}

#[salsa::tracked]
pub fn line_index(db: &dyn salsa::Database, file: SourceFile) -> LineIndex {
    LineIndex::new(file.text(db))
}

/// The semantic model of a NetHack `.des` file (`None` for files of other dialects).
#[salsa::tracked]
pub fn nethack_model(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Option<levkit_model::nethack::DesFile> {
    (dialect(db, file) == Dialect::NethackDes)
        .then(|| levkit_model::nethack::lower(&parse(db, file).syntax()))
}

/// The model of a dungeon description (`None` for files of other dialects).
#[salsa::tracked]
pub fn dungeon_model(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Option<levkit_model::dungeon::DungeonFile> {
    (dialect(db, file) == Dialect::NethackDungeon)
        .then(|| levkit_model::dungeon::lower(&parse(db, file).syntax()))
}

/// The model of a COM S 327 description file (`None` for files of other dialects).
#[salsa::tracked]
pub fn rlg327_model(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> Option<levkit_model::rlg327::DescFile> {
    let kind = match dialect(db, file) {
        Dialect::Rlg327Monster => levkit_model::rlg327::Kind::Monster,
        Dialect::Rlg327Object => levkit_model::rlg327::Kind::Object,
        _ => return None,
    };
    Some(levkit_model::rlg327::lower(&parse(db, file).syntax(), kind))
}

/// Every diagnostic of the file, sorted by position: encoding, syntax, then semantic checks.
/// Codes of the `Extra` group are included; callers filter them (see [`CheckOptions`]).
#[salsa::tracked]
pub fn diagnostics(db: &dyn salsa::Database, file: SourceFile) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = file.encoding_error(db).iter().cloned().collect();
    match dialect(db, file) {
        Dialect::NethackDes => {
            out.extend(parse(db, file).errors().iter().cloned());
            if let Some(model) = nethack_model(db, file) {
                out.extend(levkit_check::nethack::check(model));
            }
        }
        Dialect::NethackDungeon => {
            out.extend(parse(db, file).errors().iter().cloned());
            if let Some(model) = dungeon_model(db, file) {
                out.extend(levkit_check::dungeon::check(model));
            }
        }
        Dialect::Rlg327Monster | Dialect::Rlg327Object => {
            if let Some(model) = rlg327_model(db, file) {
                out.extend(levkit_check::rlg327::check(model));
            }
        }
        Dialect::DcssDes => out.push(Diagnostic::new(
            Code::LK0003,
            first_line_range(file.text(db)),
            "this looks like a Dungeon Crawl Stone Soup vault file; levkit does not check DCSS vaults yet",
        )),
        Dialect::Unknown => out.push(Diagnostic::new(
            Code::LK0002,
            first_line_range(file.text(db)),
            format!(
                "levkit cannot tell which format {} is in: NetHack levels start with `MAZE:` or `LEVEL:`, DCSS vaults with `NAME:`; pass --dialect to choose",
                display_name(file.path(db))
            ),
        )),
    }
    levkit_diagnostics::sort(&mut out);
    out
}

fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || "this file".into(),
        |n| format!("`{}`", n.to_string_lossy()),
    )
}

fn first_line_range(text: &str) -> TextRange {
    let end = text.find(['\n', '\r']).unwrap_or(text.len());
    TextRange::up_to(TextSize::from(end as u32))
}

/// What the user asked to see.
#[derive(Debug, Clone, Copy, Default)]
pub struct CheckOptions {
    /// lev_comp's `-w`: the `Extra` group of codes.
    pub extra_warnings: bool,
}

impl CheckOptions {
    pub fn wants(&self, diagnostic: &Diagnostic) -> bool {
        self.extra_warnings
            || diagnostic.code.info().group == levkit_diagnostics::CodeGroup::Default
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_recomputes_diagnostics() {
        let mut db = RootDatabase::default();
        let file = db.add_file(
            "a.des",
            b"MAZE:\"a\",' '\nGEOMETRY:center,center\nMAP\n.\nENDMAP\n",
            None,
        );
        assert_eq!(dialect(&db, file), Dialect::NethackDes);
        assert!(
            diagnostics(&db, file).is_empty(),
            "{:?}",
            diagnostics(&db, file)
        );
        db.set_text(
            file,
            "MAZE:\"a\",' '\nGEOMETRY:center,center\nMAP\n.\n".into(),
        );
        assert_eq!(diagnostics(&db, file)[0].code, Code::NH0008);
    }

    #[test]
    fn invalid_utf8_is_reported_once_and_analysis_goes_on() {
        let mut db = RootDatabase::default();
        let file = db.add_file("a.des", b"MAZE:\"a\xff\",' '\n", None);
        let codes: Vec<_> = diagnostics(&db, file).iter().map(|d| d.code).collect();
        assert_eq!(codes[0], Code::LK0001);
    }
}
