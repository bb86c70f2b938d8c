//! Models of the abstraction: reading Z3's model, rebuilding array contents for test inputs,
//! finding the violated axioms of the full family, and encoding axioms for Z3.

use std::collections::BTreeMap;

use sear_expr::visit::collect_symbolic_arrays;
use sear_expr::{ArrayRef, Assignment, Expr};
use z3::ast::{Bool, BV};

use super::abstraction::Abstraction;
use super::axioms::Axiom;
use crate::query::SolverError;

/// The values a Z3 model gives the abstraction's terms and cells.
pub struct Values {
    /// Per read term: (index value, read value).
    pub terms: Vec<(u128, u8)>,
    /// Cell values.
    pub cells: BTreeMap<(ArrayRef, u64), u8>,
}

fn eval(model: &z3::Model, bv: &BV) -> Result<u128, SolverError> {
    let v = model
        .eval(bv, true)
        .ok_or_else(|| SolverError::Failure("CEGAR: model evaluation failed".into()))?;
    if let Some(x) = v.as_u64() {
        return Ok(x as u128);
    }
    // Wider than 64 bits: read the numeral.
    v.to_string()
        .strip_prefix("#x")
        .and_then(|h| u128::from_str_radix(h, 16).ok())
        .or_else(|| {
            v.to_string()
                .strip_prefix("#b")
                .and_then(|b| u128::from_str_radix(b, 2).ok())
        })
        .ok_or_else(|| SolverError::Failure(format!("CEGAR: unreadable model value {v}")))
}

impl Values {
    /// Reads the values from a Z3 model.
    pub fn read(abs: &Abstraction, model: &z3::Model) -> Result<Values, SolverError> {
        let mut terms = Vec::with_capacity(abs.terms.len());
        for t in &abs.terms {
            terms.push((eval(model, &t.index_bv)?, eval(model, &t.var)? as u8));
        }
        let mut cells = BTreeMap::new();
        for (k, bv) in &abs.cells {
            cells.insert(k.clone(), eval(model, bv)? as u8);
        }
        Ok(Values { terms, cells })
    }

    /// Test inputs from the model: each symbolic array of the query gets its cells' values,
    /// then, at offsets no cell covers, the value of a read term landing there; zero
    /// elsewhere.
    pub fn assignment(&self, abs: &Abstraction, conjuncts: &[Expr]) -> Assignment {
        let mut out = Assignment::new();
        for array in collect_symbolic_arrays(conjuncts) {
            let mut bytes = vec![0u8; array.size() as usize];
            let mut set = vec![false; bytes.len()];
            for ((a, j), v) in self
                .cells
                .range((array.clone(), 0)..=(array.clone(), u64::MAX))
            {
                debug_assert!(*a == array);
                bytes[*j as usize] = *v;
                set[*j as usize] = true;
            }
            for (t, (j, v)) in abs.terms.iter().zip(&self.terms) {
                if t.root != array {
                    continue;
                }
                if *j < bytes.len() as u128 {
                    if !set[*j as usize] {
                        bytes[*j as usize] = *v;
                        set[*j as usize] = true;
                    }
                } else if array.is_unbounded() {
                    out.set_outside(array.clone(), *j, *v);
                }
            }
            out.insert(array, bytes);
        }
        out
    }

    /// The axioms of the full family this model violates.
    pub fn violated(&self, abs: &Abstraction) -> Vec<Axiom> {
        let mut out = Vec::new();
        let mut by_cell: BTreeMap<(u64, u128), usize> = BTreeMap::new();
        for (i, (t, &(j, v))) in abs.terms.iter().zip(&self.terms).enumerate() {
            // Beyond an unbounded array's dense part only the pair axioms below constrain
            // the value.
            if t.root.reads_zero_at(j) {
                if v != 0 {
                    out.push(Axiom::Bounds { term: i });
                }
            } else if j < t.root.size() as u128 {
                let expected = match t.root.contents() {
                    Some(bytes) => Some(bytes[j as usize]),
                    None => self.cells.get(&(t.root.clone(), j as u64)).copied(),
                };
                if expected.is_some_and(|e| e != v) {
                    out.push(Axiom::Cell {
                        term: i,
                        j: j as u64,
                    });
                }
            }
            match by_cell.get(&(t.root.id(), j)) {
                Some(&first) => {
                    if self.terms[first].1 != v {
                        out.push(Axiom::Pair { t1: first, t2: i });
                    }
                }
                None => {
                    by_cell.insert((t.root.id(), j), i);
                }
            }
        }
        out
    }
}

/// `(first ≤ t ≤ last) ⇒ r_t = value`: the cell axioms of a run of equal constant cells.
pub fn encode_run(abs: &Abstraction, term: usize, first: u64, last: u64, value: u8) -> Bool {
    let t = &abs.terms[term];
    let w = t.index.width();
    let v = BV::from_u64(value as u64, 8);
    let guard = if first == last {
        t.index_bv.eq(BV::from_u64(first, w))
    } else {
        Bool::and(&[
            &BV::from_u64(first, w).bvule(&t.index_bv),
            &t.index_bv.bvule(BV::from_u64(last, w)),
        ])
    };
    guard.implies(t.var.eq(v))
}

/// The Z3 formula of an axiom.
pub fn encode(abs: &mut Abstraction, ax: &Axiom) -> Bool {
    match *ax {
        Axiom::Cell { term, j } => {
            let t = abs.terms[term].clone();
            let w = t.index.width();
            let value = match t.root.contents() {
                Some(bytes) => BV::from_u64(bytes[j as usize] as u64, 8),
                None => abs.cell(&t.root, j),
            };
            t.index_bv.eq(BV::from_u64(j, w)).implies(t.var.eq(value))
        }
        Axiom::Bounds { term } => {
            let t = &abs.terms[term];
            let w = t.index.width();
            let n = t.root.size();
            let outside = if w < 64 && n >= (1u64 << w) {
                Bool::from_bool(false)
            } else {
                t.index_bv.bvuge(BV::from_u64(n, w))
            };
            outside.implies(t.var.eq(BV::from_u64(0, 8)))
        }
        Axiom::Pair { t1, t2 } => {
            let (a, b) = (&abs.terms[t1], &abs.terms[t2]);
            if a.index.width() != b.index.width() {
                return Bool::from_bool(true);
            }
            a.index_bv.eq(&b.index_bv).implies(a.var.eq(&b.var))
        }
    }
}
