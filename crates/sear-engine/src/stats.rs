//! Run statistics and instruction coverage.

use std::time::Duration;

use rustc_hash::{FxHashMap, FxHashSet};
use sear_ir::{FuncId, Module};
use serde::Serialize;

/// Counters of one run.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Stats {
    /// The AC normalisation's counters when the executor was created (they are
    /// process-wide).
    #[serde(skip)]
    pub ac_at_start: sear_expr::ac::AcStats,
    /// `sear_expr::ite_lift::lifted()` when the executor was created (process-wide too).
    #[serde(skip)]
    pub lifted_at_start: u64,
    /// `sear_expr::ite_compare`'s `rewritten()` and `nodes()` when the executor was created
    /// (process-wide too).
    #[serde(skip)]
    pub ite_compare_at_start: (u64, u64),
    /// Instructions executed (all states).
    pub instructions: u64,
    /// Solver queries issued by the engine.
    pub queries: u64,
    /// Time spent in the solver.
    pub solver_time: Duration,
    /// States created by forking.
    pub forks: u64,
    /// Peak number of live states.
    pub max_states: u64,
    /// Paths completed.
    pub completed_paths: u64,
    /// Paths ended by errors.
    pub error_paths: u64,
    /// Paths merged into others.
    pub merged_states: u64,
    /// States dropped for the memory limit.
    pub dropped_states: u64,
    /// Branches at the memory limit that followed one feasible side (KLEE's fork
    /// inhibition) instead of forking.
    pub forks_inhibited: u64,
    /// Values concretised (symbolic floats, sizes, external arguments).
    pub concretisations: u64,
    /// Floating-point operations built symbolically (`--fp=symbolic`).
    pub fp_symbolic_ops: u64,
}

/// A place in the module: (function, block, instruction) for an instruction, (function,
/// from block, to block) for a control-flow edge.
pub type Position = (u32, u32, u32);

/// Which instructions have been executed, per function and block.
#[derive(Debug)]
pub struct Coverage {
    /// Per function: per block, per instruction (the terminator included), how many times
    /// it executed on any path (0: not covered).
    covered: Vec<Vec<Vec<u64>>>,
    /// Per function: instructions executed in it on any path.
    per_function: Vec<u64>,
    total: u64,
    count: u64,
    by_name: FxHashMap<String, FuncId>,
    /// Whether newly covered instructions are collected in `new` (a worker of a parallel
    /// run, which reports them to the others).
    collect_new: bool,
    new: Vec<(u32, u32, u32)>,
    /// Control-flow edges (function, from block, to block) some path took, kept only when
    /// `--only-output-states-covering-new` asks (a new branch direction is new coverage).
    edges: FxHashSet<(u32, u32, u32)>,
    /// Edges taken here first, collected like `new` for the other workers.
    new_edges: Vec<(u32, u32, u32)>,
}

impl Coverage {
    /// Empty coverage for the module's defined functions.
    pub fn new(module: &Module) -> Self {
        let mut total = 0u64;
        let covered: Vec<Vec<Vec<u64>>> = module
            .functions
            .iter()
            .map(|f| {
                f.blocks
                    .iter()
                    .map(|b| {
                        total += b.insts.len() as u64 + 1;
                        vec![0; b.insts.len() + 1]
                    })
                    .collect()
            })
            .collect();
        Coverage {
            per_function: vec![0; covered.len()],
            covered,
            total,
            count: 0,
            by_name: module.function_index.clone().into_iter().collect(),
            collect_new: false,
            new: Vec::new(),
            edges: FxHashSet::default(),
            new_edges: Vec::new(),
        }
    }

    /// Collects the instructions covered from now on for [`Coverage::unreported`].
    pub fn collect_new(&mut self) {
        self.collect_new = true;
    }

    /// Marks an instruction another worker covered: covered from now on for the searchers
    /// and `--only-output-states-covering-new`, without counting an execution here. Returns
    /// true if it was not covered before. Positions outside the module are ignored.
    pub fn mark_elsewhere(&mut self, func: u32, block: u32, inst: u32) -> bool {
        let Some(n) = self
            .covered
            .get_mut(func as usize)
            .and_then(|f| f.get_mut(block as usize))
            .and_then(|b| b.get_mut(inst as usize))
        else {
            return false;
        };
        if *n > 0 {
            return false;
        }
        *n = 1;
        self.count += 1;
        true
    }

    /// Marks an instruction; returns true if it was not covered before.
    #[inline]
    pub fn mark(&mut self, func: u32, block: u32, inst: usize) -> bool {
        self.per_function[func as usize] += 1;
        let n = &mut self.covered[func as usize][block as usize][inst];
        *n += 1;
        if *n == 1 {
            self.count += 1;
            if self.collect_new {
                self.new.push((func, block, inst as u32));
            }
            true
        } else {
            false
        }
    }

    /// Marks the edge from block `from` to block `to` of a function; returns true if no
    /// path took it before (KLEE counts a new branch direction as new coverage too: the
    /// edge to a block that other paths already covered covers no new instruction).
    pub fn mark_edge(&mut self, func: u32, from: u32, to: u32) -> bool {
        let new = self.edges.insert((func, from, to));
        if new && self.collect_new {
            self.new_edges.push((func, from, to));
        }
        new
    }

    /// The instructions and the edges newly covered (with [`Coverage::collect_new`]) and
    /// not yet reported: whoever reports them takes them out.
    pub fn unreported(&mut self) -> (&mut Vec<Position>, &mut Vec<Position>) {
        (&mut self.new, &mut self.new_edges)
    }

    /// Marks an edge another worker took first: no longer new coverage here. Returns true
    /// if it was not taken here before.
    pub fn mark_edge_elsewhere(&mut self, func: u32, from: u32, to: u32) -> bool {
        self.edges.insert((func, from, to))
    }

    /// How many times an instruction executed, over all paths.
    pub fn executions(&self, func: u32, block: u32, inst: usize) -> u64 {
        self.covered[func as usize][block as usize]
            .get(inst)
            .copied()
            .unwrap_or(0)
    }

    /// Instructions executed in a function, over all paths.
    pub fn function_executions(&self, func: u32) -> u64 {
        self.per_function[func as usize]
    }

    /// True when some instruction of the block has not executed yet.
    pub fn block_has_uncovered(&self, func: u32, block: u32) -> bool {
        self.covered[func as usize][block as usize].contains(&0)
    }

    /// Covered instructions.
    pub fn covered(&self) -> u64 {
        self.count
    }

    /// The covered instructions as (function, block, instruction).
    pub fn covered_list(&self) -> Vec<(u32, u32, u32)> {
        let mut out = Vec::with_capacity(self.count as usize);
        for (f, blocks) in self.covered.iter().enumerate() {
            for (b, insts) in blocks.iter().enumerate() {
                for (i, n) in insts.iter().enumerate() {
                    if *n > 0 {
                        out.push((f as u32, b as u32, i as u32));
                    }
                }
            }
        }
        out
    }

    /// Instructions in defined functions.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// True if the function with this name executed at least one instruction.
    pub fn function_reached(&self, name: &str) -> bool {
        self.by_name.get(name).is_some_and(|f| {
            self.covered[f.0 as usize]
                .iter()
                .any(|b| b.iter().any(|x| *x > 0))
        })
    }
}

/// The memory the process's allocator has handed out and not taken back, in MiB: what KLEE
/// measures for `--max-memory` (glibc's `mallinfo2`, which every Rust, C and C++ allocation
/// of the process goes through). Unlike the resident set size, it falls when states are
/// freed, so a drop of states is seen at the next check. The resident set size where
/// `mallinfo2` is missing.
pub fn memory_in_use_mib() -> Option<u64> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: mallinfo2 only reads the allocator's bookkeeping, under its locks.
        let info = unsafe { libc::mallinfo2() };
        Some(((info.uordblks + info.hblkhd) / (1024 * 1024)) as u64)
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        resident_mib()
    }
}

/// The process's resident set size in MiB (Linux), if available.
pub fn resident_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096 / (1024 * 1024))
}

/// The process's resource usage so far (`getrusage(RUSAGE_SELF)`): CPU time in user and
/// system mode and the peak resident set size.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProcessUsage {
    /// CPU time in user mode, in seconds.
    pub user_s: f64,
    /// CPU time in system mode, in seconds.
    pub system_s: f64,
    /// The largest resident set size the process has had, in MiB.
    pub peak_resident_mib: f64,
}

/// The process's [`ProcessUsage`], or `None` if `getrusage` fails.
pub fn process_usage() -> Option<ProcessUsage> {
    // SAFETY: getrusage writes only the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) } != 0 {
        return None;
    }
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(ProcessUsage {
        user_s: secs(usage.ru_utime),
        system_s: secs(usage.ru_stime),
        // Linux gives ru_maxrss in KiB.
        peak_resident_mib: usage.ru_maxrss as f64 / 1024.0,
    })
}
