//! The checks crawl 0.28.0 makes when it compiles a vault (section 6.1 of the research note),
//! each problem at its own place and all of them at once: the header functions' argument
//! checks (`headers`, with the names of `names`), the whole-vault checks after the vault's Lua
//! ran (`vault`), and the vault's Lua compiled as Lua 5.1 (`lua`). Then what crawl misses:
//! glyphs without a meaning or specs for glyphs the map lacks (`glyphs`), a map that swallows
//! the next vault for want of its ENDMAP (`endmap`), tags across the run (`tags`), and the
//! reviewers' header order (`order`, a `-W` warning).
//!
//! A vault is checked on its own (its model is one segment of a file); what crawl learns from
//! the rest of the file is passed in [`Context`]. Names across files are the caller's (see
//! [`duplicate_names`]).

mod endmap;
mod glyphs;
mod headers;
mod lua;
mod lua_syntax;
mod names;
mod order;
mod specs;
mod tags;
mod vault;

pub use glyphs::{has_default_meaning, lua_may_rewrite, slot_glyph};
#[doc(hidden)]
pub use lua::{LuaCall, quick_check_misses as lua_quick_check_misses};
pub use tags::{
    TagFacts, TagIndex, TagPart, check_lua_calls, check_tags, crawl_tag_words, is_crawl_tag,
    tag_facts,
};

use levkit_diagnostics::{Code, Diagnostic, TextRange};
use levkit_model::dcss::depth::{self, DepthError, DepthRange};
use levkit_model::dcss::spec::{self, SpecError, Transform};
use levkit_model::dcss::{Arg, Global, Vault};
use levkit_syntax::dcss::Header;

/// What a vault's checks need to know about the file around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Context {
    /// Whether a `default-depth:` line comes before the vault in its file.
    pub default_depth: bool,
    /// Whether the reviewers' header order is asked for (DC0417, an `-W` warning): a run
    /// without `-W` then builds none of its reordering fixes (a fifth of the corpus's vaults
    /// have one).
    pub header_order: bool,
}

/// Every problem crawl would report for the vault, and those it misses (ranges in the vault's
/// model; `text` is the text the model was lowered from).
pub fn check_vault(vault: &Vault, text: &str, context: Context) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let transforms = Transforms::of(vault);
    let depths = Depths::of(vault);
    headers::check(vault, &transforms, &depths, &mut out);
    // A header inside a Lua branch runs only when the branch is taken: crawl's one validation
    // run may not see its problem (it fails when the vault is placed), so it is a warning.
    // Which statements stand in branches is found only when asked: most vaults have no
    // problem here and their headers in order, and finding them walks the vault's Lua.
    let conditional = std::cell::OnceCell::new();
    let conditional =
        || -> &[TextRange] { conditional.get_or_init(|| lua::conditional_ranges(vault)) };
    for diagnostic in &mut out {
        if conditional()
            .iter()
            .any(|r| r.contains_range(diagnostic.range))
        {
            diagnostic.severity = levkit_diagnostics::Severity::Warning;
            diagnostic.message.push_str(
                " (inside Lua that crawl's validation may skip; the vault fails when placed)",
            );
        }
    }
    lua::check(vault, &mut out);
    vault::check(vault, context, &transforms, &depths, &mut out);
    let swallowed = endmap::swallowed(vault);
    endmap::check(vault, swallowed.as_ref(), &mut out);
    glyphs::check(vault, swallowed.as_ref(), &transforms, &mut out);
    if context.header_order {
        order::check(vault, text, conditional, &mut out);
    }
    out
}

/// The map transforms (SUBST, NSUBST, SHUFFLE, CLEAR) of a vault's header arguments as crawl
/// reads them, each with the index of its header and of its argument: parsed once for the
/// checks that read them (the header checks, the glyphs, the exits).
pub(crate) struct Transforms(Vec<(usize, usize, Result<Transform, SpecError>)>);

impl Transforms {
    fn of(vault: &Vault) -> Transforms {
        let mut all = Vec::new();
        // Only a transform header's arguments are asked for: most arguments are of others.
        for (h, header) in vault.headers.iter().enumerate() {
            if !is_transform(header.header) {
                continue;
            }
            for (a, arg) in header.args.iter().enumerate() {
                if let Some(transform) = spec::transform(header.header, &arg.text) {
                    all.push((h, a, transform));
                }
            }
        }
        Transforms(all)
    }

    /// The transform of argument `arg` of header `header` (`None` for a header of another
    /// kind).
    pub(crate) fn get(&self, header: usize, arg: usize) -> Option<&Result<Transform, SpecError>> {
        let at = self
            .0
            .binary_search_by_key(&(header, arg), |(h, a, _)| (*h, *a))
            .ok()?;
        Some(&self.0[at].2)
    }

    /// The transforms crawl can read, in the order it applies them.
    pub(crate) fn valid(&self) -> impl Iterator<Item = &Transform> {
        self.0.iter().filter_map(|(_, _, t)| t.as_ref().ok())
    }
}

/// The depth lists of a vault's DEPTH and PLACE arguments as crawl reads them, each with its
/// header's kind and the index of its header and of its argument: parsed once for the header
/// checks and the whole-vault checks (temples, the Abyss, placeability).
pub(crate) struct Depths(Vec<ParsedDepths>);

struct ParsedDepths {
    header: usize,
    arg: usize,
    kind: Header,
    ranges: Result<Vec<DepthRange>, DepthError>,
}

impl Depths {
    fn of(vault: &Vault) -> Depths {
        let mut all = Vec::new();
        for (h, header) in vault.headers.iter().enumerate() {
            if matches!(header.header, Header::Depth | Header::Place) {
                for (a, arg) in header.args.iter().enumerate() {
                    all.push(ParsedDepths {
                        header: h,
                        arg: a,
                        kind: header.header,
                        ranges: depth::parse(&arg.text),
                    });
                }
            }
        }
        Depths(all)
    }

    /// The depth list of argument `arg` of header `header` (`None` for a header other than
    /// DEPTH and PLACE).
    pub(crate) fn get(
        &self,
        header: usize,
        arg: usize,
    ) -> Option<&Result<Vec<DepthRange>, DepthError>> {
        let at = self
            .0
            .binary_search_by_key(&(header, arg), |p| (p.header, p.arg))
            .ok()?;
        Some(&self.0[at].ranges)
    }

    /// The arguments of the vault's `kind` headers (DEPTH or PLACE) in order, each with its
    /// depth list.
    pub(crate) fn of_kind<'a>(
        &'a self,
        vault: &'a Vault,
        kind: Header,
    ) -> impl Iterator<Item = (&'a Arg, &'a Result<Vec<DepthRange>, DepthError>)> {
        self.0
            .iter()
            .filter(move |p| p.kind == kind)
            .map(|p| (&vault.headers[p.header].args[p.arg], &p.ranges))
    }
}

/// Whether `header`'s arguments are map transforms (the only headers `spec::transform` reads).
fn is_transform(header: Header) -> bool {
    matches!(
        header,
        Header::Subst | Header::NSubst | Header::Shuffle | Header::Clear
    )
}

/// The problems of the text outside vaults: a bad `default-depth:`, file-level Lua that does
/// not compile.
pub fn check_global(global: &Global) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if let Some(header) = &global.default_depth
        && let Some(arg) = header.args.first()
        && let Err(error) = depth::parse(&arg.text)
    {
        out.push(Diagnostic::new(
            Code::DC0103,
            range_in(arg, error.span()),
            format!(
                "crawl cannot read this default depth: {}",
                error.message().to_lowercase()
            ),
        ));
    }
    lua::check_global(global, &mut out);
    out
}

/// crawl's names are global across every file it loads: every vault whose name an earlier
/// one already has, paired with that first vault. `vaults` come in crawl's loading order;
/// positions play no part, so that edits which move vaults leave the answer equal.
pub fn repeated_names<'a, V: Copy>(vaults: impl IntoIterator<Item = (V, &'a str)>) -> Vec<(V, V)> {
    let mut first: rustc_hash::FxHashMap<&str, V> = rustc_hash::FxHashMap::default();
    let mut out = Vec::new();
    for (vault, name) in vaults {
        match first.entry(name) {
            std::collections::hash_map::Entry::Vacant(entry) => {
                entry.insert(vault);
            }
            std::collections::hash_map::Entry::Occupied(entry) => out.push((vault, *entry.get())),
        }
    }
    out
}

/// The error at a repeated vault name (`range`); `first` says where the first vault of the
/// name is, and `first_here` points at it when it is in the same file.
pub fn duplicate_name(
    name: &str,
    range: TextRange,
    first: &str,
    first_here: Option<TextRange>,
) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::DC0301,
        range,
        format!(
            "a vault named '{name}' already exists ({first}); vault names must be unique across every file"
        ),
    );
    match first_here {
        Some(here) => diagnostic.with_label(here, "first defined here"),
        None => diagnostic,
    }
}

/// The source range of `span`, a byte range of the argument's text: exact when the argument
/// is written on one piece, the whole argument when continuation lines joined it.
pub(crate) fn range_in(arg: &Arg, span: std::ops::Range<usize>) -> TextRange {
    let len = u32::from(arg.range.len()) as usize;
    if len == arg.text.len() && span.end <= len && span.start <= span.end {
        TextRange::new(
            arg.range.start() + rowan::TextSize::from(span.start as u32),
            arg.range.start() + rowan::TextSize::from(span.end as u32),
        )
    } else {
        arg.range
    }
}

/// The source range of `span` of the argument's text when it is written in one piece (`None`
/// when continuation lines joined it, so that a fix cannot replace the wrong text).
pub(crate) fn exact_range_in(arg: &Arg, span: std::ops::Range<usize>) -> Option<TextRange> {
    let len = u32::from(arg.range.len()) as usize;
    (len == arg.text.len() && span.end <= len && span.start <= span.end)
        .then(|| range_in(arg, span))
}

/// Adds "did you mean" to a diagnostic about `name`, with the fix that writes the suggestion
/// at `at` (when `name` is written there as it is).
pub(crate) fn did_you_mean<'a>(
    diagnostic: Diagnostic,
    name: &str,
    at: Option<TextRange>,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Diagnostic {
    let Some(suggestion) = levkit_syntax::suggest::closest(name, candidates) else {
        return diagnostic;
    };
    if suggestion == name {
        return diagnostic;
    }
    suggest_instead(diagnostic, suggestion, at)
}

/// Adds "did you mean `suggestion`" to a diagnostic, with the fix that writes it at `at`.
pub(crate) fn suggest_instead(
    mut diagnostic: Diagnostic,
    suggestion: &str,
    at: Option<TextRange>,
) -> Diagnostic {
    diagnostic
        .message
        .push_str(&format!("; did you mean '{suggestion}'?"));
    match at {
        Some(range) => {
            diagnostic.with_replacement(format!("Replace with '{suggestion}'"), range, suggestion)
        }
        None => diagnostic,
    }
}

/// Where `name` is written inside `span` of the argument (its first occurrence).
pub(crate) fn name_range(arg: &Arg, span: std::ops::Range<usize>, name: &str) -> Option<TextRange> {
    if name.is_empty() {
        return None;
    }
    let at = arg.text.get(span.clone())?.find(name)? + span.start;
    exact_range_in(arg, at..at + name.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transform_headers_are_those_spec_reads() {
        for &header in Header::ALL {
            assert_eq!(
                spec::transform(header, "x = y").is_some(),
                is_transform(header),
                "{header:?}"
            );
        }
    }
}
