//! What a conjunct reads (the input bytes the search assigns, the tables that set its
//! budget) and sets of byte values.

use sear_expr::visit::for_each_node;
use sear_expr::{ArrayRef, Expr, ExprKind};

/// The input bytes a conjunct reads at constant indices (array and index; None if it reads
/// a symbolic array otherwise, see [`reads_of`]), and the constant tables it reads at
/// symbolic indices (array id and size).
pub(super) struct Reads {
    /// The input bytes (array, index), sorted; None if unsupported.
    pub(super) bytes: Option<Vec<(ArrayRef, usize)>>,
    /// The constant tables read at symbolic indices (array id, size).
    pub(super) tables: Vec<(u64, u64)>,
}

/// A set of byte values, a bit per value.
#[derive(Clone, Copy, Default)]
pub(super) struct ByteSet([u64; 4]);

impl ByteSet {
    /// Every value.
    pub(super) const ALL: ByteSet = ByteSet([u64::MAX; 4]);

    pub(super) fn insert(&mut self, v: u8) {
        self.0[(v >> 6) as usize] |= 1 << (v & 63);
    }

    pub(super) fn and(self, other: ByteSet) -> ByteSet {
        ByteSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The values, in increasing order.
    pub(super) fn values(&self) -> Vec<u8> {
        (0..=255u8)
            .filter(|&v| self.0[(v >> 6) as usize] & (1 << (v & 63)) != 0)
            .collect()
    }
}

/// What `e` reads: its input bytes (None if it reads a symbolic array at a symbolic index,
/// through a write at one, or an unbounded array, or has a quantifier) and its constant
/// tables read at symbolic indices (not counting mostly-fill buffers,
/// `crate::eager::mostly_fill`).
pub(super) fn reads_of(e: &Expr) -> Reads {
    let mut bytes = Vec::new();
    let mut tables = Vec::new();
    let mut supported = true;
    for_each_node([e], |n| {
        if let ExprKind::Read { updates, index } = n.kind() {
            let root = updates.root();
            if root.is_constant() {
                // A mostly-fill root (an uninitialised or zeroed buffer) is no table: the
                // eager core keeps it native and answers at once, so it sets no floor.
                if !index.is_constant() && !crate::eager::mostly_fill(root) {
                    tables.push((root.id(), root.size()));
                }
                return;
            }
            let constant_writes = updates.iter().all(|u| u.index().is_constant());
            match index.as_constant() {
                Some(i) if constant_writes && !root.is_unbounded() => {
                    if i < root.size() as u128 {
                        bytes.push((root.clone(), i as usize));
                    }
                }
                _ => supported = false,
            }
        }
        if matches!(n.kind(), ExprKind::Forall { .. } | ExprKind::Var(_)) {
            supported = false;
        }
    });
    bytes.sort_by_key(|(a, i)| (a.id(), *i));
    bytes.dedup();
    tables.sort_unstable();
    tables.dedup();
    Reads {
        bytes: supported.then_some(bytes),
        tables,
    }
}
