//! The real server, in process, driven over an in-memory pipe as an editor would drive it.

use levkit_lsp::test_client::Client;
use serde_json::{Value, json};

const URI: &str = "file:///tmp/levkit-e2e/fort.des";
const LEVEL: &str = "MAZE:\"fort\",' '\nGEOMETRY:center,center\nMAP\n-----\n|...|\n-----\nENDMAP\nMONSTER:'d',\"jackal\",(9,1)\n";

async fn started() -> Client {
    let mut client = Client::start().await;
    let result = client
        .request("initialize", json!({ "processId": null, "rootUri": null, "capabilities": { "general": { "positionEncodings": ["utf-16"] } } }))
        .await;
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(result["capabilities"]["hoverProvider"], true);
    client.notify("initialized", json!({})).await;
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": URI, "languageId": "nethack-des", "version": 1, "text": LEVEL } }))
        .await;
    client
}

/// A server whose workspace is `dir`, with the client's `capabilities`.
async fn started_in(dir: &std::path::Path, capabilities: Value) -> Client {
    let mut client = Client::start().await;
    client
        .request(
            "initialize",
            json!({ "processId": null, "rootUri": format!("file://{}", dir.display()), "capabilities": capabilities }),
        )
        .await;
    client.notify("initialized", json!({})).await;
    client
}

/// Version 2 of [`LEVEL`] at `uri`: the jackal's x goes from 9 to 2, inside the map.
async fn move_the_jackal_into_the_map(client: &mut Client, uri: &str) {
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [
                { "range": { "start": { "line": 7, "character": 22 }, "end": { "line": 7, "character": 23 } }, "text": "2" }
            ] }),
        )
        .await;
}

#[tokio::test]
async fn an_editor_session() {
    let mut client = started().await;

    // An out-of-map coordinate is an error on its line.
    let diagnostics = client.diagnostics(URI, 1).await;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "NH0115");
    assert_eq!(
        diagnostics[0]["range"]["start"],
        json!({ "line": 7, "character": 21 })
    );

    // Fixing it with an incremental edit clears the diagnostics of the new version.
    move_the_jackal_into_the_map(&mut client, URI).await;
    assert_eq!(client.diagnostics(URI, 2).await, Vec::<Value>::new());

    // Pull diagnostics agree.
    let pulled = client
        .request(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    assert_eq!(pulled["items"], json!([]));

    // Hover on MONSTER documents the keyword.
    let hover = client
        .request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": URI }, "position": { "line": 7, "character": 2 } }),
        )
        .await;
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .starts_with("**MONSTER**"),
        "{hover}"
    );

    // Hover on a map cell says what it is and where it lands.
    let hover = client
        .request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": URI }, "position": { "line": 4, "character": 1 } }),
        )
        .await;
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("Map cell (1, 1)"),
        "{hover}"
    );

    // The outline lists the level.
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    assert_eq!(symbols[0]["name"], "fort");

    // The preview is 21 rows of 80 cells, the map placed where the game puts it.
    let preview = client
        .request("levkit/preview", json!({ "textDocument": { "uri": URI } }))
        .await;
    let rows = preview["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 21);
    assert!(
        rows.iter()
            .all(|r| r.as_str().unwrap().chars().count() == 80)
    );
    // A 5x3 map at center,center starts at (2+(76-5)/2, 2+(18-3)/2) = (37, 9), and the
    // level is drawn as the game builds it: the jackal the edit moved to (2,1) stands there.
    assert_eq!(preview["generated"], true);
    assert_eq!(&rows[9].as_str().unwrap()[37..42], "-----");
    assert_eq!(&rows[10].as_str().unwrap()[37..42], "|.d.|");
    let jackal = preview["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["x"] == 39 && c["y"] == 10)
        .expect("the jackal's square");
    assert_eq!(jackal["what"], "monster: jackal");
    assert_eq!(jackal["range"]["start"]["line"], 7);
    // The edit moved the jackal to (2,1): the heatmap puts it on that floor cell.
    assert_eq!(
        preview["heat"],
        json!([{ "x": 39, "y": 10, "expected": 1.0 }])
    );
    assert_eq!(preview["regions"], json!([]));

    client.request("shutdown", Value::Null).await;
}

#[tokio::test]
async fn completion_offers_monsters_of_the_class_just_written() {
    let mut client = started().await;
    client.diagnostics(URI, 1).await;
    let text = format!("{LEVEL}MONSTER: 'd', \"");
    client
        .notify("textDocument/didChange", json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [ { "text": text } ] }))
        .await;
    let items = client
        .request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": URI }, "position": { "line": 8, "character": 15 } }),
        )
        .await;
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"jackal"), "{labels:?}");
    assert!(!labels.contains(&"newt"), "only class 'd': {labels:?}");
}

#[tokio::test]
async fn quick_fixes_come_from_diagnostics() {
    let mut client = started().await;
    client.diagnostics(URI, 1).await;
    let text = LEVEL.replace("\"jackal\",(9,1)", "\"jakal\",(1,1)");
    client
        .notify("textDocument/didChange", json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [ { "text": text } ] }))
        .await;
    let diagnostics = client.diagnostics(URI, 2).await;
    assert_eq!(diagnostics[0]["code"], "NH0202");
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": URI }, "range": diagnostics[0]["range"], "context": { "diagnostics": diagnostics } }),
        )
        .await;
    assert_eq!(actions[0]["title"], "Replace with \"jackal\"");
    assert_eq!(
        actions[0]["edit"]["changes"][URI][0]["newText"],
        "\"jackal\""
    );
}

/// A diagnostic carries `relatedInformation` only when it points somewhere else: an empty
/// list on each of a file's diagnostics would only lengthen every keystroke's message.
#[tokio::test]
async fn related_information_only_where_a_diagnostic_points_elsewhere() {
    let mut client = started().await;
    let twins = "file:///tmp/levkit-e2e/twins.des";
    let text = "NAME: twin\nMAP\n.\nENDMAP\n\nNAME: twin\nMAP\n.\nENDMAP\n";
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": twins, "languageId": "dcss-des", "version": 1, "text": text } }))
        .await;
    let diagnostics = client
        .diagnostics_such_that(twins, 1, |d| d.iter().any(|d| d["code"] == "DC0301"))
        .await;
    let placeless = diagnostics.iter().find(|d| d["code"] == "DC0207").unwrap();
    assert_eq!(placeless.get("relatedInformation"), None);
    let repeated = diagnostics.iter().find(|d| d["code"] == "DC0301").unwrap();
    assert_eq!(
        repeated["relatedInformation"][0]["message"],
        "first defined here"
    );
    assert_eq!(
        repeated["relatedInformation"][0]["location"]["range"]["start"],
        json!({ "line": 0, "character": 6 })
    );
}

#[tokio::test]
async fn utf8_positions_when_the_client_offers_them() {
    let mut client = Client::start().await;
    let result = client
        .request("initialize", json!({ "processId": null, "capabilities": { "general": { "positionEncodings": ["utf-8", "utf-16"] } } }))
        .await;
    assert_eq!(result["capabilities"]["positionEncoding"], "utf-8");
}

#[tokio::test]
async fn extra_warnings_follow_the_client_setting() {
    let mut client = Client::start().await;
    client
        .request("initialize", json!({ "processId": null, "capabilities": {}, "initializationOptions": { "extraWarnings": true } }))
        .await;
    client.notify("initialized", json!({})).await;
    let text = "MAZE:\"r\",' '\nGEOMETRY:center,center\nMAP\n-----\n|...|\n|.-.|\n|...|\n-----\nENDMAP\nREGION:(1,1,3,3),lit,\"ordinary\"\n";
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": URI, "languageId": "nethack-des", "version": 1, "text": text } }))
        .await;
    let diagnostics = client.diagnostics(URI, 1).await;
    assert_eq!(diagnostics[0]["code"], "NH0301", "{diagnostics:?}");
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "levkit": { "extraWarnings": false } } }),
        )
        .await;
    // The republished diagnostics of version 1 no longer hold the -W warning.
    loop {
        client.notifications.clear();
        let again = client.diagnostics(URI, 1).await;
        if again.is_empty() {
            break;
        }
    }
}

#[tokio::test]
async fn a_client_that_pulls_diagnostics_is_not_pushed_duplicates() {
    let mut client = Client::start().await;
    client
        .request(
            "initialize",
            json!({ "processId": null, "capabilities": { "textDocument": { "diagnostic": {} } } }),
        )
        .await;
    client.notify("initialized", json!({})).await;
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": URI, "languageId": "nethack-des", "version": 1, "text": LEVEL } }))
        .await;
    let pulled = client
        .request(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    assert_eq!(pulled["items"][0]["code"], "NH0115");
    assert!(
        !client
            .notifications
            .iter()
            .any(|n| n["method"] == "textDocument/publishDiagnostics"),
        "pushed as well: {:?}",
        client.notifications
    );
}

/// Pulls a document's diagnostic codes, waiting for the server to know the document (the
/// workspace is read in the background after `initialized`).
async fn pulled_codes(client: &mut Client, uri: &str) -> Vec<String> {
    for _ in 0..100 {
        let answer = client
            .request_once(
                "textDocument/diagnostic",
                json!({ "textDocument": { "uri": uri } }),
            )
            .await;
        if let Some(items) = answer["result"]["items"].as_array() {
            return items
                .iter()
                .map(|d| d["code"].as_str().unwrap_or("").to_string())
                .collect();
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the server never knew {uri}")
}

#[tokio::test]
async fn a_file_that_is_not_utf8_keeps_its_error_once_closed_or_reloaded() {
    let dir = std::env::temp_dir().join(format!("levkit-e2e-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.des");
    std::fs::write(&path, b"MAZE:\"b\xffd\",' '\nNOMAP\n").unwrap();
    let uri = format!("file://{}", path.display());
    let mut client = started_in(&dir, json!({ "textDocument": { "diagnostic": {} } })).await;
    assert_eq!(pulled_codes(&mut client, &uri).await, ["LK0001"]);
    // The editor shows its own decoding of the bytes, which is UTF-8 by construction.
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "nethack-des", "version": 1, "text": "MAZE:\"b\u{fffd}d\",' '\nNOMAP\n" } }))
        .await;
    assert_eq!(pulled_codes(&mut client, &uri).await, Vec::<String>::new());
    // Closed: back to the bytes on disk, and to their error.
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert_eq!(pulled_codes(&mut client, &uri).await, ["LK0001"]);
    // Changed on disk, still not UTF-8.
    std::fs::write(&path, b"MAZE:\"c\xfe\",' '\nNOMAP\n").unwrap();
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": uri, "type": 2 }] }),
        )
        .await;
    assert_eq!(pulled_codes(&mut client, &uri).await, ["LK0001"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn the_server_says_what_a_document_s_content_is_whatever_its_language() {
    let mut client = started().await;
    let vault = "file:///tmp/levkit-e2e/vault.des";
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": vault, "languageId": "nethack-des", "version": 1, "text": "MONS: rat\nNAME: v\nMAP\n.\nENDMAP\n" } }))
        .await;
    let answer = client
        .request(
            "levkit/dialect",
            json!({ "textDocument": { "uri": vault } }),
        )
        .await;
    assert_eq!(
        answer,
        json!({ "dialect": "dcss", "languageId": "dcss-des" })
    );
    let answer = client
        .request("levkit/dialect", json!({ "textDocument": { "uri": URI } }))
        .await;
    assert_eq!(
        answer,
        json!({ "dialect": "nethack", "languageId": "nethack-des" })
    );
}

#[tokio::test]
async fn the_workspace_scan_skips_what_is_not_a_level_file_and_says_so() {
    let dir = std::env::temp_dir().join(format!("levkit-e2e-scan-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("fine.des"), LEVEL).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a level\n".repeat(1000)).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.des")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("pipe.des"))
        .status()
        .is_ok_and(|s| s.success());
    let big = std::fs::File::create(dir.join("big.des")).unwrap();
    big.set_len(levkit_files::MAX_FILE_BYTES + 1).unwrap();
    let mut client = started_in(&dir, json!({})).await;
    let mut skipped = vec!["big.des", "zero.des"];
    if fifo {
        skipped.push("pipe.des");
    }
    for name in skipped {
        let uri = format!("file://{}", dir.join(name).display());
        let diagnostics = client.diagnostics_unversioned(&uri).await;
        assert_eq!(diagnostics[0]["code"], "LK0004", "{name}: {diagnostics:?}");
    }
    // The server is alive, and read the level file.
    let fine = format!("file://{}", dir.join("fine.des").display());
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": fine } }),
        )
        .await;
    assert_eq!(symbols[0]["name"], "fort");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn a_lone_carriage_return_ends_a_line_for_edits_as_in_the_editor() {
    let mut client = started().await;
    let uri = "file:///tmp/levkit-e2e/cr.des";
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "nethack-des", "version": 1, "text": "MAZE:\"first\",' '\rMAZE:\"old\",' '\n" } }))
        .await;
    // Line 1 starts after the lone CR, as LSP counts lines.
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [
                { "range": { "start": { "line": 1, "character": 6 }, "end": { "line": 1, "character": 9 } }, "text": "new" }
            ] }),
        )
        .await;
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert_eq!(symbols[1]["name"], "new", "{symbols}");
    assert_eq!(
        symbols[1]["selectionRange"]["start"],
        json!({ "line": 1, "character": 5 })
    );
}

#[tokio::test]
async fn an_edit_tells_the_client_only_what_it_changed() {
    let mut client = started().await;
    let other = "file:///tmp/levkit-e2e/other.des";
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": other, "languageId": "nethack-des", "version": 1, "text": LEVEL } }))
        .await;
    client.diagnostics(other, 1).await;
    // Let what the opening sent arrive, then listen to the edit alone.
    client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": other } }),
        )
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": other } }),
        )
        .await;
    client.notifications.clear();
    move_the_jackal_into_the_map(&mut client, URI).await;
    client.diagnostics(URI, 2).await;
    // A request answered after the edit: everything the edit sent has arrived by then.
    client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": URI } }),
        )
        .await;
    let about_other: Vec<&Value> = client
        .notifications
        .iter()
        .filter(|n| n["params"]["uri"] == other || n["params"]["textDocument"]["uri"] == other)
        .collect();
    assert!(about_other.is_empty(), "{about_other:?}");
    let previews = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "levkit/previewChanged")
        .count();
    assert_eq!(previews, 1);
}

#[tokio::test]
async fn a_huge_document_is_highlighted_by_ranges_only_and_the_user_is_told_once() {
    let mut client = started().await;
    let uri = "file:///tmp/levkit-e2e/huge.des";
    let line = "# a comment line of a very large level file\n";
    let text = format!("{LEVEL}{}", line.repeat((4 << 20) / line.len() + 1));
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "nethack-des", "version": 1, "text": text } }))
        .await;
    for _ in 0..2 {
        let full = client
            .request(
                "textDocument/semanticTokens/full",
                json!({ "textDocument": { "uri": uri } }),
            )
            .await;
        assert_eq!(full["data"], json!([]));
    }
    let ranged = client
        .request(
            "textDocument/semanticTokens/range",
            json!({ "textDocument": { "uri": uri }, "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 2, "character": 0 } } }),
        )
        .await;
    assert!(!ranged["data"].as_array().unwrap().is_empty());
    let told = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "window/showMessage")
        .count();
    assert_eq!(told, 1);
}

#[tokio::test]
async fn an_edited_vault_is_published_at_once_and_again_with_its_survey() {
    let mut client = started().await;
    // What the start publishes (every open document, after the workspace is read) is out
    // of the way first.
    client.diagnostics(URI, 1).await;
    client.drain(std::time::Duration::from_millis(300)).await;
    let uri = "file:///tmp/levkit-e2e/reachability.des";
    // The fixture's moat, and a second one that the edit leaves alone.
    let fixture = include_str!("../../../test-data/dcss-des/check/reachability.des");
    let (moat, _) = fixture
        .split_once("# Always reachable")
        .expect("the fixture starts with the moat");
    let second_moat = &moat[moat.find("NAME:").expect("the moat has a name")..]
        .replace("levkit_reach_moat", "levkit_reach_second_moat");
    let text = format!("{fixture}\n{second_moat}");
    let surveyed = |diagnostics: &[Value]| -> Vec<u64> {
        diagnostics
            .iter()
            .filter(|d| d["code"] == "DC0501")
            .map(|d| d["range"]["start"]["line"].as_u64().unwrap_or(u64::MAX))
            .collect()
    };
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": uri, "languageId": "dcss-des", "version": 1, "text": text } }))
        .await;
    // Opened: published before any vault is surveyed, then again once both moats are.
    assert_eq!(
        surveyed(&client.diagnostics(uri, 1).await),
        Vec::<u64>::new()
    );
    let both = client
        .diagnostics_such_that(uri, 1, |d| surveyed(d).len() == 2)
        .await;
    let lines = surveyed(&both);

    // An edit to the first moat's DEPTH line (line 6): its survey is dropped from the first
    // publication, the second moat's is kept, and the survey comes back after the pause.
    client
        .notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [
                { "range": { "start": { "line": 6, "character": 11 }, "end": { "line": 6, "character": 12 } }, "text": "6" }
            ] }),
        )
        .await;
    assert_eq!(surveyed(&client.diagnostics(uri, 2).await), lines[1..]);
    let eventually = client
        .diagnostics_such_that(uri, 2, |d| surveyed(d).len() == 2)
        .await;
    assert_eq!(surveyed(&eventually), lines);
}

#[tokio::test]
async fn an_edit_to_a_level_tells_the_preview_of_the_dungeon_that_lists_it_after_a_pause() {
    let dir = std::env::temp_dir().join(format!("levkit-e2e-dependents-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dungeon_text =
        "DUNGEON: \"The Dungeons of Doom\" \"D\" (25, 5)\nLEVEL: \"fort\" \"F\" @ (5, 5)\n";
    std::fs::write(dir.join("dungeon.def"), dungeon_text).unwrap();
    std::fs::write(dir.join("fort.des"), LEVEL).unwrap();
    let dungeon = format!("file://{}", dir.join("dungeon.def").display());
    let level = format!("file://{}", dir.join("fort.des").display());
    let mut client = started_in(&dir, json!({})).await;
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": dungeon, "languageId": "nethack-dungeon", "version": 1, "text": dungeon_text } }))
        .await;
    client
        .notify("textDocument/didOpen", json!({ "textDocument": { "uri": level, "languageId": "nethack-des", "version": 1, "text": LEVEL } }))
        .await;
    client.diagnostics(&level, 1).await;
    client.drain(std::time::Duration::from_millis(300)).await;
    client.notifications.clear();
    move_the_jackal_into_the_map(&mut client, &level).await;
    client.diagnostics(&level, 2).await;
    // The dungeon's overview is told by the pass that runs after a pause in typing.
    client.drain(std::time::Duration::from_millis(300)).await;
    let told: Vec<&Value> = client
        .notifications
        .iter()
        .filter(|n| n["method"] == "levkit/previewChanged")
        .map(|n| &n["params"]["textDocument"]["uri"])
        .collect();
    assert!(told.contains(&&json!(level)), "{told:?}");
    assert!(told.contains(&&json!(dungeon)), "{told:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
