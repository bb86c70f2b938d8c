//! Allocations with a symbolic size under `--sym-size-mode` (seed 003 Ch. 5, spec §4.2):
//! concretise as KLEE does, fix the largest feasible size (`max`), fork one path per
//! feasible size (`fork-eager`), or make an object of symbolic size σ bounded by a capacity
//! (`fork-lazy`, `sm`, `smopt`).

use sear_expr::Expr;
use sear_ir::Slot;
use sear_solver::Validity;

use super::{Exec, Executor};
use crate::executor::Cx;
use crate::path::ForkKind;
use crate::state::State;
use crate::sym_size::{defaults, SymSizeMode};
use crate::value::Value;

/// The size an allocation gets on the current path.
pub(crate) enum SizeDecision {
    /// A concrete size.
    Concrete(u64),
    /// No object: the allocation yields NULL (a huge size, on a path a fork policy had
    /// follow the sizes other than the one tried).
    Null,
    /// An object of symbolic size `sigma` (64 bits) with `capacity` cells.
    Symbolic {
        /// σ, zero-extended to 64 bits.
        sigma: Expr,
        /// The capacity (σ ≤ capacity holds on the path).
        capacity: u64,
    },
}

impl Executor<'_> {
    /// Decides what an allocation of the symbolic size `size` gets on this path, as
    /// `--sym-size-mode` says. Paths forked for other sizes (concretize, fork-eager) are
    /// allocated by `allocate_other`, which returns the pointer bound to `dest`.
    pub(crate) fn decide_size(
        &mut self,
        state: &mut State,
        dest: Option<Slot>,
        size: &Expr,
        on_stack: bool,
        allocate_other: &mut dyn FnMut(&mut Self, &mut State, u64) -> Exec<Value>,
    ) -> Exec<SizeDecision> {
        let mode = self.config.sym_size.mode;
        // A `--jobs` worker rebuilding a prefix repeats allocations that the worker which
        // explored them counted already.
        let counted = u64::from(!state.rebuilding());
        if mode != SymSizeMode::Concretize {
            self.run.sym_alloc.symbolic_size_allocations += counted;
        }
        let sigma = Expr::zext_or_trunc(size.clone(), 64);
        let capacity = match mode {
            SymSizeMode::Concretize => None,
            _ => self.capacity(state, &sigma)?,
        };
        let Some(capacity) = capacity else {
            let n = self.concretize_size(state, dest, size, on_stack, allocate_other)?;
            return Ok(n.map_or(SizeDecision::Null, SizeDecision::Concrete));
        };
        match mode {
            SymSizeMode::Concretize => unreachable!("handled above"),
            SymSizeMode::Max => {
                let max = self
                    .cx()
                    .largest_value(state, &sigma, capacity, "max size")?;
                state.add_constraint(Expr::eq(sigma, Expr::constant(max as u128, 64)));
                self.run.sym_alloc.max_concretisations += counted;
                Ok(SizeDecision::Concrete(max))
            }
            SymSizeMode::ForkEager => {
                let values = self.cx().feasible_sizes(state, &sigma, capacity)?;
                let Some(&first) = values.first() else {
                    return Err(crate::termination::Termination::Early(
                        "no feasible allocation size".into(),
                    ));
                };
                let is = |v: u64| Expr::eq(sigma.clone(), Expr::constant(v as u128, 64));
                let sizes = values.iter().map(|&v| is(v)).collect();
                let taken = self.fork(state, ForkKind::Size, sizes, |ex, i, other| {
                    ex.run.sym_alloc.eager_forks += counted;
                    ex.allocate_on(other, dest, values[i], allocate_other);
                })?;
                if values.len() == 1 {
                    state.add_constraint(is(first));
                }
                Ok(SizeDecision::Concrete(values[taken]))
            }
            SymSizeMode::ForkLazy | SymSizeMode::Sm | SymSizeMode::Smopt | SymSizeMode::Pat => {
                if let Some(n) = sigma.as_constant() {
                    return Ok(SizeDecision::Concrete(n as u64));
                }
                state.taint.add_size(&sigma);
                self.run.sym_alloc.symbolic_size_objects += counted;
                Ok(SizeDecision::Symbolic { sigma, capacity })
            }
        }
    }

    /// The capacity of an object of size `sigma`, with the capacity constraint `σ ≤ c` added
    /// to the path condition: `--capacity`, raised by 20, 40, 80, ... bytes while `σ ≤ c` is
    /// infeasible; lowered to σ's largest feasible value when the path implies `σ ≤ c`. `None` when σ cannot fit under the allocation limit (the allocation is
    /// then concretised as KLEE does, which yields NULL for huge sizes).
    fn capacity(&mut self, state: &mut State, sigma: &Expr) -> Exec<Option<u64>> {
        let counted = u64::from(!state.rebuilding());
        let mut capacity = self.config.sym_size.capacity;
        let mut step = defaults::CAPACITY_STEP;
        loop {
            if capacity > self.config.max_alloc_size {
                return Ok(None);
            }
            let bound = Expr::ule(sigma.clone(), Expr::constant(capacity as u128, 64));
            match self.sv.evaluate(state, &bound, "capacity")? {
                Validity::True => {
                    // The path bounds σ below the capacity already: the cells above its
                    // largest value would never be accessed (spec §4.6), so the object
                    // gets only as many (log2(capacity) queries).
                    let max = self
                        .cx()
                        .largest_value(state, sigma, capacity, "max size")?;
                    if max < capacity {
                        self.run.sym_alloc.tightened_capacities += counted;
                    }
                    return Ok(Some(max));
                }
                Validity::Unknown => {
                    state.add_constraint(bound);
                    self.run.sym_alloc.capacity_bounded += counted;
                    self.report.warn_once(&format!(
                        "symbolic allocation size bounded by the capacity {capacity} \
                         (--capacity); larger sizes are not explored"
                    ));
                    return Ok(Some(capacity));
                }
                Validity::False => {
                    capacity = capacity.saturating_add(step);
                    step = step.saturating_mul(2);
                    self.run.sym_alloc.capacity_raises += counted;
                }
            }
        }
    }
}

impl Cx<'_, '_> {
    /// Every feasible value of `sigma` (≤ `capacity`), largest first (the thesis's artifact
    /// order): one query per candidate.
    fn feasible_sizes(&mut self, state: &State, sigma: &Expr, capacity: u64) -> Exec<Vec<u64>> {
        let mut values = Vec::new();
        for v in (0..=capacity).rev() {
            let is_v = Expr::eq(sigma.clone(), Expr::constant(v as u128, 64));
            if self.sv.may_be_true(state, &is_v, "feasible sizes")? {
                values.push(v);
            }
        }
        Ok(values)
    }
}
