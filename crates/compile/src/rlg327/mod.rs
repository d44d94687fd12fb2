//! COM S 327 monster and object descriptions: the course reference parser's print-out
//! (`--compat`), reproduced byte for byte.

mod reference;

pub use reference::{Kind, print_compat};
