//! Random operator trees, biased towards the patterns the builder rewrites.

use crate::array::ArrayRef;
use crate::bits::{mask, signed_min};
use crate::expr::BinOp;
use crate::testing::rng::Rng;
use crate::testing::tree::{Tree, TreeCmp};

/// The knobs of the tree generator.
#[derive(Clone, Debug)]
pub struct TreeConfig {
    /// The deepest operator nesting.
    pub max_depth: u32,
    /// Widths used for sub-terms (besides those forced by operators).
    pub widths: Vec<u32>,
    /// Allow reads and writes at symbolic indices.
    pub symbolic_indices: bool,
    /// Allow reads through update lists.
    pub writes: bool,
    /// Allow indices beyond an array's size. An SMT solver leaves those bytes free while
    /// [`crate::Assignment`] reads them as zero, so a model over the in-bounds bytes only
    /// decides queries generated without them.
    pub out_of_bounds: bool,
}

impl TreeConfig {
    /// Every operator, widths 1 to 128 including odd ones, symbolic indices and writes.
    pub fn full() -> Self {
        TreeConfig {
            max_depth: 5,
            widths: vec![1, 3, 8, 16, 17, 32, 64, 128],
            symbolic_indices: true,
            writes: true,
            out_of_bounds: true,
        }
    }
}

/// Generates trees over a list of arrays.
pub struct TreeGen<'a> {
    rng: &'a mut Rng,
    arrays: &'a [ArrayRef],
    config: &'a TreeConfig,
    pool: Vec<Tree>,
}

impl<'a> TreeGen<'a> {
    /// A generator drawing from `rng` that reads `arrays` (at least one).
    pub fn new(rng: &'a mut Rng, arrays: &'a [ArrayRef], config: &'a TreeConfig) -> Self {
        assert!(!arrays.is_empty(), "the generator needs an array to read");
        TreeGen {
            rng,
            arrays,
            config,
            pool: Vec::new(),
        }
    }

    /// An interesting constant of `width` bits: 0, 1, all ones, the signed extremes, small
    /// numbers, shift amounts around the width, or random bits.
    pub fn constant(&mut self, width: u32) -> Tree {
        let m = mask(width);
        let value = match self.rng.below(12) {
            0 => 0,
            1 => 1,
            2 => m,
            3 => signed_min(width),
            4 => signed_min(width) - 1,
            5 => self.rng.below(16) as u128,
            6 => (width as u128 + self.rng.below(3) as u128).wrapping_sub(1),
            7 => m.wrapping_sub(self.rng.below(4) as u128),
            8 | 9 => self.boundary(width),
            _ => self.rng.next_u128(),
        } & m;
        Tree::Const { value, width }
    }

    /// A value at or next to a boundary of a narrower width `n`: `2^n - 1`, `2^n`, the
    /// signed extremes of `n` bits, and their sign extensions to `width` bits.
    fn boundary(&mut self, width: u32) -> u128 {
        let n = self.rng.range(1, width as u64) as u32;
        self.boundary_at(n, width)
    }

    /// A value next to a boundary of `n` bits, as a `width`-bit constant.
    fn boundary_at(&mut self, n: u32, width: u32) -> u128 {
        let m = mask(width);
        let base = match self.rng.below(5) {
            0 => mask(n),
            1 => signed_min(n) - 1,
            2 => signed_min(n),
            3 => !(mask(n) >> 1) & m,
            _ => (!mask(n) & m) | (signed_min(n) - 1),
        };
        let delta = self.rng.below(3) as u128;
        base.wrapping_add(delta).wrapping_sub(1) & m
    }

    fn width(&mut self) -> u32 {
        *self.rng.pick(&self.config.widths)
    }

    fn boxed(&mut self, width: u32, depth: u32) -> Box<Tree> {
        Box::new(self.tree(width, depth))
    }

    /// A random tree of `width` bits with at most `depth` levels of operators.
    pub fn tree(&mut self, width: u32, depth: u32) -> Tree {
        if depth == 0 || self.rng.chance(20) {
            return self.leaf(width);
        }
        if self.rng.chance(12) {
            if let Some(t) = self.reuse(width) {
                return t;
            }
        }
        let d = depth - 1;
        if self.rng.chance(15) {
            return self.pattern(width, d);
        }
        let tree = match self.rng.below(20) {
            0..=5 => {
                let op = *self.rng.pick(&BinOp::ALL);
                self.binary(op, width, d)
            }
            6 if width == 1 => self.boolean(d),
            6 => self.twin(width, d),
            7 => Tree::Select {
                cond: Box::new(self.boolean(d)),
                then_tree: self.boxed(width, d),
                else_tree: self.boxed(width, d),
            },
            8 | 9 if width >= 2 => {
                let lo = self.rng.range(1, width as u64 - 1) as u32;
                Tree::Concat {
                    hi: self.boxed(width - lo, d),
                    lo: self.boxed(lo, d),
                }
            }
            10 | 11 => {
                let from = self.wider(width);
                let offset = self.rng.range(0, (from - width) as u64) as u32;
                Tree::Extract {
                    expr: self.boxed(from, d),
                    offset,
                    width,
                }
            }
            12 | 13 if width >= 2 => {
                let from = self.rng.range(1, width as u64) as u32;
                let expr = self.boxed(from, d);
                if self.rng.chance(50) {
                    Tree::ZExt { expr, width }
                } else {
                    Tree::SExt { expr, width }
                }
            }
            14 => Tree::Not(self.boxed(width, d)),
            15 | 16 if width == 8 => self.read(d),
            _ => self.leaf(width),
        };
        if tree.size() <= 64 {
            if self.pool.len() >= 32 {
                let slot = self.rng.below(32) as usize;
                self.pool[slot] = tree.clone();
            } else {
                self.pool.push(tree.clone());
            }
        }
        tree
    }

    /// A boolean: mostly comparisons, sometimes connectives.
    pub fn boolean(&mut self, depth: u32) -> Tree {
        if depth == 0 {
            return self.leaf(1);
        }
        let d = depth - 1;
        match self.rng.below(10) {
            0..=5 => {
                let op = *self.rng.pick(&TreeCmp::ALL);
                let w = self.width();
                let lhs = self.boxed(w, d);
                let rhs = if self.rng.chance(50) {
                    Box::new(self.constant(w))
                } else {
                    self.boxed(w, d)
                };
                Tree::Cmp { op, lhs, rhs }
            }
            6 => Tree::Not(Box::new(self.boolean(d))),
            7..=8 => {
                let op = *self.rng.pick(&[BinOp::And, BinOp::Or, BinOp::Xor]);
                Tree::Binary {
                    op,
                    lhs: Box::new(self.boolean(d)),
                    rhs: Box::new(self.boolean(d)),
                }
            }
            _ => self.tree(1, depth),
        }
    }

    fn binary(&mut self, op: BinOp, width: u32, d: u32) -> Tree {
        let lhs = self.boxed(width, d);
        let rhs = if self.rng.chance(40) {
            Box::new(self.constant(width))
        } else {
            self.boxed(width, d)
        };
        let (lhs, rhs) = if self.rng.chance(30) {
            (rhs, lhs)
        } else {
            (lhs, rhs)
        };
        Tree::Binary { op, lhs, rhs }
    }

    /// Shapes that specific rewrites look for, which independent random choices rarely
    /// produce: extended operands against boundary constants, nested selects on one
    /// condition, selects with one constant boolean arm, adjacent extracts rejoined, and
    /// constant chains.
    fn pattern(&mut self, width: u32, d: u32) -> Tree {
        match self.rng.below(6) {
            0 if width == 1 => {
                // ext(x) cmp boundary, either way round.
                let wide = self.width().max(2);
                let narrow = match self.rng.below(3) {
                    0 if wide > 8 => 8,
                    1 if wide > 16 => 16,
                    _ => self.rng.range(1, wide as u64 - 1) as u32,
                };
                let x = self.boxed(narrow, d);
                let ext = Box::new(if self.rng.chance(50) {
                    Tree::ZExt {
                        expr: x,
                        width: wide,
                    }
                } else {
                    Tree::SExt {
                        expr: x,
                        width: wide,
                    }
                });
                let value = if self.rng.chance(70) {
                    self.boundary_at(narrow, wide)
                } else {
                    self.rng.next_u128() & mask(wide)
                };
                let c = Box::new(Tree::Const { value, width: wide });
                let op = *self.rng.pick(&TreeCmp::ALL);
                let (lhs, rhs) = if self.rng.chance(50) {
                    (ext, c)
                } else {
                    (c, ext)
                };
                Tree::Cmp { op, lhs, rhs }
            }
            1 => {
                let c = Box::new(self.boolean(d));
                let inner = Tree::Select {
                    cond: c.clone(),
                    then_tree: self.boxed(width, d),
                    else_tree: self.boxed(width, d),
                };
                let other = self.boxed(width, d);
                let cond = if self.rng.chance(30) {
                    Box::new(Tree::Not(c))
                } else {
                    c
                };
                if self.rng.chance(50) {
                    Tree::Select {
                        cond,
                        then_tree: Box::new(inner),
                        else_tree: other,
                    }
                } else {
                    Tree::Select {
                        cond,
                        then_tree: other,
                        else_tree: Box::new(inner),
                    }
                }
            }
            2 if width == 1 => {
                let arm = Box::new(self.constant(1));
                let other = self.boxed(1, d);
                let cond = Box::new(self.boolean(d));
                if self.rng.chance(50) {
                    Tree::Select {
                        cond,
                        then_tree: arm,
                        else_tree: other,
                    }
                } else {
                    Tree::Select {
                        cond,
                        then_tree: other,
                        else_tree: arm,
                    }
                }
            }
            3 if width >= 2 => {
                // concat(extract(x, o1), extract(x, o2)) with adjacent or nearby offsets.
                let from = self.wider(width);
                let x = self.boxed(from, d);
                let lo_w = self.rng.range(1, width as u64 - 1) as u32;
                let hi_w = width - lo_w;
                let o2 = self.rng.range(0, (from - width) as u64) as u32;
                let gap = *self.rng.pick(&[0i64, 0, 0, -1, 1]);
                let o1 = (o2 as i64 + lo_w as i64 + gap).clamp(0, (from - hi_w) as i64) as u32;
                Tree::Concat {
                    hi: Box::new(Tree::Extract {
                        expr: x.clone(),
                        offset: o1,
                        width: hi_w,
                    }),
                    lo: Box::new(Tree::Extract {
                        expr: x,
                        offset: o2,
                        width: lo_w,
                    }),
                }
            }
            4 => {
                // c1 op (c2 op' x) chains.
                let x = self.boxed(width, d);
                let ops = [
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Mul,
                    BinOp::And,
                    BinOp::Or,
                    BinOp::Xor,
                ];
                let inner_op = *self.rng.pick(&ops);
                let c2 = Box::new(self.constant(width));
                let inner = if self.rng.chance(50) {
                    Tree::Binary {
                        op: inner_op,
                        lhs: c2,
                        rhs: x,
                    }
                } else {
                    Tree::Binary {
                        op: inner_op,
                        lhs: x,
                        rhs: c2,
                    }
                };
                let c1 = Box::new(self.constant(width));
                let op = *self.rng.pick(&ops);
                if self.rng.chance(50) {
                    Tree::Binary {
                        op,
                        lhs: c1,
                        rhs: Box::new(inner),
                    }
                } else {
                    Tree::Binary {
                        op,
                        lhs: Box::new(inner),
                        rhs: c1,
                    }
                }
            }
            _ => self.twin(width, d),
        }
    }

    /// `x op x`, `x op not(x)` or `(x op y) op' y`: patterns with dedicated rewrites.
    fn twin(&mut self, width: u32, d: u32) -> Tree {
        let x = self.boxed(width, d);
        let op = *self.rng.pick(&BinOp::ALL);
        match self.rng.below(3) {
            0 => Tree::Binary {
                op,
                lhs: x.clone(),
                rhs: x,
            },
            1 => Tree::Binary {
                op,
                lhs: x.clone(),
                rhs: Box::new(Tree::Not(x)),
            },
            _ => {
                let y = self.boxed(width, d);
                let inner = Tree::Binary {
                    op: *self.rng.pick(&[BinOp::Add, BinOp::Sub, BinOp::Xor]),
                    lhs: x,
                    rhs: y.clone(),
                };
                Tree::Binary {
                    op: *self.rng.pick(&[BinOp::Add, BinOp::Sub, BinOp::Xor]),
                    lhs: Box::new(inner),
                    rhs: y,
                }
            }
        }
    }

    fn wider(&mut self, width: u32) -> u32 {
        let candidates: Vec<u32> = self
            .config
            .widths
            .iter()
            .copied()
            .filter(|&w| w >= width)
            .collect();
        if candidates.is_empty() || self.rng.chance(20) {
            self.rng.range(width as u64, 128) as u32
        } else {
            *self.rng.pick(&candidates)
        }
    }

    fn reuse(&mut self, width: u32) -> Option<Tree> {
        let matching: Vec<&Tree> = self.pool.iter().filter(|t| t.width() == width).collect();
        if matching.is_empty() {
            return None;
        }
        Some((*self.rng.pick(&matching)).clone())
    }

    /// A constant, or symbolic bytes adjusted to `width`.
    pub fn leaf(&mut self, width: u32) -> Tree {
        if self.rng.chance(35) {
            return self.constant(width);
        }
        let array = self.rng.below(self.arrays.len() as u64) as usize;
        let bytes = width.div_ceil(8);
        if bytes as u64 > self.arrays[array].size() && !self.config.out_of_bounds {
            // Too wide to read in bounds: join two narrower leaves.
            let lo = width / 2;
            return Tree::Concat {
                hi: Box::new(self.leaf(width - lo)),
                lo: Box::new(self.leaf(lo)),
            };
        }
        let index = Box::new(self.index(array, 0, bytes));
        let word = if bytes == 1 && self.config.writes && self.rng.chance(30) {
            let writes = self.writes(array, 0);
            Tree::Read {
                array,
                writes,
                index,
            }
        } else {
            Tree::ReadLsb {
                array,
                index,
                bytes,
            }
        };
        if word.width() == width {
            word
        } else {
            Tree::Extract {
                expr: Box::new(word),
                offset: 0,
                width,
            }
        }
    }

    fn read(&mut self, d: u32) -> Tree {
        let array = self.rng.below(self.arrays.len() as u64) as usize;
        let writes = if self.config.writes {
            self.writes(array, d)
        } else {
            Vec::new()
        };
        let index = Box::new(self.index(array, d, 1));
        Tree::Read {
            array,
            writes,
            index,
        }
    }

    fn writes(&mut self, array: usize, d: u32) -> Vec<(Tree, Tree)> {
        let n = self.rng.below(4);
        (0..n)
            .map(|_| {
                let index = self.index(array, d.min(1), 1);
                let value = if d > 0 && self.rng.chance(40) {
                    self.tree(8, d.min(2))
                } else {
                    self.constant(8)
                };
                (index, value)
            })
            .collect()
    }

    /// An index into `array` for a `bytes`-byte access: usually in bounds, sometimes a
    /// symbolic expression over another byte.
    pub fn index(&mut self, array: usize, d: u32, bytes: u32) -> Tree {
        let a = &self.arrays[array];
        let iw = a.index_width();
        let size = a.size().max(1);
        let last = size.saturating_sub(bytes as u64);
        if !self.config.symbolic_indices || self.rng.chance(65) {
            let value = if self.config.out_of_bounds && self.rng.chance(5) {
                size + self.rng.below(3)
            } else {
                self.rng.range(0, last)
            };
            return Tree::Const {
                value: value as u128,
                width: iw,
            };
        }
        let source = self.rng.below(self.arrays.len() as u64) as usize;
        let source_index = self.arrays[source].size().max(1) - 1;
        let byte = Tree::Read {
            array: source,
            writes: Vec::new(),
            index: Box::new(Tree::Const {
                value: self.rng.range(0, source_index) as u128,
                width: self.arrays[source].index_width(),
            }),
        };
        let wide = Box::new(Tree::ZExt {
            expr: Box::new(byte),
            width: iw,
        });
        let bound = Box::new(Tree::Const {
            value: (last + 1) as u128,
            width: iw,
        });
        match self.rng.below(4) {
            0 => Tree::Binary {
                op: BinOp::URem,
                lhs: wide,
                rhs: bound,
            },
            1 if d > 0 && self.config.out_of_bounds => self.tree(iw, d.min(2)),
            _ => {
                // x & (2^k - 1) for the largest 2^k <= last + 1 stays in bounds.
                let span = last + 1;
                let power = if span.is_power_of_two() {
                    span
                } else {
                    span.next_power_of_two() / 2
                };
                Tree::Binary {
                    op: BinOp::And,
                    lhs: Box::new(Tree::Const {
                        value: (power - 1) as u128,
                        width: iw,
                    }),
                    rhs: wide,
                }
            }
        }
    }
}
