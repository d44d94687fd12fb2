//! What the fuzz targets check, one function per target (the files in `fuzz_targets/` only
//! hand the input over). Each one panics, which libFuzzer reports as a crash, when a
//! property every input must keep is broken:
//!
//! - parsers: no panic, the tree's text is the input, errors lie inside it; DCSS's
//!   incremental segmentation equals a fresh one;
//! - the analysis: every feature answers, at any offset, for any text of any dialect;
//! - the NetHack compiler: what it writes decodes to the records it wrote;
//! - the level loader: any bytes that decode load without a panic, and decoding what encoding
//!   the decoded records gave returns them;
//! - mklev: any seed and depth the CLI accepts builds a level;
//! - the server's document sync: after any edits, the server's text is the client's.

pub mod lsp_sync;

use std::path::Path;

use levkit_ide::{AnalysisHost, Emit, PreviewRequest};
use levkit_syntax::{Dialect, TextRange, TextSize};

/// Parses `data` as `dialect`: lossless, and every error inside the text.
pub fn parse(data: &[u8], dialect: Dialect) {
    let (text, _) = levkit_syntax::decode(data);
    let parse = levkit_syntax::parse(&text, dialect);
    assert_eq!(parse.syntax().to_string(), text, "the tree is not the text");
    for error in parse.errors() {
        assert!(
            usize::from(error.range.end()) <= text.len(),
            "an error lies past the end: {error:?}"
        );
        assert!(text.is_char_boundary(usize::from(error.range.start())));
        assert!(text.is_char_boundary(usize::from(error.range.end())));
    }
}

/// The DCSS parser (see [`parse`]), and the editor's incremental segmentation: after cutting
/// out a piece chosen by the first bytes, and after putting it back, it finds what a fresh
/// scan finds.
pub fn parse_dcss(data: &[u8]) {
    parse(data, Dialect::DcssDes);
    let (text, _) = levkit_syntax::decode(data);
    let pick = |i: usize| usize::from(data.get(i).copied().unwrap_or(0));
    let start = text.floor_char_boundary(pick(0) * text.len() / 256);
    let end = text.floor_char_boundary(start + pick(1) % 48);
    let cut = format!("{}{}", &text[..start], &text[end..]);
    let whole = levkit_syntax::dcss::Segmentation::new(&text);
    let shorter = levkit_syntax::dcss::Segmentation::new(&cut);
    assert_eq!(whole.edited(&text, &cut), shorter, "segments after a cut");
    assert_eq!(shorter.edited(&cut, &text), whole, "segments after an insertion");
}

/// Every feature of the analysis on `data` read as `dialect`, at a few offsets, with
/// whatever follows the first two NUL bytes as a second file beside it (`dungeon.def` for a
/// level, a level for `dungeon.def`), so that cross-file features run too.
pub fn analysis(data: &[u8], path: &str, dialect: Dialect) {
    let (main, other) = match data.windows(2).position(|w| w == [0, 0]) {
        Some(at) => (&data[..at], Some(&data[at + 2..])),
        None => (data, None),
    };
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes(path, main);
    host.set_dialect_override(file, Some(dialect));
    if let Some(other) = other {
        let beside = if path.ends_with("dungeon.def") {
            "fuzz/beside.des"
        } else {
            "fuzz/dungeon.def"
        };
        host.set_file_bytes(beside, other);
    }
    let analysis = host.analysis();
    let text = analysis
        .file_text(file)
        .expect("no change cancels this snapshot");
    let len = text.len() as u32;
    let diagnostics = analysis.diagnostics(file).unwrap();
    for d in &diagnostics {
        assert!(
            u32::from(d.range.end()) <= len,
            "diagnostic past the end: {d:?}"
        );
    }
    let index = analysis.line_index(file).unwrap();
    // Offsets from the data itself, plus the ends (anything out of range is clamped).
    let mut offsets: Vec<u32> = vec![0, len / 3, len / 2, len.saturating_sub(1), len, len + 7];
    offsets.extend(data.iter().take(8).map(|&b| u32::from(b) * len / 255));
    for &offset in &offsets {
        let offset = TextSize::from(offset);
        let _ = analysis.hover(file, offset).unwrap();
        let _ = analysis.completions(file, offset).unwrap();
        let _ = analysis.goto_definition(file, offset).unwrap();
        let _ = analysis.references(file, offset).unwrap();
        let _ = analysis.selection_ranges(file, offset).unwrap();
        let _ = analysis
            .code_actions(file, TextRange::new(offset, offset))
            .unwrap();
        for encoding in [
            levkit_diagnostics::PositionEncoding::Utf16,
            levkit_diagnostics::PositionEncoding::Utf8,
        ] {
            let at = offset.min(TextSize::from(len));
            let i = usize::from(at);
            // Between `\r` and `\n` is no position of LSP's: a line break is one.
            let bytes = text.as_bytes();
            let inside_crlf = i > 0 && bytes[i - 1] == b'\r' && bytes.get(i) == Some(&b'\n');
            if text.is_char_boundary(i) && !inside_crlf {
                let position = index.position(&text, at, encoding);
                assert_eq!(
                    index.offset(&text, position, encoding),
                    at,
                    "{encoding:?} position {position:?} does not lead back to offset {at:?}"
                );
            }
        }
    }
    let _ = analysis.symbols(file).unwrap();
    let _ = analysis.folding_ranges(file).unwrap();
    let _ = analysis.highlights(file).unwrap();
    let _ = analysis.inlay_hints(file, None).unwrap();
    let _ = analysis
        .code_actions(file, TextRange::up_to(TextSize::from(len)))
        .unwrap();
    let _ = analysis.affected_by(file).unwrap();
    let request = PreviewRequest {
        seed: data.first().copied().map_or(1, u32::from),
        terrain: true,
        ..PreviewRequest::default()
    };
    let _ = analysis.preview(file, &request).unwrap();
    let deeper = PreviewRequest {
        depth: Some(i32::from(data.last().copied().unwrap_or(0) as i8)),
        ..request
    };
    let _ = analysis.preview(file, &deeper).unwrap();
    for emit in [
        Emit::Files,
        Emit::Print,
        Emit::PrintCompat,
        Emit::Json,
        Emit::Lua,
    ] {
        let _ = analysis.compile(file, emit).unwrap();
    }
    let _ = analysis.syntax_tree(file).unwrap();
    let _ = Dialect::detect(Path::new(path), &text);
}

/// Compiles every level of a `.des` text that has no error, and decodes what was written:
/// the records are the ones the writer built, each laid out once, at increasing offsets.
pub fn compile_nethack(data: &[u8]) {
    use levkit_compile::nethack::lev::{decode, encode};
    use levkit_compile::nethack::{compile_file, compile_level, inspect, level_records};

    let (text, _) = levkit_syntax::decode(data);
    let parse = levkit_syntax::nethack::parse_compact(&text);
    let model = levkit_model::nethack::lower(&parse, &text);
    let mut diagnostics = parse.errors.clone();
    diagnostics.extend(levkit_check::nethack::check(&model));
    for compiled in compile_file(&model, &diagnostics) {
        let Some(bytes) = compiled.bytes else {
            continue;
        };
        let (mut records, sources) = level_records(compiled.level);
        let (encoded, origins) = encode(&mut records);
        assert_eq!(encoded, bytes, "the writer is not records + encode");
        assert_eq!(bytes, compile_level(compiled.level));
        let decoded = decode(&bytes).expect("a written level decodes");
        assert_eq!(
            decoded, records,
            "decoded records differ from the written ones"
        );
        let mut keys: Vec<u32> = origins.iter().map(|&(_, key)| key).collect();
        keys.sort_unstable();
        assert_eq!(keys, (0..sources.len() as u32).collect::<Vec<_>>());
        assert!(origins.windows(2).all(|w| w[0].0 < w[1].0));
        inspect(&bytes).expect("a written level can be inspected");
    }
}

/// Mutated `.lev` bytes: decoding never panics; what decodes re-encodes to bytes that decode
/// to the same records; and it loads for a seed (taken from the data) without a panic.
pub fn load_lev(data: &[u8]) {
    use levkit_compile::nethack::lev::{decode, encode};
    use levkit_generate::level::Place;
    use levkit_generate::rng::Rng;
    use levkit_generate::special::load_special;

    let _ = levkit_compile::nethack::inspect(data);
    let Ok(level) = decode(data) else {
        return;
    };
    let mut again = level.clone();
    let (bytes, _) = encode(&mut again);
    let decoded = decode(&bytes).expect("re-encoded records decode");
    assert_eq!(decoded, again, "re-encoded records decode to others");
    let seed = data
        .iter()
        .rev()
        .take(4)
        .fold(0u32, |s, &b| s << 8 | u32::from(b));
    // The names of the game's own levels pick their place in the dungeon.
    let names = [
        "castle", "medusa-1", "oracle", "minetn-1", "soko1-1", "valley", "fuzz",
    ];
    let name = names[data.len() % names.len()];
    let place = levkit_generate::place::stock_place(name).unwrap_or_else(|| Place::doom(10));
    let _ = load_special(&level, name, &mut Rng::new(seed), &place);
}

/// A random level for any seed and any depth `levkit generate` accepts (1 to 27).
pub fn mklev(data: &[u8]) {
    use levkit_generate::level::Place;
    use levkit_generate::mklev::{makelevel, map_text};
    use levkit_generate::rng::Rng;

    let mut bytes = [0u8; 5];
    for (slot, byte) in bytes.iter_mut().zip(data) {
        *slot = *byte;
    }
    let seed = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    let depth = 1 + i32::from(bytes[4]) % 27;
    let generated = makelevel(&mut Rng::new(seed), &Place::doom(depth));
    let _ = map_text(&generated, true);
}

/// DCSS vaults' Lua: whatever chunk the quick Lua syntax check calls surely valid, Lua loads
/// (the check may only ever send a chunk it is unsure of to Lua, never pass a bad one).
pub fn lua_syntax(data: &[u8]) {
    let (text, _) = levkit_syntax::decode(data);
    for segment in levkit_syntax::dcss::segments(&text) {
        let piece = &text[segment.range];
        let flat = levkit_syntax::dcss::parse_segment_flat(piece);
        let model = levkit_model::dcss::lower_flat(&piece.into(), &flat);
        let misses = levkit_check::dcss::lua_quick_check_misses(&model);
        assert!(misses.is_empty(), "accepted what Lua refuses: {misses:?}");
    }
}
