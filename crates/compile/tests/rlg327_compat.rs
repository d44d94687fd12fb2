//! `--compat` reproduces the course reference parser's print-out for every corpus file and
//! every RLG327 check fixture.

use levkit_compile::rlg327::print_compat;
use levkit_model::rlg327::Kind;
use levkit_syntax::Dialect;
use proptest::prelude::*;

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

/// Each file under `test-data/rlg327/check/` has beside it a `.compat` file: what the course's
/// reference program printed on its standard output when run on that file (empty when it
/// printed nothing: a rejected header, an abort, a run that never ends). These are the
/// reference's outputs, not levkit's, so there is no `UPDATE_EXPECT` here.
#[test]
fn compat_print_out_equals_the_reference_for_every_check_fixture() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for fixture in levkit_test_support::fixture_files("check") {
        let kind = match fixture.dialect {
            Dialect::Rlg327Monster => Kind::Monster,
            Dialect::Rlg327Object => Kind::Object,
            _ => continue,
        };
        let expected_path = fixture.path.with_extension("compat");
        let Ok(expected) = std::fs::read(&expected_path) else {
            failures.push(format!(
                "{}: no .compat file (run the reference parser on it)",
                fixture.path.display()
            ));
            continue;
        };
        let actual = print_compat(&std::fs::read(&fixture.path).unwrap(), kind);
        compared += 1;
        if actual.as_bytes() != expected {
            failures.push(format!(
                "{}:\n--- levkit\n{actual}--- reference\n{}",
                fixture.path.display(),
                String::from_utf8_lossy(&expected)
            ));
        }
    }
    assert!(compared > 0, "no RLG327 check fixtures");
    assert!(failures.is_empty(), "differences:\n{}", failures.join("\n"));
}

/// Pieces of description files: keywords, values, and the blanks and line ends around them.
const PIECES: &[&str] = &[
    "BEGIN",
    "MONSTER",
    "OBJECT",
    "END",
    "NAME Rat",
    "DESC",
    ".",
    "text",
    "SYMB r",
    "SYMB",
    "COLOR RED",
    "COLOR",
    "BLUE",
    "ABIL SMART",
    "ABIL",
    "RRTY",
    "TYPE RING",
    "ART TRUE",
    "SPEED 1+2d3",
    "HP",
    "-5+0d1",
    "7",
    "\n",
    "\r\n",
    "\r",
    " ",
    "\t",
    "\x0b",
];

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Whatever follows the header, the reading ends; every CR it reports is one, and every
    /// entry it says a CR drops starts with BEGIN.
    #[test]
    fn the_reading_of_any_file_ends_and_points_at_crs(
        pieces in proptest::collection::vec(proptest::sample::select(PIECES), 0..120),
        object in any::<bool>(),
    ) {
        let kind = if object { Kind::Object } else { Kind::Monster };
        let text = format!("{}\n{}", kind.header(), pieces.concat());
        let reading = levkit_model::rlg327::reference::read(text.as_bytes(), kind);
        for cr in &reading.crs {
            let at = usize::from(cr.at.start());
            prop_assert_eq!(text.as_bytes()[at], b'\r');
            if let Some(begin) = cr.drops {
                prop_assert_eq!(&text[begin], "BEGIN");
            }
        }
        print_compat(text.as_bytes(), kind);
    }
}
