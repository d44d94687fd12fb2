//! `--emit lua` is crawl's `-dump-maps`: over the 140 files of the 0.28.0 corpus, in the byte
//! order of their paths, the text equals the game's own dump byte for byte.

use std::path::Path;
use std::process::Command;

use levkit_model::dcss::lower;
use levkit_syntax::dcss::{parse_segment, segments};

/// Every `.des` path under `dir`, relative, sorted by bytes (crawl's load order: `test.des`
/// before `test/...`).
fn des_paths(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else if path.extension().is_some_and(|e| e == "des") {
                out.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .to_string(),
                );
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn dump(text: &str) -> String {
    let lowered: Vec<_> = segments(text)
        .into_iter()
        .map(|s| lower(&parse_segment(&text[s.range]).syntax()))
        .collect();
    levkit_compile::dcss::dump_maps(&lowered)
}

#[test]
fn the_lua_of_every_corpus_vault_is_crawls_dump_byte_for_byte() {
    let Some(dir) = levkit_test_support::corpus("dcss-0.28.0", "DCSS dump-maps golden") else {
        return;
    };
    let output = Command::new("xz")
        .arg("-dc")
        .arg(dir.join("golden/dump-maps.lua.xz"))
        .output()
        .expect("the `xz` command is needed to read golden/dump-maps.lua.xz; install xz-utils");
    assert!(
        output.status.success(),
        "xz failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let golden = String::from_utf8(output.stdout).unwrap();
    let paths = des_paths(&dir.join("des"));
    assert_eq!(paths.len(), 140);
    let mut ours = String::new();
    for path in &paths {
        ours.push_str(&dump(
            &std::fs::read_to_string(dir.join("des").join(path)).unwrap(),
        ));
    }
    if ours != golden {
        // Show the first difference with some context, by line.
        let (a, b): (Vec<_>, Vec<_>) = (ours.lines().collect(), golden.lines().collect());
        let i = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        let from = i.saturating_sub(8);
        panic!(
            "the dump differs from crawl's at line {}:\n--- ours\n{}\n--- crawl's\n{}",
            i + 1,
            a[from..(i + 4).min(a.len())].join("\n"),
            b[from..(i + 4).min(b.len())].join("\n"),
        );
    }
}

/// A Lua line with nothing but blanks after its `:`, or a line of blanks in a block, is still a
/// statement: crawl 0.28.0 prints it as one blank. An empty line and a bare `:` are none.
#[test]
fn a_lua_line_of_blanks_is_a_statement_of_its_own() {
    let text = "NAME: zz_blank_lua\nDEPTH: D:2\n: \n:\n{{ \n\t\n\nx = 1\n}}\nTAGS: t\n";
    expect_test::expect![[r#"

        ----------------------------------------
        Map: zz_blank_lua
        function main()
         depth("D:2")
         
        
         
         
        
         x = 1
        
         tags("t")
        end

    "#]]
    .assert_eq(&dump(text));
}
