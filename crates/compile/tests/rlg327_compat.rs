//! `--compat` reproduces the course reference parser's print-out for every corpus file.

use levkit_compile::rlg327::print_compat;
use levkit_model::rlg327::Kind;

#[test]
fn compat_print_out_equals_the_reference_for_every_corpus_file() {
    let Some(root) = levkit_test_support::corpus("rlg327", "RLG327 reference print-outs") else {
        return;
    };
    let mut compared = 0;
    let mut failures = Vec::new();
    for folder in ["monsters", "objects", "spec_examples"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let expected_path = root
                .join("expected_ref")
                .join(folder)
                .join(name.replace(".txt", ".out"));
            let Ok(expected) = std::fs::read(&expected_path) else {
                continue;
            };
            let bytes = std::fs::read(&path).unwrap();
            let kind = if folder == "objects" || name.contains("object") {
                Kind::Object
            } else {
                Kind::Monster
            };
            let actual = print_compat(&bytes, kind);
            compared += 1;
            if actual.as_bytes() != expected {
                failures.push(format!(
                    "{folder}/{name}: {} bytes, reference {}",
                    actual.len(),
                    expected.len()
                ));
            }
        }
    }
    assert_eq!(
        compared, 33,
        "the corpus has 31 files and 2 handout examples"
    );
    assert!(failures.is_empty(), "differences:\n{}", failures.join("\n"));
}
