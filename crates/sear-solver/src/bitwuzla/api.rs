//! A thin safe layer over Bitwuzla's C API (`bitwuzla-sys`): a term manager that owns its
//! terms, solver instances with a termination callback, and model values.
//!
//! Bitwuzla reports a misuse of its API (a sort mismatch, a zero width) by printing a message
//! and exiting the process; the constructors here check widths and sorts first (debug
//! assertions: the translator only builds well-sorted terms, as the Z3 translation does).
//! Terms are reference counted by Bitwuzla: the terms a [`TermManager`] hands out stay alive
//! until [`TermManager::release`] or until the manager is dropped, which frees them all.

use std::ffi::{c_void, CStr, CString};
use std::ptr::NonNull;
use std::time::Duration;

use bitwuzla_sys as sys;
use rustc_hash::FxHashMap;

pub use sys::BitwuzlaKind as Kind;

/// A term of a [`TermManager`] (a handle; copying it does not copy the term).
pub type Term = sys::BitwuzlaTerm;
/// A sort of a [`TermManager`].
pub type Sort = sys::BitwuzlaSort;

/// Owns a Bitwuzla term manager: every term and sort it made lives until it is dropped.
pub struct TermManager {
    tm: NonNull<sys::BitwuzlaTermManager>,
    bool_sort: Sort,
    bv_sorts: FxHashMap<u32, Sort>,
    array_sorts: FxHashMap<u32, Sort>,
}

impl Default for TermManager {
    fn default() -> Self {
        Self::new()
    }
}

impl TermManager {
    /// A fresh term manager.
    pub fn new() -> Self {
        // SAFETY: plain constructor; the pointer is owned by the returned value.
        let tm = NonNull::new(unsafe { sys::bitwuzla_term_manager_new() })
            .expect("bitwuzla_term_manager_new returned null");
        // SAFETY: `tm` is live.
        let bool_sort = unsafe { sys::bitwuzla_mk_bool_sort(tm.as_ptr()) };
        TermManager {
            tm,
            bool_sort,
            bv_sorts: FxHashMap::default(),
            array_sorts: FxHashMap::default(),
        }
    }

    fn raw(&self) -> *mut sys::BitwuzlaTermManager {
        self.tm.as_ptr()
    }

    /// The Boolean sort.
    pub fn bool_sort(&self) -> Sort {
        self.bool_sort
    }

    /// The bit-vector sort of `width` (> 0) bits.
    pub fn bv_sort(&mut self, width: u32) -> Sort {
        assert!(width > 0, "a bit-vector sort of width 0");
        let tm = self.raw();
        // SAFETY: `tm` is live and the width positive.
        *self
            .bv_sorts
            .entry(width)
            .or_insert_with(|| unsafe { sys::bitwuzla_mk_bv_sort(tm, width as u64) })
    }

    /// The sort of byte arrays indexed by `index_width`-bit vectors.
    pub fn byte_array_sort(&mut self, index_width: u32) -> Sort {
        if let Some(&s) = self.array_sorts.get(&index_width) {
            return s;
        }
        let index = self.bv_sort(index_width);
        let byte = self.bv_sort(8);
        // SAFETY: both sorts belong to this manager.
        let s = unsafe { sys::bitwuzla_mk_array_sort(self.raw(), index, byte) };
        self.array_sorts.insert(index_width, s);
        s
    }

    /// `true` or `false`.
    pub fn bool_value(&self, value: bool) -> Term {
        // SAFETY: `tm` is live.
        unsafe {
            if value {
                sys::bitwuzla_mk_true(self.raw())
            } else {
                sys::bitwuzla_mk_false(self.raw())
            }
        }
    }

    /// The `width`-bit value `value` (truncated to the width).
    pub fn bv_value(&mut self, width: u32, value: u128) -> Term {
        let sort = self.bv_sort(width);
        let value = if width >= 128 {
            value
        } else {
            value & ((1u128 << width) - 1)
        };
        if width <= 64 {
            // SAFETY: the sort belongs to this manager and the value fits.
            unsafe { sys::bitwuzla_mk_bv_value_uint64(self.raw(), sort, value as u64) }
        } else {
            let digits = CString::new(value.to_string()).expect("no NUL in a numeral");
            // SAFETY: a decimal numeral that fits the sort (at most 128 bits wide).
            unsafe { sys::bitwuzla_mk_bv_value(self.raw(), sort, digits.as_ptr(), 10) }
        }
    }

    /// A fresh constant of `sort` named `name`.
    pub fn constant(&self, sort: Sort, name: &str) -> Term {
        let name = CString::new(name.replace('\0', "_")).expect("NULs replaced");
        // SAFETY: the sort belongs to this manager; Bitwuzla copies the symbol.
        unsafe { sys::bitwuzla_mk_const(self.raw(), sort, name.as_ptr()) }
    }

    /// A fresh variable of `sort` named `name`, to be bound by a quantifier.
    pub fn variable(&self, sort: Sort, name: &str) -> Term {
        let name = CString::new(name.replace('\0', "_")).expect("NULs replaced");
        // SAFETY: the sort belongs to this manager; Bitwuzla copies the symbol.
        unsafe { sys::bitwuzla_mk_var(self.raw(), sort, name.as_ptr()) }
    }

    /// The array of `sort` holding `value` at every index.
    pub fn const_array(&self, sort: Sort, value: Term) -> Term {
        // SAFETY: the sort and the value belong to this manager; sorts checked by the caller.
        unsafe { sys::bitwuzla_mk_const_array(self.raw(), sort, value) }
    }

    /// An operator applied to one term.
    pub fn op1(&self, kind: Kind, a: Term) -> Term {
        // SAFETY: terms of this manager; the translator applies operators to their sorts.
        unsafe { sys::bitwuzla_mk_term1(self.raw(), kind, a) }
    }

    /// An operator applied to two terms.
    pub fn op2(&self, kind: Kind, a: Term, b: Term) -> Term {
        debug_assert!(
            kind == sys::BITWUZLA_KIND_ARRAY_SELECT
                || kind == sys::BITWUZLA_KIND_BV_CONCAT
                || self.same_sort(a, b),
            "operands of different sorts"
        );
        // SAFETY: as in `op1`.
        unsafe { sys::bitwuzla_mk_term2(self.raw(), kind, a, b) }
    }

    /// An operator applied to three terms (`ite`, `store`).
    pub fn op3(&self, kind: Kind, a: Term, b: Term, c: Term) -> Term {
        // SAFETY: as in `op1`.
        unsafe { sys::bitwuzla_mk_term3(self.raw(), kind, a, b, c) }
    }

    /// An operator with one index applied to one term (`zero_extend`, `sign_extend`).
    pub fn op1_indexed1(&self, kind: Kind, a: Term, i: u64) -> Term {
        // SAFETY: as in `op1`.
        unsafe { sys::bitwuzla_mk_term1_indexed1(self.raw(), kind, a, i) }
    }

    /// An operator with two indices applied to one term (`extract`).
    pub fn op1_indexed2(&self, kind: Kind, a: Term, i: u64, j: u64) -> Term {
        // SAFETY: as in `op1`.
        unsafe { sys::bitwuzla_mk_term1_indexed2(self.raw(), kind, a, i, j) }
    }

    /// The floating-point sort with `exp` exponent and `sig` significand bits.
    pub fn fp_sort(&self, exp: u64, sig: u64) -> Sort {
        // SAFETY: `tm` is live; binary32/binary64 sizes are valid.
        unsafe { sys::bitwuzla_mk_fp_sort(self.raw(), exp, sig) }
    }

    /// A rounding-mode value.
    pub fn rm_value(&self, rm: sys::BitwuzlaRoundingMode) -> Term {
        // SAFETY: `rm` is one of the `BITWUZLA_RM_*` constants.
        unsafe { sys::bitwuzla_mk_rm_value(self.raw(), rm) }
    }

    /// An operator applied to any number of terms (operands of different sorts, as a
    /// rounding mode and floats).
    pub fn op_n(&self, kind: Kind, args: &[Term]) -> Term {
        let mut args = args.to_vec();
        // SAFETY: terms of this manager; the FP encoding applies operators to their sorts.
        unsafe { sys::bitwuzla_mk_term(self.raw(), kind, args.len() as u32, args.as_mut_ptr()) }
    }

    /// An operator with indices applied to terms (`to_fp`, `fp.to_sbv`).
    pub fn op_indexed(&self, kind: Kind, args: &[Term], idxs: &[u64]) -> Term {
        let mut args = args.to_vec();
        // SAFETY: as in `op_n`; the indices are the operator's.
        unsafe {
            sys::bitwuzla_mk_term_indexed(
                self.raw(),
                kind,
                args.len() as u32,
                args.as_mut_ptr(),
                idxs.len() as u32,
                idxs.as_ptr(),
            )
        }
    }

    /// True if both terms have the same sort.
    pub fn same_sort(&self, a: Term, b: Term) -> bool {
        // SAFETY: terms of this manager.
        unsafe { sys::bitwuzla_term_is_equal_sort(a, b) }
    }

    /// True if the term is a Boolean.
    pub fn is_bool(&self, a: Term) -> bool {
        // SAFETY: a term of this manager.
        unsafe { sys::bitwuzla_term_is_bool(a) }
    }

    /// Gives back one reference to `term` (for temporaries such as model values).
    pub fn release(&self, term: Term) {
        // SAFETY: the caller owns this reference.
        unsafe { sys::bitwuzla_term_release(term) }
    }
}

impl Drop for TermManager {
    fn drop(&mut self) {
        // SAFETY: every solver using this manager was dropped before (the core's field order).
        unsafe { sys::bitwuzla_term_manager_delete(self.raw()) }
    }
}

/// Options of a solver instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstanceOptions {
    /// Keep models (needed for `get_value`).
    pub produce_models: bool,
}

/// What the termination callback reads: a deadline and the process-wide interruption flag.
/// Boxed by its owner so that its address stays put while Bitwuzla holds it.
#[derive(Debug, Default)]
pub struct Termination {
    deadline: std::cell::Cell<Option<std::time::Instant>>,
    /// A CPU-time limit: (the wall-clock instant before which it cannot have been reached,
    /// the calling thread's CPU time at which it is).
    cpu_limit: std::cell::Cell<Option<(std::time::Instant, Duration)>>,
}

impl Termination {
    /// Sets the deadline of the next check (None: no limit).
    pub fn set_deadline(&self, deadline: Option<std::time::Instant>) {
        self.deadline.set(deadline);
    }

    /// Limits the next check to `budget` of the calling thread's CPU time from now (None:
    /// no limit). The check runs on the calling thread.
    pub fn set_cpu_budget(&self, budget: Option<Duration>) {
        self.cpu_limit.set(budget.map(|b| {
            (
                std::time::Instant::now() + b,
                crate::layers::slow_below::thread_cpu_time() + b,
            )
        }));
    }

    /// True once the deadline has passed or the CPU budget is spent.
    pub fn expired(&self) -> bool {
        let now = std::time::Instant::now();
        if self.deadline.get().is_some_and(|d| now >= d) {
            return true;
        }
        // A thread's CPU time grows no faster than the wall clock: before `earliest` the
        // budget cannot be spent, and the (cheap) wall clock answers without a system call.
        self.cpu_limit.get().is_some_and(|(earliest, limit)| {
            now >= earliest && crate::layers::slow_below::thread_cpu_time() >= limit
        })
    }
}

/// Bitwuzla's termination callback: stop at the deadline or on an interruption request.
unsafe extern "C" fn terminate(state: *mut c_void) -> i32 {
    // SAFETY: `state` is the `Termination` the instance was created with, which outlives it.
    let t = unsafe { &*(state as *const Termination) };
    (crate::interrupt::requested() || t.expired()) as i32
}

/// The answer of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckResult {
    /// Satisfiable.
    Sat,
    /// Unsatisfiable.
    Unsat,
    /// Terminated (deadline or interruption) or undecided.
    Unknown,
}

/// A Bitwuzla solver instance over the terms of one [`TermManager`].
pub struct Instance {
    ptr: NonNull<sys::Bitwuzla>,
}

impl Instance {
    /// A solver over `tm`'s terms whose checks stop when `termination` says so.
    ///
    /// # Safety
    /// `tm` and `termination` must outlive the instance.
    pub unsafe fn new(
        tm: &TermManager,
        options: InstanceOptions,
        termination: &Termination,
    ) -> Self {
        // SAFETY: a fresh options object, freed below (`bitwuzla_new` copies it).
        let ptr = unsafe {
            let opts = sys::bitwuzla_options_new();
            sys::bitwuzla_set_option(
                opts,
                sys::BITWUZLA_OPT_PRODUCE_MODELS,
                options.produce_models as u64,
            );
            // Bitwuzla's skeleton preprocessing gives its CaDiCaL instance one variable per
            // term id of the term manager, which lives as long as the core: late in a run
            // every query paid for the millions of terms made before it (coreutils `expr`:
            // a quarter of the run's time went into that CaDiCaL's set-up).
            sys::bitwuzla_set_option(opts, sys::BITWUZLA_OPT_PP_SKELETON_PREPROC, 0);
            let b = sys::bitwuzla_new(tm.raw(), opts);
            sys::bitwuzla_options_delete(opts);
            b
        };
        let ptr = NonNull::new(ptr).expect("bitwuzla_new returned null");
        // SAFETY: the caller keeps `termination` alive as long as the instance.
        unsafe {
            sys::bitwuzla_set_termination_callback(
                ptr.as_ptr(),
                Some(terminate),
                termination as *const Termination as *mut c_void,
            )
        };
        Instance { ptr }
    }

    /// Asserts a Boolean term.
    pub fn assert(&mut self, term: Term) {
        // SAFETY: a live instance; the caller asserts Booleans only (checked in debug).
        debug_assert!(unsafe { sys::bitwuzla_term_is_bool(term) });
        unsafe { sys::bitwuzla_assert(self.ptr.as_ptr(), term) }
    }

    /// Opens an assertion level.
    pub fn push(&mut self) {
        // SAFETY: a live instance.
        unsafe { sys::bitwuzla_push(self.ptr.as_ptr(), 1) }
    }

    /// Closes the innermost assertion level.
    pub fn pop(&mut self) {
        // SAFETY: a live instance; the core pops only what it pushed.
        unsafe { sys::bitwuzla_pop(self.ptr.as_ptr(), 1) }
    }

    /// Decides the assertions.
    pub fn check(&mut self) -> CheckResult {
        // SAFETY: a live instance.
        match unsafe { sys::bitwuzla_check_sat(self.ptr.as_ptr()) } {
            sys::BITWUZLA_SAT => CheckResult::Sat,
            sys::BITWUZLA_UNSAT => CheckResult::Unsat,
            _ => CheckResult::Unknown,
        }
    }

    /// The model value of a bit-vector term of at most 128 bits, after a `Sat` check.
    /// The temporary value term is released.
    pub fn bv_value(&mut self, tm: &TermManager, term: Term) -> Option<u128> {
        // SAFETY: a live instance after a Sat check (models on); the value term is ours to
        // release, and its string is copied before any other call.
        unsafe {
            let value = sys::bitwuzla_get_value(self.ptr.as_ptr(), term);
            if !sys::bitwuzla_term_is_bv_value(value) {
                tm.release(value);
                return None;
            }
            let s = sys::bitwuzla_term_value_get_str_fmt(value, 16);
            let parsed = CStr::from_ptr(s)
                .to_str()
                .ok()
                .and_then(|s| u128::from_str_radix(s, 16).ok());
            tm.release(value);
            parsed
        }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the instance is live and deleted once.
        unsafe { sys::bitwuzla_delete(self.ptr.as_ptr()) }
    }
}

/// Bitwuzla's version string.
pub fn version() -> String {
    // SAFETY: a static string.
    unsafe { CStr::from_ptr(sys::bitwuzla_version()) }
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A CPU budget is spent by work on the calling thread, not by waiting.
    #[test]
    fn the_cpu_budget_counts_work_not_waiting() {
        let t = Termination::default();
        t.set_cpu_budget(Some(Duration::from_millis(10)));
        std::thread::sleep(Duration::from_millis(40));
        assert!(!t.expired(), "waiting spends no CPU time");
        let start = std::time::Instant::now();
        while !t.expired() && start.elapsed() < Duration::from_secs(5) {
            std::hint::black_box(0u64.wrapping_add(1));
        }
        assert!(t.expired(), "work spends it");
        t.set_cpu_budget(None);
        assert!(!t.expired());
    }
}
