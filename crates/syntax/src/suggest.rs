//! "Did you mean" suggestions: the closest candidate by edit distance, ignoring case first.

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    let length = lower.chars().count();
    let lower_ascii = lower.is_ascii();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let candidate_ascii = candidate.is_ascii();
        // The distance is at least the difference in length (lowercase keeps an ASCII
        // word's length): a candidate that cannot beat the best so far, or be close enough,
        // is not measured.
        if candidate_ascii {
            let gap = candidate.len().abs_diff(length);
            if gap > limit || best.is_some_and(|(d, _)| gap >= d) {
                continue;
            }
        }
        let distance = if candidate_ascii && lower_ascii {
            distance_by(lower.as_bytes(), candidate.as_bytes(), |a, b| {
                a.eq_ignore_ascii_case(b)
            })
        } else {
            edit_distance(&lower, &candidate.to_lowercase())
        };
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.filter(|&(d, _)| d <= limit).map(|(_, c)| c)
}

/// Levenshtein distance counted in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    if a.is_ascii() && b.is_ascii() {
        return distance_by(a.as_bytes(), b.as_bytes(), |x, y| x == y);
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    distance_by(&a, &b, |x, y| x == y)
}

/// Levenshtein distance between two sequences, `same` telling equal items apart; a short
/// `b` (names usually are) needs no allocation.
fn distance_by<T>(a: &[T], b: &[T], same: impl Fn(&T, &T) -> bool) -> usize {
    const SHORT: usize = 64;
    let mut short = [0usize; SHORT + 1];
    let mut long = Vec::new();
    let row: &mut [usize] = if b.len() <= SHORT {
        &mut short[..=b.len()]
    } else {
        long.resize(b.len() + 1, 0);
        &mut long
    };
    for (j, cell) in row.iter_mut().enumerate() {
        *cell = j;
    }
    for (i, x) in a.iter().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let substitution = previous + usize::from(!same(x, y));
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let words = ["MONSTER", "MAZE", "MAZEWALK", "jackal"];
        assert_eq!(closest("monster", words), Some("MONSTER"));
        assert_eq!(closest("MONSTR", words), Some("MONSTER"));
        assert_eq!(closest("jakal", words), Some("jackal"));
        assert_eq!(closest("xyzzy", words), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        // Characters, not bytes; and names longer than the row kept on the stack.
        assert_eq!(edit_distance("café", "cafe"), 1);
        let long = "a".repeat(70);
        assert_eq!(edit_distance(&long, &format!("{long}bc")), 2);
        assert_eq!(closest("CAFÉ", ["cafe", "café"]), Some("café"));
        assert_eq!(closest("Jackal", ["jackals", "JACKAL"]), Some("JACKAL"));
    }
}
