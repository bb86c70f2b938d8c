//! The initial state: globals, constants and the call of the entry function.

use std::sync::Arc;

use sear_ir::{ConstId, Constant, FloatKind, Module, TypeKind};

use super::calls::function_address;
use super::layout;
use super::ops::{self, Scalar};
use super::step::select_value;
use super::{EngineError, Executor, Handler};
use crate::memory::{AddressSpace, AllocRequest, Init, ObjectKind};
use crate::state::{State, StateId};
use crate::value::Value;

/// Zero constants larger than this (bytes) are not materialised as values.
const LARGE_ZERO: u64 = 1 << 16;

impl Executor<'_> {
    /// Builds the state that calls the entry function with `argv`.
    pub(crate) fn initial_state(&mut self) -> Result<State, EngineError> {
        let module = Arc::clone(&self.program.module);
        let entry = entry_function(&module, &self.config.entry)?;
        let [heap, stack_alloc, global_alloc] =
            crate::memory::allocator::initial(module.data_model);
        let mut state = State {
            id: StateId(0),
            stack: Vec::new(),
            memory: AddressSpace::default(),
            addresses: Default::default(),
            heap,
            stack_alloc,
            global_alloc,
            constraints: sear_solver::PathCondition::with_simplification(
                self.sv.simplification.enabled,
            ),
            symbolics: imbl::Vector::new(),
            depth: 0,
            path: Default::default(),
            follow: self
                .config
                .replay_path
                .clone()
                .map(|record| crate::path::Follow::one((*record).clone(), true, 0)),
            instructions: 0,
            insts_since_cov_new: 0,
            covered_new: false,
            ptree_node: 0,
            cex_preferences: Vec::new(),
            trace_hash: 0,
            array_counter: 0,
            forking_disabled: false,
            query_cost: Default::default(),
            current_inst: 0,
            stack_bytes: 0,
            open_merges: Vec::new(),
            taint: Default::default(),
            loop_member: None,
            seeds: Default::default(),
            deferred: None,
            seed_hint: None,
            seed_fixed: false,
            output: Default::default(),
            alloc_families: Default::default(),
            eh_landing: None,
            rounding: Default::default(),
        };
        self.run.next_state = 1;
        self.place_globals(&module, &mut state)?;
        self.program.consts = Vec::with_capacity(module.constants.len());
        for i in 0..module.constants.len() {
            let value = self.eval_constant(&module, ConstId(i as u32));
            self.program.consts.push(value);
        }
        self.init_globals(&module, &mut state);
        let args = self.entry_arguments(&module, &mut state, entry)?;
        let param_types = module.function(entry).params.clone();
        self.push_frame(&module, &mut state, entry, args, &param_types, &[], None)
            .map_err(|t| EngineError::Entry(format!("cannot call the entry function: {t:?}")))?;
        // Constructors run first (the last frame pushed runs first), lowest priority first.
        for f in global_constructors(&module).into_iter().rev() {
            self.push_frame(&module, &mut state, f, Vec::new(), &[], &[], None)
                .map_err(|t| EngineError::Entry(format!("cannot call a constructor: {t:?}")))?;
        }
        Ok(state)
    }

    /// Gives every global an object in the initial state (before constants, which may refer
    /// to their addresses).
    fn place_globals(&mut self, module: &Module, state: &mut State) -> Result<(), EngineError> {
        let mut addresses = Vec::with_capacity(module.globals.len());
        for g in &module.globals {
            let size = g.size.unwrap_or(8);
            if !state.global_alloc.fits(size, g.align.max(1)) {
                return Err(EngineError::AddressSpace(format!(
                    "global '{}' of {size} bytes does not fit in the globals' region of a \
                     32-bit program (768 MiB)",
                    g.name
                )));
            }
            let mut request = AllocRequest::new(size, ObjectKind::Global, &g.name, Init::Zero)
                .aligned(g.align.max(1))
                .at(g.loc);
            request.read_only = g.is_constant;
            addresses.push(self.memory.alloc(state, request).address);
        }
        self.program.global_addrs = addresses;
        Ok(())
    }

    /// Writes every global's initializer.
    fn init_globals(&mut self, module: &Module, state: &mut State) {
        for (i, g) in module.globals.iter().enumerate() {
            let address = self.program.global_addrs[i];
            match g.init {
                // Objects start zeroed: nothing to write (and no per-byte work for a huge
                // zero-initialised array).
                Some(c) if matches!(module.constant(c), Constant::Zero(_) | Constant::Undef(_)) => {
                }
                Some(c) => {
                    let value = self.program.consts[c.0 as usize].clone();
                    let (segment, at) = state
                        .memory
                        .whole_segment_mut(address)
                        .expect("global object");
                    layout::write_initializer(module, segment, at, g.ty, &value);
                }
                None => {
                    let text = format!(
                        "external global '{}' has no definition; using {} zero bytes",
                        g.name,
                        g.size.unwrap_or(8)
                    );
                    self.report.warn_once(&text);
                }
            }
        }
    }

    /// Evaluates a module constant now that globals and functions have addresses.
    fn eval_constant(&mut self, module: &Module, id: ConstId) -> Value {
        let c = |ex: &mut Self, id: ConstId| -> Value {
            if (id.0 as usize) < ex.program.consts.len() {
                ex.program.consts[id.0 as usize].clone()
            } else {
                ex.eval_constant(module, id)
            }
        };
        match module.constant(id) {
            Constant::Int { width, value } => Value::concrete(*value, *width),
            Constant::Float { kind, bits } => Value::concrete(*bits, ops::float_width(*kind)),
            Constant::Null => Value::Concrete(0, 64),
            // A large zero aggregate is only ever an initializer (clang copies large values
            // with memcpy/memset): it is left out, as objects start zeroed.
            Constant::Undef(ty) | Constant::Zero(ty) if module.ty(*ty).size > LARGE_ZERO => {
                Value::Aggregate(Vec::new().into())
            }
            Constant::Undef(ty) | Constant::Zero(ty) => layout::zero_value(module, *ty),
            Constant::GlobalAddr(g) => {
                Value::Concrete(self.program.global_addrs[g.0 as usize] as u128, 64)
            }
            // An undefined weak function (nothing defines or implements it) is null.
            Constant::FuncAddr(f)
                if module.function(*f).is_extern_weak
                    && matches!(self.program.handlers[f.0 as usize], Handler::Missing) =>
            {
                Value::Concrete(0, 64)
            }
            Constant::FuncAddr(f) => Value::Concrete(function_address(*f) as u128, 64),
            Constant::BlockAddr(f, b) => {
                Value::Concrete(super::calls::block_address(module, *f, *b) as u128, 64)
            }
            Constant::Aggregate { elems, .. } => {
                let items: Vec<Value> = elems.iter().map(|e| c(self, *e)).collect();
                Value::Aggregate(items.into())
            }
            Constant::PtrOffset { base, offset } => {
                let b = c(self, *base).as_concrete().unwrap_or(0);
                layout::fit_pointer(module, Value::concrete(b.wrapping_add(*offset as u128), 64))
            }
            Constant::Cast { op, value, to } => {
                let v = c(self, *value);
                let from = match v.width() {
                    32 if matches!(
                        op,
                        sear_ir::CastOp::FpExt
                            | sear_ir::CastOp::FpToSi
                            | sear_ir::CastOp::FpToUi
                            | sear_ir::CastOp::FpTrunc
                    ) =>
                    {
                        Scalar::Float(FloatKind::Single)
                    }
                    64 if matches!(
                        op,
                        sear_ir::CastOp::FpExt
                            | sear_ir::CastOp::FpToSi
                            | sear_ir::CastOp::FpToUi
                            | sear_ir::CastOp::FpTrunc
                    ) =>
                    {
                        Scalar::Float(FloatKind::Double)
                    }
                    w => Scalar::Int(w),
                };
                let to = match &module.ty(*to).kind {
                    TypeKind::Float(k) => Scalar::Float(*k),
                    TypeKind::Int(w) => Scalar::Int(*w),
                    _ => Scalar::Int(64),
                };
                let r = ops::cast(*op, &v, from, to, Default::default())
                    .unwrap_or(Value::Concrete(0, 64));
                match op {
                    sear_ir::CastOp::IntToPtr => layout::fit_pointer(module, r),
                    _ => r,
                }
            }
            Constant::Binary { op, lhs, rhs } => {
                let (a, b) = (c(self, *lhs), c(self, *rhs));
                match ops::int_binop(*op) {
                    Some(bop) => ops::int_binary(bop, &a, &b),
                    None => Value::Concrete(0, a.width().max(1)),
                }
            }
            Constant::ICmp { pred, lhs, rhs } => {
                let (a, b) = (c(self, *lhs), c(self, *rhs));
                ops::icmp(*pred, &a, &b)
            }
            Constant::Select {
                cond,
                then_value,
                else_value,
            } => {
                let (x, t, e) = (c(self, *cond), c(self, *then_value), c(self, *else_value));
                select_value(&x, &t, &e)
            }
            // Metadata operands are arguments of intrinsics, which read them from the IR
            // (constrained floating point) or ignore them
            // (`llvm.experimental.noalias.scope.decl` in libc++'s optimised code).
            Constant::Metadata(_) => Value::Concrete(0, 64),
            Constant::Unsupported(what) => {
                let text = format!("unsupported constant expression '{what}' evaluates to 0");
                self.report.warn_once(&text);
                Value::Concrete(0, 64)
            }
        }
    }

    /// A NULL-terminated table of NUL-terminated strings (`argv`, `envp`), each string its
    /// own object named `name[i]`; returns the table's address.
    fn string_table(&mut self, state: &mut State, strings: &[String], name: &str) -> u64 {
        let mut pointers = Vec::new();
        for (i, s) in strings.iter().enumerate() {
            let mut bytes = s.as_bytes().to_vec();
            bytes.push(0);
            let size = bytes.len() as u64;
            let request = AllocRequest::new(
                size,
                ObjectKind::Environment,
                format!("{name}[{i}]"),
                Init::Bytes(bytes),
            )
            .aligned(1);
            pointers.push(self.memory.alloc(state, request).address);
        }
        pointers.push(0);
        let width = self.program.module.data_model.pointer_bits() as usize / 8;
        let table: Vec<u8> = pointers
            .iter()
            .flat_map(|p| p.to_le_bytes()[..width].to_vec())
            .collect();
        let size = table.len() as u64;
        let request = AllocRequest::new(size, ObjectKind::Environment, name, Init::Bytes(table))
            .aligned(width as u64);
        self.memory.alloc(state, request).address
    }

    /// The arguments of the entry function: `()`, `(argc, argv)` or `(argc, argv, envp)`.
    fn entry_arguments(
        &mut self,
        module: &Module,
        state: &mut State,
        entry: sear_ir::FuncId,
    ) -> Result<Vec<Value>, EngineError> {
        let f = module.function(entry);
        let kinds: Vec<&TypeKind> = f.params.iter().map(|t| &module.ty(*t).kind).collect();
        if kinds.is_empty() {
            return Ok(Vec::new());
        }
        let argv = self.config.argv.clone();
        let argv_addr = self.string_table(state, &argv, "argv");
        let mut args = vec![
            Value::concrete(self.config.argv.len() as u128, 32),
            Value::Concrete(argv_addr as u128, 64),
        ];
        if kinds.len() == 3 {
            let envp = self.config.envp.clone();
            let envp_addr = self.string_table(state, &envp, "envp");
            args.push(Value::Concrete(envp_addr as u128, 64));
        }
        Ok(args)
    }
}

/// The entry function, checked: it must be defined and take `()`, `(int, char **)` or
/// `(int, char **, char **)`.
pub(crate) fn entry_function(module: &Module, name: &str) -> Result<sear_ir::FuncId, EngineError> {
    let entry = module
        .function_by_name(name)
        .filter(|f| !module.function(*f).is_declaration)
        .ok_or_else(|| EngineError::Entry(format!("entry function '{name}' not found")))?;
    let f = module.function(entry);
    let kinds: Vec<&TypeKind> = f.params.iter().map(|t| &module.ty(*t).kind).collect();
    let shape_ok = matches!(
        kinds.as_slice(),
        [] | [TypeKind::Int(32), TypeKind::Ptr] | [TypeKind::Int(32), TypeKind::Ptr, TypeKind::Ptr]
    );
    if !shape_ok {
        return Err(EngineError::Entry(format!(
            "'{}' has an unsupported signature: expected (), (int, char **) or (int, char **, char **)",
            f.name
        )));
    }
    Ok(entry)
}

/// The functions of `llvm.global_ctors` (`__attribute__((constructor))`), in the order they
/// run: by priority, then in the order of the table. Only defined functions without
/// parameters are run.
fn global_constructors(module: &Module) -> Vec<sear_ir::FuncId> {
    let Some(table) = module
        .global_index
        .get("llvm.global_ctors")
        .and_then(|g| module.global(*g).init)
    else {
        return Vec::new();
    };
    let Constant::Aggregate { elems, .. } = module.constant(table) else {
        return Vec::new();
    };
    let mut ctors: Vec<(u128, sear_ir::FuncId)> = Vec::new();
    for entry in elems {
        let Constant::Aggregate { elems: fields, .. } = module.constant(*entry) else {
            continue;
        };
        let (Some(priority), Some(function)) = (fields.first(), fields.get(1)) else {
            continue;
        };
        let priority = match module.constant(*priority) {
            Constant::Int { value, .. } => *value,
            _ => u128::MAX,
        };
        if let Constant::FuncAddr(f) = module.constant(*function) {
            let func = module.function(*f);
            if !func.is_declaration && func.params.is_empty() {
                ctors.push((priority, *f));
            }
        }
    }
    ctors.sort_by_key(|(priority, _)| *priority);
    ctors.into_iter().map(|(_, f)| f).collect()
}
