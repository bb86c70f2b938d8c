//! Liveness of a function's variables (seed 003 §6.3, the incremental merging's "same
//! symbolic store w.r.t. live variables"): a standard backward data-flow analysis over the
//! value slots and the *promotable* allocas.
//!
//! At `-O0` clang keeps every local variable in an `alloca` and touches it only through
//! loads and stores, so register liveness alone would see nothing. An alloca of the entry
//! block whose pointer is used only as the address of loads and stores (it never escapes)
//! is treated as a variable: a load of it is a use, a store of its whole element type a
//! definition. Every other alloca is live everywhere.
//!
//! [`Liveness::live_at`] answers for a program point `(block, inst)` (`inst` =
//! `insts.len()` is the terminator), as the executor sees it: phi nodes of the block have
//! already been evaluated at `(block, 0)`.

use rustc_hash::FxHashMap;

use crate::ir::{BlockId, Function, Inst, InstKind, Operand, Terminator, TypeId};

/// A variable: a value slot, or a promotable alloca (named by its slot).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// A value slot (an SSA register).
    Slot(u32),
    /// The memory of the promotable alloca whose pointer is in this slot.
    Alloca(u32),
}

/// The live variables at one program point.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveSet {
    bits: Vec<u64>,
}

impl LiveSet {
    fn with_len(n: usize) -> Self {
        LiveSet {
            bits: vec![0; n.div_ceil(64)],
        }
    }
    fn set(&mut self, i: usize, on: bool) {
        if on {
            self.bits[i / 64] |= 1 << (i % 64);
        } else {
            self.bits[i / 64] &= !(1 << (i % 64));
        }
    }
    fn get(&self, i: usize) -> bool {
        self.bits
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    fn union(&mut self, other: &LiveSet) -> bool {
        let mut changed = false;
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
}

/// The liveness of one function.
#[derive(Clone, Debug)]
pub struct Liveness {
    slots: usize,
    /// Promotable allocas: their slot and their element type.
    promotable: FxHashMap<u32, TypeId>,
    /// Live variables at the start of each block's instructions (after its phis).
    block_in: Vec<LiveSet>,
    /// Live variables at the end of each block (before its terminator's uses).
    block_out: Vec<LiveSet>,
    /// The allocas of the entry block, in execution order (their slots); empty when the
    /// function has allocas elsewhere too.
    entry_allocas: Vec<u32>,
}

impl Liveness {
    /// Computes the liveness of `f` (a function with a body).
    pub fn new(f: &Function) -> Self {
        let slots = f.num_slots as usize;
        let (promotable, entry_allocas) = promotable_allocas(f);
        let n = f.blocks.len();
        let mut live = Liveness {
            slots,
            promotable,
            block_in: vec![LiveSet::with_len(2 * slots); n],
            block_out: vec![LiveSet::with_len(2 * slots); n],
            entry_allocas,
        };
        let mut changed = true;
        while changed {
            changed = false;
            for b in (0..n).rev() {
                let mut out = LiveSet::with_len(2 * slots);
                for s in f.blocks[b].term.successors() {
                    let succ = &f.blocks[s.0 as usize];
                    let mut inn = live.block_in[s.0 as usize].clone();
                    for phi in &succ.phis {
                        inn.set(phi.dest.0 as usize, false);
                    }
                    for phi in &succ.phis {
                        for (pred, op) in &phi.incoming {
                            if pred.0 as usize == b {
                                live.use_operand(&mut inn, op);
                            }
                        }
                    }
                    out.union(&inn);
                }
                let inn = live.backward(f, BlockId(b as u32), 0, out.clone());
                changed |= live.block_out[b].union(&out);
                changed |= live.block_in[b].union(&inn);
            }
        }
        live
    }

    fn index(&self, v: Var) -> usize {
        match v {
            Var::Slot(s) => s as usize,
            Var::Alloca(s) => self.slots + s as usize,
        }
    }

    fn use_operand(&self, set: &mut LiveSet, op: &Operand) {
        if let Operand::Slot(s) = op {
            set.set(s.0 as usize, true);
        }
    }

    /// The live set before instruction `from` of `block`, given the set live at its end.
    fn backward(&self, f: &Function, block: BlockId, from: usize, mut set: LiveSet) -> LiveSet {
        let b = &f.blocks[block.0 as usize];
        match &b.term {
            Terminator::Ret(Some(op))
            | Terminator::CondBr { cond: op, .. }
            | Terminator::Switch { value: op, .. }
            | Terminator::IndirectBr { address: op, .. } => self.use_operand(&mut set, op),
            _ => {}
        }
        for inst in b.insts[from.min(b.insts.len())..].iter().rev() {
            self.transfer(&mut set, inst);
        }
        set
    }

    fn transfer(&self, set: &mut LiveSet, inst: &Inst) {
        if let Some(d) = inst.dest {
            set.set(d.0 as usize, false);
        }
        match &inst.kind {
            InstKind::Store {
                ptr: Operand::Slot(p),
                value,
                ..
            } if self.promotable.contains_key(&p.0) => {
                if self.kills(inst, p.0) {
                    set.set(self.index(Var::Alloca(p.0)), false);
                }
                self.use_operand(set, value);
            }
            InstKind::Load {
                ptr: Operand::Slot(p),
                ..
            } if self.promotable.contains_key(&p.0) => {
                set.set(self.index(Var::Alloca(p.0)), true);
            }
            kind => {
                for op in kind.operands() {
                    self.use_operand(set, op);
                }
            }
        }
    }

    /// True when `store` writes the whole of the promotable alloca in slot `a`.
    fn kills(&self, store: &Inst, a: u32) -> bool {
        match &store.kind {
            InstKind::Store { value_ty, .. } => self.promotable.get(&a) == Some(value_ty),
            _ => false,
        }
    }

    /// True when `v` is live before instruction `inst` of `block` (`inst` = the number of
    /// instructions: before the terminator).
    pub fn live_at(&self, f: &Function, block: BlockId, inst: usize, v: Var) -> bool {
        let set = self.backward(f, block, inst, self.block_out[block.0 as usize].clone());
        set.get(self.index(v))
    }

    /// The live set before `(block, inst)`, for repeated questions at one point.
    pub fn live_set(&self, f: &Function, block: BlockId, inst: usize) -> LiveSet {
        self.backward(f, block, inst, self.block_out[block.0 as usize].clone())
    }

    /// True when `v` is in `set` (a set from [`Liveness::live_set`] of this function).
    pub fn contains(&self, set: &LiveSet, v: Var) -> bool {
        set.get(self.index(v))
    }

    /// True when the alloca in slot `a` is promotable (a variable of the analysis).
    pub fn is_promotable(&self, a: u32) -> bool {
        self.promotable.contains_key(&a)
    }

    /// The entry block's allocas in execution order (their slots): a frame's `k`-th alloca
    /// is the `k`-th of them when the function has no other alloca.
    pub fn entry_allocas(&self) -> &[u32] {
        &self.entry_allocas
    }
}

/// The promotable allocas of `f` (slot and element type), and the entry block's allocas in
/// order (empty when there are allocas in other blocks).
fn promotable_allocas(f: &Function) -> (FxHashMap<u32, TypeId>, Vec<u32>) {
    let mut candidates: FxHashMap<u32, TypeId> = FxHashMap::default();
    let mut entry = Vec::new();
    let mut elsewhere = false;
    for (b, block) in f.blocks.iter().enumerate() {
        for inst in &block.insts {
            if let (InstKind::Alloca { elem, .. }, Some(d)) = (&inst.kind, inst.dest) {
                if b == 0 {
                    entry.push(d.0);
                    candidates.insert(d.0, *elem);
                } else {
                    elsewhere = true;
                }
            }
        }
    }
    // Every use other than the address of a load or store lets the pointer escape.
    let escaped = |op: &Operand, candidates: &mut FxHashMap<u32, TypeId>| {
        if let Operand::Slot(s) = op {
            candidates.remove(&s.0);
        }
    };
    for block in &f.blocks {
        for phi in &block.phis {
            for (_, op) in &phi.incoming {
                escaped(op, &mut candidates);
            }
        }
        for inst in &block.insts {
            match &inst.kind {
                InstKind::Load {
                    volatile: false, ..
                } => {}
                InstKind::Store { value, .. } => escaped(value, &mut candidates),
                kind => kind
                    .operands()
                    .into_iter()
                    .for_each(|op| escaped(op, &mut candidates)),
            }
        }
        match &block.term {
            Terminator::Ret(Some(op))
            | Terminator::CondBr { cond: op, .. }
            | Terminator::Switch { value: op, .. }
            | Terminator::IndirectBr { address: op, .. } => escaped(op, &mut candidates),
            _ => {}
        }
    }
    if elsewhere {
        entry.clear();
    }
    (candidates, entry)
}
