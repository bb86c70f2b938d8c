//! The simplifying constructors: the only way to build expressions.
//!
//! Every constructor folds constants and applies a fixed set of local rewrites that keep
//! expressions small and canonical (see [`crate::expr`] for the canonical form). The
//! rewrites are checked by property tests (`tests/simplify_props.rs`): an expression built
//! through these constructors evaluates like the unsimplified operator tree.

use crate::array::UpdateList;
use crate::bits::{mask, neg, sext as sext_bits, signed_min, to_signed, trunc};
use crate::expr::{BinOp, CmpOp, Expr, ExprKind};
use crate::fold::{fold_binary, fold_cmp, fold_concat, fold_extract, fold_not};

// The constructors are associated functions named after the operators they build; they are
// not the `std::ops` traits, which would hide the simplification behind operator syntax.
#[allow(clippy::should_implement_trait)]
impl Expr {
    /// A `width`-bit constant (the value is truncated to the width).
    pub fn constant(value: u128, width: u32) -> Expr {
        assert!(
            (1..=crate::bits::MAX_WIDTH).contains(&width),
            "unsupported width {width}"
        );
        Expr::make(ExprKind::Constant(trunc(value, width)), width)
    }

    /// The boolean constant `b`.
    pub fn bool(b: bool) -> Expr {
        Expr::constant(b as u128, 1)
    }

    /// The boolean `true`.
    pub fn true_() -> Expr {
        Expr::bool(true)
    }

    /// The boolean `false`.
    pub fn false_() -> Expr {
        Expr::bool(false)
    }

    /// A byte read of `updates` at `index`.
    ///
    /// The update list is walked from the newest write: a write at a provably equal index
    /// yields its value, a write at a provably different index is skipped, and the walk stops
    /// at the first write that may alias (the read then starts at that write, so skipped
    /// writes never reach the solver). A read of a constant root at a constant in-bounds
    /// index folds to the byte (counted by [`crate::reads::folds`]). This is dynamic constant
    /// folding; [`Expr::read_unfolded`] is the constructor without it (see [`crate::reads`]).
    pub fn read(updates: &UpdateList, index: Expr) -> Expr {
        assert_eq!(
            index.width(),
            updates.root().index_width(),
            "read index width"
        );
        let mut node = updates.head();
        while let Some(write) = node {
            let same = Expr::eq(index.clone(), write.index().clone());
            if same.is_true() {
                return write.value().clone();
            }
            if !same.is_false() {
                let trimmed = UpdateList::from_parts(updates.root().clone(), Some(write.clone()));
                return Expr::make(
                    ExprKind::Read {
                        updates: trimmed,
                        index,
                    },
                    8,
                );
            }
            node = write.next();
        }
        let root = updates.root();
        if let (Some(contents), Some(i)) = (root.contents(), index.as_constant()) {
            if i < contents.len() as u128 {
                crate::reads::count_fold();
                return Expr::constant(contents[i as usize] as u128, 8);
            }
        }
        Expr::make(
            ExprKind::Read {
                updates: UpdateList::new(root.clone()),
                index,
            },
            8,
        )
    }

    /// If-then-else.
    pub fn select(cond: Expr, then_expr: Expr, else_expr: Expr) -> Expr {
        assert!(cond.is_bool(), "select condition must be boolean");
        assert_eq!(then_expr.width(), else_expr.width(), "select arm widths");
        if let Some(c) = cond.as_constant() {
            return if c == 1 { then_expr } else { else_expr };
        }
        if then_expr == else_expr {
            return then_expr;
        }
        if let ExprKind::Not(inner) = cond.kind() {
            return Expr::select(inner.clone(), else_expr, then_expr);
        }
        if then_expr.is_bool() {
            match (then_expr.as_constant(), else_expr.as_constant()) {
                (Some(1), Some(0)) => return cond,
                (Some(0), Some(1)) => return Expr::not(cond),
                (Some(1), None) => return Expr::or(cond, else_expr),
                (Some(0), None) => return Expr::and(Expr::not(cond), else_expr),
                (None, Some(0)) => return Expr::and(cond, then_expr),
                (None, Some(1)) => return Expr::or(Expr::not(cond), then_expr),
                _ => {}
            }
        }
        // select(c, select(c, a, _), b) = select(c, a, b) and the mirror image.
        if let ExprKind::Select {
            cond: c2,
            then_expr: a,
            ..
        } = then_expr.kind()
        {
            if *c2 == cond {
                return Expr::select(cond, a.clone(), else_expr);
            }
        }
        if let ExprKind::Select {
            cond: c2,
            else_expr: b,
            ..
        } = else_expr.kind()
        {
            if *c2 == cond {
                return Expr::select(cond, then_expr, b.clone());
            }
        }
        let width = then_expr.width();
        Expr::make(
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            },
            width,
        )
    }

    /// `hi` above `lo`.
    pub fn concat(hi: Expr, lo: Expr) -> Expr {
        let width = hi.width() + lo.width();
        assert!(
            width <= crate::bits::MAX_WIDTH,
            "concat wider than 128 bits"
        );
        if let (Some(h), Some(l)) = (hi.as_constant(), lo.as_constant()) {
            return Expr::constant(fold_concat(h, l, lo.width()), width);
        }
        if let Some(lifted) = crate::ite_lift::lift(&hi, &lo, Expr::concat) {
            return lifted;
        }
        if hi.as_constant() == Some(0) {
            return Expr::zext(lo, width);
        }
        if let Some(merged) = Expr::merge_extracts(&hi, &lo) {
            return merged;
        }
        // Right-associate: concat(concat(a, b), c) = concat(a, concat(b, c)).
        if let ExprKind::Concat { hi: a, lo: b } = hi.kind() {
            return Expr::concat(a.clone(), Expr::concat(b.clone(), lo));
        }
        // concat(extract(x, o + w(b), _), concat(b, c)) with b the bits of x below: the
        // extracts merge and c stays below.
        if let ExprKind::Concat { hi: b, lo: c } = lo.kind() {
            if let Some(merged) = Expr::merge_extracts(&hi, b) {
                return Expr::concat(merged, c.clone());
            }
        }
        Expr::make(ExprKind::Concat { hi, lo }, width)
    }

    /// `hi` above `lo` as one extract, when `hi` is bits `o ..` of some `x` and `lo` is
    /// bits `o - w(lo) .. o` of the same `x`: either literally an extract of it, or what
    /// building that extract gives (the builder narrows the low bits of sums and products,
    /// so the low byte of a stored pointer `p + 8·i` is `(p + 8·i)[0..8]` rewritten as an
    /// 8-bit sum; reloading the pointer byte by byte must still give back `p + 8·i`).
    fn merge_extracts(hi: &Expr, lo: &Expr) -> Option<Expr> {
        let ExprKind::Extract { expr: x, offset } = hi.kind() else {
            return None;
        };
        let below = offset.checked_sub(lo.width())?;
        let width = hi.width() + lo.width();
        let adjacent = match lo.kind() {
            ExprKind::Extract {
                expr: x2,
                offset: o2,
            } => x2 == x && *o2 == below,
            // A read or a bound variable is not what the builder makes of an extract of
            // an expression that is not itself a read: not worth building the extract.
            ExprKind::Read { .. } | ExprKind::Var(_) => false,
            _ => Expr::extract(x.clone(), below, lo.width()) == *lo,
        };
        adjacent.then(|| Expr::extract(x.clone(), below, width))
    }

    /// Concatenates a list of expressions, most significant first.
    pub fn concat_all(parts: &[Expr]) -> Expr {
        let mut iter = parts.iter().rev();
        let mut acc = iter.next().expect("concat of nothing").clone();
        for part in iter {
            acc = Expr::concat(part.clone(), acc);
        }
        acc
    }

    /// Bits `offset .. offset + width` of `expr`.
    pub fn extract(expr: Expr, offset: u32, width: u32) -> Expr {
        assert!(
            width >= 1 && offset + width <= expr.width(),
            "extract out of range"
        );
        if offset == 0 && width == expr.width() {
            return expr;
        }
        if let Some(v) = expr.as_constant() {
            return Expr::constant(fold_extract(v, offset, width), width);
        }
        match expr.kind() {
            ExprKind::Extract {
                expr: inner,
                offset: o,
            } => {
                return Expr::extract(inner.clone(), o + offset, width);
            }
            ExprKind::Concat { hi, lo } => {
                let lw = lo.width();
                if offset + width <= lw {
                    return Expr::extract(lo.clone(), offset, width);
                }
                if offset >= lw {
                    return Expr::extract(hi.clone(), offset - lw, width);
                }
                return Expr::concat(
                    Expr::extract(hi.clone(), 0, offset + width - lw),
                    Expr::extract(lo.clone(), offset, lw - offset),
                );
            }
            ExprKind::ZExt(inner) => {
                let iw = inner.width();
                if offset + width <= iw {
                    return Expr::extract(inner.clone(), offset, width);
                }
                if offset >= iw {
                    return Expr::constant(0, width);
                }
                return Expr::zext(Expr::extract(inner.clone(), offset, iw - offset), width);
            }
            ExprKind::SExt(inner) if offset + width <= inner.width() => {
                return Expr::extract(inner.clone(), offset, width);
            }
            ExprKind::Select {
                cond,
                then_expr,
                else_expr,
            } if then_expr.is_constant() && else_expr.is_constant() => {
                return Expr::select(
                    cond.clone(),
                    Expr::extract(then_expr.clone(), offset, width),
                    Expr::extract(else_expr.clone(), offset, width),
                );
            }
            // Pushing an extract down rebuilds the chain below it, so only shallow
            // expressions qualify: deep chains would recurse once per layer (overflowing
            // the stack) and cost time linear in their depth for every extract.
            ExprKind::Binary { op, lhs, rhs }
                if lhs.is_constant() && expr.depth() <= EXTRACT_PUSH_DEPTH =>
            {
                let bitwise = matches!(op, BinOp::And | BinOp::Or | BinOp::Xor);
                let low_arith = offset == 0 && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul);
                if bitwise || low_arith {
                    return Expr::binary(
                        *op,
                        Expr::extract(lhs.clone(), offset, width),
                        Expr::extract(rhs.clone(), offset, width),
                    );
                }
            }
            ExprKind::Not(inner) if expr.depth() <= EXTRACT_PUSH_DEPTH => {
                return Expr::not(Expr::extract(inner.clone(), offset, width));
            }
            _ => {}
        }
        Expr::make(ExprKind::Extract { expr, offset }, width)
    }

    /// The low `width` bits (`width` ≤ the expression's width).
    pub fn trunc(expr: Expr, width: u32) -> Expr {
        Expr::extract(expr, 0, width)
    }

    /// Zero extension to `width` bits (`width` ≥ the expression's width).
    pub fn zext(expr: Expr, width: u32) -> Expr {
        assert!(width >= expr.width(), "zext to a narrower width");
        if width == expr.width() {
            return expr;
        }
        if let Some(v) = expr.as_constant() {
            return Expr::constant(v, width);
        }
        if let ExprKind::ZExt(inner) = expr.kind() {
            return Expr::zext(inner.clone(), width);
        }
        // zext(x[0..w]) back to x's width is x when x's high bits are zero: a product of two
        // bytes stored in a 16-bit field and read back.
        if let ExprKind::Extract { expr: x, offset: 0 } = expr.kind() {
            if x.width() == width && upper_bound(x, 2) <= mask(expr.width()) {
                return x.clone();
            }
        }
        if let Some(tree) = crate::ite_compare::extend(&expr, width, false) {
            return tree;
        }
        if let Some(lifted) = crate::ite_lift::lift_unary(&expr, |e| Expr::zext(e, width)) {
            return lifted;
        }
        Expr::make(ExprKind::ZExt(expr), width)
    }

    /// Sign extension to `width` bits (`width` ≥ the expression's width).
    pub fn sext(expr: Expr, width: u32) -> Expr {
        assert!(width >= expr.width(), "sext to a narrower width");
        if width == expr.width() {
            return expr;
        }
        if let Some(v) = expr.as_constant() {
            return Expr::constant(sext_bits(v, expr.width(), width), width);
        }
        match expr.kind() {
            ExprKind::SExt(inner) => return Expr::sext(inner.clone(), width),
            // A strictly widening zext has a zero sign bit.
            ExprKind::ZExt(inner) => return Expr::zext(inner.clone(), width),
            _ => {}
        }
        if let Some(tree) = crate::ite_compare::extend(&expr, width, true) {
            return tree;
        }
        if let Some(lifted) = crate::ite_lift::lift_unary(&expr, |e| Expr::sext(e, width)) {
            return lifted;
        }
        Expr::make(ExprKind::SExt(expr), width)
    }

    /// Zero-extends or truncates to `width`.
    pub fn zext_or_trunc(expr: Expr, width: u32) -> Expr {
        if width >= expr.width() {
            Expr::zext(expr, width)
        } else {
            Expr::trunc(expr, width)
        }
    }

    /// Sign-extends or truncates to `width`.
    pub fn sext_or_trunc(expr: Expr, width: u32) -> Expr {
        if width >= expr.width() {
            Expr::sext(expr, width)
        } else {
            Expr::trunc(expr, width)
        }
    }

    /// Bitwise negation (logical negation on booleans).
    pub fn not(expr: Expr) -> Expr {
        if let Some(v) = expr.as_constant() {
            return Expr::constant(fold_not(v, expr.width()), expr.width());
        }
        if let ExprKind::Not(inner) = expr.kind() {
            return inner.clone();
        }
        let width = expr.width();
        Expr::make(ExprKind::Not(expr), width)
    }

    /// A binary operator, simplified.
    pub fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
        assert_eq!(lhs.width(), rhs.width(), "operand widths of {op:?}");
        let width = lhs.width();
        if let (Some(a), Some(b)) = (lhs.as_constant(), rhs.as_constant()) {
            return Expr::constant(fold_binary(op, width, a, b), width);
        }
        if let Some(lifted) = crate::ite_lift::lift(&lhs, &rhs, |a, b| Expr::binary(op, a, b)) {
            return lifted;
        }
        if width > 1 && crate::ac::enabled() {
            if crate::ac::is_ac(op) {
                if let Some(normalised) = crate::ac::combine(op, &lhs, &rhs, width) {
                    return normalised;
                }
            } else if op == BinOp::Sub {
                if let Some(difference) = crate::ac::subtract(&lhs, &rhs) {
                    return difference;
                }
            }
        }
        let (lhs, rhs) = if op.is_commutative() && should_swap(&lhs, &rhs) {
            (rhs, lhs)
        } else {
            (lhs, rhs)
        };
        if let Some(simplified) = simplify_binary(op, &lhs, &rhs, width) {
            return simplified;
        }
        Expr::make(ExprKind::Binary { op, lhs, rhs }, width)
    }

    /// A comparison, simplified into canonical form.
    pub fn cmp(op: CmpOp, lhs: Expr, rhs: Expr) -> Expr {
        assert_eq!(lhs.width(), rhs.width(), "operand widths of {op:?}");
        let width = lhs.width();
        if let (Some(a), Some(b)) = (lhs.as_constant(), rhs.as_constant()) {
            return Expr::bool(fold_cmp(op, width, a, b));
        }
        if let Some(formula) = crate::ite_compare::compare(op, &lhs, &rhs) {
            return formula;
        }
        if let Some(lifted) = crate::ite_lift::lift(&lhs, &rhs, |a, b| Expr::cmp(op, a, b)) {
            return lifted;
        }
        let (lhs, rhs) = if op == CmpOp::Eq && should_swap(&lhs, &rhs) {
            (rhs, lhs)
        } else {
            (lhs, rhs)
        };
        if let Some(simplified) = simplify_cmp(op, &lhs, &rhs, width) {
            return simplified;
        }
        Expr::make(ExprKind::Cmp { op, lhs, rhs }, 1)
    }

    /// `a + b`.
    pub fn add(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Add, a, b)
    }
    /// `a - b`.
    pub fn sub(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Sub, a, b)
    }
    /// `a * b`.
    pub fn mul(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Mul, a, b)
    }
    /// Unsigned `a / b`.
    pub fn udiv(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::UDiv, a, b)
    }
    /// Signed `a / b`.
    pub fn sdiv(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::SDiv, a, b)
    }
    /// Unsigned `a % b`.
    pub fn urem(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::URem, a, b)
    }
    /// Signed `a % b`.
    pub fn srem(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::SRem, a, b)
    }
    /// `a & b` (logical and on booleans).
    pub fn and(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::And, a, b)
    }
    /// `a | b` (logical or on booleans).
    pub fn or(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Or, a, b)
    }
    /// `a ^ b`.
    pub fn xor(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Xor, a, b)
    }
    /// `a << b`.
    pub fn shl(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Shl, a, b)
    }
    /// Logical `a >> b`.
    pub fn lshr(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::LShr, a, b)
    }
    /// Arithmetic `a >> b`.
    pub fn ashr(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::AShr, a, b)
    }
    /// `a == b`.
    pub fn eq(a: Expr, b: Expr) -> Expr {
        Expr::cmp(CmpOp::Eq, a, b)
    }
    /// `a != b`, built as `not(a == b)`.
    pub fn ne(a: Expr, b: Expr) -> Expr {
        Expr::not(Expr::eq(a, b))
    }
    /// Unsigned `a < b`.
    pub fn ult(a: Expr, b: Expr) -> Expr {
        Expr::cmp(CmpOp::Ult, a, b)
    }
    /// Unsigned `a <= b`.
    pub fn ule(a: Expr, b: Expr) -> Expr {
        Expr::cmp(CmpOp::Ule, a, b)
    }
    /// Unsigned `a > b`, built as `b < a`.
    pub fn ugt(a: Expr, b: Expr) -> Expr {
        Expr::ult(b, a)
    }
    /// Unsigned `a >= b`, built as `b <= a`.
    pub fn uge(a: Expr, b: Expr) -> Expr {
        Expr::ule(b, a)
    }
    /// Signed `a < b`.
    pub fn slt(a: Expr, b: Expr) -> Expr {
        Expr::cmp(CmpOp::Slt, a, b)
    }
    /// Signed `a <= b`.
    pub fn sle(a: Expr, b: Expr) -> Expr {
        Expr::cmp(CmpOp::Sle, a, b)
    }
    /// Signed `a > b`, built as `b < a`.
    pub fn sgt(a: Expr, b: Expr) -> Expr {
        Expr::slt(b, a)
    }
    /// Signed `a >= b`, built as `b <= a`.
    pub fn sge(a: Expr, b: Expr) -> Expr {
        Expr::sle(b, a)
    }
    /// Boolean implication `a → b`.
    pub fn implies(a: Expr, b: Expr) -> Expr {
        Expr::or(Expr::not(a), b)
    }

    /// The conjunction of booleans (`true` for none).
    pub fn and_all<I: IntoIterator<Item = Expr>>(items: I) -> Expr {
        items.into_iter().fold(Expr::true_(), Expr::and)
    }

    /// The disjunction of booleans (`false` for none).
    pub fn or_all<I: IntoIterator<Item = Expr>>(items: I) -> Expr {
        items.into_iter().fold(Expr::false_(), Expr::or)
    }

    /// A byte read of `updates` at `index` as stock KLEE builds it, without dynamic constant
    /// folding: a provably equal write yields its value and provably different writes are
    /// skipped while looking for one, but the read keeps the whole update list and a constant
    /// root is never folded (the `--no-array-folding` ablation; see [`crate::reads`]).
    pub fn read_unfolded(updates: &UpdateList, index: Expr) -> Expr {
        assert_eq!(
            index.width(),
            updates.root().index_width(),
            "read index width"
        );
        read_unfolded(updates, index)
    }

    /// Reads `bytes` consecutive bytes at `index` as one little-endian value.
    pub fn read_lsb(updates: &UpdateList, index: Expr, bytes: u32) -> Expr {
        crate::reads::ReadPolicy::Fold.read_lsb(updates, index, bytes)
    }
}

/// See [`Expr::read_unfolded`].
fn read_unfolded(updates: &UpdateList, index: Expr) -> Expr {
    for write in updates.iter() {
        let same = Expr::eq(index.clone(), write.index().clone());
        if same.is_true() {
            return write.value().clone();
        }
        if !same.is_false() {
            break;
        }
    }
    Expr::make(
        ExprKind::Read {
            updates: updates.clone(),
            index,
        },
        8,
    )
}

/// The deepest expression an extract is pushed into through `Not` and through binary
/// operators with a constant operand.
const EXTRACT_PUSH_DEPTH: u32 = 64;

/// Canonical operand order: a constant goes left; otherwise order by structural hash.
fn should_swap(lhs: &Expr, rhs: &Expr) -> bool {
    match (lhs.is_constant(), rhs.is_constant()) {
        (false, true) => true,
        (true, _) => false,
        (false, false) => rhs.structural_hash() < lhs.structural_hash(),
    }
}

fn is_not_of(a: &Expr, b: &Expr) -> bool {
    matches!(a.kind(), ExprKind::Not(x) if x == b) || matches!(b.kind(), ExprKind::Not(x) if x == a)
}

/// Rewrites of binary operators; `lhs` is constant only if `rhs` is not.
fn simplify_binary(op: BinOp, lhs: &Expr, rhs: &Expr, width: u32) -> Option<Expr> {
    let c = lhs.as_constant();
    let all_ones = mask(width);
    match op {
        BinOp::Add => {
            if width == 1 {
                return Some(Expr::xor(lhs.clone(), rhs.clone()));
            }
            if c == Some(0) {
                return Some(rhs.clone());
            }
            if let Some(c1) = c {
                // c1 + (c2 + x) = (c1 + c2) + x ; c1 + (c2 - x) = (c1 + c2) - x
                if let ExprKind::Binary {
                    op: inner,
                    lhs: l2,
                    rhs: r2,
                } = rhs.kind()
                {
                    if let Some(c2) = l2.as_constant() {
                        let sum = Expr::constant(c1.wrapping_add(c2), width);
                        match inner {
                            BinOp::Add => return Some(Expr::add(sum, r2.clone())),
                            BinOp::Sub => return Some(Expr::sub(sum, r2.clone())),
                            _ => {}
                        }
                    }
                }
            }
            if lhs == rhs {
                return Some(Expr::shl(lhs.clone(), Expr::constant(1, width)));
            }
            None
        }
        BinOp::Sub => {
            if width == 1 {
                return Some(Expr::xor(lhs.clone(), rhs.clone()));
            }
            if lhs == rhs {
                return Some(Expr::constant(0, width));
            }
            if let Some(c2) = rhs.as_constant() {
                // x - c = (-c) + x
                return Some(Expr::add(
                    Expr::constant(neg(c2, width), width),
                    lhs.clone(),
                ));
            }
            if let Some(c1) = c {
                // c1 - (c2 + x) = (c1 - c2) - x
                if let ExprKind::Binary {
                    op: BinOp::Add,
                    lhs: l2,
                    rhs: r2,
                } = rhs.kind()
                {
                    if let Some(c2) = l2.as_constant() {
                        let diff = Expr::constant(c1.wrapping_sub(c2), width);
                        return Some(Expr::sub(diff, r2.clone()));
                    }
                }
            }
            // (x + y) - y = x and (y + x) - y = x.
            if let ExprKind::Binary {
                op: BinOp::Add,
                lhs: a,
                rhs: b,
            } = lhs.kind()
            {
                if b == rhs {
                    return Some(a.clone());
                }
                if a == rhs {
                    return Some(b.clone());
                }
            }
            None
        }
        BinOp::Mul => {
            if width == 1 {
                return Some(Expr::and(lhs.clone(), rhs.clone()));
            }
            match c {
                Some(0) => return Some(lhs.clone()),
                Some(1) => return Some(rhs.clone()),
                Some(c1) => {
                    if let ExprKind::Binary {
                        op: BinOp::Mul,
                        lhs: l2,
                        rhs: r2,
                    } = rhs.kind()
                    {
                        if let Some(c2) = l2.as_constant() {
                            let prod = Expr::constant(c1.wrapping_mul(c2), width);
                            return Some(Expr::mul(prod, r2.clone()));
                        }
                    }
                }
                None => {}
            }
            None
        }
        BinOp::UDiv | BinOp::SDiv => {
            if rhs.as_constant() == Some(1) {
                return Some(lhs.clone());
            }
            None
        }
        BinOp::URem | BinOp::SRem => {
            if rhs.as_constant() == Some(1) {
                return Some(Expr::constant(0, width));
            }
            None
        }
        BinOp::And => {
            if c == Some(0) {
                return Some(lhs.clone());
            }
            if c == Some(all_ones) {
                return Some(rhs.clone());
            }
            if lhs == rhs {
                return Some(lhs.clone());
            }
            if is_not_of(lhs, rhs) {
                return Some(Expr::constant(0, width));
            }
            if let Some(c1) = c {
                if let ExprKind::Binary {
                    op: BinOp::And,
                    lhs: l2,
                    rhs: r2,
                } = rhs.kind()
                {
                    if let Some(c2) = l2.as_constant() {
                        return Some(Expr::and(Expr::constant(c1 & c2, width), r2.clone()));
                    }
                }
            }
            None
        }
        BinOp::Or => {
            if c == Some(0) {
                return Some(rhs.clone());
            }
            if c == Some(all_ones) {
                return Some(lhs.clone());
            }
            if lhs == rhs {
                return Some(lhs.clone());
            }
            if is_not_of(lhs, rhs) {
                return Some(Expr::constant(all_ones, width));
            }
            if let Some(c1) = c {
                if let ExprKind::Binary {
                    op: BinOp::Or,
                    lhs: l2,
                    rhs: r2,
                } = rhs.kind()
                {
                    if let Some(c2) = l2.as_constant() {
                        return Some(Expr::or(Expr::constant(c1 | c2, width), r2.clone()));
                    }
                }
            }
            None
        }
        BinOp::Xor => {
            if c == Some(0) {
                return Some(rhs.clone());
            }
            if c == Some(all_ones) {
                return Some(Expr::not(rhs.clone()));
            }
            if lhs == rhs {
                return Some(Expr::constant(0, width));
            }
            if let Some(c1) = c {
                if let ExprKind::Binary {
                    op: BinOp::Xor,
                    lhs: l2,
                    rhs: r2,
                } = rhs.kind()
                {
                    if let Some(c2) = l2.as_constant() {
                        return Some(Expr::xor(Expr::constant(c1 ^ c2, width), r2.clone()));
                    }
                }
            }
            None
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            if rhs.as_constant() == Some(0) {
                return Some(lhs.clone());
            }
            if c == Some(0) {
                return Some(lhs.clone());
            }
            if op != BinOp::AShr {
                if let Some(k) = rhs.as_constant() {
                    if k >= width as u128 {
                        return Some(Expr::constant(0, width));
                    }
                }
            }
            None
        }
    }
}

/// Rewrites of comparisons; for `Eq`, a constant operand is on the left.
fn simplify_cmp(op: CmpOp, lhs: &Expr, rhs: &Expr, width: u32) -> Option<Expr> {
    let max = mask(width);
    if lhs == rhs {
        return Some(Expr::bool(matches!(
            op,
            CmpOp::Eq | CmpOp::Ule | CmpOp::Sle
        )));
    }
    match op {
        CmpOp::Eq => {
            let c = lhs.as_constant()?;
            simplify_eq_const(c, rhs, width)
        }
        CmpOp::Ult => {
            if rhs.as_constant() == Some(0) || lhs.as_constant() == Some(max) {
                return Some(Expr::false_());
            }
            if lhs.as_constant() == Some(0) {
                return Some(Expr::ne(lhs.clone(), rhs.clone()));
            }
            if rhs.as_constant() == Some(max) {
                return Some(Expr::ne(lhs.clone(), rhs.clone()));
            }
            if width == 1 {
                return Some(Expr::and(Expr::not(lhs.clone()), rhs.clone()));
            }
            unsigned_vs_extended(op, lhs, rhs)
        }
        CmpOp::Ule => {
            if lhs.as_constant() == Some(0) || rhs.as_constant() == Some(max) {
                return Some(Expr::true_());
            }
            if rhs.as_constant() == Some(0) {
                return Some(Expr::eq(rhs.clone(), lhs.clone()));
            }
            if lhs.as_constant() == Some(max) {
                return Some(Expr::eq(lhs.clone(), rhs.clone()));
            }
            if width == 1 {
                return Some(Expr::or(Expr::not(lhs.clone()), rhs.clone()));
            }
            unsigned_vs_extended(op, lhs, rhs)
        }
        CmpOp::Slt | CmpOp::Sle => {
            let smin = signed_min(width);
            let smax = smin - 1;
            let strict = op == CmpOp::Slt;
            if strict && (rhs.as_constant() == Some(smin) || lhs.as_constant() == Some(smax)) {
                return Some(Expr::false_());
            }
            if !strict && (lhs.as_constant() == Some(smin) || rhs.as_constant() == Some(smax)) {
                return Some(Expr::true_());
            }
            signed_vs_extended(op, lhs, rhs)
        }
    }
}

/// `c == rhs` for a constant `c` and a non-constant `rhs`.
fn simplify_eq_const(c: u128, rhs: &Expr, width: u32) -> Option<Expr> {
    if width == 1 {
        return Some(if c == 1 {
            rhs.clone()
        } else {
            Expr::not(rhs.clone())
        });
    }
    // Peel the invertible layers with a constant operand in a loop: in a chain such as
    // `h = (h + 1) ^ 3` iterated by a program, there is one layer per iteration.
    let (mut c, mut inner) = (c, rhs);
    loop {
        let (next, below) = match inner.kind() {
            ExprKind::Binary { op, lhs: l, rhs: r } => match (op, l.as_constant()) {
                (BinOp::Add, Some(c2)) => (c.wrapping_sub(c2), r),
                (BinOp::Sub, Some(c2)) => (c2.wrapping_sub(c), r),
                (BinOp::Xor, Some(c2)) => (c ^ c2, r),
                _ => break,
            },
            ExprKind::Not(x) => (fold_not(c, width), x),
            _ => break,
        };
        c = trunc(next, width);
        inner = below;
    }
    if inner != rhs {
        return Some(Expr::eq(Expr::constant(c, width), inner.clone()));
    }
    match rhs.kind() {
        // `c == (m & y)` is false when `c` has a bit `m` clears, `c == (m | y)` when `m`
        // has a bit `c` lacks: libc++'s `to_int_type(c) == eof()` is `-1 == (0xff & ..)`.
        ExprKind::Binary {
            op: op @ (BinOp::And | BinOp::Or),
            lhs: l,
            rhs: r,
        } => {
            let m = l.as_constant().or_else(|| r.as_constant())?;
            let impossible = match op {
                BinOp::And => c & !m & mask(width) != 0,
                _ => m & !c & mask(width) != 0,
            };
            impossible.then(Expr::false_)
        }
        ExprKind::ZExt(x) => {
            let xw = x.width();
            Some(if c <= mask(xw) {
                Expr::eq(Expr::constant(c, xw), x.clone())
            } else {
                Expr::false_()
            })
        }
        ExprKind::SExt(x) => {
            let xw = x.width();
            let low = trunc(c, xw);
            Some(if sext_bits(low, xw, width) == c {
                Expr::eq(Expr::constant(low, xw), x.clone())
            } else {
                Expr::false_()
            })
        }
        ExprKind::Concat { hi, lo } => {
            let lw = lo.width();
            let c_lo = trunc(c, lw);
            let c_hi = c >> lw;
            Some(Expr::and(
                Expr::eq(Expr::constant(c_hi, hi.width()), hi.clone()),
                Expr::eq(Expr::constant(c_lo, lw), lo.clone()),
            ))
        }
        ExprKind::Select {
            cond,
            then_expr,
            else_expr,
        } => {
            let (t, e) = (then_expr.as_constant()?, else_expr.as_constant()?);
            Some(match (t == c, e == c) {
                (true, true) => Expr::true_(),
                (true, false) => cond.clone(),
                (false, true) => Expr::not(cond.clone()),
                (false, false) => Expr::false_(),
            })
        }
        _ => None,
    }
}

/// A bound on the unsigned value of `e` read off its top `depth` levels (zero extensions,
/// constants, sums and products that do not wrap, masks); `mask(width)` when none is known.
fn upper_bound(e: &Expr, depth: u32) -> u128 {
    let all = mask(e.width());
    if let Some(c) = e.as_constant() {
        return c;
    }
    if depth == 0 {
        return all;
    }
    match e.kind() {
        ExprKind::ZExt(x) => mask(x.width()),
        ExprKind::Binary { op, lhs, rhs } => {
            let (a, b) = (upper_bound(lhs, depth - 1), upper_bound(rhs, depth - 1));
            let bound = match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::And => Some(a.min(b)),
                _ => None,
            };
            bound.filter(|&v| v <= all).unwrap_or(all)
        }
        _ => all,
    }
}

/// `Ult`/`Ule` where one side is a zero extension and the other a constant.
fn unsigned_vs_extended(op: CmpOp, lhs: &Expr, rhs: &Expr) -> Option<Expr> {
    let strict = op == CmpOp::Ult;
    if let (ExprKind::ZExt(x), Some(c)) = (lhs.kind(), rhs.as_constant()) {
        let xmax = mask(x.width());
        // zext(x) < c  /  zext(x) <= c
        if (strict && c > xmax) || (!strict && c >= xmax) {
            return Some(Expr::true_());
        }
        return Some(Expr::cmp(op, x.clone(), Expr::constant(c, x.width())));
    }
    if let (Some(c), ExprKind::ZExt(x)) = (lhs.as_constant(), rhs.kind()) {
        let xmax = mask(x.width());
        // c < zext(x)  /  c <= zext(x)
        if (strict && c >= xmax) || (!strict && c > xmax) {
            return Some(Expr::false_());
        }
        return Some(Expr::cmp(op, Expr::constant(c, x.width()), x.clone()));
    }
    None
}

/// `Slt`/`Sle` where one side is a sign extension and the other a constant.
fn signed_vs_extended(op: CmpOp, lhs: &Expr, rhs: &Expr) -> Option<Expr> {
    let strict = op == CmpOp::Slt;
    let width = lhs.width();
    if let (ExprKind::SExt(x), Some(c)) = (lhs.kind(), rhs.as_constant()) {
        let xw = x.width();
        let (lo, hi) = (
            to_signed(signed_min(xw), xw),
            to_signed(signed_min(xw) - 1, xw),
        );
        let cv = to_signed(c, width);
        if cv > hi || (!strict && cv == hi) {
            return Some(Expr::true_());
        }
        if cv < lo || (strict && cv == lo) {
            return Some(Expr::false_());
        }
        return Some(Expr::cmp(op, x.clone(), Expr::constant(trunc(c, xw), xw)));
    }
    if let (Some(c), ExprKind::SExt(x)) = (lhs.as_constant(), rhs.kind()) {
        let xw = x.width();
        let (lo, hi) = (
            to_signed(signed_min(xw), xw),
            to_signed(signed_min(xw) - 1, xw),
        );
        let cv = to_signed(c, width);
        if cv < lo || (!strict && cv == lo) {
            return Some(Expr::true_());
        }
        if cv > hi || (strict && cv == hi) {
            return Some(Expr::false_());
        }
        return Some(Expr::cmp(op, Expr::constant(trunc(c, xw), xw), x.clone()));
    }
    None
}
