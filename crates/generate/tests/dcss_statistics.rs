//! Fidelity of the random draws: for corpus vaults whose SUBST, NSUBST, SHUFFLE or MONS
//! choices are drawn, the choices made over 2,000 seeds follow the declared weights (Pearson's
//! chi-square test, one per statement and part, at a fixed significance corrected for the
//! number of tests). A sample of the corpus spread over all of it keeps the test quick.

mod dcss_common;

use std::collections::BTreeMap;

use levkit_generate::dcss::build::alternatives;
use levkit_generate::dcss::grid::option_bytes;
use levkit_generate::dcss::{Program, Resolver};
use levkit_model::dcss::spec;

use dcss_common::stats::{critical, normal_quantile};

const SEEDS: u64 = 2_000;
/// How many vaults the test samples (evenly over the corpus).
const VAULTS: usize = 60;
/// The chance of a false alarm over the whole test.
const ALPHA: f64 = 1e-4;

/// The declared weights of a statement's choice `part`, or `None` when the statement draws
/// nothing levkit checks here.
fn weights(program: &Program, by: u32, part: u16) -> Option<Vec<u32>> {
    let call = program.calls.iter().find(|c| c.site == by)?;
    let weights: Vec<u32> = match call.function {
        "subst" if part == 0 => option_bytes(&spec::subst(&call.arg).ok()?.options)
            .iter()
            .map(|o| o.1)
            .collect(),
        "nsubst" => option_bytes(
            &spec::nsubst(&call.arg)
                .ok()?
                .segments
                .get(part as usize)?
                .options,
        )
        .iter()
        .map(|o| o.1)
        .collect(),
        "shuffle" if part == 0 && !call.arg.contains(',') => {
            let shuffle = spec::shuffle(&call.arg).ok()?;
            let n = if shuffle.blocks.len() == 1 {
                shuffle.blocks[0].len()
            } else {
                shuffle.blocks.len()
            };
            vec![1; n]
        }
        "mons" if part == 0 => alternatives(&call.arg).iter().map(|a| a.weight).collect(),
        _ => return None,
    };
    (weights.len() >= 2 && weights.iter().any(|&w| w > 0)).then_some(weights)
}

/// Whether the vault draws something [`weights`] knows, with no Lua or subvault to blur it.
fn eligible(program: &Program) -> bool {
    !program.has_lua
        && !program.calls.iter().any(|c| c.function == "subvault")
        && program.calls.iter().any(|c| {
            ["subst", "nsubst", "shuffle", "mons"].contains(&c.function)
                && (0..4).any(|part| weights(program, c.site, part).is_some())
        })
}

#[test]
fn weighted_choices_follow_their_weights_over_2000_seeds() {
    let Some(corpus) = dcss_common::Corpus::load("DCSS draw statistics") else {
        return;
    };
    let candidates: Vec<_> = corpus
        .vaults
        .iter()
        .filter(|v| eligible(&v.program))
        .collect();
    let step = (candidates.len() / VAULTS).max(1);
    let chosen: Vec<_> = candidates.iter().step_by(step).take(VAULTS).collect();
    // (vault, statement, part) -> counts per option.
    let mut tables: Vec<(String, String, Vec<u32>, Vec<u64>)> = Vec::new();
    for vault in &chosen {
        let program = &vault.program;
        let mut counts: BTreeMap<(u32, u16), Vec<u64>> = BTreeMap::new();
        let mut resolver = Resolver::new(program.clone(), vault.file.clone(), corpus.library());
        let situation = vault.situation();
        for seed in 1..=SEEDS {
            let outcome = resolver.resolve(seed, &situation, true);
            for draw in &outcome.draws {
                let Some(w) = weights(program, draw.by, draw.part) else {
                    continue;
                };
                let slot = counts
                    .entry((draw.by, draw.part))
                    .or_insert_with(|| vec![0; w.len()]);
                if let Some(n) = slot.get_mut(draw.chosen as usize) {
                    *n += 1;
                }
            }
        }
        for ((by, part), observed) in counts {
            let w = weights(program, by, part).expect("counted above");
            let what = format!("{} part {part}", program.sites[by as usize].what);
            tables.push((program.name.clone(), what, w, observed));
        }
    }
    assert!(tables.len() >= 20, "only {} choices sampled", tables.len());
    let z = normal_quantile(ALPHA / tables.len() as f64);
    let mut failures = Vec::new();
    let mut tested = 0;
    for (vault, what, weights, observed) in &tables {
        let draws: u64 = observed.iter().sum();
        let total: f64 = weights.iter().map(|&w| f64::from(w)).sum();
        // Options of weight 0 are never drawn; pool the rest so that each expects 5 or more.
        let mut cells: Vec<(f64, f64)> = Vec::new();
        let (mut pooled_e, mut pooled_o) = (0.0, 0.0);
        for (&w, &o) in weights.iter().zip(observed) {
            let e = draws as f64 * f64::from(w) / total;
            if w == 0 {
                if o > 0 {
                    failures.push(format!("{vault}: {what}: an option of weight 0 was drawn"));
                }
                continue;
            }
            if e < 5.0 {
                pooled_e += e;
                pooled_o += o as f64;
            } else {
                cells.push((e, o as f64));
            }
        }
        if pooled_e > 0.0 {
            cells.push((pooled_e, pooled_o));
        }
        if cells.len() < 2 {
            continue;
        }
        tested += 1;
        let chi2: f64 = cells.iter().map(|(e, o)| (o - e) * (o - e) / e).sum();
        let limit = critical((cells.len() - 1) as f64, z);
        if chi2 > limit {
            failures.push(format!(
                "{vault}: {what}: chi-square {chi2:.1} > {limit:.1} (weights {weights:?}, drawn {observed:?})"
            ));
        }
    }
    eprintln!(
        "{} vaults, {tested} choices tested over {SEEDS} seeds each",
        chosen.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
