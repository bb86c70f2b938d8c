//! Exhaustive checks of the constant rewrites: one symbolic byte, every one of its 256
//! values, operands at and next to every boundary constant, every operator and both operand
//! orders. The random trees of `builder_props.rs` rarely line up a boundary constant with an
//! input that hits it; these loops always do.

mod common;

use sear_expr::testing::{Tree, TreeCmp};
use sear_expr::{Array, ArrayKind, ArrayRef, Assignment, BinOp, Expr};

/// Widths of the byte-derived operand `x` (the low bits of the byte).
const NARROW: [u32; 4] = [1, 3, 7, 8];
/// Widths `x` is extended to.
const WIDE: [u32; 5] = [2, 9, 16, 33, 128];

fn mask(w: u32) -> u128 {
    if w == 128 {
        u128::MAX
    } else {
        (1 << w) - 1
    }
}

/// Constants at and around the boundaries of `n`-bit values, as `w`-bit constants.
fn boundaries(n: u32, w: u32) -> Vec<u128> {
    let mut out = Vec::new();
    for k in [1, n.saturating_sub(1).max(1), n, (w - 1).max(1), w] {
        let smin = 1u128 << (k - 1);
        for base in [
            0,
            mask(k),
            smin,
            smin - 1,
            !(mask(k) >> 1) & mask(w),
            mask(w),
        ] {
            for delta in [0u128, 1, 2] {
                out.push(base.wrapping_add(delta).wrapping_sub(1) & mask(w));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

struct Byte {
    array: ArrayRef,
    arrays: Vec<ArrayRef>,
}

impl Byte {
    fn new() -> Self {
        let array = Array::new("x", 1, ArrayKind::SymbolicInput, None);
        Byte {
            arrays: vec![array.clone()],
            array,
        }
    }

    /// The low `n` bits of the symbolic byte, as a tree.
    fn tree(&self, n: u32) -> Tree {
        let read = Tree::Read {
            array: 0,
            writes: Vec::new(),
            index: Box::new(Tree::Const {
                value: 0,
                width: 32,
            }),
        };
        if n == 8 {
            read
        } else {
            Tree::Extract {
                expr: Box::new(read),
                offset: 0,
                width: n,
            }
        }
    }

    /// Checks `tree` against its built expression for all 256 byte values.
    fn check(&self, tree: &Tree) {
        self.check_values(tree, 0..=255u8);
    }

    /// Checks `tree`, which only depends on the low `bits` bits of the byte, for all of
    /// their values.
    fn check_bits(&self, tree: &Tree, bits: u32) {
        self.check_values(tree, (0..1u32 << bits).map(|v| v as u8));
    }

    /// Checks `tree` for the byte values that matter most: the extremes, the sign boundary
    /// and a spread of others.
    fn check_some(&self, tree: &Tree) {
        let values = [
            0u8, 1, 2, 3, 5, 0x0f, 0x10, 0x33, 0x55, 0x7e, 0x7f, 0x80, 0x81, 0xaa, 0xc3, 0xf0,
            0xfe, 0xff,
        ];
        self.check_values(tree, values);
    }

    fn check_values(&self, tree: &Tree, values: impl IntoIterator<Item = u8>) {
        let expr = tree.build(&self.arrays);
        if let Some(why) = common::canonical_violation(&expr) {
            panic!("{why}\nfrom {tree:?}");
        }
        for v in values {
            let mut model = Assignment::new();
            model.insert(self.array.clone(), vec![v]);
            let expected = common::reference(tree, &self.arrays, &model);
            let actual = model.evaluate(&expr);
            assert_eq!(
                actual, expected,
                "byte {v:#x}\ntree {tree:?}\nbuilt {expr:?}"
            );
        }
    }
}

fn konst(value: u128, width: u32) -> Box<Tree> {
    Box::new(Tree::Const { value, width })
}

#[test]
fn comparisons_of_extended_values_against_boundaries() {
    let byte = Byte::new();
    let mut checked = 0;
    for n in NARROW {
        for w in WIDE.into_iter().filter(|&w| w > n) {
            for zero in [true, false] {
                let x = Box::new(byte.tree(n));
                let ext = Box::new(if zero {
                    Tree::ZExt { expr: x, width: w }
                } else {
                    Tree::SExt { expr: x, width: w }
                });
                for c in boundaries(n, w) {
                    for op in TreeCmp::ALL {
                        byte.check_bits(
                            &Tree::Cmp {
                                op,
                                lhs: ext.clone(),
                                rhs: konst(c, w),
                            },
                            n,
                        );
                        byte.check_bits(
                            &Tree::Cmp {
                                op,
                                lhs: konst(c, w),
                                rhs: ext.clone(),
                            },
                            n,
                        );
                        checked += 2;
                    }
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn comparisons_of_narrow_values_against_boundaries() {
    let byte = Byte::new();
    for n in NARROW {
        for c in boundaries(n, n) {
            for op in TreeCmp::ALL {
                let x = Box::new(byte.tree(n));
                byte.check_bits(
                    &Tree::Cmp {
                        op,
                        lhs: x.clone(),
                        rhs: konst(c, n),
                    },
                    n,
                );
                byte.check_bits(
                    &Tree::Cmp {
                        op,
                        lhs: konst(c, n),
                        rhs: x,
                    },
                    n,
                );
            }
        }
    }
}

#[test]
fn binary_operators_with_boundary_constants() {
    let byte = Byte::new();
    for n in NARROW {
        for w in [n, n + 1, 16, 128] {
            let x = if w == n {
                byte.tree(n)
            } else {
                Tree::SExt {
                    expr: Box::new(byte.tree(n)),
                    width: w,
                }
            };
            for c in boundaries(n, w) {
                for op in BinOp::ALL {
                    let x = Box::new(x.clone());
                    byte.check_bits(
                        &Tree::Binary {
                            op,
                            lhs: x.clone(),
                            rhs: konst(c, w),
                        },
                        n,
                    );
                    byte.check_bits(
                        &Tree::Binary {
                            op,
                            lhs: konst(c, w),
                            rhs: x,
                        },
                        n,
                    );
                }
            }
        }
    }
}

#[test]
fn constant_chains() {
    let byte = Byte::new();
    let ops = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
    ];
    for w in [3, 8, 128] {
        let x = if w == 128 {
            Tree::ZExt {
                expr: Box::new(byte.tree(8)),
                width: 128,
            }
        } else {
            byte.tree(w)
        };
        let consts = [0, 1, 2, mask(w), mask(w) - 1, 1 << (w - 1)];
        for outer in ops {
            for inner in ops {
                for &c1 in &consts {
                    for &c2 in &consts {
                        let x = Box::new(x.clone());
                        let shapes = [(konst(c2, w), x.clone()), (x.clone(), konst(c2, w))];
                        for (a, b) in shapes {
                            let inner_tree = Box::new(Tree::Binary {
                                op: inner,
                                lhs: a,
                                rhs: b,
                            });
                            byte.check_some(&Tree::Binary {
                                op: outer,
                                lhs: konst(c1, w),
                                rhs: inner_tree.clone(),
                            });
                            byte.check_some(&Tree::Binary {
                                op: outer,
                                lhs: inner_tree.clone(),
                                rhs: konst(c1, w),
                            });
                            for op in [TreeCmp::Eq, TreeCmp::Ne, TreeCmp::Ult, TreeCmp::Sle] {
                                byte.check_some(&Tree::Cmp {
                                    op,
                                    lhs: konst(c1, w),
                                    rhs: inner_tree.clone(),
                                });
                            }
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn extracts_of_every_shape() {
    let byte = Byte::new();
    let x8 = byte.tree(8);
    let sources = vec![
        Tree::ZExt {
            expr: Box::new(x8.clone()),
            width: 16,
        },
        Tree::SExt {
            expr: Box::new(x8.clone()),
            width: 16,
        },
        Tree::Not(Box::new(Tree::SExt {
            expr: Box::new(x8.clone()),
            width: 16,
        })),
        Tree::Concat {
            hi: Box::new(x8.clone()),
            lo: Box::new(Tree::Not(Box::new(x8.clone()))),
        },
        Tree::Concat {
            hi: Box::new(byte.tree(3)),
            lo: Box::new(Tree::Concat {
                hi: Box::new(x8.clone()),
                lo: Box::new(byte.tree(5)),
            }),
        },
        Tree::Binary {
            op: BinOp::Add,
            lhs: konst(0x1234, 16),
            rhs: Box::new(Tree::ZExt {
                expr: Box::new(x8.clone()),
                width: 16,
            }),
        },
        Tree::Binary {
            op: BinOp::Mul,
            lhs: konst(0x0103, 16),
            rhs: Box::new(Tree::SExt {
                expr: Box::new(x8.clone()),
                width: 16,
            }),
        },
        Tree::Binary {
            op: BinOp::Sub,
            lhs: konst(0x00ff, 16),
            rhs: Box::new(Tree::SExt {
                expr: Box::new(x8.clone()),
                width: 16,
            }),
        },
        Tree::Binary {
            op: BinOp::Xor,
            lhs: konst(0xa5a5, 16),
            rhs: Box::new(Tree::ZExt {
                expr: Box::new(x8.clone()),
                width: 16,
            }),
        },
        Tree::Binary {
            op: BinOp::Or,
            lhs: konst(0x0f00, 16),
            rhs: Box::new(Tree::SExt {
                expr: Box::new(x8.clone()),
                width: 16,
            }),
        },
        Tree::Select {
            cond: Box::new(Tree::Cmp {
                op: TreeCmp::Ult,
                lhs: Box::new(x8.clone()),
                rhs: konst(0x40, 8),
            }),
            then_tree: konst(0xbeef, 16),
            else_tree: konst(0x1234, 16),
        },
        Tree::Extract {
            expr: Box::new(Tree::SExt {
                expr: Box::new(x8.clone()),
                width: 32,
            }),
            offset: 4,
            width: 16,
        },
    ];
    for source in sources {
        let w = source.width();
        for offset in 0..w {
            for width in 1..=w - offset {
                let tree = Tree::Extract {
                    expr: Box::new(source.clone()),
                    offset,
                    width,
                };
                byte.check(&tree);
                // Re-extending the extract exercises zext/sext of extracts.
                byte.check_some(&Tree::SExt {
                    expr: Box::new(tree.clone()),
                    width: width + 5,
                });
                byte.check_some(&Tree::ZExt {
                    expr: Box::new(tree),
                    width: width + 5,
                });
            }
        }
    }
}

#[test]
fn extension_chains() {
    let byte = Byte::new();
    for n in NARROW {
        for mid in [n, n + 1, 12] {
            for outer in [mid, mid + 3, 128] {
                for (first_zero, second_zero) in
                    [(true, true), (true, false), (false, true), (false, false)]
                {
                    let first = |e: Box<Tree>| {
                        if first_zero {
                            Tree::ZExt {
                                expr: e,
                                width: mid,
                            }
                        } else {
                            Tree::SExt {
                                expr: e,
                                width: mid,
                            }
                        }
                    };
                    let inner = Box::new(first(Box::new(byte.tree(n))));
                    let tree = if second_zero {
                        Tree::ZExt {
                            expr: inner,
                            width: outer,
                        }
                    } else {
                        Tree::SExt {
                            expr: inner,
                            width: outer,
                        }
                    };
                    byte.check(&tree);
                    byte.check(&Tree::Not(Box::new(tree.clone())));
                    byte.check(&Tree::Cmp {
                        op: TreeCmp::Eq,
                        lhs: konst(mask(outer), outer),
                        rhs: Box::new(tree),
                    });
                }
            }
        }
    }
}

#[test]
fn boolean_selects() {
    let byte = Byte::new();
    let bit = |i: u32| {
        Box::new(Tree::Extract {
            expr: Box::new(byte.tree(8)),
            offset: i,
            width: 1,
        })
    };
    let cmp = Box::new(Tree::Cmp {
        op: TreeCmp::Slt,
        lhs: Box::new(byte.tree(8)),
        rhs: konst(3, 8),
    });
    for cond in [bit(0), cmp.clone(), Box::new(Tree::Not(bit(1)))] {
        for then_tree in [konst(0, 1), konst(1, 1), bit(2), cmp.clone()] {
            for else_tree in [
                konst(0, 1),
                konst(1, 1),
                bit(3),
                Box::new(Tree::Not(cmp.clone())),
            ] {
                let inner = Tree::Select {
                    cond: cond.clone(),
                    then_tree: then_tree.clone(),
                    else_tree: else_tree.clone(),
                };
                byte.check(&inner);
                byte.check(&Tree::Select {
                    cond: cond.clone(),
                    then_tree: Box::new(inner.clone()),
                    else_tree: bit(4),
                });
                byte.check(&Tree::Select {
                    cond: cond.clone(),
                    then_tree: bit(5),
                    else_tree: Box::new(inner),
                });
            }
        }
    }
    for i in 0..8 {
        for op in TreeCmp::ALL {
            byte.check(&Tree::Cmp {
                op,
                lhs: bit(i),
                rhs: bit((i + 1) % 8),
            });
            byte.check(&Tree::Cmp {
                op,
                lhs: bit(i),
                rhs: konst(1, 1),
            });
            byte.check(&Tree::Cmp {
                op,
                lhs: konst(0, 1),
                rhs: bit(i),
            });
        }
    }
}

#[test]
fn expr_constructor_helpers() {
    // zext_or_trunc / sext_or_trunc / implies / and_all / or_all against direct evaluation.
    let byte = Byte::new();
    let x = Expr::read(
        &sear_expr::UpdateList::new(byte.array.clone()),
        Expr::constant(0, 32),
    );
    for v in 0..=255u8 {
        let mut m = Assignment::new();
        m.insert(byte.array.clone(), vec![v]);
        let v = v as u128;
        assert_eq!(m.evaluate(&Expr::zext_or_trunc(x.clone(), 4)), v & 0xf);
        assert_eq!(
            m.evaluate(&Expr::sext_or_trunc(x.clone(), 12)),
            if v >= 0x80 { v | 0xf00 } else { v }
        );
        let b0 = Expr::extract(x.clone(), 0, 1);
        let b1 = Expr::extract(x.clone(), 1, 1);
        assert_eq!(
            m.evaluate(&Expr::implies(b0.clone(), b1.clone())),
            ((v & 1 == 0) || (v & 2 != 0)) as u128
        );
        assert_eq!(
            m.evaluate(&Expr::and_all([b0.clone(), b1.clone()])),
            ((v & 3) == 3) as u128
        );
        assert_eq!(m.evaluate(&Expr::or_all([b0, b1])), ((v & 3) != 0) as u128);
    }
    assert!(Expr::and_all([]).is_true());
    assert!(Expr::or_all([]).is_false());
}
