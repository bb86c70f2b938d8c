//! The address-agnostic structural hash (spec 003 §3.3): every symbolic base hashes to one
//! constant, constant arrays hash by their contents, and symbolic arrays by their kind and
//! size (the bijection of [`super::equisat`] may rename them), so equi-satisfiable
//! expressions hash equally.
//!
//! Hashes are memoised per expression and per update node (both are hash-consed), and
//! computed with explicit worklists, so deep expressions and long update lists are safe.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHasher};
use sear_expr::{ArrayKind, ArrayRef, Expr, ExprKind, UpdateList, UpdateNode};

/// What the hash knows about an expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The address-agnostic hash.
    pub hash: u64,
    /// True if the expression reads a non-constant array (a base or a symbolic array):
    /// only then can two identical expressions need a renaming.
    pub vars: bool,
    /// True if the expression reads a symbolic base (an address-dependent expression).
    pub bases: bool,
}

/// The hash every symbolic base gets.
const BASE_HASH: u64 = 0x9e37_79b9_7f4a_7c15;

/// Memo entries kept before the memos are cleared.
const MEMO_LIMIT: usize = 1 << 18;

/// What a node is without its children: two nodes of equal shape whose children are
/// equi-satisfiable (and, for reads, whose update lists are) are equi-satisfiable.
pub(crate) fn shape(e: &Expr) -> (u8, u32, u128) {
    let w = e.width();
    match e.kind() {
        ExprKind::Constant(v) => (0, w, *v),
        ExprKind::Read { .. } => (1, w, 0),
        ExprKind::Select { .. } => (2, w, 0),
        ExprKind::Concat { .. } => (3, w, 0),
        ExprKind::Extract { offset, .. } => (4, w, *offset as u128),
        ExprKind::ZExt(_) => (5, w, 0),
        ExprKind::SExt(_) => (6, w, 0),
        ExprKind::Not(_) => (7, w, 0),
        ExprKind::Binary { op, .. } => (8, w, *op as u128),
        ExprKind::Cmp { op, .. } => (9, w, *op as u128),
        // Quantified clauses (seed 003 Ch. 6): a bound variable by its number; its
        // quantifier by its children (variable, bound, body).
        ExprKind::Var(id) => (10, w, u128::from(*id)),
        ExprKind::Forall { .. } => (11, w, 0),
        // A floating-point node by its operation (a hash of it: the operation has fields).
        ExprKind::Fp { op, .. } => {
            let mut h = FxHasher::default();
            op.hash(&mut h);
            (12, w, u128::from(h.finish()))
        }
    }
}

fn mix(parts: &[u64]) -> u64 {
    let mut h = FxHasher::default();
    parts.hash(&mut h);
    h.finish()
}

/// The memoised address-agnostic hash.
#[derive(Default)]
pub struct AaHasher {
    exprs: FxHashMap<Expr, Summary>,
    /// Per update node (by address, kept alive): the summary of the writes from it down.
    nodes: FxHashMap<usize, (Arc<UpdateNode>, Summary)>,
    arrays: FxHashMap<ArrayRef, u64>,
}

impl AaHasher {
    /// An empty hasher.
    pub fn new() -> Self {
        Self::default()
    }

    /// The summary of `e`.
    pub fn summary(&mut self, e: &Expr) -> Summary {
        if let Some(s) = self.exprs.get(e) {
            return *s;
        }
        if self.exprs.len() > MEMO_LIMIT || self.nodes.len() > MEMO_LIMIT {
            self.exprs.clear();
            self.nodes.clear();
            self.arrays.clear();
        }
        let mut stack: Vec<(Expr, bool)> = vec![(e.clone(), false)];
        while let Some((x, expanded)) = stack.pop() {
            if self.exprs.contains_key(&x) {
                continue;
            }
            if !expanded {
                stack.push((x.clone(), true));
                for c in x.children() {
                    if !self.exprs.contains_key(&c) {
                        stack.push((c, false));
                    }
                }
                if let ExprKind::Read { updates, .. } = x.kind() {
                    for node in self.unknown_nodes(updates) {
                        for c in [node.index(), node.value()] {
                            if !self.exprs.contains_key(c) {
                                stack.push((c.clone(), false));
                            }
                        }
                    }
                }
                continue;
            }
            let (tag, width, extra) = shape(&x);
            let mut parts = vec![tag as u64, width as u64, extra as u64, (extra >> 64) as u64];
            let mut vars = false;
            let mut bases = false;
            let first = parts.len();
            for c in x.children() {
                let s = self.exprs[&c];
                parts.push(s.hash);
                vars |= s.vars;
                bases |= s.bases;
            }
            if super::equisat::commutative(&x) {
                // Operand order is the builder's (by names, too): hash it away.
                parts[first..].sort_unstable();
            }
            if let ExprKind::Read { updates, .. } = x.kind() {
                let s = self.list(updates);
                parts.push(s.hash);
                vars |= s.vars;
                bases |= s.bases;
            }
            let summary = Summary {
                hash: mix(&parts),
                vars,
                bases,
            };
            self.exprs.insert(x, summary);
        }
        self.exprs[e]
    }

    /// The nodes of `updates` whose summaries are not known yet, newest first.
    fn unknown_nodes(&self, updates: &UpdateList) -> Vec<Arc<UpdateNode>> {
        let mut out = Vec::new();
        let mut next = updates.head();
        while let Some(node) = next {
            if self.nodes.contains_key(&(Arc::as_ptr(node) as usize)) {
                break;
            }
            out.push(node.clone());
            next = node.next();
        }
        out
    }

    /// The summary of an update list: its root and its writes (whose expressions must have
    /// summaries already).
    fn list(&mut self, updates: &UpdateList) -> Summary {
        let root = self.root(updates.root());
        let writes = match updates.head() {
            None => Summary {
                hash: 0,
                vars: false,
                bases: false,
            },
            Some(head) => {
                for node in self.unknown_nodes(updates).into_iter().rev() {
                    let below = node.next().map_or(
                        Summary {
                            hash: 0,
                            vars: false,
                            bases: false,
                        },
                        |n| self.nodes[&(Arc::as_ptr(n) as usize)].1,
                    );
                    let (i, v) = (self.exprs[node.index()], self.exprs[node.value()]);
                    let s = Summary {
                        hash: mix(&[i.hash, v.hash, below.hash]),
                        vars: i.vars || v.vars || below.vars,
                        bases: i.bases || v.bases || below.bases,
                    };
                    self.nodes.insert(Arc::as_ptr(&node) as usize, (node, s));
                }
                self.nodes[&(Arc::as_ptr(head) as usize)].1
            }
        };
        Summary {
            hash: mix(&[root.hash, writes.hash, updates.len() as u64]),
            vars: root.vars || writes.vars,
            bases: root.bases || writes.bases,
        }
    }

    /// The summary of a root array: one constant for every base, the contents of a constant
    /// array, the kind and size of a symbolic one.
    fn root(&mut self, a: &ArrayRef) -> Summary {
        let base = a.kind() == ArrayKind::SymbolicAddress;
        let hash = if base {
            BASE_HASH
        } else {
            *self.arrays.entry(a.clone()).or_insert_with(|| {
                let mut h = FxHasher::default();
                (a.size(), a.index_width(), a.is_unbounded()).hash(&mut h);
                match a.contents() {
                    Some(bytes) => bytes.hash(&mut h),
                    None => kind_code(a.kind()).hash(&mut h),
                }
                h.finish()
            })
        };
        Summary {
            hash,
            vars: !a.is_constant(),
            bases: base,
        }
    }
}

/// A number per array kind.
fn kind_code(kind: ArrayKind) -> u8 {
    match kind {
        ArrayKind::SymbolicInput => 1,
        ArrayKind::MemoryObject => 2,
        ArrayKind::SymbolicAddress => 3,
        ArrayKind::Other => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::Array;

    fn base(name: &str) -> Expr {
        let a = Array::new(name, 8, ArrayKind::SymbolicAddress, None);
        Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 8)
    }

    #[test]
    fn bases_hash_alike_and_constant_arrays_by_contents() {
        let mut h = AaHasher::new();
        let bytes = |name: &str, b: u8| {
            Array::new(
                name,
                8,
                ArrayKind::MemoryObject,
                Some(Arc::from(vec![b; 8])),
            )
        };
        let x = Array::new("x", 4, ArrayKind::SymbolicInput, None);
        let i = Expr::read_lsb(&UpdateList::new(x), Expr::constant(0, 32), 4);
        // select(store(a, 1, β2), i) = 0 and select(store(a', 1, β3), i) = 0 (spec 003
        // §3.3), a and a' equal constant arrays.
        let q = |b: &Expr, a: ArrayRef| {
            let list =
                UpdateList::new(a).write(Expr::constant(1, 32), Expr::extract(b.clone(), 0, 8));
            Expr::eq(Expr::read(&list, i.clone()), Expr::constant(0, 8))
        };
        let (b2, b3) = (base("b2"), base("b3"));
        let s2 = h.summary(&q(&b2, bytes("a", 0)));
        let s3 = h.summary(&q(&b3, bytes("a_other", 0)));
        assert_eq!(s2.hash, s3.hash);
        assert!(s2.bases && s2.vars);
        // Other contents hash differently.
        assert_ne!(h.summary(&q(&b2, bytes("c", 1))).hash, s2.hash);
        // An expression without bases says so.
        let s = h.summary(&Expr::ult(i.clone(), Expr::constant(3, 32)));
        assert!(s.vars && !s.bases);
    }
}
