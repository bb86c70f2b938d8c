//! The coordinator of a parallel run: starts the workers, hands out prefixes, balances the
//! load, notices a worker that dies, and merges the outputs when every worker is done.
//!
//! Balancing: the whole program is the first prefix; a worker that becomes idle gets a
//! queued job, or, when none is queued, the coordinator asks the busiest worker (most live
//! states) to give states away in one group per idle worker (the giver keeps a share as large
//! as each group and chooses neighbours in the tree, which the receiver rebuilds together).
//! The run is over when every worker is idle, no prefix is queued and no request is open.
//!
//! A worker that dies (its connection closes before it says `Done`): its current prefix goes
//! back to the queue, leaving out the prefixes it gave away meanwhile (explored elsewhere),
//! and the tests it wrote for that prefix are dropped (the prefix's paths are explored
//! again); the paths of the prefixes it had finished stay. Its counters come from its last
//! interim `summary.json`, and the run says so in `warnings.txt`.

use std::collections::VecDeque;
use std::io::BufReader;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::merge::{self, WorkerResult};
use super::numbering::Blocks;
use super::protocol::{self, FromWorker, ToWorker, BITCODE_ENV, WORKER_ENV};

/// How long workers may take to connect (each compiles the program first).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(300);

/// What the coordinator needs of the run's options: the run-wide limits it holds over all
/// workers (each worker also holds them on its own share) and the progress line.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// The module compiled once for every worker (`None`: each worker compiles).
    pub prepared: Option<super::worker::PreparedBitcode>,
    /// Show the progress line (on a terminal).
    pub progress: bool,
    /// `--max-time`, from the coordinator's start (workers start later and would stop later).
    pub max_time: Option<Duration>,
    /// `--max-instructions`, summed over the workers (rebuilding included).
    pub max_instructions: Option<u64>,
    /// `--emit-all-errors`: every error line the workers send is printed, not only the
    /// first of each kind and location.
    pub emit_all_errors: bool,
}

/// A job to hand out: the subtrees below `prefixes` (a group given away together), without
/// those below `exclude`.
#[derive(Clone, Debug)]
struct Job {
    prefixes: Vec<String>,
    exclude: Vec<String>,
}

/// One worker as the coordinator sees it.
struct Worker {
    /// Its process (`None` on a cluster, where Ray started it).
    process: Option<Child>,
    stream: Option<TcpStream>,
    dir: PathBuf,
    idle: bool,
    live: usize,
    /// Instructions and paths at its last status.
    instructions: u64,
    paths: u64,
    asked: bool,
    /// It answered a request with nothing since its last status: not asked again before
    /// the next status.
    had_nothing: bool,
    /// The prefix it is exploring, with what it gave away meanwhile (re-queued without
    /// those if it dies before it is done).
    current: Option<Job>,
    given: Vec<String>,
    /// Tests it had written when it took its current prefix.
    tests_before: u32,
    /// The trace hashes of the paths of the prefixes it finished.
    hashes: Vec<u64>,
    result: Option<WorkerResult>,
    alive: bool,
}

/// A message from worker `.0` (`None`: its connection closed).
type Event = (usize, Option<FromWorker>);

/// The host the coordinator listens on: `SEAR_COORDINATOR_HOST`, else the loopback address
/// (a cluster whose nodes are other machines needs an address they reach).
fn coordinator_host() -> String {
    std::env::var("SEAR_COORDINATOR_HOST").unwrap_or_else(|_| "127.0.0.1".into())
}

/// Runs `sear run` with `jobs` workers writing to `output_dir` (on the Ray cluster at
/// `cluster`, if given); returns the exit status.
pub fn run_parallel(
    jobs: u32,
    output_dir: &Path,
    interrupt: Arc<AtomicBool>,
    cluster: Option<&str>,
    options: RunOptions,
) -> Result<i32> {
    let started = Instant::now();
    // Absolute: a worker placed by Ray runs in a directory of Ray's.
    let work_root = std::path::absolute(output_dir.join(".workers"))?;
    std::fs::create_dir_all(&work_root)
        .with_context(|| format!("creating {}", work_root.display()))?;
    let listener = TcpListener::bind((coordinator_host(), 0)).context("listening for workers")?;
    let address = listener.local_addr()?.to_string();
    let exe = std::env::current_exe().context("finding the sear binary")?;
    let mut launcher = match cluster {
        Some(ray) => Some(super::cluster::launch(
            ray,
            jobs as usize,
            &address,
            &work_root,
            options.prepared.as_ref(),
        )?),
        None => None,
    };
    let mut workers = Vec::new();
    for id in 0..jobs as usize {
        let dir = work_root.join(format!("w{id}"));
        let process = if launcher.is_some() {
            None
        } else {
            let log = std::fs::File::create(work_root.join(format!("w{id}.log")))?;
            let mut command = Command::new(&exe);
            if let Some(prepared) = &options.prepared {
                command.env(BITCODE_ENV, prepared.to_env());
            }
            let child = command
                .args(std::env::args_os().skip(1))
                .env(WORKER_ENV, format!("{address} {id} {}", dir.display()))
                .stdin(Stdio::null())
                .stdout(log.try_clone()?)
                .stderr(log)
                .spawn()
                .context("starting a worker")?;
            Some(child)
        };
        workers.push(Worker {
            process,
            stream: None,
            dir,
            idle: false,
            live: 0,
            instructions: 0,
            paths: 0,
            asked: false,
            had_nothing: false,
            current: None,
            given: Vec::new(),
            tests_before: 0,
            hashes: Vec::new(),
            result: None,
            alive: true,
        });
    }
    let (tx, events) = mpsc::channel::<Event>();
    if let Err(e) = accept_workers(&listener, &mut workers, launcher.as_mut(), &tx) {
        for w in &mut workers {
            if let Some(p) = w.process.as_mut() {
                let _ = p.kill();
            }
        }
        if let Some(l) = launcher.as_mut() {
            let _ = l.kill();
        }
        return Err(e);
    }
    drop(tx);
    let show_progress = options.progress;
    let mut coordinator = Coordinator {
        workers,
        queue: VecDeque::from([Job {
            prefixes: vec![String::new()],
            exclude: Vec::new(),
        }]),
        warnings: Vec::new(),
        stopping: false,
        limits: options,
        started,
        limit_reached: None,
        received: 0,
        sent: 0,
        handed_out: 0,
        blocks: Blocks::new(jobs as usize),
        progress: super::progress::RunProgress::new(jobs as usize, show_progress),
        errors_said: Default::default(),
        once_said: Default::default(),
    };
    coordinator.serve(&events, &interrupt);
    for w in &mut coordinator.workers {
        if let Some(p) = w.process.as_mut() {
            let _ = p.wait();
        }
    }
    if let Some(mut l) = launcher {
        let _ = l.wait();
    }
    let blocks = coordinator.blocks;
    let results: Vec<(PathBuf, Option<WorkerResult>)> = coordinator
        .workers
        .into_iter()
        .enumerate()
        .map(|(id, w)| {
            let mut result = match w.result {
                Some(mut r) => {
                    r.trace_hashes.extend(w.hashes);
                    r
                }
                // Dead: the prefixes it finished count; the tests of the one it was
                // exploring go (it is explored again).
                None => WorkerResult {
                    trace_hashes: w.hashes,
                    covered: Vec::new(),
                    tests_kept: Some(w.tests_before),
                    numbers: Vec::new(),
                    test_files: None,
                },
            };
            result.numbers = blocks.numbers_of(id);
            (w.dir, Some(result))
        })
        .collect();
    coordinator.progress.finish();
    let report = merge::CoordinatorReport {
        limit_reached: coordinator.limit_reached,
        messages_received: coordinator.received,
        messages_sent: coordinator.sent,
        prefixes_handed_out: coordinator.handed_out,
        cpu_s: process_cpu_seconds(),
        emit_all_errors: coordinator.limits.emit_all_errors,
    };
    merge::merge(
        output_dir,
        &results,
        coordinator.warnings,
        started.elapsed(),
        report,
    )
}

/// Accepts one connection per worker (matched by its `Hello`) and starts its reader.
fn accept_workers(
    listener: &TcpListener,
    workers: &mut [Worker],
    mut launcher: Option<&mut Child>,
    tx: &Sender<Event>,
) -> Result<()> {
    listener.set_nonblocking(true)?;
    let deadline = Instant::now() + CONNECT_TIMEOUT;
    let mut connected = 0;
    while connected < workers.len() {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false)?;
                stream.set_nodelay(true).ok();
                let mut reader = BufReader::new(stream.try_clone()?);
                let Ok(Some(FromWorker::Hello { id })) = protocol::receive(&mut reader) else {
                    continue;
                };
                let Some(worker) = workers.get_mut(id) else {
                    continue;
                };
                worker.stream = Some(stream);
                connected += 1;
                let tx = tx.clone();
                std::thread::spawn(move || loop {
                    match protocol::receive::<FromWorker>(&mut reader) {
                        Ok(Some(message)) => {
                            if tx.send((id, Some(message))).is_err() {
                                break;
                            }
                        }
                        _ => {
                            let _ = tx.send((id, None));
                            break;
                        }
                    }
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if let Some((id, status)) = workers.iter_mut().enumerate().find_map(|(i, w)| {
                    let p = w.process.as_mut()?;
                    p.try_wait().ok().flatten().map(|s| (i, s))
                }) {
                    let log = workers[id].dir.with_extension("log");
                    bail!(
                        "worker {id} ended before it connected ({status}): {}",
                        log_tail(&log)
                    );
                }
                if let Some(l) = launcher.as_deref_mut() {
                    if let Ok(Some(status)) = l.try_wait() {
                        let log = workers[0].dir.with_file_name("ray.log");
                        bail!(
                            "the Ray launcher ended before every worker connected ({status}): {}",
                            log_tail(&log)
                        );
                    }
                }
                if Instant::now() > deadline {
                    bail!("workers did not connect within {CONNECT_TIMEOUT:?}");
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => return Err(e).context("accepting a worker"),
        }
    }
    Ok(())
}

/// The balancing loop's state.
struct Coordinator {
    workers: Vec<Worker>,
    queue: VecDeque<Job>,
    warnings: Vec<String>,
    stopping: bool,
    limits: RunOptions,
    started: Instant,
    /// The run-wide limit that stopped the workers (`summary.json`'s `stop_reason`).
    limit_reached: Option<&'static str>,
    /// Messages received and sent, and prefixes handed out (`summary.json`'s `coordinator`).
    received: u64,
    sent: u64,
    handed_out: u64,
    /// The test numbers handed to the workers.
    blocks: Blocks,
    progress: super::progress::RunProgress,
    /// The errors printed (kind and location), each once as a single run prints it.
    errors_said: std::collections::HashSet<String>,
    /// The lines printed that the run prints once.
    once_said: std::collections::HashSet<String>,
}

impl Coordinator {
    /// Serves the workers until every one is done (or dead).
    fn serve(&mut self, events: &Receiver<Event>, interrupt: &AtomicBool) {
        while self.workers.iter().any(|w| w.alive && w.result.is_none()) {
            if interrupt.load(Ordering::SeqCst) && !self.stopping {
                // A signal to the coordinator stops every worker as it would stop one run
                // (each writes the tests of its states left). A message, not a signal: a
                // worker that got the user's signal too would take a second one as "exit
                // at once".
                self.stop_all();
            }
            match events.recv_timeout(Duration::from_millis(100)) {
                Ok((id, Some(message))) => self.handle(id, message),
                Ok((id, None)) => self.lost(id),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            self.check_limits();
            self.balance();
            if self.progress.due() {
                let live = self.workers.iter().map(|w| w.live).sum();
                let paths = self.workers.iter().map(|w| w.paths).sum();
                let instructions = self.workers.iter().map(|w| w.instructions).sum();
                let busy = self.workers.iter().filter(|w| w.alive && !w.idle).count();
                self.progress
                    .show(busy, live, paths, instructions, self.queue.len());
            }
        }
    }

    /// Stops every worker when the run as a whole reaches `--max-time` or
    /// `--max-instructions`.
    fn check_limits(&mut self) {
        if self.stopping {
            return;
        }
        let reached =
            if self
                .limits
                .max_time
                .is_some_and(|t| self.started.elapsed() >= t)
            {
                Some("max-time")
            } else if self.limits.max_instructions.is_some_and(|limit| {
                self.workers.iter().map(|w| w.instructions).sum::<u64>() >= limit
            }) {
                Some("max-instructions")
            } else {
                None
            };
        if reached.is_some() {
            self.limit_reached = reached;
            self.stop_all();
        }
    }

    /// Sends `message` to worker `id`. A failed send only closes the stream: the worker is
    /// declared lost when its reader reports the end of the connection, after every message
    /// it sent before it died was handled (a `Given` still in the channel when the send
    /// failed would otherwise put its prefixes in the queue after the dead worker's prefix
    /// was requeued without excluding them, and those paths would be explored twice).
    fn send(&mut self, id: usize, message: &ToWorker) {
        self.sent += 1;
        if !matches!(message, ToWorker::Covered { .. }) {
            tracing::debug!(
                at = self.started.elapsed().as_secs_f64(),
                "to worker {id}: {message:?}"
            );
        }
        let ok = match self.workers[id].stream.as_mut() {
            Some(stream) => protocol::send(stream, message).is_ok(),
            None => false,
        };
        if !ok {
            self.workers[id].stream = None;
        }
    }

    fn handle(&mut self, id: usize, message: FromWorker) {
        self.received += 1;
        tracing::debug!(
            at = self.started.elapsed().as_secs_f64(),
            "worker {id}: {}",
            message.kind()
        );
        match message {
            FromWorker::Hello { .. } => {}
            FromWorker::Say { line, error, once } => {
                let first = match error {
                    Some(key) => self.errors_said.insert(key) || self.limits.emit_all_errors,
                    None => !once || self.once_said.insert(line.clone()),
                };
                if first {
                    self.progress.println(&line);
                }
            }
            FromWorker::Status {
                live,
                instructions,
                paths,
                covered,
                edges,
            } => {
                let w = &mut self.workers[id];
                w.live = live;
                w.had_nothing = false;
                w.instructions = instructions;
                w.paths = paths;
                if !covered.is_empty() || !edges.is_empty() {
                    // Shared knowledge: what one worker covered first is covered for all.
                    let message = ToWorker::Covered {
                        instructions: covered,
                        edges,
                    };
                    for other in 0..self.workers.len() {
                        if other != id && self.workers[other].alive {
                            self.send(other, &message);
                        }
                    }
                }
            }
            FromWorker::Idle {
                tests,
                trace_hashes,
            } => {
                let w = &mut self.workers[id];
                w.idle = true;
                w.live = 0;
                w.current = None;
                w.given.clear();
                w.tests_before = tests;
                w.hashes.extend(trace_hashes);
            }
            FromWorker::Given { groups } => {
                let w = &mut self.workers[id];
                w.asked = false;
                w.had_nothing = groups.is_empty();
                w.given.extend(groups.iter().flatten().cloned());
                // A subtree given away from a job that leaves some out leaves out those
                // below it too (explored elsewhere: a dead worker's gifts), or they would be
                // explored twice. Records are one decision per line, so a record below
                // another starts with its text.
                let left_out = w.current.as_ref().map_or(&[][..], |j| &j.exclude[..]);
                let below = |g: &String, prefixes: &[String]| {
                    prefixes
                        .iter()
                        .any(|p| g.len() > p.len() && g.starts_with(p.as_str()))
                };
                let jobs: Vec<Job> = groups
                    .into_iter()
                    .map(|prefixes| Job {
                        exclude: left_out
                            .iter()
                            .filter(|g| below(g, &prefixes))
                            .cloned()
                            .collect(),
                        prefixes,
                    })
                    .collect();
                self.queue.extend(jobs);
            }
            FromWorker::Numbers { count } => {
                let start = self.blocks.grant(id, count);
                self.send(id, &ToWorker::Numbers { start, count });
            }
            FromWorker::Done {
                stop_reason,
                trace_hashes,
                covered,
                test_files,
            } => {
                if stop_reason == "exit-on-error" && !self.stopping {
                    // --exit-on-error(-type): the first error stops the whole run.
                    self.stop_all();
                }
                self.workers[id].result = Some(WorkerResult {
                    trace_hashes,
                    covered,
                    tests_kept: None,
                    numbers: Vec::new(),
                    test_files: Some(test_files),
                });
            }
        }
    }

    /// A worker's connection closed: done, or dead (its prefix goes back to the queue).
    fn lost(&mut self, id: usize) {
        let w = &mut self.workers[id];
        if !w.alive {
            return;
        }
        w.alive = false;
        w.stream = None;
        w.asked = false;
        w.idle = false;
        if w.result.is_none() {
            if let Some(p) = w.process.as_mut() {
                let _ = p.kill();
            }
            let mut text = format!("worker {id} ended without finishing");
            if let Some(mut job) = w.current.take() {
                text.push_str("; the prefix it was exploring is explored again");
                job.exclude.append(&mut w.given);
                self.queue.push_back(job);
            }
            crate::term::errln!("sear: warning: {text}");
            self.warnings.push(text);
        }
    }

    /// Hands queued prefixes to idle workers, asks a busy worker for states when some are
    /// idle and none is queued, and stops everything when nothing is left.
    fn balance(&mut self) {
        if self.stopping {
            return;
        }
        for id in 0..self.workers.len() {
            let w = &self.workers[id];
            if !(w.alive && w.idle && w.result.is_none()) {
                continue;
            }
            let Some(job) = self.queue.pop_front() else {
                break;
            };
            let w = &mut self.workers[id];
            w.idle = false;
            w.current = Some(job.clone());
            let Job { prefixes, exclude } = job;
            self.handed_out += prefixes.len() as u64;
            self.send(id, &ToWorker::Explore { prefixes, exclude });
        }
        let idle = self.workers.iter().filter(|w| w.alive && w.idle).count();
        let asking = self.workers.iter().any(|w| w.alive && w.asked);
        if idle == 0 || asking || !self.queue.is_empty() {
            return;
        }
        // The busiest worker by its last status, even one that showed fewer than two states
        // (its first quantum, or a status that is 50 ms old): it gives at the end of its
        // quantum if it can, sooner than a status showing two would come. One that had
        // nothing to give is not asked again before its next status.
        let busy = |w: &Worker| w.alive && !w.idle;
        if !self.workers.iter().any(busy) {
            self.stop_all();
            return;
        }
        let busiest = (0..self.workers.len())
            .filter(|&i| busy(&self.workers[i]) && !self.workers[i].had_nothing)
            .max_by_key(|&i| self.workers[i].live);
        if let Some(id) = busiest {
            self.workers[id].asked = true;
            self.send(id, &ToWorker::Give { groups: idle });
        }
    }

    fn stop_all(&mut self) {
        self.stopping = true;
        for id in 0..self.workers.len() {
            if self.workers[id].alive {
                self.send(id, &ToWorker::Stop);
            }
        }
    }
}

/// The CPU time (user and system) of this process so far: the coordinator's threads, not
/// the workers (children).
fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return 0.0;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// The last lines of a worker's (or the launcher's) log, for an error message.
fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
    if tail.is_empty() {
        format!("see {}", path.display())
    } else {
        tail
    }
}
