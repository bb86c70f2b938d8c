//! The memory-model interface and KLEE's standard model.
//!
//! A memory model decides two things: where a new object is placed (its concrete address
//! and the base the program sees), and which objects a symbolic pointer may point into,
//! under which conditions ([`Resolution`]). Everything else (storage, flushing, checks,
//! forking) is shared machinery: the [`super::Memory`] facade and the executor's fork point.
//! The research memory models (relocatable addresses, symbolic-size objects) implement this
//! trait; `--memory-model` chooses one.

use sear_expr::Expr;

use super::request::AllocRequest;
use super::{Lookup, ObjectId, ObjectKind};
use crate::solver_view::SolverView;
use crate::state::State;
use crate::termination::Exec;

/// Where a new object goes.
#[derive(Clone, Debug)]
pub struct Placement {
    /// Its concrete address in the state's address space.
    pub address: u64,
    /// The symbolic base the program sees, when it is not the constant `address` (the
    /// standard model never makes one).
    pub base: Option<Expr>,
}

/// An object an access may hit: by concrete address, and, for an object split into
/// chunks, the chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The object's concrete address.
    pub address: u64,
    /// The chunk of a split object the access stays in.
    pub chunk: Option<usize>,
}

impl Hit {
    /// The whole object at `address`.
    pub fn object(address: u64) -> Hit {
        Hit {
            address,
            chunk: None,
        }
    }
}

/// Which objects an access at a symbolic pointer hits.
#[derive(Clone, Debug)]
pub enum Resolution {
    /// This object, on every path of the state: nothing is added to the path condition.
    Single(Hit),
    /// One path per object, each under its condition (the first stays with the current
    /// state), and, when the access may hit no object, an error path under `out_of_bounds`.
    Fork {
        /// `(condition, hit)`, most likely first.
        targets: Vec<(Expr, Hit)>,
        /// The condition under which the access hits none of them.
        out_of_bounds: Option<Expr>,
    },
    /// Objects sharing one segment (merged by the model), accessed as one: a single path
    /// under `within` (the access stays inside one of them), and an error path under
    /// `out_of_bounds`. The access goes through the first member.
    Segment {
        /// The members the access may hit, by concrete address.
        members: Vec<u64>,
        /// The disjunction of their in-bounds conditions.
        within: Expr,
        /// The condition under which the access hits none of them.
        out_of_bounds: Option<Expr>,
    },
    /// No object: the pointer is invalid wherever the path goes.
    Invalid,
}

/// Where objects go and which objects a pointer may reach.
pub trait MemoryModel {
    /// The model's name (`--memory-model`, statistics, messages).
    fn name(&self) -> &'static str;
    /// Places the new object `id` of `request.size` bytes (not for fixed addresses).
    fn place(&mut self, state: &mut State, request: &AllocRequest, id: ObjectId) -> Placement;
    /// The model's statistics for `summary.json`.
    fn stats(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// The live objects an access of `len` bytes at the symbolic pointer `p` may hit, by
    /// concrete address, at most `max`, the most likely first.
    fn candidates(
        &mut self,
        solver: &mut SolverView,
        state: &State,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Vec<u64>>;
    /// Resolves an access of `len` bytes at the symbolic pointer `p` (64 bits), looking at
    /// most at `max` objects. A model may rearrange the state's memory to do so (merge
    /// objects into a segment, split an object), never changing what the program sees.
    fn resolve(
        &mut self,
        solver: &mut SolverView,
        state: &mut State,
        p: &Expr,
        len: u64,
        max: usize,
    ) -> Exec<Resolution>;
}

/// `base <= p` and `p + len <= base + size`, as unsigned comparisons on `p - base` (64-bit
/// expressions; constants fold).
pub fn in_bounds(p: &Expr, base: &Expr, size: &Expr, len: u64) -> Expr {
    let len = Expr::constant(len as u128, 64);
    let offset = Expr::sub(p.clone(), base.clone());
    let fits = Expr::ule(len.clone(), size.clone());
    Expr::and(fits, Expr::ule(offset, Expr::sub(size.clone(), len)))
}

/// The in-bounds condition of an access of `len` bytes at `p` into the object at `address`.
pub(crate) fn object_in_bounds(state: &State, address: u64, p: &Expr, len: u64) -> Expr {
    let entry = state.memory.get_by_base(address).expect("candidate object");
    let o = &entry.object;
    in_bounds(p, &o.base_expr(), &o.size_expr(), len)
}

/// A concrete address for `request` from the state's bump allocator for its kind.
pub(crate) fn bump(state: &mut State, request: &AllocRequest) -> u64 {
    let allocator = match request.kind {
        ObjectKind::Stack => &mut state.stack_alloc,
        ObjectKind::Global => &mut state.global_alloc,
        _ => &mut state.heap,
    };
    allocator.allocate(request.size, request.align)
}

/// KLEE's standard model: concrete addresses from the state's deterministic bump
/// allocators, and resolution by searching outward from one feasible value of the pointer
/// (KLEE's `AddressSpace::resolve`).
#[derive(Debug, Default)]
pub struct StandardModel {
    stats: ResolutionStats,
}

/// How the standard model's resolutions of symbolic pointers went (`summary.json`'s
/// `memory.stats`).
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct ResolutionStats {
    /// Accesses through a symbolic pointer resolved.
    pub resolutions: u64,
    /// Of them, pointers whose every value lies in one object with the access after it, by
    /// the pointer's interval (no query).
    pub by_interval: u64,
    /// Of them, pointers built as an object's address plus an offset (no search).
    pub derived: u64,
    /// Of them, pointers that must be inside the object of one feasible value (KLEE's
    /// `resolveOne`: two queries).
    pub single: u64,
    /// Of them, searches outward from that value.
    pub searched: u64,
    /// Objects the searches found.
    pub searched_objects: u64,
}

impl MemoryModel for StandardModel {
    fn name(&self) -> &'static str {
        "standard"
    }

    fn place(&mut self, state: &mut State, request: &AllocRequest, _id: ObjectId) -> Placement {
        Placement {
            address: bump(state, request),
            base: None,
        }
    }

    fn stats(&self) -> serde_json::Value {
        serde_json::to_value(&self.stats).unwrap_or_default()
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
        self.stats.resolutions += 1;
        if let Some(address) = contained_by_interval(state, p, len) {
            self.stats.by_interval += 1;
            return Ok(Resolution::Single(Hit::object(address)));
        }
        let candidates = match derived_object(state, p) {
            Some(address) => {
                self.stats.derived += 1;
                vec![address]
            }
            None => match search(solver, state, p, len, max)? {
                Found::Only(address) => {
                    // `p` must be inside it: `fork_over`'s out-of-bounds query would be
                    // the negation of the one just answered.
                    self.stats.single += 1;
                    return Ok(Resolution::Single(Hit::object(address)));
                }
                Found::Some(found) => {
                    self.stats.searched += 1;
                    self.stats.searched_objects += found.len() as u64;
                    found
                }
            },
        };
        let hits = candidates.into_iter().map(Hit::object).collect();
        fork_over(solver, state, p, len, hits)
    }
}

/// The resolution of an access of `len` bytes at `p` that may hit `hits` (each object, or
/// each chunk of a split object): one path per hit under its in-bounds condition, and an
/// error path where it hits none; a single hit that must be hit adds nothing.
pub(crate) fn fork_over(
    solver: &mut SolverView,
    state: &State,
    p: &Expr,
    len: u64,
    hits: Vec<Hit>,
) -> Exec<Resolution> {
    if hits.is_empty() {
        return Ok(Resolution::Invalid);
    }
    let mut targets = Vec::with_capacity(hits.len());
    for hit in hits {
        let cond = hit_in_bounds(state, hit, p, len);
        targets.push((solver.opt_condition(state, cond)?, hit));
    }
    let none = Expr::and_all(targets.iter().map(|(c, _)| Expr::not(c.clone())));
    let may_be_out = solver.may_be_true(state, &none, "resolve")?;
    if targets.len() == 1 && !may_be_out {
        // The in-bounds condition is implied: it is not added (a loop of accesses would
        // otherwise grow the path condition by one redundant constraint per access).
        return Ok(Resolution::Single(targets[0].1));
    }
    // A single hit that was not found by a feasibility query (the object a pointer was
    // derived from) may be missed by every value of the pointer: then the access is an
    // error on this path, and taking the hit would continue under an unsatisfiable path
    // condition (a merged pointer beyond an object of symbolic size does that).
    if may_be_out && targets.len() == 1 && !solver.may_be_true(state, &targets[0].0, "resolve")? {
        return Ok(Resolution::Invalid);
    }
    Ok(Resolution::Fork {
        targets,
        out_of_bounds: may_be_out.then_some(none),
    })
}

/// The in-bounds condition of an access of `len` bytes at `p` into a hit: the object, or
/// the chunk's range of it.
pub(crate) fn hit_in_bounds(state: &State, hit: Hit, p: &Expr, len: u64) -> Expr {
    let Some(k) = hit.chunk else {
        return object_in_bounds(state, hit.address, p, len);
    };
    let entry = state
        .memory
        .get_by_base(hit.address)
        .expect("candidate object");
    let chunk = match &entry.storage {
        super::Storage::Chunks(chunks) => chunks[k],
        super::Storage::Own(_) => unreachable!("a chunk of an object stored whole"),
    };
    let start = Expr::add(
        entry.object.base_expr(),
        Expr::constant(chunk.start as u128, 64),
    );
    in_bounds(p, &start, &Expr::constant(chunk.len as u128, 64), len)
}

/// The object a symbolic pointer was derived from, when the pointer is an object's base
/// plus a symbolic offset (`&table[x]`, as GEPs build it).
///
/// The resolution's out-of-bounds test is authoritative for that object: an offset beyond
/// it is an out-of-bounds access (as ASan reports natively), never an access to whatever
/// object lies at that address. Pointers without such a base (loaded from memory, selected
/// between objects) are resolved against every object they may point into.
pub(crate) fn derived_object(state: &State, p: &Expr) -> Option<u64> {
    let sear_expr::ExprKind::Binary {
        op: sear_expr::BinOp::Add,
        lhs,
        rhs,
    } = p.kind()
    else {
        return None;
    };
    let base = lhs.as_constant().or_else(|| rhs.as_constant())? as u64;
    match state.memory.lookup(base) {
        Lookup::Live(entry) => Some(entry.object.address),
        _ => None,
    }
}

/// The object that an access of `len` bytes at `p` hits whatever `p`'s value, by `p`'s
/// unsigned interval ([`sear_expr::interval`], read off the syntax): a pointer moved along
/// an array by symbolic steps that cannot leave it (`args + 8·[c₁] + 8·[c₂]` into `argv`)
/// needs no query, where the search asks for a value and then whether `p` must be inside
/// its object. Only objects with a concrete base and size.
fn contained_by_interval(state: &State, p: &Expr, len: u64) -> Option<u64> {
    let i = sear_expr::interval::interval(p);
    let lo = u64::try_from(i.lo).ok()?;
    let hi = u64::try_from(i.hi).ok()?;
    let Lookup::Live(entry) = state.memory.lookup(lo) else {
        return None;
    };
    let o = &entry.object;
    if o.base.is_some() || o.symbolic_size.is_some() {
        return None;
    }
    (o.contains_range(lo, len) && o.contains_range(hi, len)).then_some(o.address)
}

/// The live objects that an access of `len` bytes at `p` may hit, at most `max`, the most
/// likely first: the object holding one feasible value of `p` (alone, when `p` must be in
/// it), then outward from that value until `p` must be above (below) an object.
pub(crate) fn candidates(
    solver: &mut SolverView,
    state: &State,
    p: &Expr,
    len: u64,
    max: usize,
) -> Exec<Vec<u64>> {
    Ok(match search(solver, state, p, len, max)? {
        Found::Only(address) => vec![address],
        Found::Some(found) => found,
    })
}

/// What [`search`] found.
enum Found {
    /// The object `p` must be inside.
    Only(u64),
    /// The objects `p` may be inside (none, one or several), the most likely first.
    Some(Vec<u64>),
}

/// [`candidates`], saying whether the first must be the only one.
fn search(solver: &mut SolverView, state: &State, p: &Expr, len: u64, max: usize) -> Exec<Found> {
    let example = solver.get_value(state, p, "resolve")? as u64;
    if let Lookup::Live(entry) = state.memory.lookup(example) {
        let address = entry.object.address;
        // The common case: the pointer can only be inside this object.
        let inside = object_in_bounds(state, address, p, len);
        if solver.must_be_true(state, &inside, "resolve")? {
            return Ok(Found::Only(address));
        }
    }
    let mut found: Vec<u64> = Vec::new();
    // Downward from the example, until the pointer must be at or above an object's base.
    let below: Vec<(u64, Expr)> = state
        .memory
        .below(example.saturating_add(1))
        .map(|e| (e.object.address, e.object.base_expr()))
        .collect();
    for (address, base) in below {
        if solver.may_be_true(state, &object_in_bounds(state, address, p, len), "resolve")? {
            found.push(address);
            if found.len() >= max {
                return Ok(Found::Some(found));
            }
        }
        let at_or_above_base = Expr::uge(p.clone(), base);
        if solver.must_be_true(state, &at_or_above_base, "resolve")? {
            break;
        }
    }
    // Upward, until the pointer must be below an object's base.
    let above: Vec<(u64, Expr)> = state
        .memory
        .at_or_above(example.saturating_add(1))
        .map(|e| (e.object.address, e.object.base_expr()))
        .collect();
    for (address, base) in above {
        if found.len() >= max {
            break;
        }
        let below_base = Expr::ult(p.clone(), base);
        if solver.must_be_true(state, &below_base, "resolve")? {
            break;
        }
        if solver.may_be_true(state, &object_in_bounds(state, address, p, len), "resolve")? {
            found.push(address);
        }
    }
    Ok(Found::Some(found))
}
