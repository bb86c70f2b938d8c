//! Execution states: one path through the program.

use sear_expr::{ArrayRef, Expr};
use sear_ir::{BlockId, FuncId, Slot};
use sear_solver::address::AddressBindings;
use sear_solver::PathCondition;

use crate::memory::{AddressSpace, Allocator, ObjectId};
use crate::value::Value;

/// Identifies a state within a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub u64);

/// One activation record.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The executing function.
    pub func: FuncId,
    /// The current block.
    pub block: BlockId,
    /// Index of the next instruction in the block (`insts.len()` = the terminator).
    pub inst: usize,
    /// The block we came from (for phis).
    pub prev_block: Option<BlockId>,
    /// Value slots (registers), shared with forked states until written.
    pub locals: crate::locals::Locals,
    /// Pointers to this frame's allocas (as the program holds them), freed on return;
    /// shared with forked states until one pushes.
    pub allocas: std::rc::Rc<Vec<Value>>,
    /// Pointer to the varargs area, if the function is variadic.
    pub varargs: Option<Value>,
    /// The caller's slot receiving the return value.
    pub ret_dest: Option<Slot>,
    /// The width of the scalar the caller expects back, when it differs from what the
    /// callee returns (a call through a mismatched function type).
    pub ret_width: Option<u32>,
}

/// A symbolic object to report in the test case.
#[derive(Clone, Debug)]
pub struct Symbolic {
    /// The object made symbolic (`klee_make_symbolic`); `None` for a symbolic value that is
    /// not in memory (`klee_int`, `__VERIFIER_nondet_*`).
    pub object: Option<ObjectId>,
    /// The array holding its bytes.
    pub array: ArrayRef,
    /// The name written to the `.ktest` file.
    pub name: String,
    /// The symbolic size σ of the object (its capacity is the array's size): the test holds
    /// σ's value of bytes.
    pub size: Option<Expr>,
    /// For a symbolic index (Indexify): the test holds δ⁻¹ of the index's value.
    pub deindex: Option<Deindex>,
    /// The input belongs to the path only where this holds: an input that one side of a
    /// merged loop iteration read (`--merge-loop-iterations`), guarded by that side's
    /// condition. A test leaves it out where its model makes the guard false, so that the
    /// test's objects are the inputs its side read, in order. `None`: always.
    pub guard: Option<Expr>,
}

/// How a symbolic index becomes test bytes: the value of the index in the garden of `ty`,
/// as `size` bytes (a string NUL-padded, a float's bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deindex {
    /// The indexed type.
    pub ty: sear_indexify::Ty,
    /// Bytes of the object in the original program.
    pub size: u64,
}

/// A path: stack, memory, path condition and bookkeeping.
#[derive(Clone, Debug)]
pub struct State {
    /// Identity.
    pub id: StateId,
    /// The call stack (innermost last).
    pub stack: Vec<Frame>,
    /// Memory.
    pub memory: AddressSpace,
    /// Address constraints: symbolic bases bound to addresses (none in the standard model).
    pub addresses: AddressBindings,
    /// Bump allocator for heap objects.
    pub heap: Allocator,
    /// Bump allocator for stack objects.
    pub stack_alloc: Allocator,
    /// Bump allocator for globals.
    pub global_alloc: Allocator,
    /// The path condition: a conjunction of boolean expressions.
    /// Persistent (O(1) to copy at a fork) and indexed by independent factors, so that a
    /// query's relevant constraints are found without a scan
    /// ([`sear_solver::PathCondition`]).
    pub constraints: PathCondition,
    /// Symbolic objects, in creation order (persistent: O(1) to copy at a fork).
    pub symbolics: imbl::Vector<Symbolic>,
    /// Number of symbolic branches taken.
    pub depth: u32,
    /// The branch decisions of this path from the initial state (the fork point's record).
    pub path: crate::path::PathRecord,
    /// The recorded path this state follows, while it does (`--replay-path`, a prefix).
    pub follow: Option<crate::path::Follow>,
    /// Instructions executed on this path.
    pub instructions: u64,
    /// Instructions since this path last covered a new instruction.
    pub insts_since_cov_new: u64,
    /// True if this path covered a new instruction.
    pub covered_new: bool,
    /// Node of this state in the process tree.
    pub ptree_node: usize,
    /// Values preferred for the test case (`klee_prefer_cex`).
    pub cex_preferences: Vec<Expr>,
    /// Rolling hash of the executed instruction trace (for trace-equivalence checks).
    pub trace_hash: u64,
    /// Counter for naming arrays created on this path.
    pub array_counter: u32,
    /// Set by `klee_set_forking(0)`: a two-way branch whose both sides are feasible
    /// follows one of them, chosen at random, instead of forking (as KLEE).
    pub forking_disabled: bool,
    /// Seconds this path (and its ancestors) spent in the solver, for `nurs:qc`.
    pub query_cost: std::cell::Cell<f64>,
    /// Index in the current block of the instruction being executed (the block's
    /// instruction count for its terminator).
    pub current_inst: usize,
    /// Bytes of `alloca`s live on the call stack (checked against `--max-stack-size`).
    pub stack_bytes: u64,
    /// The merge groups (`klee_open_merge`) this path is inside, innermost last.
    pub open_merges: Vec<u32>,
    /// What the path wrote to stdout and stderr (through `__sear_write`).
    pub output: crate::program_output::ProgramOutput,
    /// The input bytes symbolic allocation sizes read (seed 003 Ch. 5).
    pub taint: crate::sym_size::taint::Taint,
    /// The merging context of a size-dependent loop this path is in, and its leaf of the
    /// context's execution tree (`--sym-size-mode=sm|smopt`).
    pub loop_member: Option<crate::loop_merge::Member>,
    /// The seeds this path follows (`--seed-file`, `--seed-dir`): each one's bytes satisfy
    /// the path condition (shared between copies until one changes them).
    pub seeds: std::sync::Arc<Vec<crate::seed::StateSeed>>,
    /// A side of a seeded fork that no seed took: its condition is not yet in the path
    /// condition, and its feasibility is asked when the searcher first picks the state.
    pub deferred: Option<Box<Deferred>>,
    /// The bytes of a seed this path's ancestors followed: they decide the constraints the
    /// seed satisfies when the path's test is solved for (the seed's side of a hash check).
    pub seed_hint: Option<std::sync::Arc<sear_expr::Assignment>>,
    /// A seed fixed a value on this path that a fork decision does not record (a
    /// concretisation took the seed's value, not the solver's): a re-execution along the
    /// path record without the seeds would not repeat it, so the path is no prefix to give
    /// another worker (`executor/worker.rs`).
    pub seed_fixed: bool,
    /// The allocation family of heap objects made by `operator new`/`new[]` (by object id;
    /// objects from `malloc` are not recorded).
    pub alloc_families: imbl::HashMap<crate::memory::ObjectId, AllocFamily>,
    /// The exception object and selector the next `landingpad` yields (set by the
    /// unwinder when it enters a landing pad).
    pub eh_landing: Option<(u64, u32)>,
    /// The floating-point rounding mode (`fesetround`; to nearest even at the start): the
    /// mode of every `float`/`double` operation that rounds (executor/fenv.rs).
    pub rounding: sear_expr::fp::RoundMode,
}

/// A fork's side whose feasibility has not been asked (seeding's deferred sides).
#[derive(Clone, Debug)]
pub struct Deferred {
    /// The side's condition.
    pub cond: Expr,
    /// How the path ends once found feasible (a check's failing side), if it ends there.
    pub end: Option<crate::termination::Termination>,
}

impl State {
    /// True while the state re-executes a prefix another worker explored (a parallel
    /// worker's rebuilding, before the last recorded decision): what the program prints there
    /// was printed when the prefix was first explored.
    pub fn rebuilding(&self) -> bool {
        self.follow
            .as_ref()
            .is_some_and(|f| !f.exact && !f.ended(self.path.len()))
    }

    /// The innermost frame.
    #[inline]
    pub fn frame(&self) -> &Frame {
        self.stack.last().expect("non-empty stack")
    }

    /// The innermost frame, mutably.
    #[inline]
    pub fn frame_mut(&mut self) -> &mut Frame {
        self.stack.last_mut().expect("non-empty stack")
    }

    /// `v` with the state's address constraints substituted, when that makes it constant
    /// (a pointer into an object with a symbolic base, or an address computation over such
    /// pointers); otherwise `v` itself. Free without address constraints.
    #[inline]
    pub fn settle(&self, v: &Value) -> Value {
        match v {
            Value::Symbolic(e) if !self.addresses.is_empty() => match self.addresses.concrete(e) {
                Some(c) => Value::Concrete(c, e.width()),
                None => v.clone(),
            },
            _ => v.clone(),
        }
    }

    /// The concrete address a pointer value stands for: the value itself, or a symbolic
    /// base with its address constraints substituted (`None` when that is not constant).
    pub fn address_of(&self, pointer: &Value) -> Option<u64> {
        match pointer {
            Value::Concrete(a, _) => Some(*a as u64),
            Value::Symbolic(e) => self
                .addresses
                .concrete(e)
                .or_else(|| self.addresses.substitute(e).as_constant())
                .map(|a| a as u64),
            Value::Aggregate(_) => None,
        }
    }

    /// Adds a constraint to the path condition (trivially true constraints are dropped;
    /// conjunctions are split, see [`conjuncts`]).
    pub fn add_constraint(&mut self, c: Expr) {
        debug_assert!(c.is_bool());
        if c.is_true() {
            return;
        }
        // Stored as the terms the path already fixed make it (KLEE's `addConstraint`): the
        // same condition in every model of the path, in the words later queries use.
        let c = self.constraints.simplify(&c);
        let parts = conjuncts(&c);
        self.constraints.extend(parts);
    }
}

/// The constraints a path condition stores for `c`: its conjuncts (an `And` split into its
/// sides, and `¬(a ∨ b)` into `¬a` and `¬b`, nested to any depth:
/// [`sear_expr::junctions::conjuncts`]), without trivially true ones. `¬(a ∨ b)` matters for
/// a comparison of a flag a merged loop cleared (`sear_expr::ite_compare`): it is
/// `¬(¬e1 ∨ … ∨ ¬en)`, each `e_i` a fact of the path.
pub fn conjuncts(c: &Expr) -> Vec<Expr> {
    let mut parts = sear_expr::junctions::conjuncts(c);
    parts.retain(|p| !p.is_true());
    parts
}

/// Which allocation function made a heap object (objects from `malloc` and friends are
/// not recorded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AllocFamily {
    /// `malloc`, `calloc`, `realloc`, `aligned_alloc`, ...
    Malloc,
    /// `operator new`.
    New,
    /// `operator new[]`.
    NewArray,
}
