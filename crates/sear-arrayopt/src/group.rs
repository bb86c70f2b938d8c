//! Grouping the reads of one array at one offset.
//!
//! The builder splits `Concat(bytes…) == c` into a conjunction of byte equalities, so a
//! 4-byte element compared with a constant reaches a branch as four byte reads at offsets
//! `b`, `b+1`, `b+2`, `b+3`. Grouping puts every read of the same update list at
//! `b + t` (a chain or a single byte) back together as one element `(list, b, w)`, with
//! `w` the furthest byte read plus one. Because every read is in bounds under the path
//! condition, so is the whole element: `b ≤ size - w`.

use sear_expr::array::UpdateList;
use sear_expr::expr::{BinOp, Expr, ExprKind};

use crate::element::ElementRead;
use crate::scan::element_reads;

/// Constant offsets beyond this are not split off a base.
const MAX_DELTA: u128 = 1 << 20;

/// One read belonging to a group: `node` reads `bytes` bytes at `base + delta`.
#[derive(Clone, Debug)]
pub struct Member {
    /// The read (a byte read or a chain).
    pub node: Expr,
    /// Its offset relative to the group's base.
    pub delta: u64,
    /// Its width in bytes.
    pub bytes: u32,
}

/// The reads of one update list at one base offset.
#[derive(Clone, Debug)]
pub struct Group {
    /// The whole element: the list, the base offset and the width covering every member.
    pub element: ElementRead,
    /// The reads, in order of discovery.
    pub members: Vec<Member>,
}

impl Group {
    /// The smallest depth of a member (inner groups have smaller depths than the reads
    /// whose offsets contain them).
    pub fn min_depth(&self) -> u32 {
        self.members
            .iter()
            .map(|m| m.node.depth())
            .min()
            .unwrap_or(0)
    }
}

/// `(b, t)` with `base = b + t` for a constant `t` that keeps the read inside the array;
/// otherwise `(base, 0)`.
pub fn split_base(base: &Expr, bytes: u32, updates: &UpdateList) -> (Expr, u64) {
    if let ExprKind::Binary {
        op: BinOp::Add,
        lhs,
        rhs,
    } = base.kind()
    {
        if let Some(t) = lhs.as_constant() {
            if !rhs.is_constant()
                && t + bytes as u128 <= (updates.root().size() as u128).min(MAX_DELTA)
            {
                return (rhs.clone(), t as u64);
            }
        }
    }
    (base.clone(), 0)
}

/// The element reads of `root` grouped by (update list, base), in order of discovery.
pub fn grouped_reads(root: &Expr) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (node, er) in element_reads(root) {
        let (base, delta) = split_base(&er.base, er.bytes, &er.updates);
        let member = Member {
            node,
            delta,
            bytes: er.bytes,
        };
        let end = delta as u32 + er.bytes;
        match groups
            .iter_mut()
            .find(|g| g.element.base == base && g.element.updates == er.updates)
        {
            Some(g) => {
                g.element.bytes = g.element.bytes.max(end);
                g.members.push(member);
            }
            None => groups.push(Group {
                element: ElementRead {
                    updates: er.updates,
                    base,
                    bytes: end,
                },
                members: vec![member],
            }),
        }
    }
    groups
}
