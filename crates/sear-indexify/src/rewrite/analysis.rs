//! What the rewriter retypes, decided before any instruction is rewritten: the program's
//! functions, which of their signatures carry indices, which memory cells hold an index
//! instead of a value (rule 3 for variables), and which buffers are string inputs.
//!
//! A cell (an `alloca` or a global) is retyped only when every use is a whole load or
//! store of its value (or `klee_make_symbolic` of it); a cell whose address escapes keeps
//! its bytes, and the rewriter converts at its loads and stores instead (δ / δ⁻¹).

use rustc_hash::{FxHashMap, FxHashSet};
use sear_ir::{
    Callee, Constant, FloatKind, FuncId, GlobalId, InstKind, Module, Operand, Slot, TypeId,
    TypeKind,
};

use super::uses::{block_operands, inst_operands, Role};
use crate::harvest::string_constant;
use crate::ops::{Op, Param, StrFn};
use crate::value::Ty;

/// The float type a sear-ir type is, among the enabled ones.
pub fn float_ty(module: &Module, ty: TypeId, enabled: &[Ty]) -> Option<Ty> {
    let t = match module.ty(ty).kind {
        TypeKind::Float(FloatKind::Double) => Ty::F64,
        TypeKind::Float(FloatKind::Single) => Ty::F32,
        _ => return None,
    };
    enabled.contains(&t).then_some(t)
}

/// The type of every slot of a function (parameters, instruction results, phis).
pub fn slot_types(module: &Module, f: FuncId) -> Vec<Option<TypeId>> {
    let func = module.function(f);
    let mut types = vec![None; func.num_slots as usize];
    for (i, t) in func.params.iter().enumerate() {
        types[i] = Some(*t);
    }
    for b in &func.blocks {
        for p in &b.phis {
            types[p.dest.0 as usize] = Some(p.ty);
        }
        for inst in &b.insts {
            if let Some(d) = inst.dest {
                types[d.0 as usize] = Some(inst.ty);
            }
        }
    }
    types
}

/// The callee's name of a direct call.
pub fn callee_name<'m>(module: &'m Module, kind: &InstKind) -> Option<&'m str> {
    match kind {
        InstKind::Call {
            callee: Callee::Direct(f),
            ..
        } => Some(&module.function(*f).name),
        _ => None,
    }
}

/// Facts about one program function.
#[derive(Debug, Default)]
pub struct FnFacts {
    /// The type of each slot.
    pub slot_ty: Vec<Option<TypeId>>,
    /// Float `alloca`s retyped to hold an index.
    pub float_cells: FxHashMap<Slot, Ty>,
    /// `char *` `alloca`s retyped to hold a string index.
    pub str_cells: FxHashSet<Slot>,
    /// Slots loaded from retyped string cells or globals (they hold string indices).
    pub str_loads: FxHashSet<Slot>,
    /// Pointers used as strings (reaching a string operator's argument).
    pub string_slots: FxHashSet<Slot>,
}

/// The rewriter's decisions for a module.
#[derive(Debug, Default)]
pub struct Analysis {
    /// Functions the program defines (the others are the runtime's or external).
    pub program: FxHashSet<FuncId>,
    /// Program functions whose float parameters and results carry indices.
    pub retyped_sig: FxHashSet<FuncId>,
    /// Float globals retyped to hold an index.
    pub float_globals: FxHashMap<GlobalId, Ty>,
    /// `char *` globals retyped to hold a string index.
    pub str_globals: FxHashSet<GlobalId>,
    /// Globals used as strings (their address reaches a string operator).
    pub string_globals: FxHashSet<GlobalId>,
    /// Per program function.
    pub facts: FxHashMap<FuncId, FnFacts>,
}

/// What the analysis needs to know of the configuration.
pub struct Scope<'a> {
    /// Names of the functions the program defines.
    pub program_names: &'a FxHashSet<String>,
    /// The entry function (its signature is never retyped).
    pub entry: &'a str,
    /// Float types indexed.
    pub float_types: &'a [Ty],
    /// True when strings are indexed.
    pub strings: bool,
    /// The string operators in F₊.
    pub fplus: &'a FxHashSet<Op>,
}

impl Scope<'_> {
    /// The string operator a call is, when it is in F₊ and not defined by the program.
    pub fn string_op(&self, module: &Module, kind: &InstKind) -> Option<Op> {
        if !self.strings {
            return None;
        }
        let name = callee_name(module, kind)?;
        let op = Op::Str(StrFn::lookup(name)?);
        (self.fplus.contains(&op) && !self.program_names.contains(name)).then_some(op)
    }
}

fn is_null(module: &Module, op: Operand) -> bool {
    matches!(op, Operand::Const(c) if matches!(module.constant(c), Constant::Null | Constant::Zero(_)))
}

fn is_literal(module: &Module, op: Operand) -> bool {
    matches!(op, Operand::Const(c) if string_constant(module, c).is_some())
}

fn const_global(module: &Module, op: Operand) -> Option<GlobalId> {
    match op {
        Operand::Const(c) => match module.constant(c) {
            Constant::GlobalAddr(g) => Some(*g),
            _ => None,
        },
        _ => None,
    }
}

/// Analyses `module` (the program linked with the runtime).
pub fn analyse(module: &Module, scope: &Scope) -> Analysis {
    let mut a = Analysis::default();
    for (i, f) in module.functions.iter().enumerate() {
        if !f.is_declaration && scope.program_names.contains(&f.name) {
            a.program.insert(FuncId(i as u32));
        }
    }
    let mut taken = FxHashSet::default();
    let mut escaped_globals = FxHashSet::default();
    for c in &module.constants {
        sub_constants(c, |sub| match module.constant(sub) {
            Constant::GlobalAddr(g) => {
                escaped_globals.insert(*g);
            }
            Constant::FuncAddr(f) => {
                taken.insert(*f);
            }
            _ => {}
        });
        if let Constant::FuncAddr(f) = c {
            taken.insert(*f);
        }
    }
    for g in &module.globals {
        if let Some(Constant::GlobalAddr(h)) = g.init.map(|c| module.constant(c)) {
            escaped_globals.insert(*h);
        }
    }
    for &f in &a.program {
        let func = module.function(f);
        if !func.is_vararg && func.name != scope.entry && !taken.contains(&f) {
            a.retyped_sig.insert(f);
        }
        let facts = FnFacts {
            slot_ty: slot_types(module, f),
            ..FnFacts::default()
        };
        a.facts.insert(f, facts);
    }
    // Uses of globals from functions: only program functions may use a retyped global.
    let mut global_roles: GlobalRoles = FxHashMap::default();
    for (i, func) in module.functions.iter().enumerate() {
        let f = FuncId(i as u32);
        for b in &func.blocks {
            for inst in &b.insts {
                let access_ty = match &inst.kind {
                    InstKind::Load { .. } => Some(inst.ty),
                    InstKind::Store { value_ty, .. } => Some(*value_ty),
                    _ => None,
                };
                let stored = match &inst.kind {
                    InstKind::Store { value, .. } => Some(*value),
                    _ => None,
                };
                inst_operands(&inst.kind, |op, role| {
                    if let Some(g) = const_global(module, op) {
                        let extra = stored.unwrap_or(op);
                        global_roles
                            .entry(g)
                            .or_default()
                            .push((f, role, access_ty, extra));
                    }
                });
            }
            block_operands(b, |op| {
                if let Some(g) = const_global(module, op) {
                    escaped_globals.insert(g);
                }
            });
        }
    }
    float_cells(module, scope, &mut a);
    float_globals(module, scope, &mut a, &global_roles, &escaped_globals);
    if scope.strings {
        string_cells(module, scope, &mut a, &global_roles, &escaped_globals);
        string_dataflow(module, scope, &mut a);
    }
    a
}

/// Calls `f` with the constants a constant is built from.
fn sub_constants(c: &Constant, mut f: impl FnMut(sear_ir::ConstId)) {
    match c {
        Constant::Aggregate { elems, .. } => elems.iter().for_each(|e| f(*e)),
        Constant::PtrOffset { base, .. } => f(*base),
        Constant::Cast { value, .. } => f(*value),
        Constant::Binary { lhs, rhs, .. } | Constant::ICmp { lhs, rhs, .. } => {
            f(*lhs);
            f(*rhs);
        }
        Constant::Select {
            cond,
            then_value,
            else_value,
        } => {
            f(*cond);
            f(*then_value);
            f(*else_value);
        }
        _ => {}
    }
}

fn alloca_of(module: &Module, kind: &InstKind) -> Option<TypeId> {
    match kind {
        InstKind::Alloca {
            elem,
            count: Operand::Const(c),
            ..
        } if matches!(module.constant(*c), Constant::Int { value: 1, .. }) => Some(*elem),
        _ => None,
    }
}

fn is_make_symbolic(module: &Module, kind: &InstKind) -> bool {
    callee_name(module, kind) == Some("klee_make_symbolic")
}

/// Float `alloca`s all of whose uses are whole loads and stores (and make_symbolic).
fn float_cells(module: &Module, scope: &Scope, a: &mut Analysis) {
    for &f in &a.program {
        let func = module.function(f);
        let mut candidates: FxHashMap<Slot, (Ty, TypeId)> = FxHashMap::default();
        for b in &func.blocks {
            for inst in &b.insts {
                if let (Some(elem), Some(d)) = (alloca_of(module, &inst.kind), inst.dest) {
                    if let Some(t) = float_ty(module, elem, scope.float_types) {
                        candidates.insert(d, (t, elem));
                    }
                }
            }
        }
        let mut escaped = FxHashSet::default();
        for b in &func.blocks {
            for inst in &b.insts {
                let symbolic = is_make_symbolic(module, &inst.kind);
                inst_operands(&inst.kind, |op, role| {
                    let Operand::Slot(s) = op else { return };
                    let Some((_, elem)) = candidates.get(&s) else {
                        return;
                    };
                    let ok = match (&inst.kind, role) {
                        (InstKind::Load { .. }, Role::LoadPtr) => inst.ty == *elem,
                        (InstKind::Store { value_ty, .. }, Role::StorePtr) => value_ty == elem,
                        (_, Role::CallArg(0)) => symbolic,
                        _ => false,
                    };
                    if !ok {
                        escaped.insert(s);
                    }
                });
            }
            block_operands(b, |op| {
                if let Operand::Slot(s) = op {
                    escaped.insert(s);
                }
            });
        }
        let facts = a.facts.get_mut(&f).expect("program function");
        for (s, (t, _)) in candidates {
            if !escaped.contains(&s) {
                facts.float_cells.insert(s, t);
            }
        }
    }
}

type GlobalRoles = FxHashMap<GlobalId, Vec<(FuncId, Role, Option<TypeId>, Operand)>>;

fn float_globals(
    module: &Module,
    scope: &Scope,
    a: &mut Analysis,
    roles: &GlobalRoles,
    escaped: &FxHashSet<GlobalId>,
) {
    for (i, g) in module.globals.iter().enumerate() {
        let id = GlobalId(i as u32);
        let Some(t) = float_ty(module, g.ty, scope.float_types) else {
            continue;
        };
        let init_ok = g.init.is_some_and(|c| {
            matches!(
                module.constant(c),
                Constant::Float { .. } | Constant::Zero(_) | Constant::Undef(_)
            )
        });
        let uses_ok = roles.get(&id).is_some_and(|uses| {
            uses.iter().all(|(f, role, ty, _)| {
                a.program.contains(f)
                    && matches!(role, Role::LoadPtr | Role::StorePtr)
                    && *ty == Some(g.ty)
            })
        });
        if init_ok && uses_ok && !escaped.contains(&id) {
            a.float_globals.insert(id, t);
        }
    }
}

/// `char *` cells holding only string literals, NULL, or the values of other such cells,
/// whose loaded values are only string-operator arguments, stored into such cells, passed
/// to other functions (materialised) or compared with NULL.
fn string_cells(
    module: &Module,
    scope: &Scope,
    a: &mut Analysis,
    roles: &GlobalRoles,
    escaped: &FxHashSet<GlobalId>,
) {
    // candidates: local cells per function, and globals
    let mut cells: FxHashMap<FuncId, FxHashSet<Slot>> = FxHashMap::default();
    for &f in &a.program {
        let func = module.function(f);
        let set = cells.entry(f).or_default();
        for b in &func.blocks {
            for inst in &b.insts {
                if let (Some(elem), Some(d)) = (alloca_of(module, &inst.kind), inst.dest) {
                    if module.ty(elem).kind == TypeKind::Ptr {
                        set.insert(d);
                    }
                }
            }
        }
    }
    let mut globals: FxHashSet<GlobalId> = FxHashSet::default();
    for (i, g) in module.globals.iter().enumerate() {
        let id = GlobalId(i as u32);
        if module.ty(g.ty).kind != TypeKind::Ptr || escaped.contains(&id) {
            continue;
        }
        let init_ok = g.init.is_some_and(|c| {
            is_literal(module, Operand::Const(c)) || is_null(module, Operand::Const(c))
        });
        let uses_ok = roles.get(&id).is_some_and(|uses| {
            uses.iter().all(|(f, role, ty, _)| {
                a.program.contains(f)
                    && matches!(role, Role::LoadPtr | Role::StorePtr)
                    && *ty == Some(g.ty)
            })
        });
        if init_ok && uses_ok {
            globals.insert(id);
        }
    }
    // remove candidates until every remaining one satisfies the conditions
    loop {
        let mut changed = false;
        for &f in &a.program {
            let func = module.function(f);
            let local = cells.get(&f).cloned().unwrap_or_default();
            let is_cell = |op: Operand| match op {
                Operand::Slot(s) => local.contains(&s),
                Operand::Const(_) => const_global(module, op).is_some_and(|g| globals.contains(&g)),
            };
            // slots loaded from a candidate, with the cell they came from
            let mut loaded: FxHashMap<Slot, Operand> = FxHashMap::default();
            for b in &func.blocks {
                for inst in &b.insts {
                    if let (InstKind::Load { ptr, .. }, Some(d)) = (&inst.kind, inst.dest) {
                        if is_cell(*ptr) {
                            loaded.insert(d, *ptr);
                        }
                    }
                }
            }
            let mut bad: Vec<Operand> = Vec::new();
            for b in &func.blocks {
                for inst in &b.insts {
                    let op_kind = scope.string_op(module, &inst.kind);
                    let symbolic = is_make_symbolic(module, &inst.kind);
                    let special = callee_name(module, &inst.kind).is_some_and(|n| {
                        n.starts_with("klee_") || n.starts_with("llvm.") || n == "free"
                    });
                    let store_target = match &inst.kind {
                        InstKind::Store { ptr, .. } => Some(*ptr),
                        _ => None,
                    };
                    inst_operands(&inst.kind, |op, role| {
                        // the cell itself: only loads and stores of pointers
                        if is_cell(op) {
                            let ok = match (&inst.kind, role) {
                                (InstKind::Load { .. }, Role::LoadPtr) => {
                                    module.ty(inst.ty).kind == TypeKind::Ptr
                                }
                                (InstKind::Store { value_ty, .. }, Role::StorePtr) => {
                                    module.ty(*value_ty).kind == TypeKind::Ptr
                                }
                                _ => false,
                            };
                            if !ok {
                                bad.push(op);
                            }
                        }
                        // stored values must be literals, NULL or loaded from candidates
                        if role == Role::StoreValue {
                            if let Some(target) = store_target.filter(|t| is_cell(*t)) {
                                let ok = is_literal(module, op)
                                    || is_null(module, op)
                                    || matches!(op, Operand::Slot(s) if loaded.contains_key(&s));
                                if !ok {
                                    bad.push(target);
                                }
                            }
                        }
                        // uses of loaded values
                        if let Operand::Slot(s) = op {
                            if let Some(cell) = loaded.get(&s) {
                                let ok = match role {
                                    Role::CallArg(i) => match op_kind {
                                        Some(o) => {
                                            o.params().get(i) == Some(&Param::Idx(Ty::Str))
                                                && !(o.writes_first() && i == 0)
                                        }
                                        None => !symbolic && !special,
                                    },
                                    Role::StoreValue => store_target.is_some_and(is_cell),
                                    Role::NullCmp => matches!(
                                        &inst.kind,
                                        InstKind::ICmp { lhs, rhs, .. }
                                            if is_null(module, *lhs) || is_null(module, *rhs)
                                    ),
                                    _ => false,
                                };
                                if !ok {
                                    bad.push(*cell);
                                }
                            }
                        }
                    });
                }
                block_operands(b, |op| {
                    if let Operand::Slot(s) = op {
                        if let Some(cell) = loaded.get(&s) {
                            bad.push(*cell);
                        }
                        if local.contains(&s) {
                            bad.push(op);
                        }
                    }
                });
            }
            for op in bad {
                let removed = match op {
                    Operand::Slot(s) => cells.get_mut(&f).is_some_and(|c| c.remove(&s)),
                    Operand::Const(_) => {
                        const_global(module, op).is_some_and(|g| globals.remove(&g))
                    }
                };
                changed |= removed;
            }
        }
        if !changed {
            break;
        }
    }
    a.str_globals = globals;
    for &f in &a.program {
        let func = module.function(f);
        let local = cells.remove(&f).unwrap_or_default();
        let facts = a.facts.get_mut(&f).expect("program function");
        for b in &func.blocks {
            for inst in &b.insts {
                if let (InstKind::Load { ptr, .. }, Some(d)) = (&inst.kind, inst.dest) {
                    let from_cell = match ptr {
                        Operand::Slot(s) => local.contains(s),
                        Operand::Const(_) => {
                            const_global(module, *ptr).is_some_and(|g| a.str_globals.contains(&g))
                        }
                    };
                    if from_cell {
                        facts.str_loads.insert(d);
                    }
                }
            }
        }
        facts.str_cells = local;
    }
}

/// Which pointers are used as strings: backwards from the string operators' arguments
/// through zero-offset `getelementptr`s, pointer cells (`char *p = buf`), and the
/// parameters of program functions, to a fixpoint over the module.
fn string_dataflow(module: &Module, scope: &Scope, a: &mut Analysis) {
    let mut string_params: FxHashSet<(FuncId, usize)> = FxHashSet::default();
    let mut globals: FxHashSet<GlobalId> = FxHashSet::default();
    loop {
        let mut changed = false;
        for &f in &a.program {
            let func = module.function(f);
            let facts = a.facts.get_mut(&f).expect("program function");
            let s = &mut facts.string_slots;
            let mut cells: FxHashSet<Slot> = FxHashSet::default();
            for i in 0..func.params.len() {
                if string_params.contains(&(f, i)) {
                    changed |= s.insert(Slot(i as u32));
                }
            }
            let start = s.len() + globals.len();
            loop {
                let before = s.len() + cells.len() + globals.len();
                for b in &func.blocks {
                    for inst in &b.insts {
                        let op = scope.string_op(module, &inst.kind);
                        let mut mark = |o: Operand, s: &mut FxHashSet<Slot>| match o {
                            Operand::Slot(x) => {
                                s.insert(x);
                            }
                            Operand::Const(_) => {
                                if let Some(g) = const_global(module, o) {
                                    globals.insert(g);
                                }
                            }
                        };
                        match &inst.kind {
                            InstKind::Call { callee, args, .. } => {
                                for (i, arg) in args.iter().enumerate() {
                                    let used = match (op, callee) {
                                        (Some(o), _) => {
                                            o.params().get(i) == Some(&Param::Idx(Ty::Str))
                                        }
                                        (None, Callee::Direct(g)) => {
                                            string_params.contains(&(*g, i))
                                        }
                                        _ => false,
                                    };
                                    if used {
                                        mark(*arg, s);
                                    }
                                }
                            }
                            InstKind::Gep {
                                base,
                                offset: 0,
                                indices,
                            } if indices.is_empty()
                                && inst.dest.is_some_and(|d| s.contains(&d)) =>
                            {
                                mark(*base, s);
                            }
                            InstKind::Load {
                                ptr: Operand::Slot(cell),
                                ..
                            } if inst.dest.is_some_and(|d| s.contains(&d)) => {
                                cells.insert(*cell);
                            }
                            InstKind::Store {
                                ptr: Operand::Slot(cell),
                                value,
                                ..
                            } if cells.contains(cell) => {
                                mark(*value, s);
                            }
                            _ => {}
                        }
                    }
                }
                if s.len() + cells.len() + globals.len() == before {
                    break;
                }
            }
            changed |= s.len() + globals.len() != start;
            for i in 0..func.params.len() {
                if s.contains(&Slot(i as u32)) {
                    changed |= string_params.insert((f, i));
                }
            }
        }
        if !changed {
            break;
        }
    }
    a.string_globals = globals;
}

/// The allocated type of a slot defined by an `alloca` (None for any other slot).
pub fn alloca_type(module: &Module, func: FuncId, s: Slot) -> Option<TypeId> {
    let f = module.function(func);
    f.blocks
        .iter()
        .flat_map(|b| &b.insts)
        .find(|i| i.dest == Some(s))
        .and_then(|i| match &i.kind {
            InstKind::Alloca { elem, .. } => Some(*elem),
            _ => None,
        })
}

/// The object a pointer operand starts: through zero-offset `getelementptr`s within the
/// function (`None` when it is computed some other way).
pub fn root(module: &Module, func: FuncId, op: Operand) -> Operand {
    let f = module.function(func);
    let mut op = op;
    for _ in 0..8 {
        let Operand::Slot(s) = op else { return op };
        let def = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .find(|i| i.dest == Some(s));
        match def.map(|i| &i.kind) {
            Some(InstKind::Gep {
                base,
                offset: 0,
                indices,
            }) if indices.is_empty() => op = *base,
            _ => return op,
        }
    }
    op
}
