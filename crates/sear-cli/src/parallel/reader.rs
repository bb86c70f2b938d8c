//! A worker's reader thread: passes the coordinator's messages on (test numbers to the test
//! writer, the rest to the executor's inbox) and answers a request for states the executor
//! has not answered within [`ANSWER_AFTER`] (it is inside a long quantum, a solver query of
//! seconds, say) from the states the executor listed as givable (`sear_engine::work::Givable`).

use std::io::{BufRead, BufReader, ErrorKind};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use sear_engine::work::Givable;

use super::protocol::{self, FromWorker, SharedWriter, ToWorker};

/// How long a request for states may wait for the executor before this thread answers it.
const ANSWER_AFTER: Duration = Duration::from_millis(20);

/// What a worker's executor thread and its reader thread share.
#[derive(Debug, Default)]
pub struct Shared {
    /// Groups of states the coordinator asked for and not yet given, and since when.
    asked: Mutex<(usize, Option<Instant>)>,
    /// The executor's givable states (`WorkQueue::attach`).
    pub givable: OnceLock<Arc<Mutex<Givable>>>,
}

impl Shared {
    fn ask(&self, groups: usize) {
        let mut asked = self.asked.lock().expect("the request's lock");
        asked.0 += groups;
        asked.1.get_or_insert_with(Instant::now);
    }

    /// Takes the groups asked for (the executor answers them).
    pub fn take_asked(&self) -> usize {
        let mut asked = self.asked.lock().expect("the request's lock");
        asked.1 = None;
        std::mem::take(&mut asked.0)
    }

    /// Answers a request the executor left waiting for [`ANSWER_AFTER`] during a quantum.
    fn answer_late(&self, writer: &mut SharedWriter) {
        let mut asked = self.asked.lock().expect("the request's lock");
        if asked.0 == 0 || asked.1.is_none_or(|since| since.elapsed() < ANSWER_AFTER) {
            return;
        }
        let Some(givable) = self.givable.get() else {
            return;
        };
        let Some(groups) = givable
            .lock()
            .expect("the givable list's lock")
            .take(asked.0)
        else {
            return;
        };
        *asked = (0, None);
        let groups = groups
            .iter()
            .map(|g| g.iter().map(|p| p.to_string()).collect())
            .filter(|g: &Vec<String>| !g.is_empty())
            .collect();
        // A failed send is the executor's to notice (its own sends fail too).
        let _ = protocol::send(writer, &FromWorker::Given { groups });
    }
}

/// Starts the reader thread of `stream`: test numbers go to `numbers`, other messages to
/// `inbox` (a `Stop` also sets `interrupt` and interrupts a solver query under way).
pub fn spawn(
    stream: TcpStream,
    shared: Arc<Shared>,
    mut writer: SharedWriter,
    inbox: Sender<ToWorker>,
    numbers: Sender<(u32, u32)>,
    interrupt: Arc<AtomicBool>,
) {
    // Woken now and then to answer a request left waiting.
    stream.set_read_timeout(Some(ANSWER_AFTER)).ok();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        // A line read in parts across timeouts (`read_until` keeps what it read).
        let mut line = Vec::new();
        loop {
            match reader.read_until(b'\n', &mut line) {
                Ok(0) => break,
                Ok(_) if line.ends_with(b"\n") => {
                    let Ok(message) = serde_json::from_slice::<ToWorker>(&line) else {
                        break;
                    };
                    line.clear();
                    match message {
                        // To the test writer, which may be waiting for them.
                        ToWorker::Numbers { start, count } => {
                            let _ = numbers.send((start, count));
                        }
                        message => {
                            match &message {
                                ToWorker::Give { groups } => shared.ask(*groups),
                                ToWorker::Stop => {
                                    interrupt.store(true, Ordering::SeqCst);
                                    sear_solver::interrupt::request();
                                }
                                _ => {}
                            }
                            if inbox.send(message).is_err() {
                                break;
                            }
                        }
                    }
                }
                Ok(_) => {}
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => break,
            }
            shared.answer_late(&mut writer);
        }
    });
}
