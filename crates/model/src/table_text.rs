//! The strings of the generated tables, kept as ranges of one text per table file.
//!
//! A table of `&'static str` is a table of pointers: in a position-independent binary the
//! loader patches every one of them at each start, which copies every page they sit on (some
//! 80 pages for the tables, a quarter of what a short `levkit` run faults in). Ranges hold no
//! pointers, so the tables stay in read-only pages that are only read when used.

use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::ops::Deref;

/// The one text that a generated file's strings are ranges of.
pub trait Text: 'static {
    const TEXT: &'static str;
}

/// A string of a generated table: `start..end` of `T::TEXT`. It reads, compares and prints as
/// the string it stands for.
pub struct Str<T> {
    start: u32,
    end: u32,
    text: PhantomData<fn() -> T>,
}

impl<T: Text> Str<T> {
    /// The range `start..end` of `T::TEXT`, which must be in bounds and on character
    /// boundaries. Generated tables build every `Str` in a `static`, so a wrong range there
    /// fails the build rather than a run.
    pub const fn new(start: u32, end: u32) -> Str<T> {
        let (from, to) = (start as usize, end as usize);
        assert!(from <= to && to <= T::TEXT.len());
        assert!(T::TEXT.is_char_boundary(from) && T::TEXT.is_char_boundary(to));
        Str {
            start,
            end,
            text: PhantomData,
        }
    }

    pub fn as_str(self) -> &'static str {
        // SAFETY: `new`, the only way to make a `Str`, checked that the range is in bounds
        // and on character boundaries of `T::TEXT`, which never changes.
        unsafe { T::TEXT.get_unchecked(self.start as usize..self.end as usize) }
    }
}

impl<T> Clone for Str<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Str<T> {}

impl<T: Text> Deref for Str<T> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<T: Text> AsRef<str> for Str<T> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<T: Text> Borrow<str> for Str<T> {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl<T: Text> PartialEq for Str<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<T: Text> Eq for Str<T> {}

impl<T: Text> PartialEq<str> for Str<T> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<T: Text> PartialEq<&str> for Str<T> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<T: Text> PartialEq<String> for Str<T> {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl<T: Text> PartialEq<Str<T>> for str {
    fn eq(&self, other: &Str<T>) -> bool {
        self == other.as_str()
    }
}

impl<T: Text> PartialEq<Str<T>> for &str {
    fn eq(&self, other: &Str<T>) -> bool {
        *self == other.as_str()
    }
}

impl<T: Text> PartialOrd for Str<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Text> Ord for Str<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl<T: Text> Hash for Str<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl<T: Text> fmt::Debug for Str<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<T: Text> fmt::Display for Str<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    enum Sample {}

    impl Text for Sample {
        const TEXT: &'static str = "kobolddémon";
    }

    const KOBOLD: Str<Sample> = Str::new(0, 6);
    const DEMON: Str<Sample> = Str::new(6, 12);

    #[test]
    fn a_range_reads_compares_and_prints_as_its_string() {
        assert_eq!(KOBOLD.as_str(), "kobold");
        assert_eq!(&*DEMON, "démon");
        assert!(KOBOLD == "kobold" && "démon" == DEMON);
        // By the strings, not by where they sit in the text.
        assert!(DEMON < KOBOLD);
        assert_eq!(format!("{KOBOLD} {DEMON:?}"), "kobold \"démon\"");
        assert!(DEMON.starts_with("dé"));
    }

    #[test]
    #[should_panic]
    fn a_range_inside_a_character_is_refused() {
        let _ = Str::<Sample>::new(6, 8);
    }
}
