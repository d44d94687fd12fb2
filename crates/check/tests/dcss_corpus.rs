//! crawl 0.28.0 compiles its own vaults without an error, so the checks find none in them.
//! The warnings of the checks beyond crawl are counted by code (`LEVKIT_LIST_WARNINGS=1`
//! prints each one).

use std::collections::BTreeMap;
use std::path::Path;

use levkit_check::dcss::{
    Context, TagFacts, TagIndex, check_global, check_lua_calls, check_tags, check_vault, tag_facts,
};
use levkit_diagnostics::{Diagnostic, LineIndex, TextSize};
use levkit_model::dcss::{Segment, lower, lower_flat};
use levkit_syntax::dcss::{parse_segment, parse_segment_flat, segments};

fn des_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            des_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "des") {
            out.push(path);
        }
    }
}

#[test]
fn crawls_own_vaults_have_no_errors() {
    let Some(dir) = levkit_test_support::corpus("dcss-0.28.0", "DCSS corpus checks") else {
        return;
    };
    let mut files = Vec::new();
    des_files(&dir.join("des"), &mut files);
    files.sort();
    let texts: Vec<String> = files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    let indexes: Vec<LineIndex> = texts.iter().map(|t| LineIndex::new(t)).collect();
    let mut found: Vec<(usize, Diagnostic)> = Vec::new();
    let mut facts: Vec<(usize, TextSize, TagFacts)> = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let mut context = Context::default();
        for segment in segments(text) {
            let piece = &text[segment.range.clone()];
            let parse = parse_segment(piece);
            let model = lower(&parse.syntax());
            // The flat parse (no tree) gives the same model and errors.
            let flat = parse_segment_flat(piece);
            assert_eq!(flat.errors, parse.errors(), "{}", files[i].display());
            assert!(
                lower_flat(&piece.into(), &flat) == model,
                "the flat parse lowers differently in {}",
                files[i].display()
            );
            let diagnostics = match &model {
                Segment::Global(global) => {
                    context.default_depth |= global.default_depth.is_some();
                    check_global(global)
                }
                Segment::Vault(vault) => check_vault(vault, piece, context),
            };
            let start = TextSize::from(segment.range.start as u32);
            found.extend(
                diagnostics
                    .iter()
                    .map(|d| (i, levkit_syntax::dcss::shifted(d, start))),
            );
            facts.push((i, start, tag_facts(&model)));
        }
    }
    let index = TagIndex::new(facts.iter().map(|(_, _, f)| f));
    for (n, (i, start, segment_facts)) in facts.iter().enumerate() {
        // The facts of the segment's file, and the segment's place among them.
        let first = facts.iter().position(|(j, _, _)| j == i).unwrap_or(n);
        let file: Vec<&TagFacts> = facts
            .iter()
            .filter(|(j, _, _)| j == i)
            .map(|(_, _, f)| f)
            .collect();
        found.extend(
            check_tags(&index, segment_facts)
                .into_iter()
                .chain(check_lua_calls(&index, &file, n - first))
                .map(|d| (*i, levkit_syntax::dcss::shifted(&d, *start))),
        );
    }
    let mut errors = Vec::new();
    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    let list = std::env::var_os("LEVKIT_LIST_WARNINGS").is_some();
    for (i, d) in &found {
        let line = indexes[*i].line_col(d.range.start()).line + 1;
        let shown = format!(
            "{}:{line}: {} {}",
            files[*i].strip_prefix(&dir).unwrap_or(&files[*i]).display(),
            d.code,
            d.message
        );
        if d.severity == levkit_diagnostics::Severity::Error {
            errors.push(shown);
        } else {
            if list {
                eprintln!("{shown}");
            }
            *warnings.entry(d.code.to_string()).or_default() += 1;
        }
    }
    eprintln!("warnings by code: {warnings:?}");
    assert!(
        errors.is_empty(),
        "{} errors:\n{}",
        errors.len(),
        errors.join("\n")
    );
}
