//! [`Piece`]: a piece of a segment's text as the model keeps it (a header's argument, a map
//! row, a line of Lua) without a buffer of its own.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, Range};
use std::sync::{Arc, LazyLock};

/// A range of one shared copy of a segment's text, read as a `str`. Lowering a segment
/// made a `String` for every row, line and argument, which was a fifth of a corpus check's
/// allocations; pieces share the segment's text instead. A piece that is no range of the
/// text (an argument joined from continuation lines) has a buffer of its own.
#[derive(Clone)]
pub struct Piece {
    source: Arc<str>,
    start: u32,
    end: u32,
}

impl Piece {
    /// The piece `range` of `source`; an empty piece if `range` is not one of its ranges.
    pub fn of(source: &Arc<str>, range: Range<usize>) -> Piece {
        let Some(text) = source.get(range.clone()) else {
            return Piece::default();
        };
        match (u32::try_from(range.start), u32::try_from(range.end)) {
            (Ok(start), Ok(end)) => Piece {
                source: source.clone(),
                start,
                end,
            },
            // Past 4 GiB a position does not fit: the piece keeps a copy of its own.
            _ => Piece::from(text),
        }
    }

    /// The piece `range` of this piece (an empty piece if `range` is not one of its ranges):
    /// a range of the same shared text, not a copy.
    pub fn piece(&self, range: Range<usize>) -> Piece {
        if self.as_str().get(range.clone()).is_none() {
            return Piece::default();
        }
        // In bounds of a piece whose ends fit a `u32`, so these fit too.
        Piece {
            source: self.source.clone(),
            start: self.start + range.start as u32,
            end: self.start + range.end as u32,
        }
    }

    pub fn as_str(&self) -> &str {
        // SAFETY: `start..end` is a range of `source` on character boundaries: `of` checks
        // it, `from` keeps a text whose length fits, and `source` never changes. Checked
        // slicing cost more than the allocations pieces save, since checks read rows and
        // lines many times.
        unsafe {
            self.source
                .get_unchecked(self.start as usize..self.end as usize)
        }
    }
}

impl Default for Piece {
    /// The empty piece, which allocates nothing.
    fn default() -> Piece {
        static EMPTY: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from(""));
        Piece {
            source: EMPTY.clone(),
            start: 0,
            end: 0,
        }
    }
}

impl From<&str> for Piece {
    fn from(text: &str) -> Piece {
        // A text longer than a `u32` can measure (never a real level file) keeps the longest
        // prefix that ends on a character boundary, so that `as_str` stays in bounds.
        let mut end = text.len().min(u32::MAX as usize);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        Piece {
            source: Arc::from(&text[..end]),
            start: 0,
            end: end as u32,
        }
    }
}

impl From<String> for Piece {
    fn from(text: String) -> Piece {
        Piece::from(text.as_str())
    }
}

impl Deref for Piece {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Piece {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Piece {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Piece {
    fn eq(&self, other: &Piece) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Piece {}

impl PartialEq<str> for Piece {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Piece {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Piece {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Piece> for str {
    fn eq(&self, other: &Piece) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Piece> for &str {
    fn eq(&self, other: &Piece) -> bool {
        *self == other.as_str()
    }
}

impl Hash for Piece {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialOrd for Piece {
    fn partial_cmp(&self, other: &Piece) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Piece {
    fn cmp(&self, other: &Piece) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

/// As a `String` shows: the model's debug dumps do not change.
impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_reads_as_its_range_of_the_text() {
        let source: Arc<str> = Arc::from("MONS: orc, goblin");
        let piece = Piece::of(&source, 6..9);
        assert_eq!(piece, "orc");
        assert_eq!(format!("{piece:?} {piece}"), "\"orc\" orc");
        assert_eq!(Piece::of(&source, 6..99), "");
        assert_eq!(Piece::from("orc".to_string()), piece);
        let goblin = Piece::of(&source, 0..source.len()).piece(11..17);
        assert_eq!(goblin, "goblin");
        assert_eq!(goblin.piece(1..4), "obl");
        assert_eq!(goblin.piece(4..9), "");
    }
}
