//! Semantic checks on the models of each dialect. Checks read plain data and return
//! diagnostics; they never see the syntax tree's tokens or do I/O.

pub mod dcss;
pub mod dungeon;
pub mod nethack;
pub mod rlg327;
