//! Test numbers in a parallel run. Workers write their tests straight into the run's
//! directory under numbers the coordinator hands out in blocks ([`Blocks`], asked for by a
//! worker's [`WorkerNumbers`]), so the merge renames only the few tests needed to close the
//! gaps ([`compact`]): the unused ends of blocks, error tests de-duplicated across workers,
//! and the unfinished prefix of a worker that died. (Renaming every test at the end cost
//! 2 s of a 4 s run with 40,000 tests.)

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::mpsc::Receiver;

use anyhow::{Context, Result};

use super::protocol::{self, FromWorker};

/// The first block a worker asks for; each next one is twice as large, up to
/// [`LARGEST_BLOCK`]. Small first blocks keep short runs' gaps small.
const FIRST_BLOCK: u32 = 4;
/// The largest block: the gaps at the end are at most two blocks per worker.
const LARGEST_BLOCK: u32 = 128;

/// The coordinator's side: the numbers handed out, per worker, in the order handed out.
#[derive(Debug, Default)]
pub struct Blocks {
    next: u32,
    granted: Vec<Vec<(u32, u32)>>,
}

impl Blocks {
    /// No number handed out yet, for `workers` workers; the first is 1.
    pub fn new(workers: usize) -> Blocks {
        Blocks {
            next: 1,
            granted: vec![Vec::new(); workers],
        }
    }

    /// Hands `count` numbers to `worker`: the first of them.
    pub fn grant(&mut self, worker: usize, count: u32) -> u32 {
        let start = self.next;
        self.next += count;
        self.granted[worker].push((start, count));
        start
    }

    /// Every number `worker` was given, in the order it uses them.
    pub fn numbers_of(&self, worker: usize) -> Vec<u32> {
        self.granted[worker]
            .iter()
            .flat_map(|&(start, count)| start..start + count)
            .collect()
    }
}

/// A worker's source of test numbers: blocks from the coordinator, the next one asked for
/// when half of the current one is used, so that the worker rarely waits.
pub struct WorkerNumbers {
    writer: Box<dyn Write + Send>,
    replies: Receiver<(u32, u32)>,
    /// Numbers not used yet, in order.
    ready: std::collections::VecDeque<Range<u32>>,
    asked: bool,
    block: u32,
}

impl WorkerNumbers {
    /// Numbers asked for over `writer` and received on `replies` (the worker's reader thread
    /// passes the coordinator's `Numbers` messages there).
    pub fn new(
        writer: impl Write + Send + 'static,
        replies: Receiver<(u32, u32)>,
    ) -> WorkerNumbers {
        WorkerNumbers {
            writer: Box::new(writer),
            replies,
            ready: Default::default(),
            asked: false,
            block: FIRST_BLOCK,
        }
    }

    /// How many numbers are ready.
    fn left(&self) -> usize {
        self.ready.iter().map(ExactSizeIterator::len).sum()
    }

    fn ask(&mut self) -> Option<()> {
        protocol::send(&mut self.writer, &FromWorker::Numbers { count: self.block }).ok()?;
        self.asked = true;
        self.block = (self.block * 2).min(LARGEST_BLOCK);
        Some(())
    }

    fn take_replies(&mut self, wait: bool) -> Option<()> {
        let (start, count) = if wait {
            self.replies.recv().ok()?
        } else {
            match self.replies.try_recv() {
                Ok(reply) => reply,
                Err(_) => return Some(()),
            }
        };
        self.asked = false;
        self.ready.push_back(start..start + count);
        Some(())
    }
}

impl sear_engine::output::TestNumbers for WorkerNumbers {
    fn next(&mut self) -> Option<u32> {
        if self.asked {
            self.take_replies(self.left() == 0)?;
        }
        if !self.asked && self.left() <= self.block as usize / 2 {
            self.ask()?;
            if self.left() == 0 {
                self.take_replies(true)?;
            }
        }
        let range = self.ready.front_mut()?;
        let number = range.next()?;
        if range.start == range.end {
            self.ready.pop_front();
        }
        Some(number)
    }
}

/// The test files of the run's directory by number (`test000012.ktest` → 12 → `.ktest`).
pub fn test_files(dir: &Path) -> Result<BTreeMap<u32, Vec<String>>> {
    let mut tests: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let name = entry?.file_name().to_string_lossy().into_owned();
        let is_test = name.len() > 10
            && name.starts_with("test")
            && name[4..10].bytes().all(|b| b.is_ascii_digit())
            && name.as_bytes()[10] == b'.';
        if is_test {
            let number = name[4..10].parse().expect("six digits");
            tests
                .entry(number)
                .or_default()
                .push(name[10..].to_string());
        }
    }
    Ok(tests)
}

/// Makes the kept tests of `dir` the numbers `1..=kept.len()`: deletes the files of every
/// other test and renames the kept tests above that range into its gaps (lowest first).
/// Returns the renames (old number → new).
/// `files` is [`test_files`] of `dir`.
pub fn compact(
    dir: &Path,
    files: &BTreeMap<u32, Vec<String>>,
    kept: &BTreeSet<u32>,
) -> Result<HashMap<u32, u32>> {
    for (number, suffixes) in files {
        if !kept.contains(number) {
            for suffix in suffixes {
                let path = dir.join(format!("test{number:06}{suffix}"));
                std::fs::remove_file(&path)
                    .with_context(|| format!("removing {}", path.display()))?;
            }
        }
    }
    let size = kept.len() as u32;
    let gaps = (1..=size).filter(|n| !kept.contains(n));
    let movers = kept.range(size + 1..).copied();
    let mut renames = HashMap::new();
    for (from, to) in movers.zip(gaps) {
        for suffix in files.get(&from).map_or(&[][..], Vec::as_slice) {
            let old = dir.join(format!("test{from:06}{suffix}"));
            let new = dir.join(format!("test{to:06}{suffix}"));
            std::fs::rename(&old, &new)
                .with_context(|| format!("moving {} to {}", old.display(), new.display()))?;
        }
        renames.insert(from, to);
    }
    Ok(renames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_disjoint_and_kept_per_worker_in_order() {
        let mut blocks = Blocks::new(2);
        assert_eq!(blocks.grant(0, 4), 1);
        assert_eq!(blocks.grant(1, 4), 5);
        assert_eq!(blocks.grant(0, 8), 9);
        assert_eq!(
            blocks.numbers_of(0),
            vec![1, 2, 3, 4, 9, 10, 11, 12, 13, 14, 15, 16]
        );
        assert_eq!(blocks.numbers_of(1), vec![5, 6, 7, 8]);
    }

    #[test]
    fn a_worker_asks_for_growing_blocks_ahead_and_uses_them_in_order() {
        use sear_engine::output::TestNumbers;
        use std::io::BufReader;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let writer = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        let (tx, replies) = std::sync::mpsc::channel();
        // The coordinator: blocks from a shared counter, another worker's between ours.
        let coordinator = std::thread::spawn(move || {
            let mut reader = BufReader::new(server);
            let mut blocks = Blocks::new(2);
            let mut asked = Vec::new();
            while let Ok(Some(FromWorker::Numbers { count })) =
                protocol::receive::<FromWorker>(&mut reader)
            {
                asked.push(count);
                blocks.grant(1, 3);
                let start = blocks.grant(0, count);
                if tx.send((start, count)).is_err() {
                    break;
                }
            }
            asked
        });
        let mut numbers = WorkerNumbers::new(writer, replies);
        let got: Vec<u32> = (0..40).map(|_| numbers.next().unwrap()).collect();
        drop(numbers);
        let asked = coordinator.join().unwrap();
        assert_eq!(&asked[..4], &[4, 8, 16, 32], "blocks double");
        assert!(got.windows(2).all(|w| w[0] < w[1]), "in order: {got:?}");
        assert_eq!(&got[..6], &[4, 5, 6, 7, 11, 12], "our blocks only: {got:?}");
    }

    #[test]
    fn compaction_closes_the_gaps_and_deletes_what_is_not_kept() {
        let dir = tempfile::tempdir().unwrap();
        for n in [1u32, 2, 4, 7, 9] {
            std::fs::write(dir.path().join(format!("test{n:06}.ktest")), n.to_string()).unwrap();
        }
        std::fs::write(dir.path().join("test000009.exit"), "0\n").unwrap();
        std::fs::write(dir.path().join("summary.json"), "{}").unwrap();
        let kept = BTreeSet::from([1, 4, 7, 9]);
        let files = test_files(dir.path()).unwrap();
        let renames = compact(dir.path(), &files, &kept).unwrap();
        assert_eq!(renames, HashMap::from([(7, 2), (9, 3)]));
        let files = test_files(dir.path()).unwrap();
        assert_eq!(files.keys().copied().collect::<Vec<_>>(), vec![1, 2, 3, 4]);
        let mut moved = files[&3].clone();
        moved.sort();
        assert_eq!(moved, [".exit", ".ktest"]);
        let read =
            |n: u32| std::fs::read_to_string(dir.path().join(format!("test{n:06}.ktest"))).unwrap();
        assert_eq!(
            (read(2), read(3), read(4)),
            ("7".into(), "9".into(), "4".into())
        );
        assert!(dir.path().join("test000003.exit").exists());
        assert!(dir.path().join("summary.json").exists());
    }
}
