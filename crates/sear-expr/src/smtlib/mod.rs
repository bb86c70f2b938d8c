//! SMT-LIB2 printing and parsing of the `QF_ABV`/`QF_BV` fragment, and parsing of the
//! floating-point logics `QF_FP`/`QF_BVFP`/`QF_ABVFP` (binary32 and binary64).
//!
//! * [`print_expr`] / [`print_term`]: one term, for diagnostics and logs.
//! * [`print_query`]: a complete, self-contained script (declarations, shared subterms bound
//!   once, assertions, `check-sat`), readable by any SMT solver and by [`parse_script`].
//! * [`print_model`], [`print_assignment`], [`print_values`]: models and `get-value` answers.
//! * [`parse_script`]: scripts into expressions over fresh arrays.
//!
//! `parse_script(&print_query(cs, ..))` gives back the constraints `cs` over new arrays with
//! the same names, sizes and kinds, rebuilt through the simplifying constructors.

mod dag;
mod decl;
mod fpops;
mod lexer;
mod macros;
mod model;
mod names;
mod ops;
mod parse;
mod print;
mod script;
mod term;

pub use lexer::ParseError;
pub use model::{
    format_float, format_rounding, format_value, print_assignment, print_model, print_values,
    ValueSort,
};
pub use parse::{parse_script, Command, Script};
pub use print::{print_expr, print_term};
pub use script::{print_query, QueryPrintOptions};
