//! The switch and the counter of dynamic constant folding in the read constructor.
//!
//! [`Expr::read`](crate::Expr::read) folds reads over update lists (the paper's dynamic
//! constant folding, spec §3.1). For the "Baseline vs Constant" ablation it can be turned
//! off, per thread (the engine runs a whole exploration on one thread, so the switch is set
//! once at the start of a run; per-thread keeps parallel unit tests independent).
//!
//! What "off" means precisely — the behaviour of stock KLEE's read constructor before the
//! KLEE-Array work:
//!
//! * a write at a provably equal index still yields its value (read-over-write hit);
//! * a write at a provably different index is still skipped while looking for a hit;
//! * but the read keeps the **whole** update list (no trimming of skipped writes), and
//! * a constant root is **never** folded: a constant-index read of a constant array stays a
//!   `Read` node that the solver has to encode with the array's contents.
//!
//! "On" (the default) adds trimming and the constant-root fold; [`folds`] counts the reads
//! turned into a constant by the constant-root fold (the "Inv" of the Constant column).

use std::cell::Cell;

thread_local! {
    static ENABLED: Cell<bool> = const { Cell::new(true) };
    static FOLDS: Cell<u64> = const { Cell::new(0) };
}

/// Turns dynamic constant folding of reads on or off for the current thread.
pub fn set_read_folding(enabled: bool) {
    ENABLED.with(|c| c.set(enabled));
}

/// True if reads built on this thread fold through update lists and constant roots.
#[inline]
pub fn read_folding() -> bool {
    ENABLED.with(|c| c.get())
}

/// Reads folded to a constant by the constant-root fold on this thread so far.
pub fn folds() -> u64 {
    FOLDS.with(|c| c.get())
}

/// Counts one constant-root fold.
#[inline]
pub(crate) fn count_fold() {
    FOLDS.with(|c| c.set(c.get() + 1));
}
