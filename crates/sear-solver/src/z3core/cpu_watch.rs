//! A CPU-time budget for one Z3 check.
//!
//! Z3 has no callback that asks the caller whether to go on (Bitwuzla's termination callback
//! is how the Bitwuzla core meters CPU time), only a wall-clock `timeout` and `Z3_interrupt`,
//! which may be called from another thread. So a watcher thread reads the solving thread's
//! CPU clock (`pthread_getcpuclockid`) and interrupts the context once the budget is spent.
//! A thread's CPU time grows no faster than the wall clock, so the watcher sleeps until the
//! budget could be spent and only then starts reading the clock.

use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The shortest time between two readings of the watched thread's CPU clock.
const MIN_POLL: Duration = Duration::from_millis(1);

/// Watches the calling thread's CPU time while it lives; see the module docs.
pub(crate) struct CpuWatch {
    stop: Option<Sender<()>>,
    watcher: Option<JoinHandle<bool>>,
}

impl CpuWatch {
    /// Starts watching the calling thread: once it has spent `budget` of CPU time from now,
    /// the Z3 context at `context` (an address from `crate::interrupt`) is interrupted.
    /// `None` when the thread's CPU clock cannot be read (the check is then not metered).
    pub(crate) fn start(budget: Duration, context: usize) -> Option<CpuWatch> {
        let clock = current_thread_clock()?;
        let spent_at_start = crate::layers::slow_below::clock_time(clock)?;
        let limit = spent_at_start + budget;
        let earliest = Instant::now() + budget;
        let (stop, stopped) = mpsc::channel::<()>();
        let watcher = std::thread::Builder::new()
            .name("sear-z3-cpu".into())
            .spawn(move || loop {
                let now = Instant::now();
                let wait = if now < earliest {
                    earliest - now
                } else {
                    // The clock belongs to a thread that waits in `finish` for this one, so it
                    // is still valid here.
                    let Some(spent) = crate::layers::slow_below::clock_time(clock) else {
                        return false;
                    };
                    if spent >= limit {
                        crate::interrupt::interrupt_context(context);
                        return true;
                    }
                    ((limit - spent) / 2).max(MIN_POLL)
                };
                match stopped.recv_timeout(wait) {
                    Err(RecvTimeoutError::Timeout) => continue,
                    Ok(()) | Err(RecvTimeoutError::Disconnected) => return false,
                }
            })
            .ok()?;
        Some(CpuWatch {
            stop: Some(stop),
            watcher: Some(watcher),
        })
    }

    /// Stops watching; true if the budget was spent (the context was interrupted).
    pub(crate) fn finish(mut self) -> bool {
        self.stop_watcher()
    }

    fn stop_watcher(&mut self) -> bool {
        drop(self.stop.take());
        self.watcher
            .take()
            .is_some_and(|w| w.join().unwrap_or(false))
    }
}

impl Drop for CpuWatch {
    fn drop(&mut self) {
        // The watcher reads this thread's clock: it must end before the thread can.
        self.stop_watcher();
    }
}

/// The CPU clock of the calling thread.
fn current_thread_clock() -> Option<libc::clockid_t> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: `pthread_self` is always valid for the calling thread; `clock` is written by
    // the call.
    let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    (rc == 0).then_some(clock)
}
