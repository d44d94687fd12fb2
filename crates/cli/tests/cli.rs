//! The command-line contract: formats, exit codes and file selection, as scripts rely on them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use expect_test::expect;

fn levkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_levkit"))
        .args(args)
        .current_dir(workspace())
        .env("NO_COLOR", "1")
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
fn a_clean_file_exits_0_and_prints_nothing() {
    let output = levkit(&["check", "test-data/examples/fortress.des"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "");
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(
        summary.contains("checked 1 file: 0 errors, 0 warnings"),
        "{summary}"
    );
}

#[test]
fn json_lines_have_the_documented_fields_and_errors_exit_1() {
    let output = levkit(&[
        "check",
        "--format",
        "json",
        "test-data/examples/mistakes.des",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let first = stdout(&output).lines().next().unwrap().to_string();
    expect![[r#"{"file":"test-data/examples/mistakes.des","line":3,"column":6,"end_line":3,"end_column":17,"severity":"error","code":"NH0102","message":"level names have at most 8 bytes (this one has 9), since they become file names; shorten it"}"#]]
    .assert_eq(&first);
    for line in stdout(&output).lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let keys: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
        assert_eq!(
            keys,
            [
                "file",
                "line",
                "column",
                "end_line",
                "end_column",
                "severity",
                "code",
                "message"
            ]
        );
    }
}

/// Lines end where LSP says they do (`\r\n`, `\n` or a lone `\r`) in every format, so the
/// human report shows the same line as the JSON one and the editor.
#[test]
fn a_lone_carriage_return_ends_a_line_in_every_format() {
    let dir = tempdir("lone-cr");
    let file = dir.join("cr.des");
    std::fs::write(&file, "MAZE:\"toolongname\",' '\rNOMAP\n").unwrap();
    let file = file.to_str().unwrap();
    let json = stdout(&levkit(&["check", "--format", "json", file]));
    assert!(
        json.contains(r#""line":1,"column":23,"end_line":2,"end_column":1"#),
        "{json}"
    );
    let human = stdout(&levkit(&["check", file])).replace(file, "cr.des");
    expect![[r#"
        error[NH0102]: level names have at most 8 bytes (this one has 11), since they become file names; shorten it
          ┌─ cr.des:1:6
          │
        1 │ MAZE:"toolongname",' '
          │      ^^^^^^^^^^^^^

        error[NH0004]: a carriage return not followed by a line feed, which lev_comp does not accept; save the file with LF or CRLF line endings
          ┌─ cr.des:1:23
          │  
        1 │   MAZE:"toolongname",' '
          │ ╭──────────────────────^
        2 │ │ NOMAP
          │ ╰^

    "#]]
    .assert_eq(&human);
}

#[test]
fn github_annotations() {
    let output = levkit(&[
        "check",
        "--format",
        "github",
        "test-data/examples/mistakes.des",
    ]);
    let first = stdout(&output).lines().next().unwrap().to_string();
    expect!["::error file=test-data/examples/mistakes.des,line=3,col=6,endLine=3,endColumn=17,title=levkit NH0102::level names have at most 8 bytes (this one has 9), since they become file names; shorten it"]
    .assert_eq(&first);
}

#[test]
fn sarif_is_one_valid_log() {
    let output = levkit(&["check", "--format", "sarif", "test-data/examples"]);
    let log: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results[0]["ruleId"], "NH0102");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        3
    );
}

#[test]
fn extra_warnings_need_w() {
    let dir = tempdir("extra");
    let path = dir.join("room.des");
    std::fs::write(
        &path,
        "MAZE:\"r\",' '\nGEOMETRY:center,center\nMAP\n-----\n|...|\n|.-.|\n|...|\n-----\nENDMAP\nREGION:(1,1,3,3),lit,\"ordinary\"\n",
    )
    .unwrap();
    let quiet = levkit(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(stdout(&quiet), "");
    let loud = levkit(&["check", "-W", "--format", "json", path.to_str().unwrap()]);
    assert!(stdout(&loud).contains("\"NH0301\""), "{}", stdout(&loud));
    assert_eq!(
        loud.status.code(),
        Some(0),
        "warnings do not fail the check"
    );
}

#[test]
fn unreadable_paths_and_bad_usage_exit_2() {
    let output = levkit(&["check", "no/such/file.des"]);
    assert_eq!(output.status.code(), Some(2));
    let output = levkit(&["check", "--format", "xml", "test-data/examples"]);
    assert_eq!(output.status.code(), Some(2));
}

/// A named file is read whatever its size, unless its analysis cannot fit in memory: then it
/// is refused with the reason, before anything is read (a sparse terabyte takes no disk).
#[test]
fn a_named_file_too_large_for_memory_is_refused_with_the_reason() {
    let dir = tempdir("huge");
    let huge = dir.join("huge.des");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(4 << 40)
        .unwrap();
    for command in ["check", "compile", "parse"] {
        let output = levkit(&[command, huge.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{command}: {said}");
        assert!(
            said.contains(
                "it is 4194304 MB, and analysing it would take about 16 times that in memory"
            ),
            "{command}: {said}"
        );
    }
}

#[test]
fn directories_are_walked_respecting_gitignore_and_picking_des_files() {
    let dir = tempdir("walk");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::create_dir_all(dir.join("build")).unwrap();
    std::fs::write(dir.join(".gitignore"), "build/\n").unwrap();
    std::fs::write(dir.join("sub/a.des"), "LEVEL:\"a\"\n").unwrap();
    std::fs::write(dir.join("build/b.des"), "LEVEL:\"toolongname\"\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not a level\n").unwrap();
    std::fs::write(dir.join("c.des"), "just some words\n").unwrap();
    let output = levkit(&["check", "--format", "json", dir.to_str().unwrap()]);
    let out = stdout(&output);
    assert!(
        !out.contains("b.des"),
        "ignored directory was checked: {out}"
    );
    assert!(out.contains("c.des") && out.contains("LK0002"), "{out}");
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(summary.contains("checked 2 files"), "{summary}");
}

#[test]
fn parse_prints_the_tree_and_fails_on_syntax_errors() {
    let dir = tempdir("parse");
    std::fs::write(dir.join("ok.des"), "LEVEL:\"a\"\n").unwrap();
    let output = levkit(&["parse", dir.join("ok.des").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0));
    expect![[r#"
        SOURCE_FILE@0..10
          ROOM_LEVEL@0..9
            LEVEL_DECL@0..9
              LEVEL_KW@0..5 "LEVEL"
              COLON@5..6 ":"
              STRING@6..9 "\"a\""
          NEWLINE@9..10 "\n"
    "#]]
    .assert_eq(&stdout(&output));
    std::fs::write(dir.join("bad.des"), "LEVEL \"a\"\n").unwrap();
    let output = levkit(&["parse", dir.join("bad.des").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("error[NH0001]"));
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("levkit-cli-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The acceptance test of the compiler: each corpus source compiled alone, in its own process,
/// into an empty folder, gives exactly lev_comp's files (names and bytes), and nothing else.
#[test]
fn compile_reproduces_every_golden_file() {
    let Some(corpus) = levkit_test_support::corpus("nethack-3.4.3", "compile CLI against golden")
    else {
        return;
    };
    let mut compared = 0;
    for entry in std::fs::read_dir(&corpus).unwrap() {
        let source = entry.unwrap().path();
        if source.extension().is_none_or(|e| e != "des") {
            continue;
        }
        let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
        let out = tempdir(&format!("golden-{stem}"));
        let output = levkit(&[
            "compile",
            "--out",
            out.to_str().unwrap(),
            source.to_str().unwrap(),
        ]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{stem}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let golden = corpus.join("golden").join(&stem);
        let mut ours: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let mut theirs: Vec<_> = std::fs::read_dir(&golden)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{stem}: different set of files");
        for name in ours {
            assert!(
                std::fs::read(out.join(&name)).unwrap()
                    == std::fs::read(golden.join(&name)).unwrap(),
                "{stem}/{name:?} differs"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 113);
}

#[test]
fn a_level_with_errors_is_not_written_and_inspect_reads_what_is() {
    let dir = tempdir("errors");
    let source = dir.join("two.des");
    std::fs::write(&source, "MAZE:\"good\",' '\nGEOMETRY:center,center\nMAP\n...\nENDMAP\nMAZE:\"bad\",' '\nGEOMETRY:center,center\nMAP\n...\nENDMAP\nMONSTER:'d',\"jackal\",(9,9)\n").unwrap();
    let out = dir.join("out");
    let output = levkit(&[
        "compile",
        "--out",
        out.to_str().unwrap(),
        source.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(out.join("good.lev").is_file());
    assert!(!out.join("bad.lev").exists());
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no temporary file is left behind: {leftovers:?}"
    );
    let inspected = levkit(&["inspect", out.join("good.lev").to_str().unwrap()]);
    expect![[r#"
        version 3.4.3.0 features 0x001e0cc6 checksums 0x211b117e 0xb8d24950
        kind maze (MAZE)
        flags 0x0
        filling STONE
        parts 1
        part 0: halign 3 valign 3 size 3x1
          |...|
    "#]]
    .assert_eq(&stdout(&inspected));
    std::fs::write(
        dir.join("short.lev"),
        &std::fs::read(out.join("good.lev")).unwrap()[..40],
    )
    .unwrap();
    let broken = levkit(&["inspect", dir.join("short.lev").to_str().unwrap()]);
    assert_eq!(broken.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&broken.stderr).contains("the file ends inside"));
}

/// A source whose errors leave no level to name (here a header without its `:`) fails the
/// run as lev_comp does, though no output file is missing by name.
#[test]
fn a_source_too_broken_to_name_a_level_fails_the_compile() {
    let dir = tempdir("unnamed");
    let source = dir.join("typo.des");
    std::fs::write(&source, "MAZE \"typo\",' '\nNOMAP\n").unwrap();
    let output = levkit(&[
        "compile",
        "--out",
        dir.to_str().unwrap(),
        source.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("error[NH0001]"), "{stderr}");
    assert!(
        stderr.contains("has errors, so not everything in it was compiled"),
        "{stderr}"
    );
}

/// Compiling again into the same folder leaves a file that holds the same bytes alone (the
/// same inode: not even renamed), replaces one whose bytes changed (a new inode, no stale
/// tail), and replaces a FIFO in the way without opening it.
#[cfg(unix)]
#[test]
fn compiling_again_rewrites_only_what_changed() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempdir("again");
    let source = dir.join("two.des");
    let level = |name: &str, row: &str| {
        format!("MAZE:\"{name}\",' '\nGEOMETRY:center,center\nMAP\n{row}\nENDMAP\n")
    };
    let out = dir.join("out");
    let compile = || {
        let output = levkit(&[
            "compile",
            "--out",
            out.to_str().unwrap(),
            source.to_str().unwrap(),
        ]);
        assert_eq!(output.status.code(), Some(0), "{output:?}");
    };
    let inode = |name: &str| std::fs::metadata(out.join(name)).unwrap().ino();
    std::fs::write(
        &source,
        level("same", "...") + &level("grows", ".........."),
    )
    .unwrap();
    compile();
    let (same, grows) = (inode("same.lev"), inode("grows.lev"));
    std::fs::write(&source, level("same", "...") + &level("grows", "..")).unwrap();
    let fifo = out.join("fifo.lev");
    let made = Command::new("mkfifo").arg(&fifo).status();
    compile();
    assert_eq!(inode("same.lev"), same, "an identical file is left alone");
    assert_ne!(inode("grows.lev"), grows, "a changed file is replaced");
    let shorter = levkit(&["inspect", out.join("grows.lev").to_str().unwrap()]);
    assert!(
        stdout(&shorter).contains("size 2x1"),
        "{}",
        stdout(&shorter)
    );
    if made.is_ok_and(|s| s.success()) {
        std::fs::write(&source, level("fifo", "...")).unwrap();
        compile();
        assert!(std::fs::metadata(&fifo).unwrap().is_file());
    }
}

/// The built binary speaks LSP on standard input and output.
#[test]
fn lsp_over_stdio() {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_levkit"))
        .arg("lsp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send =
        |body: &str| write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    send(
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"capabilities":{}}}"#,
    );
    let mut length = 0;
    loop {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if let Some(n) = line.trim().strip_prefix("Content-Length: ") {
            length = n.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    stdout.read_exact(&mut body).unwrap();
    let response: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(response["result"]["serverInfo"]["name"], "levkit");
    send(r#"{"jsonrpc":"2.0","id":2,"method":"shutdown"}"#);
    send(r#"{"jsonrpc":"2.0","method":"exit"}"#);
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn rlg327_descriptions_print_as_the_assignment_asks() {
    let file = "test-data/rlg327/check/clean_monster_desc.txt";
    let printed = levkit(&["compile", "--emit", "print", file]);
    assert_eq!(printed.status.code(), Some(0));
    expect![[r#"
        Sample Rat
        A small grey rat.
        r
        RED
        10+2d4
        SMART
        5+1d4
        0+1d3
        50

        Cave Bear
        A small grey rat.
        B
        RED
        10+2d4
        SMART TUNNEL
        5+1d4
        0+1d3
        20
    "#]]
    .assert_eq(&stdout(&printed));
    let compat = levkit(&["compile", "--emit", "print", "--compat", file]);
    assert!(
        stdout(&compat).contains("SMART TUNNEL \n5+1d4\n"),
        "{}",
        stdout(&compat)
    );
    let json = levkit(&["compile", "--emit", "json", file]);
    let value: serde_json::Value = serde_json::from_str(stdout(&json).trim()).unwrap();
    assert_eq!(
        value["entries"][1]["speed"],
        serde_json::json!({ "base": 10, "count": 2, "sides": 4 })
    );
}

/// The reference reads on from what made an entry fail: a BEGIN there starts the next entry
/// (an entry without END, a doubled BEGIN line), and a CR after a COLOR value is not a line
/// end to it. Each `.compat` file is the reference program's own output.
#[test]
fn an_rlg327_compat_print_out_is_what_the_reference_prints() {
    for name in [
        "missing_end_monster_desc",
        "repeated_begin_monster_desc",
        "missing_end_object_desc",
        "repeated_begin_object_desc",
        "cr_on_one_line_monster_desc",
    ] {
        let file = format!("test-data/rlg327/check/{name}.txt");
        let output = levkit(&["compile", "--emit", "print", "--compat", &file]);
        // A file with errors still prints what the reference prints, and fails the run.
        let has_errors = String::from_utf8_lossy(&output.stderr).contains("error[");
        assert_eq!(output.status.code(), Some(i32::from(has_errors)), "{name}");
        let expected =
            std::fs::read(workspace().join(format!("test-data/rlg327/check/{name}.compat")))
                .unwrap();
        assert_eq!(
            stdout(&output),
            String::from_utf8(expected).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn an_rlg327_print_out_that_leaves_an_entry_out_says_so_and_exits_1() {
    let file = "test-data/rlg327/check/dropped_entry_monster_desc.txt";
    for emit in ["print", "json"] {
        let output = levkit(&["compile", "--emit", emit, file]);
        assert_eq!(output.status.code(), Some(1), "--emit {emit}");
        assert!(stdout(&output).contains("Cave Bear"), "--emit {emit}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("error[RL0205]"), "{stderr}");
        assert!(
            stderr.contains(
                "levkit: the MONSTER entry \"Sample Rat\" at line 3 of test-data/rlg327/check/dropped_entry_monster_desc.txt is left out: it has errors"
            ),
            "{stderr}"
        );
    }
}

#[test]
fn dcss_vaults_print_the_lua_crawl_generates() {
    let file = "test-data/dcss-des/check/clean.des";
    let lua = levkit(&["compile", "--emit", "lua", file]);
    assert_eq!(lua.status.code(), Some(0));
    expect![[r#"

        ----------------------------------------
        Map: clean_vault
        function mapchunk()
         map("xx+xxx")
         map("x.1'Zx")
         map("x.....")
        end
        function main()
         tags("transparent")
         tags("extra")
         depth_weight("D:3", 5)
         weight(10) mons("orc") mons("goblin / kobold w:5")
         item("potion of curing")
         subst("x = c:5 v") subst("' = .")
         nsubst(". = 2:x / 1=y / *")
         kfeat("Z = altar_zin")
          if crawl.coinflip() then
         tags("no_pool_fixup")
          end
        end

    "#]]
    .assert_eq(&stdout(&lua));
}

/// The allocator's option is set by its index, which mimalloc's headers may renumber: its own
/// report of its options (MIMALLOC_VERBOSE) shows which one the binary set.
#[test]
fn the_allocator_reserves_arenas_of_64_mib() {
    let output = Command::new(env!("CARGO_BIN_EXE_levkit"))
        .arg("--version")
        .env("MIMALLOC_VERBOSE", "1")
        .env_remove("MIMALLOC_ARENA_RESERVE")
        .output()
        .expect("levkit runs");
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        report.contains("option 'arena_reserve': 65536 KiB"),
        "{report}"
    );
}
