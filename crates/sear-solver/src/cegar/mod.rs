//! The CEGAR array core (Algorithm 2 of the paper; spec 001 §5): decides queries with Z3 over
//! bit-vectors only.
//!
//! 1. Abstract the query ([`abstraction`]): writes eliminated, symbolic-index reads replaced
//!    by fresh variables. `C ⇒ C_a`, so UNSAT of `C_a` is UNSAT of the query.
//! 2. Build the reduced axiom pool ([`axioms`]) from the access sizes and the pre-check's
//!    intervals in [`crate::QueryMeta`].
//! 3. Loop on one incremental Z3 solver: check `C_a`; on SAT rebuild the arrays from the
//!    model ([`model`]) and evaluate the query. If it holds, return that model (every model
//!    is validated by evaluation). Otherwise find the axioms of the *full* family the model
//!    violates, keep those in the pool (policy `violated`, or with all of their terms'
//!    remaining pool axioms for `siblings`), add them and repeat. A violated axiom outside
//!    the pool means an elimination was unsound: it is added anyway (the fallback) and
//!    counted. `eager` adds the whole pool before the first check.
//!
//! Statistics (counters of the `cegar` core): `array_queries` (queries with abstracted
//! reads), `iterations` (Z3 checks), `axioms_generated` (pool sizes, also by kind:
//! `generated_cells`, `generated_pairs`, `generated_bounds`), `axioms_added`,
//! `fallback_axioms`.

pub mod abstraction;
pub mod axioms;
pub mod model;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use rustc_hash::FxHashSet;
use z3::ast::BV;
use z3::SatResult as Z3Result;

use crate::config::{ArrayConfig, CegarSelect};
use crate::query::SolverError;
use crate::sat::{panic_message, SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use crate::z3core::translate::ExprTranslator;
use abstraction::Abstraction;
use axioms::{Axiom, Pool};

/// Refinement iterations after which a query is given up.
const ITERATION_LIMIT: u64 = 100_000;

/// The CEGAR core.
pub struct CegarCore {
    config: ArrayConfig,
    timeout: Option<Duration>,
    stats: LayerStats,
    queries: u64,
    _interrupt: crate::interrupt::ContextRegistration,
}

impl CegarCore {
    /// A core with the given options.
    pub fn new(config: &ArrayConfig) -> Self {
        CegarCore {
            config: config.clone(),
            timeout: None,
            stats: LayerStats::new_core("cegar"),
            queries: 0,
            _interrupt: crate::interrupt::register_thread_context(),
        }
    }

    fn solve(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let timeout = crate::deadline::clamp(self.timeout);
        self.queries += 1;
        let conjuncts: Vec<_> = query.conjuncts().cloned().collect();
        let mut abs = Abstraction::new(self.queries);
        let assertions: Vec<_> = conjuncts.iter().map(|c| abs.bool(c)).collect();
        let mentioned: FxHashSet<_> = abs.cells.keys().cloned().collect();
        let intervals = query.meta.index_intervals.as_deref();
        let pool = Pool::build(
            &abs.terms,
            mentioned,
            &query.meta.access_granularity,
            intervals,
            &self.config,
        );
        if !abs.terms.is_empty() {
            self.stats.bump("array_queries", 1);
        }
        let c = pool.counts;
        self.stats
            .bump("axioms_generated", c.cells + c.pairs + c.bounds);
        self.stats.bump("generated_cells", c.cells);
        self.stats.bump("generated_pairs", c.pairs);
        self.stats.bump("generated_bounds", c.bounds);
        let solver = self.fresh_solver();
        for a in &assertions {
            solver.assert(a);
        }
        if self.config.interval_constraints {
            if let Some(iv) = intervals {
                for t in &abs.terms {
                    if let Some((lo, hi)) = iv.get(&t.index) {
                        let w = t.index.width();
                        solver.assert(BV::from_u64(lo as u64, w).bvule(&t.index_bv));
                        solver.assert(t.index_bv.bvule(BV::from_u64(hi as u64, w)));
                    }
                }
            }
        }
        let mut added: FxHashSet<Axiom> = FxHashSet::default();
        if self.config.select == CegarSelect::Eager {
            let all = pool.all(&abs.terms);
            self.add(&mut abs, &pool, &solver, &mut added, all);
        }
        for _ in 0..ITERATION_LIMIT {
            if let Some(t) = timeout {
                if start.elapsed() > t {
                    return Err(SolverError::Timeout);
                }
            }
            self.stats.bump("iterations", 1);
            match solver.check() {
                Z3Result::Unsat => return Ok(SatResult::Unsat),
                Z3Result::Unknown => {
                    return Err(crate::z3core::unknown_error(solver.get_reason_unknown()))
                }
                Z3Result::Sat => {}
            }
            let z3_model = solver
                .get_model()
                .ok_or_else(|| SolverError::Failure("Z3 answered sat without a model".into()))?;
            let values = model::Values::read(&abs, &z3_model)?;
            let assignment = values.assignment(&abs, &conjuncts);
            if assignment.satisfies(&conjuncts) {
                return Ok(SatResult::Sat(assignment));
            }
            let violated = values.violated(&abs);
            if violated.is_empty() {
                return Err(SolverError::Failure(
                    "CEGAR: the model violates no axiom but not the query (abstraction bug)".into(),
                ));
            }
            let mut chosen: Vec<Axiom> = violated
                .iter()
                .filter(|ax| pool.contains(&abs.terms, ax))
                .copied()
                .collect();
            if chosen.is_empty() {
                // Select found nothing: an elimination dropped a needed axiom. Fall back to
                // the violated axioms of the full family (sound, just not reduced).
                self.stats.bump("fallback_axioms", violated.len() as u64);
                tracing::warn!(?violated, "CEGAR: violated axioms outside the reduced pool");
                chosen = violated.clone();
            }
            if self.config.select == CegarSelect::Siblings {
                let mut terms: Vec<usize> = violated.iter().flat_map(axiom_terms).collect();
                terms.sort_unstable();
                terms.dedup();
                for t in terms {
                    chosen.extend(pool.axioms_of(&abs.terms, t));
                }
            }
            let before = added.len();
            self.add(&mut abs, &pool, &solver, &mut added, chosen);
            if added.len() == before {
                return Err(SolverError::Failure(
                    "CEGAR: a violated axiom was already asserted (abstraction bug)".into(),
                ));
            }
        }
        Err(SolverError::Failure("CEGAR: iteration limit".into()))
    }

    /// Asserts the axioms of `batch` not asserted yet. Cell axioms of one term over a constant
    /// root are encoded run by run: cells consecutive in the term's stride with one value
    /// become `(a ≤ t ≤ b) ⇒ r = v` (exact, since `t` has the stride's residue).
    fn add(
        &mut self,
        abs: &mut Abstraction,
        pool: &Pool,
        solver: &z3::Solver,
        added: &mut FxHashSet<Axiom>,
        batch: Vec<Axiom>,
    ) {
        let mut cells: Vec<(usize, u64)> = Vec::new();
        for ax in batch {
            if !added.insert(ax) {
                continue;
            }
            self.stats.bump("axioms_added", 1);
            match ax {
                Axiom::Cell { term, j } if abs.terms[term].root.is_constant() => {
                    cells.push((term, j))
                }
                _ => solver.assert(model::encode(abs, &ax)),
            }
        }
        cells.sort_unstable();
        let mut k = 0;
        while k < cells.len() {
            let (term, first) = cells[k];
            let step = pool.terms[term].step;
            let bytes = abs.terms[term].root.contents().expect("constant root");
            let value = bytes[first as usize];
            let mut last = first;
            k += 1;
            while k < cells.len()
                && cells[k].0 == term
                && cells[k].1 == last + step
                && bytes[cells[k].1 as usize] == value
            {
                last = cells[k].1;
                k += 1;
            }
            solver.assert(model::encode_run(abs, term, first, last, value));
        }
    }

    fn fresh_solver(&self) -> z3::Solver {
        let solver = z3::Solver::new_for_logic("QF_BV").unwrap_or_default();
        solver.set_params(&crate::z3core::solver_params(crate::deadline::clamp(
            self.timeout,
        )));
        solver
    }
}

fn axiom_terms(ax: &Axiom) -> Vec<usize> {
    match *ax {
        Axiom::Cell { term, .. } | Axiom::Bounds { term } => vec![term],
        Axiom::Pair { t1, t2 } => vec![t1, t2],
    }
}

impl SatSolver for CegarCore {
    fn name(&self) -> &'static str {
        "cegar"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        // The array encodings instantiate reads at the indices they see; a quantified
        // clause's reads have a bound variable for index (the quantified stage and the
        // native cores handle those).
        if sear_expr::quant::contains_forall(query.conjuncts()) {
            return Err(SolverError::Failure(
                "the CEGAR core does not decide quantified clauses".into(),
            ));
        }
        let start = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| self.solve(query))).unwrap_or_else(|p| {
            let msg = panic_message(p.as_ref());
            Err(SolverError::Failure(format!("CEGAR core failed: {msg}")))
        });
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
    }
}
