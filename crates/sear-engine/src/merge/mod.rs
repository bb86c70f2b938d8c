//! Merging: two paths at the same place become one (spec 003 §1.3, Definition 2.5.1).
//!
//! The merge of states `a` and `b` runs where either ran. Its path condition is the common
//! prefix φ of theirs plus one disjunction `ψa ∨ ψb` of what each added after it; every
//! value that differs becomes `ite(ψa, va, vb)` (under the merged path condition, `¬ψa`
//! implies `ψb`). The facility has one function per layer, [`values`], [`segments`],
//! [`address_spaces`] and [`states`], each returning `None` when the two sides are not
//! merge-compatible (different objects, stacks, inputs or outputs), so that callers can
//! keep both paths. `klee_open_merge`/`klee_close_merge` (`executor/merging.rs`) use it.
//!
//! [`group`] merges any number of states at once with a pluggable encoding of the merged
//! path condition and values ([`group::MergeEncoding`]): the merging of size-dependent
//! loops (`crate::loop_merge`) uses it with the encodings of Algorithm 4 (SM) and of the
//! execution tree (SMOpt, Algorithms 5 and 6).

pub mod group;

use std::rc::Rc;
use std::sync::Arc;

use sear_expr::{Expr, ReadPolicy};

use crate::memory::{AddressSpace, Segment, Storage};
use crate::state::{Frame, State};
use crate::value::Value;

/// `ite(cond, a, b)` on values (element-wise on aggregates); `None` when their shapes
/// differ.
pub fn values(cond: &Expr, a: &Value, b: &Value) -> Option<Value> {
    if !same_shape(a, b) {
        return None;
    }
    Some(merge_value(cond, a, b))
}

/// True when `a` and `b` have the same widths (and aggregate lengths) throughout.
pub(crate) fn same_shape(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Aggregate(xs), Value::Aggregate(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| same_shape(x, y))
        }
        (Value::Aggregate(_), _) | (_, Value::Aggregate(_)) => false,
        _ => a.width() == b.width(),
    }
}

/// A register slot merged at a program point both paths reached. In SSA form a slot that
/// is live there was defined on both paths, with its type's shape; a slot whose shapes
/// differ was left unassigned on one path, so it is dead there, and either value will do.
fn slot(cond: &Expr, a: &Value, b: &Value) -> Value {
    if same_shape(a, b) {
        merge_value(cond, a, b)
    } else {
        a.clone()
    }
}

fn merge_value(cond: &Expr, a: &Value, b: &Value) -> Value {
    if same_value(a, b) {
        return a.clone();
    }
    match (a, b) {
        (Value::Aggregate(xs), Value::Aggregate(ys)) => {
            let items: Vec<Value> = xs
                .iter()
                .zip(ys.iter())
                .map(|(x, y)| merge_value(cond, x, y))
                .collect();
            Value::Aggregate(items.into())
        }
        _ => Value::from_expr(Expr::select(cond.clone(), a.to_expr(), b.to_expr())),
    }
}

/// True when two values are the same (constants by value, expressions by identity).
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Concrete(x, w), Value::Concrete(y, v)) => x == y && w == v,
        (Value::Symbolic(x), Value::Symbolic(y)) => x == y,
        (Value::Aggregate(xs), Value::Aggregate(ys)) => {
            Rc::ptr_eq(xs, ys)
                || (xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| same_value(x, y)))
        }
        _ => false,
    }
}

/// The segment whose every byte is `ite(cond, a[i], b[i])` (bytes equal on both sides
/// are kept as they are); `None` when the sizes differ.
pub fn segments(cond: &Expr, a: &Segment, b: &Segment) -> Option<Segment> {
    if a.size() != b.size() {
        return None;
    }
    let mut merged = a.clone();
    for i in a.differing_bytes(b) {
        let (x, y) = (
            a.read_byte(i, ReadPolicy::Fold),
            b.read_byte(i, ReadPolicy::Fold),
        );
        if x != y {
            merged.write_byte(i, Expr::select(cond.clone(), x, y));
        }
    }
    Some(merged)
}

/// The address space holding the objects of both `a` and `b` with their contents merged
/// under `cond`; `None` unless both hold the same objects at the same places (and have
/// freed the same ones).
pub fn address_spaces(cond: &Expr, a: &AddressSpace, b: &AddressSpace) -> Option<AddressSpace> {
    if a.len() != b.len() || !a.same_quarantine(b) {
        return None;
    }
    let mut merged = a.clone();
    for (x, y) in a.iter().zip(b.iter()) {
        if x.object.id != y.object.id
            || x.object.address != y.object.address
            || x.object.size != y.object.size
        {
            return None;
        }
        match (&x.storage, &y.storage) {
            (Storage::Own(s), Storage::Own(t)) if Arc::ptr_eq(s, t) => {}
            (Storage::Own(s), Storage::Own(t)) => {
                merged.replace_segment(x.object.address, segments(cond, s, t)?);
            }
            (Storage::Chunks(s), Storage::Chunks(t)) if s == t => {}
            _ => return None,
        }
    }
    merged.merge_shared_segments(cond, b)?;
    Some(merged)
}

/// True when `a` and `b` hold the same objects at the same places with the same bytes,
/// except the objects at the base addresses in `skip` (their bytes are not compared).
pub fn same_memory(a: &AddressSpace, b: &AddressSpace, skip: &[u64]) -> bool {
    if a.len() != b.len() || !a.same_quarantine(b) {
        return false;
    }
    for (x, y) in a.iter().zip(b.iter()) {
        if x.object.id != y.object.id
            || x.object.address != y.object.address
            || x.object.size != y.object.size
        {
            return false;
        }
        if skip.contains(&x.object.address) {
            continue;
        }
        let equal = match (&x.storage, &y.storage) {
            (Storage::Own(s), Storage::Own(t)) => Arc::ptr_eq(s, t) || same_segment(s, t),
            (Storage::Chunks(s), Storage::Chunks(t)) => s == t,
            _ => false,
        };
        if !equal {
            tracing::trace!(target: "sear::incremental", "object {} ({} bytes at {:#x}) differs", x.object.name, x.object.size, x.object.address);
            return false;
        }
    }
    let (sa, sb) = (a.shared_segments_by_id(), b.shared_segments_by_id());
    sa.len() == sb.len()
        && sa.iter().all(|(id, s)| {
            sb.iter()
                .find(|(other, _)| other == id)
                .is_some_and(|(_, t)| Arc::ptr_eq(s, t) || same_segment(s, t))
        })
}

/// True when two segments hold the same bytes.
fn same_segment(a: &Segment, b: &Segment) -> bool {
    a.size() == b.size()
        && a.differing_bytes(b)
            .into_iter()
            .all(|i| a.read_byte(i, ReadPolicy::Fold) == b.read_byte(i, ReadPolicy::Fold))
}

/// True when `a` and `b` may be merged apart from their memory: the same place in every
/// frame, the same inputs, outputs, address constraints and forking setting.
pub fn compatible(a: &State, b: &State) -> bool {
    a.stack.len() == b.stack.len()
        && a.symbolics.len() == b.symbolics.len()
        && a.forking_disabled == b.forking_disabled
        && a.rounding == b.rounding
        && a.stack_bytes == b.stack_bytes
        && a.output.same_as(&b.output)
        && a.addresses.same_as(&b.addresses)
        && (a.symbolics.ptr_eq(&b.symbolics)
            || a.symbolics
                .iter()
                .zip(&b.symbolics)
                .all(|(x, y)| x.array == y.array && x.object == y.object))
        && a.stack.iter().zip(&b.stack).all(|(f, g)| same_place(f, g))
}

/// The merge of `a` and `b` (same place in the program), or `None` when they are not
/// merge-compatible. The result keeps `a`'s identity.
pub fn states(a: &State, b: &State) -> Option<State> {
    if !compatible(a, b) {
        return None;
    }
    // The common prefix of the path conditions, and what each side added after it.
    let common = a
        .constraints
        .iter()
        .zip(b.constraints.iter())
        .take_while(|(x, y)| x == y)
        .count();
    let in_a = Expr::and_all(a.constraints.suffix(common));
    let in_b = Expr::and_all(b.constraints.suffix(common));
    let mut merged = a.clone();
    merged.memory = address_spaces(&in_a, &a.memory, &b.memory)?;
    for (frame, (f, g)) in merged.stack.iter_mut().zip(a.stack.iter().zip(&b.stack)) {
        for (local, (x, y)) in frame.locals.iter_mut().zip(f.locals.iter().zip(&g.locals)) {
            *local = slot(&in_a, x, y);
        }
    }
    let mut constraints = a.constraints.prefix(common);
    let either = Expr::or(in_a, in_b);
    if !either.is_true() {
        constraints.push(either);
    }
    merged.constraints = constraints;
    for preference in &b.cex_preferences {
        if !merged.cex_preferences.contains(preference) {
            merged.cex_preferences.push(preference.clone());
        }
    }
    merged.heap = a.heap.clone().max(b.heap.clone());
    merged.stack_alloc = a.stack_alloc.clone().max(b.stack_alloc.clone());
    merged.global_alloc = a.global_alloc.clone().max(b.global_alloc.clone());
    merged.instructions = a.instructions.max(b.instructions);
    merged.depth = a.depth.min(b.depth);
    merged.covered_new = a.covered_new || b.covered_new;
    merged
        .query_cost
        .set(a.query_cost.get() + b.query_cost.get());
    merged.taint = a.taint.union(&b.taint);
    Some(merged)
}

/// True when two frames are at the same instruction of the same function, with the same
/// allocas and the same caller slot.
pub(crate) fn same_place(f: &Frame, g: &Frame) -> bool {
    f.func == g.func
        && f.block == g.block
        && f.inst == g.inst
        && f.ret_dest == g.ret_dest
        && f.ret_width == g.ret_width
        && f.locals.len() == g.locals.len()
        && f.allocas.len() == g.allocas.len()
        && f.allocas
            .iter()
            .zip(g.allocas.iter())
            .all(|(x, y)| same_value(x, y))
        && match (&f.varargs, &g.varargs) {
            (None, None) => true,
            (Some(x), Some(y)) => same_value(x, y),
            _ => false,
        }
}

/// An entry's object and placement, for comparisons in tests.
#[cfg(test)]
fn placement(e: &crate::memory::ObjectEntry) -> (u64, u64) {
    (e.object.address, e.object.size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::{MemoryObject, ObjectId, ObjectKind, SegmentId};
    use sear_expr::{Array, ArrayKind, UpdateList};

    fn sym(name: &str) -> Expr {
        let a = Array::new(name, 4, ArrayKind::SymbolicInput, None);
        Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 4)
    }

    #[test]
    fn differing_values_become_selects_and_equal_ones_stay() {
        let c = Expr::ult(sym("x"), Expr::constant(10, 32));
        let one = Value::Concrete(1, 32);
        let two = Value::Concrete(2, 32);
        assert!(same_value(&values(&c, &one, &one).unwrap(), &one));
        let v = values(&c, &one, &two).unwrap();
        assert_eq!(
            v.to_expr(),
            Expr::select(c.clone(), one.to_expr(), two.to_expr())
        );
        // Shapes must agree.
        assert!(values(&c, &one, &Value::Concrete(1, 64)).is_none());
        let agg = Value::Aggregate(vec![one.clone(), two.clone()].into());
        assert!(values(&c, &agg, &one).is_none());
    }

    #[test]
    fn merged_memory_selects_only_the_bytes_that_differ() {
        let c = Expr::ult(sym("y"), Expr::constant(3, 32));
        let object = Arc::new(MemoryObject {
            id: ObjectId(1),
            address: 0x1000,
            size: 8,
            base: None,
            symbolic_size: None,
            kind: ObjectKind::Heap,
            name: "o".into(),
            alloc_site: None,
            read_only: false,
        });
        let mut a = AddressSpace::default();
        a.insert(object, Segment::zeroed(SegmentId(1), 8));
        let mut b = a.clone();
        b.whole_segment_mut(0x1000)
            .unwrap()
            .0
            .write_concrete_byte(3, 7);
        let m = address_spaces(&c, &a, &b).unwrap();
        let entry = m.get_by_base(0x1000).unwrap();
        assert_eq!(placement(entry), (0x1000, 8));
        let (seg, _) = m.segment_of(entry, 0, 8).unwrap();
        assert_eq!(seg.concrete_byte(2), Some(0));
        assert_eq!(
            seg.read_byte(3, ReadPolicy::Fold),
            Expr::select(c, Expr::constant(0, 8), Expr::constant(7, 8))
        );
        // Different objects: no merge.
        let mut other = a.clone();
        other.free(0x1000);
        assert!(address_spaces(&Expr::true_(), &a, &other).is_none());
    }
}
