//! Depth lists (DEPTH, PLACE, default-depth, the depths of CHANCE and WEIGHT) as crawl reads
//! them: comma-separated ranges, each `*`, `Branch`, `Branch:N`, `Branch:N-M`, `Branch:N-`,
//! `Branch:$`, `Branch:N-$`, `Branch:*`, or an absolute `N`, `N-M`, `N-`; `!` in front
//! excludes the range. Branch names are checked; depths are not checked against the branch's
//! length (crawl does not either).

use std::ops::Range;
use std::sync::LazyLock;

use rustc_hash::FxHashSet;

use super::spec::trimmed;
use super::tables::BRANCHES;

/// One range of a depth list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepthRange {
    pub exclude: bool,
    /// `None`: absolute dungeon depth. `Some("any")`, `Some("*")`: everywhere.
    pub branch: Option<String>,
    pub levels: Levels,
    /// Where the range lies in the list's text.
    pub span: Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Levels {
    /// The whole branch.
    All,
    /// From `first` to `last` (`None`: to the bottom).
    Span { first: u32, last: Option<u32> },
    /// The bottom level only.
    Bottom,
}

/// What crawl rejects in a depth list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DepthError {
    /// `Unknown branch: 'X'`.
    UnknownBranch { name: String, span: Range<usize> },
    /// `Bad depth: X`.
    BadDepth { depth: String, span: Range<usize> },
}

impl DepthError {
    /// crawl's message.
    pub fn message(&self) -> String {
        match self {
            DepthError::UnknownBranch { name, .. } => format!("Unknown branch: '{name}'"),
            DepthError::BadDepth { depth, .. } => format!("Bad depth: {depth}"),
        }
    }

    pub fn span(&self) -> Range<usize> {
        match self {
            DepthError::UnknownBranch { span, .. } | DepthError::BadDepth { span, .. } => {
                span.clone()
            }
        }
    }
}

/// The branch abbreviations, hashed once: depth lists name branches at every DEPTH and PLACE.
static BRANCH_ABBREVIATIONS: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| BRANCHES.iter().map(|b| b.abbrev.as_str()).collect());

/// Whether `name` is a branch DEPTH and PLACE accept.
pub fn is_branch(name: &str) -> bool {
    matches!(name, "any" | "Any" | "*") || BRANCH_ABBREVIATIONS.contains(name)
}

/// A level number: an optional sign and digits, at least 1.
fn level(text: &str) -> Option<u32> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().filter(|&n| n >= 1)
}

fn levels(text: &str) -> Option<Levels> {
    match text {
        "*" | "" => Some(Levels::All),
        "$" => Some(Levels::Bottom),
        _ => match text.bytes().position(|b| b == b'-') {
            None => level(text).map(|n| Levels::Span {
                first: n,
                last: Some(n),
            }),
            Some(dash) => {
                let (first, last) = (&text[..dash], &text[dash + 1..]);
                // crawl reads the first level up to the `-` and wants nothing else there: a
                // blank before the `-` is a bad depth; blanks after it are skipped.
                let first = level(first.trim_start())?;
                let last = match last.trim() {
                    "" | "$" => None,
                    last => Some(level(last).filter(|&l| l >= first)?),
                };
                Some(Levels::Span { first, last })
            }
        },
    }
}

/// Parses a depth list; the first problem ends it, as in crawl. An empty list is no range.
pub fn parse(text: &str) -> Result<Vec<DepthRange>, DepthError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(memchr::memchr_iter(b',', bytes).count() + 1);
    // The ranges between commas, and the colon in each, found byte by byte: the lists are
    // short, and a `str` search set up for each cost more than the rest of the parse.
    let mut next = Some(0);
    while let Some(start) = next {
        let end = match bytes[start..].iter().position(|&b| b == b',') {
            Some(comma) => {
                next = Some(start + comma + 1);
                start + comma
            }
            None => {
                next = None;
                text.len()
            }
        };
        let span = trimmed(text, start..end);
        let range_text = &text[span.clone()];
        if range_text.is_empty() {
            continue;
        }
        let (exclude, body_start) = match range_text.strip_prefix('!') {
            Some(_) => (true, span.start + 1),
            None => (false, span.start),
        };
        let body = &text[body_start..span.end];
        let (branch, depth, depth_span) = match body.bytes().position(|b| b == b':') {
            Some(colon) => {
                let name_span = trimmed(text, body_start..body_start + colon);
                let name = &text[name_span.clone()];
                if !is_branch(name) {
                    return Err(DepthError::UnknownBranch {
                        name: name.to_string(),
                        span: name_span,
                    });
                }
                let depth_span = trimmed(text, body_start + colon + 1..span.end);
                let depth = &text[depth_span.clone()];
                if depth.is_empty() {
                    return Err(DepthError::BadDepth {
                        depth: String::new(),
                        span: body_start + colon..body_start + colon + 1,
                    });
                }
                (Some(name.to_string()), depth, depth_span)
            }
            None => {
                let name = body.trim();
                if name.starts_with(|c: char| c.is_ascii_digit() || c == '+' || c == '-') {
                    (None, name, trimmed(text, body_start..span.end))
                } else {
                    if !is_branch(name) {
                        return Err(DepthError::UnknownBranch {
                            name: name.to_string(),
                            span: trimmed(text, body_start..span.end),
                        });
                    }
                    (Some(name.to_string()), "", span.clone())
                }
            }
        };
        let Some(levels) = levels(depth) else {
            return Err(DepthError::BadDepth {
                depth: depth.to_string(),
                span: depth_span,
            });
        };
        out.push(DepthRange {
            exclude,
            branch,
            levels,
            span,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branches_are_found_in_the_set_as_in_the_table() {
        let names = BRANCHES
            .iter()
            .flat_map(|b| {
                [
                    b.abbrev.as_str().to_string(),
                    b.abbrev.as_str().to_lowercase(),
                ]
            })
            .chain(["any", "Any", "*", "", "ANY", "Nope", "D "].map(String::from));
        for name in names {
            let searched = matches!(name.as_str(), "any" | "Any" | "*")
                || BRANCHES.iter().any(|b| b.abbrev == name.as_str());
            assert_eq!(is_branch(&name), searched, "{name:?}");
        }
    }

    fn verdict(text: &str) -> String {
        match parse(text) {
            Ok(ranges) => format!("{} ranges", ranges.len()),
            Err(e) => e.message(),
        }
    }

    /// Each verdict is the one crawl 0.28.0 gives for `DEPTH: <text>`.
    #[test]
    fn depth_lists_are_judged_as_crawl_judges_them() {
        for (text, expected) in [
            ("D:5-3", "Bad depth: 5-3"),
            ("D:0", "Bad depth: 0"),
            ("D:-1", "Bad depth: -1"),
            ("D:1-x", "Bad depth: 1-x"),
            ("Lair:", "Bad depth: "),
            (":3", "Unknown branch: ''"),
            ("D:$-3", "Bad depth: $-3"),
            ("D:1-2-3", "Bad depth: 1-2-3"),
            ("D:3.5", "Bad depth: 3.5"),
            ("D:3 # comment", "Bad depth: 3 # comment"),
            ("Foo:1", "Unknown branch: 'Foo'"),
            ("D:99x", "Bad depth: 99x"),
            ("D:4 -9", "Bad depth: 4 -9"),
            ("D:4\t-9", "Bad depth: 4\t-9"),
            ("D:4 - 9", "Bad depth: 4 - 9"),
            ("D:4 -$", "Bad depth: 4 -$"),
            ("4 -9", "Bad depth: 4 -9"),
            ("D:4- 9", "1 ranges"),
            ("D:4-\t9", "1 ranges"),
            ("D:4-+9", "1 ranges"),
            ("D: 3", "1 ranges"),
            ("D :3", "1 ranges"),
            ("any:3", "1 ranges"),
            ("Any", "1 ranges"),
            ("D:1,,D:2", "2 ranges"),
            ("!Lair", "1 ranges"),
            ("D:1-$", "1 ranges"),
            ("Depths:2-", "1 ranges"),
            ("D:+3", "1 ranges"),
            ("1-", "1 ranges"),
            ("D:2-4, !D:3, Lair", "3 ranges"),
            ("", "0 ranges"),
        ] {
            assert_eq!(verdict(text), expected, "{text}");
        }
    }
}
