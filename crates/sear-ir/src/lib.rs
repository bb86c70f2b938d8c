//! Loading LLVM bitcode or textual IR and lowering it to sear's executable IR.
//!
//! Entry points: [`load_module`] reads a `.bc`/`.ll` file and lowers it to a [`Module`];
//! [`verify`] checks a lowered module's invariants; [`print_module`] and
//! [`print_function`] render it as text; [`frontend`] compiles C with clang-19 and links
//! bitcode with llvm-link-19.

pub mod error;
pub mod frontend;
pub mod ir;
pub mod liveness;
mod llvm;
pub mod loops;
mod lower;
mod print;
mod verify;

pub use error::IrError;
pub use ir::*;
pub use print::{print_constant, print_function, print_module, type_name};
pub use verify::verify;

use std::path::Path;

/// Reads an LLVM module from `path` (bitcode or textual IR; LLVM tells them apart by
/// content) and lowers it.
///
/// Fails when the file cannot be read, does not parse, fails LLVM's verifier, or targets a
/// big-endian or 32-bit machine. Instructions sear cannot execute do not fail the load:
/// they become [`InstKind::Unsupported`] / [`Terminator::Unsupported`]. In debug builds the
/// lowered module is checked with [`verify`]; [`load_module_verified`] checks it always.
pub fn load_module(path: &Path) -> Result<Module, IrError> {
    load(path, cfg!(debug_assertions))
}

/// [`load_module`], with the lowered module always checked by [`verify`] (`sear run
/// --verify-ir`; the test suites turn it on).
pub fn load_module_verified(path: &Path) -> Result<Module, IrError> {
    load(path, true)
}

fn load(path: &Path, check: bool) -> Result<Module, IrError> {
    let mut parsed = llvm::LlvmModule::parse(path).map_err(|e| hint_c_source(e, path))?;
    for message in parsed.diagnostics() {
        tracing::warn!("{}: {message}", path.display());
    }
    lower::check_target(&mut parsed, path)?;
    let module = lower::lower_module(&parsed, path);
    if check {
        verify(&module)?;
    }
    Ok(module)
}

/// The data layout and target triple of a module.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Target {
    /// The data layout string: the module's, or the x86-64 layout sear assumes (and the
    /// runtime has) when it names none.
    pub data_layout: String,
    /// The target triple (empty when the module names none).
    pub triple: String,
    /// The data model of the layout's pointer size (LP64 for a size sear refuses: loading
    /// the module reports it).
    pub data_model: DataModel,
}

/// Reads `path` (bitcode or textual IR) and returns its target, without lowering it; fails
/// like [`load_module`] when the file does not parse.
pub fn module_target(path: &Path) -> Result<Target, IrError> {
    let parsed = llvm::LlvmModule::parse(path).map_err(|e| hint_c_source(e, path))?;
    let mut data_layout = parsed.data_layout();
    let data_model = if data_layout.is_empty() {
        data_layout = lower::X86_64_LAYOUT.to_string();
        DataModel::Lp64
    } else {
        DataModel::from_pointer_size(parsed.layout().pointer_size(0)).unwrap_or_default()
    };
    Ok(Target {
        data_layout,
        triple: parsed.target_triple(),
        data_model,
    })
}

/// Adds a hint to parse errors of files that look like C sources.
fn hint_c_source(error: IrError, path: &Path) -> IrError {
    match error {
        IrError::Parse { path: p, message }
            if matches!(
                path.extension().and_then(|e| e.to_str()),
                Some("c" | "h" | "i")
            ) =>
        {
            IrError::Parse {
                path: p,
                message: format!("{message}\n(C sources must be compiled to bitcode first)"),
            }
        }
        other => other,
    }
}

/// The names of the functions and global variables a module declares without defining
/// (what a library linked with it may have to provide), in module order.
pub fn undefined_symbols(path: &Path) -> Result<Vec<String>, IrError> {
    let parsed = llvm::LlvmModule::parse(path).map_err(|e| hint_c_source(e, path))?;
    Ok(parsed
        .functions()
        .into_iter()
        .chain(parsed.globals())
        .filter(|v| v.is_declaration())
        .map(|v| v.name())
        .filter(|name| !name.starts_with("llvm."))
        .collect())
}
