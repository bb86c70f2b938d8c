//! The progress line of a parallel run: the whole run as the coordinator sees it (the
//! workers' own lines are off), refreshed from their status reports.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often the line is redrawn.
const REFRESH: Duration = Duration::from_millis(250);

/// A live line on a terminal: busy workers, live states, paths, instructions, queue.
pub struct RunProgress {
    bar: Option<ProgressBar>,
    jobs: usize,
    started: Instant,
    last: Instant,
}

impl RunProgress {
    /// The line for a run of `jobs` workers, shown when `enabled` and on a terminal.
    pub fn new(jobs: usize, enabled: bool) -> Self {
        let bar = (enabled && std::io::IsTerminal::is_terminal(&std::io::stderr())).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(ProgressStyle::with_template("{spinner} {msg}").expect("valid template"));
            bar
        });
        let now = Instant::now();
        RunProgress {
            bar,
            jobs,
            started: now,
            last: now - REFRESH,
        }
    }

    /// Whether the line is shown and due for a redraw (at most every [`REFRESH`]).
    pub fn due(&self) -> bool {
        self.bar.is_some() && self.last.elapsed() >= REFRESH
    }

    /// Redraws the line.
    pub fn show(&mut self, busy: usize, live: usize, paths: u64, instructions: u64, queued: usize) {
        let Some(bar) = &self.bar else {
            return;
        };
        self.last = Instant::now();
        bar.set_message(format!(
            "{busy}/{} workers busy, {instructions} instructions, {paths} paths done, {live} states, {queued} prefixes queued, {:.1}s",
            self.jobs,
            self.started.elapsed().as_secs_f64()
        ));
        bar.tick();
    }

    /// Prints `text` above the progress line (or on standard error without one).
    pub fn println(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None => crate::term::errln!("{text}"),
        }
    }

    /// Removes the line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
