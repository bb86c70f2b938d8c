//! The search over the values of a query's float and integer inputs: candidates first (values of
//! remembered models, the query's constants and their neighbours, ±0, ±1, the ends,
//! midpoints and quarters of each input's range, random points of the range), then a local
//! search from the closest of them and from random restarts: each input moves by ±2^e
//! keys (ulps of a float, units of an integer), `e` growing after a move that brings the conjuncts closer to holding
//! ([`super::distance`]) and shrinking after one that does not, until the distance is 0 (a
//! model) or the budget of evaluations is spent. Every step is an evaluation of the
//! conjuncts under a full assignment; the search is deterministic (a seeded generator).

use sear_expr::fpsem::FpFormat;
use sear_expr::{Assignment, Evaluator, Expr};

use super::distance::distance;
use super::inputs::{FloatInput, IntInput};
use super::keys::{bits_of, from_key, inf_key, key, value};

/// Random candidates tried before the local search.
const RANDOM_CANDIDATES: usize = 48;
/// The closest candidates the local search starts from before its random restarts.
const STARTS: usize = 4;
/// The magnitude to which value-uniform random points are clipped when a range is open.
const VALUE_SPAN: f64 = 1e6;

/// What the search may spend: evaluations of the conjuncts, and the nodes they evaluate.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meter {
    /// Evaluations left.
    pub evaluations: u64,
    /// Evaluated nodes left.
    pub nodes: u64,
    /// Evaluations done.
    pub used: u64,
}

/// Where an input of the search lives.
pub(super) enum Slot {
    /// A float: its keys are [`super::keys`]'.
    Float(FloatInput),
    /// An integer: its keys are its values.
    Int(IntInput),
}

/// One input of the search: where it lives, its range of keys, and its seed keys.
pub(super) struct Var {
    /// The bytes it occupies.
    pub slot: Slot,
    /// The least key it may take.
    pub lo: i64,
    /// The greatest.
    pub hi: i64,
    /// Keys to try first.
    pub seeds: Vec<i64>,
}

impl Var {
    /// Its key under `model`.
    pub fn get(&self, model: &Assignment) -> i64 {
        match &self.slot {
            Slot::Float(f) => key(f.format, f.get(model)),
            Slot::Int(i) => i.get(model),
        }
    }

    fn set(&self, model: &mut Assignment, k: i64) {
        match &self.slot {
            Slot::Float(f) => f.set(model, from_key(f.format, k)),
            Slot::Int(i) => i.set(model, k),
        }
    }

    fn format(&self) -> Option<FpFormat> {
        match &self.slot {
            Slot::Float(f) => Some(f.format),
            Slot::Int(_) => None,
        }
    }
}

/// A deterministic generator (splitmix64).
pub(super) struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform float in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform integer in `lo..=hi`.
    fn between(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi as i128 - lo as i128 + 1) as u128;
        (lo as i128 + (self.next() as u128 % span) as i128) as i64
    }
}

/// The search: the model it varies, the conjuncts it evaluates, its inputs and budget.
pub(super) struct Search<'a> {
    /// The assignment the inputs are set in (every other byte as the base model gives it).
    pub model: Assignment,
    /// The conjuncts that read an input's array.
    pub conjuncts: &'a [&'a Expr],
    /// The inputs.
    pub vars: Vec<Var>,
    /// The budget.
    pub meter: Meter,
    /// The generator.
    pub rng: Rng,
}

/// A point of the search: one key per input.
type Point = Vec<i64>;

impl Search<'_> {
    /// Searches for keys of the inputs under which every conjunct holds; on success the
    /// model holds them. None when the budget runs out first.
    pub fn run(&mut self) -> Option<Point> {
        let start: Point = self.vars.iter().map(|v| v.get(&self.model)).collect();
        let mut best: Vec<(f64, Point)> = Vec::new();
        let mut consider = |search: &mut Self, p: Point| -> Option<Option<Point>> {
            let d = search.distance(&p)?;
            if d == 0.0 {
                return Some(Some(p));
            }
            best.push((d, p));
            Some(None)
        };
        if let Some(found) = consider(self, start.clone())? {
            return Some(found);
        }
        // One input at a time from its seeds, the others as the base has them.
        for i in 0..self.vars.len() {
            for s in 0..self.vars[i].seeds.len() {
                let var = &self.vars[i];
                let mut p = start.clone();
                p[i] = var.seeds[s].clamp(var.lo, var.hi);
                if let Some(found) = consider(self, p)? {
                    return Some(found);
                }
            }
        }
        for n in 0..RANDOM_CANDIDATES {
            let p = self.random_point(n % 2 == 0);
            if let Some(found) = consider(self, p)? {
                return Some(found);
            }
        }
        best.sort_by(|a, b| a.0.total_cmp(&b.0));
        best.dedup_by(|a, b| a.1 == b.1);
        for (d, p) in best.into_iter().take(STARTS) {
            if let Some(found) = self.climb(p, d)? {
                return Some(found);
            }
        }
        let mut n = 0;
        loop {
            n += 1;
            let p = self.random_point(n % 2 == 0);
            let d = self.distance(&p)?;
            if d == 0.0 {
                return Some(p);
            }
            if let Some(found) = self.climb(p, d)? {
                return Some(found);
            }
        }
    }

    /// A random point of the inputs' ranges: uniform in keys (`by_key`) or in values.
    fn random_point(&mut self, by_key: bool) -> Point {
        (0..self.vars.len())
            .map(|i| {
                let (lo, hi) = (self.vars[i].lo, self.vars[i].hi);
                let format = match self.vars[i].format() {
                    Some(f) if !by_key => f,
                    _ => return self.rng.between(lo, hi),
                };
                let clip =
                    |k: i64| value(format, from_key(format, k)).clamp(-VALUE_SPAN, VALUE_SPAN);
                let (a, b) = (clip(lo), clip(hi));
                let v = a + (b - a) * self.rng.unit();
                key(format, bits_of(format, v)).clamp(lo, hi)
            })
            .collect()
    }

    /// Pattern search from `p` (at distance `d`): None when out of budget, Some(None) at a
    /// local minimum, Some(Some(point)) at a model.
    fn climb(&mut self, mut p: Point, mut d: f64) -> Option<Option<Point>> {
        // The largest step: the greatest power of two within the range (at most 2^62).
        let top = |v: &Var| {
            let span = (v.hi as i128 - v.lo as i128).max(1) as u128;
            (127 - span.leading_zeros() as i32).min(62)
        };
        let mut exps: Vec<i32> = self.vars.iter().map(top).collect();
        while exps.iter().any(|&e| e >= 0) {
            for i in 0..self.vars.len() {
                if exps[i] < 0 {
                    continue;
                }
                let step = 1i64 << exps[i];
                let mut moved = false;
                for dir in [1i64, -1] {
                    let (lo, hi) = (self.vars[i].lo, self.vars[i].hi);
                    let mut q = p.clone();
                    q[i] = p[i].saturating_add(dir * step).clamp(lo, hi);
                    if q[i] == p[i] {
                        continue;
                    }
                    let dq = self.distance(&q)?;
                    if dq == 0.0 {
                        return Some(Some(q));
                    }
                    if dq < d {
                        (p, d, moved) = (q, dq, true);
                        break;
                    }
                }
                if moved {
                    exps[i] = (exps[i] + 1).min(top(&self.vars[i]));
                } else {
                    exps[i] -= 1;
                }
            }
        }
        Some(None)
    }

    /// Sets the inputs to `p` and returns the conjuncts' summed distance (None when the
    /// budget is spent).
    fn distance(&mut self, p: &Point) -> Option<f64> {
        if self.meter.evaluations == 0 || self.meter.nodes == 0 {
            return None;
        }
        for (var, &k) in self.vars.iter().zip(p) {
            var.set(&mut self.model, k);
        }
        let mut ev = Evaluator::new(&self.model);
        let d: f64 = self
            .conjuncts
            .iter()
            .map(|c| distance(&mut ev, c, true))
            .sum();
        self.meter.evaluations -= 1;
        self.meter.used += 1;
        self.meter.nodes = self
            .meter
            .nodes
            .saturating_sub(ev.evaluated().max(1) as u64);
        Some(d)
    }
}

/// The seed keys of an integer input in `lo..=hi`: `extra` (its values in models), 0, ±1,
/// the ends of the range, its middle, quarters and eighths; clamped into the range, no
/// repeats.
pub(super) fn int_seeds(lo: i64, hi: i64, extra: &[i64]) -> Vec<i64> {
    let mut keys: Vec<i64> = extra.to_vec();
    keys.extend([0, 1, -1, lo, hi, lo.saturating_add(1), hi.saturating_sub(1)]);
    for t in [4, 2, 6, 1, 3, 5, 7] {
        keys.push((lo as i128 + (hi as i128 - lo as i128) * t / 8) as i64);
    }
    let mut out: Vec<i64> = Vec::new();
    for k in keys {
        let k = k.clamp(lo, hi);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// The seed keys of a float input of `format` in `lo..=hi`: `extra` (values of models,
/// constants of the query, in any format, with their neighbours), ±0, ±1, the ends of the
/// range and its midpoints and quarters, in keys and in values; each clamped into the
/// range, no repeats.
pub(super) fn seeds(format: FpFormat, lo: i64, hi: i64, extra: &[(FpFormat, u64)]) -> Vec<i64> {
    let mut keys: Vec<i64> = Vec::new();
    for &(f, bits) in extra {
        if f.is_nan(bits) {
            continue;
        }
        let bits = if f == format {
            bits
        } else {
            bits_of(format, value(f, bits))
        };
        let k = key(format, bits);
        keys.extend([k, k - 1, k + 1]);
    }
    for v in [0.0, -0.0, 1.0, -1.0] {
        keys.push(key(format, bits_of(format, v)));
    }
    let (vlo, vhi) = (
        value(format, from_key(format, lo)),
        value(format, from_key(format, hi)),
    );
    keys.extend([lo, hi, lo.saturating_add(1), hi.saturating_sub(1)]);
    keys.push(((lo as i128 + hi as i128) / 2) as i64);
    if vlo.is_finite() && vhi.is_finite() {
        for t in [0.5, 0.25, 0.75, 0.125, 0.875] {
            keys.push(key(format, bits_of(format, vlo + (vhi - vlo) * t)));
        }
    }
    let mut out: Vec<i64> = Vec::new();
    for k in keys {
        let k = k.clamp(lo, hi).clamp(-inf_key(format), inf_key(format));
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}
