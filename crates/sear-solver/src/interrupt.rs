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
        // The context is registered only while a core that uses it is alive.
        interrupt_context(address);
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

/// The address of the calling thread's Z3 context, for [`interrupt_context`].
pub(crate) fn thread_context_address() -> usize {
    z3::Context::thread_local().get_z3_context().as_ptr() as usize
}

/// Interrupts the Z3 context at `address` (from [`thread_context_address`]; 0: none).
pub(crate) fn interrupt_context(address: usize) {
    if let Some(ctx) = NonNull::new(address as *mut z3_sys::_Z3_context) {
        // SAFETY: the address is that of a thread-local context of a solver thread that
        // lives as long as its portfolio; `Z3_interrupt` is meant for other threads.
        unsafe { z3_sys::Z3_interrupt(ctx) };
    }
}

/// Registers the calling thread's Z3 context for [`request`] while the returned guard lives.
pub(crate) fn register_thread_context() -> ContextRegistration {
    let address = thread_context_address();
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
