//! The verifier: checks the invariants the executor relies on in a lowered module.
//!
//! Invariants checked:
//! * every type, constant, function, global, file, block and slot id is in range;
//! * constants only refer to constants created before them (so the table is acyclic);
//! * struct types have one offset per field;
//! * a function has blocks exactly when it is not a declaration;
//! * every slot is assigned at most once (parameters included), every non-void
//!   instruction has a destination and no void instruction has one;
//! * phi incoming blocks are predecessors of the phi's block (blocks ending in an
//!   unsupported terminator, whose successors are unknown, are accepted as predecessors);
//! * call argument and argument-type lists have the same length.

use crate::error::IrError;
use crate::ir::*;

/// Checks a lowered module; the error names the first broken invariant and where.
pub fn verify(module: &Module) -> Result<(), IrError> {
    let v = Verifier { m: module };
    v.types()?;
    v.constants()?;
    v.globals()?;
    for (index, function) in module.functions.iter().enumerate() {
        v.function(function)
            .map_err(|e| IrError::Verify(format!("function #{index} @{}: {e}", function.name)))?;
    }
    for (name, &id) in &module.function_index {
        v.func(id)?;
        if module.function(id).name != *name {
            return Err(err(format!(
                "function_index maps {name} to another function"
            )));
        }
    }
    for (name, &id) in &module.global_index {
        v.global(id)?;
        if module.global(id).name != *name {
            return Err(err(format!("global_index maps {name} to another global")));
        }
    }
    for &id in module.aliases.values() {
        v.constant(id)?;
    }
    Ok(())
}

fn err(message: String) -> IrError {
    IrError::Verify(message)
}

struct Verifier<'a> {
    m: &'a Module,
}

impl Verifier<'_> {
    fn ty(&self, id: TypeId) -> Result<(), IrError> {
        if (id.0 as usize) < self.m.types.len() {
            Ok(())
        } else {
            Err(err(format!("type id {} out of range", id.0)))
        }
    }

    fn constant(&self, id: ConstId) -> Result<(), IrError> {
        if (id.0 as usize) < self.m.constants.len() {
            Ok(())
        } else {
            Err(err(format!("constant id {} out of range", id.0)))
        }
    }

    fn func(&self, id: FuncId) -> Result<(), IrError> {
        if (id.0 as usize) < self.m.functions.len() {
            Ok(())
        } else {
            Err(err(format!("function id {} out of range", id.0)))
        }
    }

    fn global(&self, id: GlobalId) -> Result<(), IrError> {
        if (id.0 as usize) < self.m.globals.len() {
            Ok(())
        } else {
            Err(err(format!("global id {} out of range", id.0)))
        }
    }

    fn loc(&self, loc: &Option<Loc>) -> Result<(), IrError> {
        match loc {
            Some(l) if (l.file.0 as usize) >= self.m.files.len() => {
                Err(err(format!("file id {} out of range", l.file.0)))
            }
            _ => Ok(()),
        }
    }

    fn types(&self) -> Result<(), IrError> {
        for (index, info) in self.m.types.iter().enumerate() {
            let at = |e: IrError| err(format!("type #{index}: {e}"));
            match &info.kind {
                TypeKind::Array { elem, .. } | TypeKind::Vector { elem, .. } => {
                    self.ty(*elem).map_err(at)?
                }
                TypeKind::Struct { fields, .. } => {
                    for &f in fields {
                        self.ty(f).map_err(at)?;
                    }
                    if info.size > 0 && info.field_offsets.len() != fields.len() {
                        return Err(err(format!("type #{index}: struct without field offsets")));
                    }
                }
                _ => {}
            }
            if info.align == 0 {
                return Err(err(format!("type #{index}: alignment 0")));
            }
        }
        Ok(())
    }

    fn constants(&self) -> Result<(), IrError> {
        for (index, c) in self.m.constants.iter().enumerate() {
            let earlier = |id: ConstId| {
                if (id.0 as usize) < index {
                    Ok(())
                } else {
                    Err(err(format!(
                        "constant #{index} refers to later constant {}",
                        id.0
                    )))
                }
            };
            let at = |e: IrError| err(format!("constant #{index}: {e}"));
            match c {
                Constant::Undef(t) | Constant::Zero(t) => self.ty(*t).map_err(at)?,
                Constant::GlobalAddr(g) => self.global(*g).map_err(at)?,
                Constant::FuncAddr(f) | Constant::BlockAddr(f, _) => self.func(*f).map_err(at)?,
                Constant::Aggregate { ty, elems } => {
                    self.ty(*ty).map_err(at)?;
                    for &e in elems {
                        earlier(e)?;
                    }
                }
                Constant::PtrOffset { base, .. } => earlier(*base)?,
                Constant::Cast { value, to, .. } => {
                    earlier(*value)?;
                    self.ty(*to).map_err(at)?;
                }
                Constant::Binary { lhs, rhs, .. } | Constant::ICmp { lhs, rhs, .. } => {
                    earlier(*lhs)?;
                    earlier(*rhs)?;
                }
                Constant::Select {
                    cond,
                    then_value,
                    else_value,
                } => {
                    earlier(*cond)?;
                    earlier(*then_value)?;
                    earlier(*else_value)?;
                }
                Constant::Int { .. }
                | Constant::Float { .. }
                | Constant::Null
                | Constant::Metadata(_)
                | Constant::Unsupported(_) => {}
            }
        }
        Ok(())
    }

    fn globals(&self) -> Result<(), IrError> {
        for g in &self.m.globals {
            let at = |e: IrError| err(format!("global @{}: {e}", g.name));
            self.ty(g.ty).map_err(at)?;
            if let Some(init) = g.init {
                self.constant(init).map_err(at)?;
            }
            self.loc(&g.loc).map_err(at)?;
        }
        Ok(())
    }

    fn function(&self, f: &Function) -> Result<(), IrError> {
        for &p in &f.params {
            self.ty(p)?;
        }
        self.ty(f.ret)?;
        self.loc(&f.loc)?;
        if f.is_declaration != f.blocks.is_empty() {
            return Err(err(format!(
                "is_declaration is {} but the function has {} blocks",
                f.is_declaration,
                f.blocks.len()
            )));
        }
        if f.is_declaration {
            return Ok(());
        }
        if (f.num_slots as usize) < f.params.len() {
            return Err(err("fewer slots than parameters".into()));
        }
        let mut assigned = vec![false; f.num_slots as usize];
        assigned[..f.params.len()].fill(true);
        let preds = predecessors(f);
        let checker = FnChecker {
            v: self,
            f,
            preds: &preds,
        };
        for (index, block) in f.blocks.iter().enumerate() {
            checker
                .block(index, block, &mut assigned)
                .map_err(|e| err(format!("block #{index} ({}): {e}", block.name)))?;
        }
        Ok(())
    }
}

/// Predecessor lists; `None` for a block with an unsupported terminator (successors
/// unknown), which may precede anything.
fn predecessors(f: &Function) -> Vec<Vec<Option<BlockId>>> {
    let mut preds = vec![Vec::new(); f.blocks.len()];
    for (index, block) in f.blocks.iter().enumerate() {
        let from = BlockId(index as u32);
        match &block.term {
            Terminator::Unsupported(_) => {
                for p in preds.iter_mut() {
                    p.push(None);
                }
            }
            term => {
                for to in successors(term) {
                    if let Some(p) = preds.get_mut(to.0 as usize) {
                        p.push(Some(from));
                    }
                }
            }
        }
    }
    preds
}

/// The blocks a terminator may branch to.
pub(crate) fn successors(term: &Terminator) -> Vec<BlockId> {
    match term {
        Terminator::Br(b) => vec![*b],
        Terminator::CondBr {
            then_block,
            else_block,
            ..
        } => vec![*then_block, *else_block],
        Terminator::Switch { default, cases, .. } => std::iter::once(*default)
            .chain(cases.iter().map(|&(_, b)| b))
            .collect(),
        Terminator::IndirectBr { targets, .. } => targets.clone(),
        Terminator::Invoke { normal, unwind } => vec![*normal, *unwind],
        Terminator::Ret(_)
        | Terminator::Unreachable
        | Terminator::Resume(_)
        | Terminator::Unsupported(_) => Vec::new(),
    }
}

struct FnChecker<'a, 'v> {
    v: &'a Verifier<'v>,
    f: &'a Function,
    preds: &'a [Vec<Option<BlockId>>],
}

impl FnChecker<'_, '_> {
    fn slot(&self, s: Slot) -> Result<(), IrError> {
        if s.0 < self.f.num_slots {
            Ok(())
        } else {
            Err(err(format!(
                "slot {} out of range (num_slots {})",
                s.0, self.f.num_slots
            )))
        }
    }

    fn operand(&self, op: &Operand) -> Result<(), IrError> {
        match op {
            Operand::Slot(s) => self.slot(*s),
            Operand::Const(c) => self.v.constant(*c),
        }
    }

    fn block_id(&self, b: BlockId) -> Result<(), IrError> {
        if (b.0 as usize) < self.f.blocks.len() {
            Ok(())
        } else {
            Err(err(format!("block id {} out of range", b.0)))
        }
    }

    fn define(&self, s: Slot, assigned: &mut [bool]) -> Result<(), IrError> {
        self.slot(s)?;
        if std::mem::replace(&mut assigned[s.0 as usize], true) {
            return Err(err(format!("slot {} assigned twice", s.0)));
        }
        Ok(())
    }

    fn block(&self, index: usize, block: &Block, assigned: &mut [bool]) -> Result<(), IrError> {
        for phi in &block.phis {
            self.define(phi.dest, assigned)?;
            self.v.ty(phi.ty)?;
            for (pred, value) in &phi.incoming {
                self.block_id(*pred)?;
                self.operand(value)?;
                let known = &self.preds[index];
                if !known.contains(&Some(*pred)) && !known.contains(&None) {
                    return Err(err(format!(
                        "phi %s{} has incoming block {} which is not a predecessor",
                        phi.dest.0, pred.0
                    )));
                }
            }
        }
        for (i, inst) in block.insts.iter().enumerate() {
            self.inst(inst, assigned)
                .map_err(|e| err(format!("instruction {i}: {e}")))?;
        }
        self.v.loc(&block.term_loc)?;
        self.terminator(&block.term)
    }

    fn inst(&self, inst: &Inst, assigned: &mut [bool]) -> Result<(), IrError> {
        self.v.ty(inst.ty)?;
        self.v.loc(&inst.loc)?;
        let is_void = self.v.m.ty(inst.ty).kind == TypeKind::Void;
        match inst.dest {
            Some(d) if is_void => {
                return Err(err(format!(
                    "void instruction has destination slot {}",
                    d.0
                )))
            }
            Some(d) => self.define(d, assigned)?,
            None if !is_void => {
                return Err(err("non-void instruction without a destination".into()))
            }
            None => {}
        }
        // The types and functions an instruction names; its operands below.
        match &inst.kind {
            InstKind::Cast { from, .. } => self.v.ty(*from)?,
            InstKind::Alloca { elem, .. } => self.v.ty(*elem)?,
            InstKind::Store { value_ty, .. } => self.v.ty(*value_ty)?,
            InstKind::Call {
                callee,
                args,
                arg_types,
                byval,
            } => {
                if args.len() != arg_types.len() {
                    return Err(err("call with mismatched argument types".into()));
                }
                for &t in arg_types {
                    self.v.ty(t)?;
                }
                for &(i, t) in byval {
                    if i as usize >= args.len() {
                        return Err(err("byval attribute on a missing argument".into()));
                    }
                    self.v.ty(t)?;
                }
                // An indirect callee is among the operands.
                if let Callee::Direct(f) = callee {
                    self.v.func(*f)?;
                }
            }
            _ => {}
        }
        for op in inst.kind.operands() {
            self.operand(op)?;
        }
        Ok(())
    }

    fn terminator(&self, term: &Terminator) -> Result<(), IrError> {
        match term {
            Terminator::Ret(Some(op)) => self.operand(op)?,
            Terminator::CondBr { cond, .. } => self.operand(cond)?,
            Terminator::Switch { value, .. } => self.operand(value)?,
            Terminator::IndirectBr { address, .. } => self.operand(address)?,
            _ => {}
        }
        for b in successors(term) {
            self.block_id(b)?;
        }
        Ok(())
    }
}
