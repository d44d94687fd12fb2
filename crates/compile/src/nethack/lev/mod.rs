//! The `.lev` layout, in one place: lev_comp's records as typed data ([`records`]) and the
//! one walk over their fields that both decodes and encodes them ([`layout`]).
//!
//! The writer builds records from a model and encodes them; `levkit inspect` prints decoded
//! records; the generator loads them.

mod layout;
mod records;

pub use layout::{DecodeError, decode, encode, map_is_stored};
pub use records::*;
