//! SIGINT, SIGTERM and SIGHUP during `sear run`: the first one stops the exploration at the
//! next safe point (a solver query under way is interrupted), after which sear writes the
//! tests of the states left and `summary.json` (`stop_reason: "interrupted"`) and exits with
//! 128 + the signal's number; a second one exits at once.
//!
//! `signal-hook` rather than `ctrlc`: it covers the three signals and says which one came.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Arc;

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

/// The signal that stopped the run, once one has arrived.
#[derive(Clone, Default)]
pub struct Received(Arc<AtomicI32>);

impl Received {
    /// The exit status for a run stopped by a signal (128 + its number), if one arrived.
    pub fn exit_status(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(128 + signal),
        }
    }
}

/// Watches for the signals in a thread: the first sets `stop` (the engine's interrupt
/// flag) and interrupts the solver; a second exits the process.
pub fn install(stop: Arc<AtomicBool>) -> Received {
    let received = Received::default();
    let seen = received.0.clone();
    let mut signals = match Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(signals) => signals,
        Err(e) => {
            tracing::warn!("cannot install signal handlers: {e}");
            return received;
        }
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if seen.swap(signal, Ordering::SeqCst) != 0 {
                std::process::exit(128 + signal);
            }
            stop.store(true, Ordering::SeqCst);
            sear_solver::interrupt::request();
            // stderr may be closed (a pipe): a failed write is no reason to stop.
            let _ = writeln!(
                std::io::stderr(),
                "sear: signal {signal}: stopping; writing the tests of the remaining states \
                 (send it again to exit at once)"
            );
        }
    });
    received
}
