//! A worker of a parallel run: `sear run` started by the coordinator with
//! [`WORKER_ENV`](super::protocol::WORKER_ENV) set. Its executor explores the prefixes the
//! coordinator sends and gives states away when asked ([`WorkerLink`] is its
//! `sear_engine::work::WorkQueue`).

use std::collections::VecDeque;
use std::net::TcpStream;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use sear_engine::path::PathRecord;
use sear_engine::work::{Explored, Givable, Polled, Prefix, Progress, WorkQueue};
use sear_engine::Summary;

use super::protocol::{self, FromWorker, SharedWriter, ToWorker, WORKER_ENV};
use super::reader::Shared;

/// How often a busy worker reports its live states.
const STATUS_EVERY: Duration = Duration::from_millis(50);

/// How soon a worker that had nothing to give reports again once it has more states than
/// then: the coordinator asks no worker that had nothing before its next status, so at the
/// start, when the first worker is asked before its first fork, the others would wait for
/// the regular status.
const STATUS_AFTER_NOTHING: Duration = Duration::from_millis(2);

/// What the coordinator told a worker process through its environment.
#[derive(Debug, Clone)]
pub struct WorkerEnv {
    /// The coordinator's address.
    pub address: String,
    /// The worker's number.
    pub id: usize,
    /// The worker's output directory: `OUT/.workers/wN` (its tests go into `OUT`).
    pub dir: PathBuf,
}

impl WorkerEnv {
    /// The run's output directory, where the worker writes its tests.
    pub fn run_dir(&self) -> Option<&std::path::Path> {
        self.dir.parent()?.parent()
    }

    /// The worker settings of this process, if it is a worker.
    pub fn from_env() -> Result<Option<WorkerEnv>> {
        let Some(value) = std::env::var_os(WORKER_ENV) else {
            return Ok(None);
        };
        let value = value.to_string_lossy().into_owned();
        let mut parts = value.splitn(3, ' ');
        let (Some(address), Some(id), Some(dir)) = (parts.next(), parts.next(), parts.next())
        else {
            bail!("{WORKER_ENV}='{value}': expected 'ADDRESS ID DIR'");
        };
        let id = id
            .parse()
            .with_context(|| format!("{WORKER_ENV}: worker number '{id}'"))?;
        Ok(Some(WorkerEnv {
            address: address.to_string(),
            id,
            dir: PathBuf::from(dir),
        }))
    }
}

/// The module a coordinator compiled and linked once for its workers, in the run's work
/// directory (`OUT/.workers/`), named to them by [`BITCODE_ENV`](super::protocol::BITCODE_ENV).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PreparedBitcode {
    /// The program linked with the runtime: what the workers load.
    pub bitcode: PathBuf,
    /// The program's own module (Indexify reads it).
    pub own: PathBuf,
    /// The compiler flags (`info.json`, for replay).
    pub cflags: Vec<String>,
}

impl PreparedBitcode {
    /// Copies the prepared modules into `work_root` (they were in a scratch directory).
    pub fn store(
        work_root: &std::path::Path,
        bitcode: &std::path::Path,
        own: &std::path::Path,
        cflags: Vec<String>,
    ) -> Result<PreparedBitcode> {
        let copy = |from: &std::path::Path, name: &str| -> Result<PathBuf> {
            let to = std::path::absolute(work_root.join(name))?;
            std::fs::copy(from, &to)
                .with_context(|| format!("copying {} to {}", from.display(), to.display()))?;
            Ok(to)
        };
        Ok(PreparedBitcode {
            bitcode: copy(bitcode, "program.bc")?,
            own: copy(own, "own.bc")?,
            cflags,
        })
    }

    /// The value of [`BITCODE_ENV`](super::protocol::BITCODE_ENV) naming it.
    pub fn to_env(&self) -> String {
        serde_json::to_string(self).expect("paths and strings serialise")
    }
}

/// In a worker started by a coordinator that prepared the module: the module to load, the
/// compiler flags and the program's own module.
pub fn prepared_bitcode() -> Result<Option<(PathBuf, Vec<String>, PathBuf)>> {
    let Some(value) = std::env::var_os(super::protocol::BITCODE_ENV) else {
        return Ok(None);
    };
    let prepared: PreparedBitcode = serde_json::from_str(&value.to_string_lossy())
        .with_context(|| format!("{}: not a prepared module", super::protocol::BITCODE_ENV))?;
    Ok(Some((prepared.bitcode, prepared.cflags, prepared.own)))
}

/// A worker's connection to the coordinator.
pub struct WorkerLink {
    writer: SharedWriter,
    inbox: Receiver<ToWorker>,
    /// Prefixes received while busy (not expected, kept in order).
    queued: VecDeque<Prefix>,
    /// What it shares with its reader thread: the groups of states the coordinator asked
    /// for and not yet given, the executor's givable states.
    shared: Arc<Shared>,
    /// Instructions other workers covered, not yet handed to the executor.
    covered_elsewhere: Vec<(u32, u32, u32)>,
    /// Edges other workers took first, not yet handed to the executor.
    edges_elsewhere: Vec<(u32, u32, u32)>,
    last_status: Instant,
    /// The live states when it last answered a request with nothing (`None` since its
    /// next status).
    gave_nothing_at: Option<usize>,
    /// The live states at the last poll.
    live: usize,
    stopped: bool,
    /// The executor's interrupt flag: a `Stop` while busy ends the run.
    interrupt: Arc<AtomicBool>,
    /// The coordinator's `Numbers` answers, until [`WorkerLink::test_numbers`] takes them.
    numbers: Option<Receiver<(u32, u32)>>,
}

impl WorkerLink {
    /// Connects to the coordinator and says hello; a `Stop` from it sets `interrupt` (the
    /// executor's flag) and interrupts a solver query under way, as a signal would.
    pub fn connect(env: &WorkerEnv, interrupt: Arc<AtomicBool>) -> Result<WorkerLink> {
        let stream = TcpStream::connect(&env.address)
            .with_context(|| format!("worker {}: connecting to {}", env.id, env.address))?;
        stream.set_nodelay(true).ok();
        let mut writer = SharedWriter::new(
            stream
                .try_clone()
                .context("worker: cloning the connection")?,
        );
        protocol::send(&mut writer, &FromWorker::Hello { id: env.id })?;
        let (tx, inbox) = mpsc::channel();
        let (numbers_tx, numbers) = mpsc::channel();
        let shared = Arc::new(Shared::default());
        super::reader::spawn(
            stream,
            Arc::clone(&shared),
            writer.clone(),
            tx,
            numbers_tx,
            Arc::clone(&interrupt),
        );
        Ok(WorkerLink {
            writer,
            inbox,
            queued: VecDeque::new(),
            shared,
            covered_elsewhere: Vec::new(),
            edges_elsewhere: Vec::new(),
            last_status: Instant::now(),
            gave_nothing_at: None,
            live: 0,
            stopped: false,
            interrupt,
            numbers: Some(numbers),
        })
    }

    /// The connection's writing end (for the lines a worker's observer sends).
    pub fn writer(&self) -> SharedWriter {
        self.writer.clone()
    }

    /// The worker's test numbers, from the coordinator (once; `None` the second time).
    pub fn test_numbers(&mut self) -> Option<super::numbering::WorkerNumbers> {
        let replies = self.numbers.take()?;
        Some(super::numbering::WorkerNumbers::new(
            self.writer.clone(),
            replies,
        ))
    }

    /// Tells the coordinator the run ended, with what it needs to aggregate.
    pub fn done(&mut self, summary: &Summary) -> Result<()> {
        let message = FromWorker::Done {
            stop_reason: summary.stop_reason.clone(),
            trace_hashes: summary.trace_hashes.clone(),
            covered: summary.covered.clone(),
            test_files: summary.test_files.clone(),
        };
        protocol::send(&mut self.writer, &message).context("worker: sending the summary")
    }

    fn send(&mut self, message: &FromWorker) {
        if protocol::send(&mut self.writer, message).is_err() {
            // The coordinator is gone: nothing to report to; stop.
            self.stop();
        }
    }

    fn stop(&mut self) {
        self.stopped = true;
        self.interrupt.store(true, Ordering::SeqCst);
    }

    fn handle(&mut self, message: ToWorker) {
        match message {
            ToWorker::Explore { prefixes, exclude } => {
                let parse = |texts: &[String]| -> Result<Vec<PathRecord>, _> {
                    texts.iter().map(|p| p.parse::<PathRecord>()).collect()
                };
                match (parse(&prefixes), parse(&exclude)) {
                    (Ok(records), Ok(exclude)) => {
                        self.queued.push_back(Prefix { records, exclude })
                    }
                    (Err(e), _) | (_, Err(e)) => {
                        tracing::error!("worker: a prefix that is no path record: {e}");
                        self.stop();
                    }
                }
            }
            // The reader thread noted the request (`Shared::take_asked`).
            ToWorker::Give { .. } => {}
            ToWorker::Covered {
                mut instructions,
                mut edges,
            } => {
                self.covered_elsewhere.append(&mut instructions);
                self.edges_elsewhere.append(&mut edges);
            }
            ToWorker::Stop => self.stop(),
            // The reader thread passes these to the test numbers.
            ToWorker::Numbers { .. } => {}
        }
    }
}

impl WorkQueue for WorkerLink {
    fn poll(&mut self, progress: Progress<'_>) -> Polled {
        loop {
            match self.inbox.try_recv() {
                Ok(message) => self.handle(message),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.stop();
                    break;
                }
            }
        }
        self.live = progress.live;
        let since = self.last_status.elapsed();
        let more_than_nothing = self
            .gave_nothing_at
            .is_some_and(|live| progress.live > live.max(1) && since >= STATUS_AFTER_NOTHING);
        if since >= STATUS_EVERY || more_than_nothing {
            self.last_status = Instant::now();
            self.gave_nothing_at = None;
            self.send(&FromWorker::Status {
                live: progress.live,
                instructions: progress.instructions,
                paths: progress.paths,
                covered: std::mem::take(progress.covered),
                edges: std::mem::take(progress.edges),
            });
        }
        Polled {
            give: self.shared.take_asked(),
            covered: std::mem::take(&mut self.covered_elsewhere),
            edges: std::mem::take(&mut self.edges_elsewhere),
        }
    }

    fn give(&mut self, groups: Vec<Vec<PathRecord>>) {
        if groups.is_empty() {
            self.gave_nothing_at = Some(self.live);
        }
        let groups = groups
            .iter()
            .map(|g| g.iter().map(|p| p.to_string()).collect())
            .collect();
        self.send(&FromWorker::Given { groups });
    }

    fn next_prefix(&mut self, done: Explored) -> Option<Prefix> {
        let tests = done.tests;
        let mut hashes = Some(done.trace_hashes);
        // `Idle` is said once: a message that is no prefix (coverage, a `Give` that crossed
        // the `Idle`) must not say it again, or the coordinator, having handed this worker a
        // prefix meanwhile, would take the second `Idle` for the end of that prefix.
        let mut announced = false;
        loop {
            if self.stopped {
                return None;
            }
            if let Some(record) = self.queued.pop_front() {
                return Some(record);
            }
            if self.shared.take_asked() > 0 {
                // Asked while it had nothing to give.
                self.send(&FromWorker::Given { groups: Vec::new() });
            }
            if !announced {
                announced = true;
                let trace_hashes = hashes.take().unwrap_or_default();
                self.send(&FromWorker::Idle {
                    tests,
                    trace_hashes,
                });
            }
            match self.inbox.recv() {
                Ok(message) => self.handle(message),
                Err(_) => self.stop(),
            }
        }
    }

    fn attach(&mut self, givable: Arc<Mutex<Givable>>) {
        let _ = self.shared.givable.set(givable);
    }
}
