//! The solver encoding: a table lookup over symbolic indices is a read of a *constant
//! array* (the slice of the table left once the concrete arguments are fixed) at the
//! symbolic position — the shape the array transformations of seed 000 handle well — and
//! δ⁻¹ of a symbolic index is a read of the garden's value matrix at that position.
//! Cells are narrowed to the fewest bytes that hold every value of the slice.

use std::sync::Arc;

use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};

use crate::garden::Garden;
use crate::tables::{Cell, NO_MATCH};
use crate::value::{Ty, BOTTOM};

/// How the cells of a column decode into the operator's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decode {
    /// Garden positions of `ty` (results are indices `ty.base() + position`); ⊥ is stored
    /// as all-ones.
    Index(Ty),
    /// Signed integers of the given width (pointer offsets use -1 for NULL).
    Int(u32),
}

/// A slice of a table as a constant array.
#[derive(Clone, Debug)]
pub struct Column {
    /// The constant array.
    pub array: ArrayRef,
    /// Bytes per cell.
    pub bytes: u32,
    /// How cells decode.
    pub decode: Decode,
    /// True when some cell is ⊥ (index columns only).
    pub has_bottom: bool,
    /// Number of cells.
    pub len: usize,
}

/// Builds the column of `cells` (a slice of one table) named `name`.
pub fn column(name: &str, cells: &[Cell], decode: Decode) -> Column {
    let (values, has_bottom): (Vec<i128>, bool) = match decode {
        Decode::Index(ty) => {
            let bottom = cells.contains(&(BOTTOM as Cell));
            let v = cells
                .iter()
                .map(|&c| {
                    if c == BOTTOM as Cell {
                        -1
                    } else {
                        (c as u32 - ty.base()) as i128
                    }
                })
                .collect();
            (v, bottom)
        }
        Decode::Int(w) => {
            let v = cells
                .iter()
                .map(|&c| {
                    if c == NO_MATCH {
                        -1
                    } else if w >= 64 {
                        c as i64 as i128
                    } else {
                        let shift = 64 - w;
                        (((c << shift) as i64) >> shift) as i128
                    }
                })
                .collect();
            (v, false)
        }
    };
    let bytes = [1u32, 2, 4, 8]
        .into_iter()
        .find(|&b| {
            let lo = -(1i128 << (8 * b - 1));
            let hi = 1i128 << (8 * b - 1);
            values.iter().all(|&v| {
                if let Decode::Index(_) = decode {
                    // unsigned positions, all-ones reserved for ⊥
                    v == -1 || v < (1i128 << (8 * b)) - 1
                } else {
                    v >= lo && v < hi
                }
            })
        })
        .unwrap_or(8);
    let mut contents = Vec::with_capacity(values.len() * bytes as usize);
    for v in &values {
        contents.extend_from_slice(&(*v as i64).to_le_bytes()[..bytes as usize]);
    }
    let size = contents.len().max(1) as u64;
    if contents.is_empty() {
        contents.push(0);
    }
    Column {
        array: Array::new(name, size, ArrayKind::Other, Some(Arc::from(contents))),
        bytes,
        decode,
        has_bottom,
        len: values.len(),
    }
}

/// The position of an index of `ty` (its offset from the type's base), as an `i32`.
pub fn position(index: &Expr, ty: Ty) -> Expr {
    Expr::sub(
        Expr::zext_or_trunc(index.clone(), 32),
        Expr::constant(ty.base() as u128, 32),
    )
}

/// The cell of `column` at `cell` (a 32-bit cell number), decoded into a value of `width`
/// bits (an index, an integer, or a boolean for width 1).
pub fn read(column: &Column, cell: Expr, width: u32) -> Expr {
    let updates = UpdateList::new(column.array.clone());
    let at = Expr::mul(cell, Expr::constant(column.bytes as u128, 32));
    let raw = Expr::read_lsb(&updates, at, column.bytes);
    match column.decode {
        Decode::Index(ty) => {
            let index = Expr::add(
                Expr::zext(raw.clone(), 32),
                Expr::constant(ty.base() as u128, 32),
            );
            if !column.has_bottom {
                return Expr::zext_or_trunc(index, width);
            }
            let ones = Expr::constant((1u128 << (8 * column.bytes)) - 1, 8 * column.bytes);
            Expr::zext_or_trunc(
                Expr::select(
                    Expr::eq(raw, ones),
                    Expr::constant(BOTTOM as u128, 32),
                    index,
                ),
                width,
            )
        }
        Decode::Int(_) if width == 1 => Expr::ne(raw.clone(), Expr::constant(0, raw.width())),
        Decode::Int(_) => {
            if raw.width() >= width {
                Expr::extract(raw, 0, width)
            } else {
                Expr::sext(raw, width)
            }
        }
    }
}

/// A value matrix: one constant array per byte position, each with one cell per value, so
/// that byte `j` of the value at a symbolic position is one read of a column as long as the
/// garden (not of a `|G| × width` array at `width · position + j`, which the solver's
/// eager encoding of constant arrays expands over every cell of the whole matrix).
pub type Matrix = Arc<[ArrayRef]>;

/// The value matrix of a garden: byte `j` of value `p` (a string's bytes, NUL-padded and
/// cut at `width`; a float's little-endian bits) is cell `p` of column `j`.
pub fn matrix(name: &str, garden: &Garden, width: u32) -> Matrix {
    let rows: Vec<Vec<u8>> = garden
        .values()
        .iter()
        .map(|v| v.test_bytes(width as usize))
        .collect();
    matrix_of_rows(name, &rows, width)
}

/// The value matrix whose row `p` is `rows[p]` (its first `width` bytes, zeros beyond).
pub fn matrix_of_rows(name: &str, rows: &[Vec<u8>], width: u32) -> Matrix {
    (0..width as usize)
        .map(|j| {
            let mut cells: Vec<u8> = rows
                .iter()
                .map(|r| r.get(j).copied().unwrap_or(0))
                .collect();
            if cells.is_empty() {
                cells.push(0);
            }
            Array::new(
                format!("{name}_b{j}"),
                cells.len() as u64,
                ArrayKind::Other,
                Some(Arc::from(cells)),
            )
        })
        .collect()
}

/// Byte `j` of row `position` of a value matrix.
pub fn matrix_byte(m: &Matrix, position: &Expr, j: u32) -> Expr {
    Expr::read(&UpdateList::new(m[j as usize].clone()), position.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::GValue;

    #[test]
    fn columns_narrow_and_decode() {
        let col = column("t", &[0, 3, BOTTOM as Cell, 1], Decode::Index(Ty::Str));
        assert_eq!(col.bytes, 1);
        assert!(col.has_bottom);
        for (i, want) in [0u128, 3, BOTTOM as u128, 1].into_iter().enumerate() {
            let v = read(&col, Expr::constant(i as u128, 32), 32);
            assert_eq!(v.as_constant(), Some(want));
        }
        let ints = column("i", &[(-67i32) as u32 as Cell, 0, 5], Decode::Int(32));
        assert_eq!(ints.bytes, 1);
        let v = read(&ints, Expr::constant(0, 32), 32);
        assert_eq!(v.as_constant(), Some((-67i32) as u32 as u128));
        let offsets = column("o", &[NO_MATCH, 300], Decode::Int(64));
        assert_eq!(offsets.bytes, 2);
        assert_eq!(
            read(&offsets, Expr::constant(0, 32), 64).as_constant(),
            Some(u64::MAX as u128)
        );
        let bools = column("b", &[1, 0], Decode::Int(1));
        assert_eq!(
            read(&bools, Expr::constant(0, 32), 1).as_constant(),
            Some(1)
        );
    }

    #[test]
    fn matrices_hold_values_by_position() {
        let mut g = Garden::new(Ty::Str);
        g.insert(GValue::str(b"ab"));
        g.insert(GValue::str(b"xyz"));
        let m = matrix("m", &g, 3);
        let byte = |p: u128, j| matrix_byte(&m, &Expr::constant(p, 32), j).as_constant();
        assert_eq!(byte(0, 1), Some(b'b' as u128));
        assert_eq!(byte(0, 2), Some(0));
        assert_eq!(byte(1, 2), Some(b'z' as u128));
        // one column per byte, as long as the garden: a symbolic position reads |G| cells
        assert_eq!(m.len(), 3);
        assert!(m.iter().all(|c| c.size() == 2));
    }
}
