//! Interrupting the solver from another thread (the CLI's signal thread).
//!
//! A process-wide flag that every core checks before it starts a query, plus `Z3_interrupt`
//! on every Z3 context a live core uses, so that a query under way returns at once with
//! [`SolverError::Interrupted`](crate::SolverError::Interrupted). Z3's own Ctrl-C handling is
//! turned off in the cores (`ctrl_c=false`), so the signal reaches sear, not Z3.

use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Raw `Z3_context` pointers of live cores (as addresses, which are `Send`), one entry per
/// core; a context shared by several cores appears several times.
static Z3_CONTEXTS: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// Asks every core to stop: queries under way return `Interrupted`, and so do later ones.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
    let contexts = Z3_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
    for &address in contexts.iter() {
        if let Some(ctx) = NonNull::new(address as *mut z3_sys::_Z3_context) {
            // SAFETY: the context is registered only while a core that uses it is alive;
            // `Z3_interrupt` is meant to be called from another thread.
            unsafe { z3_sys::Z3_interrupt(ctx) };
        }
    }
}

/// Withdraws a [`request`]: queries run again (the engine's halt, which writes the tests of
/// the states left, needs the solver).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}

/// Whether [`request`] was called (and not cleared).
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Registers the calling thread's Z3 context for [`request`] while the returned guard lives.
pub(crate) fn register_thread_context() -> ContextRegistration {
    let address = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
    Z3_CONTEXTS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(address);
    ContextRegistration { address }
}

/// Keeps a Z3 context registered; unregisters it when dropped.
#[derive(Debug)]
pub(crate) struct ContextRegistration {
    address: usize,
}

impl Drop for ContextRegistration {
    fn drop(&mut self) {
        let mut contexts = Z3_CONTEXTS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = contexts.iter().position(|&a| a == self.address) {
            contexts.swap_remove(i);
        }
    }
}
