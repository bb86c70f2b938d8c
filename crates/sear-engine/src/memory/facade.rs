//! [`Memory`]: the memory API the executor uses, over the run's memory model.
//!
//! Allocation (every object is made here: globals, stack, heap, environment, fixed
//! addresses), resolution of symbolic pointers (delegated to the model), frees with their
//! checks, and the classification of bad pointers. Reads and writes at a resolved
//! [`Target`] go through the state's [`AddressSpace`](super::AddressSpace) and its
//! segments.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use sear_expr::Expr;

use super::allocator::NULL_PAGE;
use super::model::{MemoryModel, Resolution};
use super::request::{AllocRequest, Init};
use super::segment::{Segment, SegmentId};
use super::{Lookup, MemoryObject, ObjectId, ObjectKind};
use crate::solver_view::SolverView;
use crate::state::State;
use crate::termination::Exec;
use crate::termination::{ErrorKind, Termination};

/// Where inside an object an access lands.
#[derive(Clone, Debug)]
pub enum Offset {
    /// A constant byte offset.
    Concrete(u64),
    /// A symbolic 32-bit byte offset, in bounds under the path condition.
    Symbolic(Expr),
}

/// A resolved access: the object (by its concrete address) and the offset in it.
#[derive(Clone, Debug)]
pub struct Target {
    /// The object's concrete address.
    pub address: u64,
    /// The offset of the access in the object.
    pub offset: Offset,
    /// For a symbolic offset into an object stored in several chunks (a split object): the
    /// chunk the access stays in.
    pub chunk: Option<usize>,
}

impl Target {
    /// The target `delta` bytes further.
    pub fn shifted(&self, delta: u64) -> Target {
        Target {
            address: self.address,
            chunk: self.chunk,
            offset: match &self.offset {
                Offset::Concrete(o) => Offset::Concrete(o + delta),
                Offset::Symbolic(e) => {
                    let s = Expr::add(Expr::constant(delta as u128, 32), e.clone());
                    match s.as_constant() {
                        Some(c) => Offset::Concrete(c as u64),
                        None => Offset::Symbolic(s),
                    }
                }
            },
        }
    }
}

/// A memory error (`ptr` kind) with KLEE's wording.
pub fn ptr_error(message: &str) -> Termination {
    Termination::error(ErrorKind::Ptr, format!("memory error: {message}"))
}

/// The error for a write into a read-only object.
pub fn read_only_error() -> Termination {
    Termination::error(
        ErrorKind::Custom("read_only".into()),
        "memory error: object read only",
    )
}

/// The pointer error for an access at `address`, which no live object holds: use after
/// free, null page, or out of bounds.
pub fn bad_pointer(state: &State, address: u64) -> Termination {
    match state.memory.lookup(address) {
        Lookup::Freed(_) => ptr_error("use after free"),
        _ if address < NULL_PAGE => ptr_error("null page access"),
        _ => ptr_error("out of bound pointer"),
    }
}

/// The run's memory: the model, object identities and array names.
pub struct Memory {
    model: Box<dyn MemoryModel>,
    next_object: u64,
    /// Objects a symbolic pointer may resolve to before sear gives up (`--max-resolutions`).
    pub max_resolutions: usize,
    array_names: FxHashMap<String, u32>,
    /// The largest array (bytes) a symbolic-offset access used, for `summary.json`.
    largest_symbolic_array: u64,
}

impl Memory {
    /// Memory over `model`.
    pub fn new(model: Box<dyn MemoryModel>, max_resolutions: usize) -> Self {
        Memory {
            model,
            next_object: 1,
            max_resolutions,
            array_names: FxHashMap::default(),
            largest_symbolic_array: 0,
        }
    }

    /// The model's name.
    pub fn model_name(&self) -> &'static str {
        self.model.name()
    }

    /// The `memory` section of `summary.json`: the model and its statistics.
    pub fn summary(&self) -> serde_json::Value {
        serde_json::json!({
            "model": self.model.name(),
            "stats": self.model.stats(),
            "largest_symbolic_array": self.largest_symbolic_array,
        })
    }

    /// Records a symbolic-offset access into an array of `bytes` bytes.
    pub fn note_symbolic_array(&mut self, bytes: u64) {
        self.largest_symbolic_array = self.largest_symbolic_array.max(bytes);
    }

    /// Creates an object in `state` as `request` says and returns it. A fixed address must
    /// be free (the caller checks).
    pub fn alloc(&mut self, state: &mut State, request: AllocRequest) -> Arc<MemoryObject> {
        let id = ObjectId(self.next_object);
        self.next_object += 1;
        let placement = match request.fixed_address {
            Some(address) => super::model::Placement {
                address,
                base: None,
            },
            None => self.model.place(state, &request, id),
        };
        let object = Arc::new(MemoryObject {
            id,
            address: placement.address,
            size: request.size,
            base: placement.base,
            symbolic_size: request.symbolic_size,
            kind: request.kind,
            name: request.name,
            alloc_site: request.site,
            read_only: request.read_only,
        });
        let segment_id = SegmentId(id.0);
        let size = request.size as usize;
        let segment = match request.init {
            Init::Zero => Segment::zeroed(segment_id, size),
            Init::Garbage => Segment::filled(segment_id, size, 0xAB),
            Init::Bytes(bytes) => Segment::from_bytes(segment_id, &bytes),
        };
        state.memory.insert(object.clone(), segment);
        object
    }

    /// The objects an access of `len` bytes at the symbolic pointer `p` may hit.
    pub fn resolve(
        &mut self,
        solver: &mut SolverView,
        state: &mut State,
        p: &Expr,
        len: u64,
    ) -> Exec<Resolution> {
        let max = self.max_resolutions;
        // Resolution's queries depend on where objects are (spec 003 §3.3): tagged
        // engine-internal, so the address-aware cache never answers them.
        solver.internally(|solver| self.model.resolve(solver, state, p, len, max))
    }

    /// The live objects an access of `len` bytes at the symbolic pointer `p` may hit (the
    /// model's scan, without conditions).
    pub fn candidates(
        &mut self,
        solver: &mut SolverView,
        state: &State,
        p: &Expr,
        len: u64,
    ) -> Exec<Vec<u64>> {
        let max = self.max_resolutions;
        solver.internally(|solver| self.model.candidates(solver, state, p, len, max))
    }

    /// Frees the object based at `address` (NULL is a no-op), with KLEE's checks: only heap
    /// objects can be freed.
    pub fn free(&mut self, state: &mut State, address: u64) -> Exec<()> {
        if address == 0 {
            return Ok(());
        }
        let kind = state.memory.get_by_base(address).map(|e| e.object.kind);
        match kind {
            Some(ObjectKind::Heap) => {
                state.memory.free(address);
                Ok(())
            }
            Some(ObjectKind::Stack) => Err(Termination::error(ErrorKind::Free, "free of alloca")),
            // argv and its strings (engine-made) are globals for KLEE too
            Some(ObjectKind::Global | ObjectKind::Environment) => {
                Err(Termination::error(ErrorKind::Free, "free of global"))
            }
            None => Err(bad_free(state, address)),
        }
    }

    /// A name for a new array, unique within the run.
    pub fn unique_array_name(&mut self, base: &str) -> String {
        let clean: String = base
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let clean = if clean.is_empty() {
            "unnamed".to_string()
        } else {
            clean
        };
        let n = self.array_names.entry(clean.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            clean
        } else {
            format!("{}_{}", clean, *n - 1)
        }
    }
}

/// The error of freeing `address`, which is no live object's base: a double free when a
/// freed object was based there, an invalid free otherwise; both `ptr` errors, as in KLEE
/// (`free of alloca` and `free of global` are `free` errors).
pub fn bad_free(state: &State, address: u64) -> Termination {
    if state.memory.freed_by_base(address).is_some() {
        Termination::error(ErrorKind::Ptr, "memory error: double free")
    } else {
        Termination::error(ErrorKind::Ptr, "memory error: invalid pointer: free")
    }
}
