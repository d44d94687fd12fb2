//! The sandbox against hostile vaults: each vault's Lua tries to run forever, to exhaust the
//! stack or the memory, or to reach the file system or the process. Every one is stopped, or
//! fails, within 100 ms with a message saying why, and none touches the disk. The time is the
//! thread's CPU time, the clock the sandbox's limit reads: on an idle machine it is the time a
//! user waits, and a busy one (CI beside a build) does not make the test fail.

mod dcss_common;

use std::path::PathBuf;
use std::time::Duration;

use levkit_generate::dcss::sandbox::thread_time;
use levkit_generate::dcss::{Resolver, Situation};

/// The most a hostile vault may take, its whole resolution included.
const WITHIN: Duration = Duration::from_millis(100);

/// Where an escape would write (or read); it must not exist afterwards.
fn marker() -> PathBuf {
    std::env::temp_dir().join(format!("levkit-sandbox-escape-{}", std::process::id()))
}

/// A vault whose main chunk is `lua`, resolved for seed 1: its failure or notes, and the time.
fn run(lua: &str) -> (String, Duration) {
    let text = format!(
        "NAME: levkit_hostile\nTAGS: no_rotate no_hmirror no_vmirror\nDEPTH: D:3\n{}\nMAP\nx.x\nENDMAP\n",
        lua.lines()
            .map(|l| format!(": {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let corpus = dcss_common::Corpus::from_files(vec![(PathBuf::from("hostile.des"), text)]);
    let vault = &corpus.vaults[0];
    let mut resolver = Resolver::new(vault.program.clone(), vault.file.clone(), corpus.library());
    let started = thread_time();
    let outcome = resolver.resolve(1, &Situation::default(), false);
    let took = thread_time().saturating_sub(started);
    let mut said: Vec<String> = outcome.failure.iter().map(|f| f.message.clone()).collect();
    said.extend(outcome.notes.iter().map(|n| n.message.clone()));
    (said.join("; "), took)
}

#[test]
fn hostile_vaults_are_stopped_quickly_and_reach_nothing() {
    let path = marker();
    let p = path.display().to_string();
    let cases: Vec<(&str, String, &str)> = vec![
        ("infinite loop", "while true do end".into(), "time limit"),
        ("busy loop with calls", "local n = 0\nwhile true do n = n + math.random(3) end".into(), "limit"),
        (
            "deep recursion",
            "local function f(n) return 1 + f(n + 1) end\nf(1)".into(),
            "stack overflow",
        ),
        ("huge string", "local s = string.rep('x', 2^30)".into(), "memory"),
        (
            "huge string by doubling",
            "local s = 'x'\nwhile true do s = s .. s end".into(),
            "",
        ),
        (
            "huge table",
            "local t = {}\nfor i = 1, 1e9 do t[i] = {i} end".into(),
            "",
        ),
        ("os.execute", format!("os.execute('touch {p}')"), "os"),
        ("os.remove", format!("os.remove('{p}')"), "os"),
        ("io.open", format!("io.open('{p}', 'w'):write('x')"), "io"),
        ("require", "require('os').exit(1)".into(), "require"),
        ("loadfile", "loadfile('/etc/passwd')()".into(), "loadfile"),
        ("dofile", "dofile('/etc/passwd')".into(), "dofile"),
        (
            "load of a chunk that escapes",
            format!("local f = loadstring('return os') or load('return os')\nf().execute('touch {p}')"),
            "",
        ),
        ("debug", "debug.sethook()".into(), "debug"),
        ("string.dump", "string.dump(function() end)".into(), "dump"),
        ("setfenv", "setfenv(1, {})\nprint(1)".into(), ""),
        ("getfenv", "getfenv(0).os.exit(1)".into(), ""),
        (
            "a metatable that loops on every missing global",
            "setmetatable(_G, {__index = function() while true do end end})\nlocal x = nothing_here".into(),
            "limit",
        ),
        (
            "a string metatable trick",
            "getmetatable('').__index = function() while true do end end\nlocal x = ('a'):upper()".into(),
            "limit",
        ),
        (
            "a coroutine that never yields",
            "local co = coroutine.create(function() while true do end end)\ncoroutine.resume(co)".into(),
            "",
        ),
        ("collectgarbage", "collectgarbage('stop')\nwhile true do local t = {} end".into(), ""),
        ("error with a table", "error({})".into(), ""),
    ];
    let mut problems = Vec::new();
    for (name, lua, expected) in &cases {
        let (said, took) = run(lua);
        if said.is_empty() {
            problems.push(format!("{name}: neither stopped nor failed"));
        } else if !said.to_lowercase().contains(&expected.to_lowercase()) {
            problems.push(format!(
                "{name}: said {said:?}, expected it to mention {expected:?}"
            ));
        }
        if took > WITHIN {
            problems.push(format!("{name}: took {took:?}"));
        }
        if path.exists() {
            let _ = std::fs::remove_file(&path);
            problems.push(format!("{name}: reached the file system"));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
