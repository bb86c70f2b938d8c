//! The floating-point search: a model for a query with floating-point nodes found by a
//! search over the values of its float inputs, by evaluation, before the core (the idea
//! of XSat, goSAT and JFS: the evaluator judges candidates; docs/techniques/floating-point.md).
//!
//! A branch on a float polynomial (`x - f(x)/f'(x) < 0.1` with Taylor polynomials of degree
//! 7) is one bit-blasted query that Bitwuzla may not answer in minutes, while a tenth of
//! the inputs' range satisfies it. The layer finds the query's float inputs (4 or 8
//! consecutive bytes of a symbolic array used as a binary32/binary64 operand,
//! [`inputs::float_input`]) and integer inputs (what `sitofp`/`uitofp` convert, as whole
//! integers or as the bytes of a computation, [`inputs::IntInput`]), tries candidate values and then a local search that
//! minimises the conjuncts' distance from holding ([`search`]), and answers **only SAT**,
//! with a model the audit has checked by evaluation ([`Audit::model_holds`]): every byte of
//! every symbolic array the query (and its focus) reads assigned. Anything else (no model
//! within the budget, a query without floating-point nodes or float inputs) goes down the
//! chain unchanged; the layer never answers UNSAT.
//!
//! The budget is a number of evaluations ([`Budget`]), not time, so the answers do not
//! depend on the machine's load. A query without floating-point nodes costs one memo
//! lookup per conjunct.

mod distance;
mod inputs;
mod keys;
mod search;

use std::collections::VecDeque;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::visit::collect_symbolic_arrays;
use sear_expr::{ArrayRef, Assignment, Expr};

use crate::audit::Audit;
use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;
use inputs::{analyse, ConjunctInfo, FloatInput, IntInput};
use keys::inf_key;
use search::{int_seeds, seeds, Meter, Rng, Search, Slot, Var};

/// The evaluations a query may take by default.
pub const EVALUATIONS: u64 = 2_000;
/// The evaluated nodes a query may take by default (a bound for large queries).
pub const NODES: u64 = 4_000_000;
/// The models remembered (the newest answers to queries with floating-point nodes, of the
/// layers below and of the search).
const MODELS: usize = 4;
/// The memo is cleared when it holds this many conjuncts.
const MEMO_LIMIT: usize = 1 << 20;

/// What a search may spend on one query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Evaluations of the query's conjuncts under a candidate assignment.
    pub evaluations: u64,
    /// Nodes evaluated in all.
    pub nodes: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            evaluations: EVALUATIONS,
            nodes: NODES,
        }
    }
}

/// The floating-point search layer.
pub struct FpSearch {
    inner: Box<dyn SatSolver>,
    /// Each conjunct's analysis.
    memo: FxHashMap<Expr, Rc<ConjunctInfo>>,
    /// The analysis every conjunct without floating-point nodes shares.
    float_free: Rc<ConjunctInfo>,
    /// Recent models, newest first.
    models: VecDeque<Assignment>,
    audit: Rc<Audit>,
    budget: Budget,
    stats: LayerStats,
}

impl FpSearch {
    /// Wraps `inner` (models checked by evaluation, the default budget).
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        FpSearch {
            inner,
            memo: FxHashMap::default(),
            float_free: Rc::new(ConjunctInfo::default()),
            models: VecDeque::new(),
            audit: Audit::checks_only(),
            budget: Budget::default(),
            stats: LayerStats::new("fp-search"),
        }
    }

    /// The layer with its answers checked by `audit` (the chain's).
    pub fn with_audit(mut self, audit: Rc<Audit>) -> Self {
        self.audit = audit;
        self
    }

    /// The layer with `budget` per query instead of the default.
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    fn remember(&mut self, model: &Assignment) {
        if model.is_empty() || self.models.front() == Some(model) {
            return;
        }
        self.models.push_front(model.clone());
        self.models.truncate(MODELS);
    }

    fn info(&mut self, conjunct: &Expr) -> Rc<ConjunctInfo> {
        if let Some(info) = self.memo.get(conjunct) {
            return info.clone();
        }
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        let analysis = analyse(conjunct);
        let info = if analysis.has_fp {
            Rc::new(analysis)
        } else {
            self.float_free.clone()
        };
        self.memo.insert(conjunct.clone(), info.clone());
        info
    }

    /// The analyses of the query's conjuncts, if one of them has a floating-point node.
    fn fp_infos(&mut self, query: &SatQuery) -> Option<Vec<Rc<ConjunctInfo>>> {
        let infos: Vec<Rc<ConjunctInfo>> = query
            .conjuncts()
            .filter(|c| !c.is_true())
            .map(|c| self.info(c))
            .collect();
        infos.iter().any(|i| i.has_fp).then_some(infos)
    }

    /// A model of `query` (whose conjuncts' analyses are `infos`) found by the search, if
    /// there is one within the budget.
    fn search(&mut self, query: &SatQuery, infos: &[Rc<ConjunctInfo>]) -> Option<Assignment> {
        let conjuncts: Vec<&Expr> = query.conjuncts().filter(|c| !c.is_true()).collect();
        self.stats.bump("fp_queries", 1);
        let mut inputs: Vec<FloatInput> = infos.iter().flat_map(|i| i.inputs.clone()).collect();
        inputs.sort_by_key(|i| (i.array.id(), i.offset, i.format.width()));
        inputs.dedup();
        let ints = int_inputs(infos, &inputs);
        if inputs.is_empty() && ints.is_empty() {
            self.stats.bump("no_inputs", 1);
            return None;
        }
        // Every symbolic array of the query and its focus, from the newest model that has
        // it, else zero.
        // The arrays each conjunct reads (the analysis keeps them for conjuncts with
        // floating-point nodes only; the others' are collected here, for searched queries).
        let read: Vec<Vec<ArrayRef>> = conjuncts
            .iter()
            .zip(infos)
            .map(|(c, i)| {
                if i.has_fp {
                    i.arrays.clone()
                } else {
                    collect_symbolic_arrays([*c]).into_iter().collect()
                }
            })
            .collect();
        let mut arrays: FxHashSet<ArrayRef> = read.iter().flatten().cloned().collect();
        if let Some(focus) = &query.focus {
            arrays.extend(collect_symbolic_arrays([focus]));
        }
        if arrays.iter().any(|a| a.is_unbounded()) {
            self.stats.bump("unbounded", 1);
            return None;
        }
        let mut base = Assignment::new();
        for a in &arrays {
            let size = a.size() as usize;
            let bytes = self
                .models
                .iter()
                .find_map(|m| m.get(a).filter(|b| b.len() == size))
                .map_or_else(|| vec![0; size], <[u8]>::to_vec);
            base.insert(a.clone(), bytes);
        }
        // The conjuncts that read no input's array do not change: they must hold already.
        let varied: FxHashSet<&ArrayRef> = inputs
            .iter()
            .map(|i| &i.array)
            .chain(ints.iter().map(|i| &i.array))
            .collect();
        let (moving, fixed): (Vec<_>, Vec<_>) = conjuncts
            .iter()
            .zip(&read)
            .partition(|(_, arrays)| arrays.iter().any(|a| varied.contains(a)));
        if !base.satisfies(fixed.iter().map(|(c, _)| **c)) {
            self.stats.bump("base_failed", 1);
            return None;
        }
        let moving: Vec<&Expr> = moving.iter().map(|(c, _)| **c).collect();
        let mut constants: Vec<_> = infos.iter().flat_map(|i| i.constants.clone()).collect();
        constants.sort_by_key(|&(f, b)| (f.width(), b));
        constants.dedup();
        let mut vars: Vec<Var> = inputs
            .into_iter()
            .map(|input| {
                let f = input.format;
                let (mut lo, mut hi) = (-inf_key(f), inf_key(f));
                for b in infos
                    .iter()
                    .flat_map(|i| &i.bounds)
                    .filter(|b| b.input == input)
                {
                    if b.lower {
                        lo = lo.max(b.key);
                    } else {
                        hi = hi.min(b.key);
                    }
                }
                if lo > hi {
                    (lo, hi) = (-inf_key(f), inf_key(f));
                }
                let mut extra: Vec<_> = self.models.iter().map(|m| (f, input.get(m))).collect();
                extra.extend(constants.iter().copied());
                let seeds = seeds(f, lo, hi, &extra);
                Var {
                    slot: Slot::Float(input),
                    lo,
                    hi,
                    seeds,
                }
            })
            .collect();
        vars.extend(ints.into_iter().map(|input| {
            let (lo, hi) = input.range();
            let extra: Vec<i64> = self.models.iter().map(|m| input.get(m)).collect();
            Var {
                seeds: int_seeds(lo, hi, &extra),
                slot: Slot::Int(input),
                lo,
                hi,
            }
        }));
        let seed = conjuncts.iter().fold(0x5EA2_F10A_u64, |h, c| {
            h.rotate_left(5) ^ c.structural_hash()
        });
        let mut search = Search {
            model: base,
            conjuncts: &moving,
            vars,
            meter: Meter {
                evaluations: self.budget.evaluations,
                nodes: self.budget.nodes,
                used: 0,
            },
            rng: Rng::new(seed),
        };
        self.stats.bump("tried", 1);
        let found = search.run();
        self.stats.bump("evaluations", search.meter.used);
        match found {
            Some(_) => Some(search.model),
            None => {
                self.stats.bump("not_found", 1);
                None
            }
        }
    }
}

/// The integer inputs of the conjuncts (`infos`) that share no byte with a float input or
/// with an earlier integer input (the whole integers first).
fn int_inputs(infos: &[Rc<ConjunctInfo>], floats: &[FloatInput]) -> Vec<IntInput> {
    let mut ints: Vec<IntInput> = infos.iter().flat_map(|i| i.int_inputs.clone()).collect();
    ints.sort_by_key(|i| (std::cmp::Reverse(i.bytes), i.array.id(), i.offset, i.signed));
    ints.dedup();
    let mut taken: Vec<(&ArrayRef, usize, usize)> = floats
        .iter()
        .map(|f| (&f.array, f.offset, f.offset + f.len()))
        .collect();
    let mut out = Vec::new();
    for i in &ints {
        let (start, end) = (i.offset, i.offset + i.bytes);
        if taken
            .iter()
            .any(|&(a, s, e)| a == &i.array && start < e && s < end)
        {
            continue;
        }
        taken.push((&i.array, start, end));
        out.push(i.clone());
    }
    out.sort_by_key(|i| (i.array.id(), i.offset));
    out
}

impl SatSolver for FpSearch {
    fn name(&self) -> &'static str {
        "fp-search"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        // A query without floating-point nodes goes down at once (nothing is recorded).
        let Some(infos) = self.fp_infos(query) else {
            return self.inner.check(query);
        };
        let start = Instant::now();
        if let Some(model) = self.search(query, &infos) {
            // Checked by evaluation; a model that fails goes to the layer below.
            if self.audit.model_holds(&mut self.stats, query, &model)? {
                self.stats.bump("sat", 1);
                self.stats.record(start, true);
                self.remember(&model);
                return Ok(SatResult::Sat(model));
            }
        }
        let result = self.inner.check(query);
        if let Ok(SatResult::Sat(model)) = &result {
            self.remember(model);
        }
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
    }

    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        if let SatResult::Sat(model) = result {
            if self.fp_infos(query).is_some() {
                self.remember(model);
            }
        }
        self.inner.learn(query, result);
    }
}
