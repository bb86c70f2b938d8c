//! Pointer resolution: the target of an access at a concrete or symbolic pointer (one
//! object, or a fork per object it may point into plus the out-of-bounds case), byte reads
//! and writes at a resolved target, and the segments of merged objects.

use std::sync::Arc;

use sear_expr::Expr;
use sear_ir::{Module, TypeId};

use crate::executor::layout::{self, read_value, store_bytes, value_to_bytes, write_value};
use crate::executor::Cx;
use crate::executor::{Exec, Executor};
use crate::memory::segment::MAX_ARRAY_SIZE;
use crate::memory::{
    bad_pointer, ptr_error, read_only_error, Hit, Lookup, MemoryObject, Offset, Resolution,
    Segment, Target,
};
use crate::path::ForkKind;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

impl Cx<'_, '_> {
    /// Reads a value of type `ty` at a resolved target.
    pub(crate) fn read_target(
        &mut self,
        module: &Module,
        state: &mut State,
        target: &Target,
        ty: TypeId,
    ) -> Value {
        let len = module.ty(ty).size.max(1);
        let target = &located(state, target, len);
        match &target.offset {
            Offset::Concrete(o) => {
                let entry = state
                    .memory
                    .get_by_base(target.address)
                    .expect("resolved object");
                match state.memory.segment_of(entry, *o, len) {
                    Some((segment, at)) => {
                        read_value(module, segment, at, ty, self.config.read_policy)
                    }
                    // Across the chunks of a split object: byte by byte.
                    None => {
                        let bytes: Vec<Expr> = (0..len)
                            .map(|i| self.read_byte_at(state, &target.shifted(i)))
                            .collect();
                        layout::value_from_bytes(module, ty, &bytes)
                    }
                }
            }
            Offset::Symbolic(off) => self.read_symbolic(module, state, target, off, ty),
        }
    }

    pub(super) fn read_symbolic(
        &mut self,
        module: &Module,
        state: &mut State,
        target: &Target,
        off: &Expr,
        ty: TypeId,
    ) -> Value {
        if let Some(width) = layout::memory_width(module, ty) {
            let reads = self.config.read_policy;
            let e = self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                segment.read_symbolic(off, store_bytes(width), prefix, reads)
            });
            return layout::from_memory(module, ty, Value::from_expr(Expr::extract(e, 0, width)));
        }
        let elems = layout::aggregate_elements(module, ty).unwrap_or_default();
        let items: Vec<Value> = elems
            .iter()
            .map(|(o, t)| {
                let field_off = Expr::add(Expr::constant(*o as u128, 32), off.clone());
                self.read_symbolic(module, state, target, &field_off, *t)
            })
            .collect();
        Value::Aggregate(items.into())
    }

    /// Writes a value of type `ty` at a resolved target.
    pub(crate) fn write_target(
        &mut self,
        module: &Module,
        state: &mut State,
        target: &Target,
        ty: TypeId,
        value: &Value,
    ) {
        let len = module.ty(ty).size.max(1);
        let target = &located(state, target, len);
        match &target.offset {
            Offset::Concrete(o) => {
                if let Some((segment, at)) = state.memory.segment_mut(target.address, *o, len) {
                    write_value(module, segment, at, ty, value);
                    return;
                }
                // Across the chunks of a split object: byte by byte.
                let mut bytes = Vec::new();
                value_to_bytes(module, ty, value, 0, &mut bytes);
                for (delta, byte) in bytes {
                    self.write_byte_at(state, &target.shifted(delta), byte);
                }
            }
            Offset::Symbolic(off) => {
                let mut bytes = Vec::new();
                value_to_bytes(module, ty, value, 0, &mut bytes);
                self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                    segment.write_symbolic(off, &bytes, prefix)
                });
            }
        }
    }

    /// Reads one byte at a resolved target.
    pub(in crate::executor) fn read_byte_at(&mut self, state: &mut State, target: &Target) -> Expr {
        let target = &located(state, target, 1);
        match &target.offset {
            Offset::Concrete(o) => {
                let entry = state
                    .memory
                    .get_by_base(target.address)
                    .expect("resolved object");
                let (segment, at) = state
                    .memory
                    .segment_of(entry, *o, 1)
                    .expect("a byte is in one chunk");
                segment.read_byte(at as usize, self.config.read_policy)
            }
            Offset::Symbolic(off) => {
                let reads = self.config.read_policy;
                self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                    segment.read_symbolic(off, 1, prefix, reads)
                })
            }
        }
    }

    /// Writes one byte at a resolved target.
    pub(in crate::executor) fn write_byte_at(
        &mut self,
        state: &mut State,
        target: &Target,
        byte: Expr,
    ) {
        let target = &located(state, target, 1);
        match &target.offset {
            Offset::Concrete(o) => {
                let (segment, at) = state
                    .memory
                    .segment_mut(target.address, *o, 1)
                    .expect("a byte is in one chunk");
                segment.write_byte(at as usize, byte);
            }
            Offset::Symbolic(off) => {
                self.with_symbolic_segment(state, target, off, |segment, off, prefix| {
                    segment.write_symbolic(off, &[(0, byte)], prefix)
                })
            }
        }
    }

    /// Runs `f` on the segment holding the target's object (or its chunk, for a split
    /// object), with the symbolic object offset `off` turned into a segment offset, and
    /// publishes the segment's access granularity afterwards (spec 001 §4).
    pub(super) fn with_symbolic_segment<T>(
        &mut self,
        state: &mut State,
        target: &Target,
        off: &Expr,
        f: impl FnOnce(&mut Segment, &Expr, &str) -> T,
    ) -> T {
        let (segment, delta) = state
            .memory
            .segment_for_symbolic(target.address, target.chunk)
            .expect("a symbolic-offset access into one piece of an object");
        let off = if delta == 0 {
            off.clone()
        } else {
            Expr::add(Expr::constant(delta as u128, 32), off.clone())
        };
        // Named by the object only: a flush with the same bytes is the same array in every
        // state (`Array::constant`).
        let prefix = format!("mo{}", segment.id().0);
        let result = f(segment, &off, &prefix);
        self.memory.note_symbolic_array(segment.size() as u64);
        // The query metadata keeps, per array, the minimum over the states sharing it: a
        // smaller size only keeps more axioms, so this stays sound.
        if let Some((root, width)) = segment.access_granularity() {
            let g = self.sv.meta.access_granularity.entry(root).or_insert(width);
            *g = (*g).min(width);
        }
        result
    }
}

impl Executor<'_> {
    /// Resolves an access of `len` bytes at `ptr` and runs `access` in every state where
    /// it is valid; the current state takes the first resolution, forks take the others,
    /// and a fork where no object matches ends with a pointer error.
    pub(crate) fn resolve_access(
        &mut self,
        state: &mut State,
        ptr: &Value,
        len: u64,
        write: bool,
        access: &mut dyn FnMut(&mut Self, &mut State, &Target) -> Exec<()>,
    ) -> Exec<()> {
        let p = match &self.settled_pointer(state, ptr)? {
            Value::Concrete(a, _) => {
                let target = resolve_concrete(state, *a as u64, len, write)?;
                self.check_symbolic_size(state, &target, len)?;
                return access(self, state, &target);
            }
            Value::Symbolic(e) => Expr::zext_or_trunc(e.clone(), 64),
            Value::Aggregate(_) => return Err(ptr_error("aggregate used as a pointer")),
        };
        let (targets, out_of_bounds) = match self.memory.resolve(&mut self.sv, state, &p, len)? {
            Resolution::Invalid => return Err(self.classify_bad_pointer(state, &p)),
            Resolution::Single(hit) => {
                let target = symbolic_target(state, &p, hit, write)?;
                return access(self, state, &target);
            }
            Resolution::Segment {
                members,
                within,
                out_of_bounds,
            } => {
                // One path for the whole segment; an access outside every member (across
                // an internal red zone too) is an error path.
                match out_of_bounds {
                    Some(none) => {
                        let sides = vec![within, none];
                        let taken =
                            self.fork(state, ForkKind::Resolution, sides, |ex, _, bad| {
                                let error = ex.classify_bad_pointer(&bad, &p);
                                ex.terminate(bad, error);
                            })?;
                        if taken == 1 {
                            return Err(self.classify_bad_pointer(state, &p));
                        }
                    }
                    None => state.add_constraint(within),
                }
                let target = symbolic_target(state, &p, Hit::object(members[0]), write)?;
                return access(self, state, &target);
            }
            Resolution::Fork {
                targets,
                out_of_bounds,
            } => (targets, out_of_bounds),
        };
        // One alternative per object, then the out-of-bounds one.
        let mut alternatives: Vec<Expr> = targets.iter().map(|(c, _)| c.clone()).collect();
        alternatives.extend(out_of_bounds);
        if let [only] = &alternatives[..] {
            state.add_constraint(only.clone());
        }
        let out_of_bounds = |ex: &mut Self, bad: &mut State| {
            if let [(_, hit)] = targets[..] {
                // The test prefers an address just past the object, where ASan's red zone
                // catches the overflow natively too.
                let object = &bad.memory.get_by_base(hit.address).expect("target").object;
                let offset = Expr::sub(p.clone(), object.base_expr());
                let past_end = Expr::sub(offset, object.size_expr());
                let near = Expr::ult(past_end, Expr::constant(NEAR_OVERFLOW as u128, 64));
                bad.cex_preferences.push(near);
            }
            ex.classify_bad_pointer(bad, &p)
        };
        let taken = self.fork(
            state,
            ForkKind::Resolution,
            alternatives,
            |ex, i, mut other| match targets.get(i) {
                Some(&(_, hit)) => ex.continue_or_restart(other, |ex, other| {
                    let target = symbolic_target(other, &p, hit, write)?;
                    access(ex, other, &target)
                }),
                None => {
                    let error = out_of_bounds(ex, &mut other);
                    ex.terminate(other, error);
                }
            },
        )?;
        match targets.get(taken) {
            Some(&(_, hit)) => {
                if taken != 0
                    && Self::follows_new_side(state)
                    && self.run.restart_snapshot.is_some()
                {
                    // Following a recorded path where a new path took this object: that
                    // path restarted the whole operation, and so does this one.
                    return Err(self.restart_current(state, "resolution"));
                }
                let target = symbolic_target(state, &p, hit, write)?;
                access(self, state, &target)
            }
            None => Err(out_of_bounds(self, state)),
        }
    }

    /// `ptr` as the path knows it: settled ([`State::settle`]), and a symbolic pointer
    /// rewritten by the terms the path condition fixes (the path simplification,
    /// [`crate::solver_view::SolverView::simplified`]: equal in every model of the path). A
    /// pointer a merged loop left as `ite(c, &obj, 0)` is `&obj` on a path that took
    /// `p != 0` (which fixed `c`): the access resolves to the one object at a constant
    /// offset instead of a symbolic pointer over both. Off with `--no-path-simplification`;
    /// counted as `simplification.pointers` in `summary.json`.
    fn settled_pointer(&mut self, state: &State, ptr: &Value) -> Exec<Value> {
        let settled = state.settle(ptr);
        let Value::Symbolic(e) = &settled else {
            return Ok(settled);
        };
        let simplified = self.sv.simplified(state, e)?;
        if simplified == *e {
            return Ok(settled);
        }
        match simplified.as_constant() {
            // A constant address is one of the concrete layout only in the standard model
            // (no address bindings).
            Some(a) if state.addresses.is_empty() => {
                self.sv.simplification.pointers += 1;
                Ok(Value::Concrete(a, simplified.width()))
            }
            _ => Ok(state.settle(&Value::Symbolic(simplified))),
        }
    }

    /// The pointer error for a state where `p` points into no live object.
    pub(super) fn classify_bad_pointer(&mut self, state: &State, p: &Expr) -> Termination {
        match self.sv.get_value(state, p, "resolve") {
            Ok(v) => bad_pointer(state, v as u64),
            Err(t) => t,
        }
    }
}

/// The live object whose base is exactly the (concrete) pointer.
pub(crate) fn object_at(state: &State, address: u64) -> Option<Arc<MemoryObject>> {
    state.memory.get_by_base(address).map(|e| e.object.clone())
}

/// Bytes past an object's end that an out-of-bounds test prefers (within ASan's red zones).
const NEAR_OVERFLOW: u64 = 16;

/// `target`, or, when its constant offset runs past its object (an access through the
/// first member of a merged segment that lands in another member), the object that holds
/// those bytes and the offset in it.
fn located(state: &State, target: &Target, len: u64) -> Target {
    let Offset::Concrete(o) = target.offset else {
        return target.clone();
    };
    let Some(entry) = state.memory.get_by_base(target.address) else {
        return target.clone();
    };
    if o.saturating_add(len) <= entry.object.size {
        return target.clone();
    }
    let absolute = target.address.wrapping_add(o);
    match state.memory.lookup(absolute) {
        Lookup::Live(e) => Target {
            address: e.object.address,
            offset: Offset::Concrete(absolute - e.object.address),
            chunk: None,
        },
        _ => target.clone(),
    }
}

/// The target of an access of `len` bytes at the concrete `address`, checked.
fn resolve_concrete(state: &State, address: u64, len: u64, write: bool) -> Exec<Target> {
    match state.memory.lookup(address) {
        Lookup::Live(entry) => {
            if !entry.object.contains_range(address, len) {
                return Err(ptr_error("out of bound pointer"));
            }
            if write && entry.object.read_only {
                return Err(read_only_error());
            }
            Ok(Target {
                address: entry.object.address,
                offset: Offset::Concrete(address - entry.object.address),
                chunk: None,
            })
        }
        _ => Err(bad_pointer(state, address)),
    }
}

/// The target of an access at the symbolic pointer `p` resolved to `hit`.
fn symbolic_target(state: &State, p: &Expr, hit: Hit, write: bool) -> Exec<Target> {
    let address = hit.address;
    let entry = state.memory.get_by_base(address).expect("resolved object");
    if write && entry.object.read_only {
        return Err(read_only_error());
    }
    let offset = Expr::sub(p.clone(), entry.object.base_expr());
    if let Some(o) = offset.as_constant() {
        return Ok(Target {
            address,
            offset: Offset::Concrete(o as u64),
            chunk: hit.chunk,
        });
    }
    if entry.object.size > MAX_ARRAY_SIZE {
        return Err(Termination::error(
            ErrorKind::Exec,
            format!(
                "symbolic-offset access to an object larger than 1 GiB ({} bytes)",
                entry.object.size
            ),
        ));
    }
    let offset = Expr::trunc(offset, 32);
    Ok(Target {
        address,
        offset: match offset.as_constant() {
            Some(o) => Offset::Concrete(o as u64),
            None => Offset::Symbolic(offset),
        },
        chunk: hit.chunk,
    })
}
