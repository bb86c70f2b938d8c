//! A generator of queries in the shapes the layers above the core decide by evaluation
//! (issue 37): reads of constant tables at symbolic indices, among them a flex-style
//! scanner's compressed tables (`yy_ec`, `yy_base`, `yy_chk`, `yy_nxt`, `yy_def`); a
//! symbolic memory object next to the inputs; folded and unfolded reads (one policy per
//! generator, as in a run); update lists whose written values are reads of other input
//! bytes, some of them at symbolic indices; constant tables with symbolic writes; several
//! input arrays; values of every width from 1 to 64 bits.
//!
//! A [`TableGen`] builds branch conditions; driving it (asking about both sides of a branch
//! and extending the path with a feasible one) is the caller's, as for
//! [`crate::testing::PathGen`].

use std::sync::Arc;

use sear_expr::{Array, ArrayKind, BinOp, CmpOp, Expr, ReadPolicy, UpdateList};

use super::gen::Rng;

/// The scanner's states and character classes.
const STATES: usize = 6;
const CLASSES: usize = 4;
/// The size of the `yy_chk`/`yy_nxt` tables.
const SLOTS: usize = 24;
/// The memory object's size.
const MEMORY: u64 = 8;

/// Generates conditions over a few input arrays, a memory object and constant tables.
pub struct TableGen {
    /// The random source.
    pub rng: Rng,
    inputs: Vec<UpdateList>,
    memory: UpdateList,
    /// How input and memory bytes are read (folded or as stock KLEE builds them).
    policy: ReadPolicy,
    ec: UpdateList,
    base: UpdateList,
    chk: UpdateList,
    nxt: UpdateList,
    def: UpdateList,
    /// A small constant table that symbolic writes go into.
    small: UpdateList,
}

fn table(name: &str, bytes: Vec<u8>) -> UpdateList {
    let size = bytes.len() as u64;
    let contents: Arc<[u8]> = bytes.into();
    UpdateList::new(Array::new(
        name,
        size,
        ArrayKind::MemoryObject,
        Some(contents),
    ))
}

impl TableGen {
    /// A generator with 1–3 input arrays of 1–6 bytes, an 8-byte symbolic memory object,
    /// random scanner tables, and a read policy drawn at random.
    pub fn new(seed: u64) -> Self {
        let mut rng = Rng::new(seed);
        let inputs = (0..1 + rng.below(3))
            .map(|i| {
                UpdateList::new(Array::new(
                    format!("in{i}"),
                    1 + rng.below(6),
                    ArrayKind::SymbolicInput,
                    None,
                ))
            })
            .collect();
        let memory = UpdateList::new(Array::new("mem", MEMORY, ArrayKind::MemoryObject, None));
        let policy = ReadPolicy::from_folding(rng.chance(50));
        let ec = (0..256).map(|_| rng.below(CLASSES as u64) as u8).collect();
        let base = (0..STATES)
            .map(|_| rng.below((SLOTS - CLASSES + 1) as u64) as u8)
            .collect();
        // A slot belongs to a state about half the time; the others fall back to `yy_def`.
        let chk = (0..SLOTS)
            .map(|_| rng.below(2 * STATES as u64) as u8)
            .collect();
        let nxt = (0..SLOTS).map(|_| rng.below(STATES as u64) as u8).collect();
        let def = (0..STATES)
            .map(|_| rng.below(STATES as u64) as u8)
            .collect();
        let small = (0..16).map(|_| rng.below(256) as u8).collect();
        TableGen {
            rng,
            inputs,
            memory,
            policy,
            ec: table("yy_ec", ec),
            base: table("yy_base", base),
            chk: table("yy_chk", chk),
            nxt: table("yy_nxt", nxt),
            def: table("yy_def", def),
            small: table("small", small),
        }
    }

    /// The read policy of this generator's reads of inputs and memory.
    pub fn policy(&self) -> ReadPolicy {
        self.policy
    }

    fn input(&mut self) -> UpdateList {
        let i = self.rng.below(self.inputs.len() as u64) as usize;
        self.inputs[i].clone()
    }

    /// An input byte read at a constant index.
    fn input_byte(&mut self) -> Expr {
        let arr = self.input();
        let i = self.rng.below(arr.root().size());
        self.policy.read(&arr, Expr::constant(i as u128, 32))
    }

    /// A 32-bit index from an 8-bit value.
    fn index(v: Expr) -> Expr {
        Expr::zext(v, 32)
    }

    /// A constant table read at a symbolic index (the tables' reads are built as the
    /// engine's memory builds them: folded or not, by the policy).
    fn lookup(&self, table: &UpdateList, index: Expr) -> Expr {
        self.policy.read(table, index)
    }

    /// The scanner's state after one byte from state `s`: `yy_nxt[b + c]` if
    /// `yy_chk[b + c] = s` for `b = yy_base[s]` and `c = yy_ec[byte]`, else `yy_def[s]`.
    fn step(&mut self, s: Expr, byte: Expr) -> Expr {
        let class = self.lookup(&self.ec.clone(), Self::index(byte));
        let base = self.lookup(&self.base.clone(), Self::index(s.clone()));
        let slot = Expr::add(Self::index(base), Self::index(class));
        let owner = self.lookup(&self.chk.clone(), slot.clone());
        let next = self.lookup(&self.nxt.clone(), slot);
        let fallback = self.lookup(&self.def.clone(), Self::index(s.clone()));
        Expr::select(Expr::eq(owner, s), next, fallback)
    }

    /// A byte read of the memory object at a constant index, through 1–3 writes whose
    /// values read other bytes (a third of the writes at a symbolic index).
    fn memory_byte(&mut self, depth: u32) -> Expr {
        let mut mem = self.memory.clone();
        for _ in 0..1 + self.rng.below(3) {
            let value = self.value(8, depth.saturating_sub(1));
            let at = if self.rng.chance(33) {
                Self::index(Expr::and(self.input_byte(), Expr::constant(7, 8)))
            } else {
                Expr::constant(self.rng.below(MEMORY) as u128, 32)
            };
            mem = mem.write(at, value);
        }
        let at = Expr::constant(self.rng.below(MEMORY) as u128, 32);
        self.policy.read(&mem, at)
    }

    /// A value of `width` bits (1 to 64).
    pub fn value(&mut self, width: u32, depth: u32) -> Expr {
        let fit = |e: Expr| Expr::zext_or_trunc(e, width);
        match self.rng.below(if depth == 0 { 5 } else { 14 }) {
            0 => Expr::constant(self.rng.next_u64() as u128 & sear_mask(width), width),
            1 | 2 => {
                let byte = self.input_byte();
                if self.rng.chance(30) {
                    Expr::sext_or_trunc(byte, width)
                } else {
                    fit(byte)
                }
            }
            3 => {
                // A little-endian word of 2–8 bytes.
                let arr = self.input();
                let size = arr.root().size();
                let bytes = (2 + self.rng.below(7)).min(size) as u32;
                let start = self.rng.below(size - bytes as u64 + 1);
                fit(self
                    .policy
                    .read_lsb(&arr, Expr::constant(start as u128, 32), bytes))
            }
            4 => {
                // The scanner after 1–3 bytes from its first state.
                let mut s = Expr::constant(0, 8);
                for _ in 0..1 + self.rng.below(3) {
                    let byte = self.input_byte();
                    s = self.step(s, byte);
                }
                fit(s)
            }
            5 => {
                let byte = self.input_byte();
                fit(self.lookup(&self.ec.clone(), Self::index(byte)))
            }
            6 => fit(self.memory_byte(depth)),
            7 => {
                // A constant table with symbolic writes, read at a symbolic index (in
                // bounds three times in four).
                let mut t = self.small.clone();
                for _ in 0..1 + self.rng.below(2) {
                    let at = Expr::constant(self.rng.below(16) as u128, 32);
                    let v = self.value(8, depth - 1);
                    t = t.write(at, v);
                }
                let mut i = self.input_byte();
                if self.rng.chance(75) {
                    i = Expr::and(i, Expr::constant(15, 8));
                }
                fit(self.lookup(&t, Self::index(i)))
            }
            8 => {
                let c = self.condition(depth - 1);
                let a = self.value(width, depth - 1);
                let b = self.value(width, depth - 1);
                Expr::select(c, a, b)
            }
            9 => {
                // A slice of a wider value.
                let wide = self.value(64, depth - 1);
                let offset = self.rng.below((64 - width + 1) as u64) as u32;
                Expr::extract(wide, offset, width)
            }
            _ => {
                let ops = [
                    BinOp::Add,
                    BinOp::Sub,
                    BinOp::And,
                    BinOp::Or,
                    BinOp::Xor,
                    BinOp::Shl,
                    BinOp::LShr,
                    BinOp::AShr,
                    BinOp::Mul,
                    BinOp::UDiv,
                    BinOp::URem,
                ];
                let mut op = *self.rng.pick(&ops);
                // Products and quotients only up to 16 bits: wider ones are hard for every
                // bit-blasting core and not what these layers are about.
                if width > 16 && matches!(op, BinOp::Mul | BinOp::UDiv | BinOp::URem) {
                    op = BinOp::Add;
                }
                let a = self.value(width, depth - 1);
                let b = match op {
                    BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                        Expr::constant(self.rng.below(width as u64) as u128, width)
                    }
                    BinOp::Mul | BinOp::UDiv | BinOp::URem => Expr::constant(
                        (1 + self.rng.below(20) as u128) & sear_mask(width) | 1,
                        width,
                    ),
                    _ => self.value(width, depth - 1),
                };
                Expr::binary(op, a, b)
            }
        }
    }

    /// A branch condition over values of a random width from 1 to 64 bits.
    pub fn condition(&mut self, depth: u32) -> Expr {
        let width = match self.rng.below(8) {
            0 => 1,
            1..=3 => 8,
            4 => 16,
            5 => 32,
            6 => 64,
            _ => 1 + self.rng.below(64) as u32,
        };
        let a = self.value(width, depth);
        let b = if self.rng.chance(50) {
            Expr::constant(self.rng.next_u64() as u128 & sear_mask(width), width)
        } else {
            self.value(width, depth)
        };
        let op = if width == 1 {
            CmpOp::Eq
        } else {
            *self.rng.pick(&CmpOp::ALL)
        };
        let c = Expr::cmp(op, a, b);
        if self.rng.chance(15) {
            let d = self.condition(0);
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

/// The mask of `width` bits.
fn sear_mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}
