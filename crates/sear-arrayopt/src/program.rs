//! Concrete evaluation of a condition once its index is fixed: the `eval` of Algorithm 2,
//! done by constant folding, never by the solver.
//!
//! A condition is compiled once into a flat list of operations (children before parents);
//! a few of its sub-expressions (the index and what it was computed from) are *inputs*. For
//! each concrete offset the inputs are set and the list is run. Reads of arrays whose
//! contents are known are looked up in their [`Cells`]; touching any symbolic byte means
//! the condition is not a function of the inputs alone, and the transformation does not
//! apply.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use sear_expr::bits::{mask, sext};
use sear_expr::expr::{BinOp, CmpOp, Expr, ExprKind};
use sear_expr::fold::{fold_binary, fold_cmp, fold_concat, fold_extract, fold_not};

use crate::element::{Cells, CellsCache};

/// Programs longer than this are not compiled (the condition is left alone).
const MAX_OPS: usize = 200_000;

enum Op {
    Const(u128),
    Input(usize),
    Read {
        cells: Arc<Cells>,
        index: usize,
    },
    Select {
        c: usize,
        t: usize,
        e: usize,
    },
    Concat {
        hi: usize,
        lo: usize,
        lo_width: u32,
    },
    Extract {
        x: usize,
        offset: u32,
        width: u32,
    },
    ZExt(usize),
    SExt {
        x: usize,
        from: u32,
        to: u32,
    },
    Not {
        x: usize,
        width: u32,
    },
    Binary {
        op: BinOp,
        width: u32,
        a: usize,
        b: usize,
    },
    Cmp {
        op: CmpOp,
        width: u32,
        a: usize,
        b: usize,
    },
}

/// Why one evaluation failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalError {
    /// A symbolic byte was read: the condition depends on more than the inputs.
    Free,
    /// A read beyond the end of its array (impossible under the engine's path condition,
    /// which bounds every symbolic-offset access).
    OutOfBounds,
}

/// A compiled condition.
pub struct Program {
    ops: Vec<Op>,
    inputs: usize,
    root: usize,
}

impl Program {
    /// Compiles `root` with `inputs[i]` as input `i`; `None` when the condition depends on a
    /// symbolic byte at a constant index, on a list with symbolic-index writes, or is too
    /// large.
    pub fn compile(root: &Expr, inputs: &[Expr], cells: &mut CellsCache) -> Option<Program> {
        let mut slot: FxHashMap<Expr, usize> = FxHashMap::default();
        let mut ops: Vec<Op> = Vec::new();
        for (i, e) in inputs.iter().enumerate() {
            if !slot.contains_key(e) {
                slot.insert(e.clone(), ops.len());
                ops.push(Op::Input(i));
            }
        }
        let mut stack: Vec<(Expr, bool)> = vec![(root.clone(), false)];
        while let Some((e, children_done)) = stack.pop() {
            if slot.contains_key(&e) {
                continue;
            }
            if !children_done {
                stack.push((e.clone(), true));
                for child in e.children() {
                    if !slot.contains_key(&child) {
                        stack.push((child, false));
                    }
                }
                continue;
            }
            let at = |x: &Expr| slot[x];
            let op = match e.kind() {
                ExprKind::Constant(v) => Op::Const(*v),
                // Floating-point nodes are not compiled (the query goes on unchanged).
                ExprKind::Var(_) | ExprKind::Forall { .. } | ExprKind::Fp { .. } => return None,
                ExprKind::Read { updates, index } => {
                    let cells = cells.get(updates)?;
                    if cells.symbolic_bytes() == cells.len() {
                        return None;
                    }
                    if let Some(j) = index.as_constant() {
                        // A constant-index symbolic byte is a free variable.
                        if j >= cells.len() as u128 || cells.byte(j as u64).is_none() {
                            return None;
                        }
                    }
                    Op::Read {
                        cells,
                        index: at(index),
                    }
                }
                ExprKind::Select {
                    cond,
                    then_expr,
                    else_expr,
                } => Op::Select {
                    c: at(cond),
                    t: at(then_expr),
                    e: at(else_expr),
                },
                ExprKind::Concat { hi, lo } => Op::Concat {
                    hi: at(hi),
                    lo: at(lo),
                    lo_width: lo.width(),
                },
                ExprKind::Extract { expr, offset } => Op::Extract {
                    x: at(expr),
                    offset: *offset,
                    width: e.width(),
                },
                ExprKind::ZExt(x) => Op::ZExt(at(x)),
                ExprKind::SExt(x) => Op::SExt {
                    x: at(x),
                    from: x.width(),
                    to: e.width(),
                },
                ExprKind::Not(x) => Op::Not {
                    x: at(x),
                    width: e.width(),
                },
                ExprKind::Binary { op, lhs, rhs } => Op::Binary {
                    op: *op,
                    width: e.width(),
                    a: at(lhs),
                    b: at(rhs),
                },
                ExprKind::Cmp { op, lhs, rhs } => Op::Cmp {
                    op: *op,
                    width: lhs.width(),
                    a: at(lhs),
                    b: at(rhs),
                },
            };
            slot.insert(e, ops.len());
            ops.push(op);
            if ops.len() > MAX_OPS {
                return None;
            }
        }
        Some(Program {
            root: slot[root],
            ops,
            inputs: inputs.len(),
        })
    }

    /// The number of operations.
    pub fn op_count(&self) -> usize {
        self.ops.len()
    }

    /// Evaluates with `inputs`; `scratch` is reused between runs.
    pub fn run(&self, inputs: &[u128], scratch: &mut Vec<u128>) -> Result<u128, EvalError> {
        debug_assert_eq!(inputs.len(), self.inputs);
        scratch.clear();
        scratch.reserve(self.ops.len());
        for op in &self.ops {
            let v = match op {
                Op::Const(v) => *v,
                Op::Input(i) => inputs[*i],
                Op::Read { cells, index } => read_cell(cells, scratch[*index])?,
                Op::Select { c, t, e } => {
                    if scratch[*c] == 1 {
                        scratch[*t]
                    } else {
                        scratch[*e]
                    }
                }
                Op::Concat { hi, lo, lo_width } => {
                    fold_concat(scratch[*hi], scratch[*lo], *lo_width)
                }
                Op::Extract { x, offset, width } => fold_extract(scratch[*x], *offset, *width),
                Op::ZExt(x) => scratch[*x],
                Op::SExt { x, from, to } => sext(scratch[*x], *from, *to),
                Op::Not { x, width } => fold_not(scratch[*x], *width),
                Op::Binary { op, width, a, b } => {
                    fold_binary(*op, *width, scratch[*a], scratch[*b])
                }
                Op::Cmp { op, width, a, b } => {
                    fold_cmp(*op, *width, scratch[*a], scratch[*b]) as u128
                }
            };
            scratch.push(v);
        }
        Ok(scratch[self.root])
    }

    /// [`Program::run`] at every value of its one or two 8-bit inputs (the first input
    /// major: `256·a + b`): each value, `None` where `run` fails with
    /// [`EvalError::OutOfBounds`]; `None` overall when it fails with [`EvalError::Free`]
    /// at some value (the first error in operation order decides, as in `run`).
    ///
    /// The evaluation is by columns: each operation is applied to all 256 values of the
    /// last input at once, in a tight loop per operation instead of one interpretive
    /// dispatch per operation and value, and operations that do not depend on the first
    /// input (constants, functions of the last input alone) run once instead of once per
    /// value of the first. When the first input is only compared with constants
    /// ([`Program::classes`]), one row per class of its values is evaluated and stands for
    /// the class.
    pub fn run_over_bytes(&self) -> Option<Vec<Option<u128>>> {
        assert!(self.inputs == 1 || self.inputs == 2, "one or two inputs");
        let n = self.ops.len();
        // Whether each operation depends on the first of two inputs.
        let mut on_first = vec![false; n];
        for k in 0..n {
            on_first[k] = match self.ops[k] {
                Op::Input(i) => self.inputs == 2 && i == 0,
                _ => self.operands(k).any(|o| on_first[o]),
            };
        }
        let mut columns = Columns::new(n);
        let mut first = 0u128;
        // Operations independent of the first input, once.
        for k in (0..n).filter(|&k| !on_first[k]) {
            self.eval_column(k, first, &mut columns);
        }
        let base_errors = columns.errors;
        let mut out = Vec::with_capacity(1 << (8 * self.inputs));
        // Each row to evaluate: a value of the first input, and how many values (from it
        // on) share its row.
        let rows: Vec<(u128, usize)> = match self.inputs {
            2 => self
                .classes(0)
                .unwrap_or_else(|| (0..256).map(|a| (a, 1)).collect()),
            _ => vec![(0, 1)],
        };
        let mut row = Vec::with_capacity(LANES);
        for (a, count) in rows {
            first = a;
            columns.errors = base_errors;
            for k in (0..n).filter(|&k| on_first[k]) {
                self.eval_column(k, first, &mut columns);
            }
            let root = columns.column(self.root);
            row.clear();
            for (&value, error) in root.iter().zip(&columns.errors) {
                row.push(match error {
                    Some((_, EvalError::Free)) => return None,
                    Some((_, EvalError::OutOfBounds)) => None,
                    None => Some(value),
                });
            }
            for _ in 0..count {
                out.extend_from_slice(&row);
            }
        }
        Some(out)
    }

    /// The values of 8-bit input `input` in classes on which the program cannot tell its
    /// values apart, each as (first value, size), in order; `None` unless there are fewer
    /// than 256 classes.
    ///
    /// That is the case when the input's value only reaches comparisons with constants,
    /// possibly through extensions and as a branch of if-then-else (`(= #x6c (ite p #x00
    /// b))`): every other operation then computes the same value for all values of a
    /// class, and a comparison with `c` changes its outcome only where the byte crosses
    /// `c` or `c + 1` (modulo 256) or the sign boundary 128, so the classes are the runs
    /// between those points. Any other use (arithmetic, an array index, a condition, the
    /// result itself) and the answer is `None`.
    pub fn classes(&self, input: usize) -> Option<Vec<(u128, usize)>> {
        let n = self.ops.len();
        // Operations whose value is the input's (extended) or, as an if-then-else branch,
        // may be.
        let mut carries = vec![false; n];
        let mut cuts = [false; 257];
        cuts[0] = true;
        cuts[256] = true;
        for k in 0..n {
            match &self.ops[k] {
                Op::Input(i) => carries[k] = *i == input,
                Op::ZExt(x) | Op::SExt { x, .. } => carries[k] = carries[*x],
                Op::Select { c, t, e } => {
                    if carries[*c] {
                        return None;
                    }
                    carries[k] = carries[*t] || carries[*e];
                }
                Op::Cmp { a, b, .. } => {
                    let constant = match (carries[*a], carries[*b]) {
                        (false, false) => continue,
                        (true, false) => *b,
                        (false, true) => *a,
                        (true, true) => return None,
                    };
                    let Op::Const(c) = self.ops[constant] else {
                        return None;
                    };
                    for cut in [c & 0xff, c.wrapping_add(1) & 0xff, 128] {
                        cuts[cut as usize] = true;
                    }
                }
                _ => {
                    if self.operands(k).any(|o| carries[o]) {
                        return None;
                    }
                }
            }
        }
        if carries[self.root] {
            return None;
        }
        let starts: Vec<usize> = (0..=256).filter(|&v| cuts[v]).collect();
        (starts.len() < 257).then(|| {
            starts
                .windows(2)
                .map(|w| (w[0] as u128, w[1] - w[0]))
                .collect()
        })
    }

    /// Operation `k` over all lanes (the last input's values); `first` is the first of two
    /// inputs. A lane's error is kept when it comes from an earlier operation.
    fn eval_column(&self, k: usize, first: u128, columns: &mut Columns) {
        let (before, rest) = columns.values.split_at_mut(k * LANES);
        let out = &mut rest[..LANES];
        let col = |i: usize| -> &[u128] { &before[i * LANES..][..LANES] };
        match &self.ops[k] {
            Op::Const(v) => out.fill(*v),
            Op::Input(i) if self.inputs == 2 && *i == 0 => out.fill(first),
            Op::Input(_) => {
                for (b, slot) in out.iter_mut().enumerate() {
                    *slot = b as u128;
                }
            }
            Op::Read { cells, index } => {
                for (b, (slot, &j)) in out.iter_mut().zip(col(*index)).enumerate() {
                    match read_cell(cells, j) {
                        Ok(v) => *slot = v,
                        Err(e) => {
                            *slot = 0;
                            let error = &mut columns.errors[b];
                            if error.is_none_or(|(at, _)| at > k) {
                                *error = Some((k, e));
                            }
                        }
                    }
                }
            }
            Op::Select { c, t, e } => {
                let (c, t, e) = (col(*c), col(*t), col(*e));
                for (((slot, &c), &t), &e) in out.iter_mut().zip(c).zip(t).zip(e) {
                    *slot = if c == 1 { t } else { e };
                }
            }
            Op::Concat { hi, lo, lo_width } => {
                lanes(out, col(*hi), col(*lo), |h, l| fold_concat(h, l, *lo_width));
            }
            Op::Extract { x, offset, width } => {
                for (slot, &v) in out.iter_mut().zip(col(*x)) {
                    *slot = fold_extract(v, *offset, *width);
                }
            }
            Op::ZExt(x) => out.copy_from_slice(col(*x)),
            Op::SExt { x, from, to } => {
                for (slot, &v) in out.iter_mut().zip(col(*x)) {
                    *slot = sext(v, *from, *to);
                }
            }
            Op::Not { x, width } => {
                for (slot, &v) in out.iter_mut().zip(col(*x)) {
                    *slot = fold_not(v, *width);
                }
            }
            Op::Binary { op, width, a, b } => {
                let (x, y, w) = (col(*a), col(*b), *width);
                // The common operators in their own loops (the folding function is a match
                // per call); the rest through it.
                let m = mask(w);
                match op {
                    BinOp::Add => lanes(out, x, y, |p, q| p.wrapping_add(q) & m),
                    BinOp::Sub => lanes(out, x, y, |p, q| p.wrapping_sub(q) & m),
                    BinOp::Mul => lanes(out, x, y, |p, q| p.wrapping_mul(q) & m),
                    BinOp::And => lanes(out, x, y, |p, q| p & q),
                    BinOp::Or => lanes(out, x, y, |p, q| p | q),
                    BinOp::Xor => lanes(out, x, y, |p, q| p ^ q),
                    _ => lanes(out, x, y, |p, q| fold_binary(*op, w, p, q)),
                }
            }
            Op::Cmp { op, width, a, b } => {
                let (x, y, w) = (col(*a), col(*b), *width);
                match op {
                    CmpOp::Eq => lanes(out, x, y, |p, q| u128::from(p == q)),
                    CmpOp::Ult => lanes(out, x, y, |p, q| u128::from(p < q)),
                    CmpOp::Ule => lanes(out, x, y, |p, q| u128::from(p <= q)),
                    _ => lanes(out, x, y, |p, q| u128::from(fold_cmp(*op, w, p, q))),
                }
            }
        }
    }

    /// The operations operation `k` reads.
    fn operands(&self, k: usize) -> impl Iterator<Item = usize> {
        let (a, b, c) = match &self.ops[k] {
            Op::Const(_) | Op::Input(_) => (None, None, None),
            Op::Read { index, .. } => (Some(*index), None, None),
            Op::Select { c, t, e } => (Some(*c), Some(*t), Some(*e)),
            Op::Concat { hi, lo, .. } => (Some(*hi), Some(*lo), None),
            Op::Extract { x, .. } | Op::ZExt(x) | Op::SExt { x, .. } | Op::Not { x, .. } => {
                (Some(*x), None, None)
            }
            Op::Binary { a, b, .. } | Op::Cmp { a, b, .. } => (Some(*a), Some(*b), None),
        };
        [a, b, c].into_iter().flatten()
    }
}

/// The values of the last (8-bit) input that [`Program::run_over_bytes`] evaluates at once.
const LANES: usize = 256;

/// Per operation, its values at every lane; per lane, the first error (operation index and
/// kind).
struct Columns {
    values: Vec<u128>,
    errors: [Option<(usize, EvalError)>; LANES],
}

impl Columns {
    fn new(ops: usize) -> Self {
        Columns {
            values: vec![0; ops * LANES],
            errors: [None; LANES],
        }
    }

    fn column(&self, k: usize) -> &[u128] {
        &self.values[k * LANES..][..LANES]
    }
}

/// `out[i] = f(x[i], y[i])` for every lane.
#[inline(always)]
fn lanes(out: &mut [u128], x: &[u128], y: &[u128], f: impl Fn(u128, u128) -> u128) {
    for ((slot, &p), &q) in out.iter_mut().zip(x).zip(y) {
        *slot = f(p, q);
    }
}

/// The byte at `j` of `cells`: out of bounds past the end, free where it is symbolic.
fn read_cell(cells: &Cells, j: u128) -> Result<u128, EvalError> {
    if j >= cells.len() as u128 {
        return Err(EvalError::OutOfBounds);
    }
    cells.byte(j as u64).map(u128::from).ok_or(EvalError::Free)
}

/// One step from an expression to the operand it was computed from, undone per offset.
enum Step {
    ZExt {
        from: u32,
    },
    SExt {
        from: u32,
        to: u32,
    },
    AddConst {
        c: u128,
        width: u32,
    },
    /// Multiplication that provably does not wrap: the value must be a multiple.
    MulNoWrap {
        c: u128,
    },
    /// Multiplication by an odd constant: invertible modulo 2^width.
    MulOdd {
        inverse: u128,
        width: u32,
    },
}

/// The index and the expressions it is an invertible function of: fixing the index to an
/// offset fixes all of them (e.g. `4·zext(k)` = 8 fixes `zext(k)` = 2 and `k` = 2).
pub struct Inversion {
    nodes: Vec<Expr>,
    steps: Vec<Step>,
}

impl Inversion {
    /// The chain starting at `base`.
    pub fn of(base: &Expr) -> Inversion {
        let mut nodes = vec![base.clone()];
        let mut steps = Vec::new();
        let mut cur = base.clone();
        loop {
            let w = cur.width();
            let next = match cur.kind() {
                ExprKind::ZExt(y) => Some((y.clone(), Step::ZExt { from: y.width() })),
                ExprKind::SExt(y) => Some((
                    y.clone(),
                    Step::SExt {
                        from: y.width(),
                        to: w,
                    },
                )),
                ExprKind::Binary {
                    op: BinOp::Add,
                    lhs,
                    rhs,
                } => lhs
                    .as_constant()
                    .map(|c| (rhs.clone(), Step::AddConst { c, width: w })),
                ExprKind::Binary {
                    op: BinOp::Mul,
                    lhs,
                    rhs,
                } => match lhs.as_constant() {
                    Some(c) if c % 2 == 1 => Some((
                        rhs.clone(),
                        Step::MulOdd {
                            inverse: odd_inverse(c, w),
                            width: w,
                        },
                    )),
                    Some(c)
                        if c != 0
                            && crate::ranges::max_value(rhs)
                                .checked_mul(c)
                                .is_some_and(|m| m <= mask(w)) =>
                    {
                        Some((rhs.clone(), Step::MulNoWrap { c }))
                    }
                    _ => None,
                },
                _ => None,
            };
            match next {
                Some((y, step)) if !y.is_constant() => {
                    nodes.push(y.clone());
                    steps.push(step);
                    cur = y;
                }
                _ => break,
            }
        }
        Inversion { nodes, steps }
    }

    /// The expressions fixed by the offset, the index first.
    pub fn nodes(&self) -> &[Expr] {
        &self.nodes
    }

    /// The value of every node when the index is `o`; `false` when no value of the operands
    /// yields `o` (the offset is unreachable).
    pub fn values(&self, o: u64, out: &mut Vec<u128>) -> bool {
        out.clear();
        let mut v = o as u128;
        out.push(v);
        for step in &self.steps {
            v = match *step {
                Step::ZExt { from } => {
                    if v > mask(from) {
                        return false;
                    }
                    v
                }
                Step::SExt { from, to } => {
                    let low = v & mask(from);
                    if sext(low, from, to) != v {
                        return false;
                    }
                    low
                }
                Step::AddConst { c, width } => v.wrapping_sub(c) & mask(width),
                Step::MulNoWrap { c } => {
                    if !v.is_multiple_of(c) {
                        return false;
                    }
                    v / c
                }
                Step::MulOdd { inverse, width } => v.wrapping_mul(inverse) & mask(width),
            };
            out.push(v);
        }
        true
    }
}

/// The inverse of an odd `c` modulo 2^width (Newton's iteration).
fn odd_inverse(c: u128, width: u32) -> u128 {
    let mut x = c;
    for _ in 0..7 {
        x = x.wrapping_mul(2u128.wrapping_sub(c.wrapping_mul(x)));
    }
    x & mask(width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_expr::{Array, ArrayKind, UpdateList};

    fn table(name: &str, len: usize, seed: u64) -> UpdateList {
        // A fixed pseudo-random table (an LCG is enough for test data).
        let mut x = seed;
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 56) as u8
            })
            .collect();
        UpdateList::new(Array::new(
            name,
            len as u64,
            ArrayKind::MemoryObject,
            Some(Arc::from(bytes)),
        ))
    }

    fn byte(input: &UpdateList, i: u128) -> Expr {
        Expr::read(input, Expr::constant(i, 32))
    }

    fn zext32(e: Expr) -> Expr {
        Expr::zext(e, 32)
    }

    /// `run` at every value of the inputs.
    fn scalar(program: &Program, inputs: usize) -> Vec<Result<u128, EvalError>> {
        let mut scratch = Vec::new();
        (0..1usize << (8 * inputs))
            .map(|x| {
                let values: Vec<u128> = if inputs == 2 {
                    vec![(x >> 8) as u128, (x & 0xff) as u128]
                } else {
                    vec![x as u128]
                };
                program.run(&values, &mut scratch)
            })
            .collect()
    }

    /// The column evaluation agrees with `run` at every value, errors included; returns
    /// `run`'s results.
    fn check_columns(root: &Expr, inputs: &[Expr]) -> Vec<Result<u128, EvalError>> {
        let mut cells = CellsCache::new(1 << 20);
        let program = Program::compile(root, inputs, &mut cells).expect("compiles");
        let expected = scalar(&program, inputs.len());
        let got = program.run_over_bytes();
        if expected.contains(&Err(EvalError::Free)) {
            assert_eq!(got, None);
        } else {
            let got = got.expect("no free byte");
            for (x, (g, e)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(*g, e.ok(), "at {x}");
            }
        }
        expected
    }

    #[test]
    fn column_evaluation_matches_run_on_nested_reads() {
        let input = UpdateList::new(Array::new("in", 2, ArrayKind::SymbolicInput, None));
        let (a, b) = (byte(&input, 0), byte(&input, 1));
        let base = table("base", 256, 1);
        let next = table("next", 300, 2); // indices up to 510: out of bounds past 299
                                          // next[base[a] + b] < 100, with a select over a comparison of a alone.
        let inner = Expr::read(&base, zext32(a.clone()));
        let idx = Expr::add(zext32(inner), zext32(b.clone()));
        let looked = Expr::read(&next, idx);
        let cond = Expr::ult(looked.clone(), Expr::constant(100, 8));
        let root = Expr::select(
            Expr::eq(a.clone(), Expr::constant(7, 8)),
            Expr::eq(b.clone(), Expr::constant(3, 8)),
            cond,
        );
        let results = check_columns(&root, &[a.clone(), b.clone()]);
        assert!(results.contains(&Err(EvalError::OutOfBounds)));
        assert!(results.iter().any(|r| r.is_ok()));
        // One input: base[a] > 50.
        let one = Expr::ult(Expr::constant(50, 8), Expr::read(&base, zext32(a.clone())));
        check_columns(&one, std::slice::from_ref(&a));
    }

    #[test]
    fn column_evaluation_reports_symbolic_cells_as_run_does() {
        let input = UpdateList::new(Array::new("in", 2, ArrayKind::SymbolicInput, None));
        let (a, b) = (byte(&input, 0), byte(&input, 1));
        // A table with one symbolic byte (at 7): reading it is `Free`.
        let mixed = table("mixed", 256, 3).write(Expr::constant(7, 32), byte(&input, 0));
        let plain = table("plain", 256, 4);
        let root = Expr::eq(
            Expr::read(&mixed, zext32(b.clone())),
            Expr::read(&plain, zext32(a.clone())),
        );
        let results = check_columns(&root, &[a, b]);
        assert!(results.contains(&Err(EvalError::Free)));
    }

    #[test]
    fn a_byte_only_compared_with_constants_is_evaluated_per_class() {
        let input = UpdateList::new(Array::new("in", 2, ArrayKind::SymbolicInput, None));
        let (a, b) = (byte(&input, 0), byte(&input, 1));
        let tbl = table("tbl", 256, 5);
        // tbl[b] + 8·(a == 0) + 8·((a == 0 ? 0 : b) == 'l') < 200, and a <s 5 through a
        // sign extension: a reaches only comparisons with constants.
        let is = |x: Expr, c: u128| Expr::zext(Expr::eq(x, Expr::constant(c, 8)), 32);
        let picked = Expr::select(
            Expr::eq(a.clone(), Expr::constant(0, 8)),
            Expr::constant(0, 8),
            b.clone(),
        );
        let sum = Expr::add(
            zext32(Expr::read(&tbl, zext32(b.clone()))),
            Expr::add(
                Expr::mul(Expr::constant(8, 32), is(a.clone(), 0)),
                Expr::mul(Expr::constant(8, 32), is(picked, 0x6c)),
            ),
        );
        let signed = Expr::slt(Expr::sext(a.clone(), 32), Expr::constant(5, 32));
        let root = Expr::and(Expr::ult(sum, Expr::constant(200, 32)), signed);
        let mut cells = CellsCache::new(1 << 20);
        let program = Program::compile(&root, &[a.clone(), b.clone()], &mut cells).unwrap();
        // a: cuts at 0 and 1 (== 0), 5 and 6 (<s 5), and 128.
        let classes = program.classes(0).expect("a is only compared");
        assert_eq!(
            classes,
            vec![(0, 1), (1, 4), (5, 1), (6, 122), (128, 128)],
            "{classes:?}"
        );
        // b is an array index: no classes.
        assert_eq!(program.classes(1), None);
        check_columns(&root, &[a.clone(), b.clone()]);
        // a as an index, or a compared with b: no classes.
        let indexed = Expr::ult(Expr::read(&tbl, zext32(a.clone())), b.clone());
        let program = Program::compile(&indexed, &[a.clone(), b.clone()], &mut cells).unwrap();
        assert_eq!(program.classes(0), None);
        let compared = Expr::ult(a.clone(), b.clone());
        let program = Program::compile(&compared, &[a.clone(), b.clone()], &mut cells).unwrap();
        assert_eq!(program.classes(0), None);
        check_columns(&compared, &[a, b]);
    }

    #[test]
    fn odd_inverse_inverts() {
        for c in [1u128, 3, 5, 0xFFFF_FFFF, 12345677] {
            for w in [8u32, 32, 64, 128] {
                let inv = odd_inverse(c & mask(w), w);
                assert_eq!((c & mask(w)).wrapping_mul(inv) & mask(w), 1, "c={c} w={w}");
            }
        }
    }
}
