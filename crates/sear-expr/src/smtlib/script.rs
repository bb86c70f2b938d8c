//! Printing complete query scripts.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::array::ArrayRef;
use crate::expr::Expr;
use crate::smtlib::dag::{array_sort, write_const, Dag, Sort};
use crate::smtlib::names::{kind_tag, ArrayNames};

/// What to write around the assertions of a query script.
#[derive(Clone, Debug, Default)]
pub struct QueryPrintOptions {
    /// Comment lines for the top of the script (each is prefixed with `; `).
    pub comments: Vec<String>,
    /// Arrays to declare even if no constraint reads them (so that a model covers them).
    pub extra_arrays: Vec<ArrayRef>,
    /// Terms to ask for with `(get-value ...)` after `(check-sat)`.
    pub get_values: Vec<Expr>,
    /// Write `(get-model)` after `(check-sat)`.
    pub get_model: bool,
}

/// Writes a complete, self-contained SMT-LIB2 script asserting every constraint.
///
/// The script sets the logic (`QF_ABV`, or `QF_BV` when no array is involved), declares each
/// symbolic array after a `; sear-array NAME size=N kind=K` comment, defines each constant
/// array as a `store` chain over `((as const ...) #x00)`, binds every shared subterm once
/// (with `let` inside one assertion, with `define-fun` when shared between assertions), and
/// ends with `(check-sat)`, the requested `get-value`/`get-model` commands and `(exit)`.
/// Width-1 expressions are written as `Bool` where a formula is expected and as
/// `(_ BitVec 1)` where a bit-vector is. Printing is iterative, so any depth is fine.
pub fn print_query(constraints: &[Expr], options: &QueryPrintOptions) -> String {
    let mut units: Vec<Expr> = constraints.to_vec();
    units.extend(options.get_values.iter().cloned());
    let mut dag = Dag::new(&units, true);
    let mut arrays: BTreeSet<ArrayRef> = dag.arrays().clone();
    arrays.extend(options.extra_arrays.iter().cloned());
    let mut names = ArrayNames::default();
    for array in &arrays {
        names.name(array);
    }
    dag.set_prefix(names.fresh_prefix());

    let mut out = String::new();
    for comment in &options.comments {
        for line in comment.lines() {
            let _ = writeln!(out, "; {line}");
        }
    }
    let logic = match (arrays.is_empty(), crate::quant::contains_forall(&units)) {
        (true, false) => "QF_BV",
        (false, false) => "QF_ABV",
        (true, true) => "BV",
        (false, true) => "ABV",
    };
    let _ = writeln!(out, "(set-logic {logic})");
    for array in &arrays {
        let name = names.get(array).expect("named above");
        let sort = array_sort(array.index_width());
        let _ = writeln!(
            out,
            "; sear-array {name} size={} kind={}",
            array.size(),
            kind_tag(array.kind())
        );
        match array.contents() {
            None => {
                let _ = writeln!(out, "(declare-fun {name} () {sort})");
            }
            Some(bytes) => {
                let _ = write!(out, "(define-fun {name} () {sort} ");
                write_contents(&mut out, bytes, array.index_width());
                out.push_str(")\n");
            }
        }
    }
    dag.write_globals(&names, &mut out);
    for i in 0..constraints.len() {
        out.push_str("(assert ");
        dag.write_unit(i, Some(Sort::Bool), &names, &mut out, usize::MAX);
        out.push_str(")\n");
    }
    out.push_str("(check-sat)\n");
    if !options.get_values.is_empty() {
        out.push_str("(get-value (");
        for i in 0..options.get_values.len() {
            if i > 0 {
                out.push(' ');
            }
            dag.write_unit(constraints.len() + i, None, &names, &mut out, usize::MAX);
        }
        out.push_str("))\n");
    }
    if options.get_model {
        out.push_str("(get-model)\n");
    }
    out.push_str("(exit)\n");
    out
}

/// Writes bytes as a `store` chain over a zero constant array: the non-zero bytes, plus the
/// last byte so that the size can be recovered without the `; sear-array` comment.
pub(crate) fn write_contents(out: &mut String, bytes: &[u8], index_width: u32) {
    write_store_chain(out, &dense_stores(bytes), index_width);
}

/// The (index, byte) pairs [`write_contents`] stores for `bytes`.
pub(crate) fn dense_stores(bytes: &[u8]) -> Vec<(u128, u8)> {
    let last = bytes.len().checked_sub(1);
    (0..bytes.len())
        .filter(|&i| bytes[i] != 0 || Some(i) == last)
        .map(|i| (i as u128, bytes[i]))
        .collect()
}

/// `stores` (innermost first) over `((as const ...) #x00)`.
pub(crate) fn write_store_chain(out: &mut String, stores: &[(u128, u8)], index_width: u32) {
    for _ in stores {
        out.push_str("(store ");
    }
    let _ = write!(out, "((as const {}) #x00)", array_sort(index_width));
    for &(i, b) in stores {
        out.push(' ');
        write_const(out, i, index_width, Sort::Bv);
        out.push(' ');
        write_const(out, b as u128, 8, Sort::Bv);
        out.push(')');
    }
}
