//! The queries the engine asks and the answers it gets back.
//!
//! A [`Query`] is KLEE's pair of a path condition (`constraints`, assumed satisfiable) and a
//! boolean `expr`, plus [`QueryMeta`], engine metadata that every layer passes through
//! unchanged. [`Validity`] is the three-valued answer of [`crate::Solver::evaluate`];
//! [`SolverError`] is "unknown, with a reason".

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use sear_expr::{ArrayRef, Expr};

use crate::address::AddressBindings;
use crate::intervals::IndexIntervals;

/// Engine metadata attached to a query and passed through every layer.
#[derive(Clone, Debug, Default)]
pub struct QueryMeta {
    /// Per array: the smallest access width in bytes at symbolic offsets.
    pub access_granularity: BTreeMap<ArrayRef, u32>,
    /// Arrays that stand for symbolic addresses.
    pub address_arrays: BTreeSet<ArrayRef>,
    /// True for engine-internal queries (e.g. bounds checks).
    pub internal: bool,
    /// Sound intervals of index terms, attached by the pre-check layer
    /// ([`crate::precheck`]) for the core below it; the engine leaves this empty.
    pub index_intervals: Option<Arc<IndexIntervals>>,
}

/// A path condition and a boolean expression to decide under it.
#[derive(Clone, Debug)]
pub struct Query<'a> {
    /// The path condition; assumed satisfiable.
    pub constraints: &'a [Expr],
    /// The expression asked about (boolean for validity queries).
    pub expr: Expr,
    /// Engine metadata.
    pub meta: &'a QueryMeta,
    /// The state's address constraints, substituted by [`crate::Solver`] before the chain
    /// sees the query (none in the standard memory model).
    pub addresses: Option<&'a AddressBindings>,
    /// The address-agnostic form of the query, for the address-aware cache (spec 003 §3;
    /// [`crate::aa`]). Without it, a query under `addresses` gets one from them.
    pub agnostic: Option<AgnosticForm<'a>>,
}

/// A query's address-agnostic form: its constraints and expression with symbolic bases
/// bound to hidden addresses kept symbolic (bases bound relative to others substituted:
/// [`AddressBindings::agnostic`]), and the bindings that give the bases' extents.
#[derive(Clone, Debug)]
pub struct AgnosticForm<'a> {
    /// The constraints, position by position those of the query.
    pub constraints: &'a [Expr],
    /// The expression.
    pub expr: Expr,
    /// The address constraints (for the extents of the bases).
    pub bindings: &'a AddressBindings,
}

impl<'a> Query<'a> {
    /// Creates a query.
    pub fn new(constraints: &'a [Expr], expr: Expr, meta: &'a QueryMeta) -> Self {
        Query {
            constraints,
            expr,
            meta,
            addresses: None,
            agnostic: None,
        }
    }

    /// The same query with its address-agnostic form.
    pub fn with_agnostic(self, agnostic: AgnosticForm<'a>) -> Query<'a> {
        Query {
            agnostic: Some(agnostic),
            ..self
        }
    }

    /// The same query under the address constraints `addresses`.
    pub fn with_addresses(self, addresses: &'a AddressBindings) -> Query<'a> {
        Query {
            addresses: Some(addresses),
            ..self
        }
    }

    /// The same path condition and metadata with another expression.
    pub fn with_expr(&self, expr: Expr) -> Query<'a> {
        Query {
            constraints: self.constraints,
            expr,
            meta: self.meta,
            addresses: self.addresses,
            agnostic: None,
        }
    }
}

/// The validity of a boolean expression under a path condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Validity {
    /// The expression is true in every model of the constraints.
    True,
    /// The expression is false in every model of the constraints.
    False,
    /// The expression may be either.
    Unknown,
}

/// Why the solver could not answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    /// The per-query time limit was hit.
    #[error("solver timeout")]
    Timeout,
    /// The solver failed (unknown result, internal error, or a failed cross-check).
    #[error("solver failure: {0}")]
    Failure(String),
    /// The query was interrupted from outside.
    #[error("solver interrupted")]
    Interrupted,
}
