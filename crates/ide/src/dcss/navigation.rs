//! Go to definition and references in vault files:
//! - vault names: a NAME, and the Lua strings that name a vault (`dgn.map_by_name("x")`,
//!   a marker's destination...), across the workspace;
//! - tags: the TAGS words that give a vault a tag, and the SUBVAULTs that ask for it;
//! - Lua functions: those defined in the file's Lua (file-level Lua, a vault's prelude...),
//!   and their uses. The Lua is read with full_moon (a lossless Lua 5.1 parser); mlua, which
//!   checks the Lua's syntax, cannot say where names are.
//!
//! Also the outline's Lua part: the functions of a file's file-level Lua.

use full_moon::ast::{FunctionDeclaration, LocalFunction};
use full_moon::node::Node;
use full_moon::tokenizer::{TokenReference, TokenType};
use full_moon::visitors::Visitor;
use levkit_diagnostics::{TextRange, TextSize};
use levkit_model::dcss::{Lua, Segment};
use levkit_syntax::Dialect;

use super::cursor::segment_at;
use super::tags::segment_tag_facts;
use super::{Placed, SegmentText, segment_model, segments, vault_names};
use crate::FileId;
use crate::db::{SourceFile, Workspace, dialect};
use crate::features::Location;

/// The names of a segment's Lua, offsets relative to the segment.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct LuaNames {
    /// Functions defined: name, the name's range, the whole definition's range.
    pub functions: Vec<(String, TextRange, TextRange)>,
    /// Names used (not after `.` or `:`), definitions included.
    pub uses: Vec<(String, TextRange)>,
    /// String literals: their text, and the range of the text inside the quotes.
    pub strings: Vec<(String, TextRange)>,
}

/// The Lua of a segment as one text of the segment's length: everything that is not Lua is
/// blanked (line breaks kept), so that offsets in it are offsets in the segment.
fn lua_text(segment_text: &str, lua: &[Lua]) -> String {
    let mut out: Vec<u8> = segment_text
        .bytes()
        .map(|b| if b == b'\n' { b'\n' } else { b' ' })
        .collect();
    for line in lua.iter().flat_map(|l| &l.lines) {
        let (start, end) = (
            usize::from(line.range.start()),
            usize::from(line.range.end()),
        );
        if let Some(source) = segment_text.get(start..end) {
            out[start..end].copy_from_slice(source.as_bytes());
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

fn range_of(token: &TokenReference) -> TextRange {
    let token = token.token();
    span(token.start_position().bytes(), token.end_position().bytes())
}

/// A range from full_moon's positions, which can run backwards in a construct it recovered
/// (`function c` cut off before its `end` ends where its first token starts).
fn span(start: usize, end: usize) -> TextRange {
    let start = TextSize::from(start as u32);
    TextRange::new(start, TextSize::from(end as u32).max(start))
}

#[derive(Default)]
struct Definitions {
    functions: Vec<(String, TextRange, TextRange)>,
}

impl Definitions {
    fn add(&mut self, name: &TokenReference, whole: Option<TextRange>) {
        let range = range_of(name);
        self.functions
            .push((name.token().to_string(), range, whole.unwrap_or(range)));
    }
}

fn whole(node: &impl Node) -> Option<TextRange> {
    let (start, end) = node.range()?;
    Some(span(start.bytes(), end.bytes()))
}

impl Visitor for Definitions {
    fn visit_function_declaration(&mut self, node: &FunctionDeclaration) {
        // `function a.b.c()`: the definition is of `c`, reached through `a.b`.
        if let Some(name) = node.name().names().iter().last() {
            self.add(name, whole(node));
        }
    }

    fn visit_local_function(&mut self, node: &LocalFunction) {
        self.add(node.name(), whole(node));
    }
}

#[salsa::tracked(returns(ref))]
pub(crate) fn segment_lua_names<'db>(
    db: &'db dyn salsa::Database,
    segment: SegmentText<'db>,
) -> LuaNames {
    let lua = match segment_model(db, segment) {
        Segment::Vault(vault) => &vault.lua,
        Segment::Global(global) => &global.lua,
    };
    if lua.iter().all(|l| !l.has_code()) {
        return LuaNames::default();
    }
    let text = lua_text(segment.text(db), lua);
    // full_moon 3.0 reaches `unreachable!` on a backtick outside Luau; in Lua 5.1 it is an
    // invalid character either way, and `$` (also one byte, also invalid) keeps every offset.
    let lua_source = text.replace('`', "$");
    let Ok(parsed) = std::panic::catch_unwind(|| {
        full_moon::parse_fallible(&lua_source, full_moon::LuaVersion::lua51())
    }) else {
        return LuaNames::default();
    };
    let ast = parsed.ast();
    let mut definitions = Definitions::default();
    definitions.visit_ast(ast);
    let mut names = LuaNames {
        functions: definitions.functions,
        ..LuaNames::default()
    };
    let bytes = text.as_bytes();
    for token in ast.nodes().tokens() {
        let range = range_of(token);
        if range.is_empty() {
            continue;
        }
        match token.token().token_type() {
            TokenType::Identifier { identifier } => {
                let before = text[..usize::from(range.start())].trim_end();
                if !(before.ends_with('.') && !before.ends_with("..") || before.ends_with(':')) {
                    names.uses.push((identifier.to_string(), range));
                }
            }
            // Between the quotes (a string cut off by the end of the text has no closing
            // one, and may be too short to have both).
            TokenType::StringLiteral {
                literal,
                multi_line_depth: 0,
                ..
            } if range.len() >= TextSize::from(2) && usize::from(range.end()) <= bytes.len() => {
                let inner = TextRange::new(
                    range.start() + TextSize::from(1),
                    range.end() - TextSize::from(1),
                );
                names.strings.push((literal.to_string(), inner));
            }
            _ => {}
        }
    }
    names
}

/// What the cursor is on, for navigation.
enum Target {
    /// A Lua name (a function, if one of that name is defined).
    LuaName(String),
    /// A vault name (on a NAME, or in a Lua string).
    VaultName(String),
    /// A tag (a TAGS word or a SUBVAULT option).
    Tag(String),
}

fn target(db: &dyn salsa::Database, placed: Placed<'_>, offset: TextSize) -> Option<Target> {
    let touches = |range: TextRange| range.contains(offset) || range.end() == offset;
    let lua = segment_lua_names(db, placed.segment);
    if let Some((name, _)) = lua.uses.iter().find(|(_, r)| touches(*r)) {
        return Some(Target::LuaName(name.clone()));
    }
    if let Some((text, _)) = lua.strings.iter().find(|(_, r)| touches(*r)) {
        return Some(Target::VaultName(text.clone()));
    }
    let facts = segment_tag_facts(db, placed.segment);
    for tag in facts.vaults.iter().flatten() {
        if tag.range.is_some_and(touches) {
            return Some(Target::Tag(tag.word.clone()));
        }
    }
    for wanted in &facts.wanted {
        if touches(wanted.range) {
            return Some(Target::Tag(wanted.tags.join(" ")));
        }
    }
    if let Segment::Vault(vault) = segment_model(db, placed.segment)
        && touches(vault.name.range)
    {
        return Some(Target::VaultName(vault.name.value.clone()));
    }
    None
}

/// The DCSS files of the workspace, `file` first.
fn dcss_files(db: &dyn salsa::Database, workspace: Workspace, file: SourceFile) -> Vec<SourceFile> {
    let mut files = vec![file];
    files.extend(
        workspace
            .files(db)
            .iter()
            .copied()
            .filter(|&f| f != file && dialect(db, f) == Dialect::DcssDes),
    );
    files
}

fn location(file: SourceFile, range: TextRange) -> Location {
    Location {
        file: FileId(file),
        range,
    }
}

/// The functions of that name defined in a file's Lua (file-level Lua first).
fn function_definitions(db: &dyn salsa::Database, file: SourceFile, name: &str) -> Vec<Location> {
    let mut global = Vec::new();
    let mut in_vaults = Vec::new();
    for placed in segments(db, file) {
        let is_global = matches!(segment_model(db, placed.segment), Segment::Global(_));
        for (function, range, _) in &segment_lua_names(db, placed.segment).functions {
            if function == name {
                let found = location(file, *range + placed.start);
                if is_global {
                    &mut global
                } else {
                    &mut in_vaults
                }
                .push(found);
            }
        }
    }
    global.extend(in_vaults);
    global
}

/// Where a tag is given (TAGS words) and, with `asked`, where SUBVAULTs ask for it and Lua
/// strings name it.
fn tag_sites(
    db: &dyn salsa::Database,
    files: &[SourceFile],
    tag: &str,
    asked: bool,
) -> Vec<Location> {
    let mut out = Vec::new();
    for &file in files {
        for placed in segments(db, file) {
            let facts = segment_tag_facts(db, placed.segment);
            for t in facts.vaults.iter().flatten() {
                if let Some(range) = t.range.filter(|_| t.word == tag) {
                    out.push(location(file, range + placed.start));
                }
            }
            if asked {
                for wanted in facts.wanted.iter().filter(|w| w.tags.join(" ") == tag) {
                    out.push(location(file, wanted.range + placed.start));
                }
                // Lua that sets or looks up the tag: `e.tags("... tag ...")`.
                for (text, range) in &segment_lua_names(db, placed.segment).strings {
                    let mut at = 0;
                    for word in text.split(' ') {
                        if word == tag && text.len() == usize::from(range.len()) {
                            let start = range.start() + TextSize::from(at as u32);
                            out.push(location(
                                file,
                                TextRange::at(start, TextSize::of(word)) + placed.start,
                            ));
                        }
                        at += word.len() + 1;
                    }
                }
            }
        }
    }
    out
}

fn vault_definitions(db: &dyn salsa::Database, files: &[SourceFile], name: &str) -> Vec<Location> {
    files
        .iter()
        .flat_map(|&file| {
            vault_names(db, file)
                .iter()
                .filter(|(n, _)| n == name)
                .map(move |(_, range)| location(file, *range))
        })
        .collect()
}

pub(crate) fn definitions(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<Location> {
    let Some((placed, rel)) = segment_at(db, file, offset) else {
        return Vec::new();
    };
    let files = dcss_files(db, workspace, file);
    match target(db, placed, rel) {
        Some(Target::LuaName(name)) => {
            // Helpers defined in another file's Lua are global in crawl's Lua too.
            files
                .iter()
                .map(|&f| function_definitions(db, f, &name))
                .find(|found| !found.is_empty())
                .unwrap_or_default()
        }
        Some(Target::VaultName(name)) => vault_definitions(db, &files, &name),
        Some(Target::Tag(tag)) => tag_sites(db, &files, &tag, false),
        None => Vec::new(),
    }
}

pub(crate) fn references(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<Location> {
    let Some((placed, rel)) = segment_at(db, file, offset) else {
        return Vec::new();
    };
    let files = dcss_files(db, workspace, file);
    match target(db, placed, rel) {
        Some(Target::LuaName(name)) => {
            // The uses in the files that define no function of that name themselves (a
            // file's own definition shadows another's).
            let defining: Vec<SourceFile> = files
                .iter()
                .copied()
                .filter(|&f| !function_definitions(db, f, &name).is_empty())
                .collect();
            let home = defining.first().copied().unwrap_or(file);
            let mut out = Vec::new();
            for &f in &files {
                if f != home && defining.contains(&f) {
                    continue;
                }
                for p in segments(db, f) {
                    for (used, range) in &segment_lua_names(db, p.segment).uses {
                        if *used == name {
                            out.push(location(f, *range + p.start));
                        }
                    }
                }
            }
            out
        }
        Some(Target::VaultName(name)) => {
            let mut out = vault_definitions(db, &files, &name);
            for &f in &files {
                for p in segments(db, f) {
                    for (text, range) in &segment_lua_names(db, p.segment).strings {
                        if *text == name {
                            out.push(location(f, *range + p.start));
                        }
                    }
                }
            }
            out
        }
        Some(Target::Tag(tag)) => tag_sites(db, &files, &tag, true),
        None => Vec::new(),
    }
}

/// The functions of the file-level Lua segments, for the outline.
pub(crate) fn global_functions(
    db: &dyn salsa::Database,
    placed: Placed<'_>,
) -> Vec<(String, TextRange, TextRange)> {
    if !matches!(segment_model(db, placed.segment), Segment::Global(_)) {
        return Vec::new();
    }
    segment_lua_names(db, placed.segment)
        .functions
        .iter()
        .map(|(name, focus, whole)| (name.clone(), *focus + placed.start, *whole + placed.start))
        .collect()
}
