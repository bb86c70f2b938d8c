//! Reading a model's symbolic arrays cell by cell, for the cores whose solvers answer with
//! models of native arrays (Z3, Bitwuzla).
//!
//! Every cell of every symbolic array the query mentions is read, except in large arrays
//! of which the query reads few cells: then only the cells the query's reads reach under
//! the model are read, and the others are zero (any value satisfies the query there). A
//! 20 MB symbolic file of which a path reads four bytes costs four evaluations, not one
//! per byte. For unbounded arrays, the bytes read beyond the dense part are added, so that
//! the model evaluates exactly as the solver interpreted it. A query with a quantified
//! clause is read densely (its variable reaches ranges of cells).

use rustc_hash::FxHashMap;
use sear_expr::visit::{collect_reads, collect_symbolic_arrays};
use sear_expr::{ArrayRef, Assignment, Expr, ExprKind};

use crate::query::SolverError;
use crate::sat::SatQuery;

/// Arrays larger than this are read sparsely when the query reads fewer than a quarter of
/// their cells.
pub(crate) const SPARSE_MODEL_MIN: u64 = 256;

/// A solver's model as the extraction sees it.
pub(crate) trait ModelCells {
    /// The model's value of an index term (`None`: the model has none).
    fn index_value(&mut self, index: &Expr) -> Option<u128>;
    /// The model's value of cell `i` of `array`.
    fn cell(&mut self, array: &ArrayRef, i: u128) -> Option<u8>;
}

/// The assignment of the symbolic arrays of `query` in `model`.
pub(crate) fn extract(
    query: &SatQuery,
    model: &mut impl ModelCells,
) -> Result<Assignment, SolverError> {
    let reads = collect_reads(query.conjuncts());
    let mut read_at: FxHashMap<ArrayRef, Vec<Expr>> = FxHashMap::default();
    for read in &reads {
        if let ExprKind::Read { updates, index } = read.kind() {
            read_at
                .entry(updates.root().clone())
                .or_default()
                .push(index.clone());
        }
    }
    // A quantified clause reads ranges of cells through its variable: every cell is read.
    let dense = sear_expr::quant::contains_forall(query.conjuncts());
    let mut assignment = Assignment::new();
    for array in collect_symbolic_arrays(query.conjuncts()) {
        let size = array.size();
        let indices = read_at.get(&array).map_or(&[][..], |v| &v[..]);
        let bytes = if !dense && size > SPARSE_MODEL_MIN && (indices.len() as u64) < size / 4 {
            let mut bytes = vec![0u8; size as usize];
            for index in indices {
                let i = match index.as_constant() {
                    Some(i) => i,
                    None => match model.index_value(index) {
                        Some(i) => i,
                        None => continue,
                    },
                };
                if i < u128::from(size) {
                    bytes[i as usize] = cell(model, &array, i)?;
                }
            }
            bytes
        } else {
            (0..u128::from(size))
                .map(|i| cell(model, &array, i))
                .collect::<Result<Vec<u8>, SolverError>>()?
        };
        assignment.insert(array, bytes);
    }
    for read in &reads {
        let ExprKind::Read { updates, index } = read.kind() else {
            continue;
        };
        let array = updates.root();
        if !array.is_unbounded() || index.is_constant() || sear_expr::quant::contains_var([index]) {
            continue;
        }
        let Some(i) = model.index_value(index) else {
            continue;
        };
        if i < u128::from(array.size()) {
            continue;
        }
        let byte = cell(model, array, i)?;
        assignment.set_outside(array.clone(), i, byte);
    }
    Ok(assignment)
}

/// Cell `i` of `array` in `model`; a failure when the model has no value for it.
fn cell(model: &mut impl ModelCells, array: &ArrayRef, i: u128) -> Result<u8, SolverError> {
    model
        .cell(array, i)
        .ok_or_else(|| SolverError::Failure(format!("no model value for {}[{i}]", array.name())))
}
