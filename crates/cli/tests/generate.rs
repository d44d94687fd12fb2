//! `levkit generate`: random levels as the game builds them, and its argument errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn levkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_levkit"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("levkit runs")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(workspace().join("test-data/generate").join(name)).unwrap()
}

#[test]
fn a_seed_and_depth_give_the_same_level_every_time() {
    let output = levkit(&["generate", "--seed", "2026", "--depth", "5", "--reveal"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        fixture("seed2026-depth5-reveal.txt")
    );
}

#[test]
fn without_reveal_secret_doors_look_like_walls_and_secret_corridors_like_rock() {
    let output = levkit(&["generate", "--seed", "2026", "--depth", "5"]);
    assert_eq!(output.status.code(), Some(0));
    let hidden = String::from_utf8_lossy(&output.stdout).into_owned();
    assert_eq!(hidden, fixture("seed2026-depth5.txt"));
    let revealed = fixture("seed2026-depth5-reveal.txt");
    for (h, r) in hidden.lines().zip(revealed.lines()).take(21) {
        for (hc, rc) in h.chars().zip(r.chars()) {
            match rc {
                'S' => assert!(hc == '|' || hc == '-', "{h}"),
                'C' => assert_eq!(hc, ' ', "{h}"),
                _ => assert_eq!(hc, rc),
            }
        }
    }
}

#[test]
fn a_depth_outside_the_dungeon_is_a_usage_error() {
    for depth in ["0", "28", "-3"] {
        let output = levkit(&["generate", "--depth", depth]);
        assert_eq!(output.status.code(), Some(2), "--depth {depth}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("use 1..=27"));
    }
}
