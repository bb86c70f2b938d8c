//! Constraint independence (KLEE's `IndependentSolver`).
//!
//! The conjuncts of a query are partitioned into factors connected by the array bytes they
//! read. Each conjunct's footprint ([`Footprint`]) records, per array, the constant indices it
//! reads, or that it reads the whole array (a read at a symbolic index, or through a write at a
//! symbolic index). Reads of constant arrays with no writes connect nothing. Two conjuncts are
//! connected when they read a common byte or one reads a whole array the other touches.
//!
//! * Constraints known satisfiable and no full model needed: only the factor(s) connected to
//!   `expr` and `focus` go below; with nothing connected the answer is `Sat` at once.
//! * Otherwise each factor is solved on its own (the one holding `expr` first) and the models
//!   are merged byte by byte: each factor contributes the bytes it reads.

use std::rc::Rc;
use std::time::{Duration, Instant};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::visit::for_each_node;
use sear_expr::{ArrayRef, Assignment, Expr, ExprKind};

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// Footprints are cached per expression; the cache is cleared beyond this many entries.
const FOOTPRINT_CACHE_LIMIT: usize = 200_000;

/// The array bytes one expression reads.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    /// Arrays read at constant indices, with those indices.
    pub indices: FxHashMap<ArrayRef, FxHashSet<u128>>,
    /// Arrays read at a symbolic index (or through a symbolic-index write).
    pub whole: FxHashSet<ArrayRef>,
}

impl Footprint {
    /// The footprint of `expr`.
    pub fn of(expr: &Expr) -> Footprint {
        let mut fp = Footprint::default();
        for_each_node([expr], |e| {
            let ExprKind::Read { updates, index } = e.kind() else {
                return;
            };
            let root = updates.root();
            if root.is_constant() && updates.is_empty() {
                return;
            }
            match index.as_constant() {
                Some(i) if updates.iter().all(|w| w.index().is_constant()) => {
                    fp.indices.entry(root.clone()).or_default().insert(i);
                }
                _ => {
                    fp.whole.insert(root.clone());
                }
            }
        });
        for a in &fp.whole {
            fp.indices.remove(a);
        }
        fp
    }

    /// True if the expression reads no array byte.
    pub fn is_empty(&self) -> bool {
        self.indices.is_empty() && self.whole.is_empty()
    }
}

/// A small union-find over conjunct positions.
#[derive(Default)]
struct Partition(Vec<usize>);

impl Partition {
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.0[ra] = rb;
        }
    }
}

/// The constraint independence layer.
pub struct Independence {
    inner: Box<dyn SatSolver>,
    footprints: FxHashMap<Expr, Rc<Footprint>>,
    /// The factors of the last constraint list sliced, extended when the next query's
    /// constraints extend it (as a path's do, query after query).
    incremental: IncrementalFactors,
    stats: LayerStats,
}

impl Independence {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        Independence {
            inner,
            footprints: FxHashMap::default(),
            incremental: IncrementalFactors::default(),
            stats: LayerStats::new("independence"),
        }
    }

    fn footprint(&mut self, e: &Expr) -> Rc<Footprint> {
        if self.footprints.len() > FOOTPRINT_CACHE_LIMIT {
            self.footprints.clear();
        }
        self.footprints
            .entry(e.clone())
            .or_insert_with(|| Rc::new(Footprint::of(e)))
            .clone()
    }

    /// Partitions `items` into factors; returns the factor id (a representative) of each.
    fn factors(&mut self, items: &[&Expr]) -> (Vec<usize>, Vec<Rc<Footprint>>) {
        let fps: Vec<Rc<Footprint>> = items.iter().map(|e| self.footprint(e)).collect();
        let mut part = Partition((0..items.len()).collect());
        // Per array: the first conjunct reading it whole, and per byte the first conjunct
        // reading it.
        let mut first_whole: FxHashMap<&ArrayRef, usize> = FxHashMap::default();
        let mut first_byte: FxHashMap<(&ArrayRef, u128), usize> = FxHashMap::default();
        for (i, fp) in fps.iter().enumerate() {
            for a in &fp.whole {
                first_whole.entry(a).or_insert(i);
            }
        }
        for (i, fp) in fps.iter().enumerate() {
            for a in &fp.whole {
                part.union(i, first_whole[a]);
            }
            for (a, idx) in &fp.indices {
                if let Some(&w) = first_whole.get(a) {
                    part.union(i, w);
                    continue;
                }
                for &b in idx {
                    let j = *first_byte.entry((a, b)).or_insert(i);
                    part.union(i, j);
                }
            }
        }
        let roots = (0..items.len()).map(|i| part.find(i)).collect();
        (roots, fps)
    }

    fn sliced(&mut self, query: &SatQuery, start: Instant) -> Result<SatResult, SolverError> {
        let mut factors = std::mem::take(&mut self.incremental);
        factors.extend_to(query.constraints, |e| self.footprint(e));
        let mut wanted: Vec<usize> = Vec::new();
        for e in std::iter::once(&query.expr).chain(query.focus.as_ref()) {
            let fp = self.footprint(e);
            factors.roots_touched_by(&fp, &mut wanted);
        }
        if wanted.is_empty() && query.expr.is_true() {
            self.incremental = factors;
            self.stats.record(start, true);
            return Ok(SatResult::Sat(Assignment::new()));
        }
        let copied;
        let kept: &[Expr] = match wanted[..] {
            [] => &[],
            [root] => factors.single(root),
            _ => {
                copied = factors.constraints_of(&wanted);
                &copied
            }
        };
        let sub = SatQuery {
            constraints: kept,
            ..query.clone()
        };
        let result = self.inner.check(&sub);
        self.incremental = factors;
        self.stats.record(start, false);
        result
    }

    fn split(&mut self, query: &SatQuery, start: Instant) -> Result<SatResult, SolverError> {
        let mut items: Vec<&Expr> = query.constraints.iter().collect();
        let n = items.len();
        items.push(&query.expr);
        let (roots, fps) = self.factors(&items);
        // Factors in order of first appearance, the one holding `expr` first.
        let mut order: Vec<usize> = vec![roots[n]];
        let mut groups: FxHashMap<usize, Vec<usize>> = FxHashMap::default();
        for i in 0..n {
            if query.constraints[i].is_true() {
                continue;
            }
            let g = groups.entry(roots[i]).or_default();
            if g.is_empty() && roots[i] != roots[n] {
                order.push(roots[i]);
            }
            g.push(i);
        }
        if order.len() == 1 {
            let result = self.inner.check(query);
            self.stats.record(start, false);
            return result;
        }
        let mut merged = Assignment::new();
        let mut merged_bytes: FxHashMap<ArrayRef, Vec<u8>> = FxHashMap::default();
        for root in order {
            let members = groups.remove(&root).unwrap_or_default();
            let constraints: Vec<Expr> = members.iter().map(|&i| items[i].clone()).collect();
            let holds_expr = root == roots[n];
            let expr = if holds_expr {
                query.expr.clone()
            } else {
                Expr::true_()
            };
            if constraints.is_empty() && expr.is_true() {
                continue;
            }
            let sub = SatQuery {
                constraints: &constraints,
                expr,
                meta: query.meta,
                constraints_known_sat: query.constraints_known_sat,
                need_model: true,
                focus: None,
            };
            let model = match self.inner.check(&sub) {
                Ok(SatResult::Sat(m)) => m,
                other => {
                    self.stats.record(start, false);
                    return other;
                }
            };
            let mut member_fps: Vec<&Footprint> = members.iter().map(|&i| &*fps[i]).collect();
            if holds_expr {
                member_fps.push(&fps[n]);
            }
            copy_bytes(&model, &member_fps, &mut merged_bytes);
            for fp in &member_fps {
                for a in &fp.whole {
                    merged.copy_outside_from(&model, a);
                }
            }
        }
        for (a, bytes) in merged_bytes {
            merged.insert(a, bytes);
        }
        self.stats.record(start, false);
        Ok(SatResult::Sat(merged))
    }
}

/// The factors of a constraint list, built incrementally: a query whose constraints extend
/// the list (the same expressions first, as a path's constraints grow) only adds the new
/// ones; any other list starts over. Connections are those of [`Independence::factors`].
/// Each factor keeps its constraints in list order, so a query touching one factor passes
/// them down without copying.
#[derive(Default)]
pub(crate) struct IncrementalFactors {
    constraints: Vec<Expr>,
    partition: Partition,
    /// Per factor (keyed by its representative): its constraints' positions and the
    /// constraints, in list order.
    members: FxHashMap<usize, (Vec<usize>, Vec<Expr>)>,
    /// Per array: the first constraint reading it whole.
    first_whole: FxHashMap<ArrayRef, usize>,
    /// Per array and byte: the first constraint reading that byte.
    first_byte: FxHashMap<ArrayRef, FxHashMap<u128, usize>>,
}

impl IncrementalFactors {
    /// Makes the factors those of `constraints`.
    pub(crate) fn extend_to(
        &mut self,
        constraints: &[Expr],
        mut footprint: impl FnMut(&Expr) -> Rc<Footprint>,
    ) {
        let common = self
            .constraints
            .iter()
            .zip(constraints)
            .take_while(|(a, b)| a == b)
            .count();
        if common < self.constraints.len() {
            *self = IncrementalFactors::default();
        }
        for c in &constraints[self.constraints.len()..] {
            let fp = footprint(c);
            self.push(c.clone(), &fp);
        }
    }

    fn push(&mut self, c: Expr, fp: &Footprint) {
        let i = self.constraints.len();
        self.constraints.push(c.clone());
        self.partition.0.push(i);
        self.members.insert(i, (vec![i], vec![c]));
        for a in &fp.whole {
            match self.first_whole.get(a) {
                Some(&w) => self.union(i, w),
                None => {
                    self.first_whole.insert(a.clone(), i);
                    // Every earlier reader of a byte of `a` is connected to a whole read.
                    let readers: Vec<usize> = self
                        .first_byte
                        .get(a)
                        .map(|b| b.values().copied().collect())
                        .unwrap_or_default();
                    for j in readers {
                        self.union(i, j);
                    }
                }
            }
        }
        for (a, idx) in &fp.indices {
            if let Some(&w) = self.first_whole.get(a) {
                self.union(i, w);
            }
            let mut readers = Vec::new();
            let bytes = self.first_byte.entry(a.clone()).or_default();
            for &b in idx {
                readers.push(*bytes.entry(b).or_insert(i));
            }
            for j in readers {
                self.union(i, j);
            }
        }
    }

    /// Joins the factors of `a` and `b`, keeping the members in list order.
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.partition.find(a), self.partition.find(b));
        if ra == rb {
            return;
        }
        self.partition.0[ra] = rb;
        let (pa, ea) = self.members.remove(&ra).unwrap_or_default();
        let (pb, eb) = self.members.remove(&rb).unwrap_or_default();
        let merged = if pb.last() < pa.first() {
            (concat(pb, pa), concat(eb, ea))
        } else if pa.last() < pb.first() {
            (concat(pa, pb), concat(ea, eb))
        } else {
            merge_in_order(pa, ea, pb, eb)
        };
        self.members.insert(rb, merged);
    }

    /// The factors that an expression with footprint `fp` connects to (representatives).
    pub(crate) fn roots_touched_by(&mut self, fp: &Footprint, out: &mut Vec<usize>) {
        let mut touch = |ex: &mut Self, j: usize| {
            let r = ex.partition.find(j);
            if !out.contains(&r) {
                out.push(r);
            }
        };
        for a in &fp.whole {
            if let Some(&w) = self.first_whole.get(a) {
                touch(self, w);
            }
            let readers: Vec<usize> = self
                .first_byte
                .get(a)
                .map(|b| b.values().copied().collect())
                .unwrap_or_default();
            for j in readers {
                touch(self, j);
            }
        }
        for (a, idx) in &fp.indices {
            if let Some(&w) = self.first_whole.get(a) {
                touch(self, w);
            }
            let readers: Vec<usize> = match self.first_byte.get(a) {
                Some(bytes) => idx.iter().filter_map(|b| bytes.get(b).copied()).collect(),
                None => Vec::new(),
            };
            for j in readers {
                touch(self, j);
            }
        }
    }

    /// The constraints of the factors `roots`, in list order.
    fn constraints_of(&self, roots: &[usize]) -> Vec<Expr> {
        let mut parts: Vec<(&[usize], &[Expr])> = roots
            .iter()
            .filter_map(|r| self.members.get(r))
            .map(|(p, e)| (p.as_slice(), e.as_slice()))
            .collect();
        if let [(_, exprs)] = parts[..] {
            return exprs.to_vec();
        }
        let mut tagged: Vec<(usize, &Expr)> = parts
            .drain(..)
            .flat_map(|(p, e)| p.iter().copied().zip(e.iter()))
            .collect();
        tagged.sort_unstable_by_key(|(i, _)| *i);
        tagged.into_iter().map(|(_, e)| e.clone()).collect()
    }

    /// The positions of the constraints of the factors `roots`, in list order.
    pub(crate) fn positions_of(&self, roots: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = roots
            .iter()
            .filter_map(|r| self.members.get(r))
            .flat_map(|(p, _)| p.iter().copied())
            .collect();
        out.sort_unstable();
        out
    }

    /// The constraints of the single factor `root`, without copying.
    fn single(&self, root: usize) -> &[Expr] {
        self.members.get(&root).map_or(&[], |(_, e)| e.as_slice())
    }
}

fn concat<T>(mut a: Vec<T>, b: Vec<T>) -> Vec<T> {
    a.extend(b);
    a
}

/// Two factors' members merged by position.
fn merge_in_order(
    pa: Vec<usize>,
    ea: Vec<Expr>,
    pb: Vec<usize>,
    eb: Vec<Expr>,
) -> (Vec<usize>, Vec<Expr>) {
    let mut tagged: Vec<(usize, Expr)> = pa
        .into_iter()
        .zip(ea)
        .chain(pb.into_iter().zip(eb))
        .collect();
    tagged.sort_unstable_by_key(|(i, _)| *i);
    tagged.into_iter().unzip()
}

/// Copies into `out` the bytes of `model` that the footprints `fps` read.
fn copy_bytes(model: &Assignment, fps: &[&Footprint], out: &mut FxHashMap<ArrayRef, Vec<u8>>) {
    for fp in fps {
        for a in &fp.whole {
            let bytes = (0..a.size()).map(|i| model.byte(a, i as u128)).collect();
            out.insert(a.clone(), bytes);
        }
        for (a, idx) in &fp.indices {
            if a.is_constant() {
                continue;
            }
            let bytes = out
                .entry(a.clone())
                .or_insert_with(|| vec![0; a.size() as usize]);
            for &i in idx {
                if i < bytes.len() as u128 {
                    bytes[i as usize] = model.byte(a, i);
                }
            }
        }
    }
}

impl SatSolver for Independence {
    fn name(&self) -> &'static str {
        "independence"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        if query.constraints_known_sat && !query.need_model {
            self.sliced(query, start)
        } else {
            self.split(query, start)
        }
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
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
