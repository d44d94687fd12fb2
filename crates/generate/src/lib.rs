//! Levels as the game builds them: NetHack 3.4.3's random level generator (`mklev`) and its
//! special-level loader (`sp_lev`), ported so that the same seed draws the same numbers in the
//! same order and builds the same level; and the renderings of the result.
//!
//! `level::Level` is the one model every stage writes and every rendering reads.
//!
//! [`dcss`]: DCSS vaults as crawl resolves them when it places one (transforms, sandboxed Lua,
//! orientation, glyph meanings), for previews, statistics and reachability.

pub mod dcss;
pub mod dump;
pub mod engrave;
pub mod level;
pub mod mklev;
pub mod mkmap;
pub mod place;
pub mod rect;
pub mod rng;
pub mod special;

pub use level::Level;
pub use rng::Rng;
