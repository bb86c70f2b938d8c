//! Terminal output during a run: one line per error, a live progress line.

use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use sear_engine::output::ErrorRecord;
use sear_engine::stats::Stats;
use sear_engine::Observer;

/// Prints errors as they are found and, on a terminal, a live progress line.
pub struct TerminalObserver {
    bar: Option<ProgressBar>,
}

impl TerminalObserver {
    /// Creates the observer; the progress line is shown only on a terminal.
    pub fn new(progress: bool) -> Self {
        let bar = (progress && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
            bar
        });
        TerminalObserver { bar }
    }

    /// Removes the progress line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    fn print(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.println(line),
            None => crate::term::errln!("{line}"),
        }
    }
}

impl Observer for TerminalObserver {
    fn error(&mut self, record: &ErrorRecord) {
        self.print(&format!(
            "sear: ERROR: {}:{}: {} ({}, {})",
            record.file, record.line, record.message, record.kind, record.test
        ));
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
        self.print(&format!("sear: WARNING: {text}"));
    }

    fn debug(&mut self, text: &str) {
        self.print(&format!("sear: {text}"));
    }
}
