//! "Did you mean" suggestions: the closest candidate by edit distance, ignoring case first.

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    let length = lower.chars().count();
    let lower_ascii = lower.is_ascii();
    let letters = lower_ascii.then(|| Letters::of(lower.as_bytes()));
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
        // Only a candidate within the limit and closer than the best so far counts.
        let bound = best.map_or(limit, |(d, _)| d.saturating_sub(1).min(limit));
        if let Some(letters) = &letters
            && candidate_ascii
            && letters.fewest_edits_to(candidate.as_bytes()) > bound
        {
            continue;
        }
        let distance = if candidate_ascii && lower_ascii {
            distance_within(
                lower.as_bytes(),
                candidate.as_bytes(),
                |a, b| a.eq_ignore_ascii_case(b),
                bound,
            )
        } else {
            edit_distance(&lower, &candidate.to_lowercase())
        };
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.filter(|&(d, _)| d <= limit).map(|(_, c)| c)
}

/// How many of each letter an ASCII word has (case folded; a few bytes share a count, which
/// only lowers the bound below).
#[derive(Clone)]
struct Letters([i16; 32]);

impl Letters {
    fn of(word: &[u8]) -> Letters {
        let mut counts = [0i16; 32];
        for &byte in word {
            counts[usize::from(byte.to_ascii_lowercase() & 31)] += 1;
        }
        Letters(counts)
    }

    /// A lower bound of the edit distance from the word to `other` (ASCII, case folded): the
    /// letters one has and the other lacks, on the side that has more (each insertion,
    /// deletion or substitution changes either side by at most one; a swap changes neither).
    /// Cheaper than the distance, it spares measuring most words of a long list.
    fn fewest_edits_to(&self, other: &[u8]) -> usize {
        let mut counts = self.0;
        for &byte in other {
            counts[usize::from(byte.to_ascii_lowercase() & 31)] -= 1;
        }
        let (mut missing, mut extra) = (0usize, 0usize);
        for count in counts {
            if count > 0 {
                missing += count as usize;
            } else {
                extra += count.unsigned_abs() as usize;
            }
        }
        missing.max(extra)
    }
}

/// Edit distance counted in characters: insertions, deletions, substitutions and swaps of two
/// neighbours (`sbust` is one step from `subst`, the commonest slip of fast typing), each one
/// step ("optimal string alignment": a swapped pair is not edited again).
pub fn edit_distance(a: &str, b: &str) -> usize {
    if a.is_ascii() && b.is_ascii() {
        return distance_by(a.as_bytes(), b.as_bytes(), |x, y| x == y);
    }
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    distance_by(&a, &b, |x, y| x == y)
}

/// The edit distance between two sequences (see [`edit_distance`]), `same` telling equal
/// items apart; a short `b` (names usually are) needs no allocation.
fn distance_by<T>(a: &[T], b: &[T], same: impl Fn(&T, &T) -> bool) -> usize {
    distance_within(a, b, same, usize::MAX)
}

/// The edit distance as [`distance_by`] measures it when it is at most `bound`, else some
/// distance above `bound`: the measure stops once two rows in a row exceed the bound, since
/// every alignment crosses one of any two neighbouring rows (a swap skips one row, never two).
fn distance_within<T>(a: &[T], b: &[T], same: impl Fn(&T, &T) -> bool, bound: usize) -> usize {
    const SHORT: usize = 64;
    let columns = b.len() + 1;
    let mut short = [0usize; 3 * (SHORT + 1)];
    let mut long = Vec::new();
    let rows: &mut [usize] = if b.len() <= SHORT {
        &mut short[..3 * columns]
    } else {
        long.resize(3 * columns, 0);
        &mut long
    };
    // Three rows: the one before the last (for swaps), the last, and the one being filled.
    let (mut before, rest) = rows.split_at_mut(columns);
    let (mut last, mut row) = rest.split_at_mut(columns);
    for (j, cell) in last.iter_mut().enumerate() {
        *cell = j;
    }
    let mut last_least = 0;
    for (i, x) in a.iter().enumerate() {
        row[0] = i + 1;
        let mut least = row[0];
        for (j, y) in b.iter().enumerate() {
            let mut best = (last[j] + usize::from(!same(x, y)))
                .min(last[j + 1] + 1)
                .min(row[j] + 1);
            if i > 0 && j > 0 && same(x, &b[j - 1]) && same(&a[i - 1], y) {
                best = best.min(before[j - 1] + 1);
            }
            row[j + 1] = best;
            least = least.min(best);
        }
        if least > bound && last_least > bound {
            return least;
        }
        last_least = least;
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
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
        // Two neighbours swapped are one slip, not two.
        assert_eq!(edit_distance("sbust", "subst"), 1);
        assert_eq!(
            closest("sbust", ["subst", "nsubst", "shuffle"]),
            Some("subst")
        );
        assert_eq!(edit_distance("ab", "ba"), 1);
        assert_eq!(edit_distance("abc", "ca"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    proptest::proptest! {
        /// The letter count bound never exceeds the distance, and `closest` finds what
        /// measuring every candidate finds: the first of the nearest within the limit.
        #[test]
        fn pruning_keeps_the_closest(
            word in "[a-eA-E_ 0-9]{0,9}",
            candidates in proptest::collection::vec("[a-eA-E_ 0-9]{0,11}", 0..12),
        ) {
            for candidate in &candidates {
                let bound = Letters::of(word.as_bytes()).fewest_edits_to(candidate.as_bytes());
                proptest::prop_assert!(
                    bound <= edit_distance(&word.to_lowercase(), &candidate.to_lowercase())
                );
            }
            let limit = (word.chars().count() / 3).max(1);
            let mut expected: Option<(usize, &str)> = None;
            for candidate in &candidates {
                let distance = edit_distance(&word.to_lowercase(), &candidate.to_lowercase());
                if expected.is_none_or(|(d, _)| distance < d) {
                    expected = Some((distance, candidate));
                }
            }
            let expected = expected.filter(|&(d, _)| d <= limit).map(|(_, c)| c);
            proptest::prop_assert_eq!(closest(&word, candidates.iter().map(String::as_str)), expected);
        }
    }
}
