//! sear's expression library: hash-consed bit-vector and array expressions.
//!
//! * [`Expr`]: an immutable, hash-consed, `Send + Sync` expression of width 1..=128
//!   (booleans are width 1), with KLEE's node kinds and a canonical form.
//! * [`ac`]: AC normalisation of `+`, `*`, `&`, `|`, `^` chains (a canonical operand
//!   order, so a reduction computed in two orders builds one node), and its switch.
//! * [`Array`], [`ArrayRef`], [`UpdateList`]: byte arrays and persistent write lists.
//! * The simplifying constructors on [`Expr`] (module `build`): constant folding everywhere
//!   and local algebraic rewrites.
//! * [`Assignment`] and [`Evaluator`]: evaluation under a model.
//! * [`ite_lift`] and [`ite_compare`]: operators over merged values' `ite`s, and
//!   comparisons of `ite` trees with constant leaves against constants as formulas.
//! * [`visit`]: collecting arrays and reads, substitution and rewriting.
//! * [`smtlib`]: SMT-LIB2 printing and parsing.
//! * [`reads`]: dynamic constant folding of reads as an explicit [`ReadPolicy`], and its
//!   counter.
//! * [`quant`]: quantified clauses `∀i. 1 ≤ i ≤ k → ψ` (bound variables, instantiation).
//! * [`congruence`]: power-of-two congruences of index terms (shared by the array-read
//!   transformations of `sear-arrayopt` and the solver).
//! * [`interval`]: unsigned intervals of terms (the solver's answers without a solver).
//! * [`fp`]: floating-point operations as expression nodes (`ExprKind::Fp`) and their
//!   constructors.
//! * [`fpsem`]: IEEE 754 binary32/binary64 arithmetic on bits as x86-64 computes it.
//!
//! ```
//! use sear_expr::{Array, ArrayKind, Assignment, Expr, UpdateList};
//! let input = Array::new("x", 4, ArrayKind::SymbolicInput, None);
//! let x = Expr::read_lsb(&UpdateList::new(input.clone()), Expr::constant(0, 32), 4);
//! // (x + 1) - 1 simplifies back to x.
//! let e = Expr::sub(Expr::add(x.clone(), Expr::constant(1, 32)), Expr::constant(1, 32));
//! assert_eq!(e, x);
//! let mut model = Assignment::new();
//! model.insert(input, vec![1, 0, 0, 0]);
//! assert_eq!(model.evaluate(&e), 1);
//! ```

pub mod ac;
pub mod array;
pub mod bits;
mod build;
pub mod congruence;
pub mod eval;
pub mod expr;
pub mod fold;
pub mod fp;
pub mod fpsem;
pub mod intern;
pub mod interval;
pub mod ite_compare;
pub mod ite_lift;
pub mod junctions;
pub mod quant;
pub mod reads;
pub mod smtlib;
#[cfg(feature = "testing")]
pub mod testing;
pub mod visit;

pub use array::{Array, ArrayKind, ArrayRef, UpdateList, UpdateNode};
pub use eval::{Assignment, Evaluator};
pub use expr::{BinOp, CmpOp, Expr, ExprKind};
pub use reads::ReadPolicy;
