//! Values hashed once, for salsa's interned tables.

use std::hash::{BuildHasher, Hash, Hasher};
use std::ops::Deref;

/// A value with its hash, computed when it is made. salsa hashes every value of an interned
/// table again each time the table grows, and a vault's text or tag facts are long: with the
/// DCSS corpus's 5,283 vaults that re-hashing cost more than the hashing itself.
#[derive(Debug, Clone)]
pub(crate) struct Prehashed<T> {
    hash: u64,
    value: T,
}

impl<T: Hash> Prehashed<T> {
    pub(crate) fn new(value: T) -> Prehashed<T> {
        Prehashed {
            hash: rustc_hash::FxBuildHasher.hash_one(&value),
            value,
        }
    }
}

impl<T> Deref for Prehashed<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T: PartialEq> PartialEq for Prehashed<T> {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.value == other.value
    }
}

impl<T: Eq> Eq for Prehashed<T> {}

impl<T> Hash for Prehashed<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

#[cfg(test)]
mod tests {
    use super::Prehashed;
    use std::hash::BuildHasher;

    #[test]
    fn equal_values_are_equal_and_hash_alike() {
        let hash = |p: &Prehashed<String>| rustc_hash::FxBuildHasher.hash_one(p);
        let (a, b) = (
            Prehashed::new("vault".to_string()),
            Prehashed::new("vault".to_string()),
        );
        assert!(a == b && hash(&a) == hash(&b));
        assert!(a != Prehashed::new("vaults".to_string()));
        assert_eq!(*a, "vault");
    }
}
