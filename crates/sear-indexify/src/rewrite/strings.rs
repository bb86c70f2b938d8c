//! Rewriting string code: calls to `string.h` functions in F₊ become table calls whose
//! string arguments are indices where the rewriter knows them (literals, retyped `char *`
//! cells) and pointers otherwise (the engine applies δ to the string in memory there, and
//! falls back to the original function when the string is not in the index world);
//! retyped `char *` cells hold indices; string buffers made symbolic hold δ⁻¹ of a
//! symbolic index.

use sear_ir::{Constant, Inst, InstKind, Operand, TypeKind};

use super::analysis::{self, callee_name};
use super::{FnRw, Helper};
use crate::harvest::string_constant;
use crate::ops::Param;
use crate::value::{GValue, Ty};

impl FnRw<'_, '_, '_> {
    fn str_cell(&self, ptr: Operand) -> bool {
        match ptr {
            Operand::Slot(s) => self.facts.str_cells.contains(&s),
            Operand::Const(c) => matches!(self.orig.constant(c),
                Constant::GlobalAddr(g) if self.a.str_globals.contains(g)),
        }
    }

    fn str_index(&self, op: Operand) -> bool {
        matches!(op, Operand::Slot(s) if self.facts.str_loads.contains(&s))
    }

    /// The index form of a string operand, if it has one: a literal's index (rule 4), NULL,
    /// or a value loaded from a retyped cell.
    fn str_ix(&mut self, op: Operand) -> Option<Operand> {
        match op {
            Operand::Const(c) => {
                if let Some(s) = string_constant(self.orig, c) {
                    return Some(self.out.literal(&GValue::Str(s)));
                }
                matches!(self.orig.constant(c), Constant::Null | Constant::Zero(_))
                    .then(|| self.out.null_index())
            }
            Operand::Slot(_) if self.str_index(op) => Some(op),
            Operand::Slot(_) => None,
        }
    }

    /// Rewrites `inst` when a string rule applies; false to leave it to the generic rule.
    pub(super) fn string_inst(&mut self, inst: &Inst) -> bool {
        let i32 = self.out.i32();
        match &inst.kind {
            InstKind::Alloca { count, .. } => {
                if !inst.dest.is_some_and(|d| self.facts.str_cells.contains(&d)) {
                    return false;
                }
                let kind = InstKind::Alloca {
                    elem: i32,
                    count: *count,
                    align: 4,
                };
                self.insts.push(Inst {
                    kind,
                    ..inst.clone()
                });
            }
            InstKind::Load { ptr, volatile, .. } if self.str_cell(*ptr) => {
                let kind = InstKind::Load {
                    ptr: *ptr,
                    align: 4,
                    volatile: *volatile,
                };
                self.insts.push(Inst {
                    kind,
                    ty: i32,
                    ..inst.clone()
                });
            }
            InstKind::Store { ptr, value, .. } if self.str_cell(*ptr) => {
                let value = self.str_ix(*value).expect("analysis: cells hold indices");
                let kind = InstKind::Store {
                    ptr: *ptr,
                    value,
                    value_ty: i32,
                    align: 4,
                };
                self.insts.push(Inst {
                    kind,
                    ..inst.clone()
                });
            }
            InstKind::ICmp { pred, lhs, rhs } if self.str_index(*lhs) || self.str_index(*rhs) => {
                let null = self.out.null_index();
                let (lhs, rhs) = if self.str_index(*lhs) {
                    (*lhs, null)
                } else {
                    (null, *rhs)
                };
                let kind = InstKind::ICmp {
                    pred: *pred,
                    lhs,
                    rhs,
                };
                self.insts.push(Inst {
                    kind,
                    ..inst.clone()
                });
            }
            InstKind::Call { .. } => return self.string_call(inst),
            _ => return false,
        }
        true
    }

    fn string_call(&mut self, inst: &Inst) -> bool {
        let InstKind::Call {
            callee,
            args,
            arg_types,
            byval,
        } = &inst.kind
        else {
            return false;
        };
        let i32 = self.out.i32();
        if callee_name(self.orig, &inst.kind) == Some("klee_make_symbolic") {
            return self.string_make_symbolic(inst, args, arg_types);
        }
        if let Some(op) = self.scope.string_op(self.orig, &inst.kind) {
            let params = op.params();
            // strcpy/strcat write into their first argument: it must stay a pointer
            if op.writes_first() && args.first().is_some_and(|a| self.str_ix(*a).is_some()) {
                return false;
            }
            let mut new = Vec::with_capacity(args.len());
            for (i, (a, t)) in args.iter().zip(arg_types).enumerate() {
                let indexed =
                    params.get(i) == Some(&Param::Idx(Ty::Str)) && !(op.writes_first() && i == 0);
                match indexed.then(|| self.str_ix(*a)).flatten() {
                    Some(ix) => new.push((ix, i32)),
                    None => new.push((*a, *t)),
                }
            }
            let h = self.out.helper(Helper::Table(op), inst.ty);
            *self.out.stats.table_calls.entry(op.name()).or_default() += 1;
            self.push_call(h, inst.ty, inst.dest, new);
            return true;
        }
        // another function given a value loaded from a retyped cell: δ⁻¹ (rule 8)
        if !args.iter().any(|a| self.str_index(*a)) {
            return false;
        }
        let ptr = self.out.ty(TypeKind::Ptr);
        let mut new_args = Vec::with_capacity(args.len());
        for a in args {
            if self.str_index(*a) {
                self.out.stats.undeltas += 1;
                let r = self
                    .call_helper(Helper::Undelta(Ty::Str), ptr, vec![(*a, i32)])
                    .expect("undelta has a result");
                new_args.push(Operand::Slot(r));
            } else {
                new_args.push(*a);
            }
        }
        let mut call = inst.clone();
        call.kind = InstKind::Call {
            callee: *callee,
            args: new_args,
            arg_types: arg_types.clone(),
            byval: byval.clone(),
        };
        self.generic(call);
        true
    }

    /// `klee_make_symbolic` of a buffer used as a string: δ⁻¹ of a symbolic index.
    fn string_make_symbolic(
        &mut self,
        inst: &Inst,
        args: &[Operand],
        arg_types: &[sear_ir::TypeId],
    ) -> bool {
        let Some(&p) = args.first() else {
            return false;
        };
        // a char array (or a buffer of unknown type, e.g. from malloc) used as a string; a
        // struct whose first field is a string is not a string
        let char_array = |t: sear_ir::TypeId| match self.orig.ty(t).kind {
            TypeKind::Array { elem, .. } => self.orig.ty(elem).kind == TypeKind::Int(8),
            _ => false,
        };
        let string = match analysis::root(self.orig, self.f, p) {
            Operand::Slot(s) => {
                self.facts.string_slots.contains(&s)
                    && analysis::alloca_type(self.orig, self.f, s).is_none_or(char_array)
            }
            Operand::Const(c) => matches!(self.orig.constant(c),
                Constant::GlobalAddr(g) if self.a.string_globals.contains(g)
                    && char_array(self.orig.global(*g).ty)),
        };
        if !string {
            return false;
        }
        let h = self.out.helper(Helper::SymbolicValue(Ty::Str), inst.ty);
        self.out.stats.symbolic_inputs += 1;
        let args = args
            .iter()
            .copied()
            .zip(arg_types.iter().copied())
            .collect();
        self.push_call(h, inst.ty, None, args);
        true
    }
}
