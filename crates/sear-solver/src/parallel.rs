//! A parallel portfolio: Z3 with native arrays and the eager core, each in its own thread
//! with its own Z3 context, given every query at once; the first answer wins and the other
//! core is interrupted.
//!
//! Measured on the bench suite (docs/benchmarks.md): Z3's array theory answers most queries
//! of table-driven code in milliseconds but stalls on some (long `store` chains of large
//! constant tables), where the eager encoding answers at once; elsewhere the eager encoding
//! costs several times more per query. Racing them gives, query by query, the faster of the
//! two: the engine waits for the solver either way, so the second thread costs no wall time
//! where a second core is free.
//!
//! Answers are only ever taken from a core that finished its query, so the race changes
//! which model comes back, never whether an answer is right. A core that ignores the
//! interruption (Z3 deep in rewriting) keeps its thread busy; its late answer is dropped and
//! the other core answers meanwhile.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use sear_expr::Expr;

use crate::chain::new_core_with;
use crate::config::{ArrayConfig, CoreKind};
use crate::query::{QueryMeta, SolverError};
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// One query, owned, for a worker thread.
struct Job {
    id: u64,
    constraints: Vec<Expr>,
    expr: Expr,
    focus: Option<Expr>,
    meta: QueryMeta,
    constraints_known_sat: bool,
    need_model: bool,
    timeout: Option<Duration>,
}

/// A worker's answer to job `id`.
struct Answer {
    id: u64,
    worker: usize,
    result: Result<SatResult, SolverError>,
}

/// A core running in its own thread.
struct Worker {
    jobs: Sender<Job>,
    /// The job the worker is solving (0: none), to interrupt only that one.
    busy_with: Arc<AtomicU64>,
    /// The worker's Z3 context (for `Z3_interrupt`).
    context: Arc<AtomicUsize>,
    /// The core's statistics after its last query.
    stats: Arc<Mutex<Vec<LayerStats>>>,
}

impl Worker {
    fn spawn(
        index: usize,
        kind: CoreKind,
        array: ArrayConfig,
        answers: Sender<Answer>,
        latest: Arc<AtomicU64>,
    ) -> Self {
        let (jobs, inbox) = channel::<Job>();
        let busy_with = Arc::new(AtomicU64::new(0));
        let context = Arc::new(AtomicUsize::new(0));
        let stats = Arc::new(Mutex::new(Vec::new()));
        let (busy, ctx, shared_stats) = (busy_with.clone(), context.clone(), stats.clone());
        thread::Builder::new()
            .name(format!("sear-{}", kind.name()))
            .spawn(move || {
                let mut core = new_core_with(kind, &array);
                ctx.store(crate::interrupt::thread_context_address(), Ordering::SeqCst);
                for job in inbox {
                    if job.id < latest.load(Ordering::SeqCst) {
                        continue; // queued behind a slow query, and asked again since
                    }
                    busy.store(job.id, Ordering::SeqCst);
                    core.set_timeout(job.timeout);
                    let query = SatQuery {
                        constraints: &job.constraints,
                        expr: job.expr.clone(),
                        meta: &job.meta,
                        constraints_known_sat: job.constraints_known_sat,
                        need_model: job.need_model,
                        focus: job.focus.clone(),
                    };
                    let result = core.check(&query);
                    busy.store(0, Ordering::SeqCst);
                    let mut stats = Vec::new();
                    core.collect_stats(&mut stats);
                    *shared_stats.lock().unwrap_or_else(|e| e.into_inner()) = stats;
                    let answer = Answer {
                        id: job.id,
                        worker: index,
                        result,
                    };
                    if answers.send(answer).is_err() {
                        break;
                    }
                }
            })
            .expect("spawning a solver thread");
        Worker {
            jobs,
            busy_with,
            context,
            stats,
        }
    }

    /// Interrupts the worker if it is still solving job `id`.
    fn interrupt(&self, id: u64) {
        if self.busy_with.load(Ordering::SeqCst) == id {
            crate::interrupt::interrupt_context(self.context.load(Ordering::SeqCst));
        }
    }
}

/// Z3 and the eager core racing on every query.
pub struct ParallelPortfolio {
    workers: Vec<Worker>,
    answers: Receiver<Answer>,
    /// The newest query's id: workers skip older queries still in their queues.
    latest: Arc<AtomicU64>,
    next_id: u64,
    timeout: Option<Duration>,
    stats: LayerStats,
}

impl ParallelPortfolio {
    /// Starts the two cores' threads.
    pub fn new(array: &ArrayConfig) -> Self {
        let (tx, answers) = channel();
        let latest = Arc::new(AtomicU64::new(0));
        let workers = [CoreKind::Z3, CoreKind::Eager]
            .into_iter()
            .enumerate()
            .map(|(i, kind)| Worker::spawn(i, kind, array.clone(), tx.clone(), latest.clone()))
            .collect();
        ParallelPortfolio {
            workers,
            answers,
            latest,
            next_id: 0,
            timeout: None,
            stats: LayerStats::new_core("parallel"),
        }
    }
}

impl SatSolver for ParallelPortfolio {
    fn name(&self) -> &'static str {
        "parallel"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        // The workers run on their own threads: they get the query's deadline as a timeout.
        let timeout = crate::deadline::clamp(self.timeout);
        self.next_id += 1;
        let id = self.next_id;
        self.latest.store(id, Ordering::SeqCst);
        let mut sent = 0;
        for worker in &self.workers {
            let job = Job {
                id,
                constraints: query.constraints.to_vec(),
                expr: query.expr.clone(),
                focus: query.focus.clone(),
                meta: query.meta.clone(),
                constraints_known_sat: query.constraints_known_sat,
                need_model: query.need_model,
                timeout,
            };
            sent += worker.jobs.send(job).is_ok() as usize;
        }
        let mut last_error = SolverError::Failure("no solver thread is running".into());
        // A core that ignores its timeout and the interruption must not hold the engine: past
        // the timeout and a margin, the query has timed out, whatever the threads still do.
        let deadline = timeout.map(|t| start + t + (t / 4).max(Duration::from_millis(100)));
        let mut received = 0;
        while received < sent {
            let next = match deadline {
                Some(d) => self
                    .answers
                    .recv_timeout(d.saturating_duration_since(Instant::now()))
                    .map_err(|e| matches!(e, RecvTimeoutError::Timeout)),
                None => self.answers.recv().map_err(|_| false),
            };
            let answer = match next {
                Ok(answer) => answer,
                Err(timed_out) => {
                    if timed_out {
                        for worker in &self.workers {
                            worker.interrupt(id);
                        }
                        self.stats.bump("overran", 1);
                        last_error = SolverError::Timeout;
                    }
                    break;
                }
            };
            if answer.id != id {
                continue; // a late answer to an earlier query
            }
            received += 1;
            match answer.result {
                Ok(result) => {
                    for (i, worker) in self.workers.iter().enumerate() {
                        if i != answer.worker {
                            worker.interrupt(id);
                        }
                    }
                    self.stats.bump(["won_z3", "won_eager"][answer.worker], 1);
                    self.stats.record(start, false);
                    return Ok(result);
                }
                Err(e) => last_error = e,
            }
        }
        self.stats.record(start, false);
        Err(last_error)
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        // The racing cores are reported as layers: the portfolio is the chain's core.
        for worker in &self.workers {
            let stats = worker.stats.lock().unwrap_or_else(|e| e.into_inner());
            out.extend(
                stats
                    .iter()
                    .cloned()
                    .map(|s| LayerStats { core: false, ..s }),
            );
        }
    }
}
