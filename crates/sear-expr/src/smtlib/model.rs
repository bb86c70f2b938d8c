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

/// A bit-vector literal: `#x..` when the width is a multiple of four, `#b..` otherwise.
pub fn format_value(value: u128, width: u32) -> String {
    let mut out = String::new();
    write_const(&mut out, value, width, Sort::Bv);
    out
}

/// Prints a model of `script` as `(model (define-fun ...) ...)`.
///
/// Declared bit-vector and Boolean constants get their values (evaluated from the bytes of
/// their arrays); every other declared array gets a `store` chain over
/// `((as const ...) #x00)` holding the non-zero bytes the model gives it (and its last
/// byte); every byte not written is zero, as in [`Assignment`].
pub fn print_model(model: &Assignment, script: &Script) -> String {
    let mut out = String::from("(model\n");
    let mut evaluator = Evaluator::new(model);
    let mut names = ArrayNames::default();
    let mut behind_consts: BTreeSet<ArrayRef> = BTreeSet::new();
    for (name, e, is_bool) in script
        .bitvector_consts
        .iter()
        .map(|(n, e)| (n, e, false))
        .chain(script.bool_consts.iter().map(|(n, e)| (n, e, true)))
    {
        behind_consts.extend(crate::visit::collect_arrays([e]));
        let value = evaluator.eval(e);
        let (sort, literal) = if is_bool {
            (
                "Bool".to_string(),
                if value == 1 { "true" } else { "false" }.to_string(),
            )
        } else {
            (
                format!("(_ BitVec {})", e.width()),
                format_value(value, e.width()),
            )
        };
        let _ = writeln!(
            out,
            "  (define-fun {} () {sort} {literal})",
            crate::smtlib::names::quote(&crate::smtlib::names::sanitize(name))
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
/// text. Width-1 values are printed as `true`/`false` (the expression does not record
/// whether the term was `Bool` or `(_ BitVec 1)`).
pub fn print_values(values: &[(String, Expr)], model: &Assignment) -> String {
    let mut evaluator = Evaluator::new(model);
    let mut out = String::from("(");
    for (i, (text, e)) in values.iter().enumerate() {
        if i > 0 {
            out.push_str("\n ");
        }
        let value = evaluator.eval(e);
        let _ = write!(out, "({text} ");
        write_const(&mut out, value, e.width(), Sort::Bool);
        out.push(')');
    }
    out.push_str(")\n");
    out
}
