//! DCSS vault previews over crawl 0.28.0's whole corpus: every vault resolves for seeds 1 to
//! 20 without a panic or a stop by the sandbox's limits, and the share of vaults that need a
//! note for a function levkit does not model is reported (the goal: at least 95% need none).

mod dcss_common;

use std::collections::BTreeMap;
use std::time::Instant;

use levkit_generate::dcss::Resolver;

#[test]
fn every_corpus_vault_previews_for_seeds_1_to_20() {
    let Some(corpus) = dcss_common::Corpus::load("DCSS corpus previews") else {
        return;
    };
    let started = Instant::now();
    let mut panics = Vec::new();
    let mut stopped = Vec::new();
    let mut failed = Vec::new();
    let mut noted = 0;
    let mut names: BTreeMap<String, usize> = BTreeMap::new();
    let mut slowest = (0.0f64, String::new());
    let only = std::env::var("LEVKIT_ONLY").ok();
    for vault in corpus.vaults.iter().filter(|v| {
        only.as_deref()
            .is_none_or(|o| v.path.to_string_lossy().contains(o))
    }) {
        if std::env::var_os("LEVKIT_TRACE").is_some() {
            eprintln!("start {}", vault.program.name);
        }
        let t = Instant::now();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut resolver =
                Resolver::new(vault.program.clone(), vault.file.clone(), corpus.library());
            let situation = vault.situation();
            (1..=20u64)
                .map(|seed| {
                    let t = Instant::now();
                    let o = resolver.resolve(seed, &situation, false);
                    if std::env::var_os("LEVKIT_TRACE").is_some() {
                        eprintln!("  seed {seed}: {:.3}s", t.elapsed().as_secs_f64());
                    }
                    o
                })
                .collect::<Vec<_>>()
        }));
        let took = t.elapsed().as_secs_f64();
        if std::env::var_os("LEVKIT_VERBOSE").is_some() && took > 0.2 {
            eprintln!("{:.2}s {}", took, vault.program.name);
        }
        if took > slowest.0 {
            slowest = (took, vault.program.name.clone());
        }
        let Ok(outcomes) = result else {
            panics.push(vault.program.name.clone());
            continue;
        };
        if let Some(o) = outcomes
            .iter()
            .find(|o| o.failure.as_ref().is_some_and(|f| f.stopped))
        {
            stopped.push(format!(
                "{}: {}",
                vault.program.name,
                o.failure.as_ref().unwrap().message
            ));
        }
        if let Some(o) = outcomes
            .iter()
            .find(|o| o.failure.as_ref().is_some_and(|f| !f.stopped))
        {
            failed.push((
                vault.program.name.clone(),
                o.failure.as_ref().unwrap().message.clone(),
            ));
        }
        if outcomes.iter().any(|o| o.has_unmodelled()) {
            noted += 1;
            let mut seen = std::collections::BTreeSet::new();
            for o in &outcomes {
                for n in o.notes.iter().filter(|n| n.unmodelled) {
                    seen.insert(n.message.clone());
                }
            }
            // LEVKIT_NOTED=text lists the vaults with a note containing it.
            if let Ok(wanted) = std::env::var("LEVKIT_NOTED")
                && seen.iter().any(|n| n.contains(&wanted))
            {
                eprintln!("noted: {} ({})", vault.program.name, vault.path.display());
            }
            for n in seen {
                *names.entry(n).or_default() += 1;
            }
        }
    }
    let total = corpus
        .vaults
        .iter()
        .filter(|v| {
            only.as_deref()
                .is_none_or(|o| v.path.to_string_lossy().contains(o))
        })
        .count();
    eprintln!(
        "{total} vaults x 20 seeds in {:.1} s (slowest {} in {:.2} s); {} with a note for an unmodelled function, {} note-free ({:.1}%)",
        started.elapsed().as_secs_f64(),
        slowest.1,
        slowest.0,
        noted,
        total - noted,
        100.0 * (total - noted) as f64 / total as f64
    );
    let mut by_count: Vec<_> = names.into_iter().collect();
    by_count.sort_by_key(|b| std::cmp::Reverse(b.1));
    for (name, count) in by_count.iter().take(60) {
        eprintln!("  {count:5}  {name}");
    }
    // Failures grouped by message (the same missing helper fails many vaults alike).
    let mut by_message: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, message) in &failed {
        by_message.entry(message).or_default().push(name);
    }
    let mut groups: Vec<_> = by_message.into_iter().collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.1.len()));
    eprintln!(
        "{} vaults whose Lua failed for some seed, by message:",
        failed.len()
    );
    for (message, names) in groups.iter().take(60) {
        eprintln!("  {:5}  {message} (e.g. {})", names.len(), names[0]);
    }
    assert!(panics.is_empty(), "panics: {panics:?}");
    assert!(stopped.is_empty(), "stopped by the limits: {stopped:#?}");
}
