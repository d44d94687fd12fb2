//! Chi-square tests shared by the statistics tests: critical values at small significances,
//! and the two-sample (homogeneity) statistic with small categories pooled.

use std::collections::BTreeMap;

/// The chi-square value exceeded with probability `p` for `k` degrees of freedom
/// (Wilson-Hilferty; `z` is the normal quantile of `1 - p`).
pub fn critical(k: f64, z: f64) -> f64 {
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + z * a.sqrt()).powi(3)
}

/// The normal deviate of a chi-square value `x` with `k` degrees of freedom
/// (Wilson-Hilferty): the inverse of [`critical`].
pub fn deviate(x: f64, k: f64) -> f64 {
    let a = 2.0 / (9.0 * k);
    ((x / k).cbrt() - (1.0 - a)) / a.sqrt()
}

/// The chance that a standard normal exceeds `z` (Abramowitz and Stegun 7.1.26 for erfc,
/// good to about 1e-7, which is all a report needs).
pub fn upper_tail(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erfc = poly * (-x * x).exp();
    if z >= 0.0 {
        erfc / 2.0
    } else {
        1.0 - erfc / 2.0
    }
}

/// The normal quantile of `1 - p` for small `p` (Acklam's tail approximation).
pub fn normal_quantile(p: f64) -> f64 {
    let q = (-2.0 * p.ln()).sqrt();
    let c = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    let d = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
        / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0)
}

/// Pearson's chi-square for two samples of the same size counted over the same categories:
/// the statistic and its degrees of freedom, or `None` when fewer than two categories are
/// left. Categories expecting fewer than 5 on each side are pooled into one.
pub fn homogeneity<K: Ord + Clone>(
    a: &BTreeMap<K, u64>,
    b: &BTreeMap<K, u64>,
) -> Option<(f64, usize)> {
    let mut keys: Vec<&K> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut cells: Vec<(f64, f64)> = Vec::new();
    let mut pooled = (0.0, 0.0);
    for key in keys {
        let x = a.get(key).copied().unwrap_or(0) as f64;
        let y = b.get(key).copied().unwrap_or(0) as f64;
        // With equal sample sizes each side expects half of the category's total.
        if x + y < 10.0 {
            pooled.0 += x;
            pooled.1 += y;
        } else {
            cells.push((x, y));
        }
    }
    if pooled.0 + pooled.1 > 0.0 {
        cells.push(pooled);
    }
    if cells.len() < 2 {
        return None;
    }
    let chi2 = cells.iter().map(|(x, y)| (x - y) * (x - y) / (x + y)).sum();
    Some((chi2, cells.len() - 1))
}
