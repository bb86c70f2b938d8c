//! Test and benchmark helpers: a recording solver and a generator of path-condition-like
//! query sequences (seeded, deterministic, no dependencies).

pub mod gen;
pub mod recorder;

pub use gen::{PathGen, Rng};
pub use recorder::{Recorder, Seen};
