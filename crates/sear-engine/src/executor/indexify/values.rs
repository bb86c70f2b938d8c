//! δ and δ⁻¹ of floats, symbolic inputs over the gardens, and value patterns.
//!
//! δ⁻¹ of a symbolic index writes (or returns) the bytes of the garden's value matrix at
//! the index's position; each such write is remembered by its first byte, so δ of those
//! bytes — wherever they were copied — gives the index back without a solver query.

use sear_expr::{Expr, UpdateList};
use sear_indexify::encode::{self, Column, Decode, Matrix};
use sear_indexify::{GValue, Ty, BOTTOM};

use super::{out_of_garden, IndexifyState, Pattern};
use crate::executor::{Exec, Executor};
use crate::memory::Lookup;
use crate::state::{Deindex, State, Symbolic};
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// δ of a symbolic value that is no δ⁻¹ compares it with every garden value up to this
/// many (an `ite` chain); a larger garden concretises the value.
const MAX_CHAIN: usize = 4096;

fn user_error(message: impl Into<String>) -> Termination {
    Termination::error(ErrorKind::User, message)
}

impl IndexifyState {
    /// The value matrix of `t`'s garden with `width` bytes per value.
    pub(super) fn matrix(&mut self, t: Ty, width: u32) -> Matrix {
        let s = &mut *self;
        let len = s.tables().garden(t).map_or(0, |g| g.len());
        if let Some(m) = s.matrices.get(&(t, width, len)) {
            return m.clone();
        }
        let tables = s.tables();
        let garden = tables.garden(t).expect("indexed type");
        let m = encode::matrix(&format!("garden_{t}_{width}"), garden, width);
        drop(tables);
        s.matrices.insert((t, width, len), m.clone());
        m
    }

    /// The bytes of δ⁻¹(e) (`width` of them), remembered as a pattern.
    pub(super) fn value_bytes(&mut self, t: Ty, e: &Expr, width: u32, max_len: u64) -> Vec<Expr> {
        let d = self.derivation(e, t);
        let m = self.derived_matrix(t, &d, width);
        let pos = d.position();
        let bytes: Vec<Expr> = (0..width)
            .map(|j| encode::matrix_byte(&m, &pos, j))
            .collect();
        if let Some(b0) = bytes.first() {
            if b0.as_constant().is_none() {
                self.patterns.insert(
                    b0.clone(),
                    Pattern {
                        index: e.clone(),
                        at: pos,
                        ty: t,
                        matrix: m,
                        width,
                        max_len,
                    },
                );
            }
        }
        bytes
    }

    /// The index whose δ⁻¹ the bytes are (a pattern), if they are one.
    pub(super) fn pattern_index(&mut self, t: Ty, bytes: &[Expr]) -> Option<Expr> {
        let p = self.patterns.get(bytes.first()?)?.clone();
        if p.ty != t || bytes.len() < p.width as usize {
            return None;
        }
        let ok = (0..p.width).all(|j| {
            let b = &bytes[j as usize];
            *b == encode::matrix_byte(&p.matrix, &p.at, j)
                || (u64::from(j) >= p.max_len && b.as_constant() == Some(0))
        });
        ok.then_some(p.index)
    }
}

impl Executor<'_> {
    /// δ of a float value (`__indexify_delta.<ty>`).
    pub(super) fn delta_value(&mut self, state: &mut State, t: Ty, v: &Value) -> Exec<Value> {
        let bytes = t.float_bytes();
        let e = match v {
            Value::Concrete(bits, _) => {
                self.ix().stats.delta_concrete += 1;
                let g = match t {
                    Ty::F32 => GValue::F32(*bits as u32),
                    _ => GValue::F64(*bits as u64),
                };
                let i = self.ix().tables().index(g.canonical());
                return Ok(Value::concrete(i as u128, 32));
            }
            other => other.to_expr(),
        };
        let parts: Vec<Expr> = (0..bytes)
            .map(|j| Expr::extract(e.clone(), 8 * j, 8))
            .collect();
        if let Some(i) = self.ix().pattern_index(t, &parts) {
            self.ix().stats.delta_pattern += 1;
            return Ok(Value::from_expr(i));
        }
        let values: Vec<GValue> = {
            let s = self.ix();
            let tables = s.tables();
            tables
                .garden(t)
                .map(|g| g.values().to_vec())
                .unwrap_or_default()
        };
        if values.len() > MAX_CHAIN {
            let c = self
                .cx()
                .concretize(state, v, "a float entering the index world")?;
            return self.delta_value(state, t, &Value::concrete(c, 8 * bytes));
        }
        self.ix().stats.delta_chain += 1;
        let mut acc = Expr::constant(BOTTOM as u128, 32);
        for (p, g) in values.iter().enumerate().rev() {
            let is = Expr::eq(e.clone(), Expr::constant(g.float_bits() as u128, 8 * bytes));
            acc = Expr::select(is, Expr::constant((t.base() + p as u32) as u128, 32), acc);
        }
        Ok(Value::from_expr(acc))
    }

    /// δ⁻¹ of a float index (`__indexify_undelta.<ty>`).
    pub(super) fn undelta_value(&mut self, state: &mut State, t: Ty, v: &Value) -> Exec<Value> {
        let e = Expr::zext_or_trunc(v.to_expr(), 32);
        let bits = 8 * t.float_bytes();
        if let Some(c) = e.as_constant() {
            let value = self.ix().tables().value(t, c as u32).cloned();
            return match value {
                Some(g) => Ok(Value::concrete(g.float_bits() as u128, bits)),
                None => {
                    self.ix().stats.out_of_garden += 1;
                    Err(out_of_garden())
                }
            };
        }
        self.exclude_bottom(state, &e)?;
        self.ix().stats.undelta_symbolic += 1;
        let bytes = self.ix().value_bytes(t, &e, t.float_bytes(), 0);
        let value = bytes
            .into_iter()
            .rev()
            .reduce(Expr::concat)
            .expect("floats have bytes");
        Ok(Value::from_expr(value))
    }

    /// Ends the paths on which `e` is ⊥ (or NULL, which δ⁻¹ does not take): for an index
    /// derived from a source, where the source stands at a position mapped out of band.
    pub(super) fn exclude_bottom(&mut self, state: &mut State, e: &Expr) -> Exec<()> {
        if self.ix().in_garden.contains(e) {
            return Ok(());
        }
        let d = self.ix().derivation(e, Ty::Str);
        if let Some(map) = &d.map {
            let bad: Vec<bool> = map.iter().map(|&i| super::derive::out_of_band(i)).collect();
            return self.guard_positions(state, d.position(), &bad);
        }
        let bad = Expr::or(
            Expr::eq(e.clone(), Expr::constant(BOTTOM as u128, 32)),
            Expr::eq(e.clone(), Expr::constant(sear_indexify::NULL as u128, 32)),
        );
        if self
            .sv
            .may_be_true(state, &bad, "indexify: out-of-garden")?
        {
            self.ix().stats.out_of_garden += 1;
            if self
                .sv
                .must_be_true(state, &bad, "indexify: out-of-garden")?
            {
                return Err(out_of_garden());
            }
            self.fork_check(state, Expr::not(bad), out_of_garden)?;
        }
        Ok(())
    }
}

impl IndexifyState {
    /// The lengths of the garden's strings, as a column.
    pub(super) fn length_column(&mut self) -> Column {
        let s = &mut *self;
        let len = s.tables().garden(Ty::Str).map_or(0, |g| g.len());
        if let Some(c) = s.lengths.get(&len) {
            return c.clone();
        }
        let cells: Vec<u64> = s
            .tables()
            .garden(Ty::Str)
            .map(|g| {
                g.values()
                    .iter()
                    .map(|v| v.as_str().map_or(0, |b| b.len() as u64))
                    .collect()
            })
            .unwrap_or_default();
        let col = encode::column("garden_str_len", &cells, Decode::Int(64));
        s.lengths.insert(len, col.clone());
        col
    }
}

impl Executor<'_> {
    /// A symbolic input of an indexed type: a fresh index over the constructed garden (the
    /// domain assumption 0 ≤ idx < |G|; for strings, only values that fit the buffer with
    /// their NUL), written as an index into a retyped cell (`as_index`) or as δ⁻¹ into the
    /// object; the test records the value through δ⁻¹.
    pub(super) fn symbolic_index(
        &mut self,
        state: &mut State,
        t: Ty,
        ptr: &Value,
        size: u64,
        name: &str,
        as_index: bool,
    ) -> Exec<()> {
        let address = self
            .cx()
            .concretize(state, ptr, "klee_make_symbolic address")? as u64;
        let entry = match state.memory.lookup(address) {
            Lookup::Live(e) => e.clone(),
            _ => return Err(user_error("klee_make_symbolic: invalid pointer")),
        };
        // a retyped cell holds a 4-byte index in place of the value of `size` bytes
        let object_size = if as_index { 4 } else { size };
        if as_index && size != u64::from(t.float_bytes()) {
            return Err(user_error(format!(
                "wrong size given to klee_make_symbolic: {size} bytes for a {t}"
            )));
        }
        if address != entry.object.address || object_size != entry.object.size {
            return Err(user_error(format!(
                "wrong size given to klee_make_symbolic: {size} bytes at offset {} of a {}-byte object",
                address - entry.object.address,
                entry.object.size
            )));
        }
        if entry.object.read_only {
            return Err(user_error("cannot make a read-only object symbolic"));
        }
        let (constructed, max_len, fits_all) = {
            let s = self.ix();
            let tables = s.tables();
            let g = tables.garden(t).expect("indexed type");
            let n = g.constructed;
            let lens = g.values()[..n]
                .iter()
                .filter_map(|v| v.as_str())
                .map(<[u8]>::len);
            let max = lens.clone().max().unwrap_or(0);
            let fits_all = lens.clone().all(|l| (l as u64) < size);
            let any_fits = t != Ty::Str || lens.clone().any(|l| (l as u64) < size);
            (if any_fits { n } else { 0 }, max, fits_all)
        };
        if constructed == 0 {
            self.ix().stats.out_of_garden += 1;
            return Err(out_of_garden());
        }
        let array = self.input_array(state, name, 4);
        let e = Expr::read_lsb(&UpdateList::new(array.clone()), Expr::constant(0, 32), 4);
        let pos = encode::position(&e, t);
        state.add_constraint(Expr::ult(
            pos.clone(),
            Expr::constant(constructed as u128, 32),
        ));
        if t == Ty::Str && !fits_all {
            let lengths = self.ix().length_column();
            let len = encode::read(&lengths, pos.clone(), 64);
            state.add_constraint(Expr::ult(len, Expr::constant(size as u128, 64)));
        }
        self.ix().in_garden.insert(e.clone());
        let bytes: Vec<Expr> = if as_index {
            (0..4).map(|j| Expr::extract(e.clone(), 8 * j, 8)).collect()
        } else {
            let width = match t {
                Ty::Str => (size as u32).min(max_len as u32 + 1),
                _ => t.float_bytes(),
            };
            if t != Ty::Str && size != width as u64 {
                return Err(user_error(format!(
                    "klee_make_symbolic of a {t} with {size} bytes"
                )));
            }
            let mut b = self.ix().value_bytes(t, &e, width, size.saturating_sub(1));
            b.resize(size as usize, Expr::constant(0, 8));
            b
        };
        let ptr = Value::Concrete(address as u128, 64);
        self.write_bytes(state, &ptr, &bytes)?;
        state.symbolics.push_back(Symbolic {
            object: Some(entry.object.id),
            array,
            name: name.to_string(),
            size: None,
            deindex: Some(Deindex { ty: t, size }),
            guard: None,
        });
        self.ix().stats.symbolic_indices += 1;
        Ok(())
    }
}
