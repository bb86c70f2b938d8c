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
use std::sync::Arc;

use sear_expr::visit::Rewriter;
use sear_expr::{ArrayKind, ArrayRef, Expr, ExprKind};

/// A set of address constraints `β ↦ e`, cheap to clone (copied on first write).
#[derive(Clone, Debug, Default)]
pub struct AddressBindings {
    map: Arc<BTreeMap<ArrayRef, Expr>>,
}

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
        Arc::make_mut(&mut self.map).insert(array, value);
    }

    /// True when both sets bind the same bases to the same expressions.
    pub fn same_as(&self, other: &AddressBindings) -> bool {
        Arc::ptr_eq(&self.map, &other.map) || self.map == other.map
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
        self.substitute_with(e, &mut resolved, 0)
    }

    /// Every expression of `es` substituted.
    pub fn substitute_all(&self, es: &[Expr]) -> Vec<Expr> {
        let mut resolved: BTreeMap<ArrayRef, Expr> = BTreeMap::new();
        es.iter()
            .map(|e| self.substitute_with(e, &mut resolved, 0))
            .collect()
    }

    fn resolve(
        &self,
        array: &ArrayRef,
        resolved: &mut BTreeMap<ArrayRef, Expr>,
        depth: usize,
    ) -> Option<Expr> {
        if let Some(v) = resolved.get(array) {
            return Some(v.clone());
        }
        let bound = self.map.get(array)?;
        assert!(depth < 1 << 12, "cyclic address constraints");
        let value = self.substitute_with(bound, resolved, depth + 1);
        resolved.insert(array.clone(), value.clone());
        Some(value)
    }

    fn substitute_with(
        &self,
        e: &Expr,
        resolved: &mut BTreeMap<ArrayRef, Expr>,
        depth: usize,
    ) -> Expr {
        // The bases a read may refer to, resolved first (the rewriter's callback cannot
        // recurse into `self`).
        let bases: Vec<ArrayRef> = sear_expr::visit::collect_arrays([e])
            .into_iter()
            .filter(|a| self.map.contains_key(a))
            .collect();
        if bases.is_empty() {
            return e.clone();
        }
        let mut values: BTreeMap<ArrayRef, Expr> = BTreeMap::new();
        for a in bases {
            if let Some(v) = self.resolve(&a, resolved, depth) {
                values.insert(a, v);
            }
        }
        Rewriter::new(|_original: &Expr, rebuilt: &Expr| {
            let ExprKind::Read { updates, index } = rebuilt.kind() else {
                return None;
            };
            let value = values.get(updates.root())?;
            let i = index.as_constant()?;
            // Bases are never written: an update list with writes is not a base's.
            if !updates.is_empty() || i >= 8 {
                return None;
            }
            Some(Expr::extract(value.clone(), 8 * i as u32, 8))
        })
        .apply(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, UpdateList};

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
        // Relocating the segment changes only its constraint.
        let mut moved = ac.clone();
        moved.bind(base_array(&seg_e), Expr::constant(0x9000, 64));
        assert_eq!(moved.substitute(&p).as_constant(), Some(0x9104));
        assert_eq!(ac.substitute(&p).as_constant(), Some(0x8104));
        // Expressions without bases are returned as they are.
        let (_, other) = base("unbound");
        assert_eq!(ac.substitute(&other), other);
    }

    fn base_array(e: &Expr) -> ArrayRef {
        sear_expr::visit::collect_arrays([e])
            .into_iter()
            .next()
            .unwrap()
    }
}
