//! The eager core: Z3's native arrays with the *assertion encoding* of constant arrays
//! (KLEE issue #836 / PR #837; the paper's "Assertion" baseline).
//!
//! The Z3 core encodes a constant array as a chain of `store`s over `const-array 0`. Here,
//! every constant root read at a symbolic index (or through writes) is replaced by a fresh
//! uninterpreted array `A'` of the same size, and one axiom `select(A', j) = c_j` per byte is
//! asserted eagerly, which Z3's array procedure handles much better for tables. Reads out of
//! bounds still read zero (the Z3 core's translation of symbolic roots guarantees it), so the
//! rewritten query is equisatisfiable and has the same models on the original arrays.
//!
//! With `--axiom-elim` other than `none`, only the cells some read can reach are asserted:
//! the cells of each read term's reduced pool ([`crate::cegar::axioms::TermPool`]: inside its
//! pre-check interval, congruent to its residue modulo the access size). Cells no read can
//! reach are left unconstrained in `A'`, which changes no answer (this is type- and
//! interval-aware axiom elimination applied to Z3's array theory).
//!
//! The CEGAR core's `--cegar-select=eager` is the other eager variant: all (reduced) read
//! axioms asserted over bit-vectors at once (Ackermannisation).

use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;
use sear_expr::congruence::Congruences;
use sear_expr::visit::{for_each_node, Rewriter};
use sear_expr::{Array, ArrayKind, ArrayRef, Assignment, Expr, ExprKind, UpdateList};

use crate::cegar::axioms::TermPool;
use crate::config::ArrayConfig;
use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use crate::z3core::{Z3Core, Z3Mode};

/// A symbolic twin of a constant root and its per-byte assertions.
struct Twin {
    array: ArrayRef,
    assertions: Vec<Expr>,
}

/// The cells of `root` some read of `conjuncts` may reach, or None for all.
fn reachable_cells(
    root: &ArrayRef,
    conjuncts: &[Expr],
    meta: &crate::QueryMeta,
    config: &ArrayConfig,
) -> Option<Vec<bool>> {
    if config.axiom_elim == crate::AxiomElim::None {
        return None;
    }
    let mut residues = Congruences::default();
    let mut reach = vec![false; root.size() as usize];
    let mut complete = true;
    for_each_node(conjuncts, |e| {
        if let ExprKind::Read { updates, index } = e.kind() {
            if updates.root() != root || !complete {
                return;
            }
            if let Some(i) = index.as_constant() {
                if let Some(r) = reach.get_mut(i as usize) {
                    *r = true;
                }
                return;
            }
            let pool = TermPool::of(
                root,
                index,
                &meta.access_granularity,
                meta.index_intervals.as_deref(),
                config,
                &mut residues,
            );
            if pool.hi.saturating_sub(pool.lo) / pool.step >= reach.len() as u64 {
                complete = false;
                return;
            }
            for j in pool.cells() {
                reach[j as usize] = true;
            }
        }
    });
    complete.then_some(reach)
}

/// True for a large constant root that is mostly one byte (an uninitialised buffer in KLEE's
/// 0xAB pattern, a zeroed one with a few bytes set): its native encoding is a few `store`s
/// over a constant array, where its twin would assert every byte. Such roots stay native. On
/// coreutils `expr`, an 8 KiB buffer of 0xAB with 24 bytes set made one Z3 call of a 1 s
/// turn take 5 s over its 8,200 cell assertions; Bitwuzla answers it natively in 0.1 s.
pub(crate) fn mostly_fill(root: &ArrayRef) -> bool {
    root.size() >= MOSTLY_FILL_MIN_SIZE && root.bytes_unlike_fill() * 16 <= root.size()
}

/// The smallest root [`mostly_fill`] keeps native: tables below it keep their twins.
const MOSTLY_FILL_MIN_SIZE: u64 = 256;

/// The eager (assertion-encoding) core.
pub struct EagerCore {
    inner: Box<dyn SatSolver>,
    twins: FxHashMap<ArrayRef, Twin>,
    config: ArrayConfig,
    name: &'static str,
    /// The query's time limit: the encoding counts against it, the inner core gets the
    /// rest.
    timeout: Option<Duration>,
    stats: LayerStats,
}

impl Default for EagerCore {
    fn default() -> Self {
        Self::new(&ArrayConfig::default())
    }
}

impl EagerCore {
    /// A core over a default Z3 core; `config.axiom_elim` selects the reduction.
    pub fn new(config: &ArrayConfig) -> Self {
        Self::over(Box::new(Z3Core::new(Z3Mode::default())), config, "eager")
    }

    /// The same encoding in front of another native-array core (`inner`), reported as `name`.
    pub fn over(inner: Box<dyn SatSolver>, config: &ArrayConfig, name: &'static str) -> Self {
        EagerCore {
            inner,
            twins: FxHashMap::default(),
            config: config.clone(),
            timeout: None,
            name,
            stats: LayerStats::new_core(name),
        }
    }

    fn twin(&mut self, root: &ArrayRef) -> &Twin {
        self.twins.entry(root.clone()).or_insert_with(|| {
            let array = Array::with_index_width(
                format!("{}_assert", root.name()),
                root.size(),
                root.index_width(),
                ArrayKind::Other,
                None,
            );
            let whole = UpdateList::new(array.clone());
            let bytes = root.contents().expect("constant root");
            let assertions = bytes
                .iter()
                .enumerate()
                .map(|(j, &b)| {
                    let cell = Expr::read(&whole, Expr::constant(j as u128, root.index_width()));
                    Expr::eq(Expr::constant(b as u128, 8), cell)
                })
                .collect();
            Twin { array, assertions }
        })
    }

    fn solve(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let deadline = crate::deadline::from_now(self.timeout);
        let conjuncts: Vec<Expr> = query.conjuncts().cloned().collect();
        let mut roots: Vec<ArrayRef> = Vec::new();
        for_each_node(&conjuncts, |e| {
            if let ExprKind::Read { updates, index } = e.kind() {
                let root = updates.root();
                if root.is_constant()
                    && !mostly_fill(root)
                    && (!index.is_constant() || !updates.is_empty())
                    && !roots.contains(root)
                {
                    roots.push(root.clone());
                }
            }
        });
        if roots.is_empty() {
            return self.inner.check(query);
        }
        let mut map: FxHashMap<ArrayRef, ArrayRef> = FxHashMap::default();
        let mut rewritten: Vec<Expr> = Vec::new();
        for r in &roots {
            let reach = reachable_cells(r, &conjuncts, query.meta, &self.config);
            let twin = self.twin(r);
            map.insert(r.clone(), twin.array.clone());
            let before = rewritten.len();
            match &reach {
                Some(cells) => rewritten.extend(
                    twin.assertions
                        .iter()
                        .zip(cells)
                        .filter(|(_, keep)| **keep)
                        .map(|(a, _)| a.clone()),
                ),
                None => rewritten.extend(twin.assertions.iter().cloned()),
            }
            let n = (rewritten.len() - before) as u64;
            self.stats.bump("cell_assertions", n);
            self.stats.bump("cells_total", r.size());
        }
        let reads = self.config.reads;
        let mut rewriter = Rewriter::new(|_: &Expr, rebuilt: &Expr| {
            let ExprKind::Read { updates, index } = rebuilt.kind() else {
                return None;
            };
            let twin = map.get(updates.root())?;
            let writes: Vec<_> = updates.iter().collect();
            let mut list = UpdateList::new(twin.clone());
            for w in writes.into_iter().rev() {
                list = list.write(w.index().clone(), w.value().clone());
            }
            Some(reads.read(&list, index.clone()))
        })
        .with_read_policy(reads);
        for c in &conjuncts {
            rewritten.push(rewriter.apply(c));
        }
        let sub = SatQuery::new(&rewritten, Expr::true_(), query.meta, false, true);
        if let Some(left) = crate::deadline::left(deadline)? {
            self.inner.set_timeout(Some(left));
        }
        let answer = self.inner.check(&sub);
        self.inner.set_timeout(self.timeout);
        match answer? {
            SatResult::Unsat => Ok(SatResult::Unsat),
            SatResult::Sat(model) => {
                let twins: Vec<&ArrayRef> = map.values().collect();
                let mut out = Assignment::new();
                for (a, bytes) in model.arrays() {
                    if !twins.contains(&a) {
                        out.insert(a.clone(), bytes.to_vec());
                    }
                }
                Ok(SatResult::Sat(out))
            }
        }
    }
}

impl SatSolver for EagerCore {
    fn name(&self) -> &'static str {
        self.name
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        // The array encodings instantiate reads at the indices they see; a quantified
        // clause's reads have a bound variable for index (the quantified stage and the
        // native cores handle those).
        if sear_expr::quant::contains_forall(query.conjuncts()) {
            return Err(SolverError::Failure(
                "the eager core does not decide quantified clauses".into(),
            ));
        }
        let start = Instant::now();
        let result = self.solve(query);
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        self.inner.set_timeout(timeout);
    }

    fn set_cpu_budget(&mut self, budget: Option<Duration>) {
        self.inner.set_cpu_budget(budget);
    }

    fn honours_cpu_budget(&mut self) -> bool {
        self.inner.honours_cpu_budget()
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
    }
}
