//! Random floating-point expression trees over leaves biased toward special values, and their
//! expressions (symbolic leaves: little-endian reads of one array per leaf, as the engine
//! reads a `float`/`double`/integer object; or the leaves' constants, which the builder
//! folds).

use sear_expr::fp::{FpArith, FpPred, RoundMode};
use sear_expr::reads::ReadPolicy;
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};

/// `minnum`, `maxnum`, `minimum`, `maximum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinMax {
    MinNum,
    MaxNum,
    Minimum,
    Maximum,
}

/// A generated tree. Floats carry their width (32/64); a leaf its width and index.
#[derive(Clone, Debug)]
pub enum Node {
    Leaf(u32, usize),
    Arith(u32, FpArith, RoundMode, Box<Node>, Box<Node>),
    Sqrt(u32, RoundMode, Box<Node>),
    Fma(u32, RoundMode, Box<Node>, Box<Node>, Box<Node>),
    Round(u32, RoundMode, Box<Node>),
    Neg(u32, Box<Node>),
    Abs(u32, Box<Node>),
    CopySign(u32, Box<Node>, Box<Node>),
    MinMax(u32, MinMax, Box<Node>, Box<Node>),
    Ext(Box<Node>),
    Trunc(RoundMode, Box<Node>),
    /// To the float width, from the child integer (signed?).
    FromInt(u32, RoundMode, bool, Box<Node>),
    /// To an integer of the width (signed?).
    ToInt(u32, bool, Box<Node>),
    Cmp(FpPred, Box<Node>, Box<Node>),
    Class(u32, Box<Node>),
    Select(Box<Node>, Box<Node>, Box<Node>),
}

impl Node {
    /// The width of the value (1 for Booleans).
    pub fn width(&self) -> u32 {
        match self {
            Node::Leaf(w, _)
            | Node::Arith(w, ..)
            | Node::Sqrt(w, ..)
            | Node::Fma(w, ..)
            | Node::Round(w, ..)
            | Node::Neg(w, _)
            | Node::Abs(w, _)
            | Node::CopySign(w, ..)
            | Node::MinMax(w, ..)
            | Node::FromInt(w, ..)
            | Node::ToInt(w, ..) => *w,
            Node::Ext(_) => 64,
            Node::Trunc(..) => 32,
            Node::Cmp(..) | Node::Class(..) => 1,
            Node::Select(_, a, _) => a.width(),
        }
    }
}

/// splitmix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

const SPECIAL32: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x7F80_0000, // +inf
    0xFF80_0000, // -inf
    0x7FC0_0000, // qNaN
    0xFFC0_0000, // default NaN
    0x7FA0_1234, // sNaN with a payload
    0xFFC0_4321, // -qNaN with a payload
    0x0000_0001, // least subnormal
    0x807F_FFFF, // -greatest subnormal
    0x0080_0000, // least normal
    0x7F7F_FFFF, // greatest finite
    0xFF7F_FFFF,
    0x3F80_0000, // 1
    0xBF80_0000, // -1
    0x3F00_0000, // 0.5
    0x3FC0_0000, // 1.5
    0x4020_0000, // 2.5
    0x4B80_0000, // 2^24
    0x4B80_0001, // 2^24 + 2
    0x4B7F_FFFF, // 2^24 - 1
    0x4F00_0000, // 2^31
    0xCF00_0000, // -2^31
    0xCF00_0001,
    0x4EFF_FFFF,
    0x4F80_0000, // 2^32
    0x5F00_0000, // 2^63
    0xDF00_0000,
    0x5F80_0000, // 2^64
    0x4700_0000, // 32768
    0x477F_FF00, // 65535
];

const SPECIAL64: &[u64] = &[
    0x0,
    0x8000_0000_0000_0000,
    0x7FF0_0000_0000_0000,
    0xFFF0_0000_0000_0000,
    0x7FF8_0000_0000_0000,
    0xFFF8_0000_0000_0000,
    0x7FF4_0000_0000_1234,
    0xFFF8_0000_0000_4321,
    0x0000_0000_0000_0001,
    0x800F_FFFF_FFFF_FFFF,
    0x0010_0000_0000_0000,
    0x7FEF_FFFF_FFFF_FFFF,
    0xFFEF_FFFF_FFFF_FFFF,
    0x3FF0_0000_0000_0000,
    0xBFF0_0000_0000_0000,
    0x3FE0_0000_0000_0000,
    0x3FF8_0000_0000_0000,
    0x4004_0000_0000_0000,
    0x4340_0000_0000_0000, // 2^53
    0x4340_0000_0000_0001, // 2^53 + 2
    0x433F_FFFF_FFFF_FFFF, // 2^53 - 1
    0x4170_0000_1000_0000, // 2^24 + 1
    0x41E0_0000_0000_0000, // 2^31
    0xC1E0_0000_0000_0000, // -2^31
    0xC1E0_0000_0020_0000, // -2^31 - 1
    0x41DF_FFFF_FFC0_0000, // 2^31 - 1
    0x41F0_0000_0000_0000, // 2^32
    0x43E0_0000_0000_0000, // 2^63
    0xC3E0_0000_0000_0000,
    0xC3E0_0000_0000_0001,
    0x43F0_0000_0000_0000, // 2^64
    0x36A0_0000_0000_0000, // 2^-149 (binary32's least subnormal)
    0x47EF_FFFF_E000_0000, // binary32's greatest finite
    0x47EF_FFFF_F000_0000, // its midpoint to 2^128
];

const SPECIAL_INT: &[u64] = &[
    0,
    1,
    u64::MAX,
    0x7F,
    0x80,
    0x7FFF,
    0x8000,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFF,
    0x7FFF_FFFF_FFFF_FFFF,
    0x8000_0000_0000_0000,
    (1 << 24) + 1,
    (1 << 24) - 1,
    (1 << 53) + 1,
    (1 << 53) - 1,
    (1 << 63) + 1,
];

/// A leaf value of a float width: a special value, a neighbour of one, random bits, or a
/// small integer or half-integer.
pub fn float_leaf(rng: &mut Rng, w: u32) -> u64 {
    let special = if w == 32 {
        rng.pick(SPECIAL32) as u64
    } else {
        rng.pick(SPECIAL64)
    };
    let m = if w == 32 { 0xFFFF_FFFF } else { u64::MAX };
    match rng.below(8) {
        0..=2 => special,
        3 => special.wrapping_add(1) & m,
        4 => special.wrapping_sub(1) & m,
        5 => {
            let v = (rng.below(41) as f64 - 20.0) / if rng.below(2) == 0 { 1.0 } else { 2.0 };
            if w == 32 {
                (v as f32).to_bits() as u64
            } else {
                v.to_bits()
            }
        }
        _ => rng.next() & m,
    }
}

fn int_leaf(rng: &mut Rng, w: u32) -> u64 {
    let m = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    match rng.below(3) {
        0 => rng.pick(SPECIAL_INT) & m,
        1 => rng.pick(SPECIAL_INT).wrapping_neg() & m,
        _ => rng.next() >> rng.below(64) & m,
    }
}

/// The leaves of one tree: (width, value, is a float).
#[derive(Default)]
pub struct Leaves {
    pub items: Vec<(u32, u64, bool)>,
}

const OPS: [FpArith; 6] = [
    FpArith::Add,
    FpArith::Sub,
    FpArith::Mul,
    FpArith::Div,
    FpArith::Rem,
    FpArith::IeeeRem,
];

const PREDS: [FpPred; 14] = [
    FpPred::Oeq,
    FpPred::Ogt,
    FpPred::Oge,
    FpPred::Olt,
    FpPred::Ole,
    FpPred::One,
    FpPred::Ord,
    FpPred::Ueq,
    FpPred::Ugt,
    FpPred::Uge,
    FpPred::Ult,
    FpPred::Ule,
    FpPred::Une,
    FpPred::Uno,
];

const INT_WIDTHS: [u32; 8] = [1, 8, 16, 32, 33, 53, 63, 64];

/// The tree generator of one expression.
pub struct Gen<'r> {
    pub rng: &'r mut Rng,
    pub leaves: Leaves,
    /// Reuse a leaf of the same kind three times in four (the inputs of a path's
    /// conditions), instead of one time in three.
    pub reuse: bool,
}

impl Gen<'_> {
    fn mode(&mut self) -> RoundMode {
        if self.rng.below(2) == 0 {
            RoundMode::NearestEven
        } else {
            self.rng.pick(&RoundMode::ALL)
        }
    }

    /// A leaf of width `w`: one of this tree's leaves of that kind (a third of the time, so
    /// that `x - x` and the like occur), else a new one.
    fn leaf(&mut self, w: u32, float: bool) -> Node {
        let same: Vec<usize> = (0..self.leaves.items.len())
            .filter(|&i| self.leaves.items[i].0 == w && self.leaves.items[i].2 == float)
            .collect();
        let reuse = if self.reuse {
            self.rng.below(4) != 0
        } else {
            self.rng.below(3) == 0
        };
        if !same.is_empty() && reuse {
            return Node::Leaf(w, same[self.rng.below(same.len() as u64) as usize]);
        }
        let v = if float {
            float_leaf(self.rng, w)
        } else {
            int_leaf(self.rng, w)
        };
        self.leaves.items.push((w, v, float));
        Node::Leaf(w, self.leaves.items.len() - 1)
    }

    /// A float of width `w`.
    pub fn float(&mut self, w: u32, depth: u32) -> Node {
        if depth == 0 || self.rng.below(5) == 0 {
            return self.leaf(w, true);
        }
        let d = depth - 1;
        let b = Box::new;
        match self.rng.below(16) {
            0..=3 => {
                let op = self.rng.pick(&OPS);
                let m = self.mode();
                Node::Arith(w, op, m, b(self.float(w, d)), b(self.float(w, d)))
            }
            4 => Node::Sqrt(w, self.mode(), b(self.float(w, d))),
            5 => {
                let m = self.mode();
                let (x, y, z) = (self.float(w, d), self.float(w, d), self.float(w, d));
                Node::Fma(w, m, b(x), b(y), b(z))
            }
            6 => Node::Round(w, self.rng.pick(&RoundMode::ALL), b(self.float(w, d))),
            7 => match self.rng.below(3) {
                0 => Node::Neg(w, b(self.float(w, d))),
                1 => Node::Abs(w, b(self.float(w, d))),
                _ => Node::CopySign(w, b(self.float(w, d)), b(self.float(w, d))),
            },
            8 => {
                let k = self.rng.pick(&[
                    MinMax::MinNum,
                    MinMax::MaxNum,
                    MinMax::Minimum,
                    MinMax::Maximum,
                ]);
                Node::MinMax(w, k, b(self.float(w, d)), b(self.float(w, d)))
            }
            9 | 10 => {
                if w == 64 {
                    Node::Ext(b(self.float(32, d)))
                } else {
                    Node::Trunc(self.mode(), b(self.float(64, d)))
                }
            }
            11 | 12 => {
                let n = self.rng.pick(&INT_WIDTHS);
                let signed = self.rng.below(2) == 0;
                let m = self.mode();
                Node::FromInt(w, m, signed, b(self.int(n, d)))
            }
            13 => {
                let c = self.boolean(d);
                Node::Select(b(c), b(self.float(w, d)), b(self.float(w, d)))
            }
            _ => self.leaf(w, true),
        }
    }

    /// An integer of width `n`.
    pub fn int(&mut self, n: u32, depth: u32) -> Node {
        if depth == 0 || self.rng.below(3) == 0 {
            return match n {
                8 | 16 | 32 | 64 => self.leaf(n, false),
                _ => {
                    let fw = self.rng.pick(&[32, 64]);
                    let f = self.leaf(fw, true);
                    Node::ToInt(n, self.rng.below(2) == 0, Box::new(f))
                }
            };
        }
        let fw = self.rng.pick(&[32, 64]);
        let f = self.float(fw, depth - 1);
        Node::ToInt(n, self.rng.below(2) == 0, Box::new(f))
    }

    /// A Boolean.
    pub fn boolean(&mut self, depth: u32) -> Node {
        let w = self.rng.pick(&[32, 64]);
        let d = depth.saturating_sub(1);
        if self.rng.below(4) == 0 {
            let mask = self.rng.below(1024) as u32;
            return Node::Class(mask, Box::new(self.float(w, d)));
        }
        let p = self.rng.pick(&PREDS);
        Node::Cmp(p, Box::new(self.float(w, d)), Box::new(self.float(w, d)))
    }

    /// A tree of a random kind.
    pub fn any(&mut self, depth: u32) -> Node {
        match self.rng.below(8) {
            0..=2 => self.float(32, depth),
            3..=5 => self.float(64, depth),
            6 => {
                let n = self.rng.pick(&INT_WIDTHS);
                self.int(n, depth)
            }
            _ => self.boolean(depth),
        }
    }
}

/// The symbolic leaf of `w` bits: an array of `w / 8` bytes, read little-endian.
pub fn leaf_array(name: &str, w: u32) -> (ArrayRef, Expr) {
    let a = Array::new(name, (w / 8) as u64, ArrayKind::SymbolicInput, None);
    let e = Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 32), w / 8);
    (a, e)
}

/// A concrete leaf that the builder does not fold: the little-endian read of a constant
/// array holding `v` (a stock read, [`ReadPolicy::Unfolded`]), so the nodes above it stay
/// nodes for the evaluator and the cores, which see the constant.
pub fn constant_leaf(name: &str, w: u32, v: u64) -> Expr {
    let n = w.div_ceil(8);
    let bytes = v.to_le_bytes()[..n as usize].to_vec();
    let a = Array::new(name, n as u64, ArrayKind::Other, Some(bytes.into()));
    let read = ReadPolicy::Unfolded.read_lsb(&UpdateList::new(a), Expr::constant(0, 32), n);
    Expr::extract(read, 0, w)
}

/// The expression of `node` over the leaf expressions `leaves`.
pub fn build(node: &Node, leaves: &[Expr]) -> Expr {
    let r = |n: &Node| build(n, leaves);
    let res = match node {
        Node::Leaf(_, i) => return leaves[*i].clone(),
        Node::Arith(_, op, m, a, b) => Expr::fp_arith_rm(*op, *m, r(a), r(b)),
        Node::Sqrt(_, m, a) => Expr::fp_sqrt_rm(*m, r(a)),
        Node::Fma(_, m, a, b, c) => Expr::fp_fma_rm(*m, r(a), r(b), r(c)),
        Node::Round(_, m, a) => Expr::fp_round(*m, r(a)),
        Node::Neg(_, a) => Expr::fneg(r(a)),
        Node::Abs(_, a) => Expr::fabs(r(a)),
        Node::CopySign(_, a, b) => Expr::copysign(r(a), r(b)),
        Node::MinMax(_, k, a, b) => match k {
            MinMax::MinNum => Expr::fp_min(r(a), r(b)),
            MinMax::MaxNum => Expr::fp_max(r(a), r(b)),
            MinMax::Minimum => Expr::fp_minimum(r(a), r(b)),
            MinMax::Maximum => Expr::fp_maximum(r(a), r(b)),
        },
        Node::Ext(a) => Expr::fp_convert(r(a), 64),
        Node::Trunc(m, a) => Expr::fp_convert_rm(*m, r(a), 32),
        Node::FromInt(w, m, signed, a) => Expr::int_to_fp_rm(*signed, *m, r(a), *w),
        Node::ToInt(n, signed, a) => Expr::fp_to_int(*signed, r(a), *n),
        Node::Cmp(p, a, b) => Expr::fcmp(*p, r(a), r(b)),
        Node::Class(mask, a) => Expr::is_fpclass(r(a), *mask),
        Node::Select(c, a, b) => Ok(Expr::select(r(c), r(a), r(b))),
    };
    res.expect("generated trees are well formed")
}

impl Node {
    /// The operands.
    pub fn children(&self) -> Vec<&Node> {
        match self {
            Node::Leaf(..) => vec![],
            Node::Sqrt(_, _, a)
            | Node::Round(_, _, a)
            | Node::Neg(_, a)
            | Node::Abs(_, a)
            | Node::Ext(a)
            | Node::Trunc(_, a)
            | Node::FromInt(_, _, _, a)
            | Node::ToInt(_, _, a)
            | Node::Class(_, a) => vec![a],
            Node::Arith(_, _, _, a, b)
            | Node::CopySign(_, a, b)
            | Node::MinMax(_, _, a, b)
            | Node::Cmp(_, a, b) => vec![a, b],
            Node::Fma(_, _, a, b, c) | Node::Select(a, b, c) => vec![a, b, c],
        }
    }

    /// The same operation over leaves `0..` in place of its operands.
    pub fn over_leaves(&self) -> Node {
        let mut k = 0;
        let mut leaf = |n: &Node| {
            k += 1;
            Box::new(Node::Leaf(n.width(), k - 1))
        };
        match self {
            Node::Leaf(w, _) => Node::Leaf(*w, 0),
            Node::Arith(w, op, m, a, b) => Node::Arith(*w, *op, *m, leaf(a), leaf(b)),
            Node::Sqrt(w, m, a) => Node::Sqrt(*w, *m, leaf(a)),
            Node::Fma(w, m, a, b, c) => Node::Fma(*w, *m, leaf(a), leaf(b), leaf(c)),
            Node::Round(w, m, a) => Node::Round(*w, *m, leaf(a)),
            Node::Neg(w, a) => Node::Neg(*w, leaf(a)),
            Node::Abs(w, a) => Node::Abs(*w, leaf(a)),
            Node::CopySign(w, a, b) => Node::CopySign(*w, leaf(a), leaf(b)),
            Node::MinMax(w, k2, a, b) => Node::MinMax(*w, *k2, leaf(a), leaf(b)),
            Node::Ext(a) => Node::Ext(leaf(a)),
            Node::Trunc(m, a) => Node::Trunc(*m, leaf(a)),
            Node::FromInt(w, m, s, a) => Node::FromInt(*w, *m, *s, leaf(a)),
            Node::ToInt(n, s, a) => Node::ToInt(*n, *s, leaf(a)),
            Node::Cmp(p, a, b) => Node::Cmp(*p, leaf(a), leaf(b)),
            Node::Class(m, a) => Node::Class(*m, leaf(a)),
            Node::Select(c, a, b) => Node::Select(leaf(c), leaf(a), leaf(b)),
        }
    }
}
