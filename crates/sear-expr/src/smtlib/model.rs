//! Printing models (`get-model`) and values (`get-value`) in SMT-LIB2 syntax.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::array::ArrayRef;
use crate::eval::{Assignment, Evaluator};
use crate::expr::Expr;
use crate::smtlib::dag::{array_sort, write_const, Sort};
use crate::smtlib::names::ArrayNames;
use crate::smtlib::parse::Script;
use crate::smtlib::script::{dense_stores, write_store_chain};

/// The sort of a `get-value` term, which decides how its value is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueSort {
    /// `Bool`: `true`/`false`.
    Bool,
    /// A bit-vector: `#x..`/`#b..`.
    Bv,
    /// A float (the expression is its encoding): `(fp #b. #b.. #b..)`.
    Float,
    /// A rounding mode (a 3-bit index into [`crate::fp::RoundMode::ALL`]): `RNE`, ...
    RoundingMode,
}

/// A float's encoding as the literal `(fp #bS #bE.. #bM..)` (NaNs with their bits).
pub fn format_float(value: u128, width: u32) -> String {
    let (eb, mb) = if width == 32 { (8, 23) } else { (11, 52) };
    let e = (value >> mb) & ((1 << eb) - 1);
    let m = value & ((1 << mb) - 1);
    format!(
        "(fp #b{} #b{e:0eb$b} #b{m:0mb$b})",
        value >> (width - 1) & 1,
        eb = eb as usize,
        mb = mb as usize
    )
}

/// The SMT-LIB name of a rounding-mode value (a 3-bit index; above 4 is `RTZ`).
pub fn format_rounding(value: u128) -> &'static str {
    crate::fp::RoundMode::ALL[(value as usize).min(4)].smtlib()
}

fn format_sorted(value: u128, width: u32, sort: ValueSort) -> String {
    match sort {
        ValueSort::Float => format_float(value, width),
        ValueSort::RoundingMode => format_rounding(value).to_string(),
        ValueSort::Bool => {
            let mut out = String::new();
            write_const(&mut out, value, width, Sort::Bool);
            out
        }
        ValueSort::Bv => format_value(value, width),
    }
}

fn sorted(
    consts: &[(String, Expr)],
    sort: ValueSort,
) -> impl Iterator<Item = (String, Expr, ValueSort)> + '_ {
    consts
        .iter()
        .map(move |(n, e)| (n.clone(), e.clone(), sort))
}

/// A bit-vector literal: `#x..` when the width is a multiple of four, `#b..` otherwise.
pub fn format_value(value: u128, width: u32) -> String {
    let mut out = String::new();
    write_const(&mut out, value, width, Sort::Bv);
    out
}

/// Prints a model of `script` as `(model (define-fun ...) ...)`.
///
/// Declared bit-vector, Boolean, floating-point (`(fp ...)`) and rounding-mode constants get
/// their values (evaluated from the bytes of their arrays); every other declared array gets a `store` chain over
/// `((as const ...) #x00)` holding the non-zero bytes the model gives it (and its last
/// byte); every byte not written is zero, as in [`Assignment`].
pub fn print_model(model: &Assignment, script: &Script) -> String {
    let mut out = String::from("(model\n");
    let mut evaluator = Evaluator::new(model);
    let mut names = ArrayNames::default();
    let mut behind_consts: BTreeSet<ArrayRef> = BTreeSet::new();
    for (name, e, value_sort) in sorted(&script.bitvector_consts, ValueSort::Bv)
        .chain(sorted(&script.bool_consts, ValueSort::Bool))
        .chain(sorted(&script.fp_consts, ValueSort::Float))
        .chain(sorted(&script.rounding_consts, ValueSort::RoundingMode))
    {
        behind_consts.extend(crate::visit::collect_arrays([&e]));
        let value = evaluator.eval(&e);
        let sort = match value_sort {
            ValueSort::Bool => "Bool".to_string(),
            ValueSort::Bv => format!("(_ BitVec {})", e.width()),
            ValueSort::Float => {
                let (eb, sb) = if e.width() == 32 { (8, 24) } else { (11, 53) };
                format!("(_ FloatingPoint {eb} {sb})")
            }
            ValueSort::RoundingMode => "RoundingMode".to_string(),
        };
        let literal = format_sorted(value, e.width(), value_sort);
        let _ = writeln!(
            out,
            "  (define-fun {} () {sort} {literal})",
            crate::smtlib::names::quote(&crate::smtlib::names::sanitize(&name))
        );
    }
    for array in script.arrays.iter().filter(|a| !behind_consts.contains(*a)) {
        write_array(&mut out, &mut names, array, model);
    }
    out.push_str(")\n");
    out
}

/// Prints every array of an assignment as `(model (define-fun NAME () (Array ...) ...) ...)`.
pub fn print_assignment(model: &Assignment) -> String {
    let mut out = String::from("(model\n");
    let mut names = ArrayNames::default();
    for (array, _) in model.arrays() {
        write_array(&mut out, &mut names, array, model);
    }
    out.push_str(")\n");
    out
}

fn write_array(out: &mut String, names: &mut ArrayNames, array: &ArrayRef, model: &Assignment) {
    // Bytes beyond those held are zero, so only the held ones (or a constant array's
    // contents) are written, whatever the array's declared size.
    let bytes = array.contents().or_else(|| model.get(array)).unwrap_or(&[]);
    let name = names.name(array).to_string();
    let _ = write!(
        out,
        "  (define-fun {name} () {} ",
        array_sort(array.index_width())
    );
    // An unbounded array's bytes beyond the dense part (see `Assignment::set_outside`) are
    // stores over the dense part's chain.
    let mut stores = dense_stores(bytes);
    stores.extend(model.outside(array).filter(|(_, b)| *b != 0));
    write_store_chain(out, &stores, array.index_width());
    out.push_str(")\n");
}

/// Prints the answer to a `get-value` command: `((TERM VALUE) ...)`, each term as its source
/// text and its value in the term's sort.
pub fn print_values(values: &[(String, Expr, ValueSort)], model: &Assignment) -> String {
    let mut evaluator = Evaluator::new(model);
    let mut out = String::from("(");
    for (i, (text, e, sort)) in values.iter().enumerate() {
        if i > 0 {
            out.push_str("\n ");
        }
        let value = evaluator.eval(e);
        let _ = write!(out, "({text} {})", format_sorted(value, e.width(), *sort));
    }
    out.push_str(")\n");
    out
}
