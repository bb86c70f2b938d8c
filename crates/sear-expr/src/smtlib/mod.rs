//! SMT-LIB2 printing and parsing of the `QF_ABV`/`QF_BV` fragment.

mod print;

pub use print::print_expr;
