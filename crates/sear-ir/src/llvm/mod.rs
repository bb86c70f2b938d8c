//! A thin read-only wrapper over the LLVM C API (through `llvm-sys`).
//!
//! sear reads LLVM modules through the C API directly rather than through the `llvm-ir`
//! crate, because `llvm-ir` 0.11 drops information the executor needs: the source element
//! type of constant `getelementptr` expressions (so their offsets cannot be computed), the
//! values of `half`/`x86_fp80`/`fp128` constants and of integers wider than 64 bits, and the
//! value type of external globals.
//!
//! All `unsafe` code of the crate lives in this module. Handles ([`Val`], [`Block`],
//! [`Ty`]) borrow the [`LlvmModule`] they come from, so they cannot outlive it; they are only
//! ever created from handles LLVM returned for that module.

mod types;
mod value;

pub(crate) use types::{Layout, Ty};
pub(crate) use value::{Block, DebugFile, Val};

use crate::error::IrError;
use llvm_sys::analysis::{LLVMVerifierFailureAction, LLVMVerifyModule};
use llvm_sys::core::*;
use llvm_sys::ir_reader::LLVMParseIRInContext;
use llvm_sys::prelude::*;
use llvm_sys::LLVMDiagnosticSeverity;
use std::ffi::{c_char, c_void, CStr, CString};
use std::marker::PhantomData;
use std::path::Path;

/// A parsed and verified LLVM module together with the context that owns it.
pub(crate) struct LlvmModule {
    ctx: LLVMContextRef,
    module: LLVMModuleRef,
    /// Messages LLVM reported through the context's diagnostic handler. Boxed so that its
    /// address, which LLVM holds, stays fixed when the module moves; dropped after the
    /// context.
    #[allow(clippy::box_collection)]
    diagnostics: Box<Vec<String>>,
}

impl Drop for LlvmModule {
    fn drop(&mut self) {
        // SAFETY: both handles were created by `parse` and are disposed exactly once, the
        // module before the context that owns its types and constants.
        unsafe {
            if !self.module.is_null() {
                LLVMDisposeModule(self.module);
            }
            LLVMContextDispose(self.ctx);
        }
    }
}

/// Collects LLVM diagnostics instead of letting LLVM print them and exit.
extern "C" fn collect_diagnostic(info: LLVMDiagnosticInfoRef, sink: *mut c_void) {
    // SAFETY: `sink` is the `Vec<String>` registered in `parse`, alive as long as the context.
    unsafe {
        let sink = &mut *(sink as *mut Vec<String>);
        let severity = match LLVMGetDiagInfoSeverity(info) {
            LLVMDiagnosticSeverity::LLVMDSError => "error",
            LLVMDiagnosticSeverity::LLVMDSWarning => "warning",
            LLVMDiagnosticSeverity::LLVMDSRemark => "remark",
            LLVMDiagnosticSeverity::LLVMDSNote => "note",
        };
        let text = take_message(LLVMGetDiagInfoDescription(info));
        sink.push(format!("{severity}: {text}"));
    }
}

/// Copies and frees a message string allocated by LLVM.
///
/// # Safety
/// `msg` must be null or a string LLVM allocated for the caller to free.
unsafe fn take_message(msg: *mut c_char) -> String {
    if msg.is_null() {
        return String::new();
    }
    let text = CStr::from_ptr(msg).to_string_lossy().trim_end().to_string();
    LLVMDisposeMessage(msg);
    text
}

/// Whether `bytes` are not text: NUL or other control bytes (besides tab, newline, carriage
/// return and form feed) in the first 4 KiB, or invalid UTF-8.
fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let control = head
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c) || b == 0x7f);
    let text = match std::str::from_utf8(head) {
        Ok(_) => true,
        // A multi-byte character cut by the 4 KiB window is still text.
        Err(e) => e.error_len().is_none(),
    };
    control || !text
}

/// `text` with control characters (other than newlines and tabs) escaped, so that an LLVM
/// message quoting a line of the input cannot write raw bytes to the terminal.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Converts a (pointer, length) string returned by LLVM into an owned string.
///
/// # Safety
/// `ptr` must be null or point to `len` readable bytes.
unsafe fn lossy_str(ptr: *const c_char, len: usize) -> String {
    if ptr.is_null() || len == 0 {
        return String::new();
    }
    let bytes = std::slice::from_raw_parts(ptr as *const u8, len);
    String::from_utf8_lossy(bytes).into_owned()
}

/// Walks an LLVM intrusive list given its first element and a successor function.
fn walk<T>(first: *mut T, next: unsafe extern "C" fn(*mut T) -> *mut T) -> Vec<*mut T> {
    let mut out = Vec::new();
    let mut cur = first;
    while !cur.is_null() {
        out.push(cur);
        // SAFETY: `cur` is a live element of the list.
        cur = unsafe { next(cur) };
    }
    out
}

impl LlvmModule {
    /// Reads `path` (bitcode or textual IR; LLVM detects which by content, but a `.bc` file
    /// must be bitcode) and verifies the module.
    pub(crate) fn parse(path: &Path) -> Result<Self, IrError> {
        let bytes = std::fs::read(path).map_err(|source| IrError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let is_bitcode = bytes.starts_with(b"BC\xC0\xDE") || bytes.starts_with(b"\xDE\xC0\x17\x0B");
        // Never echo the file's bytes: a binary file that is not bitcode is rejected here,
        // before LLVM's text parser quotes the offending line.
        if !is_bitcode && (path.extension().is_some_and(|e| e == "bc") || looks_binary(&bytes)) {
            return Err(IrError::Parse {
                path: path.to_path_buf(),
                message: "not LLVM bitcode or IR".to_string(),
            });
        }
        let buffer_name = CString::new(path.display().to_string().replace('\0', "?"))
            .expect("NUL bytes were replaced");
        // SAFETY: plain C API calls; every created object is owned by `this` or disposed.
        unsafe {
            let mut this = LlvmModule {
                ctx: LLVMContextCreate(),
                module: std::ptr::null_mut(),
                diagnostics: Box::default(),
            };
            let sink: *mut Vec<String> = &mut *this.diagnostics;
            LLVMContextSetDiagnosticHandler(
                this.ctx,
                Some(collect_diagnostic),
                sink as *mut c_void,
            );
            let buffer = LLVMCreateMemoryBufferWithMemoryRangeCopy(
                bytes.as_ptr() as *const c_char,
                bytes.len(),
                buffer_name.as_ptr(),
            );
            let mut message: *mut c_char = std::ptr::null_mut();
            // Takes ownership of `buffer` in every case.
            let failed = LLVMParseIRInContext(this.ctx, buffer, &mut this.module, &mut message);
            let message = take_message(message);
            if failed != 0 || this.module.is_null() {
                this.module = std::ptr::null_mut();
                let details = printable(&this.with_diagnostics(message));
                let message = if is_bitcode {
                    format!("truncated or corrupt bitcode ({details})")
                } else {
                    details
                };
                return Err(IrError::Parse {
                    path: path.to_path_buf(),
                    message,
                });
            }
            let mut message: *mut c_char = std::ptr::null_mut();
            let broken = LLVMVerifyModule(
                this.module,
                LLVMVerifierFailureAction::LLVMReturnStatusAction,
                &mut message,
            );
            let message = take_message(message);
            if broken != 0 {
                return Err(IrError::InvalidModule {
                    path: path.to_path_buf(),
                    message: this.with_diagnostics(message),
                });
            }
            Ok(this)
        }
    }

    /// `message` followed by any diagnostics LLVM reported.
    fn with_diagnostics(&self, message: String) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !message.is_empty() {
            parts.push(message);
        }
        parts.extend(self.diagnostics.iter().cloned());
        if parts.is_empty() {
            parts.push("unknown error".to_string());
        }
        parts.join("\n")
    }

    /// Warnings LLVM reported while reading the module.
    pub(crate) fn diagnostics(&self) -> &[String] {
        &self.diagnostics
    }

    /// The module's functions (defined and declared), in module order.
    pub(crate) fn functions(&self) -> Vec<Val<'_>> {
        // SAFETY: the module is live.
        let first = unsafe { LLVMGetFirstFunction(self.module) };
        walk(first, LLVMGetNextFunction)
            .into_iter()
            .map(Val::new)
            .collect()
    }

    /// The module's global variables, in module order.
    pub(crate) fn globals(&self) -> Vec<Val<'_>> {
        // SAFETY: the module is live.
        let first = unsafe { LLVMGetFirstGlobal(self.module) };
        walk(first, LLVMGetNextGlobal)
            .into_iter()
            .map(Val::new)
            .collect()
    }

    /// The module's global aliases, in module order.
    pub(crate) fn aliases(&self) -> Vec<Val<'_>> {
        // SAFETY: the module is live.
        let first = unsafe { LLVMGetFirstGlobalAlias(self.module) };
        walk(first, LLVMGetNextGlobalAlias)
            .into_iter()
            .map(Val::new)
            .collect()
    }

    /// The data layout string (empty when the module has none).
    pub(crate) fn data_layout(&self) -> String {
        // SAFETY: the module is live; the result is a NUL-terminated string it owns.
        unsafe { CStr::from_ptr(LLVMGetDataLayoutStr(self.module)) }
            .to_string_lossy()
            .into_owned()
    }

    /// Replaces the data layout string.
    pub(crate) fn set_data_layout(&mut self, layout: &str) {
        let layout = CString::new(layout).expect("data layout strings contain no NUL");
        // SAFETY: the module is live; LLVM copies the string.
        unsafe { LLVMSetDataLayout(self.module, layout.as_ptr()) }
    }

    /// The target triple (empty when the module has none).
    pub(crate) fn target_triple(&self) -> String {
        // SAFETY: the module is live; the result is a NUL-terminated string it owns.
        unsafe { CStr::from_ptr(LLVMGetTarget(self.module)) }
            .to_string_lossy()
            .into_owned()
    }

    /// The `source_filename` of the module.
    pub(crate) fn source_file_name(&self) -> String {
        let mut len = 0usize;
        // SAFETY: the module is live; the result points to `len` bytes it owns.
        unsafe { lossy_str(LLVMGetSourceFileName(self.module, &mut len), len) }
    }

    /// The module's data layout, for type sizes and offsets.
    pub(crate) fn layout(&self) -> Layout<'_> {
        // SAFETY: the module is live; the target data belongs to it.
        Layout::new(unsafe { llvm_sys::target::LLVMGetModuleDataLayout(self.module) })
    }
}

/// Marker tying handles to the module they come from.
type ModuleLife<'m> = PhantomData<&'m LlvmModule>;
