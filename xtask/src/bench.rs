//! `cargo xtask bench`: one table of levkit's speed and memory, each figure beside the
//! reference tool's where there is one, both measured in this run on this machine:
//!
//! - `check` of the DCSS 0.28.0 corpus, beside `crawl -builddb` (Debian's `crawl` 0.28.0:
//!   `$LEVKIT_REF_CRAWL`, else `crawl` on `PATH` or in `/usr/games`);
//! - `check` of the NetHack 3.4.3 corpus folder;
//! - `compile` of the NetHack corpus (24 files, 113 levels) into a new folder and over its
//!   own output, beside `lev_comp` 3.4.3 (`$LEVKIT_REF_LEV_COMP`: a lev_comp built from the
//!   3.4.3 source; it is never part of the repository), the two run in turn; and one process
//!   per file, as NetHack's makefile runs it;
//! - keystroke to diagnostics in the largest file of each dialect with its corpus open, and
//!   the server's memory with the DCSS corpus open after 10,000 edits (`crates/lsp/benches/
//!   latency.rs`); the castle's preview (`crates/ide/benches/preview.rs`); random levels a
//!   second (`crates/generate/benches/mklev.rs`);
//! - peak memory of the command-line runs (with `/usr/bin/time`, when it is there).
//!
//! A reference that is not on the machine leaves its row with a note. The benches print
//! `BENCH name key=value...` lines, read here.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{cargo, corpus_dir, workspace_root};

/// One row of the table.
struct Row {
    what: String,
    levkit: String,
    reference: String,
    ratio: String,
    goal: String,
}

impl Row {
    fn new(what: impl Into<String>, levkit: impl Into<String>, goal: impl Into<String>) -> Row {
        Row {
            what: what.into(),
            levkit: levkit.into(),
            reference: "—".into(),
            ratio: "—".into(),
            goal: goal.into(),
        }
    }
}

pub fn run() -> Result<(), String> {
    let corpus = corpus_dir();
    if !corpus.is_dir() {
        return Err(format!(
            "the corpus is not at {} (set LEVKIT_CORPUS)",
            corpus.display()
        ));
    }
    // The binary `cargo xtask dist` ships: profile-guided where the tools allow.
    let levkit = crate::pgo::build("release")?;
    let scratch = std::env::temp_dir().join(format!("levkit-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    let mut notes = Vec::new();

    // DCSS: levkit check against crawl -builddb.
    let dcss = corpus.join("dcss-0.28.0/des");
    let check_dcss = Cmd::new(&levkit).arg("check").arg(&dcss);
    let ours = check_dcss.median(5, None)?;
    let mut row = Row::new(
        "`check` of the DCSS corpus (140 files, 4.5 MB)",
        milliseconds(ours),
        "≥ 100× faster (≤ 80 ms)",
    );
    match find_crawl() {
        Some(crawl) => {
            let save = scratch.join("crawl-save");
            let builddb = Cmd::new(&crawl)
                .args(["-dir"])
                .arg(&save)
                .args(["-rc", "/dev/null", "-builddb"])
                .env("TERM", "dumb");
            // A fresh save folder each time: crawl then compiles every vault.
            let clear = || {
                let _ = std::fs::remove_dir_all(&save);
            };
            // Three runs: crawl's time varies by a third from one run to the next here.
            let theirs = builddb.median(3, Some(&clear))?;
            row.reference = format!("`crawl -builddb` {}", seconds(theirs));
            row.ratio = format!("{:.0}× faster", ratio(theirs, ours));
            notes.push(memory_row(
                "peak memory, `check` of the DCSS corpus",
                &check_dcss,
                Some(("`crawl -builddb`", &builddb)),
            ));
        }
        None => {
            row.reference = "crawl not found (set LEVKIT_REF_CRAWL)".into();
            notes.push(memory_row(
                "peak memory, `check` of the DCSS corpus",
                &check_dcss,
                None,
            ));
        }
    }
    rows.push(row);

    // NetHack: check of the corpus folder, compile against lev_comp.
    let nethack = corpus.join("nethack-3.4.3");
    let check_nethack = Cmd::new(&levkit).arg("check").arg(&nethack);
    rows.push(Row::new(
        "`check` of the NetHack corpus folder (24 levels files, dungeon.def, 565 other texts)",
        milliseconds(check_nethack.median(20, None)?),
        "—",
    ));
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&nethack)
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "des"))
        .collect();
    sources.sort();
    let lev_comp = std::env::var_os("LEVKIT_REF_LEV_COMP")
        .map(PathBuf::from)
        .filter(|p| p.is_file());
    let ours_into = |out: &Path| {
        Cmd::new(&levkit)
            .arg("compile")
            .arg("-o")
            .arg(out)
            .args(&sources)
    };
    let theirs_into =
        |lev_comp: &Path, out: &Path| Cmd::new(lev_comp).args(&sources).current_dir(out);
    // Into an empty folder: a new one for every run, never one emptied by deleting files. On
    // ext4 without a journal (this project's CI machines), a new file's inode is found by
    // stepping over every inode deleted in the last minute (five, while the inode table is
    // unwritten), reading each: emptying a folder of 113 files before every run made every
    // later run of either tool slower than both tools' own work.
    let folders_made = std::cell::Cell::new(0);
    let next_folder = || {
        folders_made.set(folders_made.get() + 1);
        let folder = scratch.join(format!("fresh-{}", folders_made.get()));
        let _ = std::fs::create_dir_all(&folder);
        folder
    };
    let ours_out = scratch.join("levkit-out");
    let theirs_out = scratch.join("lev_comp-out");
    for folder in [&ours_out, &theirs_out] {
        std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
    }
    let compile = ours_into(&ours_out);
    for (what, fresh) in [
        ("into an empty folder", true),
        ("over its own output", false),
    ] {
        let folder = |own: &Path| {
            if fresh {
                next_folder()
            } else {
                own.to_path_buf()
            }
        };
        let ours_cmd = || ours_into(&folder(&ours_out));
        let mut row = Row::new(
            format!("`compile` of the NetHack corpus (24 files, 113 levels) {what}"),
            String::new(),
            "≤ 0.25×",
        );
        match &lev_comp {
            Some(lev_comp) => {
                let theirs_cmd = || theirs_into(lev_comp, &folder(&theirs_out));
                // Run in turn, so that both tools meet the machine in the same state.
                let (ours, theirs) = paired_medians(20, &ours_cmd, &theirs_cmd)?;
                row.levkit = milliseconds(ours);
                row.reference = format!("`lev_comp` {}", milliseconds(theirs));
                row.ratio = format!("{:.2}×", ratio(ours, theirs));
            }
            None => {
                row.levkit = milliseconds(median_of(20, &ours_cmd)?);
                row.reference = "lev_comp not found (set LEVKIT_REF_LEV_COMP)".into();
            }
        }
        rows.push(row);
    }
    let reference = lev_comp.as_ref().map(|l| theirs_into(l, &theirs_out));
    // One process per file, as NetHack's makefile runs its level compiler: the start of a
    // process counts 24 times.
    let sum_of_medians = |command: &dyn Fn(&Path) -> Cmd| -> Result<Duration, String> {
        sources
            .iter()
            .map(|source| command(source).median(10, None))
            .sum()
    };
    let ours = sum_of_medians(&|source| {
        Cmd::new(&levkit)
            .arg("compile")
            .arg("-o")
            .arg(&ours_out)
            .arg(source)
    })?;
    let mut row = Row::new(
        "`compile` of the NetHack corpus over its own output, one process per file (as NetHack's makefile runs it)",
        milliseconds(ours),
        "—",
    );
    if let Some(lev_comp) = &lev_comp {
        let theirs =
            sum_of_medians(&|source| Cmd::new(lev_comp).arg(source).current_dir(&theirs_out))?;
        row.reference = format!("`lev_comp` {}", milliseconds(theirs));
        row.ratio = format!("{:.2}×", ratio(ours, theirs));
    }
    rows.push(row);
    notes.push(memory_row(
        "peak memory, `compile` of the NetHack corpus",
        &compile,
        reference.as_ref().map(|r| ("`lev_comp`", r)),
    ));

    // The benches' own figures.
    let lsp = bench_lines("levkit-lsp", "latency", None)?;
    for line in lsp.iter().filter(|l| l.name == "lsp-keystroke") {
        rows.push(Row::new(
            format!(
                "keystroke → diagnostics, {} ({} KB) with its {} corpus files open: median / p99",
                line.get("file"),
                line.get("bytes").parse::<u64>().unwrap_or(0) / 1000,
                line.get("open"),
            ),
            format!("{} / {} ms", line.get("median_ms"), line.get("p99_ms")),
            "≤ 2 / 10 ms",
        ));
    }
    for line in lsp.iter().filter(|l| l.name == "lsp-memory") {
        rows.push(Row::new(
            format!(
                "server resident memory, DCSS corpus ({} files) open, after {} edits",
                line.get("open"),
                line.get("edits")
            ),
            format!("{} MiB", line.get("rss_mib")),
            "≤ 150 MB",
        ));
    }
    for line in bench_lines("levkit-ide", "preview", Some("summary"))? {
        rows.push(Row::new(
            format!("preview of {}: text to picture", line.get("file")),
            format!("{} ms", line.get("median_ms")),
            format!("≤ {} ms", line.get("goal_ms")),
        ));
    }
    for line in bench_lines("levkit-generate", "mklev", Some("summary"))? {
        rows.push(Row::new(
            "random levels (mklev) a second, one thread",
            line.get("levels_per_second").to_string(),
            "≥ 20,000",
        ));
    }
    rows.extend(notes);
    let _ = std::fs::remove_dir_all(&scratch);

    println!("{}", table(&rows));
    Ok(())
}

/// crawl: `$LEVKIT_REF_CRAWL`, else on `PATH`, else Debian's `/usr/games/crawl`.
fn find_crawl() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("LEVKIT_REF_CRAWL") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("crawl"))
            .find(|p| p.is_file())
    });
    on_path.or_else(|| Some(PathBuf::from("/usr/games/crawl")).filter(|p| p.is_file()))
}

/// A command to time, quietly (its output is not the measure).
#[derive(Clone)]
struct Cmd {
    program: PathBuf,
    args: Vec<std::ffi::OsString>,
    env: Vec<(String, String)>,
    dir: Option<PathBuf>,
}

impl Cmd {
    fn new(program: &Path) -> Cmd {
        Cmd {
            program: program.to_path_buf(),
            args: Vec::new(),
            env: Vec::new(),
            dir: None,
        }
    }

    fn arg(mut self, arg: impl AsRef<std::ffi::OsStr>) -> Cmd {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    fn args<I: IntoIterator<Item = S>, S: AsRef<std::ffi::OsStr>>(mut self, args: I) -> Cmd {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    fn env(mut self, key: &str, value: &str) -> Cmd {
        self.env.push((key.into(), value.into()));
        self
    }

    fn current_dir(mut self, dir: &Path) -> Cmd {
        self.dir = Some(dir.to_path_buf());
        self
    }

    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        for (key, value) in &self.env {
            command.env(key, value);
        }
        if let Some(dir) = &self.dir {
            command.current_dir(dir);
        }
        command
    }

    /// The median wall time of `runs` runs (after one untimed run that warms the caches),
    /// with `before` called ahead of each, outside the timing.
    fn median(&self, runs: usize, before: Option<&dyn Fn()>) -> Result<Duration, String> {
        median_of(runs, &|| {
            if let Some(before) = before {
                before();
            }
            self.clone()
        })
    }

    /// The wall time of one run.
    fn time_once(&self) -> Result<Duration, String> {
        let started = Instant::now();
        let status = self
            .command(&self.program)
            .args(&self.args)
            .status()
            .map_err(|e| format!("cannot run {}: {e}", self.program.display()))?;
        let elapsed = started.elapsed();
        // levkit exits 1 when the files have errors, which is no failure of the run.
        if status.code().is_none_or(|c| c > 1) {
            return Err(format!("{} failed ({status})", self.program.display()));
        }
        Ok(elapsed)
    }

    /// Peak resident memory of one run, in KiB, if `/usr/bin/time` can say.
    fn peak_kib(&self) -> Option<u64> {
        let time = Path::new("/usr/bin/time");
        if !time.is_file() {
            return None;
        }
        let report = std::env::temp_dir().join(format!("levkit-bench-rss-{}", std::process::id()));
        let status = self
            .command(time)
            .args(["-f", "%M", "-o"])
            .arg(&report)
            .arg(&self.program)
            .args(&self.args)
            .status()
            .ok()?;
        let text = std::fs::read_to_string(&report).ok();
        let _ = std::fs::remove_file(&report);
        status.code().filter(|c| *c <= 1)?;
        text?.lines().last()?.trim().parse().ok()
    }
}

fn memory_row(what: &str, ours: &Cmd, reference: Option<(&str, &Cmd)>) -> Row {
    let mib = |kib: u64| format!("{:.1} MiB", kib as f64 / 1024.0);
    let mine = ours.peak_kib();
    let mut row = Row::new(what, mine.map_or("— (no /usr/bin/time)".into(), mib), "—");
    if let Some((name, reference)) = reference {
        let theirs = reference.peak_kib();
        row.reference = format!("{name} {}", theirs.map_or("—".into(), mib));
        if let (Some(mine), Some(theirs)) = (mine, theirs) {
            row.ratio = format!("{:.2}×", mine as f64 / theirs as f64);
        }
    }
    row
}

/// The median wall times of two commands over `runs` runs each, run in turn (after one
/// untimed run of each), so that both meet the machine in the same state. Each run's command
/// is made afresh, for commands that differ from run to run.
fn paired_medians(
    runs: usize,
    ours: &dyn Fn() -> Cmd,
    theirs: &dyn Fn() -> Cmd,
) -> Result<(Duration, Duration), String> {
    let (mut our_times, mut their_times) = (Vec::new(), Vec::new());
    for run in 0..=runs {
        let (a, b) = (ours().time_once()?, theirs().time_once()?);
        if run > 0 {
            our_times.push(a);
            their_times.push(b);
        }
    }
    Ok((middle(our_times), middle(their_times)))
}

/// The median wall time of `runs` runs of commands made afresh for each (after one untimed).
fn median_of(runs: usize, command: &dyn Fn() -> Cmd) -> Result<Duration, String> {
    let mut times = (0..=runs)
        .map(|_| command().time_once())
        .collect::<Result<Vec<_>, _>>()?;
    Ok(middle(times.split_off(1)))
}

fn middle(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

/// A `BENCH name key=value...` line of a bench's output.
struct BenchLine {
    name: String,
    values: HashMap<String, String>,
}

impl BenchLine {
    fn get(&self, key: &str) -> &str {
        self.values.get(key).map_or("?", String::as_str)
    }
}

/// Runs a bench target of a package and reads its `BENCH` lines.
fn bench_lines(package: &str, bench: &str, mode: Option<&str>) -> Result<Vec<BenchLine>, String> {
    eprintln!("==> cargo bench -p {package} --bench {bench}");
    let mut command = Command::new(cargo());
    command
        .args(["bench", "-p", package, "--bench", bench])
        .current_dir(workspace_root())
        .stderr(Stdio::inherit());
    match mode {
        Some(mode) => command.env("LEVKIT_BENCH", mode),
        None => command.env_remove("LEVKIT_BENCH"),
    };
    let output = command
        .output()
        .map_err(|e| format!("cannot run cargo bench: {e}"))?;
    let text = String::from_utf8_lossy(&output.stdout);
    eprint!("{text}");
    if !output.status.success() {
        return Err(format!("cargo bench -p {package} --bench {bench} failed"));
    }
    Ok(text
        .lines()
        .filter_map(|line| {
            let mut words = line.strip_prefix("BENCH ")?.split_whitespace();
            let name = words.next()?.to_string();
            let values = words
                .filter_map(|w| w.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            Some(BenchLine { name, values })
        })
        .collect())
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}

fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn milliseconds(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

/// The table in Markdown, under a line naming the machine and the date.
fn table(rows: &[Row]) -> String {
    let mut out = format!("{}, {}\n\n", machine(), today());
    out.push_str("| measure | levkit | reference | ratio | goal |\n");
    out.push_str("| --- | --- | --- | --- | --- |\n");
    for row in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            row.what, row.levkit, row.reference, row.ratio, row.goal
        ));
    }
    out
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|l| l.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cpu}, {cores} cores, {}", std::env::consts::OS)
}

/// Today's date (UTC), from the system clock.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Days since 1970-01-01 to a civil date (the proleptic Gregorian calendar).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
