//! Preview latency, as the language server answers after an edit: for the castle, from the
//! source text to the generated picture (parse, check, compile, decode, load for a seed,
//! draw; goal: at most 16 ms); for DCSS vaults, an edit inside the vault of an open file
//! then its preview for a new seed (the vault's Lua run in the sandbox; goals: at most 50 ms
//! for a vault with Lua, a median of at most 20 ms over `variable/float.des`'s vaults).
//!
//! `LEVKIT_BENCH=summary` prints the medians as `BENCH` lines (read by `cargo xtask bench`)
//! instead of running divan.

use std::time::{Duration, Instant};

use levkit_ide::{AnalysisHost, Preview, PreviewRequest};

fn main() {
    if std::env::var("LEVKIT_BENCH").is_ok_and(|b| b == "summary") {
        summary();
        return;
    }
    divan::main();
}

fn castle_preview(bytes: &[u8], seed: u32) -> Preview {
    let mut host = AnalysisHost::new();
    let file = host.set_file_bytes("castle.des", bytes);
    let request = PreviewRequest {
        seed,
        ..PreviewRequest::default()
    };
    host.analysis()
        .preview(file, &request)
        .expect("nothing cancels it")
}

fn median(mut times: Vec<Duration>) -> f64 {
    times.sort();
    times[times.len() / 2].as_secs_f64() * 1e3
}

/// An open DCSS file whose vaults are previewed after an edit inside them.
struct OpenVaults {
    host: AnalysisHost,
    file: levkit_ide::FileId,
    text: String,
}

impl OpenVaults {
    fn new(text: String) -> OpenVaults {
        let mut host = AnalysisHost::new();
        let file = host.set_file_bytes("float.des", text.as_bytes());
        let _ = host.analysis().diagnostics(file);
        OpenVaults { host, file, text }
    }

    /// The names of the file's vaults.
    fn vaults(&self) -> Vec<String> {
        match self
            .host
            .analysis()
            .preview(self.file, &PreviewRequest::default())
        {
            Ok(Preview::Level(level)) => level.levels.clone(),
            _ => Vec::new(),
        }
    }

    /// Types a space at the end of the vault's NAME line (or takes it back), then previews the
    /// vault for `seed`.
    fn edit_and_preview(&mut self, vault: &str, seed: u32) -> Preview {
        let name = format!("NAME: {vault}");
        let spaced = format!("{name} ");
        self.text = if let Some(at) = self.text.find(&format!("{spaced}\n")) {
            format!(
                "{}{}",
                &self.text[..at],
                &self.text[at..].replacen(&spaced, &name, 1)
            )
        } else {
            let at = self.text.find(&format!("{name}\n")).unwrap_or(0);
            format!(
                "{}{}",
                &self.text[..at],
                &self.text[at..].replacen(&name, &spaced, 1)
            )
        };
        self.host.set_file_text(self.file, self.text.clone());
        let request = PreviewRequest {
            level: Some(vault.to_string()),
            seed,
            ..PreviewRequest::default()
        };
        self.host
            .analysis()
            .preview(self.file, &request)
            .expect("nothing cancels it")
    }
}

/// A vault of `float.des` whose preview runs Lua (its KITEM depends on the depth).
const LUA_VAULT: &str = "firewood_loft";

fn float() -> Option<String> {
    let dir = levkit_test_support::corpus("dcss-0.28.0", "DCSS preview benchmark")?;
    std::fs::read_to_string(dir.join("des/variable/float.des")).ok()
}

fn summary() {
    if let Some(bytes) = castle() {
        let times = (1..=100)
            .map(|seed| {
                let started = Instant::now();
                std::hint::black_box(castle_preview(&bytes, seed));
                started.elapsed()
            })
            .collect();
        println!(
            "BENCH preview file=castle.des samples=100 median_ms={:.3} goal_ms=16",
            median(times)
        );
    }
    let Some(text) = float() else {
        return;
    };
    let mut open = OpenVaults::new(text);
    let times = (1..=100)
        .map(|seed| {
            let started = Instant::now();
            std::hint::black_box(open.edit_and_preview(LUA_VAULT, seed));
            started.elapsed()
        })
        .collect();
    println!(
        "BENCH preview file=float.des:{LUA_VAULT}(Lua) samples=100 median_ms={:.3} goal_ms=50",
        median(times)
    );
    let vaults = open.vaults();
    let times: Vec<Duration> = vaults
        .iter()
        .enumerate()
        .map(|(i, vault)| {
            let started = Instant::now();
            std::hint::black_box(open.edit_and_preview(vault, i as u32 + 1));
            started.elapsed()
        })
        .collect();
    println!(
        "BENCH preview file=float.des(every-vault) samples={} median_ms={:.3} goal_ms=20",
        times.len(),
        median(times)
    );
}

fn castle() -> Option<Vec<u8>> {
    let dir = levkit_test_support::corpus("nethack-3.4.3", "preview benchmark")?;
    std::fs::read(dir.join("castle.des")).ok()
}

#[divan::bench]
fn castle_from_text_to_picture(bencher: divan::Bencher) {
    let Some(bytes) = castle() else {
        return;
    };
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        castle_preview(&bytes, seed)
    });
}

#[divan::bench]
fn dcss_vault_with_lua_edit_then_preview(bencher: divan::Bencher) {
    let Some(text) = float() else {
        return;
    };
    let mut open = OpenVaults::new(text);
    let mut seed = 0;
    bencher.bench_local(|| {
        seed += 1;
        open.edit_and_preview(LUA_VAULT, seed)
    });
}
