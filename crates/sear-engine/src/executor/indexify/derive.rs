//! Composed lookups. Every symbolic index the tables produce is a function of one source
//! index (a symbolic input, or an opaque index such as δ of a symbolic value): the result
//! of a lookup over `e = F(src)` is recorded as `G∘F` over `src`, one constant array read
//! at `src`'s position. Chains of operators (`fabs(x) + 2.0 > 1.0`) thus stay one read
//! of a small constant array at the input's position, which the value-based array
//! transformation turns into a set of positions, instead of nested reads of large tables.

use std::sync::Arc;

use sear_expr::Expr;
use sear_indexify::encode::{self, Decode, Matrix};
use sear_indexify::{Ty, BOTTOM, NULL};

use super::{out_of_garden, IndexifyState};
use crate::executor::{Exec, Executor};
use crate::state::State;

/// A symbolic index as a function of a source index: at source position `i` it is
/// `map[i]` (the identity when `map` is `None`).
#[derive(Clone, Debug)]
pub(crate) struct Derived {
    /// The source index (an expression of type `ty`).
    pub source: Expr,
    /// The source's type.
    pub ty: Ty,
    /// The index at each source position (⊥ and NULL included).
    pub map: Option<Arc<[u32]>>,
}

impl Derived {
    /// The number of source positions the map covers.
    pub fn len(&self, garden_len: usize) -> usize {
        self.map.as_ref().map_or(garden_len, |m| m.len())
    }

    /// The index at source position `i` (⊥ beyond the map: a position the garden did not
    /// have when the map was made).
    pub fn at(&self, i: usize) -> u32 {
        match &self.map {
            Some(m) => m.get(i).copied().unwrap_or(BOTTOM),
            None => self.ty.base() + i as u32,
        }
    }

    /// The source's position as an `i32` expression.
    pub fn position(&self) -> Expr {
        encode::position(&self.source, self.ty)
    }

    /// An identity for caches: the map's address (0 for the identity).
    pub fn map_id(&self) -> usize {
        self.map
            .as_ref()
            .map_or(0, |m| Arc::as_ptr(m) as *const u32 as usize)
    }
}

/// `e` as a load reads it back after a store: its bytes, concatenated (`layout.rs`).
pub(crate) fn through_memory(e: &Expr) -> Expr {
    let n = e.width().div_ceil(8);
    if !e.width().is_multiple_of(8) || n < 2 {
        return e.clone();
    }
    let parts: Vec<Expr> = (0..n)
        .rev()
        .map(|i| Expr::extract(e.clone(), 8 * i, 8))
        .collect();
    Expr::extract(Expr::concat_all(&parts), 0, e.width())
}

/// True for the out-of-band indices.
pub(crate) fn out_of_band(i: u32) -> bool {
    i == BOTTOM || i == NULL
}

impl IndexifyState {
    /// How `e` (an index of type `ty`) derives from a source.
    pub(super) fn derivation(&mut self, e: &Expr, ty: Ty) -> Derived {
        match self.derived.get(e) {
            Some(d) => d.clone(),
            None => Derived {
                source: e.clone(),
                ty,
                map: None,
            },
        }
    }

    /// Records that `result` is `map` over `source`'s positions (also under the form the
    /// value takes after a store and a load, byte by byte: retyped cells hold indices).
    pub(super) fn record_derived(&mut self, result: &Expr, source: &Derived, map: Vec<u32>) {
        if result.as_constant().is_some() {
            return;
        }
        // equal maps share one allocation, so equal lookups hit the column cache and give
        // equal expressions
        let map: Arc<[u32]> = map.into();
        let map = match self.maps.get(&map) {
            Some(m) => m.clone(),
            None => {
                self.maps.insert(map.clone());
                map
            }
        };
        let d = Derived {
            source: source.source.clone(),
            ty: source.ty,
            map: Some(map),
        };
        let stored = through_memory(result);
        if stored != *result {
            self.derived.insert(stored, d.clone());
        }
        self.derived.insert(result.clone(), d);
    }

    /// The size of `ty`'s garden now.
    pub(super) fn garden_len(&mut self, ty: Ty) -> usize {
        self.tables().garden(ty).map_or(0, |g| g.len())
    }
}

impl Executor<'_> {
    /// Ends (or splits off) the paths on which the source stands at a position in `bad`
    /// (where an argument is ⊥ or NULL): ⊥ has become observable.
    pub(super) fn guard_positions(
        &mut self,
        state: &mut State,
        at: Expr,
        bad: &[bool],
    ) -> Exec<()> {
        if !bad.contains(&true) {
            return Ok(());
        }
        let cells: Vec<u64> = bad.iter().map(|&b| b as u64).collect();
        let col = encode::column("iot_out_of_garden", &cells, Decode::Int(1));
        let cond = encode::read(&col, at, 1);
        let cond = self.sv.opt_condition(state, cond)?;
        if !self
            .sv
            .may_be_true(state, &cond, "indexify: out-of-garden")?
        {
            return Ok(());
        }
        self.ix().stats.out_of_garden += 1;
        if self
            .sv
            .must_be_true(state, &cond, "indexify: out-of-garden")?
        {
            return Err(out_of_garden());
        }
        self.fork_check(state, Expr::not(cond), out_of_garden)?;
        Ok(())
    }
}

impl IndexifyState {
    /// The value matrix of `d`: row `i` holds the `width` bytes of the value at source
    /// position `i` (zeros where it is out of band).
    pub(super) fn derived_matrix(&mut self, t: Ty, d: &Derived, width: u32) -> Matrix {
        if d.map.is_none() {
            return self.matrix(t, width);
        }
        let key = (t, width, d.map_id());
        if let Some(m) = self.composed_matrices.get(&key) {
            return m.clone();
        }
        let rows: Vec<Vec<u8>> = {
            let s = &mut *self;
            let tables = s.tables();
            (0..d.len(0))
                .map(|i| {
                    tables
                        .value(t, d.at(i))
                        .map(|v| v.test_bytes(width as usize))
                        .unwrap_or_default()
                })
                .collect()
        };
        let m = encode::matrix_of_rows(&format!("garden_{t}_{width}_composed"), &rows, width);
        self.composed_matrices.insert(key, m.clone());
        m
    }
}
