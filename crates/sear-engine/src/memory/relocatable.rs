//! The relocatable addressing model (spec 003 §2, thesis Chapter 3): symbolic base
//! addresses, dynamically segmented memory (DSMM) and object splitting.
//!
//! With `--use-sym-addr`, a heap object (a stack object too with `--sym-addr-stack`;
//! globals stay concrete) gets a fresh symbolic base β, bound by the state's address
//! constraints to a hidden concrete address from the normal allocator (`β = c`). The
//! program computes with β; the solver sees `c` (the constraints are substituted before
//! every query), so the model costs what the standard one does. Because nothing in the path
//! condition names `c`, objects can move, which the two applications use:
//!
//! - **DSMM** (`--merge-objects`): a symbolic pointer that may point into several objects
//!   makes those objects (and the other members of segments they are in) move into one
//!   fresh segment, at offsets `o_i` with internal red zones between them, bound
//!   `β_i = β_s + o_i`; the access then runs on one path over one array instead of one path
//!   per object. Bounds stay per object: an access must stay inside one member.
//!   `--use-context-resolve --kcontext=K` first tries the objects whose allocation context
//!   (the allocation site and the call sites of the last K frames) was resolved at the same
//!   instruction before, checks once that the pointer must point into the merged segment,
//!   and falls back to the full scan otherwise. `--reuse-segments` places the segment of
//!   the same objects merged at the same instruction at the same hidden address in every
//!   state, so their queries are equal.
//! - **Splitting** (`--split-objects --split-threshold=N --partition-size=P`): an object
//!   larger than N bytes accessed at a symbolic offset keeps its bytes in chunks of P bytes
//!   (a multiple of 8), each its own segment and array; the access forks over the chunks it
//!   may touch.
//!
//! Soundness needs well-behaved programs (spec 003 §2.5): behaviour must not depend on
//! address values beyond (in)equality of pointers to different objects.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, ReadPolicy, UpdateList};
use serde::Serialize;

use super::model::{
    bump, candidates, derived_object, fork_over, in_bounds, object_in_bounds, Hit, MemoryModel,
    Placement, Resolution,
};
use super::request::AllocRequest;
use super::segment::{Segment, SegmentId};
use super::{Chunk, MemoryObject, ObjectId, ObjectKind, Storage};
use crate::solver_view::SolverView;
use crate::state::State;
use crate::termination::Exec;

/// Bytes between the members of a merged segment: an access that leaves one member for
/// another is out of bounds, as it is natively.
const INTERNAL_RED_ZONE: u64 = 16;

/// Segment ids of merged and split storage start here (below: one per object).
const FIRST_SHARED_SEGMENT: u64 = 1 << 48;

pub use super::relocatable_config::{RelocatableConfig, SplitConfig};

/// What the model did, for `summary.json`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RelocatableStats {
    /// Objects given a symbolic base.
    pub symbolic_bases: u64,
    /// Objects moved into merged segments.
    pub objects_merged: u64,
    /// Merged segments created.
    pub segments_created: u64,
    /// Merged segments placed at a reused hidden address.
    pub segments_reused: u64,
    /// The largest merged segment (bytes).
    pub largest_segment: u64,
    /// Symbolic-pointer resolutions.
    pub resolutions: u64,
    /// Solver queries asked during resolutions.
    pub resolution_queries: u64,
    /// Resolutions answered from the recorded contexts.
    pub context_resolutions: u64,
    /// Context resolutions that fell back to the full scan.
    pub context_fallbacks: u64,
    /// Objects split into chunks.
    pub splits: u64,
    /// Chunks made by splitting.
    pub chunks: u64,
    /// The chunk size (`--partition-size`).
    pub chunk_size: u64,
    /// The largest object split (bytes).
    pub largest_split_object: u64,
}

/// A merged segment remembered for `--reuse-segments`.
#[derive(Clone, Debug)]
struct Reused {
    address: u64,
    segment: SegmentId,
    root: Option<ArrayRef>,
}

/// An allocation context: the allocation site and the call sites of the frames above it,
/// innermost first, as (function, block, instruction).
type Context = Vec<(u32, u32, usize)>;

/// An instruction: (function, block, instruction).
type Site = (u32, u32, usize);

/// The relocatable model.
#[derive(Debug)]
pub struct RelocatableModel {
    config: RelocatableConfig,
    stats: RelocatableStats,
    /// What a `--jobs` worker's rebuilt prefixes count ([`State::rebuilding`]): the events
    /// of a path explored elsewhere, kept out of `stats` (never reported).
    rebuilt: RelocatableStats,
    next_base: u64,
    next_segment: u64,
    /// The allocation context of every object with a symbolic base (with contexts on).
    contexts: FxHashMap<ObjectId, Context>,
    /// Per resolution site, the contexts of the objects resolved there.
    seen_at: FxHashMap<Site, FxHashSet<Context>>,
    /// (site, objects) ↦ hidden address, segment id and (when it was all concrete) array of
    /// their merged segment.
    reuse: FxHashMap<(Site, Vec<ObjectId>), Reused>,
}

impl RelocatableModel {
    /// The counters an event on `state` goes to: the reported ones, or, while the state
    /// rebuilds a prefix that another worker already explored, the ones never reported.
    fn counters(&mut self, state: &State) -> &mut RelocatableStats {
        if state.rebuilding() {
            &mut self.rebuilt
        } else {
            &mut self.stats
        }
    }

    /// A model with these options.
    pub fn new(config: RelocatableConfig) -> Self {
        let mut stats = RelocatableStats::default();
        if let Some(split) = config.split() {
            stats.chunk_size = split.partition;
        }
        RelocatableModel {
            config,
            stats,
            rebuilt: RelocatableStats::default(),
            next_base: 0,
            next_segment: FIRST_SHARED_SEGMENT,
            contexts: FxHashMap::default(),
            seen_at: FxHashMap::default(),
            reuse: FxHashMap::default(),
        }
    }

    /// A fresh symbolic base bound to `address` in `state`, starting an object or segment
    /// of `size` bytes (its extent, for address-aware caching).
    fn fresh_base(&mut self, state: &mut State, address: u64, size: u64) -> Expr {
        let array = Array::new(
            format!("__addr_{}", self.next_base),
            8,
            ArrayKind::SymbolicAddress,
            None,
        );
        self.next_base += 1;
        state
            .addresses
            .bind(array.clone(), Expr::constant(address as u128, 64));
        state.addresses.set_extent(array.clone(), size);
        Expr::read_lsb(&UpdateList::new(array), Expr::constant(0, 32), 8)
    }

    fn fresh_segment_id(&mut self) -> SegmentId {
        self.next_segment += 1;
        SegmentId(self.next_segment)
    }

    fn context_of(&self, state: &State) -> Context {
        let k = self.config.context().unwrap_or(0) as usize;
        let n = state.stack.len();
        let mut context = Vec::with_capacity(k + 1);
        for (depth, frame) in state.stack.iter().enumerate().rev().take(k + 1) {
            let inst = if depth + 1 == n {
                state.current_inst
            } else {
                frame.inst.saturating_sub(1)
            };
            context.push((frame.func.0, frame.block.0, inst));
        }
        context
    }

    /// The objects `p` may point into: the recorded contexts' objects at this site first
    /// (with DSMM, confirmed by one must-point-into check after merging), or the full scan.
    fn find(
        &mut self,
        solver: &mut SolverView,
        state: &mut State,
        site: Site,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Vec<u64>> {
        if self.config.context().is_some() && self.config.merge_objects {
            if let Some(known) = self.seen_at.get(&site) {
                let pool: Vec<u64> = state
                    .memory
                    .iter()
                    .filter(|e| {
                        self.contexts
                            .get(&e.object.id)
                            .is_some_and(|c| known.contains(c))
                    })
                    .map(|e| e.object.address)
                    .collect();
                let mut found = Vec::new();
                for address in pool {
                    let cond = object_in_bounds(state, address, p, len);
                    if solver.may_be_true(state, &cond, "resolve")? {
                        found.push(address);
                    }
                }
                if !found.is_empty() {
                    let members = self.merge_if_needed(state, site, &found);
                    let within = members_in_bounds(state, &members, p, len);
                    if solver.must_be_true(state, &within, "resolve")? {
                        self.counters(state).context_resolutions += 1;
                        return Ok(members);
                    }
                }
                self.counters(state).context_fallbacks += 1;
            }
        }
        candidates(solver, state, p, len, max)
    }

    /// Records the contexts of the objects resolved at `site`.
    fn record(&mut self, state: &State, site: Site, objects: &[u64]) {
        if self.config.context().is_none() {
            return;
        }
        for address in objects {
            let Some(entry) = state.memory.get_by_base(*address) else {
                continue;
            };
            if let Some(c) = self.contexts.get(&entry.object.id) {
                self.seen_at.entry(site).or_default().insert(c.clone());
            }
        }
    }

    /// The members after merging `objects` (and every object sharing a segment with one of
    /// them) into one segment, unless they are one segment's members already. Objects with
    /// concrete bases, or split ones, cannot move: then nothing is merged.
    fn merge_if_needed(&mut self, state: &mut State, site: Site, objects: &[u64]) -> Vec<u64> {
        let mut standalone: Vec<u64> = Vec::new();
        let mut segments: FxHashSet<SegmentId> = FxHashSet::default();
        for address in objects {
            let Some(entry) = state.memory.get_by_base(*address) else {
                return objects.to_vec();
            };
            if entry.object.base.is_none() {
                return objects.to_vec();
            }
            match &entry.storage {
                Storage::Own(_) => standalone.push(*address),
                Storage::Chunks(chunks) if chunks.len() == 1 => {
                    segments.insert(chunks[0].segment);
                }
                Storage::Chunks(_) => return objects.to_vec(),
            }
        }
        // Every member of the segments involved moves (or stays) together.
        let mut group: Vec<u64> = state
            .memory
            .iter()
            .filter(|e| match &e.storage {
                Storage::Chunks(c) => c.len() == 1 && segments.contains(&c[0].segment),
                Storage::Own(_) => false,
            })
            .map(|e| e.object.address)
            .collect();
        if standalone.is_empty() && segments.len() == 1 {
            return group;
        }
        group.extend(standalone);
        group.sort_unstable();
        group.dedup();
        if group.len() < 2 {
            return group;
        }
        self.merge(state, site, &group)
    }

    /// Moves `group` (objects with symbolic bases, by address) into one fresh segment and
    /// returns their new addresses.
    fn merge(&mut self, state: &mut State, site: Site, group: &[u64]) -> Vec<u64> {
        let objects: Vec<Arc<MemoryObject>> = group
            .iter()
            .map(|a| state.memory.get_by_base(*a).expect("member").object.clone())
            .collect();
        let mut offsets = Vec::with_capacity(objects.len());
        let mut total = 0u64;
        for o in &objects {
            offsets.push(total);
            total += o.size + INTERNAL_RED_ZONE;
        }
        let ids: Vec<ObjectId> = objects.iter().map(|o| o.id).collect();
        let key = (site, ids);
        let reused = self
            .config
            .reuse_segments
            .then(|| self.reuse.get(&key).cloned())
            .flatten()
            .filter(|r| !state.memory.overlaps(r.address, total));
        let (address, segment_id, root) = match reused {
            Some(r) => {
                self.counters(state).segments_reused += 1;
                (r.address, r.segment, r.root)
            }
            None => {
                let request = AllocRequest::new(
                    total,
                    ObjectKind::Heap,
                    "segment",
                    super::request::Init::Zero,
                );
                (bump(state, &request), self.fresh_segment_id(), None)
            }
        };
        let mut segment = Segment::zeroed(segment_id, total as usize);
        for (o, at) in objects.iter().zip(&offsets) {
            let entry = state.memory.get_by_base(o.address).expect("member");
            for j in 0..o.size {
                let (source, k) = state.memory.segment_of(entry, j, 1).expect("member byte");
                let k = k as usize;
                match source.concrete_byte(k) {
                    Some(b) => segment.write_concrete_byte((at + j) as usize, b),
                    None => {
                        segment.write_byte((at + j) as usize, source.read_byte(k, ReadPolicy::Fold))
                    }
                }
            }
        }
        if self.config.reuse_segments {
            // The same objects merged here with the same bytes share one array.
            let root = match (root, segment.concrete_bytes()) {
                (Some(r), Some(bytes)) if r.contents() == Some(&bytes[..]) => Some(r),
                (_, Some(bytes)) => Some(Array::new(
                    format!("seg{}", segment_id.0),
                    total,
                    ArrayKind::MemoryObject,
                    Some(Arc::from(bytes.into_boxed_slice())),
                )),
                _ => None,
            };
            if let Some(r) = &root {
                segment.preset_root(r.clone());
            }
            self.reuse.insert(
                key,
                Reused {
                    address,
                    segment: segment_id,
                    root,
                },
            );
        }
        let base = self.fresh_base(state, address, total);
        state.memory.add_segment(segment);
        let mut moved = Vec::with_capacity(objects.len());
        for (o, at) in objects.iter().zip(&offsets) {
            state.memory.take(o.address);
            let mut object = (**o).clone();
            object.address = address + at;
            let beta = o.base.clone().expect("a symbolic base");
            let array = base_array(&beta);
            state.addresses.bind(
                array,
                Expr::add(base.clone(), Expr::constant(*at as u128, 64)),
            );
            let chunk = Chunk {
                start: 0,
                len: o.size,
                segment: segment_id,
                at: *at,
            };
            state.memory.insert_in_chunks(Arc::new(object), vec![chunk]);
            moved.push(address + at);
        }
        let counters = self.counters(state);
        counters.objects_merged += objects.len() as u64;
        counters.segments_created += 1;
        counters.largest_segment = counters.largest_segment.max(total);
        moved
    }

    /// Splits the object at `address` into chunks when it qualifies (a symbolic base, larger
    /// than the threshold, and no access of `len` bytes at `p` inside it can cross a chunk
    /// boundary); returns whether it is split (now or before).
    fn split_if_large(
        &mut self,
        solver: &mut SolverView,
        state: &mut State,
        address: u64,
        p: &Expr,
        len: u64,
    ) -> Exec<bool> {
        let Some(split) = self.config.split() else {
            return Ok(false);
        };
        let Some(entry) = state.memory.get_by_base(address) else {
            return Ok(false);
        };
        match &entry.storage {
            Storage::Chunks(chunks) => return Ok(chunks.len() > 1),
            Storage::Own(_) => {}
        }
        let object = entry.object.clone();
        if object.base.is_none() || object.size <= split.threshold || len > split.partition {
            return Ok(false);
        }
        let offset = Expr::sub(p.clone(), object.base_expr());
        let in_chunk = Expr::urem(offset, Expr::constant(split.partition as u128, 64));
        let crosses = Expr::and(
            object_in_bounds(state, address, p, len),
            Expr::ult(
                Expr::constant((split.partition - len) as u128, 64),
                in_chunk,
            ),
        );
        if solver.may_be_true(state, &crosses, "split")? {
            return Ok(false);
        }
        let entry = state.memory.get_by_base(address).expect("live object");
        let mut chunks = Vec::new();
        let mut start = 0;
        while start < object.size {
            let len = split.partition.min(object.size - start);
            let id = self.fresh_segment_id();
            let mut segment = Segment::zeroed(id, len as usize);
            for j in 0..len {
                let (source, k) = state
                    .memory
                    .segment_of(entry, start + j, 1)
                    .expect("object byte");
                let k = k as usize;
                match source.concrete_byte(k) {
                    Some(b) => segment.write_concrete_byte(j as usize, b),
                    None => segment.write_byte(j as usize, source.read_byte(k, ReadPolicy::Fold)),
                }
            }
            chunks.push((
                Chunk {
                    start,
                    len,
                    segment: id,
                    at: 0,
                },
                segment,
            ));
            start += len;
        }
        let entry = state.memory.take(address).expect("live object");
        let mut list = Vec::with_capacity(chunks.len());
        for (chunk, segment) in chunks {
            state.memory.add_segment(segment);
            list.push(chunk);
        }
        let counters = self.counters(state);
        counters.splits += 1;
        counters.chunks += list.len() as u64;
        counters.largest_split_object = counters.largest_split_object.max(object.size);
        state.memory.insert_in_chunks(entry.object, list);
        Ok(true)
    }

    /// The hits of an access into the (split) object at `address`: the chunks it may touch.
    fn chunk_hits(
        &self,
        solver: &mut SolverView,
        state: &State,
        address: u64,
        p: &Expr,
        len: u64,
    ) -> Exec<Vec<Hit>> {
        let entry = state.memory.get_by_base(address).expect("split object");
        let Storage::Chunks(chunks) = &entry.storage else {
            return Ok(vec![Hit::object(address)]);
        };
        let base = entry.object.base_expr();
        let mut hits = Vec::new();
        for (k, c) in chunks.iter().enumerate() {
            let start = Expr::add(base.clone(), Expr::constant(c.start as u128, 64));
            let cond = in_bounds(p, &start, &Expr::constant(c.len as u128, 64), len);
            if solver.may_be_true(state, &cond, "resolve")? {
                hits.push(Hit {
                    address,
                    chunk: Some(k),
                });
            }
        }
        // No chunk at all: the access cannot be inside this object.
        Ok(hits)
    }
}

/// The array of a symbolic base.
fn base_array(beta: &Expr) -> ArrayRef {
    sear_expr::visit::collect_arrays([beta])
        .into_iter()
        .find(|a| a.kind() == ArrayKind::SymbolicAddress)
        .expect("a symbolic base reads its array")
}

/// The disjunction of the in-bounds conditions of `members`.
fn members_in_bounds(state: &State, members: &[u64], p: &Expr, len: u64) -> Expr {
    Expr::or_all(members.iter().map(|a| object_in_bounds(state, *a, p, len)))
}

impl MemoryModel for RelocatableModel {
    fn name(&self) -> &'static str {
        "relocatable"
    }

    fn place(&mut self, state: &mut State, request: &AllocRequest, id: ObjectId) -> Placement {
        let address = bump(state, request);
        let symbolic = match request.kind {
            ObjectKind::Heap => true,
            ObjectKind::Stack => self.config.stack,
            ObjectKind::Global | ObjectKind::Environment => false,
        };
        if !symbolic {
            return Placement {
                address,
                base: None,
            };
        }
        if self.config.context().is_some() {
            let context = self.context_of(state);
            self.contexts.insert(id, context);
        }
        self.counters(state).symbolic_bases += 1;
        Placement {
            address,
            base: Some(self.fresh_base(state, address, request.size)),
        }
    }

    fn candidates(
        &mut self,
        solver: &mut SolverView,
        state: &State,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Vec<u64>> {
        candidates(solver, state, p, len, max)
    }

    fn resolve(
        &mut self,
        solver: &mut SolverView,
        state: &mut State,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Resolution> {
        self.counters(state).resolutions += 1;
        let queries_before = solver.queries;
        let resolution = self.resolve_counted(solver, state, p, len, max);
        self.counters(state).resolution_queries += solver.queries - queries_before;
        resolution
    }

    fn stats(&self) -> serde_json::Value {
        serde_json::to_value(&self.stats).unwrap_or_default()
    }
}

impl RelocatableModel {
    fn resolve_counted(
        &mut self,
        solver: &mut SolverView,
        state: &mut State,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Resolution> {
        let frame = state.frame();
        let site = (frame.func.0, frame.block.0, state.current_inst);
        let objects = match derived_object(state, p) {
            Some(address) => vec![address],
            None => self.find(solver, state, site, p, len, max)?,
        };
        self.record(state, site, &objects);
        if objects.len() > 1 && self.config.merge_objects {
            let members = self.merge_if_needed(state, site, &objects);
            let merged = members.len() > 1
                && members.iter().all(|a| {
                    state
                        .memory
                        .get_by_base(*a)
                        .is_some_and(|e| matches!(&e.storage, Storage::Chunks(c) if c.len() == 1))
                });
            if merged {
                let within =
                    solver.opt_condition(state, members_in_bounds(state, &members, p, len))?;
                let none = Expr::not(within.clone());
                let may_be_out = solver.may_be_true(state, &none, "resolve")?;
                return Ok(Resolution::Segment {
                    members,
                    within,
                    out_of_bounds: may_be_out.then_some(none),
                });
            }
        }
        let mut hits = Vec::new();
        for address in objects {
            if self.split_if_large(solver, state, address, p, len)? {
                hits.extend(self.chunk_hits(solver, state, address, p, len)?);
            } else {
                hits.push(Hit::object(address));
            }
        }
        fork_over(solver, state, p, len, hits)
    }
}
