//! Random levels per second: one `makelevel` per iteration, cycling through seeds and the
//! reference maps' depths. Goal: at least 20,000 levels a second.

use levkit_generate::level::Place;
use levkit_generate::mklev::makelevel;
use levkit_generate::rng::Rng;

fn main() {
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
