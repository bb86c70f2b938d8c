//! The address-aware cache as the facade uses it: slicing, classification, lookup,
//! checking of translated models, `--validate-caching`, and statistics.
//!
//! A query arrives in two aligned forms: the solver's (address constraints substituted,
//! array-read transformations applied), which the chain decides, and the address-agnostic
//! one (symbolic bases kept), which keys the cache. The constraints relevant to the
//! expression are found on the solver's form (the independence layer's factors, so a
//! constraint connected only through a base, a constant there, is left out, as the thesis's
//! `z > 0`), and the agnostic forms of those constraints make the key.
//!
//! A hit answers UNSAT as cached. A SAT hit's model, translated through the bijection, must
//! satisfy the query's solver form (checked by evaluation, so a SAT answer from the cache
//! never rests on the query being address-agnostic); when it does not, the chain decides.
//! A confirmed model is handed to the chain ([`SatSolver::learn`]): the counterexample
//! cache keeps it as if the core had found it, so the path's later model queries (its test)
//! find it there as they would without this cache. An UNSAT hit that reads no base is
//! handed down too (it is exact); an address-dependent one is not.

use std::rc::Rc;
use std::time::Instant;

use rustc_hash::FxHashMap;
use sear_expr::Expr;

use super::cache::AaCache;
use super::equisat::Extents;
use crate::layers::independence::{Footprint, IncrementalFactors};
use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// Footprints kept before their memo is cleared.
const FOOTPRINT_LIMIT: usize = 200_000;

/// The address-aware cache's counters (`summary.json`: `solver.aa_cache`), with the
/// thesis's query classes (Table 4.2).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct AaStats {
    /// Queries the facade sent to the chain or answered from this cache (constant queries
    /// excluded).
    pub queries: u64,
    /// C1: satisfiability and validity queries (model queries are never cached).
    pub c1: u64,
    /// C2: C1 queries this cache handles (an address-agnostic form, not engine-internal).
    pub c2: u64,
    /// C3: C2 queries that are address-dependent (their slice reads a symbolic base).
    pub c3: u64,
    /// C1 queries tagged engine-internal (resolution), which bypass the cache.
    pub internal: u64,
    /// Queries answered from the cache.
    pub hits: u64,
    /// Hits on C3 queries.
    pub hits_c3: u64,
    /// Hits that needed a renaming (the exact query cache could not have answered them).
    pub hits_renamed: u64,
    /// SAT hits whose translated model did not satisfy the query (decided by the chain).
    pub sat_hits_refuted: u64,
    /// Queries cached (at the end of the run).
    pub entries: u64,
    /// Hits cross-checked against the chain (`--validate-caching`).
    pub validated: u64,
    /// Cross-checks that disagreed (each a solver failure).
    pub validation_failures: u64,
}

/// The address-agnostic form of a query, aligned with its solver form.
#[derive(Clone, Copy, Debug)]
pub struct Agnostic<'a, X: Extents + ?Sized> {
    /// The constraints, position by position those of the solver form.
    pub constraints: &'a [Expr],
    /// The expression.
    pub expr: &'a Expr,
    /// The extents of the bases.
    pub extents: &'a X,
}

/// The cache, its slicer and its statistics.
pub struct AaLayer {
    cache: AaCache,
    footprints: FxHashMap<Expr, Rc<Footprint>>,
    factors: IncrementalFactors,
    validate: bool,
    stats: AaStats,
    layer: LayerStats,
}

impl AaLayer {
    /// A layer; with `validate`, every hit is cross-checked against the chain.
    pub fn new(validate: bool) -> Self {
        AaLayer {
            cache: AaCache::new(),
            footprints: FxHashMap::default(),
            factors: IncrementalFactors::default(),
            validate,
            stats: AaStats::default(),
            layer: LayerStats::new("aa-cache"),
        }
    }

    /// Counts a query of the facade; `sat` for satisfiability and validity queries,
    /// `internal` for engine-internal ones.
    pub fn count(&mut self, sat: bool, internal: bool) {
        self.stats.queries += 1;
        if sat {
            self.stats.c1 += 1;
            self.stats.internal += internal as u64;
        }
    }

    /// The counters.
    pub fn stats(&self) -> AaStats {
        AaStats {
            entries: self.cache.len() as u64,
            ..self.stats.clone()
        }
    }

    /// The layer's time and hits, as the chain's layers report them.
    pub fn layer_stats(&self) -> LayerStats {
        self.layer.clone()
    }

    fn footprint(&mut self, e: &Expr) -> Rc<Footprint> {
        if self.footprints.len() > FOOTPRINT_LIMIT {
            self.footprints.clear();
        }
        self.footprints
            .entry(e.clone())
            .or_insert_with(|| Rc::new(Footprint::of(e)))
            .clone()
    }

    /// The positions of the constraints connected to `query.expr` (constraints known
    /// satisfiable: the others do not change the answer).
    fn slice(&mut self, query: &SatQuery) -> Vec<usize> {
        let mut factors = std::mem::take(&mut self.factors);
        factors.extend_to(query.constraints, |e| self.footprint(e));
        let mut roots = Vec::new();
        let fp = self.footprint(&query.expr);
        factors.roots_touched_by(&fp, &mut roots);
        let positions = factors.positions_of(&roots);
        self.factors = factors;
        positions
    }

    /// Decides `query` (a satisfiability query whose constraints are known satisfiable)
    /// from the cache or by `chain`, given its address-agnostic form.
    pub fn check<X: Extents + ?Sized>(
        &mut self,
        chain: &mut dyn SatSolver,
        query: &SatQuery,
        agnostic: Agnostic<X>,
    ) -> Result<SatResult, SolverError> {
        debug_assert_eq!(query.constraints.len(), agnostic.constraints.len());
        let start = Instant::now();
        self.stats.c2 += 1;
        let positions = self.slice(query);
        let key = self.cache.key(
            positions.iter().map(|&i| &agnostic.constraints[i]),
            agnostic.expr.clone(),
        );
        self.stats.c3 += key.bases as u64;
        if let Some(hit) = self.cache.lookup(&key, agnostic.extents) {
            let confirmed = match &hit.result {
                SatResult::Unsat => true,
                SatResult::Sat(model) => {
                    let slice: Vec<Expr> = positions
                        .iter()
                        .map(|&i| query.constraints[i].clone())
                        .collect();
                    let holds = model.satisfies(slice.iter().chain([&query.expr]));
                    if holds && hit.renamed {
                        // The counterexample cache below keeps the model, as if the chain
                        // had found it (later model queries of the path reuse it). A hit
                        // without renaming repeats a query the chain decided and keeps.
                        let sliced =
                            SatQuery::new(&slice, query.expr.clone(), query.meta, true, true);
                        chain.learn(&sliced, &hit.result);
                    }
                    holds
                }
            };
            if confirmed {
                self.stats.hits += 1;
                self.stats.hits_c3 += key.bases as u64;
                self.stats.hits_renamed += hit.renamed as u64;
                if self.validate {
                    self.cross_check(chain, query, &hit.result)?;
                }
                if !hit.result.is_sat() && hit.renamed && !key.bases {
                    // An address-free UNSAT hit is exact (only input arrays were renamed):
                    // the counterexample cache keeps it, so later queries that contain it
                    // are answered there as they would be without this cache. An
                    // address-dependent one rests on the agnostic assumption and is not
                    // spread further.
                    let slice: Vec<Expr> = positions
                        .iter()
                        .map(|&i| query.constraints[i].clone())
                        .collect();
                    let sliced = SatQuery::new(&slice, query.expr.clone(), query.meta, true, false);
                    chain.learn(&sliced, &hit.result);
                }
                self.layer.record(start, true);
                return Ok(hit.result);
            }
            self.stats.sat_hits_refuted += 1;
            let result = chain.check(query);
            self.layer.record(start, false);
            return result;
        }
        let result = chain.check(query);
        if let Ok(r) = &result {
            self.cache.insert(key, agnostic.extents, r);
        }
        self.layer.record(start, false);
        result
    }

    /// `--validate-caching`: the chain must agree with a hit.
    fn cross_check(
        &mut self,
        chain: &mut dyn SatSolver,
        query: &SatQuery,
        cached: &SatResult,
    ) -> Result<(), SolverError> {
        self.stats.validated += 1;
        match chain.check(query) {
            Ok(r) if r.is_sat() == cached.is_sat() => Ok(()),
            Ok(r) => {
                self.stats.validation_failures += 1;
                Err(SolverError::Failure(format!(
                    "AA CACHE VALIDATION FAILED: the address-aware cache says {} but the \
                     solver says {} ({} constraints, expr {})",
                    if cached.is_sat() { "sat" } else { "unsat" },
                    if r.is_sat() { "sat" } else { "unsat" },
                    query.constraints.len(),
                    query.expr
                )))
            }
            Err(SolverError::Timeout) => {
                tracing::warn!("caching validation skipped: the solver timed out");
                Ok(())
            }
            Err(e) => Err(e),
        }
    }
}
