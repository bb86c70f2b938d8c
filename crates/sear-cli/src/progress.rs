//! Terminal output during a run: one line per error, a live progress line. A worker of a
//! parallel run sends its lines to the coordinator, which prints them.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use sear_engine::output::ErrorRecord;
use sear_engine::stats::Stats;
use sear_engine::Observer;

use crate::parallel::{protocol, FromWorker, SharedWriter};

/// Where a worker's lines go once it is connected to its coordinator (set after the
/// executor, which holds the observer, is made).
pub type Forward = Arc<Mutex<Option<SharedWriter>>>;

/// Prints errors as they are found and, on a terminal, a live progress line.
pub struct TerminalObserver {
    bar: Option<ProgressBar>,
    forward: Forward,
}

impl TerminalObserver {
    /// Creates the observer; the progress line is shown only on a terminal.
    pub fn new(progress: bool) -> Self {
        let bar = (progress && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
            bar
        });
        TerminalObserver {
            bar,
            forward: Forward::default(),
        }
    }

    /// The slot that, once it holds the coordinator's connection, sends the observer's
    /// lines there instead of printing them.
    pub fn forward(&self) -> Forward {
        Arc::clone(&self.forward)
    }

    /// Removes the progress line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    /// Prints `line`, or sends it to the coordinator (with `error`, the error's kind and
    /// location; `once` for a line the run prints once) when connected to one; printed here
    /// if the connection is gone.
    fn say(&self, line: &str, error: Option<String>, once: bool) {
        let mut forward = self.forward.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(writer) = forward.as_mut() {
            let message = FromWorker::Say {
                line: line.to_string(),
                error,
                once,
            };
            if protocol::send(writer, &message).is_ok() {
                return;
            }
        }
        match &self.bar {
            Some(bar) => bar.println(line),
            None => crate::term::errln!("{line}"),
        }
    }
}

impl Observer for TerminalObserver {
    fn error(&mut self, record: &ErrorRecord) {
        self.say(
            &format!(
                "sear: ERROR: {}:{}: {} ({}, {})",
                record.file, record.line, record.message, record.kind, record.test
            ),
            Some(format!("{} {} {}", record.kind, record.file, record.line)),
            false,
        );
    }

    fn progress(&mut self, stats: &Stats, live_states: usize, elapsed: Duration) {
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{} instructions, {} paths done, {} states, {} queries, {:.1}s",
                stats.instructions,
                stats.completed_paths + stats.error_paths,
                live_states,
                stats.queries,
                elapsed.as_secs_f64()
            ));
            bar.tick();
        }
    }

    fn warning(&mut self, text: &str) {
        self.say(&format!("sear: WARNING: {text}"), None, false);
    }

    fn warning_once(&mut self, text: &str) {
        self.say(&format!("sear: WARNING: {text}"), None, true);
    }

    fn debug(&mut self, text: &str) {
        self.say(&format!("sear: {text}"), None, false);
    }

    fn print(&mut self, text: &str) {
        self.say(text, None, false);
    }
}
