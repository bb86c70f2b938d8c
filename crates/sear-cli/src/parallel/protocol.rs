//! The messages between the coordinator and a worker: one JSON object per line, each way,
//! over the worker's TCP connection to the coordinator. Prefixes travel in the path-record
//! text form (`sear_engine::path`).

use std::io::{BufRead, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

/// The environment variable that makes `sear run` a worker: `ADDRESS ID DIR` (the
/// coordinator's address, the worker's number, its output directory).
pub const WORKER_ENV: &str = "SEAR_WORKER";

/// The environment variable naming the module the coordinator prepared for its workers
/// (`worker::PreparedBitcode` as JSON): workers load it instead of compiling the program.
pub const BITCODE_ENV: &str = "SEAR_WORKER_BITCODE";

/// From a worker to the coordinator.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromWorker {
    /// The first message: who is speaking.
    Hello {
        /// The worker's number.
        id: usize,
    },
    /// Between quanta, now and then: the worker's progress.
    Status {
        /// Live states.
        live: usize,
        /// Instructions executed so far (rebuilding included).
        #[serde(default)]
        instructions: u64,
        /// Paths ended so far.
        #[serde(default)]
        paths: u64,
        /// Instructions it covered first since its last status (function, block,
        /// instruction).
        #[serde(default)]
        covered: Vec<(u32, u32, u32)>,
        /// Control-flow edges (function, from block, to block) it took first since its last
        /// status (under `--only-output-states-covering-new`, where they are new coverage).
        #[serde(default)]
        edges: Vec<(u32, u32, u32)>,
    },
    /// The worker has no state left and waits for a prefix; it ended the paths of its last
    /// prefix, whose trace hashes it sends, and has written `tests` tests in all.
    Idle {
        /// Tests written so far.
        tests: u32,
        /// The trace hash of every path ended since the last `Idle`.
        trace_hashes: Vec<u64>,
    },
    /// States given away, answering `Give` (possibly none), in groups: each group is one
    /// job for one worker, which rebuilds its prefixes together.
    Given {
        /// Their path records, as text, by group.
        groups: Vec<Vec<String>>,
    },
    /// Asks for test numbers (the answer is a `Numbers`).
    Numbers {
        /// How many.
        count: u32,
    },
    /// A line for the user's terminal (an error found, a warning, a debug line), which a
    /// single run would print on its standard error.
    Say {
        /// The line, as a single run prints it.
        line: String,
        /// For an error: its kind and location (`kind file line`), by which the coordinator
        /// prints the first error of each only, as a single run reports it.
        #[serde(default)]
        error: Option<String>,
        /// A line the run prints once (a warning a single run gives once): the coordinator
        /// prints it once whichever workers send it.
        #[serde(default)]
        once: bool,
    },
    /// The worker's run ended (its `summary.json` is written).
    Done {
        /// Why its run stopped (`summary.json`'s `stop_reason`).
        stop_reason: String,
        /// The trace hash of every path ended since the last `Idle`.
        trace_hashes: Vec<u64>,
        /// The instructions it covered (function, block, instruction).
        covered: Vec<(u32, u32, u32)>,
        /// The test files it wrote.
        #[serde(default)]
        test_files: sear_engine::output::TestFiles,
    },
}

impl FromWorker {
    /// The message's kind and size, for the coordinator's debug log.
    pub fn kind(&self) -> String {
        match self {
            FromWorker::Hello { .. } => "hello".into(),
            FromWorker::Status { live, .. } => format!("status, {live} live"),
            FromWorker::Idle { trace_hashes, .. } => format!("idle, {} paths", trace_hashes.len()),
            FromWorker::Given { groups } => {
                let prefixes: usize = groups.iter().map(Vec::len).sum();
                format!("given {prefixes} in {} groups", groups.len())
            }
            FromWorker::Numbers { count } => format!("{count} test numbers wanted"),
            FromWorker::Say { .. } => "a line to print".into(),
            FromWorker::Done { .. } => "done".into(),
        }
    }
}

/// From the coordinator to a worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToWorker {
    /// Explore below these prefixes (path records as text, rebuilt together; one empty
    /// record: the whole program), except below the `exclude` prefixes (explored elsewhere).
    Explore {
        /// The prefixes.
        prefixes: Vec<String>,
        /// Subtrees to leave out.
        exclude: Vec<String>,
    },
    /// Instructions other workers covered first: covered for this worker too.
    Covered {
        /// (function, block, instruction)
        instructions: Vec<(u32, u32, u32)>,
        /// Control-flow edges other workers took first (function, from block, to block).
        #[serde(default)]
        edges: Vec<(u32, u32, u32)>,
    },
    /// Test numbers for the worker: `start .. start + count`.
    Numbers {
        /// The first.
        start: u32,
        /// How many.
        count: u32,
    },
    /// Give states away, in this many groups (one per idle worker; the giver keeps a share
    /// as large as each group's).
    Give {
        /// How many groups.
        groups: usize,
    },
    /// The run is over: finish (write the remaining states' tests) and exit.
    Stop,
}

/// The writing end of a worker's connection, shared by its threads (the executor's and the
/// reader's, which may answer a `Give` during a long quantum): each message is written whole
/// under the lock, so that two threads' messages never interleave.
#[derive(Clone, Debug)]
pub struct SharedWriter(Arc<Mutex<TcpStream>>);

impl SharedWriter {
    /// Shares `stream`'s writing end.
    pub fn new(stream: TcpStream) -> SharedWriter {
        SharedWriter(Arc::new(Mutex::new(stream)))
    }

    fn stream(&self) -> std::io::Result<std::sync::MutexGuard<'_, TcpStream>> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("a worker thread panicked while writing"))
    }
}

impl Write for SharedWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.stream()?.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.stream()?.write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.stream()?.flush()
    }
}

/// Writes one message as a line.
pub fn send<T: Serialize>(out: &mut impl Write, message: &T) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message)?;
    line.push(b'\n');
    out.write_all(&line)?;
    out.flush()
}

/// Reads one message; `None` at the end of the stream.
pub fn receive<T: for<'de> Deserialize<'de>>(
    input: &mut impl BufRead,
) -> std::io::Result<Option<T>> {
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    serde_json::from_str(&line)
        .map(Some)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}
