//! `equi-sat(e1, e2, m)` (spec 003 §3.3, Algorithm 2): structural equality of two
//! expressions up to a bijective renaming `m` of their arrays.
//!
//! - Symbolic bases pair with symbolic bases whose objects have the same extent (so the
//!   address spaces the two expressions induce are isomorphic).
//! - Constant arrays compare by contents; update lists compare write by write (store chains
//!   recursively), then by their roots.
//! - Other symbolic arrays (program inputs) pair with arrays of the same kind and size: sear
//!   makes a fresh array for every `klee_make_symbolic` call, where KLEE's array cache gives
//!   two paths the same array, so without this renaming two paths' queries over their own
//!   `i` and `j` could never match. Renaming free arrays bijectively keeps satisfiability.
//!
//! One bijection spans a whole query (its constraints and expression). The check runs on a
//! worklist of expression pairs, each pair once, so it is linear in the size of the DAGs.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::{ArrayKind, ArrayRef, Expr, ExprKind, UpdateList};

use super::hash::{shape, AaHasher};
use crate::address::AddressBindings;

/// The extents of the objects symbolic bases start.
pub trait Extents {
    /// The extent (bytes) of the object or segment `base` starts, if known.
    fn extent(&self, base: &ArrayRef) -> Option<u64>;
}

impl Extents for AddressBindings {
    fn extent(&self, base: &ArrayRef) -> Option<u64> {
        AddressBindings::extent(self, base)
    }
}

impl Extents for FxHashMap<ArrayRef, u64> {
    fn extent(&self, base: &ArrayRef) -> Option<u64> {
        self.get(base).copied()
    }
}

/// A partial bijection between the arrays of two expressions.
#[derive(Clone, Debug, Default)]
pub struct Bijection {
    forward: FxHashMap<ArrayRef, ArrayRef>,
    backward: FxHashMap<ArrayRef, ArrayRef>,
}

impl Bijection {
    /// Adds `a ↦ b`; false if `a` is mapped to another array or `b` is the image of
    /// another array (the thesis's `add-pair`).
    pub fn add_pair(&mut self, a: &ArrayRef, b: &ArrayRef) -> bool {
        match (self.forward.get(a), self.backward.get(b)) {
            (Some(x), _) if x != b => false,
            (_, Some(y)) if y != a => false,
            (Some(_), Some(_)) => true,
            _ => {
                self.forward.insert(a.clone(), b.clone());
                self.backward.insert(b.clone(), a.clone());
                true
            }
        }
    }

    /// The image of `a`.
    pub fn get(&self, a: &ArrayRef) -> Option<&ArrayRef> {
        self.forward.get(a)
    }

    /// True if every array maps to itself.
    pub fn is_identity(&self) -> bool {
        self.forward.iter().all(|(a, b)| a == b)
    }

    /// The pairs, in no particular order.
    pub fn pairs(&self) -> impl Iterator<Item = (&ArrayRef, &ArrayRef)> {
        self.forward.iter()
    }
}

/// Ambiguous commutative pairings tried before a check gives up (a miss, never a wrong hit).
const BRANCH_BUDGET: u32 = 256;

/// What a check has established: the bijection and the pairs already compared.
#[derive(Clone, Default)]
struct Progress {
    bijection: Bijection,
    seen: FxHashSet<(usize, usize)>,
    seen_lists: FxHashSet<(usize, usize)>,
}

/// An equi-satisfiability check between the expressions of two queries, building one
/// bijection.
///
/// Commutative operators (and `Eq`) compare unordered: the expression builder orders their
/// operands by a structural hash that includes array names, so a renaming may swap them.
/// When the hashes cannot tell which operand pairs with which, both pairings are tried
/// (within a budget).
pub struct EquiSat<'a, X: Extents + ?Sized, Y: Extents + ?Sized> {
    hasher: &'a mut AaHasher,
    left: &'a X,
    right: &'a Y,
    progress: Progress,
    branches: u32,
}

impl<'a, X: Extents + ?Sized, Y: Extents + ?Sized> EquiSat<'a, X, Y> {
    /// A check whose left expressions' bases have the extents `left`, the right ones'
    /// `right`.
    pub fn new(hasher: &'a mut AaHasher, left: &'a X, right: &'a Y) -> Self {
        EquiSat {
            hasher,
            left,
            right,
            progress: Progress::default(),
            branches: 0,
        }
    }

    /// The bijection built so far.
    pub fn into_bijection(self) -> Bijection {
        self.progress.bijection
    }

    /// `equi-sat(e1, e2, m)` with the bijection built by earlier calls.
    pub fn check(&mut self, e1: &Expr, e2: &Expr) -> bool {
        self.check_all([(e1.clone(), e2.clone())])
    }

    /// Every pair equi-satisfiable under one bijection (extending the current one).
    pub fn check_all(&mut self, pairs: impl IntoIterator<Item = (Expr, Expr)>) -> bool {
        let work: Vec<(Expr, Expr)> = pairs.into_iter().collect();
        self.run(work)
    }

    fn run(&mut self, mut work: Vec<(Expr, Expr)>) -> bool {
        while let Some((a, b)) = work.pop() {
            if !self.progress.seen.insert((a.ptr_key(), b.ptr_key())) {
                continue;
            }
            let (sa, sb) = (self.hasher.summary(&a), self.hasher.summary(&b));
            if sa.hash != sb.hash || sa.vars != sb.vars {
                return false;
            }
            if a == b && !sa.vars {
                continue;
            }
            if shape(&a) != shape(&b) {
                return false;
            }
            if let (ExprKind::Read { updates: ua, .. }, ExprKind::Read { updates: ub, .. }) =
                (a.kind(), b.kind())
            {
                if !self.lists(ua, ub, &mut work) {
                    return false;
                }
            }
            let (ca, cb) = (a.children(), b.children());
            if ca.len() != cb.len() {
                return false;
            }
            if commutative(&a) {
                let h = |hasher: &mut AaHasher, e: &Expr| hasher.summary(e).hash;
                let (x1, y1, x2, y2) = (&ca[0], &ca[1], &cb[0], &cb[1]);
                let (hx1, hy1) = (h(self.hasher, x1), h(self.hasher, y1));
                let (hx2, hy2) = (h(self.hasher, x2), h(self.hasher, y2));
                let straight = hx1 == hx2 && hy1 == hy2;
                let crossed = hx1 == hy2 && hy1 == hx2;
                let straight_pairs = [(x1.clone(), x2.clone()), (y1.clone(), y2.clone())];
                let crossed_pairs = [(x1.clone(), y2.clone()), (y1.clone(), x2.clone())];
                match (straight, crossed) {
                    (true, false) => work.extend(straight_pairs),
                    (false, true) => work.extend(crossed_pairs),
                    (false, false) => return false,
                    (true, true) => {
                        self.branches += 1;
                        if self.branches > BRANCH_BUDGET {
                            return false;
                        }
                        let saved = self.progress.clone();
                        let mut first = work.clone();
                        first.extend(straight_pairs);
                        if self.run(first) {
                            return true;
                        }
                        self.progress = saved;
                        work.extend(crossed_pairs);
                    }
                }
                continue;
            }
            work.extend(ca.into_iter().zip(cb));
        }
        true
    }

    /// Pairs the roots of two update lists and queues their writes.
    fn lists(&mut self, a: &UpdateList, b: &UpdateList, work: &mut Vec<(Expr, Expr)>) -> bool {
        if a.len() != b.len() || !self.roots(a.root(), b.root()) {
            return false;
        }
        let (mut na, mut nb) = (a.head(), b.head());
        while let (Some(x), Some(y)) = (na, nb) {
            if !self
                .progress
                .seen_lists
                .insert((Arc::as_ptr(x) as usize, Arc::as_ptr(y) as usize))
            {
                break;
            }
            work.push((x.index().clone(), y.index().clone()));
            work.push((x.value().clone(), y.value().clone()));
            na = x.next();
            nb = y.next();
        }
        true
    }

    /// Pairs two root arrays: bases with bases of the same extent, constant arrays by
    /// contents, other symbolic arrays with arrays of the same kind and size.
    fn roots(&mut self, a: &ArrayRef, b: &ArrayRef) -> bool {
        if a.size() != b.size()
            || a.index_width() != b.index_width()
            || a.kind() != b.kind()
            || a.is_unbounded() != b.is_unbounded()
        {
            return false;
        }
        match (a.contents(), b.contents()) {
            (Some(x), Some(y)) => return a == b || x == y,
            (None, None) => {}
            _ => return false,
        }
        if a.kind() == ArrayKind::SymbolicAddress {
            let (x, y) = (self.left.extent(a), self.right.extent(b));
            let same = match (x, y) {
                (Some(x), Some(y)) => x == y,
                // A base without a recorded object only matches itself.
                (None, None) => a == b,
                _ => false,
            };
            if !same {
                return false;
            }
        }
        self.progress.bijection.add_pair(a, b)
    }
}

/// True for nodes whose two operands may be swapped without changing their meaning.
pub(crate) fn commutative(e: &Expr) -> bool {
    match e.kind() {
        ExprKind::Binary { op, .. } => op.is_commutative(),
        ExprKind::Cmp { op, .. } => *op == sear_expr::CmpOp::Eq,
        _ => false,
    }
}
