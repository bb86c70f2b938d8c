//! A generator of path-condition-like queries, shaped like what a symbolic executor issues.
//!
//! A [`PathGen`] owns a few symbolic byte arrays (program inputs) and one memory-object array
//! with writes. It produces branch conditions over little-endian multi-byte reads (concats of
//! byte reads), symbolic-index reads (kept in bounds by a constraint returned alongside),
//! stores, arithmetic, bitwise operations, shifts, extensions and comparisons. Driving it is
//! up to the caller: ask about a condition, then add the feasible side to the path.

use sear_expr::{Array, ArrayKind, ArrayRef, BinOp, CmpOp, Expr, UpdateList};

/// A small deterministic random number generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    /// A random element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

/// Generates branch conditions over a fixed set of arrays.
pub struct PathGen {
    /// The random source.
    pub rng: Rng,
    inputs: Vec<UpdateList>,
    memory: UpdateList,
}

impl PathGen {
    /// A generator with 1–3 input arrays of 2–16 bytes and a 16-byte memory object.
    pub fn new(seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let n = 1 + rng.below(3);
        let inputs = (0..n)
            .map(|i| {
                let size = 2 + rng.below(15);
                UpdateList::new(Array::new(
                    format!("in{i}"),
                    size,
                    ArrayKind::SymbolicInput,
                    None,
                ))
            })
            .collect();
        let memory = UpdateList::new(Array::new("mem", 16, ArrayKind::MemoryObject, None));
        PathGen {
            rng,
            inputs,
            memory,
        }
    }

    /// Every symbolic array the generator may read.
    pub fn arrays(&self) -> Vec<ArrayRef> {
        self.inputs
            .iter()
            .chain([&self.memory])
            .map(|u| u.root().clone())
            .collect()
    }

    fn input(&mut self) -> UpdateList {
        let i = self.rng.below(self.inputs.len() as u64) as usize;
        self.inputs[i].clone()
    }

    /// A value of `width` bits (8, 16, 32 or 64) over the inputs; `side` receives constraints
    /// that keep symbolic indices in bounds.
    pub fn value(&mut self, width: u32, depth: u32, side: &mut Vec<Expr>) -> Expr {
        let r = self.rng.below(if depth == 0 { 3 } else { 12 });
        match r {
            0 => Expr::constant(self.rng.next_u64() as u128 % 300, width),
            1 | 2 => {
                let arr = self.input();
                let bytes = (width / 8).min(arr.root().size() as u32);
                let start = self.rng.below(arr.root().size() - bytes as u64 + 1);
                let v = Expr::read_lsb(&arr, Expr::constant(start as u128, 32), bytes);
                Expr::zext_or_trunc(v, width)
            }
            3 => {
                // A read at a symbolic index, kept in bounds by a side constraint.
                let arr = self.input();
                let idx_src = self.input();
                let idx = Expr::zext(Expr::read(&idx_src, Expr::constant(0, 32)), 32);
                side.push(Expr::ult(
                    idx.clone(),
                    Expr::constant(arr.root().size() as u128, 32),
                ));
                Expr::zext_or_trunc(Expr::read(&arr, idx), width)
            }
            4 => {
                // A read through writes (some at symbolic indices) to the memory object.
                let mut mem = self.memory.clone();
                for _ in 0..1 + self.rng.below(3) {
                    let v = self.value(8, depth - 1, side);
                    let at = if self.rng.chance(50) {
                        Expr::constant(self.rng.below(16) as u128, 32)
                    } else {
                        let i = Expr::zext(self.value(8, 0, side), 32);
                        side.push(Expr::ult(i.clone(), Expr::constant(16, 32)));
                        i
                    };
                    mem = mem.write(at, v);
                }
                let at = Expr::constant(self.rng.below(16) as u128, 32);
                Expr::zext_or_trunc(Expr::read(&mem, at), width)
            }
            5 => {
                let c = self.condition(depth - 1, side);
                let a = self.value(width, depth - 1, side);
                let b = self.value(width, depth - 1, side);
                Expr::select(c, a, b)
            }
            6 => {
                let narrow = self.value(8, depth - 1, side);
                if self.rng.chance(50) {
                    Expr::zext_or_trunc(narrow, width)
                } else {
                    Expr::sext_or_trunc(narrow, width)
                }
            }
            7 => Expr::not(self.value(width, depth - 1, side)),
            _ => {
                // Cheap operators are listed several times: division and multiplication
                // are rarer in path conditions and dominate solving time.
                let ops = [
                    BinOp::Add,
                    BinOp::Add,
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::Sub,
                    BinOp::And,
                    BinOp::And,
                    BinOp::Or,
                    BinOp::Xor,
                    BinOp::Shl,
                    BinOp::LShr,
                    BinOp::Mul,
                    BinOp::And,
                    BinOp::Or,
                    BinOp::Xor,
                    BinOp::Shl,
                    BinOp::LShr,
                    BinOp::AShr,
                    BinOp::UDiv,
                    BinOp::URem,
                    BinOp::SDiv,
                    BinOp::SRem,
                ];
                let op = *self.rng.pick(&ops);
                let a = self.value(width, depth - 1, side);
                let b = match op {
                    BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                        Expr::constant(self.rng.below(width as u64) as u128, width)
                    }
                    // Symbolic multipliers and divisors only at 8 bits, and rarely: wide
                    // symbolic division is rare in path conditions and very hard for any
                    // bit-blasting solver.
                    BinOp::Mul | BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem
                        if width > 8 || self.rng.chance(70) =>
                    {
                        Expr::constant(1 + self.rng.below(20) as u128, width)
                    }
                    _ => self.value(width, depth - 1, side),
                };
                Expr::binary(op, a, b)
            }
        }
    }

    /// A branch condition; `side` receives in-bounds constraints for symbolic indices.
    pub fn condition(&mut self, depth: u32, side: &mut Vec<Expr>) -> Expr {
        let width = *self.rng.pick(&[8, 8, 8, 16, 32, 32, 64]);
        let a = self.value(width, depth, side);
        let b = if self.rng.chance(50) {
            Expr::constant(self.rng.next_u64() as u128 % 256, width)
        } else {
            self.value(width, depth, side)
        };
        let op = *self.rng.pick(&CmpOp::ALL);
        let c = Expr::cmp(op, a, b);
        if self.rng.chance(15) {
            let d = self.condition(0, side);
            if self.rng.chance(50) {
                Expr::and(c, d)
            } else {
                Expr::or(c, d)
            }
        } else {
            c
        }
    }
}
