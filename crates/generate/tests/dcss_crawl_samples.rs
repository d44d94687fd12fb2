//! levkit's random draws against the real crawl 0.28.0: for each vault below, what crawl's
//! `map()` answered in a `validate` chunk over 2,000 resolutions (recorded once, see below)
//! and what levkit's preview map gives for seeds 1 to 2,000 are compared with Pearson's
//! two-sample chi-square: per cell (the glyph it shows) and per glyph (how many cells show it
//! in one outcome, which tells a `:` SUBST from an `=` one and checks NSUBST's counts).
//! Categories expecting fewer than 5 are pooled; the significance is corrected for the number
//! of tests (Bonferroni); the seeds are fixed, so the test never flakes.
//!
//! The vaults: the files of `test-data/dcss-des/crawl-samples/` (one vault each, written for
//! this test) and the corpus vaults of [`CORPUS`], read from the corpus by name. Neither uses
//! Lua, so the place crawl compiles them at does not matter.
//!
//! Crawl's side is `test-data/dcss-des/crawl-samples/<vault>.crawl.json`: the number of
//! samples, each cell's glyph counts (rows of the map) and, per glyph, how many outcomes had
//! it on how many cells. To record it again, with crawl 0.28.0 installed (Debian's `crawl`):
//!
//! ```text
//! LEVKIT_CRAWL=/usr/games/crawl cargo test -p levkit-generate --test dcss_crawl_samples \
//!     -- --ignored record
//! ```
//!
//! For each vault this writes 2,000 copies of it, renamed and each with a `validate` chunk
//! that prints a marker and `map()`, into a copy of crawl's data folder
//! (`LEVKIT_CRAWL_DATA`, default `/usr/share/crawl/dat`) as `des/zz_levkit_samples.des`,
//! appended to `dlua/loadmaps.lua`; mounts that copy over the data folder in a private mount
//! namespace (`unshare --user --map-root-user --mount`, so the installed game is never
//! changed); and runs `crawl -dir <save dir> -rc /dev/null -builddb` there (`TERM=dumb`, no
//! standard input). crawl compiles, and so resolves and validates, every copy once.
//! `LEVKIT_CRAWL_ONLY=vault,vault` records only those vaults.

mod dcss_common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use levkit_generate::dcss::Resolver;
use serde_json::{Value, json};

use dcss_common::stats::{critical, deviate, homogeneity, normal_quantile, upper_tail};
use dcss_common::{Corpus, Vault};

/// Outcomes per vault, on each side.
const SAMPLES: u64 = 2_000;
/// The chance of a false alarm over the whole test.
const ALPHA: f64 = 1e-3;

/// Corpus vaults without Lua whose SUBST, NSUBST, SHUFFLE and CLEAR lines draw a lot.
const CORPUS: &[&str] = &[
    "hangedman_player_shredder",
    "nicolae_abyss_rune_star_stuff",
    "st_stairs_2",
    "minmay_joined_circles",
    "infiniplex_staircase_star",
    "hangedman_vaults_snaps",
    "shoals_garden",
];

fn samples_dir() -> PathBuf {
    levkit_test_support::test_data().join("dcss-des/crawl-samples")
}

fn record_path(vault: &str) -> PathBuf {
    samples_dir().join(format!("{vault}.crawl.json"))
}

/// The vaults of `test-data/dcss-des/crawl-samples/`, by file name.
fn own_vaults() -> Corpus {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(samples_dir())
        .expect("test-data/dcss-des/crawl-samples")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "des"))
        .collect();
    paths.sort();
    Corpus::from_files(
        paths
            .into_iter()
            .map(|p| {
                let text = std::fs::read_to_string(&p).expect("a vault file");
                (p, text)
            })
            .collect(),
    )
}

/// What a number of outcomes showed: per cell of the map, how often each glyph; per glyph,
/// how many outcomes had it on how many cells.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    samples: u64,
    height: usize,
    width: usize,
    cells: Vec<BTreeMap<char, u64>>,
    glyph_counts: BTreeMap<char, BTreeMap<usize, u64>>,
}

impl Tally {
    fn new<'a>(maps: impl IntoIterator<Item = &'a [String]>) -> Result<Tally, String> {
        let maps: Vec<&[String]> = maps.into_iter().collect();
        let height = maps.first().map_or(0, |m| m.len());
        let width = maps
            .first()
            .and_then(|m| m.first())
            .map_or(0, |r| r.chars().count());
        let mut tally = Tally {
            samples: maps.len() as u64,
            height,
            width,
            cells: vec![BTreeMap::new(); width * height],
            glyph_counts: BTreeMap::new(),
        };
        let mut per_outcome: Vec<BTreeMap<char, usize>> = Vec::with_capacity(maps.len());
        for (n, map) in maps.iter().enumerate() {
            if map.len() != height || map.iter().any(|r| r.chars().count() != width) {
                return Err(format!(
                    "outcome {n} is not a {width} by {height} rectangle: {map:?}"
                ));
            }
            let mut counts = BTreeMap::new();
            for (y, row) in map.iter().enumerate() {
                for (x, glyph) in row.chars().enumerate() {
                    *tally.cells[y * width + x].entry(glyph).or_insert(0) += 1;
                    *counts.entry(glyph).or_insert(0) += 1;
                }
            }
            per_outcome.push(counts);
        }
        let glyphs: Vec<char> = tally.cells.iter().flat_map(|c| c.keys().copied()).collect();
        for glyph in glyphs {
            tally.glyph_counts.entry(glyph).or_default();
        }
        for counts in &per_outcome {
            for (glyph, histogram) in &mut tally.glyph_counts {
                *histogram
                    .entry(counts.get(glyph).copied().unwrap_or(0))
                    .or_insert(0) += 1;
            }
        }
        Ok(tally)
    }

    /// How many outcomes had `glyph` on how many cells (all on none for a glyph never seen).
    fn glyph_count(&self, glyph: char) -> BTreeMap<usize, u64> {
        self.glyph_counts
            .get(&glyph)
            .cloned()
            .unwrap_or_else(|| BTreeMap::from([(0, self.samples)]))
    }

    /// The record: one line per row of cells and per glyph.
    fn to_json(&self, vault: &str, from: &str) -> String {
        let one_line = |v: Value| serde_json::to_string(&v).expect("plain JSON");
        let rows: Vec<String> = (0..self.height)
            .map(|y| {
                let row: Vec<Value> = (0..self.width)
                    .map(|x| {
                        json!(
                            self.cells[y * self.width + x]
                                .iter()
                                .map(|(g, n)| (g.to_string(), json!(n)))
                                .collect::<serde_json::Map<_, _>>()
                        )
                    })
                    .collect();
                format!("    {}", one_line(json!(row)))
            })
            .collect();
        let glyphs: Vec<String> = self
            .glyph_counts
            .iter()
            .map(|(g, h)| {
                let histogram: serde_json::Map<_, _> =
                    h.iter().map(|(k, n)| (k.to_string(), json!(n))).collect();
                format!(
                    "    {}: {}",
                    one_line(json!(g.to_string())),
                    one_line(json!(histogram))
                )
            })
            .collect();
        format!(
            "{{\n  \"vault\": {},\n  \"from\": {},\n  \"crawl\": \"0.28.0 (Debian 2:0.28.0-1.1): map() in validate, crawl -builddb\",\n  \"samples\": {},\n  \"width\": {},\n  \"height\": {},\n  \"cells\": [\n{}\n  ],\n  \"glyph_counts\": {{\n{}\n  }}\n}}\n",
            one_line(json!(vault)),
            one_line(json!(from)),
            self.samples,
            self.width,
            self.height,
            rows.join(",\n"),
            glyphs.join(",\n"),
        )
    }

    fn from_json(text: &str) -> Result<Tally, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let number = |v: &Value| v.as_u64().ok_or("not a count");
        let glyph = |s: &str| s.chars().next().ok_or("an empty glyph");
        let mut tally = Tally {
            samples: number(&value["samples"])?,
            width: number(&value["width"])? as usize,
            height: number(&value["height"])? as usize,
            ..Tally::default()
        };
        for row in value["cells"].as_array().ok_or("no cells")? {
            for cell in row.as_array().ok_or("a row that is not a list")? {
                let mut counts = BTreeMap::new();
                for (g, n) in cell.as_object().ok_or("a cell that is not an object")? {
                    counts.insert(glyph(g)?, number(n)?);
                }
                tally.cells.push(counts);
            }
        }
        for (g, histogram) in value["glyph_counts"].as_object().ok_or("no glyph counts")? {
            let mut counts = BTreeMap::new();
            for (k, n) in histogram
                .as_object()
                .ok_or("a histogram that is not an object")?
            {
                counts.insert(
                    k.parse().map_err(|_| "a count that is not a number")?,
                    number(n)?,
                );
            }
            tally.glyph_counts.insert(glyph(g)?, counts);
        }
        Ok(tally)
    }
}

/// levkit's preview maps of `vault` for seeds 1 to `samples`.
fn levkit_maps(vault: &Vault, library: &Corpus, samples: u64) -> Vec<Vec<String>> {
    let mut resolver = Resolver::new(vault.program.clone(), vault.file.clone(), library.library());
    let situation = vault.situation();
    (1..=samples)
        .map(|seed| resolver.resolve(seed, &situation, false).map)
        .collect()
}

/// One comparison: what, the statistic, its degrees of freedom.
struct Test {
    what: String,
    chi2: f64,
    df: usize,
}

/// The tests of one vault, and the differences that need no statistics (the map's size).
fn compare(vault: &str, crawl: &Tally, levkit: &Tally, tests: &mut Vec<Test>) -> Vec<String> {
    if (crawl.width, crawl.height, crawl.samples) != (levkit.width, levkit.height, levkit.samples) {
        return vec![format!(
            "{vault}: crawl's maps are {}x{} ({} samples), levkit's {}x{} ({})",
            crawl.width, crawl.height, crawl.samples, levkit.width, levkit.height, levkit.samples
        )];
    }
    for y in 0..crawl.height {
        for x in 0..crawl.width {
            let i = y * crawl.width + x;
            if let Some((chi2, df)) = homogeneity(&crawl.cells[i], &levkit.cells[i]) {
                tests.push(Test {
                    what: format!(
                        "{vault}: cell ({x}, {y}): crawl {:?}, levkit {:?}",
                        crawl.cells[i], levkit.cells[i]
                    ),
                    chi2,
                    df,
                });
            }
        }
    }
    let mut glyphs: Vec<char> = crawl
        .glyph_counts
        .keys()
        .chain(levkit.glyph_counts.keys())
        .copied()
        .collect();
    glyphs.sort();
    glyphs.dedup();
    for glyph in glyphs {
        let (a, b) = (crawl.glyph_count(glyph), levkit.glyph_count(glyph));
        if let Some((chi2, df)) = homogeneity(&a, &b) {
            tests.push(Test {
                what: format!(
                    "{vault}: cells showing {glyph:?} per outcome: crawl {a:?}, levkit {b:?}"
                ),
                chi2,
                df,
            });
        }
    }
    Vec::new()
}

/// A vault compared: its name, where it comes from, and the files its previews see.
struct Compared<'a> {
    name: String,
    from: String,
    vault: &'a Vault,
    library: &'a Corpus,
}

/// The vaults of `test-data/dcss-des/crawl-samples/`, then those of [`CORPUS`].
fn compared<'a>(own: &'a Corpus, corpus: &'a Corpus) -> Vec<Compared<'a>> {
    let mut out: Vec<Compared> = own
        .vaults
        .iter()
        .map(|vault| Compared {
            name: vault.program.name.clone(),
            from: format!(
                "test-data/dcss-des/crawl-samples/{}",
                vault.path.file_name().unwrap().to_string_lossy()
            ),
            vault,
            library: own,
        })
        .collect();
    for name in CORPUS {
        let vault = corpus
            .vault(name)
            .unwrap_or_else(|| panic!("{name} is not in the corpus"));
        let path = vault.path.to_string_lossy();
        let from = path
            .split_once("dcss-0.28.0/")
            .map_or(path.to_string(), |(_, tail)| format!("corpus {tail}"));
        out.push(Compared {
            name: name.to_string(),
            from,
            vault,
            library: corpus,
        });
    }
    out
}

#[test]
fn levkits_draws_match_crawls_over_2000_outcomes() {
    let Some(corpus) = Corpus::load("DCSS draws against crawl") else {
        return;
    };
    let own = own_vaults();
    let vaults = compared(&own, &corpus);
    assert_eq!(vaults.len(), 8 + CORPUS.len());
    let mut tests = Vec::new();
    let mut failures = Vec::new();
    for Compared {
        name,
        vault,
        library,
        ..
    } in &vaults
    {
        let text = std::fs::read_to_string(record_path(name))
            .unwrap_or_else(|e| panic!("{name}: no record of crawl's samples: {e}"));
        let crawl = Tally::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let maps = levkit_maps(vault, library, SAMPLES);
        let levkit = match Tally::new(maps.iter().map(Vec::as_slice)) {
            Ok(tally) => tally,
            Err(e) => {
                failures.push(format!("{name}: levkit's {e}"));
                continue;
            }
        };
        failures.extend(compare(name, &crawl, &levkit, &mut tests));
    }
    let z = normal_quantile(ALPHA / tests.len() as f64);
    let worst = tests
        .iter()
        .map(|t| (deviate(t.chi2, t.df as f64), t))
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((worst_z, test)) = worst {
        eprintln!(
            "{} vaults, {} tests over {SAMPLES} outcomes a side; threshold z = {z:.2} \
             (p = {ALPHA} / {}); worst z = {worst_z:.2} (p = {:.2e}, chi-square {:.1} on {} \
             degrees of freedom): {}",
            vaults.len(),
            tests.len(),
            tests.len(),
            upper_tail(worst_z),
            test.chi2,
            test.df,
            test.what
        );
    }
    for test in &tests {
        let limit = critical(test.df as f64, z);
        if test.chi2 > limit {
            failures.push(format!(
                "chi-square {:.1} > {limit:.1} on {} degrees of freedom: {}",
                test.chi2, test.df, test.what
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The probe of one vault: `SAMPLES` renamed copies of its text, each printing its map.
fn probe(name: &str, text: &str) -> String {
    let mut out = String::from("default-depth: D:3\n\n");
    for n in 0..SAMPLES {
        let mut renamed = String::new();
        for line in text.lines() {
            if line.trim_start().starts_with("NAME:") {
                renamed.push_str(&format!("NAME: zz_levkit_{n}_{name}\n"));
            } else {
                renamed.push_str(line);
                renamed.push('\n');
            }
        }
        out.push_str(&renamed);
        out.push_str(&format!(
            "validate {{{{\n  print(\"levkit-sample {n}\")\n  for _, l in ipairs(map()) do print(l) end\n  return true\n}}}}\n\n"
        ));
    }
    out
}

/// The maps crawl printed, in order.
fn printed_maps(stdout: &str) -> Vec<Vec<String>> {
    let mut maps: Vec<Vec<String>> = Vec::new();
    for line in stdout.lines() {
        if line.starts_with("levkit-sample ") {
            maps.push(Vec::new());
        } else if let Some(map) = maps.last_mut() {
            map.push(line.to_string());
        }
    }
    maps
}

/// The text of vault `name` in `path`: its segment of the file.
fn vault_text(path: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(path).expect("a vault file");
    levkit_syntax::dcss::segments(&text)
        .into_iter()
        .map(|s| &text[s.range])
        .find(|s| {
            s.lines().any(|l| {
                l.trim_start()
                    .strip_prefix("NAME:")
                    .is_some_and(|n| n.trim() == name)
            })
        })
        .unwrap_or_else(|| panic!("{name} is not in {}", path.display()))
        .to_string()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from).expect("crawl's data folder") {
        let entry = entry.expect("a directory entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}

/// Runs crawl on `probe` with its data folder overlaid; its standard output.
fn run_crawl(crawl: &str, data: &Path, work: &Path, probe: &str) -> String {
    let overlay = work.join("dat");
    if overlay.exists() {
        std::fs::remove_dir_all(&overlay).expect("the last overlay removed");
    }
    copy_dir(data, &overlay);
    std::fs::write(overlay.join("des/zz_levkit_samples.des"), probe).expect("the probe");
    let load_list = overlay.join("dlua/loadmaps.lua");
    let mut list = std::fs::read_to_string(&load_list).expect("crawl's load list");
    list.push_str("dgn.load_des_file('des/zz_levkit_samples.des')\n");
    std::fs::write(&load_list, list).expect("the load list");
    let save = work.join("save");
    std::fs::create_dir_all(&save).expect("a save folder");
    let output = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c"])
        .arg("mount --bind \"$1\" \"$2\" && exec \"$3\" -dir \"$4\" -rc /dev/null -builddb")
        .arg("sh")
        .args([overlay.as_path(), data, Path::new(crawl), save.as_path()])
        .env("TERM", "dumb")
        .stdin(Stdio::null())
        .output()
        .expect("unshare runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "crawl failed ({}): {}",
        output.status,
        &stderr[stderr.len().saturating_sub(2000)..]
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
#[ignore = "runs crawl 0.28.0: LEVKIT_CRAWL=/usr/games/crawl ... -- --ignored record"]
fn record_crawls_samples() {
    let Some(crawl) = std::env::var_os("LEVKIT_CRAWL") else {
        eprintln!("LEVKIT_CRAWL does not name crawl's binary: nothing recorded");
        return;
    };
    let crawl = crawl.to_string_lossy().into_owned();
    let data = std::env::var_os("LEVKIT_CRAWL_DATA")
        .map_or_else(|| PathBuf::from("/usr/share/crawl/dat"), PathBuf::from);
    let corpus = Corpus::load("DCSS draws against crawl").expect("the corpus");
    let own = own_vaults();
    let mut vaults = compared(&own, &corpus);
    // `LEVKIT_CRAWL_ONLY=name,name` records only those vaults.
    if let Some(only) = std::env::var_os("LEVKIT_CRAWL_ONLY") {
        let only = only.to_string_lossy().into_owned();
        vaults.retain(|c| only.split(',').any(|o| o == c.name));
    }
    let work = std::env::temp_dir().join(format!("levkit-crawl-samples-{}", std::process::id()));
    for Compared {
        name, from, vault, ..
    } in &vaults
    {
        let text = vault_text(&vault.path, name);
        let stdout = run_crawl(&crawl, &data, &work, &probe(name, &text));
        let maps = printed_maps(&stdout);
        assert_eq!(
            maps.len() as u64,
            SAMPLES,
            "{name}: crawl printed {} maps",
            maps.len()
        );
        let distinct: std::collections::BTreeSet<&Vec<String>> = maps.iter().collect();
        let tally = Tally::new(maps.iter().map(Vec::as_slice))
            .unwrap_or_else(|e| panic!("{name}: crawl's {e}"));
        std::fs::write(record_path(name), tally.to_json(name, from)).expect("the record");
        eprintln!(
            "{name}: {} outcomes, {} distinct",
            maps.len(),
            distinct.len()
        );
    }
    let _ = std::fs::remove_dir_all(&work);
}
