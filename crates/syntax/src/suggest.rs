//! "Did you mean" suggestions: the closest candidate by edit distance, ignoring case first.

/// The candidate closest to `word`, if it is close enough to be a plausible typo.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let distance = if candidate.to_lowercase() == lower {
            0
        } else {
            edit_distance(&lower, &candidate.to_lowercase())
        };
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    let limit = (word.chars().count() / 3).max(1);
    best.filter(|&(d, _)| d <= limit).map(|(_, c)| c)
}

/// Levenshtein distance counted in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
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
    }
}
