//! crawl 0.28.0 compiles its own vaults without an error, so the checks find none in them.

use std::collections::BTreeMap;
use std::path::Path;

use levkit_check::dcss::{Context, check_global, check_vault};
use levkit_model::dcss::{Segment, lower};
use levkit_syntax::dcss::{parse_segment, segments};

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
    let mut errors = Vec::new();
    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let index = levkit_diagnostics::LineIndex::new(&text);
        let mut context = Context::default();
        for segment in segments(&text) {
            let parse = parse_segment(&text[segment.range.clone()]);
            let diagnostics = match lower(&parse.syntax()) {
                Segment::Global(global) => {
                    context.default_depth |= global.default_depth.is_some();
                    check_global(&global)
                }
                Segment::Vault(vault) => check_vault(&vault, context),
            };
            for d in diagnostics {
                if d.severity == levkit_diagnostics::Severity::Error {
                    let start = usize::from(d.range.start()) + segment.range.start;
                    let line = index.line_col((start as u32).into()).line + 1;
                    errors.push(format!(
                        "{}:{line}: {} {}",
                        path.display(),
                        d.code,
                        d.message
                    ));
                } else {
                    *warnings.entry(d.code.to_string()).or_default() += 1;
                }
            }
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
