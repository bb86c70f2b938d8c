//! Merging a group of states at once, with a pluggable encoding.
//!
//! The members must be at the same place and merge-compatible (`super::compatible`, the
//! same objects at the same places), and their path conditions must share a prefix of
//! `prefix_len` constraints (φ: the path condition when the merged fragment began). The
//! merged state keeps the first member's identity; its path condition is φ plus the
//! encoding's [`MergeEncoding::condition`] (nothing when that is `true`), and every location
//! whose values differ between members (a register slot, a byte of memory: every cell up to
//! an object's capacity) gets the encoding's [`MergeEncoding::value`]. Locations whose values
//! agree in every member are kept as they are.

use std::sync::Arc;

use sear_expr::{Expr, ReadPolicy};

use super::{compatible, same_shape, same_value};
use crate::memory::address_space::ObjectEntry;
use crate::memory::object::ObjectKind;
use crate::memory::{AddressSpace, Segment, Storage};
use crate::state::State;
use crate::value::Value;

/// How merged path conditions and values are written.
pub trait MergeEncoding {
    /// What the merged state's path condition adds after the common prefix (`true`:
    /// nothing).
    fn condition(&mut self) -> Expr;
    /// The merged value of one location, from `values[i]`, member `i`'s value (all of one
    /// width).
    fn value(&mut self, values: &[Expr]) -> Expr;
}

/// One merged location, as recorded for validation: the merged value and each member's.
#[derive(Clone, Debug)]
pub struct MergedLocation {
    /// The merged value.
    pub merged: Expr,
    /// Member `i`'s value.
    pub members: Vec<Expr>,
}

/// What a group merge produced besides the state.
#[derive(Clone, Debug)]
pub struct MergeRecord {
    /// The condition added after the prefix (`true`: none).
    pub condition: Expr,
    /// Every location whose merged value was built (kept only when recording).
    pub locations: Vec<MergedLocation>,
    /// How many merged values were built.
    pub values: u64,
    /// Their AST sizes (distinct non-constant nodes), summed.
    pub values_ast: u64,
    /// Objects the merged state took from members other than the first
    /// ([`Objects::OneSided`]).
    pub one_sided_objects: u64,
}

/// Which differences in live objects a group merge accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objects {
    /// The same objects at the same places in every member.
    Same,
    /// Besides those, heap objects that only some members allocated (with a segment of their
    /// own, overlapping no object of the others). The merged state keeps them, with their
    /// contents from a member that has them: on the other members' sides nothing points to
    /// them (a pointer to one is an `ite` on the allocating side's condition).
    OneSided,
}

/// True when every member may join `members[0]` in a group merge with a common prefix of
/// `prefix_len` constraints.
pub fn group_compatible(members: &[&State], prefix_len: usize) -> bool {
    group_compatible_with(members, prefix_len, Objects::Same)
}

/// [`group_compatible`], with the differences in objects that `objects` accepts.
pub fn group_compatible_with(members: &[&State], prefix_len: usize, objects: Objects) -> bool {
    let first = members[0];
    members.iter().all(|m| {
        compatible(first, m)
            && m.open_merges == first.open_merges
            && m.constraints.len() >= prefix_len
            && (m.constraints.ptr_eq(&first.constraints)
                || m.constraints
                    .iter()
                    .zip(first.constraints.iter())
                    .take(prefix_len)
                    .all(|(x, y)| x == y))
            && mergeable_objects(&first.memory, &m.memory, objects)
    })
}

/// True when the live objects of `a` and `b` differ only as `objects` accepts, they freed
/// the same ones, and they have as many shared segments. Compared by the diff of the
/// persistent maps: in the size of what the paths changed since they forked.
pub(crate) fn mergeable_objects(a: &AddressSpace, b: &AddressSpace, objects: Objects) -> bool {
    a.same_quarantine(b)
        && a.shared_segments() == b.shared_segments()
        && a.object_diff(b).all(|(_, x, y)| match (x, y) {
            (Some(x), Some(y)) => {
                x.object.id == y.object.id
                    && x.object.address == y.object.address
                    && x.object.size == y.object.size
                    && match (&x.storage, &y.storage) {
                        (Storage::Own(_), Storage::Own(_)) => true,
                        (Storage::Chunks(s), Storage::Chunks(t)) => s == t,
                        _ => false,
                    }
            }
            (Some(only), None) => objects == Objects::OneSided && one_sided(only, b),
            (None, Some(only)) => objects == Objects::OneSided && one_sided(only, a),
            (None, None) => true,
        })
}

/// True when `entry`, an object of one space only, may be kept by a merge with `other`: a
/// heap object with its own segment that overlaps no live object of `other` and that
/// `other` did not free (one side freed what the other keeps: the merged path would hold
/// it live and freed at once).
fn one_sided(entry: &ObjectEntry, other: &AddressSpace) -> bool {
    entry.object.kind == ObjectKind::Heap
        && matches!(entry.storage, Storage::Own(_))
        && !other.overlaps(entry.object.address, entry.object.size)
        && other.freed_by_base(entry.object.address).is_none()
}

/// The merge of `members` (see the module documentation), or `None` when they are not
/// group-compatible. With `record`, every merged location is kept in the record.
pub fn states(
    members: &[&State],
    prefix_len: usize,
    encoding: &mut dyn MergeEncoding,
    record: bool,
) -> Option<(State, MergeRecord)> {
    if members.is_empty() || !group_compatible(members, prefix_len) {
        return None;
    }
    let prefix = members[0].constraints.prefix(prefix_len);
    states_over(
        members,
        prefix_len,
        prefix,
        encoding,
        Recording::Sizes { locations: record },
        Objects::Same,
    )
}

/// What a group merge records besides the merged state.
#[derive(Clone, Copy, Debug)]
pub enum Recording {
    /// Nothing: the record's counts of values are kept, their AST sizes are 0 (a merged
    /// value may share a long chain with earlier merges, which the size would walk).
    Nothing,
    /// The AST size of every merged value, and with `locations` every merged location.
    Sizes {
        /// Keep every merged location (for validation).
        locations: bool,
    },
}

/// [`states`] where the caller gives the common prefix as a path condition of its own
/// (`prefix`, the first `prefix_len` constraints of every member, kept from when the merged
/// fragment began: no rebuilding of a long prefix at every merge).
pub fn states_over(
    members: &[&State],
    prefix_len: usize,
    prefix: sear_solver::PathCondition,
    encoding: &mut dyn MergeEncoding,
    recording: Recording,
    objects: Objects,
) -> Option<(State, MergeRecord)> {
    if members.is_empty()
        || !group_compatible_with(members, prefix_len, objects)
        || prefix.len() != prefix_len
    {
        return None;
    }
    let mut one_sided = 0u64;
    let first = members[0];
    let (sizes, record) = match recording {
        Recording::Nothing => (false, false),
        Recording::Sizes { locations } => (true, locations),
    };
    let mut rec = MergeRecord {
        condition: Expr::true_(),
        locations: Vec::new(),
        values: 0,
        values_ast: 0,
        one_sided_objects: 0,
    };
    let mut merged = first.clone();
    let mut cell = |values: &[Expr]| -> Expr {
        let m = encoding.value(values);
        rec.values += 1;
        if sizes {
            rec.values_ast += crate::loop_merge::ast_size(&m);
        }
        if record {
            rec.locations.push(MergedLocation {
                merged: m.clone(),
                members: values.to_vec(),
            });
        }
        m
    };
    // Registers.
    for (depth, frame) in merged.stack.iter_mut().enumerate() {
        for (slot, local) in frame.locals.iter_mut().enumerate() {
            let values: Vec<&Value> = members
                .iter()
                .map(|m| &m.stack[depth].locals[slot])
                .collect();
            if let Some(v) = merge_slot(&values, &mut cell) {
                *local = v;
            }
        }
    }
    // Memory: every object's own segment where a member differs from the first (found by
    // the maps' diffs), then the shared segments.
    let mut differing: Vec<u64> = members[1..]
        .iter()
        .flat_map(|m| first.memory.object_diff(&m.memory).map(|(a, _, _)| a))
        .collect();
    differing.sort_unstable();
    differing.dedup();
    for address in differing {
        let entries: Vec<Option<&ObjectEntry>> = members
            .iter()
            .map(|m| m.memory.get_by_base(address))
            .collect();
        let some = entries.iter().flatten().next()?;
        let mut segments: Vec<Arc<Segment>> = Vec::with_capacity(members.len());
        for e in &entries {
            let e = e.unwrap_or(some);
            if e.object.id != some.object.id || e.object.size != some.object.size {
                return None;
            }
            match &e.storage {
                Storage::Own(seg) => segments.push(seg.clone()),
                Storage::Chunks(_) => break,
            }
        }
        if segments.len() != members.len() {
            continue;
        }
        let seg = merge_segments(&segments, &mut cell);
        if entries.iter().any(|e| e.is_none()) {
            one_sided += 1;
        }
        if entries[0].is_some() {
            if let Some(seg) = seg {
                merged.memory.replace_segment(address, seg);
            }
        } else {
            // An object some members allocated and the first did not (`Objects::OneSided`).
            if objects != Objects::OneSided || merged.memory.overlaps(address, some.object.size) {
                return None;
            }
            let seg = seg.map_or_else(|| segments[0].clone(), Arc::new);
            merged.memory.insert_with_segment(some.object.clone(), seg);
        }
    }
    for (id, seg) in first.memory.shared_segments_by_id() {
        let mut segments = vec![seg];
        for m in &members[1..] {
            let theirs = m
                .memory
                .shared_segments_by_id()
                .into_iter()
                .find(|(i, _)| *i == id)?;
            segments.push(theirs.1);
        }
        if let Some(seg) = merge_segments(&segments, &mut cell) {
            merged.memory.replace_shared_segment(id, seg);
        }
    }
    // The path condition.
    let condition = encoding.condition();
    let mut constraints = prefix;
    if !condition.is_true() {
        constraints.push(condition.clone());
    }
    rec.condition = condition;
    rec.one_sided_objects = one_sided;
    merged.constraints = constraints;
    // Bookkeeping.
    for m in &members[1..] {
        for preference in &m.cex_preferences {
            if !merged.cex_preferences.contains(preference) {
                merged.cex_preferences.push(preference.clone());
            }
        }
        merged.heap = merged.heap.clone().max(m.heap.clone());
        merged.stack_alloc = merged.stack_alloc.clone().max(m.stack_alloc.clone());
        merged.global_alloc = merged.global_alloc.clone().max(m.global_alloc.clone());
        merged.instructions = merged.instructions.max(m.instructions);
        merged.depth = merged.depth.min(m.depth);
        merged.covered_new |= m.covered_new;
        merged
            .query_cost
            .set(merged.query_cost.get() + m.query_cost.get());
        merged.taint = merged.taint.union(&m.taint);
    }
    Some((merged, rec))
}

/// The merged value of one register slot; `None` to keep the first member's (equal
/// everywhere, or unassigned on some path, hence dead here).
fn merge_slot(values: &[&Value], cell: &mut impl FnMut(&[Expr]) -> Expr) -> Option<Value> {
    let first = values[0];
    if values.iter().all(|v| same_value(first, v)) || !values.iter().all(|v| same_shape(first, v)) {
        return None;
    }
    Some(merge_value(values, cell))
}

fn merge_value(values: &[&Value], cell: &mut impl FnMut(&[Expr]) -> Expr) -> Value {
    let first = values[0];
    if values.iter().all(|v| same_value(first, v)) {
        return first.clone();
    }
    match first {
        Value::Aggregate(items) => {
            let merged: Vec<Value> = (0..items.len())
                .map(|i| {
                    let parts: Vec<&Value> = values
                        .iter()
                        .map(|v| match v {
                            Value::Aggregate(xs) => &xs[i],
                            _ => unreachable!("same shape"),
                        })
                        .collect();
                    merge_value(&parts, cell)
                })
                .collect();
            Value::Aggregate(merged.into())
        }
        _ => {
            let exprs: Vec<Expr> = values.iter().map(|v| v.to_expr()).collect();
            Value::from_expr(cell(&exprs))
        }
    }
}

/// The first segment with every byte that differs between the segments merged; `None`
/// when nothing differs (or the sizes do).
fn merge_segments(
    segments: &[Arc<Segment>],
    cell: &mut impl FnMut(&[Expr]) -> Expr,
) -> Option<Segment> {
    let first = &segments[0];
    if segments.iter().any(|s| s.size() != first.size()) {
        return None;
    }
    let mut differing: Vec<usize> = Vec::new();
    for s in &segments[1..] {
        if !Arc::ptr_eq(first, s) {
            differing.extend(first.differing_bytes(s));
        }
    }
    if differing.is_empty() {
        return None;
    }
    differing.sort_unstable();
    differing.dedup();
    let mut merged = Segment::clone(first);
    let mut changed = false;
    for i in differing {
        let bytes: Vec<Expr> = segments
            .iter()
            .map(|s| s.read_byte(i, ReadPolicy::Fold))
            .collect();
        if bytes.iter().all(|b| *b == bytes[0]) {
            continue;
        }
        merged.write_byte(i, cell(&bytes));
        changed = true;
    }
    changed.then_some(merged)
}
