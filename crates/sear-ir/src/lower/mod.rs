//! Lowering of a parsed LLVM module to sear's IR.
//!
//! The [`Lowerer`] walks the module once: it declares every function and global (so that
//! constants can refer to them), lowers global initializers and aliases, then function
//! bodies. Types, constants and file names are interned as they are met.

mod constants;
mod function;
mod gep;
mod inst;
mod loc;
mod types;

use crate::error::IrError;
use crate::ir::*;
use crate::llvm::{Layout, LlvmModule, Val};
use llvm_sys::prelude::{LLVMTypeRef, LLVMValueRef};
use rustc_hash::{FxHashMap, FxHashSet};
use std::path::Path;

/// The data layout clang-19 uses for x86_64-pc-linux-gnu, assumed when a module has none.
pub(crate) const X86_64_LAYOUT: &str =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128";

/// Checks that the module's target is one sear can execute, and gives modules without a
/// data layout the x86-64 one.
pub(crate) fn check_target(llvm: &mut LlvmModule, path: &Path) -> Result<(), IrError> {
    if llvm.data_layout().is_empty() {
        tracing::warn!(
            "{}: module has no data layout; assuming x86-64 System V",
            path.display()
        );
        llvm.set_data_layout(X86_64_LAYOUT);
    }
    let layout = llvm.layout();
    let unsupported = |message: String| IrError::UnsupportedTarget {
        path: path.to_path_buf(),
        message,
    };
    if !layout.is_little_endian() {
        return Err(unsupported("big-endian data layout".to_string()));
    }
    let pointer_size = layout.pointer_size(0);
    if DataModel::from_pointer_size(pointer_size).is_none() {
        return Err(unsupported(format!(
            "{}-bit pointers (sear executes 64-bit and 32-bit pointers)",
            pointer_size * 8
        )));
    }
    let triple = llvm.target_triple();
    // A 32-bit module (i386) is executed with its own data layout (sear run warns).
    if pointer_size == 8 && !triple.is_empty() && !triple.starts_with("x86_64") {
        tracing::warn!(
            "{}: target {triple} is not x86-64; its data layout is honoured but external \
             functions are modelled as on x86-64 Linux",
            path.display()
        );
    }
    Ok(())
}

/// Lowers a parsed module (whose target [`check_target`] accepted).
pub(crate) fn lower_module(llvm: &LlvmModule, path: &Path) -> Module {
    let mut lowerer = Lowerer::new(llvm.layout());
    lowerer.module.data_model = DataModel::from_pointer_size(llvm.layout().pointer_size(0))
        .expect("check_target accepted the pointer size");
    let source = llvm.source_file_name();
    lowerer.module.name = if source.is_empty() {
        path.display().to_string()
    } else {
        source
    };
    let functions = llvm.functions();
    let globals = llvm.globals();
    let mut unnamed = 0u32;
    for &g in &globals {
        lowerer.declare_global(g, &mut unnamed);
    }
    for &f in &functions {
        lowerer.declare_function(f, &mut unnamed);
    }
    for &g in &globals {
        if let Some(init) = g.initializer() {
            let id = lowerer.global_ids[&g.raw()];
            let init = lowerer.constant(init);
            lowerer.module.globals[id.0 as usize].init = Some(init);
        }
    }
    for alias in llvm.aliases() {
        let target = lowerer.constant(alias);
        lowerer.module.aliases.insert(alias.name(), target);
    }
    for &f in &functions {
        if !f.is_declaration() {
            let id = lowerer.func_ids[&f.raw()];
            lowerer.lower_body(f, id);
        }
    }
    lowerer.module
}

/// State of one module's lowering.
pub(crate) struct Lowerer<'m> {
    /// The module's data layout.
    layout: Layout<'m>,
    /// The module being built.
    module: Module,
    /// LLVM type → interned type.
    type_cache: FxHashMap<LLVMTypeRef, TypeId>,
    /// Structural type interning.
    type_index: FxHashMap<TypeKind, TypeId>,
    /// LLVM constant → lowered constant.
    const_cache: FxHashMap<LLVMValueRef, ConstId>,
    /// Structural constant interning.
    const_index: FxHashMap<Constant, ConstId>,
    /// Aliases being resolved (to detect cycles).
    aliases_in_progress: FxHashSet<LLVMValueRef>,
    /// Debug-location file strings → file id.
    file_cache: FxHashMap<(usize, usize, usize, usize), Option<FileId>>,
    /// File name → file id.
    file_index: FxHashMap<String, FileId>,
    /// LLVM function → id.
    func_ids: FxHashMap<LLVMValueRef, FuncId>,
    /// LLVM global variable → id.
    global_ids: FxHashMap<LLVMValueRef, GlobalId>,
}

impl<'m> Lowerer<'m> {
    fn new(layout: Layout<'m>) -> Self {
        Lowerer {
            layout,
            module: Module::default(),
            type_cache: FxHashMap::default(),
            type_index: FxHashMap::default(),
            const_cache: FxHashMap::default(),
            const_index: FxHashMap::default(),
            aliases_in_progress: FxHashSet::default(),
            file_cache: FxHashMap::default(),
            file_index: FxHashMap::default(),
            func_ids: FxHashMap::default(),
            global_ids: FxHashMap::default(),
        }
    }

    /// Registers a global variable (its initializer is lowered later).
    fn declare_global(&mut self, g: Val<'m>, unnamed: &mut u32) {
        let name = name_or_number(g, unnamed);
        let value_ty = g.value_type();
        let ty = self.ty(value_ty);
        let sized = value_ty.is_sized();
        let mut size = sized.then(|| self.layout.alloc_size(value_ty));
        if g.is_declaration() && size == Some(0) {
            // `extern int a[];` is declared as `[0 x i32]`: its size is unknown.
            size = None;
        }
        let align = match g.alignment() {
            0 if sized => self.layout.abi_align(value_ty),
            0 => 1,
            explicit => explicit,
        };
        let id = GlobalId(self.module.globals.len() as u32);
        self.global_ids.insert(g.raw(), id);
        self.module.global_index.insert(name.clone(), id);
        let loc = self.loc(g);
        self.module.globals.push(Global {
            name,
            ty,
            size,
            align,
            init: None,
            is_constant: g.is_global_constant(),
            loc,
        });
    }

    /// Registers a function (its body is lowered later).
    fn declare_function(&mut self, f: Val<'m>, unnamed: &mut u32) {
        let name = name_or_number(f, unnamed);
        let fn_ty = f.value_type();
        let params: Vec<_> = fn_ty
            .param_types()
            .into_iter()
            .map(|t| self.ty(t))
            .collect();
        let byval = (0..params.len() as u32)
            .map(|i| f.param_byval_type(i).map(|t| self.ty(t)))
            .collect();
        let ret = self.ty(fn_ty.return_type());
        let id = FuncId(self.module.functions.len() as u32);
        self.func_ids.insert(f.raw(), id);
        self.module.function_index.insert(name.clone(), id);
        let loc = self.loc(f);
        let param_names = f.params().into_iter().map(|p| p.name()).collect();
        self.module.functions.push(Function {
            name,
            params,
            param_names,
            byval,
            ret,
            is_vararg: fn_ty.is_vararg(),
            blocks: Vec::new(),
            num_slots: 0,
            is_declaration: f.is_declaration(),
            is_extern_weak: f.is_extern_weak(),
            loc,
        });
    }
}

/// The value's name, or the next number (as LLVM numbers unnamed globals) when it has none.
fn name_or_number(v: Val<'_>, counter: &mut u32) -> String {
    let name = v.name();
    if name.is_empty() {
        *counter += 1;
        (*counter - 1).to_string()
    } else {
        name
    }
}
