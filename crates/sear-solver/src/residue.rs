//! Residues of index terms modulo an array's access size: the congruence facts that make
//! type-based axiom elimination sound for unaligned accesses too (spec 001 §4.4).
//!
//! `residues.residue(t, m)` ([`sear_expr::congruence::Congruences::residue`]) is `Some(r)` only when
//! `t ≡ r (mod m)` follows from the syntax of `t` for every assignment, with `m` a power of
//! two; a term without a residue keeps all of its axioms. The analysis is
//! [`sear_expr::congruence`], shared with the array-read transformations; this module adds
//! the modulus, the access size of an array.

use std::collections::BTreeMap;

use sear_expr::ArrayRef;

/// The access size used for `array`: the largest power of two dividing the granularity the
/// engine reported (1 when it reported none).
pub fn access_size(granularity: &BTreeMap<ArrayRef, u32>, array: &ArrayRef) -> u64 {
    match granularity.get(array) {
        Some(&g) if g > 0 => 1u64 << g.trailing_zeros().min(32),
        _ => 1,
    }
}
