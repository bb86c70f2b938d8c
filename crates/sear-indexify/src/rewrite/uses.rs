//! Operand traversal: every operand of an instruction, phi or terminator with the role it
//! plays, so the analyses can tell a load's address from a stored value or a call argument.

use sear_ir::{Block, Callee, InstKind, Operand, Terminator};

/// How an instruction uses an operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The address of a load.
    LoadPtr,
    /// The address of a store.
    StorePtr,
    /// The value a store writes.
    StoreValue,
    /// Argument `i` of a call.
    CallArg(usize),
    /// The base pointer of a `getelementptr` with no offset and no variable index.
    ZeroGep,
    /// Operand of an integer comparison with the null pointer.
    NullCmp,
    /// Anything else.
    Other,
}

/// Calls `f` with a mutable reference to every operand of `kind` and its role.
pub fn map_operands(kind: &mut InstKind, mut f: impl FnMut(&mut Operand, Role)) {
    use InstKind::*;
    match kind {
        Binary { lhs, rhs, .. } | FCmp { lhs, rhs, .. } => {
            f(lhs, Role::Other);
            f(rhs, Role::Other);
        }
        ICmp { lhs, rhs, .. } => {
            let null = |o: &Operand| matches!(o, Operand::Const(_));
            let (lr, rr) = if null(&*rhs) && !null(&*lhs) {
                (Role::NullCmp, Role::Other)
            } else if null(&*lhs) && !null(&*rhs) {
                (Role::Other, Role::NullCmp)
            } else {
                (Role::Other, Role::Other)
            };
            f(lhs, lr);
            f(rhs, rr);
        }
        FNeg(v) | Freeze(v) => f(v, Role::Other),
        Cast { value, .. } => f(value, Role::Other),
        Select {
            cond,
            then_value,
            else_value,
        } => {
            f(cond, Role::Other);
            f(then_value, Role::Other);
            f(else_value, Role::Other);
        }
        Alloca { count, .. } => f(count, Role::Other),
        Load { ptr, .. } => f(ptr, Role::LoadPtr),
        Store { ptr, value, .. } => {
            f(ptr, Role::StorePtr);
            f(value, Role::StoreValue);
        }
        Gep {
            base,
            offset,
            indices,
        } => {
            let role = if *offset == 0 && indices.is_empty() {
                Role::ZeroGep
            } else {
                Role::Other
            };
            f(base, role);
            for (i, _) in indices.iter_mut() {
                f(i, Role::Other);
            }
        }
        ExtractValue { agg, .. } => f(agg, Role::Other),
        InsertValue { agg, value, .. } => {
            f(agg, Role::Other);
            f(value, Role::Other);
        }
        ExtractElement { vector, index } => {
            f(vector, Role::Other);
            f(index, Role::Other);
        }
        InsertElement {
            vector,
            element,
            index,
        } => {
            f(vector, Role::Other);
            f(element, Role::Other);
            f(index, Role::Other);
        }
        ShuffleVector { a, b, .. } => {
            f(a, Role::Other);
            f(b, Role::Other);
        }
        Call { callee, args, .. } => {
            if let Callee::Indirect(op) = callee {
                f(op, Role::Other);
            }
            for (i, a) in args.iter_mut().enumerate() {
                f(a, Role::CallArg(i));
            }
        }
        VaArg { list } => f(list, Role::Other),
        AtomicRmw { ptr, value, .. } => {
            f(ptr, Role::Other);
            f(value, Role::Other);
        }
        CmpXchg {
            ptr,
            expected,
            replacement,
        } => {
            f(ptr, Role::Other);
            f(expected, Role::Other);
            f(replacement, Role::Other);
        }
        Nop | Unsupported(_) | LandingPad { .. } => {}
    }
}

/// Calls `f` with every operand of `kind` and its role.
pub fn inst_operands(kind: &InstKind, mut f: impl FnMut(Operand, Role)) {
    let mut copy = kind.clone();
    map_operands(&mut copy, |op, role| f(*op, role));
}

/// Calls `f` with every operand of a block's phis and terminator (all [`Role::Other`]).
pub fn block_operands(block: &Block, mut f: impl FnMut(Operand)) {
    for phi in &block.phis {
        for (_, v) in &phi.incoming {
            f(*v);
        }
    }
    match &block.term {
        Terminator::Ret(Some(v)) => f(*v),
        Terminator::CondBr { cond, .. } => f(*cond),
        Terminator::Switch { value, .. } => f(*value),
        Terminator::IndirectBr { address, .. } => f(*address),
        Terminator::Resume(v) => f(*v),
        _ => {}
    }
}
