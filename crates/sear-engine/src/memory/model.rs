//! The memory-model interface and KLEE's standard model.
//!
//! A memory model decides two things: where a new object is placed, and which objects a
//! symbolic pointer may point into. Everything else (contents, flushing, checks, forking)
//! is shared executor machinery in `executor::memop`. The research memory models
//! (relocatable addresses, symbolic-size objects) implement this trait; the executor holds
//! one as `Box<dyn MemoryModel>`.

use sear_expr::Expr;

use super::{Lookup, ObjectKind};
use crate::executor::Exec;
use crate::state::State;

/// The solver questions a memory model may ask about a state.
pub trait Oracle {
    /// Whether `cond` may be true on the state's path.
    fn may_be_true(&mut self, state: &State, cond: &Expr) -> Exec<bool>;
    /// Whether `cond` must be true on the state's path.
    fn must_be_true(&mut self, state: &State, cond: &Expr) -> Exec<bool>;
    /// A feasible value of `e` on the state's path.
    fn get_value(&mut self, state: &State, e: &Expr) -> Exec<u128>;
}

/// Where objects go and which objects a pointer may reach.
pub trait MemoryModel {
    /// The model's name (for statistics and messages).
    fn name(&self) -> &'static str;
    /// The base address of a new object of `size` bytes aligned to `align`.
    fn place(&mut self, state: &mut State, size: u64, align: u64, kind: ObjectKind) -> u64;
    /// The live objects that an access of `len` bytes at the symbolic pointer `p` may hit,
    /// as `(base, size)` pairs, at most `max` of them, the most likely first. The executor
    /// forks once per object and once more for "none of them".
    fn candidates(
        &mut self,
        oracle: &mut dyn Oracle,
        state: &State,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Vec<(u64, u64)>>;
}

/// `base <= p` and `p + len <= base + size`, as one unsigned comparison on `p - base`.
pub fn in_bounds(p: &Expr, base: u64, size: u64, len: u64) -> Expr {
    if len > size {
        return Expr::false_();
    }
    let offset = Expr::sub(p.clone(), Expr::constant(base as u128, 64));
    Expr::ule(offset, Expr::constant((size - len) as u128, 64))
}

/// KLEE's standard model: concrete addresses from the state's deterministic bump
/// allocators, and resolution by searching outward from one feasible value of the pointer
/// (KLEE's `AddressSpace::resolve`).
#[derive(Debug, Default)]
pub struct StandardModel;

impl MemoryModel for StandardModel {
    fn name(&self) -> &'static str {
        "standard"
    }

    fn place(&mut self, state: &mut State, size: u64, align: u64, kind: ObjectKind) -> u64 {
        match kind {
            ObjectKind::Stack => state.stack_alloc.allocate(size, align),
            _ => state.heap.allocate(size, align),
        }
    }

    fn candidates(
        &mut self,
        oracle: &mut dyn Oracle,
        state: &State,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Vec<(u64, u64)>> {
        let example = oracle.get_value(state, p)? as u64;
        if let Lookup::Live(entry) = state.memory.lookup(example) {
            let (base, size) = (entry.object.address, entry.object.size);
            // The common case: the pointer can only be inside this object.
            if oracle.must_be_true(state, &in_bounds(p, base, size, len))? {
                return Ok(vec![(base, size)]);
            }
        }
        let mut found: Vec<(u64, u64)> = Vec::new();
        // Downward from the example, until the pointer must be at or above an object's base.
        let below: Vec<(u64, u64)> = state
            .memory
            .below(example.saturating_add(1))
            .map(|e| (e.object.address, e.object.size))
            .collect();
        for (base, size) in below {
            if oracle.may_be_true(state, &in_bounds(p, base, size, len))? {
                found.push((base, size));
                if found.len() >= max {
                    return Ok(found);
                }
            }
            let at_or_above_base = Expr::uge(p.clone(), Expr::constant(base as u128, 64));
            if oracle.must_be_true(state, &at_or_above_base)? {
                break;
            }
        }
        // Upward, until the pointer must be below an object's base.
        let above: Vec<(u64, u64)> = state
            .memory
            .at_or_above(example.saturating_add(1))
            .map(|e| (e.object.address, e.object.size))
            .collect();
        for (base, size) in above {
            if found.len() >= max {
                break;
            }
            let below_base = Expr::ult(p.clone(), Expr::constant(base as u128, 64));
            if oracle.must_be_true(state, &below_base)? {
                break;
            }
            if oracle.may_be_true(state, &in_bounds(p, base, size, len))? {
                found.push((base, size));
            }
        }
        Ok(found)
    }
}
