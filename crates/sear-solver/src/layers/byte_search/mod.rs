//! The byte search: a query over a few input bytes decided by a search over their values,
//! by evaluation, before the core.
//!
//! A table-driven scanner's queries read a handful of input bytes through nested constant
//! tables (`check[base[s] + cls[in[2]]]` after `in[0]` and `in[1]`). An SMT core sees
//! thousands of table cells; the question is which of 256 values each of three bytes can
//! take. The search orders the bytes the query reads (by array, then index), keeps for each
//! byte the values its one-byte conjuncts allow, and then assigns the bytes in order,
//! checking each conjunct as soon as its last byte has a value. It either finds a model,
//! which every conjunct then holds in (`Sat`), or exhausts every combination (`Unsat`): the
//! answer is exact, by the same evaluation semantics the counterexample cache uses (a read
//! past the end of a sized array is 0).
//!
//! Combinations are not enumerated one by one: after bytes `0..=k` have values, the
//! conjuncts still to check depend on them only through a few terms (the level's
//! [`Frontier`]: on a scanner, the automaton's state after `k + 1` bytes). A prefix whose
//! frontier values already led to no solution is not searched again, and each level
//! evaluates from the previous level's frontier values, so the search is one over the
//! states each byte can lead to, as a dynamic programme over the automaton would be.
//!
//! Bounded by a budget of evaluated nodes proportional to the average time of the queries
//! below ([`NODES_PER_SEC`] × [`BUDGET_SHARE`]): a search that runs out gives the query to
//! the layer below, having cost at most a fraction of what that layer takes on average.
//! While the layer below is fast ([`SlowBelow`]) that budget is nil (a fast core answers
//! before a search would), except for a query that reads constant tables at symbolic
//! indices: [`NODES_PER_TABLE_CELL`] per cell, since the eager core asserts every cell and
//! such a query can cost it seconds among queries of milliseconds. Queries that read a
//! symbolic array at a symbolic index (or through a write at one), unbounded arrays, or
//! more than [`MAX_BYTES`] bytes are passed down as they are.

mod frontier;
mod reads;

use std::rc::Rc;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::visit::collect_symbolic_arrays;
use sear_expr::{ArrayRef, Assignment, Evaluator, Expr};

use crate::audit::Audit;
use crate::layers::slow_below::SlowBelow;
use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use frontier::{frontier_terms, Frontier, NoFrontier};
use reads::{reads_of, ByteSet, Reads};

/// The most input bytes a searched query may read.
pub const MAX_BYTES: usize = 16;
/// Nodes evaluated per second, the rate the budget assumes (measured on the bench suite's
/// scanners: about 10 million on the project's machine).
pub const NODES_PER_SEC: f64 = 10_000_000.0;
/// The share of the layer below's average query time a search may take.
pub const BUDGET_SHARE: f64 = 0.5;
/// The average time below (seconds) beyond which the budget grows no more. The average
/// follows single queries closely (each weighs half), so one core query of 37 s on coreutils
/// `stat` gave the next searches budgets of 14 s, spent in vain on queries the core then
/// answered at once.
pub const MAX_SLOW_SECS: f64 = 1.0;
/// The weight of the newest search in [`ByteSearch`]'s moving average of its hit rate.
const HIT_WEIGHT: f64 = 1.0 / 16.0;
/// The least share of the time-given budget a low hit rate leaves (the search keeps probing
/// whether the queries became decidable).
const MIN_HIT_SCALE: f64 = 1.0 / 16.0;
/// The share of the query's time left that a search may take.
const DEADLINE_SHARE: f64 = 0.5;
/// The budget (nodes) per cell of the constant tables a query reads at symbolic indices,
/// whatever the time below: the eager core asserts every such cell, so a query over a
/// scanner's 31,744-byte transition table costs it 0.1–7 s even where its other queries
/// take milliseconds (flex `-Cf` tables, lex-bc-full under the default searcher).
pub const NODES_PER_TABLE_CELL: usize = 256;
/// The keys a level computes before it stops unless one of them repeated a failed one.
const KEY_TRIAL: u32 = 64;
/// Conjunct checks between two checks of the deadline and of interruption requests.
const CHECK_EVERY: u64 = 64;
/// The memo is cleared when it holds this many answers or conjuncts.
const MEMO_LIMIT: usize = 1 << 21;

/// What the search keeps across queries (a path's constraints come back in every query on
/// it).
#[derive(Default)]
struct Memo {
    /// Whether a conjunct holds for the values of the bytes it reads (packed into a `u64`).
    answers: FxHashMap<(Expr, u64), bool>,
    /// For a conjunct of one byte, the values of that byte under which it holds (a bit per
    /// value): a byte's domain is then the intersection of its conjuncts' sets, one lookup
    /// per conjunct rather than one per conjunct and value (on coreutils, where an argument
    /// byte has dozens of one-byte conditions, the 256 lookups per conjunct and query were
    /// most of the search's time).
    unary: FxHashMap<Expr, ByteSet>,
    /// The input bytes and tables each conjunct reads.
    reads: FxHashMap<Expr, Rc<Reads>>,
    /// The budget units the searches have spent (kept when the memo is cleared).
    units: u64,
}

/// The byte-search layer.
pub struct ByteSearch {
    inner: Box<dyn SatSolver>,
    memo: Memo,
    /// Whether the layers below are slow, and how slow (the budget).
    below: SlowBelow,
    /// The time below of the queries that read constant tables at symbolic indices: while
    /// it is not known to be fast, such queries get the tables' floor
    /// ([`NODES_PER_TABLE_CELL`]) whatever `below` says.
    tables_below: SlowBelow,
    timeout: Option<Duration>,
    /// The checks on its answers.
    audit: Rc<Audit>,
    /// A budget that replaces the one the time below gives ([`ByteSearch::with_budget`]).
    fixed_budget: Option<usize>,
    /// A moving average of how often a search that ran decided its query (1 at the start).
    hit_rate: f64,
    stats: LayerStats,
}

impl ByteSearch {
    /// Wraps `inner` (models checked, UNSAT answers not cross-checked).
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        ByteSearch {
            inner,
            memo: Memo::default(),
            below: SlowBelow::default(),
            tables_below: SlowBelow::default(),
            timeout: None,
            audit: Audit::checks_only(),
            fixed_budget: None,
            hit_rate: 1.0,
            stats: LayerStats::new("byte-search"),
        }
    }

    /// The layer searching every query it supports with `nodes` evaluated nodes, whatever
    /// the time below (differential tests, which must exercise the search and its memo on
    /// every query).
    pub fn with_budget(mut self, nodes: usize) -> Self {
        self.fixed_budget = Some(nodes);
        self
    }

    /// The layer with its answers checked by `audit` (the chain's).
    pub fn with_audit(mut self, audit: Rc<Audit>) -> Self {
        self.audit = audit;
        self
    }

    /// The budget the time below gives (none while the layers below are fast), at most
    /// [`MAX_SLOW_SECS`]'s, scaled down while the searches decide fewer than
    /// [`BUDGET_SHARE`] of their queries. A search that runs out costs up to that share of
    /// the time below, and one that decides saves the time below, so the search pays only
    /// while its hit rate is above the share of the time it is given: the budget follows
    /// the hit rate (coreutils `expr`: 244 of 525 searches decided in a 60 s run, out of
    /// budget on 281, the search's own time 18 s against the 4 s of core time it saved).
    fn budget(&self) -> Option<usize> {
        if self.fixed_budget.is_some() {
            return self.fixed_budget;
        }
        let secs = self.below.slow_secs()?.min(MAX_SLOW_SECS);
        let scale = (self.hit_rate / BUDGET_SHARE).clamp(MIN_HIT_SCALE, 1.0);
        Some((secs * NODES_PER_SEC * BUDGET_SHARE * scale) as usize)
    }

    /// Adds one search that ran (decided or not) to the hit rate.
    fn count_search(&mut self, decided: bool) {
        let hit = if decided { 1.0 } else { 0.0 };
        self.hit_rate += (hit - self.hit_rate) * HIT_WEIGHT;
    }
}

impl SatSolver for ByteSearch {
    fn name(&self) -> &'static str {
        "byte-search"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        // At most a share of the query's time: the rest is the layers below's.
        let deadline =
            crate::deadline::clamp(self.timeout).map(|t| start + t.mul_f64(DEADLINE_SHARE));
        // The tables' floor is for cores that are slow on table reads (the eager core
        // asserts every cell): on coreutils `expr`, whose table queries the core answers in
        // milliseconds, floor-only searches ran out of budget on 744 queries of a 20 s run
        // and took most of its solver time.
        let table_floor = !self.tables_below.known_fast();
        let mut reads_tables = false;
        let outcome = search(
            query,
            self.budget(),
            table_floor,
            deadline,
            &mut self.memo,
            &mut reads_tables,
        );
        if start.elapsed() > Duration::from_millis(100) {
            tracing::debug!(
                took = ?start.elapsed(),
                budget = ?self.budget(),
                timeout = ?self.timeout,
                outcome = outcome.name(),
                "a long byte search"
            );
        }
        if matches!(outcome, Search::Decided(_)) {
            self.count_search(true);
        }
        match outcome {
            Search::Decided(SatResult::Sat(model)) => {
                // The model is checked by evaluation; one that fails goes to the layer below.
                if self.audit.model_holds(&mut self.stats, query, &model)? {
                    self.stats.bump("sat", 1);
                    self.stats.record(start, true);
                    return Ok(SatResult::Sat(model));
                }
            }
            Search::Decided(SatResult::Unsat) => {
                // Rests on the frontiers' invariant (see `Frontier`); under validation,
                // cross-checked against plain Z3.
                self.audit.confirm_unsat(&mut self.stats, query)?;
                self.stats.bump("unsat", 1);
                self.stats.record(start, true);
                return Ok(SatResult::Unsat);
            }
            Search::OutOfBudget => {
                self.count_search(false);
                self.stats.bump("out_of_budget", 1);
            }
            Search::Uncovered => self.stats.bump("frontier_uncovered", 1),
            Search::Unsupported | Search::Skipped => {}
        }
        let cpu = crate::layers::slow_below::thread_cpu_time();
        let result = self.inner.check(query);
        let spent = crate::layers::slow_below::thread_cpu_time().saturating_sub(cpu);
        self.below.record(spent);
        if reads_tables {
            self.tables_below.record(spent);
        }
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        let mut stats = self.stats.clone();
        stats.bump("search_units", self.memo.units);
        out.push(stats);
        self.inner.collect_stats(out);
    }

    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        self.inner.learn(query, result);
    }
}

/// The answer a search over the bytes `query` reads finds within `budget` node
/// evaluations, if it finds one (the layer's search without its memo, gate or deadline;
/// for differential tests against a core).
pub fn decide(query: &SatQuery, budget: usize) -> Option<SatResult> {
    match search(
        query,
        Some(budget),
        true,
        None,
        &mut Memo::default(),
        &mut false,
    ) {
        Search::Decided(r) => Some(r),
        Search::OutOfBudget | Search::Unsupported | Search::Skipped | Search::Uncovered => None,
    }
}

/// What a search came to.
enum Search {
    /// The query's answer.
    Decided(SatResult),
    /// The budget ran out first.
    OutOfBudget,
    /// The query is not one the search handles.
    Unsupported,
    /// No budget: the layers below are fast and the query reads no large table.
    Skipped,
    /// The frontiers do not meet their invariant (see [`Frontier`]): the search does not
    /// answer.
    Uncovered,
}

impl Search {
    /// The outcome's name, for logs.
    fn name(&self) -> &'static str {
        match self {
            Search::Decided(SatResult::Unsat) => "unsat",
            Search::Decided(_) => "sat",
            Search::OutOfBudget => "out of budget",
            Search::Unsupported => "unsupported",
            Search::Skipped => "skipped",
            Search::Uncovered => "uncovered",
        }
    }
}

/// A conjunct and the positions (indices into the byte order) it reads.
struct Conjunct<'a> {
    expr: &'a Expr,
    /// The positions it reads (from [`reads_of`]).
    reads: Vec<usize>,
    /// The last of them.
    last: Option<usize>,
    /// True if it reads one byte.
    unary: bool,
}

/// Decides `query` by a search over the values of the bytes it reads, within `budget`
/// evaluated nodes, or (with `table_floor`) [`NODES_PER_TABLE_CELL`] per cell of the
/// constant tables it reads at symbolic indices if that is more. Sets `reads_tables` when
/// it reads such tables.
fn search(
    query: &SatQuery,
    budget: Option<usize>,
    table_floor: bool,
    deadline: Option<Instant>,
    memo: &mut Memo,
    reads_tables: &mut bool,
) -> Search {
    if memo.answers.len() > MEMO_LIMIT
        || memo.reads.len() > MEMO_LIMIT
        || memo.unary.len() > MEMO_LIMIT
    {
        *memo = Memo {
            units: memo.units,
            ..Memo::default()
        };
    }
    let exprs: Vec<&Expr> = query.conjuncts().filter(|c| !c.is_true()).collect();
    let mut positions: Vec<(ArrayRef, usize)> = Vec::new();
    let mut reads: Vec<Rc<Reads>> = Vec::new();
    let mut tables: Vec<(u64, u64)> = Vec::new();
    for e in &exprs {
        let read = memo
            .reads
            .entry((*e).clone())
            .or_insert_with(|| Rc::new(reads_of(e)))
            .clone();
        let Some(bytes) = &read.bytes else {
            return Search::Unsupported;
        };
        positions.extend(bytes.iter().cloned());
        tables.extend(read.tables.iter().copied());
        reads.push(read);
    }
    tables.sort_unstable();
    tables.dedup();
    let cells: u64 = tables.iter().map(|(_, size)| size).sum();
    *reads_tables = cells > 0;
    let floor = match table_floor {
        true => usize::try_from(cells)
            .unwrap_or(usize::MAX)
            .saturating_mul(NODES_PER_TABLE_CELL),
        false => 0,
    };
    let budget = budget.unwrap_or(0).max(floor);
    if budget == 0 {
        return Search::Skipped;
    }
    positions.sort_by_key(|(a, i)| (a.id(), *i));
    positions.dedup();
    if positions.is_empty() || positions.len() > MAX_BYTES {
        return Search::Unsupported;
    }
    let order: FxHashMap<(u64, usize), usize> = positions
        .iter()
        .enumerate()
        .map(|(k, (a, i))| ((a.id(), *i), k))
        .collect();
    let conjuncts: Vec<Conjunct> = exprs
        .iter()
        .zip(&reads)
        .map(|(e, read)| {
            let bytes = read.bytes.as_deref().unwrap_or_default();
            let ks: Vec<usize> = bytes.iter().map(|(a, i)| order[&(a.id(), *i)]).collect();
            Conjunct {
                expr: e,
                last: ks.iter().copied().max(),
                unary: ks.len() == 1,
                reads: ks,
            }
        })
        .collect();
    let mut model = Assignment::new();
    let arrays = collect_symbolic_arrays(query.conjuncts());
    for a in positions.iter().map(|(a, _)| a).chain(&arrays) {
        if model.get(a).is_none() {
            model.insert(a.clone(), vec![0; a.size() as usize]);
        }
    }
    let (frontiers, budget) = match frontier_terms(&conjuncts, &order, positions.len(), budget) {
        Ok(found) => found,
        Err(NoFrontier::OutOfBudget) => return Search::OutOfBudget,
        Err(NoFrontier::Uncovered) => return Search::Uncovered,
    };
    // The conjuncts of several bytes, by the last byte they read: the ones checked when it
    // gets a value.
    let mut multi_at: Vec<Vec<usize>> = vec![Vec::new(); positions.len()];
    for (i, c) in conjuncts.iter().enumerate() {
        if let (false, Some(last)) = (c.unary, c.last) {
            multi_at[last].push(i);
        }
    }
    let mut search = Searcher {
        positions: &positions,
        conjuncts: &conjuncts,
        multi_at: &multi_at,
        model,
        values: vec![0; positions.len()],
        meter: Meter {
            budget,
            deadline,
            takes: 0,
        },
        memo,
        frontiers: &frontiers,
        levels: vec![Level::default(); positions.len()],
    };
    let outcome = search.run();
    search.memo.units += (budget - search.meter.budget) as u64;
    outcome
}

impl Searcher<'_> {
    /// The search over the query's bytes, from the conjuncts of no byte to the assignment.
    fn run(&mut self) -> Search {
        // Conjuncts that read no input byte (only constant tables at constant indices).
        if !self.holds(|c| c.last.is_none()) {
            return if self.meter.exhausted() {
                Search::OutOfBudget
            } else {
                Search::Decided(SatResult::Unsat)
            };
        }
        let Some(mut domains) = self.domains() else {
            return Search::OutOfBudget;
        };
        if domains.iter().any(Vec::is_empty) {
            return Search::Decided(SatResult::Unsat);
        }
        // A byte no conjunct of several bytes reads needs one value of its domain, not each.
        let conjuncts = self.conjuncts;
        for (k, domain) in domains.iter_mut().enumerate() {
            if !conjuncts.iter().any(|c| !c.unary && c.reads.contains(&k)) {
                domain.truncate(1);
            }
        }
        match self.assign(0, &domains) {
            Some(true) => Search::Decided(SatResult::Sat(std::mem::take(&mut self.model))),
            Some(false) => Search::Decided(SatResult::Unsat),
            None => Search::OutOfBudget,
        }
    }
}

struct Searcher<'a> {
    positions: &'a [(ArrayRef, usize)],
    conjuncts: &'a [Conjunct<'a>],
    /// Per byte, the conjuncts of several bytes whose last byte it is (indices).
    multi_at: &'a [Vec<usize>],
    model: Assignment,
    /// The current value of each position (as in `model`).
    values: Vec<u8>,
    meter: Meter,
    memo: &'a mut Memo,
    /// Per level, the terms through which the rest of the search depends on the bytes
    /// assigned so far (see [`frontier_terms`]).
    frontiers: &'a [Frontier],
    /// Per level, what the search knows of its frontier's values.
    levels: Vec<Level>,
}

/// The search's record of one level's frontier values (its keys).
#[derive(Default, Clone)]
struct Level {
    /// The values under the current bytes, if `fresh`.
    current: Vec<u128>,
    fresh: bool,
    /// The values under which the rest of the search has no solution.
    failed: FxHashSet<Vec<u128>>,
    /// Keys computed, and how many of them had failed before.
    keys: u32,
    hits: u32,
}

/// The search's budget of evaluated nodes and its deadline.
struct Meter {
    budget: usize,
    /// The query's deadline (its timeout), looked at with interruption requests every
    /// [`CHECK_EVERY`] takes; either ends the search as if out of budget.
    deadline: Option<Instant>,
    takes: u64,
}

impl Meter {
    /// Takes `n` units of the budget; false, with the budget emptied, if they are not there
    /// or the search must stop.
    fn take(&mut self, n: usize) -> bool {
        self.takes += 1;
        let stop = self.takes.is_multiple_of(CHECK_EVERY)
            && (crate::interrupt::requested()
                || self.deadline.is_some_and(|d| Instant::now() >= d));
        if stop || self.budget < n {
            self.budget = 0;
            return false;
        }
        self.budget -= n;
        true
    }

    fn exhausted(&self) -> bool {
        self.budget == 0
    }
}

/// True if every one of `conjuncts` holds under the bytes `values`, evaluated by `ev`
/// (false also when the budget runs out; the caller tells the two apart by the meter).
/// The evaluator is made by `make` at the first conjunct not answered by the memo.
fn holds<'m, 'c>(
    meter: &mut Meter,
    memo: &mut Memo,
    conjuncts: impl IntoIterator<Item = &'c Conjunct<'c>>,
    values: &[u8],
    ev: &mut Option<Evaluator<'m>>,
    make: &dyn Fn() -> Evaluator<'m>,
) -> bool {
    for c in conjuncts {
        // Up to 8 bytes, the answer is remembered by their values.
        let key = (c.reads.len() <= 8).then(|| {
            let packed = c
                .reads
                .iter()
                .fold(0u64, |p, &k| (p << 8) | values[k] as u64);
            (c.expr.clone(), packed)
        });
        // Every check costs at least one unit of the budget, a remembered answer too (a
        // search over many remembered combinations must end as well).
        if !meter.take(1) {
            return false;
        }
        if let Some(&known) = key.as_ref().and_then(|k| memo.answers.get(k)) {
            if !known {
                return false;
            }
            continue;
        }
        let ev = ev.get_or_insert_with(make);
        let before = ev.evaluated();
        let holds = ev.eval(c.expr) == 1;
        if !meter.take(ev.evaluated() - before) {
            return false;
        }
        if let Some(key) = key {
            memo.answers.insert(key, holds);
        }
        if !holds {
            return false;
        }
    }
    true
}

impl Searcher<'_> {
    /// True if every conjunct `pick` selects holds under the current bytes (false also when
    /// the budget runs out).
    fn holds(&mut self, pick: impl Fn(&Conjunct) -> bool) -> bool {
        let model = &self.model;
        let make = || Evaluator::new(model);
        let (meter, memo) = (&mut self.meter, &mut *self.memo);
        let picked = self.conjuncts.iter().filter(|c| pick(c));
        holds(meter, memo, picked, &self.values, &mut None, &make)
    }

    fn set(&mut self, k: usize, v: u8) {
        let (a, i) = &self.positions[k];
        self.model.set_byte(a, *i, v);
        self.values[k] = v;
    }

    /// For each byte, the values its one-byte conjuncts allow (None: out of budget).
    fn domains(&mut self) -> Option<Vec<Vec<u8>>> {
        let mut sets = vec![ByteSet::ALL; self.positions.len()];
        for c in self.conjuncts {
            let (true, Some(k)) = (c.unary, c.last) else {
                continue;
            };
            // One unit per conjunct, as for a remembered answer.
            if !self.meter.take(1) {
                return None;
            }
            let set = match self.memo.unary.get(c.expr) {
                Some(set) => *set,
                None => {
                    let set = self.unary_set(c.expr, k)?;
                    self.memo.unary.insert(c.expr.clone(), set);
                    set
                }
            };
            sets[k] = sets[k].and(set);
        }
        Some(sets.iter().map(ByteSet::values).collect())
    }

    /// The values of byte `k` under which `conjunct` (which reads no other byte) holds, by
    /// evaluation (None: out of budget).
    fn unary_set(&mut self, conjunct: &Expr, k: usize) -> Option<ByteSet> {
        let mut set = ByteSet::default();
        for v in 0..=255u8 {
            self.set(k, v);
            let mut ev = Evaluator::new(&self.model);
            let holds = ev.eval(conjunct) == 1;
            if !self.meter.take(ev.evaluated().max(1)) {
                self.set(k, 0);
                return None;
            }
            if holds {
                set.insert(v);
            }
        }
        self.set(k, 0);
        Some(set)
    }

    /// Assigns bytes `k..` from their domains, checking each conjunct once its last byte has
    /// a value: Some(true) with the model set, Some(false) if no assignment works, None when
    /// the budget runs out.
    ///
    /// After byte `k`, the values of level `k`'s frontier are the prefix's key: a key that
    /// already failed is skipped. A level whose keys have not repeated in [`KEY_TRIAL`]
    /// prefixes stops computing them (a frontier of many one-byte conditions tells every
    /// prefix apart and would only cost). The checks after a keyed level evaluate from its
    /// values (every term above the bytes before `k` that matters passes through that
    /// frontier), so they walk only the nodes that read byte `k`.
    fn assign(&mut self, k: usize, domains: &[Vec<u8>]) -> Option<bool> {
        if k == self.positions.len() {
            return Some(true);
        }
        for &v in &domains[k] {
            // Each candidate costs a unit, so a search through levels without conjuncts
            // ends too.
            if !self.meter.take(1) {
                return None;
            }
            self.set(k, v);
            self.levels[k].fresh = false;
            let model = &self.model;
            let seed = k
                .checked_sub(1)
                .filter(|&p| self.levels[p].fresh)
                .map(|p| (&self.frontiers[p].terms, &self.levels[p].current));
            let make = || match seed {
                Some((terms, values)) => {
                    Evaluator::with_known(model, terms.iter().cloned().zip(values.iter().copied()))
                }
                None => Evaluator::new(model),
            };
            let mut ev = None;
            let (meter, memo) = (&mut self.meter, &mut *self.memo);
            let due = self.multi_at[k].iter().map(|&i| &self.conjuncts[i]);
            if !holds(meter, memo, due, &self.values, &mut ev, &make) {
                if self.meter.exhausted() {
                    return None;
                }
                continue;
            }
            let level = &self.levels[k];
            let keyed = level.hits > 0 || level.keys < KEY_TRIAL;
            let key = if keyed && k + 1 < self.positions.len() {
                // The bytes after k see those up to k only through the frontier's values: a
                // prefix whose values already failed fails again.
                let ev = ev.get_or_insert_with(make);
                let before = ev.evaluated();
                let key: Vec<u128> = self.frontiers[k].terms.iter().map(|t| ev.eval(t)).collect();
                if !self.meter.take(ev.evaluated() - before) {
                    return None;
                }
                Some(key)
            } else {
                None
            };
            drop(ev);
            let level = &mut self.levels[k];
            if let Some(key) = &key {
                level.keys += 1;
                if level.failed.contains(key) {
                    level.hits += 1;
                    continue;
                }
                level.current.clone_from(key);
                level.fresh = true;
            }
            match self.assign(k + 1, domains) {
                Some(false) => {
                    if let Some(key) = key {
                        self.levels[k].failed.insert(key);
                    }
                }
                other => return other,
            }
        }
        Some(false)
    }
}
