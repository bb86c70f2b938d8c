//! Array-read transformations of KLEE-Array ("Accelerating Array Constraints in Symbolic
//! Execution", ISSTA'17; spec `000-klee-array.md`): reads from constant and mixed arrays at
//! symbolic offsets are replaced by equivalent bit-vector formulas before they reach the
//! solver. Pure expression rewriting over `sear-expr`: no solver is involved.
//!
//! * **Dynamic constant folding** lives in the read constructor of `sear-expr`
//!   ([`Expr::read`]); the ablation without it is the explicit policy
//!   [`ReadPolicy::Unfolded`] ([`sear_expr::reads`]), which the optimiser also follows for
//!   the reads it rebuilds ([`ArrayOptimizer::with_read_policy`]).
//! * **Index-based** ([`index_transform`]): a branch condition that depends on symbolic data
//!   only through the offset of a constant-array read becomes a disjunction of offset
//!   ranges, found by evaluating the condition at every offset.
//!   Conditions over nested reads keyed by one or two input bytes (a DFA after two
//!   characters) are tabulated over those bytes instead ([`tabulate_condition`]).
//! * **Value-based** ([`value_transform`]): a read becomes a nested if-then-else over the
//!   array's distinct values guarded by offset ranges; for mixed arrays, one branch per
//!   symbolic element.
//! * [`ArrayOptimizer`] is the driver the engine calls: index-based first, value-based when
//!   that fails ([`ArrayOptimizer::optimize_condition`], for branch, switch and assume), or
//!   value-based alone ([`ArrayOptimizer::optimize_value`], for values about to be
//!   concretised and symbolic addresses), with caches of optimised and of unoptimisable
//!   expressions and [`ArrayOptStats`].
//!
//! Soundness rests on one engine invariant, as in KLEE: every symbolic-offset read in an
//! expression was made by an access whose bounds are in the path condition. The results are
//! therefore equivalent to the originals *under the path condition*: index-based results
//! imply the offset is in bounds, the value-based default covers out-of-bounds offsets.
//!
//! ```
//! use std::sync::Arc;
//! use sear_arrayopt::{ArrayOptConfig, ArrayOptimizer, OptMode};
//! use sear_expr::{Array, ArrayKind, Expr, UpdateList};
//!
//! let table = Array::new("A", 7, ArrayKind::MemoryObject, Some(Arc::from(&[0u8, 0, 3, 3, 0, 0, 4][..])));
//! let input = Array::new("v", 1, ArrayKind::SymbolicInput, None);
//! let v = Expr::read(&UpdateList::new(input), Expr::constant(0, 32));
//! let read = Expr::read(&UpdateList::new(table), Expr::zext(v.clone(), 32));
//! let cond = Expr::ult(read, Expr::constant(3, 8)); // A[v] < 3
//! let mut opt = ArrayOptimizer::new(ArrayOptConfig::with_mode(OptMode::All));
//! let t = opt.optimize_condition(&cond);
//! // v ≤ 1 ∨ 4 ≤ v ≤ 5: no array left.
//! let expected = Expr::or(
//!     Expr::ule(v.clone(), Expr::constant(1, 8)),
//!     Expr::and(Expr::ule(Expr::constant(4, 8), v.clone()), Expr::ule(v, Expr::constant(5, 8))),
//! );
//! assert_eq!(t, expected);
//! ```

#[cfg(feature = "cli")]
pub mod cli;
mod compose;
pub mod distribute;
pub mod element;
mod group;
mod index;
mod program;
pub mod ranges;
mod scan;
mod tabulate;
mod value;

use std::cell::RefCell;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::expr::Expr;
use sear_expr::visit;
use sear_expr::ReadPolicy;

pub use element::{match_element, Cells, CellsCache, ElementRead};
pub use group::{grouped_reads, Group, Member};
pub use index::{index_transform, IndexResult};
pub use scan::{element_reads, has_select, has_symbolic_index_read};
pub use tabulate::tabulate_condition;
pub use value::{value_transform, ValueKind, ValueLimits};

/// Which transformations run (`--optimize-array`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum OptMode {
    /// None (KLEE's default; `off` is accepted too).
    #[cfg_attr(feature = "cli", value(alias = "off"))]
    None,
    /// Index-based only.
    Index,
    /// Value-based only (constant and mixed arrays).
    Value,
    /// Index-based first, value-based when it does not apply. sear's default: it never lost
    /// on the bench suite (docs/benchmarks.md, "Today's defaults").
    #[default]
    All,
}

impl OptMode {
    /// The option value.
    pub fn name(self) -> &'static str {
        match self {
            OptMode::None => "none",
            OptMode::Index => "index",
            OptMode::Value => "value",
            OptMode::All => "all",
        }
    }

    fn index(self) -> bool {
        matches!(self, OptMode::Index | OptMode::All)
    }

    fn value(self) -> bool {
        matches!(self, OptMode::Value | OptMode::All)
    }
}

/// Where the transformations run (`--optimize-array-at`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum OptStage {
    /// At the branch, as KLEE-Array does: the transformed condition enters the path
    /// condition, and every solver layer sees it.
    Branch,
    /// In the solver chain, just above the core: the path condition keeps the reads as the
    /// program made them, which the caches and the byte search answer by evaluation; only
    /// the queries that get past them are transformed.
    #[default]
    Core,
}

impl OptStage {
    /// The option value.
    pub fn name(self) -> &'static str {
        match self {
            OptStage::Branch => "branch",
            OptStage::Core => "core",
        }
    }
}

/// Configuration of the optimiser; with the `cli` feature, also the command-line options
/// that set it (`sear run --optimize-array` and its thresholds).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct ArrayOptConfig {
    /// Transform reads of constant and mixed arrays at symbolic offsets before they reach
    /// the solver. The default, all, never lost on the bench suite (docs/benchmarks.md, "Today's defaults").
    #[cfg_attr(feature = "cli", arg(
        id = "optimize-array",
        long = "optimize-array",
        value_name = "MODE",
        value_enum,
        default_value_t = OptMode::default(),
    ))]
    pub mode: OptMode,
    /// Where the transformations run: `core` (in the solver chain, below the caches and the
    /// byte search, which then see the table reads they answer by evaluation) or `branch`
    /// (KLEE-Array's place: the transformed condition enters the path condition).
    #[cfg_attr(feature = "cli", arg(
        id = "optimize-array-at",
        long = "optimize-array-at",
        value_name = "STAGE",
        value_enum,
        default_value_t = OptStage::default(),
    ))]
    pub stage: OptStage,
    /// Thresholds of the value-based transformation.
    #[cfg_attr(feature = "cli", command(flatten))]
    pub limits: ValueLimits,
    /// Value-based rewrites of a condition over more than two input bytes are kept only when
    /// at most this many times the original's size (plus 64 nodes); 0: no limit (at most
    /// 10^6).
    #[cfg_attr(feature = "cli", arg(
        id = "array-value-max-growth",
        long = "array-value-max-growth",
        value_name = "K",
        default_value_t = ArrayOptConfig::default().max_condition_growth,
        value_parser = clap::builder::RangedI64ValueParser::<usize>::new().range(0..=1_000_000),
    ))]
    pub max_condition_growth: usize,
    /// Arrays larger than this many bytes are left alone.
    #[cfg_attr(feature = "cli", arg(skip = ArrayOptConfig::default().max_array_bytes))]
    pub max_array_bytes: u64,
    /// The caches are cleared when they hold more entries than this.
    #[cfg_attr(feature = "cli", arg(skip = ArrayOptConfig::default().cache_limit))]
    pub cache_limit: usize,
}

impl ArrayOptConfig {
    /// The defaults with `mode`.
    pub fn with_mode(mode: OptMode) -> Self {
        ArrayOptConfig {
            mode,
            ..Default::default()
        }
    }
}

impl Default for ArrayOptConfig {
    fn default() -> Self {
        ArrayOptConfig {
            mode: OptMode::default(),
            stage: OptStage::default(),
            limits: ValueLimits::default(),
            max_array_bytes: 1 << 20,
            cache_limit: 100_000,
            max_condition_growth: 4,
        }
    }
}

/// Counters of the optimiser (the "Inv" columns of the paper's Table 4, and the time).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ArrayOptStats {
    /// Conditions examined that held a symbolic-offset read (cache misses).
    pub conditions: u64,
    /// Successful index-based transformations.
    pub index_successes: u64,
    /// Of those, conditions found unsatisfiable by evaluation alone (result `false`).
    pub index_infeasible: u64,
    /// Of the index-based successes, conditions tabulated over the one or two input bytes
    /// they depend on ([`tabulate_condition`]).
    pub index_tabulated: u64,
    /// Reads of constant arrays rewritten by the value-based transformation.
    pub value_successes: u64,
    /// Reads of mixed arrays rewritten by the value-based transformation.
    pub mixed_successes: u64,
    /// Of the value-based successes, reads encoded over the one input byte they depend on.
    pub value_composed: u64,
    /// Of the value-based successes, reads at an if-then-else offset folded at its leaves.
    pub value_distributed: u64,
    /// Value-based rewrites of conditions dropped for growing beyond
    /// [`ArrayOptConfig::max_condition_growth`].
    pub value_too_large: u64,
    /// Answers served from the caches.
    pub cache_hits: u64,
    /// Element reads whose transformation was served from the per-element cache (a read
    /// that recurs in a later condition: a loop's earlier iterations on a path).
    pub element_cache_hits: u64,
    /// Time spent in the optimiser.
    pub time: Duration,
}

/// The driver: caches, modes and statistics around the transformations.
pub struct ArrayOptimizer {
    config: ArrayOptConfig,
    stats: ArrayOptStats,
    cells: CellsCache,
    optimized: FxHashMap<Expr, Expr>,
    unoptimizable: FxHashSet<Expr>,
    values: FxHashMap<Expr, Expr>,
    /// Each element read's composition over one input byte (`compose_pass`), by the
    /// element (a pure function of it and the array's contents).
    composed: FxHashMap<Expr, Option<Expr>>,
    /// Each element read's value-based transformation (`range_pass`), by the element with
    /// its offset's inner reads rewritten.
    elements: FxHashMap<Expr, Option<(Expr, ValueKind)>>,
    reads: ReadPolicy,
}

impl ArrayOptimizer {
    /// An optimiser with empty caches, rebuilding reads with dynamic constant folding.
    pub fn new(config: ArrayOptConfig) -> Self {
        ArrayOptimizer {
            config,
            stats: ArrayOptStats::default(),
            cells: CellsCache::new(config.max_array_bytes),
            optimized: FxHashMap::default(),
            unoptimizable: FxHashSet::default(),
            values: FxHashMap::default(),
            composed: FxHashMap::default(),
            elements: FxHashMap::default(),
            reads: ReadPolicy::Fold,
        }
    }

    /// The optimiser building the reads of its rewrites (a read whose offset a rewrite
    /// changed, a whole element read) under `reads`: the run's policy, so that
    /// `--no-array-folding` holds inside the transformed expressions too.
    pub fn with_read_policy(mut self, reads: ReadPolicy) -> Self {
        self.reads = reads;
        self
    }

    /// The configuration.
    pub fn config(&self) -> &ArrayOptConfig {
        &self.config
    }

    /// The counters so far.
    pub fn stats(&self) -> &ArrayOptStats {
        &self.stats
    }

    /// True if some transformation is enabled.
    pub fn enabled(&self) -> bool {
        self.config.mode != OptMode::None
    }

    /// An equivalent boolean condition without symbolic-offset reads of constant (and, in
    /// value mode, mixed) arrays where one exists: index-based first, then value-based.
    /// Returns `cond` itself when nothing applies.
    /// Quantified clauses (and anything mentioning a bound variable) are passed by.
    pub fn optimize_condition(&mut self, cond: &Expr) -> Expr {
        if !self.enabled() || cond.is_constant() || sear_expr::quant::contains_var([cond]) {
            return cond.clone();
        }
        if let Some(r) = self.optimized.get(cond) {
            self.stats.cache_hits += 1;
            return r.clone();
        }
        if self.unoptimizable.contains(cond) {
            self.stats.cache_hits += 1;
            return cond.clone();
        }
        let start = Instant::now();
        let result = if has_symbolic_index_read(cond) {
            self.stats.conditions += 1;
            self.transform_condition(cond)
        } else if self.config.mode.index() && has_select(cond) {
            // If-then-else trees over input bytes, typically a value the value-based
            // transformation rewrote earlier (a loaded DFA state, a resolved address).
            self.tabulate(cond)
        } else {
            None
        };
        self.make_room();
        let out = match result {
            Some(r) => {
                self.optimized.insert(cond.clone(), r.clone());
                r
            }
            None => {
                self.unoptimizable.insert(cond.clone());
                cond.clone()
            }
        };
        self.stats.time += start.elapsed();
        out
    }

    fn transform_condition(&mut self, cond: &Expr) -> Option<Expr> {
        if self.config.mode.index() {
            if let Some(r) = index_transform(cond, &mut self.cells) {
                self.stats.index_successes += 1;
                self.stats.index_infeasible += r.expr.is_false() as u64;
                return Some(r.expr);
            }
            if let Some(r) = self.tabulate(cond) {
                return Some(r);
            }
        }
        if self.config.mode.value() {
            let r = self.rewrite_reads(cond)?;
            // A condition over a DFA after three or more characters becomes if-then-else
            // trees over those characters that the solver finds harder than the array reads
            // they replace (measured on the flex scanners of bench/); rewrites over one or
            // two bytes (isBase64's 64 guards) are kept whatever their size.
            let growth = self.config.max_condition_growth;
            if growth > 0
                && node_count(&r) > growth * node_count(cond) + 64
                && compose::symbolic_bytes(&r, &mut self.cells, 2).is_none()
            {
                self.stats.value_too_large += 1;
                return None;
            }
            return Some(r);
        }
        None
    }

    fn tabulate(&mut self, cond: &Expr) -> Option<Expr> {
        let r = tabulate_condition(cond, &mut self.cells)?;
        self.stats.index_successes += 1;
        self.stats.index_tabulated += 1;
        self.stats.index_infeasible += r.is_false() as u64;
        Some(r)
    }

    /// The value-based transformation alone ("value-only" mode), for values about to be
    /// concretised or resolved as addresses. A no-op unless the mode includes value.
    pub fn optimize_value(&mut self, e: &Expr) -> Expr {
        if !self.config.mode.value() || e.is_constant() || sear_expr::quant::contains_var([e]) {
            return e.clone();
        }
        if let Some(r) = self.values.get(e) {
            self.stats.cache_hits += 1;
            return r.clone();
        }
        let start = Instant::now();
        let r = if has_symbolic_index_read(e) {
            self.rewrite_reads(e).unwrap_or_else(|| e.clone())
        } else {
            e.clone()
        };
        self.make_room();
        self.values.insert(e.clone(), r.clone());
        self.stats.time += start.elapsed();
        r
    }

    /// Rewrites every element read of `e` that the value-based transformation accepts;
    /// `None` if none was. Reads of one array at one base are transformed once, as one
    /// element, and each read becomes an extract of it.
    ///
    /// First, outermost first, chains of lookups keyed by one input byte become RANGEITE over
    /// that byte ([`compose`]); reads inside such a chain need no transformation of their
    /// own. Then, innermost first, the remaining reads get Algorithm 1 with the inner reads
    /// of their offsets already rewritten: when that makes an offset an ITE tree with
    /// constant leaves, the read folds at every leaf ([`distribute`]), otherwise its values
    /// are guarded by offset ranges.
    fn rewrite_reads(&mut self, e: &Expr) -> Option<Expr> {
        let composed = self.compose_pass(e);
        let e1 = match &composed {
            Some(map) => visit::substitute_with(e, map, self.reads),
            None => e.clone(),
        };
        let ranged = self.range_pass(&e1);
        match (composed, ranged) {
            (None, None) => None,
            (_, Some(rewritten)) => Some(rewritten),
            (Some(_), None) => Some(e1),
        }
    }

    /// Replacements for the groups whose reads compose over one input byte.
    fn compose_pass(&mut self, e: &Expr) -> Option<FxHashMap<Expr, Expr>> {
        let mut groups = group::grouped_reads(e);
        groups.sort_by_key(|g| std::cmp::Reverse(g.min_depth()));
        let mut map: FxHashMap<Expr, Expr> = FxHashMap::default();
        let mut covered: FxHashSet<Expr> = FxHashSet::default();
        for g in groups {
            let er = &g.element;
            if er.bytes > element::MAX_ELEMENT_BYTES
                || g.members.iter().all(|m| covered.contains(&m.node))
            {
                continue;
            }
            let whole = self.reads.read_lsb(&er.updates, er.base.clone(), er.bytes);
            let limits = self.config.limits;
            let composed = match self.composed.get(&whole) {
                Some(known) => {
                    self.stats.element_cache_hits += 1;
                    known.clone()
                }
                None => {
                    let t = compose::compose_over_byte(&whole, &mut self.cells, &limits);
                    self.composed.insert(whole, t.clone());
                    t
                }
            };
            let Some(t) = composed else {
                continue;
            };
            self.stats.value_successes += 1;
            self.stats.value_composed += 1;
            visit::for_each_node(std::iter::once(&er.base), |n| {
                covered.insert(n.clone());
            });
            for m in &g.members {
                let part = Expr::extract(t.clone(), 8 * m.delta as u32, 8 * m.bytes);
                map.insert(m.node.clone(), part);
            }
        }
        (!map.is_empty()).then_some(map)
    }

    /// `e` with the remaining groups replaced, innermost first (Algorithm 1); `None` when
    /// no group was.
    ///
    /// One rewriter (one memo) serves every group's offset and then `e` itself. That is
    /// sound because the groups are taken innermost first: a read inside a group's offset
    /// is lower than the group's members, so its group came earlier, and every node the memo
    /// holds already had its final replacement (or none) for each read below it when it
    /// was rewritten; the replacements added later are for reads it does not contain.
    /// Rewriting each offset afresh was quadratic on chains of reads whose offsets contain
    /// the previous read (a pointer moved along `argv` by symbolic counts in coreutils
    /// `expr`: a tenth of its run time).
    fn range_pass(&mut self, e: &Expr) -> Option<Expr> {
        let mut groups = group::grouped_reads(e);
        groups.sort_by_key(|g| g.min_depth());
        let map: RefCell<FxHashMap<Expr, Expr>> = RefCell::new(FxHashMap::default());
        let mut rewriter =
            visit::Rewriter::new(|original: &Expr, _: &Expr| map.borrow().get(original).cloned())
                .with_read_policy(self.reads);
        for g in groups {
            let Some(contents) = self.cells.get(&g.element.updates) else {
                continue;
            };
            if g.element.bytes > element::MAX_ELEMENT_BYTES {
                // Too wide to be one value: each read on its own.
                for m in &g.members {
                    let er = match_element(&m.node).expect("a member is an element read");
                    let er = ElementRead {
                        base: rewriter.apply(&er.base),
                        ..er
                    };
                    if let Some(t) = self.value_element(&er, &contents) {
                        map.borrow_mut().insert(m.node.clone(), t);
                    }
                }
                continue;
            }
            // The offset with the inner reads already rewritten.
            let er = ElementRead {
                base: rewriter.apply(&g.element.base),
                ..g.element.clone()
            };
            let Some(t) = self.value_element(&er, &contents) else {
                continue;
            };
            let mut replacements = map.borrow_mut();
            for m in &g.members {
                let part = Expr::extract(t.clone(), 8 * m.delta as u32, 8 * m.bytes);
                replacements.insert(m.node.clone(), part);
            }
        }
        if map.borrow().is_empty() {
            return None;
        }
        Some(rewriter.apply(e))
    }

    fn value_element(&mut self, er: &ElementRead, contents: &Cells) -> Option<Expr> {
        let key = self.reads.read_lsb(&er.updates, er.base.clone(), er.bytes);
        let (t, kind) = match self.elements.get(&key) {
            Some(known) => {
                self.stats.element_cache_hits += 1;
                known.clone()?
            }
            None => {
                let r = value_transform(er, contents, &self.config.limits);
                self.elements.insert(key, r.clone());
                r?
            }
        };
        match kind {
            ValueKind::Constant => self.stats.value_successes += 1,
            ValueKind::Mixed => self.stats.mixed_successes += 1,
            ValueKind::Distributed => {
                self.stats.value_successes += 1;
                self.stats.value_distributed += 1;
            }
        }
        Some(t)
    }

    fn make_room(&mut self) {
        let entries = self.optimized.len()
            + self.unoptimizable.len()
            + self.values.len()
            + self.composed.len()
            + self.elements.len();
        if entries >= self.config.cache_limit {
            self.optimized.clear();
            self.unoptimizable.clear();
            self.values.clear();
            self.composed.clear();
            self.elements.clear();
            self.cells.clear();
        }
    }
}

fn node_count(e: &Expr) -> usize {
    let mut n = 0;
    visit::for_each_node(std::iter::once(e), |_| n += 1);
    n
}
