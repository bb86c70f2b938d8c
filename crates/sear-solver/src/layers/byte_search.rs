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
//! Bounded by a budget of evaluated nodes (conjunct sizes summed over every evaluation)
//! proportional to the average time of the queries below ([`NODES_PER_SEC`] ×
//! [`BUDGET_SHARE`]): a search that runs out gives the query to the layer below, having
//! cost at most a fraction of what that layer takes on average. It does not run while the
//! layer below is fast ([`SlowBelow`]: a fast core answers before a search would). Queries that read a symbolic array at a symbolic index (or through a write at
//! one), unbounded arrays, or more than [`MAX_BYTES`] bytes are passed down as they are.

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use sear_expr::visit::{collect_symbolic_arrays, for_each_node};
use sear_expr::{ArrayRef, Assignment, Evaluator, Expr, ExprKind};

use crate::layers::slow_below::SlowBelow;
use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The most input bytes a searched query may read.
pub const MAX_BYTES: usize = 16;
/// Nodes evaluated per second, the rate the budget assumes (measured on the bench suite's
/// scanners: about 10 million on the project's machine).
pub const NODES_PER_SEC: f64 = 10_000_000.0;
/// The share of the layer below's average query time a search may take.
pub const BUDGET_SHARE: f64 = 0.5;
/// Conjunct checks between two checks of the deadline and of interruption requests.
const CHECK_EVERY: u64 = 64;
/// The memo is cleared when it holds this many answers.
const MEMO_LIMIT: usize = 1 << 21;

/// Conjunct answers by the values of the bytes it reads.
type Memo = FxHashMap<(Expr, u64), bool>;

/// The byte-search layer.
pub struct ByteSearch {
    inner: Box<dyn SatSolver>,
    /// Whether a conjunct holds for the values of the bytes it reads (packed into a
    /// `u64`), kept across queries: a path's constraints come back in every query on it.
    memo: Memo,
    /// Whether the layers below are slow, and how slow (the budget).
    below: SlowBelow,
    timeout: Option<Duration>,
    stats: LayerStats,
}

impl ByteSearch {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        ByteSearch {
            inner,
            memo: Memo::default(),
            below: SlowBelow::default(),
            timeout: None,
            stats: LayerStats::new("byte-search"),
        }
    }

    fn budget(&self) -> Option<usize> {
        let secs = self.below.slow_secs()?;
        Some((secs * NODES_PER_SEC * BUDGET_SHARE) as usize)
    }
}

impl SatSolver for ByteSearch {
    fn name(&self) -> &'static str {
        "byte-search"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        if let Some(budget) = self.budget() {
            if !sear_expr::quant::contains_forall(query.conjuncts()) {
                let deadline = self.timeout.map(|t| start + t);
                match search(query, budget, deadline, &mut self.memo) {
                    Search::Decided(r) => {
                        self.stats.bump(if r.is_sat() { "sat" } else { "unsat" }, 1);
                        self.stats.record(start, true);
                        return Ok(r);
                    }
                    Search::OutOfBudget => self.stats.bump("out_of_budget", 1),
                    Search::Unsupported => {}
                }
            }
        }
        let below = Instant::now();
        let result = self.inner.check(query);
        self.below.record(below.elapsed());
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
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
    match search(query, budget, None, &mut Memo::default()) {
        Search::Decided(r) => Some(r),
        Search::OutOfBudget | Search::Unsupported => None,
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
}

/// A conjunct, the positions (indices into the byte order) it reads, and its size.
struct Conjunct<'a> {
    expr: &'a Expr,
    reads: Vec<usize>,
    last: Option<usize>,
    unary: bool,
    size: usize,
}

/// Decides `query` by a search over the values of the bytes it reads, within `budget`
/// evaluated nodes.
fn search(query: &SatQuery, budget: usize, deadline: Option<Instant>, memo: &mut Memo) -> Search {
    if memo.len() > MEMO_LIMIT {
        memo.clear();
    }
    let exprs: Vec<&Expr> = query.conjuncts().filter(|c| !c.is_true()).collect();
    let mut positions: Vec<(ArrayRef, usize)> = Vec::new();
    let mut reads: Vec<(Vec<(ArrayRef, usize)>, usize)> = Vec::new();
    for e in &exprs {
        let Some(read) = bytes_read(e) else {
            return Search::Unsupported;
        };
        positions.extend(read.0.iter().cloned());
        reads.push(read);
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
        .map(|(e, (read, size))| {
            let ks: Vec<usize> = read.iter().map(|(a, i)| order[&(a.id(), *i)]).collect();
            Conjunct {
                expr: e,
                last: ks.iter().copied().max(),
                reads: ks.clone(),
                unary: ks.len() == 1,
                size: *size,
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
    let mut search = Searcher {
        positions: &positions,
        conjuncts: &conjuncts,
        model,
        values: vec![0; positions.len()],
        budget,
        deadline,
        evaluations: 0,
        memo,
    };
    // Conjuncts that read no input byte (only constant tables at constant indices).
    if !search.holds(|c| c.last.is_none()) {
        return if search.budget == 0 {
            Search::OutOfBudget
        } else {
            Search::Decided(SatResult::Unsat)
        };
    }
    let Some(mut domains) = search.domains() else {
        return Search::OutOfBudget;
    };
    if domains.iter().any(Vec::is_empty) {
        return Search::Decided(SatResult::Unsat);
    }
    // A byte no conjunct of several bytes reads needs one value of its domain, not each.
    for (k, domain) in domains.iter_mut().enumerate() {
        if !conjuncts.iter().any(|c| !c.unary && c.reads.contains(&k)) {
            domain.truncate(1);
        }
    }
    match search.assign(0, &domains) {
        Some(true) => Search::Decided(SatResult::Sat(search.model)),
        Some(false) => Search::Decided(SatResult::Unsat),
        None => Search::OutOfBudget,
    }
}

struct Searcher<'a> {
    positions: &'a [(ArrayRef, usize)],
    conjuncts: &'a [Conjunct<'a>],
    model: Assignment,
    /// The current value of each position (as in `model`).
    values: Vec<u8>,
    budget: usize,
    /// The query's deadline (its timeout), checked with interruption requests every
    /// [`CHECK_EVERY`] checks of a conjunct; either ends the search as if out of budget.
    deadline: Option<Instant>,
    evaluations: u64,
    memo: &'a mut Memo,
}

impl Searcher<'_> {
    /// True if every conjunct `pick` selects holds under the current bytes (false also when
    /// the budget runs out; the caller tells the two apart by the budget).
    fn holds(&mut self, pick: impl Fn(&Conjunct) -> bool) -> bool {
        let mut ev: Option<Evaluator> = None;
        for c in self.conjuncts.iter().filter(|c| pick(c)) {
            // Up to 8 bytes, the answer is remembered by their values.
            let key = (c.reads.len() <= 8).then(|| {
                let packed = c
                    .reads
                    .iter()
                    .fold(0u64, |p, &k| (p << 8) | self.values[k] as u64);
                (c.expr.clone(), packed)
            });
            // Every check costs at least one unit of the budget, a remembered answer too
            // (a search over many remembered combinations must end as well).
            self.evaluations += 1;
            let stop = self.evaluations.is_multiple_of(CHECK_EVERY)
                && (crate::interrupt::requested()
                    || self.deadline.is_some_and(|d| Instant::now() >= d));
            if stop || self.budget == 0 {
                self.budget = 0;
                return false;
            }
            self.budget -= 1;
            if let Some(&known) = key.as_ref().and_then(|k| self.memo.get(k)) {
                if !known {
                    return false;
                }
                continue;
            }
            if self.budget < c.size {
                self.budget = 0;
                return false;
            }
            self.budget -= c.size;
            let ev = ev.get_or_insert_with(|| Evaluator::new(&self.model));
            let holds = ev.eval(c.expr) == 1;
            if let Some(key) = key {
                self.memo.insert(key, holds);
            }
            if !holds {
                return false;
            }
        }
        true
    }

    fn set(&mut self, k: usize, v: u8) {
        let (a, i) = &self.positions[k];
        self.model.set_byte(a, *i, v);
        self.values[k] = v;
    }

    /// For each byte, the values its one-byte conjuncts allow (None: out of budget).
    fn domains(&mut self) -> Option<Vec<Vec<u8>>> {
        let mut domains = Vec::with_capacity(self.positions.len());
        for k in 0..self.positions.len() {
            let mut allowed = Vec::new();
            for v in 0..=255u8 {
                self.set(k, v);
                if self.holds(|c| c.unary && c.last == Some(k)) {
                    allowed.push(v);
                } else if self.budget == 0 {
                    return None;
                }
            }
            self.set(k, 0);
            domains.push(allowed);
        }
        Some(domains)
    }

    /// Assigns bytes `k..` from their domains, checking each conjunct once its last byte has
    /// a value: Some(true) with the model set, Some(false) if no assignment works, None when
    /// the budget runs out.
    fn assign(&mut self, k: usize, domains: &[Vec<u8>]) -> Option<bool> {
        if k == self.positions.len() {
            return Some(true);
        }
        for &v in &domains[k] {
            // Each candidate costs a unit, so a search through levels without conjuncts
            // ends too.
            if self.budget == 0 {
                return None;
            }
            self.budget -= 1;
            self.set(k, v);
            if self.holds(|c| !c.unary && c.last == Some(k)) {
                match self.assign(k + 1, domains) {
                    Some(false) => {}
                    other => return other,
                }
            } else if self.budget == 0 {
                return None;
            }
        }
        Some(false)
    }
}

/// The input bytes `e` reads (array and index) and its number of nodes; None if it reads a
/// symbolic array at a symbolic index, through a write at one, or an unbounded array.
fn bytes_read(e: &Expr) -> Option<(Vec<(ArrayRef, usize)>, usize)> {
    let mut bytes = Vec::new();
    let mut size = 0usize;
    let mut supported = true;
    for_each_node([e], |n| {
        size += 1;
        if let ExprKind::Read { updates, index } = n.kind() {
            let root = updates.root();
            if root.is_constant() {
                return;
            }
            let constant_writes = updates.iter().all(|u| u.index().is_constant());
            match index.as_constant() {
                Some(i) if constant_writes && !root.is_unbounded() => {
                    if i < root.size() as u128 {
                        bytes.push((root.clone(), i as usize));
                    }
                }
                _ => supported = false,
            }
        }
        if matches!(n.kind(), ExprKind::Forall { .. } | ExprKind::Var(_)) {
            supported = false;
        }
    });
    bytes.sort_by_key(|(a, i)| (a.id(), *i));
    bytes.dedup();
    supported.then_some((bytes, size))
}
