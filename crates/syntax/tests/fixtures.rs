//! Parser fixtures: each file under a `test-data/<language>/parser/` folder is parsed as its
//! folder's dialect, and its tree and syntax errors compared with the `.rast` file beside it.
//! Fixtures under an `err/` folder must have syntax errors, the others none.
//! `UPDATE_EXPECT=1 cargo test` rewrites them.

use levkit_syntax::parse;

#[test]
fn parser_fixtures() {
    let files = levkit_test_support::fixture_files("parser");
    assert!(!files.is_empty(), "no parser fixtures under test-data");
    let mut failed = Vec::new();
    for fixture in &files {
        let path = &fixture.path;
        let text = std::fs::read_to_string(path).unwrap();
        let parse = parse(&text, fixture.dialect);
        assert_eq!(
            parse.syntax().to_string(),
            text,
            "{} does not round-trip",
            path.display()
        );
        let is_err_fixture = path.components().any(|c| c.as_os_str() == "err");
        if is_err_fixture == parse.errors().is_empty() {
            failed.push(format!(
                "{}: fixtures under err/ must have syntax errors and the others none",
                path.display()
            ));
        }
        let mut actual = parse.debug_tree();
        if !parse.errors().is_empty() {
            actual.push_str("---\n");
            actual.push_str(&levkit_diagnostics::render_plain(&text, parse.errors()));
        }
        let expected = path.with_extension("rast");
        let result =
            std::panic::catch_unwind(|| expect_test::expect_file![expected].assert_eq(&actual));
        if result.is_err() {
            failed.push(path.display().to_string());
        }
    }
    assert!(
        failed.is_empty(),
        "fixtures that differ:\n{}",
        failed.join("\n")
    );
}
