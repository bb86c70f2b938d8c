//! Address constraints (spec 003 §2.2): symbolic base addresses bound to expressions.
//!
//! A relocatable memory model hands the program a symbolic base β (a read of an 8-byte
//! array of kind [`ArrayKind::SymbolicAddress`]) and binds it, per state, to an expression
//! over hidden concrete addresses and other bases (`β = c`, or `β_i = β_s + o_i` after
//! objects were merged into a segment). The bindings are not part of the path condition:
//! [`crate::Solver`] substitutes them (transitively) into every query before the chain sees
//! it, so the layers and the core see concrete addresses and cost what they cost in the
//! standard model. The standard model binds nothing, and an empty set costs nothing.

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock, Mutex};

use rustc_hash::FxHashMap;
use sear_expr::visit::Rewriter;
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, ExprKind, UpdateList};

/// A set of address constraints `β ↦ e`, cheap to clone (copied on first write).
#[derive(Clone, Debug, Default)]
pub struct AddressBindings {
    map: Arc<BTreeMap<ArrayRef, Expr>>,
    /// The concrete value of every base (its binding evaluated transitively), for
    /// [`AddressBindings::concrete`].
    values: Arc<FxHashMap<ArrayRef, u64>>,
    /// Changes when a base is bound anew (a relocation): sets of the same generation give
    /// every base they both bind the same value.
    generation: u64,
    /// The extent (bytes) of the object or segment each base starts, for address-aware
    /// caching ([`crate::aa`]): renamed bases must have equal extents.
    extents: Arc<FxHashMap<ArrayRef, u64>>,
    /// How many bases are bound relative to other bases (`β_i = β_s + o_i`, after merging).
    relative: usize,
}

/// The source of fresh generations.
static GENERATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Nodes [`AddressBindings::concrete`] visits before giving up.
const CONCRETE_BUDGET: u32 = 512;

impl AddressBindings {
    /// True when nothing is bound.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Binds the base `array` (of kind `SymbolicAddress`) to a 64-bit `value`, replacing an
    /// earlier binding (a relocation). The bindings must stay acyclic.
    pub fn bind(&mut self, array: ArrayRef, value: Expr) {
        debug_assert_eq!(array.kind(), ArrayKind::SymbolicAddress);
        debug_assert_eq!(value.width(), 64);
        let old = Arc::make_mut(&mut self.map).insert(array.clone(), value.clone());
        let rebinding = old.is_some();
        self.relative -= old.is_some_and(|o| !o.is_constant()) as usize;
        self.relative += !value.is_constant() as usize;
        if rebinding {
            self.generation = GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.recompute_values();
        } else if let Some(v) = self.concrete(&value) {
            Arc::make_mut(&mut self.values).insert(array, v as u64);
        }
    }

    /// Records that the base `array` starts an object or segment of `size` bytes.
    pub fn set_extent(&mut self, array: ArrayRef, size: u64) {
        Arc::make_mut(&mut self.extents).insert(array, size);
    }

    /// The extent recorded for the base `array` (see [`AddressBindings::set_extent`]).
    pub fn extent(&self, array: &ArrayRef) -> Option<u64> {
        self.extents.get(array).copied()
    }

    /// Evaluates every binding again (after a base was bound anew: its dependents move).
    fn recompute_values(&mut self) {
        self.values = Arc::new(FxHashMap::default());
        loop {
            let pending: Vec<(ArrayRef, Expr)> = self
                .map
                .iter()
                .filter(|(a, _)| !self.values.contains_key(*a))
                .map(|(a, e)| (a.clone(), e.clone()))
                .collect();
            let mut progress = false;
            for (a, e) in pending {
                if let Some(v) = self.concrete(&e) {
                    Arc::make_mut(&mut self.values).insert(a, v as u64);
                    progress = true;
                }
            }
            if !progress {
                return;
            }
        }
    }

    /// The value of `e` when it depends on nothing but bound bases (a pointer with a symbolic
    /// base, an address computation over such pointers): the cheap check before a query.
    /// `None` when `e` reads anything else (or is too large to evaluate here).
    pub fn concrete(&self, e: &Expr) -> Option<u128> {
        if let Some(c) = e.as_constant() {
            return Some(c);
        }
        if self.values.is_empty() {
            return None;
        }
        let mut budget = CONCRETE_BUDGET;
        self.eval(e, &mut budget)
    }

    fn eval(&self, e: &Expr, budget: &mut u32) -> Option<u128> {
        use sear_expr::fold::{fold_binary, fold_cmp, fold_concat, fold_extract, fold_not};
        *budget = budget.checked_sub(1)?;
        let width = e.width();
        Some(match e.kind() {
            ExprKind::Constant(v) => *v,
            ExprKind::Var(_) | ExprKind::Forall { .. } => return None,
            ExprKind::Read { updates, index } => {
                let value = *self.values.get(updates.root())?;
                let i = index.as_constant()?;
                if !updates.is_empty() || i >= 8 {
                    return None;
                }
                ((value >> (8 * i)) & 0xff) as u128
            }
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } => {
                if self.eval(cond, budget)? == 1 {
                    self.eval(then_expr, budget)?
                } else {
                    self.eval(else_expr, budget)?
                }
            }
            ExprKind::Concat { hi, lo } => {
                fold_concat(self.eval(hi, budget)?, self.eval(lo, budget)?, lo.width())
            }
            ExprKind::Extract { expr, offset } => {
                fold_extract(self.eval(expr, budget)?, *offset, width)
            }
            ExprKind::ZExt(x) => self.eval(x, budget)?,
            ExprKind::SExt(x) => {
                let v = self.eval(x, budget)?;
                let w = x.width();
                if w < 128 && (v >> (w - 1)) & 1 == 1 {
                    (v | (u128::MAX << w)) & sear_expr::bits::mask(width)
                } else {
                    v
                }
            }
            ExprKind::Not(x) => fold_not(self.eval(x, budget)?, width),
            ExprKind::Binary { op, lhs, rhs } => {
                fold_binary(*op, width, self.eval(lhs, budget)?, self.eval(rhs, budget)?)
            }
            ExprKind::Cmp { op, lhs, rhs } => fold_cmp(
                *op,
                lhs.width(),
                self.eval(lhs, budget)?,
                self.eval(rhs, budget)?,
            ) as u128,
            ExprKind::Fp { op, args } => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push((self.eval(a, budget)?, a.width()));
                }
                sear_expr::fp::fold(*op, width, &vals)
            }
        })
    }

    /// True when both sets bind the same bases to the same expressions.
    pub fn same_as(&self, other: &AddressBindings) -> bool {
        Arc::ptr_eq(&self.map, &other.map) || self.map == other.map
    }

    /// The generation of these bindings: the substitution of an expression is the same in
    /// every set of the same generation that binds its bases.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The expression `array` is bound to.
    pub fn get(&self, array: &ArrayRef) -> Option<&Expr> {
        self.map.get(array)
    }

    /// The bound arrays.
    pub fn arrays(&self) -> impl Iterator<Item = &ArrayRef> {
        self.map.keys()
    }

    /// `e` with every bound base replaced by its binding, transitively: a read of byte `i`
    /// of a bound array becomes byte `i` of the (substituted) binding.
    pub fn substitute(&self, e: &Expr) -> Expr {
        if self.is_empty() {
            return e.clone();
        }
        let mut resolved: BTreeMap<ArrayRef, Expr> = BTreeMap::new();
        self.substitute_with(e, &mut resolved, 0, Scope::All)
    }

    /// Every expression of `es` substituted.
    pub fn substitute_all(&self, es: &[Expr]) -> Vec<Expr> {
        let mut resolved: BTreeMap<ArrayRef, Expr> = BTreeMap::new();
        es.iter()
            .map(|e| self.substitute_with(e, &mut resolved, 0, Scope::All))
            .collect()
    }

    /// The address-agnostic form of `e` (spec 003 §3): bases bound relative to other bases
    /// (`β_i = β_s + o_i`) are replaced by their bindings, transitively, so that only bases
    /// bound to hidden concrete addresses remain, each the start of one object or segment
    /// (the address space the expression induces). Without merged objects this is `e`.
    pub fn agnostic(&self, e: &Expr) -> Expr {
        if self.relative == 0 {
            return e.clone();
        }
        let mut resolved: BTreeMap<ArrayRef, Expr> = BTreeMap::new();
        self.substitute_with(e, &mut resolved, 0, Scope::Relative)
    }

    fn resolve(
        &self,
        array: &ArrayRef,
        resolved: &mut BTreeMap<ArrayRef, Expr>,
        depth: usize,
        scope: Scope,
    ) -> Option<Expr> {
        if let Some(v) = resolved.get(array) {
            return Some(v.clone());
        }
        let bound = self.map.get(array)?;
        assert!(depth < 1 << 12, "cyclic address constraints");
        let value = self.substitute_with(bound, resolved, depth + 1, scope);
        resolved.insert(array.clone(), value.clone());
        Some(value)
    }

    fn substitute_with(
        &self,
        e: &Expr,
        resolved: &mut BTreeMap<ArrayRef, Expr>,
        depth: usize,
        scope: Scope,
    ) -> Expr {
        // The bases a read may refer to, resolved first (the rewriter's callback cannot
        // recurse into `self`).
        let bases: Vec<ArrayRef> = sear_expr::visit::collect_arrays([e])
            .into_iter()
            .filter(|a| match (scope, self.map.get(a)) {
                (_, None) => false,
                (Scope::All, Some(_)) => true,
                (Scope::Relative, Some(v)) => !v.is_constant(),
            })
            .collect();
        if bases.is_empty() {
            return e.clone();
        }
        let mut values: BTreeMap<ArrayRef, Expr> = BTreeMap::new();
        for a in bases {
            if let Some(v) = self.resolve(&a, resolved, depth, scope) {
                values.insert(a, v);
            }
        }
        // A base read whole (its 8 bytes, as the program holds the pointer) becomes the
        // binding itself rather than a concatenation of its bytes.
        let whole: FxHashMap<Expr, Expr> = values
            .iter()
            .map(|(a, v)| {
                let read = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 8);
                (read, v.clone())
            })
            .collect();
        Rewriter::new(|original: &Expr, rebuilt: &Expr| {
            if let Some(v) = whole.get(original) {
                return Some(v.clone());
            }
            let ExprKind::Read { updates, index } = rebuilt.kind() else {
                return None;
            };
            if let Some(value) = values.get(updates.root()) {
                let i = index.as_constant()?;
                // Bases are never written: an update list with writes is not a base's.
                if !updates.is_empty() || i >= 8 {
                    return None;
                }
                return Some(Expr::extract(value.clone(), 8 * i as u32, 8));
            }
            if scope == Scope::Relative {
                return None;
            }
            // A memory object's writes of pointers became constant writes: as one constant
            // array, the reads look as they do in the standard model (where the pointers
            // were constant bytes from the start) to the array transformations and cores.
            let ExprKind::Read {
                updates: before, ..
            } = original.kind()
            else {
                return None;
            };
            if before == updates {
                return None;
            }
            let array = materialized(updates)?;
            Some(Expr::read(&UpdateList::new(array), index.clone()))
        })
        .apply(e)
    }
}

/// Which bases a substitution replaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scope {
    /// Every bound base (the solver's view: concrete addresses only).
    All,
    /// Only bases bound relative to other bases (the address-agnostic form).
    Relative,
}

/// Constant arrays made from constant writes over constant roots, by (root, head of the
/// writes): the same list always becomes the same array, so substituted queries stay equal
/// and hit the caches. The list is kept alive with its array, so its head is not reused.
type Materialized = FxHashMap<(ArrayRef, usize), (UpdateList, ArrayRef)>;

static MATERIALIZED: LazyLock<Mutex<Materialized>> = LazyLock::new(Default::default);

/// Entries of [`MATERIALIZED`] before it is cleared.
const MATERIALIZED_LIMIT: usize = 1 << 14;

/// The constant array `updates` stands for, when its root is constant and every write has
/// a constant index and value.
fn materialized(updates: &UpdateList) -> Option<ArrayRef> {
    let root = updates.root();
    let contents = root.contents()?;
    let head = updates.head()?;
    let key = (root.clone(), Arc::as_ptr(head) as usize);
    let mut memo = MATERIALIZED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, array)) = memo.get(&key) {
        return Some(array.clone());
    }
    let mut bytes = contents.to_vec();
    let writes: Vec<(u128, u128)> = updates
        .iter()
        .map(|w| Some((w.index().as_constant()?, w.value().as_constant()?)))
        .collect::<Option<_>>()?;
    // Oldest first, so the newest write of a cell wins.
    for (i, v) in writes.into_iter().rev() {
        if let Some(b) = bytes.get_mut(i as usize) {
            *b = v as u8;
        }
    }
    let array = Array::with_index_width(
        format!("{}_w{}", root.name(), updates.len()),
        root.size(),
        root.index_width(),
        root.kind(),
        Some(Arc::from(bytes.into_boxed_slice())),
    );
    if memo.len() > MATERIALIZED_LIMIT {
        memo.clear();
    }
    memo.insert(key, (updates.clone(), array.clone()));
    Some(array)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(name: &str) -> (ArrayRef, Expr) {
        let a = Array::new(name, 8, ArrayKind::SymbolicAddress, None);
        let e = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), 8);
        (a, e)
    }

    #[test]
    fn bases_become_their_bound_addresses_transitively() {
        // β_s = 0x8000, β_2 = β_s + 256 (an object merged into a segment at offset 256).
        let (seg, seg_e) = base("beta_s");
        let (b2, b2_e) = base("beta_2");
        let mut ac = AddressBindings::default();
        ac.bind(seg, Expr::constant(0x8000, 64));
        ac.bind(b2, Expr::add(seg_e.clone(), Expr::constant(256, 64)));
        let p = Expr::add(b2_e.clone(), Expr::constant(4, 64));
        assert_eq!(ac.substitute(&p).as_constant(), Some(0x8104));
        assert_eq!(ac.concrete(&p), Some(0x8104));
        // Relocating the segment changes only its constraint.
        let mut moved = ac.clone();
        moved.bind(base_array(&seg_e), Expr::constant(0x9000, 64));
        assert_eq!(moved.substitute(&p).as_constant(), Some(0x9104));
        assert_eq!(moved.concrete(&p), Some(0x9104));
        assert_eq!(ac.substitute(&p).as_constant(), Some(0x8104));
        // Expressions without bases are returned as they are.
        let (_, other) = base("unbound");
        assert_eq!(ac.substitute(&other), other);
        assert_eq!(ac.concrete(&Expr::add(other, b2_e)), None);
    }

    #[test]
    fn the_agnostic_form_keeps_only_bases_bound_to_addresses() {
        // β_s = 0x8000 (a segment of 48 bytes), β_2 = β_s + 32 (a member).
        let (seg, seg_e) = base("beta_s");
        let (b2, b2_e) = base("beta_2");
        let mut ac = AddressBindings::default();
        ac.bind(seg.clone(), Expr::constant(0x8000, 64));
        ac.set_extent(seg.clone(), 48);
        let p = Expr::add(b2_e.clone(), Expr::constant(4, 64));
        // Before the merge, β_2 is bound to an address: the form is the expression itself.
        ac.bind(b2.clone(), Expr::constant(0x9000, 64));
        assert_eq!(ac.agnostic(&p), p);
        ac.bind(b2, Expr::add(seg_e.clone(), Expr::constant(32, 64)));
        assert_eq!(
            ac.agnostic(&p),
            Expr::add(seg_e, Expr::constant(36, 64)),
            "β_2 + 4 is β_s + 36"
        );
        assert_eq!(ac.extent(&seg), Some(48));
        assert_eq!(ac.agnostic(&p).width(), 64);
    }

    fn base_array(e: &Expr) -> ArrayRef {
        sear_expr::visit::collect_arrays([e])
            .into_iter()
            .next()
            .unwrap()
    }
}
