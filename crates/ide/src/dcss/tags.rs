//! Tags across the workspace: SUBVAULTs asking for a tag no vault carries, and TAGS words
//! that read like misspellings; and the Lua names vaults call when crawl compiles them. The workspace's facts are gathered without positions
//! ([`TagIndex`]), file by file, so that typing in a map or a monster list leaves the index
//! as it was and re-checks the edited vault only.

use std::sync::Arc;

use levkit_check::dcss::{TagFacts, TagIndex, TagPart, check_lua_calls, check_tags};
use levkit_diagnostics::Diagnostic;
use levkit_syntax::Dialect;

use super::{SegmentText, segment_checked, segments};
use crate::db::{SourceFile, Workspace, dialect};

/// A segment's tag facts.
pub(crate) fn segment_tag_facts<'db>(
    db: &'db dyn salsa::Database,
    segment: SegmentText<'db>,
) -> &'db TagFacts {
    &segment_checked(db, segment).tags
}

/// A file's segments' tag facts, shared with the segments' memos: the list stays equal
/// while its vaults are edited in ways that touch no tag, so that the file's index is not
/// rebuilt. (Not interned: hashing and interning every segment's facts cost more than a
/// check needs of them, 5 M instructions of the DCSS corpus check.)
#[salsa::tracked(returns(ref))]
fn file_tag_facts(db: &dyn salsa::Database, file: SourceFile) -> Vec<Arc<TagFacts>> {
    segments(db, file)
        .iter()
        .map(|p| segment_checked(db, p.segment).tags.clone())
        .collect()
}

/// A file's part of the index: rebuilt only when its tag facts change, not on every edit.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_tag_part(db: &dyn salsa::Database, file: SourceFile) -> TagPart {
    TagPart::new(file_tag_facts(db, file).iter().map(|facts| &**facts))
}

/// The workspace's index.
#[salsa::tracked(returns(ref))]
pub(crate) fn tag_index(db: &dyn salsa::Database, workspace: Workspace) -> TagIndex {
    let files: Vec<&TagPart> = workspace
        .files(db)
        .iter()
        .filter(|&&f| dialect(db, f) == Dialect::DcssDes)
        .map(|&f| file_tag_part(db, f))
        .collect();
    TagIndex::merge(&files)
}

/// A file's tag problems, each with the index of its segment and its range in that segment:
/// no positions in the file, so that an edit that touches no tag, wherever it moves the
/// vaults after it, leaves this as it was (checked per file rather than in a query per
/// segment: verifying hundreds of such memos after a keystroke cost more than the checks).
#[salsa::tracked(returns(ref))]
fn file_tag_problems_by_segment(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<(usize, Diagnostic)> {
    let index = tag_index(db, workspace);
    let facts: Vec<&TagFacts> = file_tag_facts(db, file).iter().map(|f| &**f).collect();
    facts
        .iter()
        .enumerate()
        .flat_map(|(segment, segment_facts)| {
            check_tags(index, segment_facts)
                .into_iter()
                .chain(check_lua_calls(index, &facts, segment))
                .map(move |d| (segment, d))
        })
        .collect()
}

/// A file's tag problems, in the file.
pub(crate) fn file_tag_problems(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<Diagnostic> {
    let placed = segments(db, file);
    file_tag_problems_by_segment(db, workspace, file)
        .iter()
        .filter_map(|(segment, d)| {
            Some(levkit_syntax::dcss::shifted(d, placed.get(*segment)?.start))
        })
        .collect()
}
