//! NetHack 3.4.3's special-level loader (`sp_lev.c`, `mkmaze.c`): a compiled level, its
//! place in the dungeon and a seed give the level the game would build.

mod branch;
mod fill;
mod load;
mod things;

pub use levkit_compile::nethack::lev::{DecodeError, SpecialLevel, decode};
pub use load::{Loaded, load_special};
pub(crate) use load::{object_index, wallification};
