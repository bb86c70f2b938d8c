//! Rewriting float instructions: arithmetic, negation, comparisons and conversions become
//! table calls (the primitive instructions are in F₊, spec §2.9); loads and stores of
//! retyped cells move indices; calls pass indices to retyped program functions and to
//! `math.h` tables, values to everything else.

use sear_ir::{BinaryOp, CastOp, Constant, FloatPredicate, Inst, InstKind, Operand, TypeKind};

use super::analysis::{self, callee_name};
use super::{FnRw, Helper};
use crate::ops::{Arith, Op, Pred};
use crate::value::Ty;

fn pred(p: FloatPredicate) -> Pred {
    use FloatPredicate as F;
    match p {
        F::False => Pred::False,
        F::Oeq => Pred::Oeq,
        F::Ogt => Pred::Ogt,
        F::Oge => Pred::Oge,
        F::Olt => Pred::Olt,
        F::Ole => Pred::Ole,
        F::One => Pred::One,
        F::Ord => Pred::Ord,
        F::Ueq => Pred::Ueq,
        F::Ugt => Pred::Ugt,
        F::Uge => Pred::Uge,
        F::Ult => Pred::Ult,
        F::Ule => Pred::Ule,
        F::Une => Pred::Une,
        F::Uno => Pred::Uno,
        F::True => Pred::True,
    }
}

impl FnRw<'_, '_, '_> {
    /// Emits a table call (rule 6) with index arguments; the result goes to `inst.dest`.
    fn table(&mut self, inst: &Inst, op: Op, args: Vec<Operand>, ret: sear_ir::TypeId) {
        let i32 = self.out.i32();
        let callee = self.out.helper(Helper::Table(op), ret);
        *self.out.stats.table_calls.entry(op.name()).or_default() += 1;
        let args = args.into_iter().map(|a| (a, i32)).collect();
        self.push_call(callee, ret, inst.dest, args);
    }

    fn result_float(&self, inst: &Inst) -> Option<Ty> {
        analysis::float_ty(self.orig, inst.ty, self.scope.float_types)
    }

    /// Rewrites `inst` when a float rule applies; false to leave it to the others.
    pub(super) fn float_inst(&mut self, inst: &Inst) -> bool {
        let i32 = self.out.i32();
        match &inst.kind {
            InstKind::Binary { op, lhs, rhs } => {
                let Some(t) = self.result_float(inst) else {
                    return false;
                };
                let a = match op {
                    BinaryOp::FAdd => Arith::Add,
                    BinaryOp::FSub => Arith::Sub,
                    BinaryOp::FMul => Arith::Mul,
                    BinaryOp::FDiv => Arith::Div,
                    BinaryOp::FRem => Arith::Rem,
                    _ => return false,
                };
                let args = vec![self.ix(*lhs, t), self.ix(*rhs, t)];
                self.table(inst, Op::Arith(a, t), args, i32);
            }
            InstKind::FNeg(v) => {
                let Some(t) = self.result_float(inst) else {
                    return false;
                };
                let args = vec![self.ix(*v, t)];
                self.table(inst, Op::Neg(t), args, i32);
            }
            InstKind::FCmp { pred: p, lhs, rhs } => {
                let Some(t) = self.operand_float(*lhs).or(self.operand_float(*rhs)) else {
                    return false;
                };
                let args = vec![self.ix(*lhs, t), self.ix(*rhs, t)];
                self.table(inst, Op::Cmp(pred(*p), t), args, inst.ty);
            }
            InstKind::Cast { op, value, from } => return self.float_cast(inst, *op, *value, *from),
            InstKind::Select {
                cond,
                then_value,
                else_value,
            } => {
                let Some(t) = self.result_float(inst) else {
                    return false;
                };
                let kind = InstKind::Select {
                    cond: *cond,
                    then_value: self.ix(*then_value, t),
                    else_value: self.ix(*else_value, t),
                };
                self.insts.push(Inst {
                    kind,
                    ty: i32,
                    ..inst.clone()
                });
            }
            InstKind::Freeze(v) => {
                let Some(t) = self.result_float(inst) else {
                    return false;
                };
                let kind = InstKind::Freeze(self.ix(*v, t));
                self.insts.push(Inst {
                    kind,
                    ty: i32,
                    ..inst.clone()
                });
            }
            InstKind::Alloca { count, .. } => {
                let Some(d) = inst.dest else { return false };
                if !self.facts.float_cells.contains_key(&d) {
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
            InstKind::Load { ptr, volatile, .. } => {
                let Some(t) = self.result_float(inst) else {
                    return false;
                };
                if self.retyped_float_cell(*ptr) {
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
                } else {
                    let d = inst.dest.expect("loads have results");
                    self.produce(inst.clone(), d, t);
                }
            }
            InstKind::Store {
                ptr,
                value,
                value_ty,
                align,
            } => {
                let Some(t) = analysis::float_ty(self.orig, *value_ty, self.scope.float_types)
                else {
                    return false;
                };
                let kind = if self.retyped_float_cell(*ptr) {
                    InstKind::Store {
                        ptr: *ptr,
                        value: self.ix(*value, t),
                        value_ty: i32,
                        align: 4,
                    }
                } else {
                    InstKind::Store {
                        ptr: *ptr,
                        value: self.val(*value, t),
                        value_ty: *value_ty,
                        align: *align,
                    }
                };
                self.insts.push(Inst {
                    kind,
                    ..inst.clone()
                });
            }
            InstKind::Call { .. } => return self.float_call(inst),
            _ => return false,
        }
        true
    }

    /// True when `ptr` is a retyped float cell or global.
    fn retyped_float_cell(&self, ptr: Operand) -> bool {
        match ptr {
            Operand::Slot(s) => self.facts.float_cells.contains_key(&s),
            Operand::Const(c) => matches!(self.orig.constant(c),
                Constant::GlobalAddr(g) if self.a.float_globals.contains_key(g)),
        }
    }

    /// Casts: to and from ints through tables (fptosi/fptoui) or δ after the cast
    /// (sitofp/uitofp, bitcasts); fpext/fptrunc between indexed types through tables;
    /// anything else to or from a float unindexes before / indexes after.
    fn float_cast(
        &mut self,
        inst: &Inst,
        op: CastOp,
        value: Operand,
        from: sear_ir::TypeId,
    ) -> bool {
        let types = self.scope.float_types;
        let src = analysis::float_ty(self.orig, from, types);
        let dst = self.result_float(inst);
        if src.is_none() && dst.is_none() {
            return false;
        }
        let i32 = self.out.i32();
        match (op, src, dst) {
            (CastOp::FpToSi | CastOp::FpToUi, Some(t), None) => {
                let TypeKind::Int(width) = self.orig.ty(inst.ty).kind else {
                    self.generic(inst.clone());
                    return true;
                };
                let to = Op::ToInt {
                    signed: op == CastOp::FpToSi,
                    width,
                    from: t,
                };
                let args = vec![self.ix(value, t)];
                self.table(inst, to, args, inst.ty);
            }
            (CastOp::FpExt, Some(Ty::F32), Some(Ty::F64)) => {
                let args = vec![self.ix(value, Ty::F32)];
                self.table(inst, Op::Ext, args, i32);
            }
            (CastOp::FpTrunc, Some(Ty::F64), Some(Ty::F32)) => {
                let args = vec![self.ix(value, Ty::F64)];
                self.table(inst, Op::Trunc, args, i32);
            }
            _ => self.generic(inst.clone()),
        }
        true
    }

    /// Calls with float arguments or results.
    fn float_call(&mut self, inst: &Inst) -> bool {
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
        let name = callee_name(self.orig, &inst.kind);
        if name == Some("klee_make_symbolic") {
            return self.float_make_symbolic(inst, args, arg_types);
        }
        if let Some(op @ Op::Math(_, t)) = name.and_then(Op::for_callee) {
            let defined = name.is_some_and(|n| self.scope.program_names.contains(n));
            if self.scope.fplus.contains(&op) && !defined && self.scope.float_types.contains(&t) {
                let ix = args.iter().map(|a| self.ix(*a, t)).collect();
                self.table(inst, op, ix, i32);
                return true;
            }
        }
        let retyped =
            matches!(callee, sear_ir::Callee::Direct(g) if self.a.retyped_sig.contains(g));
        if !retyped {
            return false; // generic: values in, δ of a float result
        }
        let sear_ir::Callee::Direct(g) = callee else {
            unreachable!()
        };
        let params = &self.orig.function(*g).params;
        let mut new_args = Vec::with_capacity(args.len());
        let mut new_types = Vec::with_capacity(args.len());
        for (i, (a, t)) in args.iter().zip(arg_types).enumerate() {
            let ft = params
                .get(i)
                .and_then(|p| analysis::float_ty(self.orig, *p, self.scope.float_types));
            match ft {
                Some(ft) => {
                    new_args.push(self.ix(*a, ft));
                    new_types.push(i32);
                }
                None => {
                    let v = match self.operand_float(*a) {
                        Some(at) => self.val(*a, at),
                        None => *a,
                    };
                    new_args.push(v);
                    new_types.push(*t);
                }
            }
        }
        let ty = if self.result_float(inst).is_some() {
            i32
        } else {
            inst.ty
        };
        self.insts.push(Inst {
            kind: InstKind::Call {
                callee: *callee,
                args: new_args,
                arg_types: new_types,
                byval: byval.clone(),
            },
            dest: inst.dest,
            ty,
            loc: inst.loc,
        });
        true
    }

    /// `klee_make_symbolic` of a float variable: a retyped cell gets a symbolic index, a
    /// cell whose address escapes (or a global) holds δ⁻¹ of one.
    fn float_make_symbolic(
        &mut self,
        inst: &Inst,
        args: &[Operand],
        arg_types: &[sear_ir::TypeId],
    ) -> bool {
        let Some(&p) = args.first() else {
            return false;
        };
        let root = analysis::root(self.orig, self.f, p);
        let helper = match root {
            Operand::Slot(s) => {
                if let Some(&t) = self.facts.float_cells.get(&s) {
                    Helper::SymbolicIndex(t)
                } else {
                    match self.alloca_float(s) {
                        Some(t) => Helper::SymbolicValue(t),
                        None => return false,
                    }
                }
            }
            Operand::Const(c) => match self.orig.constant(c) {
                Constant::GlobalAddr(g) => {
                    let global = self.orig.global(*g);
                    match analysis::float_ty(self.orig, global.ty, self.scope.float_types) {
                        Some(t) if self.a.float_globals.contains_key(g) => Helper::SymbolicIndex(t),
                        Some(t) => Helper::SymbolicValue(t),
                        None => return false,
                    }
                }
                _ => return false,
            },
        };
        let void = inst.ty;
        let callee = self.out.helper(helper, void);
        self.out.stats.symbolic_inputs += 1;
        self.push_call(
            callee,
            void,
            None,
            args.iter()
                .copied()
                .zip(arg_types.iter().copied())
                .collect(),
        );
        true
    }

    /// The float type of an `alloca` of one float.
    fn alloca_float(&self, s: sear_ir::Slot) -> Option<Ty> {
        let func = self.orig.function(self.f);
        let def = func
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .find(|i| i.dest == Some(s))?;
        match &def.kind {
            InstKind::Alloca { elem, .. } => {
                analysis::float_ty(self.orig, *elem, self.scope.float_types)
            }
            _ => None,
        }
    }
}
