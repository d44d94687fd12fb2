//! Models to the binary files the games load, and those files back to readable text.
//!
//! Invariant: compiling is a pure function of the model; writing files is the caller's job.

pub mod dcss;
pub mod dungeon;
pub mod nethack;
pub mod rlg327;
