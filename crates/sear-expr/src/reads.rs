//! How reads are built: dynamic constant folding as an explicit policy, and its counter.
//!
//! [`Expr::read`] is the canonical read constructor and always folds through update lists
//! (the dynamic constant folding of KLEE-Array, spec `000-klee-array.md` §3.1): a write at a
//! provably equal index yields its value, writes at provably different indices are trimmed
//! from the read's list, and a constant-index read of a constant root folds to the byte.
//! Its result is a function of its arguments alone.
//!
//! [`Expr::read_unfolded`] builds a read as stock KLEE's constructor did before that work,
//! for the "Baseline vs Constant" ablation (`--no-array-folding`):
//!
//! * a write at a provably equal index still yields its value (read-over-write hit);
//! * a write at a provably different index is still skipped while looking for a hit;
//! * but the read keeps the **whole** update list (no trimming of skipped writes), and
//! * a constant root is **never** folded: a constant-index read of a constant array stays a
//!   `Read` node that the solver has to encode with the array's contents.
//!
//! A component that builds reads on behalf of a run (the engine's memory, the array
//! optimiser) holds a [`ReadPolicy`] and builds them with [`ReadPolicy::read`]; everything
//! else uses [`Expr::read`]. [`folds`] counts constant-root folds process-wide (the "Inv"
//! of the paper's Constant column); it is statistics only and never changes a result.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::array::UpdateList;
use crate::expr::Expr;

/// Which read constructor a component uses for the reads it builds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadPolicy {
    /// Dynamic constant folding: [`Expr::read`] (the default).
    #[default]
    Fold,
    /// Stock reads without trimming or constant-root folding: [`Expr::read_unfolded`].
    Unfolded,
}

impl ReadPolicy {
    /// `Fold` if `folding`, else `Unfolded`.
    pub fn from_folding(folding: bool) -> Self {
        if folding {
            ReadPolicy::Fold
        } else {
            ReadPolicy::Unfolded
        }
    }

    /// True for [`ReadPolicy::Fold`].
    pub fn folds(self) -> bool {
        self == ReadPolicy::Fold
    }

    /// A byte read of `updates` at `index` built under this policy.
    #[inline]
    pub fn read(self, updates: &UpdateList, index: Expr) -> Expr {
        match self {
            ReadPolicy::Fold => Expr::read(updates, index),
            ReadPolicy::Unfolded => Expr::read_unfolded(updates, index),
        }
    }

    /// `bytes` consecutive bytes at `index` as one little-endian value, each byte read
    /// built under this policy (see [`Expr::read_lsb`]).
    pub fn read_lsb(self, updates: &UpdateList, index: Expr, bytes: u32) -> Expr {
        let iw = index.width();
        let parts: Vec<Expr> = (0..bytes)
            .rev()
            .map(|i| {
                self.read(
                    updates,
                    Expr::add(Expr::constant(i as u128, iw), index.clone()),
                )
            })
            .collect();
        Expr::concat_all(&parts)
    }
}

static FOLDS: AtomicU64 = AtomicU64::new(0);

/// Reads folded to a constant by the constant-root fold of [`Expr::read`] in this process
/// so far (all threads). A run's count is the difference between its end and its start.
pub fn folds() -> u64 {
    FOLDS.load(Ordering::Relaxed)
}

/// Counts one constant-root fold.
#[inline]
pub(crate) fn count_fold() {
    FOLDS.fetch_add(1, Ordering::Relaxed);
}
