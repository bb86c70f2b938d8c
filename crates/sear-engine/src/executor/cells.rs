//! Accesses of objects with a symbolic size (seed 003 Ch. 5): the bounds check of a
//! constant-offset access against σ, and reads and writes of cells below the capacity
//! without a bounds check (for operations that checked their whole range against σ
//! already: `realloc`'s copy, symbolic-length `memcpy`/`memset`).

use sear_expr::Expr;

use super::{Exec, Executor};
use crate::executor::Cx;
use crate::memory::{ptr_error, Offset, Target};
use crate::state::State;

impl Executor<'_> {
    /// For an access of `len` bytes at a constant offset into an object of symbolic size σ
    /// (whose interval is its capacity): the access must stay below σ, or an error path
    /// forks (spec 003 §4.2: bounds checks against σ).
    pub(super) fn check_symbolic_size(
        &mut self,
        state: &mut State,
        target: &Target,
        len: u64,
    ) -> Exec<()> {
        let Offset::Concrete(offset) = target.offset else {
            return Ok(());
        };
        let sigma = match state.memory.get_by_base(target.address) {
            Some(entry) => match &entry.object.symbolic_size {
                Some(sigma) => sigma.clone(),
                None => return Ok(()),
            },
            None => return Ok(()),
        };
        let end = Expr::constant(offset as u128 + len as u128, 64);
        let ok = Expr::ule(end, sigma);
        self.require(state, ok, || ptr_error("out of bound pointer"))
    }
}

impl Cx<'_, '_> {
    /// The first `n` bytes of the object at `address`, read from its cells without a bounds
    /// check (`realloc` of a symbolic-size object copies its capacity's cells: those beyond
    /// σ are the new object's uninitialised bytes).
    pub(crate) fn read_cells(&mut self, state: &mut State, address: u64, n: u64) -> Vec<Expr> {
        (0..n).map(|i| self.read_cell(state, address, i)).collect()
    }

    /// The byte at `offset` (below its capacity) of the object at `address`, without a
    /// bounds check.
    pub(crate) fn read_cell(&mut self, state: &mut State, address: u64, offset: u64) -> Expr {
        let target = Target {
            address,
            offset: Offset::Concrete(offset),
            chunk: None,
        };
        self.read_byte_at(state, &target)
    }

    /// Writes the byte at `offset` (below its capacity) of the object at `address`, without
    /// a bounds check.
    pub(crate) fn write_cell(&mut self, state: &mut State, address: u64, offset: u64, byte: Expr) {
        let target = Target {
            address,
            offset: Offset::Concrete(offset),
            chunk: None,
        };
        self.write_byte_at(state, &target, byte)
    }
}
