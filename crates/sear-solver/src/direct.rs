//! SMT-LIB text answered by Z3 directly, for what sear's expression language cannot hold:
//! `sear solve` hands Z3 the scripts with bit-vectors wider than 128 bits (sear-expr keeps
//! constants in a `u128`, and the engine never needs more). The caller keeps the script's
//! structure (scopes, named assertions, what to print); this module checks a set of
//! declarations and assertions given as text, and reads values out of the model: Booleans,
//! bit-vectors of any width, and arrays as their default and explicit entries.
//!
//! Z3 errors (an ill-sorted term, an unknown symbol) are returned as messages; the context
//! has no error handler, so they never abort the process.

use std::time::Duration;

use z3::ast::{Ast, Dynamic, BV};
use z3::{Params, SatResult, SortKind};

/// The answer to a check.
pub enum DirectAnswer {
    /// Satisfiable, with a model.
    Sat(DirectModel),
    /// Unsatisfiable.
    Unsat,
    /// Z3 gave up; its reason.
    Unknown(String),
}

/// A value in a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DirectValue {
    /// A Boolean.
    Bool(bool),
    /// A bit-vector: its width and its bits as little-endian 64-bit limbs.
    Bv {
        /// The width in bits.
        width: u32,
        /// `ceil(width / 64)` limbs, least significant first.
        limbs: Vec<u64>,
    },
    /// An array from bit-vectors to bit-vectors: every element is `default` except at the
    /// listed indices.
    Array {
        /// The index width.
        index_width: u32,
        /// The element value where no entry says otherwise.
        default: Box<DirectValue>,
        /// (index, element) pairs, innermost store first.
        entries: Vec<(DirectValue, DirectValue)>,
    },
    /// Anything else, as Z3 prints it.
    Other(String),
}

/// A model of a satisfiable check.
pub struct DirectModel {
    model: z3::Model,
}

fn last_error() -> Option<String> {
    let ctx = z3::Context::thread_local().get_z3_context();
    // SAFETY: the thread's live context; reading its error state.
    unsafe {
        let code = z3_sys::Z3_get_error_code(ctx);
        if code == z3_sys::ErrorCode::Ok {
            return None;
        }
        let msg = z3_sys::Z3_get_error_msg(ctx, code);
        let text = if msg.is_null() {
            format!("{code:?}")
        } else {
            std::ffi::CStr::from_ptr(msg).to_string_lossy().into_owned()
        };
        // Clear it for the next call.
        z3_sys::Z3_set_error(ctx, z3_sys::ErrorCode::Ok);
        Some(text)
    }
}

/// Z3 on the calling thread's context.
#[derive(Clone, Debug, Default)]
pub struct DirectZ3 {
    timeout: Option<Duration>,
}

impl DirectZ3 {
    /// A checker with a time limit per check (`None`: none).
    pub fn new(timeout: Option<Duration>) -> DirectZ3 {
        DirectZ3 { timeout }
    }

    /// Checks the declarations and assertions in `text` (SMT-LIB commands: `declare-*`,
    /// `define-*`, `assert`).
    pub fn check(&self, text: &str) -> Result<DirectAnswer, String> {
        let solver = self.load(text)?;
        match solver.check() {
            SatResult::Sat => match solver.get_model() {
                Some(model) => Ok(DirectAnswer::Sat(DirectModel { model })),
                None => Err("Z3 answered sat without a model".into()),
            },
            SatResult::Unsat => Ok(DirectAnswer::Unsat),
            SatResult::Unknown => Ok(DirectAnswer::Unknown(
                solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into()),
            )),
        }
    }

    fn load(&self, text: &str) -> Result<z3::Solver, String> {
        let _ = last_error();
        let solver = z3::Solver::new();
        let mut p = Params::new();
        let ms = self
            .timeout
            .map_or(0, |t| t.as_millis().clamp(1, u32::MAX as u128) as u32);
        if ms > 0 {
            p.set_u32("timeout", ms);
        }
        p.set_bool("ctrl_c", false);
        solver.set_params(&p);
        solver.from_string(text);
        match last_error() {
            Some(e) => Err(e),
            None => Ok(solver),
        }
    }

    /// The term written `term` (with the declarations in `declarations`), parsed by Z3.
    fn term(&self, declarations: &str, term: &str) -> Result<Dynamic, String> {
        let solver = self.load(&format!("{declarations}\n(assert (= {term} {term}))"))?;
        let assertions = solver.get_assertions();
        let eq = assertions
            .last()
            .ok_or_else(|| format!("cannot read the term {term}"))?;
        eq.children()
            .into_iter()
            .next()
            .ok_or_else(|| format!("cannot read the term {term}"))
    }
}

impl DirectModel {
    /// The value of `term` (written with the names of `declarations`) in the model, every
    /// symbol the model leaves free taken as Z3 completes it.
    pub fn value(
        &self,
        z3: &DirectZ3,
        declarations: &str,
        term: &str,
    ) -> Result<DirectValue, String> {
        let ast = z3.term(declarations, term)?;
        let value = self
            .model
            .eval(&ast, true)
            .ok_or_else(|| format!("cannot evaluate {term}"))?;
        Ok(read_value(&value))
    }
}

/// A model value as a [`DirectValue`].
fn read_value(value: &Dynamic) -> DirectValue {
    match value.sort_kind() {
        SortKind::Bool => match value.as_bool().and_then(|b| b.as_bool()) {
            Some(b) => DirectValue::Bool(b),
            None => DirectValue::Other(value.to_string()),
        },
        SortKind::Bv => match value.as_bv() {
            Some(bv) => read_bv(&bv).unwrap_or_else(|| DirectValue::Other(value.to_string())),
            None => DirectValue::Other(value.to_string()),
        },
        SortKind::Array => {
            read_array(value).unwrap_or_else(|| DirectValue::Other(value.to_string()))
        }
        _ => DirectValue::Other(value.to_string()),
    }
}

/// A bit-vector numeral, read 64 bits at a time.
fn read_bv(bv: &BV) -> Option<DirectValue> {
    let width = bv.get_size();
    let mut limbs = Vec::new();
    let mut lo = 0;
    while lo < width {
        let hi = (lo + 63).min(width - 1);
        limbs.push(bv.extract(hi, lo).simplify().as_u64()?);
        lo += 64;
    }
    Some(DirectValue::Bv { width, limbs })
}

/// An array value: `store` applications over a constant array (Z3's form for a model with
/// model completion).
fn read_array(value: &Dynamic) -> Option<DirectValue> {
    let domain = value.as_array()?.get_sort().array_domain()?;
    if domain.kind() != SortKind::Bv {
        return None;
    }
    let ctx = z3::Context::thread_local().get_z3_context();
    // SAFETY: a bit-vector sort of the thread's live context.
    let index_width = unsafe { z3_sys::Z3_get_bv_sort_size(ctx, domain.get_z3_sort()) };
    let mut entries = Vec::new();
    let mut current = value.clone();
    loop {
        let decl = current.safe_decl().ok()?;
        match decl.kind() {
            z3::DeclKind::Store => {
                let children = current.children();
                if children.len() != 3 {
                    return None;
                }
                entries.push((read_value(&children[1]), read_value(&children[2])));
                current = children[0].clone();
            }
            z3::DeclKind::ConstArray => {
                let default = read_value(current.children().first()?);
                entries.reverse();
                return Some(DirectValue::Array {
                    index_width,
                    default: Box::new(default),
                    entries,
                });
            }
            _ => return None,
        }
    }
}
