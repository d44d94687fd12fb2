//! Diagnostic fixtures: each file under a `test-data/<language>/check/` folder is analysed as
//! `levkit check -W` would (its dialect recognised by content) and its diagnostics compared
//! with the `.diag` file beside it: code, severity, 1-based line:column range, message,
//! labels and fixes. `UPDATE_EXPECT=1 cargo test` rewrites them.

use std::collections::BTreeSet;

use levkit_ide::{AnalysisHost, AnalysisOptions};
use levkit_syntax::Dialect;

#[test]
fn diagnostic_fixtures() {
    let fixtures = levkit_test_support::fixture_files("check");
    let mut failed = Vec::new();
    let mut covered = BTreeSet::new();
    for fixture in &fixtures {
        let bytes = std::fs::read(&fixture.path).unwrap();
        let mut host = AnalysisHost::new();
        host.set_options(AnalysisOptions {
            extra_warnings: true,
        });
        let file = host.set_file_bytes(fixture.path.clone(), &bytes);
        let analysis = host.analysis();
        covered.insert(analysis.dialect(file).unwrap());
        let actual = levkit_diagnostics::render_plain(
            &analysis.file_text(file).unwrap(),
            &analysis.diagnostics(file).unwrap(),
        );
        let expected = fixture.path.with_extension("diag");
        let result =
            std::panic::catch_unwind(|| expect_test::expect_file![expected].assert_eq(&actual));
        if result.is_err() {
            failed.push(fixture.path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "fixtures that differ:\n{}",
        failed.join("\n")
    );
    // A dialect is added with its fixtures.
    let missing: Vec<&str> = Dialect::choosable()
        .filter(|d| !covered.contains(d))
        .map(Dialect::name)
        .collect();
    assert!(
        missing.is_empty(),
        "no check fixture of these dialects under test-data/<language>/check: {missing:?}"
    );
}
