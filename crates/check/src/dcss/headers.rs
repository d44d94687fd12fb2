//! What crawl's header functions reject when the vault's Lua runs: depth lists, ORIENT,
//! CHANCE and WEIGHT values, the glyph specs and their names.

use std::sync::LazyLock;

use rustc_hash::FxHashMap as HashMap;

use levkit_diagnostics::{Code, Diagnostic};
use levkit_model::dcss::spec::{self, SpecError, SpecErrorKind};
use levkit_model::dcss::tables::{BRANCHES, COLOURS, TILES, Tile, WORDS};
use levkit_model::dcss::{Arg, HeaderLine, Vault, depth};
use levkit_syntax::dcss::Header;

use super::{Depths, Transforms, did_you_mean, exact_range_in, range_in, specs};

pub(super) fn check(
    vault: &Vault,
    transforms: &Transforms,
    depths: &Depths,
    out: &mut Vec<Diagnostic>,
) {
    for (index, header) in vault.headers.iter().enumerate() {
        check_header(header, Some((transforms, depths, index)), out);
    }
    for lua in &vault.lua {
        for line in &lua.lines {
            if let Some(header) = literal_call(line) {
                check_header(&header, None, out);
            }
        }
    }
}

/// A Lua line that calls a header function with literals, `subst("x = y")` or `chance(50)`:
/// the header it stands for, with the string as its argument (crawl checks it the same way;
/// only the header line splits lists at commas), or CHANCE and WEIGHT with their number and
/// depths.
fn literal_call(line: &levkit_model::dcss::LuaLine) -> Option<HeaderLine> {
    let text = &line.text;
    let start = leading_blanks(text);
    let rest = &text[start..];
    let name_len = rest.bytes().take_while(|b| b.is_ascii_lowercase()).count();
    let header = match &rest[..name_len] {
        "subst" => Header::Subst,
        "nsubst" => Header::NSubst,
        "shuffle" => Header::Shuffle,
        "clear" => Header::Clear,
        "kfeat" => Header::KFeat,
        "kmons" => Header::KMons,
        "kitem" => Header::KItem,
        "kmask" => Header::KMask,
        "kprop" => Header::KProp,
        "colour" => Header::Colour,
        "ftile" => Header::FTile,
        "rtile" => Header::RTile,
        "tile" => Header::Tile,
        "subvault" => Header::Subvault,
        "depth" => Header::Depth,
        "place" => Header::Place,
        "orient" => Header::Orient,
        "mons" => Header::Mons,
        "item" => Header::Item,
        "chance" => Header::Chance,
        "weight" => Header::Weight,
        _ => return None,
    };
    let numbers = matches!(header, Header::Chance | Header::Weight);
    let at = |offset: usize, len: usize| {
        let from = line.range.start() + rowan::TextSize::from(offset as u32);
        rowan::TextRange::at(from, rowan::TextSize::from(len as u32))
    };
    let after = rest[name_len..].trim_start();
    let parenthesised = after.starts_with('(');
    let inner = after.strip_prefix('(').unwrap_or(after).trim_start();
    // The first argument: a string, or (CHANCE and WEIGHT, in parentheses) a number.
    let (first, first_at, tail) = if let Some((literal, tail)) = string_literal(inner) {
        (literal, text.len() - inner.len() + 1, tail)
    } else if numbers && parenthesised {
        let len = inner
            .bytes()
            .enumerate()
            .take_while(|&(i, b)| b.is_ascii_digit() || b == b'.' || (i == 0 && b == b'-'))
            .count();
        if len == 0 {
            return None;
        }
        (&inner[..len], text.len() - inner.len(), &inner[len..])
    } else {
        return None;
    };
    // CHANCE and WEIGHT may name depths after a comma.
    let mut depths = None;
    let mut tail = tail.trim_start();
    if numbers
        && parenthesised
        && let Some(more) = tail.strip_prefix(',')
    {
        let more = more.trim_start();
        let (literal, after) = string_literal(more)?;
        depths = Some(levkit_model::Spanned::new(
            literal.to_string(),
            at(text.len() - more.len() + 1, literal.len()),
        ));
        tail = after.trim_start();
    }
    // The call must end on this line: `kfeat("a" ..` followed by more text on the next line
    // is not a literal call.
    let tail = match tail.strip_prefix(')') {
        Some(tail) => tail.trim(),
        None if parenthesised => return None,
        None => tail.trim(),
    };
    if first.contains('\\') || !(tail.is_empty() || tail == ";" || tail.starts_with("--")) {
        return None;
    }
    let range = at(first_at, first.len());
    if numbers {
        let number = first.trim().to_string();
        return Some(HeaderLine {
            header,
            keyword: range,
            range,
            args: Vec::new().into(),
            numbers: vec![levkit_model::dcss::NumberItem {
                number: levkit_model::Spanned::new(number, range),
                percent: false,
                depths,
                range,
                emit_line: line.line,
            }],
        });
    }
    Some(HeaderLine {
        header,
        keyword: range,
        range,
        args: vec![Arg {
            text: first.into(),
            range,
            line: line.line,
        }]
        .into(),
        numbers: Vec::new(),
    })
}

/// The length of the whitespace `text` starts with, as `trim_start` sees it: counted byte by
/// byte while it is ASCII (the lines of every vault's Lua come here, and few have other
/// blanks).
fn leading_blanks(text: &str) -> usize {
    let ascii = text
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t'..=b'\r'))
        .count();
    if text.as_bytes().get(ascii).is_none_or(u8::is_ascii) {
        ascii
    } else {
        text.len() - text.trim_start().len()
    }
}

/// A quoted Lua string at the start of `text` (no escapes), and the text after it.
fn string_literal(text: &str) -> Option<(&str, &str)> {
    let quote = text.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &text[1..];
    let close = body.find(quote)?;
    Some((&body[..close], &body[close + 1..]))
}

pub(super) fn spec_error(arg: &Arg, error: SpecError, out: &mut Vec<Diagnostic>) {
    let code = match error.kind {
        SpecErrorKind::MissingSeparator => Code::DC0107,
        SpecErrorKind::MissingValue => Code::DC0108,
        SpecErrorKind::BadWeight => Code::DC0109,
        SpecErrorKind::BadNsubst => Code::DC0110,
        SpecErrorKind::ShuffleMismatch => Code::DC0111,
        SpecErrorKind::ShuffleComma => Code::DC0112,
        SpecErrorKind::ShuffleNothing => Code::DC0125,
        SpecErrorKind::ClearNothing => Code::DC0113,
        SpecErrorKind::SubvaultEquals => Code::DC0123,
    };
    let advice = match error.kind {
        SpecErrorKind::MissingSeparator => "; write the glyphs, then `=` or `:`, then the value",
        SpecErrorKind::MissingValue => "; write what the glyphs become after the separator",
        SpecErrorKind::BadWeight => "; a weight is a whole number above 0, as in `x:5`",
        SpecErrorKind::BadNsubst => {
            "; a segment is `count = glyphs` with a whole number other than 0 as its count, or `*`"
        }
        _ => "",
    };
    out.push(Diagnostic::new(
        code,
        range_in(arg, error.span),
        format!("{}{advice}", error.message),
    ));
}

/// Checks a header line; `parsed` has its transforms and depth lists when it is the vault's
/// header of that index (a literal call in Lua has its own).
fn check_header(
    header: &HeaderLine,
    parsed: Option<(&Transforms, &Depths, usize)>,
    out: &mut Vec<Diagnostic>,
) {
    match header.header {
        Header::Name
        | Header::DefaultDepth
        | Header::Desc
        | Header::Tags
        | Header::Order
        | Header::Marker => {
            if header.header == Header::Marker {
                for arg in &header.args {
                    if let Err(error) = spec::split(&arg.text) {
                        spec_error(arg, error, out);
                    }
                }
            }
        }
        Header::Depth | Header::Place => {
            for (index, arg) in header.args.iter().enumerate() {
                let error = match parsed {
                    Some((_, depths, at)) => depths
                        .get(at, index)
                        .and_then(|ranges| ranges.as_ref().err().cloned()),
                    None => depth::parse(&arg.text).err(),
                };
                if let Some(error) = error {
                    depth_error(arg, error, out);
                }
            }
        }
        Header::Orient => {
            for arg in &header.args {
                let known = arg.text.is_empty()
                    || WORDS
                        .iter()
                        .any(|w| w.header == "ORIENT" && w.word.as_str() == arg.text);
                if !known {
                    let diagnostic = Diagnostic::new(
                        Code::DC0104,
                        arg.range,
                        format!(
                            "Bad orient: {}; ORIENT takes float, encompass, north, south, east, west, northeast, northwest, southeast, southwest or centre",
                            arg.text
                        ),
                    );
                    out.push(did_you_mean(
                        diagnostic,
                        &arg.text,
                        exact_range_in(arg, 0..arg.text.len()),
                        words_of("ORIENT"),
                    ));
                }
            }
        }
        Header::Welcome => out.push(Diagnostic::new(
            Code::DC0012,
            header.keyword,
            "WELCOME never compiles in crawl 0.28.0 (no Lua function `welcome` exists); remove it",
        )),
        Header::Chance | Header::Weight => {
            for item in &header.numbers {
                if let Some(depths_text) = &item.depths
                    && let Err(error) = depth::parse(&depths_text.value)
                {
                    let arg = Arg {
                        text: depths_text.value.as_str().into(),
                        range: depths_text.range,
                        line: 0,
                    };
                    depth_error(&arg, error, out);
                }
                let Some(value) = item.value() else { continue };
                if header.header == Header::Chance && !(0..=10000).contains(&value) {
                    out.push(Diagnostic::new(
                        Code::DC0105,
                        item.range,
                        format!(
                            "a chance of {value} is outside 0..10000 (0% to 100%): Chance must be in the range [0,10000]"
                        ),
                    ));
                }
                if header.header == Header::Weight && value < 0 {
                    out.push(Diagnostic::new(
                        Code::DC0106,
                        item.range,
                        format!("Bad weight: {value} (must be >= 0)"),
                    ));
                }
            }
        }
        Header::LFloorCol | Header::LRockCol => {
            for arg in &header.args {
                let floor = header.header == Header::LFloorCol;
                let known = COLOURS.iter().any(|c| {
                    c.name.as_str() == arg.text && if floor { c.lfloorcol } else { c.lrockcol }
                });
                if !known {
                    let diagnostic = Diagnostic::new(
                        Code::DC0114,
                        arg.range,
                        format!(
                            "No such colour as '{}' for {} (colour names are lowercase, as `lightblue`)",
                            arg.text,
                            header.header.keyword()
                        ),
                    );
                    out.push(did_you_mean(
                        diagnostic,
                        &arg.text,
                        exact_range_in(arg, 0..arg.text.len()),
                        COLOURS
                            .iter()
                            .filter(|c| if floor { c.lfloorcol } else { c.lrockcol })
                            .map(|c| c.name.as_str()),
                    ));
                }
            }
        }
        Header::LFloorTile | Header::LRockTile => {
            for arg in &header.args {
                if !is_tile(&arg.text, |_| true) {
                    out.push(unknown_tile(
                        arg,
                        0..arg.text.len(),
                        &arg.text,
                        &arg.text,
                        |_| true,
                    ));
                }
            }
        }
        Header::Clear | Header::Subst | Header::NSubst | Header::Shuffle => {
            for (index, arg) in header.args.iter().enumerate() {
                let error = match parsed {
                    Some((transforms, _, at)) => transforms
                        .get(at, index)
                        .and_then(|t| t.as_ref().err().cloned()),
                    None => spec::transform(header.header, &arg.text).and_then(Result::err),
                };
                if let Some(error) = error {
                    spec_error(arg, error, out);
                }
            }
        }
        Header::Subvault => {
            for arg in &header.args {
                if let Err(error) = spec::subvault(&arg.text) {
                    spec_error(arg, error, out);
                }
            }
        }
        Header::Colour
        | Header::FTile
        | Header::RTile
        | Header::Tile
        | Header::KProp
        | Header::FHeight => {
            for arg in &header.args {
                overlay(header.header, arg, out);
            }
        }
        Header::KMask => {
            for arg in &header.args {
                kmask(arg, out);
            }
        }
        Header::KFeat | Header::KMons | Header::KItem => {
            for arg in &header.args {
                match spec::split(&arg.text) {
                    Err(error) => spec_error(arg, error, out),
                    Ok(keyed) => {
                        let value = keyed.value_range.clone();
                        match header.header {
                            Header::KFeat => specs::kfeat(arg, value, out),
                            Header::KMons => specs::monster_list(arg, value, out),
                            _ => specs::item_list(arg, value, out),
                        }
                    }
                }
            }
        }
        Header::Mons => {
            for arg in &header.args {
                specs::monster_slot(arg, 0..arg.text.len(), out);
            }
        }
        Header::Item => {
            for arg in &header.args {
                specs::item_slot(arg, 0..arg.text.len(), out);
            }
        }
    }
}

fn depth_error(arg: &Arg, error: depth::DepthError, out: &mut Vec<Diagnostic>) {
    let (code, advice) = match &error {
        depth::DepthError::UnknownBranch { .. } => (
            Code::DC0102,
            "; branch names are crawl's abbreviations, case-sensitive (D, Lair, Orc, Vaults...)",
        ),
        depth::DepthError::BadDepth { .. } => (
            Code::DC0101,
            "; a depth is N, N-M, N-, $ or N-$ with levels from 1",
        ),
    };
    let diagnostic = Diagnostic::new(
        code,
        range_in(arg, error.span()),
        format!("{}{advice}", error.message()),
    );
    out.push(match &error {
        depth::DepthError::UnknownBranch { name, span } => did_you_mean(
            diagnostic,
            name,
            exact_range_in(arg, span.clone()),
            BRANCHES.iter().map(|b| b.abbrev.as_str()),
        ),
        depth::DepthError::BadDepth { .. } => diagnostic,
    });
}

/// The words crawl gives a meaning to after `header` (ORIENT values, KMASK flags...).
fn words_of(header: &'static str) -> impl Iterator<Item = &'static str> {
    WORDS
        .iter()
        .filter(move |w| w.header == header && !w.word.contains('<'))
        .map(|w| w.word.as_str())
}

fn is_tile(name: &str, accepts: impl Fn(&Tile) -> bool) -> bool {
    if name.eq_ignore_ascii_case("none") {
        return true;
    }
    let tiles = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        TILES_BY_NAME.get(name.to_ascii_lowercase().as_str())
    } else {
        TILES_BY_NAME.get(name)
    };
    tiles.is_some_and(|tiles| tiles.iter().any(|t| accepts(t)))
}

/// The tiles by ASCII-lowercase name (names are matched in any case; a name may stand for
/// tiles of several groups): every tile header looks its names up here.
static TILES_BY_NAME: LazyLock<HashMap<String, Vec<&'static Tile>>> = LazyLock::new(|| {
    let mut by_name: HashMap<String, Vec<&'static Tile>> = HashMap::default();
    for tile in TILES {
        by_name
            .entry(tile.name.to_ascii_lowercase())
            .or_default()
            .push(tile);
    }
    by_name
});

fn unknown_tile(
    arg: &Arg,
    span: std::ops::Range<usize>,
    name: &str,
    list: &str,
    accepts: impl Fn(&Tile) -> bool,
) -> Diagnostic {
    let diagnostic = Diagnostic::new(
        Code::DC0115,
        range_in(arg, span.clone()),
        format!("bad spec: '{name}' in '{list}': crawl 0.28.0 has no such tile"),
    );
    did_you_mean(
        diagnostic,
        name,
        super::name_range(arg, span, name),
        TILES.iter().filter(|t| accepts(t)).map(|t| t.name.as_str()),
    )
}

/// COLOUR, tiles, KPROP, FHEIGHT: each option's name.
fn overlay(header: Header, arg: &Arg, out: &mut Vec<Diagnostic>) {
    let overlay = match spec::overlay(&arg.text) {
        Ok(overlay) => overlay,
        Err(error) => return spec_error(arg, error, out),
    };
    // The whole list, for a message only: split again only when there is one.
    let list = || &arg.text[spec::split(&arg.text).map_or(0..0, |k| k.value_range)];
    for (option, span) in overlay.options.iter().zip(&overlay.spans) {
        let name = option.value.as_str();
        match header {
            Header::Colour => {
                let known = name.eq_ignore_ascii_case("none")
                    || COLOURS
                        .iter()
                        .any(|c| c.colour && c.name.eq_ignore_ascii_case(name));
                if !known {
                    let diagnostic = Diagnostic::new(
                        Code::DC0114,
                        range_in(arg, span.clone()),
                        format!(
                            "bad spec: '{name}' in '{}': crawl 0.28.0 has no such colour",
                            list()
                        ),
                    );
                    out.push(did_you_mean(
                        diagnostic,
                        name,
                        super::name_range(arg, span.clone(), name),
                        COLOURS.iter().filter(|c| c.colour).map(|c| c.name.as_str()),
                    ));
                }
            }
            Header::FTile | Header::RTile | Header::Tile => {
                for word in name.split_whitespace() {
                    if matches!(word, "no_random" | "last_tile") {
                        continue;
                    }
                    let accepts = |t: &Tile| match header {
                        Header::FTile => t.ftile,
                        Header::RTile => t.rtile,
                        _ => t.tile,
                    };
                    if !is_tile(word, accepts) {
                        out.push(unknown_tile(arg, span.clone(), word, list(), accepts));
                    }
                }
            }
            Header::KProp => {
                let known = WORDS.iter().any(|w| w.header == "KPROP" && w.word == name);
                if !known {
                    let diagnostic = Diagnostic::new(
                        Code::DC0118,
                        range_in(arg, span.clone()),
                        format!(
                            "bad spec: '{name}' in '{}': KPROP takes bloody, highlight, no_cloud_gen, no_tele_into, no_tide, no_jiyva or nothing",
                            list()
                        ),
                    );
                    out.push(did_you_mean(
                        diagnostic,
                        name,
                        super::name_range(arg, span.clone(), name),
                        words_of("KPROP"),
                    ));
                }
            }
            _ => {
                if name.trim().parse::<i32>().is_err() {
                    out.push(Diagnostic::new(
                        Code::DC0124,
                        range_in(arg, span.clone()),
                        format!(
                            "bad spec: '{name}' in '{}': a height is a whole number",
                            list()
                        ),
                    ));
                }
            }
        }
    }
}

fn kmask(arg: &Arg, out: &mut Vec<Diagnostic>) {
    let keyed = match spec::split(&arg.text) {
        Ok(keyed) => keyed,
        Err(error) => return spec_error(arg, error, out),
    };
    let start = keyed.value_range.start;
    let value = keyed.value;
    let mut pos = 0;
    for word in value.split([' ', '\t', '/']) {
        let span = start + pos..start + pos + word.len();
        pos += word.len() + 1;
        let flag = word.strip_prefix('!').unwrap_or(word);
        if flag.is_empty() {
            continue;
        }
        if !WORDS.iter().any(|w| w.header == "KMASK" && w.word == flag) {
            let diagnostic = Diagnostic::new(
                Code::DC0117,
                range_in(arg, span.clone()),
                format!(
                    "Unknown flag: '{flag}'; KMASK takes vault, no_item_gen, no_monster_gen, no_pool_fixup, no_wall_fixup, opaque, no_trap_gen (or !flag)"
                ),
            );
            out.push(did_you_mean(
                diagnostic,
                flag,
                super::name_range(arg, span, flag),
                words_of("KMASK"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_blanks_are_those_trim_start_takes() {
        for text in [
            "",
            "   ",
            "\t subst(\"x = y\")",
            "\u{b}\u{c}\r\nkfeat",
            "\u{a0} mons",
            " \u{2003}\u{85}x",
            "é",
            "x  ",
        ] {
            assert_eq!(
                leading_blanks(text),
                text.len() - text.trim_start().len(),
                "{text:?}"
            );
        }
    }
}
