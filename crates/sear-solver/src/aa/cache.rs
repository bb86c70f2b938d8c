//! The address-aware cache's store (spec 003 §3.3): entries bucketed by the
//! address-agnostic hash of their query, a bucket scanned with [`EquiSat`] in place of
//! syntactic equality, and models translated through the bijection of a hit.

use rustc_hash::FxHashMap;
use sear_expr::visit::collect_arrays;
use sear_expr::{ArrayKind, ArrayRef, Assignment, Expr};

use super::equisat::{Bijection, EquiSat, Extents};
use super::hash::AaHasher;
use crate::sat::SatResult;

/// The cache is cleared beyond this many entries.
pub const AA_CACHE_LIMIT: usize = 100_000;

/// A query in the cache's terms: its address-agnostic constraints in a canonical order
/// (by hash, then as given) and its expression.
#[derive(Clone, Debug)]
pub struct Key {
    constraints: Vec<Expr>,
    expr: Expr,
    hash: u64,
    /// The query reads a symbolic base (it is address-dependent).
    pub bases: bool,
}

/// A cached query and its answer.
struct Entry {
    key: Key,
    /// The extents of the bases the key reads.
    extents: FxHashMap<ArrayRef, u64>,
    /// `None` for UNSAT; for SAT the model of the key's symbolic arrays.
    model: Option<Assignment>,
}

/// An answer found in the cache.
#[derive(Debug)]
pub struct Hit {
    /// The answer; a SAT model is translated to the query's arrays.
    pub result: SatResult,
    /// False when the bijection is the identity (the query was syntactically cached).
    pub renamed: bool,
    /// The bijection from the cached query's arrays to the query's.
    pub bijection: Bijection,
}

/// The address-aware cache.
#[derive(Default)]
pub struct AaCache {
    buckets: FxHashMap<u64, Vec<Entry>>,
    entries: usize,
    hasher: AaHasher,
}

impl AaCache {
    /// An empty cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of cached queries.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The key of the query `constraints ∧ expr` (address-agnostic forms).
    pub fn key<'a>(&mut self, constraints: impl IntoIterator<Item = &'a Expr>, expr: Expr) -> Key {
        let mut hashed: Vec<(u64, Expr)> = Vec::new();
        let mut seen: rustc_hash::FxHashSet<&Expr> = rustc_hash::FxHashSet::default();
        let mut bases = false;
        for c in constraints {
            if c.is_true() || !seen.insert(c) {
                continue;
            }
            let s = self.hasher.summary(c);
            bases |= s.bases;
            hashed.push((s.hash, c.clone()));
        }
        hashed.sort_by_key(|(h, _)| *h);
        let s = self.hasher.summary(&expr);
        bases |= s.bases;
        let mut parts: Vec<u64> = hashed.iter().map(|(h, _)| *h).collect();
        parts.push(s.hash);
        let hash = {
            use std::hash::{Hash, Hasher};
            let mut h = rustc_hash::FxHasher::default();
            parts.hash(&mut h);
            h.finish()
        };
        Key {
            constraints: hashed.into_iter().map(|(_, c)| c).collect(),
            expr,
            hash,
            bases,
        }
    }

    /// The cached answer of a query equi-satisfiable with `key` (whose bases have the
    /// extents `extents`), if any.
    pub fn lookup<X: Extents + ?Sized>(&mut self, key: &Key, extents: &X) -> Option<Hit> {
        let bucket = self.buckets.get(&key.hash)?;
        for entry in bucket {
            if entry.key.constraints.len() != key.constraints.len() {
                continue;
            }
            let mut check = EquiSat::new(&mut self.hasher, &entry.extents, extents);
            let pairs = entry
                .key
                .constraints
                .iter()
                .cloned()
                .zip(key.constraints.iter().cloned())
                .chain([(entry.key.expr.clone(), key.expr.clone())]);
            let same = check.check_all(pairs);
            if !same {
                continue;
            }
            let bijection = check.into_bijection();
            let result = match &entry.model {
                None => SatResult::Unsat,
                Some(model) => SatResult::Sat(translate(model, &bijection)),
            };
            return Some(Hit {
                result,
                renamed: !bijection.is_identity(),
                bijection,
            });
        }
        None
    }

    /// Caches the answer of `key`, whose bases have the extents `extents`.
    pub fn insert<X: Extents + ?Sized>(&mut self, key: Key, extents: &X, result: &SatResult) {
        if self.entries >= AA_CACHE_LIMIT {
            self.buckets.clear();
            self.entries = 0;
        }
        let arrays = collect_arrays(key.constraints.iter().chain([&key.expr]));
        let mut bases = FxHashMap::default();
        let mut model = Assignment::new();
        for a in arrays.iter().filter(|a| !a.is_constant()) {
            if a.kind() == ArrayKind::SymbolicAddress {
                if let Some(x) = extents.extent(a) {
                    bases.insert(a.clone(), x);
                }
            } else if let SatResult::Sat(m) = result {
                let bytes = (0..a.size()).map(|i| m.byte(a, i as u128)).collect();
                model.insert(a.clone(), bytes);
                model.copy_outside_from(m, a);
            }
        }
        let entry = Entry {
            key,
            extents: bases,
            model: result.is_sat().then_some(model),
        };
        self.buckets.entry(entry.key.hash).or_default().push(entry);
        self.entries += 1;
    }
}

/// `model` with every array renamed through `bijection`.
fn translate(model: &Assignment, bijection: &Bijection) -> Assignment {
    let mut out = Assignment::new();
    for (a, bytes) in model.arrays() {
        if let Some(b) = bijection.get(a) {
            out.insert(b.clone(), bytes.to_vec());
            let outside: Vec<(u128, u8)> = model.outside(a).collect();
            for (i, v) in outside {
                out.set_outside(b.clone(), i, v);
            }
        }
    }
    out
}
