//! Test and benchmark helpers: a recording solver and a generator of path-condition-like
//! query sequences (seeded, deterministic, no dependencies).

pub mod gen;
pub mod recorder;
pub mod table_gen;

pub use gen::{PathGen, Rng};
pub use recorder::{Recorder, Seen};
pub use table_gen::TableGen;

use std::time::Duration;

/// Computes for `cpu` of the calling thread's CPU time (a slow core for the layers' gates,
/// which count CPU time, not waiting).
pub fn spin(cpu: Duration) {
    let start = crate::layers::slow_below::thread_cpu_time();
    let mut x = 0u64;
    while crate::layers::slow_below::thread_cpu_time().saturating_sub(start) < cpu {
        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
    }
}
