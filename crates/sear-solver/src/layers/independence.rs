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
    stats: LayerStats,
}

impl Independence {
    /// Wraps `inner`.
    pub fn new(inner: Box<dyn SatSolver>) -> Self {
        Independence {
            inner,
            footprints: FxHashMap::default(),
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
        let mut items: Vec<&Expr> = query.constraints.iter().collect();
        let n = items.len();
        items.push(&query.expr);
        if let Some(f) = &query.focus {
            items.push(f);
        }
        let (roots, fps) = self.factors(&items);
        let mut wanted: FxHashSet<usize> = FxHashSet::default();
        for i in n..items.len() {
            if !fps[i].is_empty() {
                wanted.insert(roots[i]);
            }
        }
        let kept: Vec<Expr> = (0..n)
            .filter(|&i| wanted.contains(&roots[i]))
            .map(|i| items[i].clone())
            .collect();
        if kept.is_empty() && query.expr.is_true() {
            self.stats.record(start, true);
            return Ok(SatResult::Sat(Assignment::new()));
        }
        let sub = SatQuery {
            constraints: &kept,
            ..query.clone()
        };
        let result = self.inner.check(&sub);
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
}
