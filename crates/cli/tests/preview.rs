//! `levkit preview`: exact renderings of a fixture, the golden-levels format on the game's
//! own levels, and the exit codes.

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

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_fortress_renders_exactly_in_every_format() {
    for format in ["text", "terrain", "json", "svg"] {
        let output = levkit(&[
            "preview",
            "test-data/examples/fortress.des",
            "--seed",
            "7",
            "--format",
            format,
        ]);
        assert_eq!(output.status.code(), Some(0), "{format}");
        let expected = std::fs::read_to_string(
            workspace().join(format!("test-data/render/fortress-seed7.{format}")),
        )
        .unwrap();
        assert_eq!(stdout(&output), expected, "--format {format}");
    }
}

#[test]
fn json_points_every_placed_thing_at_its_source_line() {
    let output = levkit(&[
        "preview",
        "test-data/examples/fortress.des",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["rows"].as_array().unwrap().len(), 21);
    let things: Vec<_> = json["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["things"].as_array().unwrap().clone())
        .collect();
    assert!(!things.is_empty());
    for thing in things {
        let line = thing["source"]["line"].as_u64().expect("a source line");
        // The MONSTER, OBJECT and TRAP statements are on lines 23..27 (0-based 22..26).
        assert!((22..=26).contains(&line), "{thing}");
    }
}

#[test]
fn a_level_with_errors_is_not_previewed_and_exits_1() {
    let output = levkit(&["preview", "test-data/examples/mistakes.des"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("fix them to preview it"));
}

#[test]
fn a_level_with_errors_still_gives_its_json_sketch_and_first_error() {
    let output = levkit(&[
        "preview",
        "test-data/examples/mistakes.des",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["level"], "mistakes1");
    assert_eq!(json["generated"], false);
    assert_eq!(
        json["error"]["code"], "NH0102",
        "the first error, as the editor shows it"
    );
}

#[test]
fn an_unknown_level_name_is_a_usage_error() {
    let output = levkit(&[
        "preview",
        "test-data/examples/fortress.des",
        "--level",
        "nowhere",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("it has: fortress"));
}

#[test]
fn the_games_levels_come_out_as_the_reference_loads() {
    let Some(dir) = levkit_test_support::corpus("nethack-3.4.3", "preview against reference loads")
    else {
        return;
    };
    for (file, level, seed) in [
        ("sokoban.des", "soko4-1", "1"),
        ("tower.des", "tower1", "3"),
    ] {
        let des = dir.join(file);
        let output = levkit(&[
            "preview",
            des.to_str().unwrap(),
            "--level",
            level,
            "--seed",
            seed,
            "--format",
            "terrain",
        ]);
        let expected =
            std::fs::read_to_string(dir.join(format!("golden-levels/{level}-seed{seed}.txt")))
                .unwrap();
        assert_eq!(stdout(&output), expected, "{level} seed {seed}");
    }
}

#[test]
fn a_heatmap_counts_how_often_each_square_holds_something() {
    let output = levkit(&[
        "preview",
        "test-data/examples/fortress.des",
        "--seeds",
        "1..50",
        "--heatmap",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 21);
    assert!(rows.iter().all(|r| r.len() == 80));
    // The chest is always at (44, 10); solid rock never holds anything.
    assert_eq!(rows[10].as_bytes()[44], b'9');
    assert_eq!(rows[0].as_bytes()[0], b'.');
    let bad = levkit(&[
        "preview",
        "test-data/examples/fortress.des",
        "--seeds",
        "9..1",
        "--heatmap",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn png_is_a_picture_of_tiles_written_to_a_file() {
    let out = std::env::temp_dir().join(format!("levkit-preview-{}.png", std::process::id()));
    let output = levkit(&[
        "preview",
        "test-data/examples/fortress.des",
        "--format",
        "png",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(0));
    let bytes = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: 80 squares of 8 pixels by 21 of 12.
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 640);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 252);
    let to_stdout = levkit(&[
        "preview",
        "test-data/examples/fortress.des",
        "--format",
        "png",
    ]);
    assert_eq!(
        to_stdout.status.code(),
        Some(2),
        "a PNG is not printed to a terminal"
    );
}

#[test]
fn a_dungeon_description_previews_as_an_overview() {
    let text = levkit(&["preview", "test-data/grammars/dungeon.def"]);
    assert_eq!(text.status.code(), Some(0));
    let text = stdout(&text);
    assert!(text.contains("Branches\n"), "{text}");
    let svg = levkit(&[
        "preview",
        "test-data/grammars/dungeon.def",
        "--format",
        "svg",
    ]);
    assert_eq!(svg.status.code(), Some(0));
    assert!(stdout(&svg).starts_with("<svg"));
    let json = levkit(&[
        "preview",
        "test-data/grammars/dungeon.def",
        "--format",
        "json",
    ]);
    assert_eq!(json.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(json["dungeons"].as_array().is_some_and(|d| !d.is_empty()));
    let png = levkit(&[
        "preview",
        "test-data/grammars/dungeon.def",
        "--format",
        "png",
        "-o",
        "/dev/null",
    ]);
    assert_eq!(
        png.status.code(),
        Some(2),
        "an overview is text, svg or json"
    );
}

/// The level is placed by the dungeon.def beside it, which the analysis asks for: depth 7
/// there, 10 (the default) without it.
#[test]
fn a_level_is_previewed_at_its_place_in_the_dungeon_def_beside_it() {
    let dir = std::env::temp_dir().join(format!("levkit-cli-preview-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (folder, dungeon) in [("placed", true), ("alone", false)] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(
            dir.join(folder).join("fort.des"),
            "MAZE:\"fort\",' '\nNOMAP\n",
        )
        .unwrap();
        if dungeon {
            let def = "DUNGEON: \"Main\" \"M\" (20, 5)\nLEVEL: \"fort\" \"F\" @ (7, 1)\n";
            std::fs::write(dir.join(folder).join("dungeon.def"), def).unwrap();
        }
    }
    let depth = |folder: &str| {
        let file = dir.join(folder).join("fort.des");
        let output = levkit(&["preview", file.to_str().unwrap(), "--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{folder}");
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        json["depth"].clone()
    };
    assert_eq!(depth("placed"), 7);
    assert_eq!(depth("alone"), 10);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_cards_and_overviews_print_their_first_error_and_exit_as_before() {
    // The JSON is the server's answer: the first error, with the cards or overview of the
    // text as it stands. The exit status stays 0, as it was: the preview is drawn (a
    // broken level exits 1 because nothing of it is built); `check` and `compile` fail.
    for (file, line, code) in [
        (
            "test-data/rlg327/preview/half_typed_dice_monster_desc.txt",
            10,
            "RL0205",
        ),
        (
            "test-data/nethack-dungeon/preview/half_typed_level.def",
            5,
            "DG0001",
        ),
    ] {
        let output = levkit(&["preview", file, "--format", "json"]);
        assert_eq!(output.status.code(), Some(0), "{file}");
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["error"]["code"], code, "{file}");
        assert_eq!(json["error"]["range"]["start"]["line"], line, "{file}");
        assert!(
            json["title"].as_str().unwrap().contains("has errors"),
            "{file}: {}",
            json["title"]
        );
    }
    let whole = levkit(&[
        "preview",
        "test-data/rlg327/preview/two_monsters_monster_desc.txt",
        "--format",
        "json",
    ]);
    assert_eq!(whole.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&whole.stdout).unwrap();
    assert_eq!(json["error"], serde_json::Value::Null);
    assert_eq!(json["cards"].as_array().unwrap().len(), 2);
    // The overview as text says on standard error what the JSON carries.
    let text = levkit(&[
        "preview",
        "test-data/nethack-dungeon/preview/half_typed_level.def",
    ]);
    assert_eq!(text.status.code(), Some(0));
    let said = String::from_utf8_lossy(&text.stderr);
    assert!(
        said.contains("levkit: error at line 6: expected the random range"),
        "{said}"
    );
}

#[test]
fn a_negative_depth_is_accepted_for_the_elemental_planes() {
    let output = levkit(&[
        "preview",
        "test-data/examples/fortress.des",
        "--depth",
        "-1",
        "--format",
        "json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["depth"], -1);
}

#[test]
fn a_depth_no_level_can_have_is_a_usage_error() {
    for (depth, why) in [
        ("0", "there is no level at depth 0"),
        (
            "-6",
            "the Elemental Planes, the only levels above the surface, are at -1 to -5",
        ),
        ("128", "deeper than the game can go"),
    ] {
        let output = levkit(&[
            "preview",
            "test-data/examples/fortress.des",
            "--depth",
            depth,
        ]);
        assert_eq!(output.status.code(), Some(2), "{depth}");
        assert!(
            String::from_utf8_lossy(&output.stderr).contains(why),
            "{depth}"
        );
    }
}

/// `--watch` over a session of saves: each save redraws; a save that breaks the level keeps
/// the last picture under the error, marked out of date; a fixed save draws anew; a deleted
/// file says so, and the watch goes on.
#[test]
fn watch_redraws_on_each_save_and_keeps_the_last_picture_through_an_error() {
    use std::io::Read;
    use std::sync::mpsc;
    use std::time::Duration;

    let folder = std::env::temp_dir().join(format!("levkit-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("fortress.des");
    let good =
        std::fs::read_to_string(workspace().join("test-data/examples/fortress.des")).unwrap();
    std::fs::write(&file, &good).unwrap();
    let picture = |text: &str| {
        std::fs::write(folder.join("alone.des"), text).unwrap();
        let path = folder.join("alone.des");
        let output = levkit(&[
            "preview",
            path.to_str().unwrap(),
            "--seed",
            "7",
            "--format",
            "text",
        ]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        stdout(&output)
    };
    let first_picture = picture(&good);
    let second_text = good.replace("MONSTER:'d',\"jackal\",place[1]\n", "");
    let second_picture = picture(&second_text);
    assert_ne!(first_picture, second_picture);

    let mut child = Command::new(env!("CARGO_BIN_EXE_levkit"))
        .args(["preview", "--watch", "--seed", "7", "--format", "text"])
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("levkit runs");
    // Screens, each from the clear-screen sequence to its "watching" line.
    let (sender, screens) = mpsc::channel::<String>();
    let mut out = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        let mut pending = String::new();
        let mut buffer = [0; 4096];
        while let Ok(n @ 1..) = out.read(&mut buffer) {
            pending.push_str(&String::from_utf8_lossy(&buffer[..n]));
            while let Some(end) = pending.find("(Ctrl-C to stop)\n") {
                let end = end + "(Ctrl-C to stop)\n".len();
                if sender.send(pending[..end].to_string()).is_err() {
                    return;
                }
                pending.drain(..end);
            }
        }
    });
    let next_screen = |what: &str| -> String {
        screens
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no screen after {what}"))
    };
    let picture_in = |screen: &str, picture: &str| {
        // The screen's picture, without the title line above it.
        picture.lines().all(|line| screen.contains(line))
    };

    let screen = next_screen("the start");
    assert!(screen.starts_with("\x1b[2J\x1b[H"), "{screen:?}");
    assert!(picture_in(&screen, &first_picture), "{screen}");

    // Each save changes the file's length, so that a clock too coarse to tell two saves
    // apart still sees them.
    std::fs::write(&file, &second_text).unwrap();
    let screen = next_screen("a save");
    assert!(picture_in(&screen, &second_picture), "{screen}");
    assert!(!screen.contains("out of date"), "{screen}");

    std::fs::write(&file, format!("{second_text}MONSTER:'d',\"jackal\"\n")).unwrap();
    let screen = next_screen("a save with an error");
    assert!(screen.contains("out of date"), "{screen}");
    assert!(
        screen.contains("error at line 27: expected `,`, found the end of the file (NH0001)"),
        "{screen}"
    );
    assert!(picture_in(&screen, &second_picture), "{screen}");

    std::fs::write(&file, &good).unwrap();
    let screen = next_screen("the fix");
    assert!(!screen.contains("out of date"), "{screen}");
    assert!(picture_in(&screen, &first_picture), "{screen}");

    std::fs::remove_file(&file).unwrap();
    let screen = next_screen("the file's deletion");
    assert!(screen.contains("levkit: cannot read"), "{screen}");

    std::fs::write(&file, &second_text).unwrap();
    let screen = next_screen("the file's return");
    assert!(picture_in(&screen, &second_picture), "{screen}");

    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&folder);
}
