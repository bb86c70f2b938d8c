//! Parallel exploration (`sear run --jobs N`): a coordinator inside `sear run` and N worker
//! processes of the same binary, spoken to over local TCP connections.
//!
//! - `args.rs`: `--jobs N|auto`.
//! - `protocol.rs`: the messages (JSON lines) between coordinator and workers.
//! - `worker.rs`: a worker: `sear run` with the same command line, started by the
//!   coordinator with `SEAR_WORKER` set; its executor explores the prefixes it receives
//!   (`sear_engine::work`) and writes its tests into the run's directory.
//! - `reader.rs`: a worker's reader thread, which also answers a request for states the
//!   executor leaves waiting during a long quantum.
//! - `numbering.rs`: the test numbers the coordinator hands the workers in blocks, and the
//!   merge's compaction of the gaps.
//! - `coordinator.rs`: starts the workers, hands out prefixes and balances the load (an idle
//!   worker gets states a busy one gives away), notices a worker that dies, stops them.
//! - `progress.rs`: the run's progress line, from the workers' status reports, and the
//!   lines the workers send to be printed (errors once per kind and location).
//! - `merge.rs`: one output directory from the workers' (dense test numbers, errors
//!   de-duplicated per location, `summary.json` aggregated with a section per worker).
//! - `cluster.rs`, `ray_workers.py`: `--cluster ADDRESS`: the workers placed on a Ray
//!   cluster's nodes (Ray places, starts and watches them; they connect back over TCP).
//!
//! Why not threads: workers as processes keep memory isolated (one run's states, caches and
//! solver contexts per process; Z3 contexts are not shared across threads) and speak the
//! same protocol a cluster's workers do.

pub mod args;
mod cluster;
mod coordinator;
mod merge;
mod numbering;
mod progress;
pub(crate) mod protocol;
mod reader;
pub mod worker;

pub use cluster::check as check_cluster;
pub use coordinator::{run_parallel, RunOptions};
pub(crate) use protocol::{FromWorker, SharedWriter};
