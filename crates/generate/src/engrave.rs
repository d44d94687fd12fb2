//! Engraving text that wears off (`engrave.c` wipeout_text), which draws random numbers.

use crate::rng::Rng;

/// Characters that wear down to something that still looks like writing, and what they may
/// become (the game's partial rub-outs).
const RUBOUTS: &[(u8, &[u8])] = &[
    (b'A', b"^"),
    (b'B', b"Pb["),
    (b'C', b"("),
    (b'D', b"|)["),
    (b'E', b"|FL[_"),
    (b'F', b"|-"),
    (b'G', b"C("),
    (b'H', b"|-"),
    (b'I', b"|"),
    (b'K', b"|<"),
    (b'L', b"|_"),
    (b'M', b"|"),
    (b'N', b"|\\"),
    (b'O', b"C("),
    (b'P', b"F"),
    (b'Q', b"C("),
    (b'R', b"PF"),
    (b'T', b"|"),
    (b'U', b"J"),
    (b'V', b"/\\"),
    (b'W', b"V/\\"),
    (b'Z', b"/"),
    (b'b', b"|"),
    (b'd', b"c|"),
    (b'e', b"c"),
    (b'g', b"c"),
    (b'h', b"n"),
    (b'j', b"i"),
    (b'k', b"|"),
    (b'l', b"|"),
    (b'm', b"nr"),
    (b'n', b"r"),
    (b'o', b"c"),
    (b'q', b"c"),
    (b'w', b"v"),
    (b'y', b"v"),
    (b':', b"."),
    (b';', b","),
    (b'0', b"C("),
    (b'1', b"|"),
    (b'6', b"o"),
    (b'7', b"/"),
    (b'8', b"3o"),
];

/// `wipeout_text` with random choices: `count` times, pick a character; small punctuation
/// vanishes, others wear to a look-alike (3 in 4) or become `?`. Trailing spaces go.
pub fn wipe_out(rng: &mut Rng, text: &mut Vec<u8>, count: i32) {
    let len = text.len() as i32;
    if len == 0 {
        return;
    }
    for _ in 0..count.max(0) {
        let at = rng.rn2(len) as usize;
        let use_rubout = rng.rn2(4) != 0;
        let c = text[at];
        if c == b' ' {
            continue;
        }
        if b"?.,'`-|_".contains(&c) {
            text[at] = b' ';
            continue;
        }
        let worn = if use_rubout {
            RUBOUTS.iter().find(|(from, _)| *from == c).map(|(_, to)| {
                let j = rng.rn2(to.len() as i32) as usize;
                to[j]
            })
        } else {
            None
        };
        text[at] = worn.unwrap_or(b'?');
    }
    while text.last() == Some(&b' ') {
        text.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wearing_spends_two_draws_per_pick_and_one_more_per_look_alike() {
        let mut rng = Rng::new(7);
        let mut text = b"ad aerarium".to_vec();
        wipe_out(&mut rng, &mut text, 5);
        let draws = rng.draws;
        assert!((10..=15).contains(&draws), "{draws} draws");
        assert_eq!(text.len(), 11.min(text.len()));
        assert_ne!(text, b"ad aerarium", "five picks change something");
    }
}
