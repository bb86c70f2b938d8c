//! The rewriter Φ_S (spec §2.5, rules 3–10) as an IR-to-IR transformation over sear-ir: it
//! builds a new module from the program linked with the runtime and leaves the original
//! untouched.
//!
//! Why sear-ir and not LLVM bitcode: sear executes sear-ir, so the rewritten module is
//! exactly what runs (printed by `--output-indexed-ir`, checked by sear-ir's verifier);
//! LLVM 19's opaque pointers erase `char *` anyway, so strings must be found by dataflow
//! at either level; and rewriting LLVM would mean building a second module through the C
//! API and lowering it again.
//!
//! * rule 3: float values (slots) become `i32` indices; float cells, `char *` cells and
//!   globals whose every use is a whole load or store become `i32` cells; program
//!   functions not address-taken get index parameters and results;
//! * rules 4/5: a literal in an indexed position becomes its index (⊥ when it is not in
//!   the garden);
//! * rule 6: calls to F₊ (and the float instructions) become calls to the tables
//!   `__indexify_i_<op>`;
//! * rules 7–10: `__indexify_delta.<ty>` where a value enters the index world,
//!   `__indexify_undelta.<ty>` where an index leaves it (calls to unindexed functions,
//!   stores into unindexed memory, casts, aggregates, returns);
//! * `klee_make_symbolic` of an indexed variable or string buffer makes a symbolic index
//!   (`__indexify_symbolic_index` / `__indexify_symbolic_value`), as does the POSIX model's
//!   symbolic argument strings.

pub mod analysis;
mod floats;
mod strings;
pub mod uses;

use std::collections::BTreeSet;

use rustc_hash::{FxHashMap, FxHashSet};
use sear_ir::{
    Callee, ConstId, Constant, FuncId, Function, Inst, InstKind, Loc, Module, Operand, Slot,
    TypeId, TypeInfo, TypeKind,
};
use serde::Serialize;

use crate::ops::Op;
use crate::tables::Tables;
use crate::value::{GValue, Ty, BOTTOM, NULL};
use analysis::{Analysis, FnFacts, Scope};

/// A function the rewriter declares; the engine implements it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Helper {
    /// `__indexify_i_<op>(args...)`: the indexed operator table f̂.
    Table(Op),
    /// `__indexify_delta.<ty>(value) -> i32`: δ⊥ of a float value.
    Delta(Ty),
    /// `__indexify_undelta.<ty>(i32) -> value`: δ⊥⁻¹ (a float, or a pointer to the string).
    Undelta(Ty),
    /// `__indexify_symbolic_value.<ty>(ptr, size, name)`: the object holds δ⁻¹ of a fresh
    /// symbolic index.
    SymbolicValue(Ty),
    /// `__indexify_symbolic_index.<ty>(ptr, size, name)`: the (retyped) cell holds a fresh
    /// symbolic index.
    SymbolicIndex(Ty),
}

impl Helper {
    /// The declared name.
    pub fn name(&self) -> String {
        match self {
            Helper::Table(op) => format!("__indexify_i_{}", op.name()),
            Helper::Delta(t) => format!("__indexify_delta.{t}"),
            Helper::Undelta(t) => format!("__indexify_undelta.{t}"),
            Helper::SymbolicValue(t) => format!("__indexify_symbolic_value.{t}"),
            Helper::SymbolicIndex(t) => format!("__indexify_symbolic_index.{t}"),
        }
    }
}

/// What to rewrite.
pub struct RewriteConfig<'a> {
    /// Names of the functions the program defines.
    pub program_names: &'a FxHashSet<String>,
    /// The entry function.
    pub entry: &'a str,
    /// Float types indexed.
    pub float_types: Vec<Ty>,
    /// True when strings are indexed.
    pub strings: bool,
    /// The library operators in F₊ (string and math functions).
    pub fplus: FxHashSet<Op>,
}

/// Counters of the rewriting, by rule.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RewriteStats {
    /// Program functions whose signature was retyped (rule 3).
    pub retyped_functions: u64,
    /// Cells (`alloca`s) retyped to hold an index (rule 3).
    pub retyped_cells: u64,
    /// Globals retyped to hold an index (rule 3).
    pub retyped_globals: u64,
    /// Literals replaced by their index (rule 4).
    pub literals_indexed: u64,
    /// Literals outside the garden replaced by ⊥ (rule 5).
    pub literals_bottom: u64,
    /// Calls and instructions renamed to tables (rule 6), per table.
    pub table_calls: std::collections::BTreeMap<String, u64>,
    /// δ inserted (rules 7 and 9, casts to an indexed type, loads of unindexed memory).
    pub deltas: u64,
    /// δ⁻¹ inserted (rules 8 and 10, casts from an indexed type, stores, aggregates).
    pub undeltas: u64,
    /// `klee_make_symbolic` calls (and POSIX inputs) made symbolic indices.
    pub symbolic_inputs: u64,
    /// Instructions of the program's functions before and after.
    pub instructions_before: u64,
    /// See `instructions_before`.
    pub instructions_after: u64,
}

/// The rewritten module.
pub struct Rewritten {
    /// The new module.
    pub module: Module,
    /// The helper declared under each name.
    pub helpers: FxHashMap<String, Helper>,
    /// The operators whose tables the program calls.
    pub used_ops: BTreeSet<Op>,
    /// Counters.
    pub stats: RewriteStats,
}

/// The runtime function that makes the POSIX model's symbolic argument strings.
pub const POSIX_ARG_FUNCTION: &str = "symbolic_string";

/// Rewrites `module` (the program linked with the runtime): a new module, the original
/// intact. Literal indices come from `tables`' gardens.
pub fn rewrite(module: &Module, config: &RewriteConfig, tables: &Tables) -> Rewritten {
    let scope = Scope {
        program_names: config.program_names,
        entry: config.entry,
        float_types: &config.float_types,
        strings: config.strings,
        fplus: &config.fplus,
    };
    let analysis = analysis::analyse(module, &scope);
    let mut out = Out {
        m: module.clone(),
        consts: FxHashMap::default(),
        helpers: FxHashMap::default(),
        used_ops: BTreeSet::new(),
        stats: RewriteStats::default(),
        tables,
    };
    for (i, c) in module.constants.iter().enumerate() {
        out.consts.entry(c.clone()).or_insert(ConstId(i as u32));
    }
    let mut ids: Vec<FuncId> = analysis.program.iter().copied().collect();
    ids.sort();
    for f in ids {
        let facts = &analysis.facts[&f];
        out.stats.retyped_cells += (facts.float_cells.len() + facts.str_cells.len()) as u64;
        let new = FnRw::new(&mut out, module, &analysis, &scope, f, facts).run();
        out.m.functions[f.0 as usize] = new;
    }
    if config.strings {
        if let Some(f) = module.function_by_name(POSIX_ARG_FUNCTION) {
            if !module.function(f).is_declaration {
                let new = posix_inputs(&mut out, module, f);
                out.m.functions[f.0 as usize] = new;
            }
        }
    }
    retype_signatures(&mut out, module, &analysis, &config.float_types);
    retype_globals(&mut out, module, &analysis);
    Rewritten {
        module: out.m,
        helpers: out
            .helpers
            .into_iter()
            .map(|(name, (_, h))| (name, h))
            .collect(),
        used_ops: out.used_ops,
        stats: out.stats,
    }
}

/// The module being built.
pub(crate) struct Out<'t> {
    pub m: Module,
    consts: FxHashMap<Constant, ConstId>,
    helpers: FxHashMap<String, (FuncId, Helper)>,
    pub used_ops: BTreeSet<Op>,
    pub stats: RewriteStats,
    pub tables: &'t Tables,
}

impl Out<'_> {
    /// The id of a type, added when the module has none like it.
    pub fn ty(&mut self, kind: TypeKind) -> TypeId {
        if let Some(i) = self.m.types.iter().position(|t| t.kind == kind) {
            return TypeId(i as u32);
        }
        let (size, bits) = match kind {
            TypeKind::Int(w) => (u64::from(w.div_ceil(8)).next_power_of_two(), w),
            TypeKind::Ptr => (8, 64),
            _ => (0, 0),
        };
        self.m.types.push(TypeInfo {
            kind,
            size,
            align: size.max(1),
            field_offsets: Vec::new(),
            bit_width: bits,
        });
        TypeId(self.m.types.len() as u32 - 1)
    }

    /// `i32`, the index type.
    pub fn i32(&mut self) -> TypeId {
        self.ty(TypeKind::Int(32))
    }

    /// A constant's id, added when new.
    pub fn konst(&mut self, c: Constant) -> ConstId {
        if let Some(&id) = self.consts.get(&c) {
            return id;
        }
        self.m.constants.push(c.clone());
        let id = ConstId(self.m.constants.len() as u32 - 1);
        self.consts.insert(c, id);
        id
    }

    /// An integer constant operand.
    pub fn int(&mut self, width: u32, value: u128) -> Operand {
        Operand::Const(self.konst(Constant::Int { width, value }))
    }

    /// The index constant of a literal (rule 4), or ⊥ when it is not in the garden (rule 5).
    pub fn literal(&mut self, v: &GValue) -> Operand {
        let idx = self.tables.garden(v.ty()).map_or(BOTTOM, |g| g.delta(v));
        if idx == BOTTOM {
            self.stats.literals_bottom += 1;
        } else {
            self.stats.literals_indexed += 1;
        }
        self.int(32, idx as u128)
    }

    /// The NULL string index.
    pub fn null_index(&mut self) -> Operand {
        self.int(32, NULL as u128)
    }

    /// The declaration of a helper (variadic, so calls may pass indices or values).
    pub fn helper(&mut self, h: Helper, ret: TypeId) -> FuncId {
        let name = h.name();
        if let Some((f, _)) = self.helpers.get(&name) {
            return *f;
        }
        if let Helper::Table(op) = h {
            self.used_ops.insert(op);
        }
        let id = FuncId(self.m.functions.len() as u32);
        self.m.functions.push(Function {
            name: name.clone(),
            params: Vec::new(),
            param_names: Vec::new(),
            byval: Vec::new(),
            ret,
            is_vararg: true,
            blocks: Vec::new(),
            num_slots: 0,
            is_declaration: true,
            is_extern_weak: false,
            loc: None,
        });
        self.m.function_index.insert(name.clone(), id);
        self.helpers.insert(name, (id, h));
        id
    }
}

/// Rewrites one program function.
pub(crate) struct FnRw<'o, 't, 'a> {
    pub out: &'o mut Out<'t>,
    pub orig: &'a Module,
    pub a: &'a Analysis,
    pub scope: &'a Scope<'a>,
    pub f: FuncId,
    pub facts: &'a FnFacts,
    pub next_slot: u32,
    pub insts: Vec<Inst>,
    pub loc: Option<Loc>,
    /// Float parameters of an unretyped signature, renamed to their indexed copies.
    pub rename: FxHashMap<Slot, Slot>,
}

impl<'o, 't, 'a> FnRw<'o, 't, 'a> {
    fn new(
        out: &'o mut Out<'t>,
        orig: &'a Module,
        a: &'a Analysis,
        scope: &'a Scope<'a>,
        f: FuncId,
        facts: &'a FnFacts,
    ) -> Self {
        let next_slot = orig.function(f).num_slots;
        FnRw {
            out,
            orig,
            a,
            scope,
            f,
            facts,
            next_slot,
            insts: Vec::new(),
            loc: None,
            rename: FxHashMap::default(),
        }
    }

    /// A fresh slot.
    pub fn slot(&mut self) -> Slot {
        self.next_slot += 1;
        Slot(self.next_slot - 1)
    }

    /// Emits a call to a helper; returns its result slot (None for void).
    pub fn call_helper(
        &mut self,
        h: Helper,
        ret: TypeId,
        args: Vec<(Operand, TypeId)>,
    ) -> Option<Slot> {
        let callee = self.out.helper(h, ret);
        let void = self.out.m.ty(ret).kind == TypeKind::Void;
        let dest = (!void).then(|| self.slot());
        self.push_call(callee, ret, dest, args);
        dest
    }

    /// Emits a direct call.
    pub fn push_call(
        &mut self,
        callee: FuncId,
        ret: TypeId,
        dest: Option<Slot>,
        args: Vec<(Operand, TypeId)>,
    ) {
        let (args, arg_types) = args.into_iter().unzip();
        self.insts.push(Inst {
            kind: InstKind::Call {
                callee: Callee::Direct(callee),
                args,
                arg_types,
                byval: Vec::new(),
            },
            dest,
            ty: ret,
            loc: self.loc,
        });
    }

    /// The float type a slot holds, if it is an indexed float slot.
    pub fn float_slot(&self, s: Slot) -> Option<Ty> {
        let t = (*self.facts.slot_ty.get(s.0 as usize)?)?;
        analysis::float_ty(self.orig, t, self.scope.float_types)
    }

    /// The float type of an operand (a slot's type, a float constant's kind).
    pub fn operand_float(&self, op: Operand) -> Option<Ty> {
        match op {
            Operand::Slot(s) => self.float_slot(s),
            Operand::Const(c) => {
                let t = match self.orig.constant(c) {
                    Constant::Float { kind, .. } => match kind {
                        sear_ir::FloatKind::Double => Ty::F64,
                        sear_ir::FloatKind::Single => Ty::F32,
                        _ => return None,
                    },
                    Constant::Zero(t) | Constant::Undef(t) => {
                        analysis::float_ty(self.orig, *t, self.scope.float_types)?
                    }
                    _ => return None,
                };
                self.scope.float_types.contains(&t).then_some(t)
            }
        }
    }

    fn run(mut self) -> Function {
        let orig = self.orig.function(self.f);
        let mut func = orig.clone();
        self.out.stats.instructions_before += orig
            .blocks
            .iter()
            .map(|b| b.insts.len() as u64)
            .sum::<u64>();
        let retyped = self.a.retyped_sig.contains(&self.f);
        let mut entry_prologue = Vec::new();
        if !retyped {
            for i in 0..orig.params.len() {
                if let Some(t) = self.float_slot(Slot(i as u32)) {
                    self.loc = orig.loc;
                    let i32 = self.out.i32();
                    let d = self
                        .call_helper(
                            Helper::Delta(t),
                            i32,
                            vec![(Operand::Slot(Slot(i as u32)), orig.params[i])],
                        )
                        .expect("delta has a result");
                    self.out.stats.deltas += 1;
                    self.rename.insert(Slot(i as u32), d);
                }
            }
            entry_prologue = std::mem::take(&mut self.insts);
        }
        for (b, block) in orig.blocks.iter().enumerate() {
            let new_block = &mut func.blocks[b];
            // phis
            for (p, phi) in block.phis.iter().enumerate() {
                if let Some(t) = analysis::float_ty(self.orig, phi.ty, self.scope.float_types) {
                    let i32 = self.out.i32();
                    let incoming = phi
                        .incoming
                        .iter()
                        .map(|(blk, v)| (*blk, self.ix(*v, t)))
                        .collect();
                    new_block.phis[p].ty = i32;
                    new_block.phis[p].incoming = incoming;
                }
            }
            if b == 0 {
                self.insts = std::mem::take(&mut entry_prologue);
            }
            for inst in &block.insts {
                self.loc = inst.loc;
                self.inst(inst);
            }
            self.loc = block.term_loc;
            let mut term = block.term.clone();
            if let sear_ir::Terminator::Ret(Some(v)) = &mut term {
                if let Some(t) = self.operand_float(*v) {
                    *v = if retyped {
                        self.ix(*v, t)
                    } else {
                        self.val(*v, t)
                    };
                }
            }
            let new_block = &mut func.blocks[b];
            new_block.insts = std::mem::take(&mut self.insts);
            new_block.term = term;
        }
        func.num_slots = self.next_slot;
        self.out.stats.instructions_after += func
            .blocks
            .iter()
            .map(|b| b.insts.len() as u64)
            .sum::<u64>();
        func
    }

    /// Rewrites one instruction into `self.insts`.
    fn inst(&mut self, inst: &Inst) {
        if !self.scope.float_types.is_empty() && self.float_inst(inst) {
            return;
        }
        if self.scope.strings && self.string_inst(inst) {
            return;
        }
        self.generic(inst.clone());
    }

    /// An instruction with no rule of its own: indexed float operands are unindexed
    /// (rule 8), a float result is indexed (rule 9).
    pub fn generic(&mut self, mut inst: Inst) {
        let mut kind = inst.kind.clone();
        let mut conversions = Vec::new();
        uses::map_operands(&mut kind, |op, _| {
            if let Operand::Slot(s) = op {
                if let Some(t) = self.float_slot(*s) {
                    conversions.push((*op, t));
                }
            }
        });
        if !conversions.is_empty() {
            let mut converted = FxHashMap::default();
            for (op, t) in conversions {
                if let std::collections::hash_map::Entry::Vacant(e) = converted.entry(op) {
                    let v = self.val(op, t);
                    e.insert(v);
                }
            }
            uses::map_operands(&mut kind, |op, _| {
                if let Some(v) = converted.get(op) {
                    *op = *v;
                }
            });
        }
        inst.kind = kind;
        match inst.dest.and_then(|d| self.float_slot(d).map(|t| (d, t))) {
            Some((d, t)) => self.produce(inst, d, t),
            None => self.insts.push(inst),
        }
    }

    /// Emits `inst` (whose result is a float value) into a fresh slot and indexes it into
    /// `dest` (rule 9).
    pub fn produce(&mut self, mut inst: Inst, dest: Slot, t: Ty) {
        let tmp = self.slot();
        let ty = inst.ty;
        inst.dest = Some(tmp);
        self.insts.push(inst);
        let i32 = self.out.i32();
        let callee = self.out.helper(Helper::Delta(t), i32);
        self.push_call(callee, i32, Some(dest), vec![(Operand::Slot(tmp), ty)]);
        self.out.stats.deltas += 1;
    }

    /// The index form of a float operand: an indexed slot as it is, a literal as its index.
    pub fn ix(&mut self, op: Operand, t: Ty) -> Operand {
        match op {
            Operand::Slot(s) => Operand::Slot(self.rename.get(&s).copied().unwrap_or(s)),
            Operand::Const(c) => {
                let v = match self.orig.constant(c) {
                    Constant::Float { bits, .. } => match t {
                        Ty::F64 => GValue::F64(*bits as u64).canonical(),
                        _ => GValue::F32(*bits as u32).canonical(),
                    },
                    // zero and undef (which the executor reads as zero) are +0.0
                    _ => match t {
                        Ty::F64 => GValue::f64(0.0),
                        _ => GValue::f32(0.0),
                    },
                };
                self.out.literal(&v)
            }
        }
    }

    /// The float value of an operand for an unindexed use: δ⁻¹ of an indexed slot (rules 8
    /// and 10), a literal as it is.
    pub fn val(&mut self, op: Operand, t: Ty) -> Operand {
        match op {
            Operand::Const(_) => op,
            Operand::Slot(s) => {
                if self.float_slot(s).is_none() {
                    return op;
                }
                let s = self.rename.get(&s).copied().unwrap_or(s);
                let ty = self.float_type_id(t);
                let i32 = self.out.i32();
                self.out.stats.undeltas += 1;
                let r = self
                    .call_helper(Helper::Undelta(t), ty, vec![(Operand::Slot(s), i32)])
                    .expect("undelta has a result");
                Operand::Slot(r)
            }
        }
    }

    /// The sear-ir type of a float type.
    pub fn float_type_id(&mut self, t: Ty) -> TypeId {
        self.out.ty(TypeKind::Float(match t {
            Ty::F32 => sear_ir::FloatKind::Single,
            _ => sear_ir::FloatKind::Double,
        }))
    }
}

/// Retypes program function signatures: float parameters and results become indices.
fn retype_signatures(out: &mut Out, orig: &Module, a: &Analysis, float_types: &[Ty]) {
    let mut ids: Vec<FuncId> = a.retyped_sig.iter().copied().collect();
    ids.sort();
    for f in ids {
        let func = orig.function(f);
        let mut changed = false;
        let i32 = out.i32();
        let new = &mut out.m.functions[f.0 as usize];
        for p in new.params.iter_mut() {
            if analysis::float_ty(orig, *p, float_types).is_some() {
                *p = i32;
                changed = true;
            }
        }
        if analysis::float_ty(orig, func.ret, float_types).is_some() {
            new.ret = i32;
            changed = true;
        }
        if changed {
            out.stats.retyped_functions += 1;
        }
    }
}

/// Retypes float and `char *` globals into index globals with an index initialiser (no
/// call: the index is written into the initialiser, spec §6.4).
fn retype_globals(out: &mut Out, orig: &Module, a: &Analysis) {
    let i32 = out.i32();
    for (i, g) in orig.globals.iter().enumerate() {
        let id = sear_ir::GlobalId(i as u32);
        let init = if let Some(&t) = a.float_globals.get(&id) {
            let v = match g.init.map(|c| orig.constant(c)) {
                Some(Constant::Float { bits, .. }) => match t {
                    Ty::F64 => GValue::F64(*bits as u64).canonical(),
                    _ => GValue::F32(*bits as u32).canonical(),
                },
                _ => match t {
                    Ty::F64 => GValue::f64(0.0),
                    _ => GValue::f32(0.0),
                },
            };
            out.literal(&v)
        } else if a.str_globals.contains(&id) {
            let c = g.init.expect("string globals have initialisers");
            match crate::harvest::string_constant(orig, c) {
                Some(s) => out.literal(&GValue::Str(s)),
                None => out.null_index(),
            }
        } else {
            continue;
        };
        let Operand::Const(init) = init else {
            unreachable!("literals are constants")
        };
        let new = &mut out.m.globals[i];
        new.ty = i32;
        new.size = Some(4);
        new.align = 4;
        new.init = Some(init);
        out.stats.retyped_globals += 1;
    }
}

/// The POSIX model's symbolic argument strings become symbolic string indices.
fn posix_inputs(out: &mut Out, orig: &Module, f: FuncId) -> Function {
    let mut func = orig.function(f).clone();
    let void = out.ty(TypeKind::Void);
    for b in &mut func.blocks {
        for inst in &mut b.insts {
            if analysis::callee_name(orig, &inst.kind) == Some("klee_make_symbolic") {
                let callee = out.helper(Helper::SymbolicValue(Ty::Str), void);
                if let InstKind::Call { callee: c, .. } = &mut inst.kind {
                    *c = Callee::Direct(callee);
                    out.stats.symbolic_inputs += 1;
                }
            }
        }
    }
    func
}
