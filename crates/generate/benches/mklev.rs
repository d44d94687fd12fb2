//! Random levels per second: one `makelevel` per iteration, cycling through seeds and the
//! reference maps' depths. Goal: at least 20,000 levels a second.
//!
//! `LEVKIT_BENCH=summary` prints how many levels one thread builds in a second as a `BENCH`
//! line (read by `cargo xtask bench`) instead of running divan.

use levkit_generate::level::Place;
use levkit_generate::mklev::makelevel;
use levkit_generate::rng::Rng;

fn main() {
    if std::env::var("LEVKIT_BENCH").is_ok_and(|b| b == "summary") {
        let started = std::time::Instant::now();
        let mut levels = 0u32;
        while started.elapsed().as_secs_f64() < 1.0 {
            levels += 1;
            let place = Place::doom(DEPTHS[levels as usize % DEPTHS.len()]);
            std::hint::black_box(makelevel(&mut Rng::new(levels), &place));
        }
        let per_second = f64::from(levels) / started.elapsed().as_secs_f64();
        println!("BENCH mklev levels_per_second={per_second:.0}");
        return;
    }
    divan::main();
}

const DEPTHS: [i32; 6] = [1, 2, 4, 8, 12, 20];

#[divan::bench]
fn one_level(bencher: divan::Bencher) {
    let mut n = 0u32;
    bencher.bench_local(|| {
        n = n.wrapping_add(1);
        let place = Place::doom(DEPTHS[n as usize % DEPTHS.len()]);
        divan::black_box(makelevel(&mut Rng::new(n), &place))
    });
}
