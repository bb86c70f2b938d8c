//! The engine's side of Indexify (seed 004; the crate `sear-indexify` builds the gardens,
//! tables and rewritten module): the helpers the rewriter declares, executed over symbolic
//! indices.
//!
//! * `lookup`: table calls — every argument concrete: the row; otherwise a read of the
//!   constant-array slice left once the concrete arguments are fixed, at the symbolic
//!   position (the domain of a symbolic index is in its path condition);
//! * `values`: δ and δ⁻¹ of floats, symbolic inputs (indices with the domain assumption
//!   0 ≤ idx < |G|), and the value patterns that let δ recover an index from memory;
//! * `strings`: δ of a string in memory, materialising strings, `strcpy`/`strcat` writes.
//!
//! ⊥ is out of band (`sear_indexify::BOTTOM`); a path on which it may reach a table, δ⁻¹ or
//! a write ends there as an `out-of-garden` early termination, never an error.

mod derive;
mod lookup;
mod strings;
mod values;

use std::sync::{Arc, Mutex, MutexGuard};

use rustc_hash::{FxHashMap, FxHashSet};
use sear_expr::Expr;
use sear_indexify::encode::{Column, Matrix};
use sear_indexify::tables::Key;
use sear_indexify::{Helper, Tables, Ty};
use sear_ir::{Inst, Module, TypeId};
use serde::Serialize;

use super::{Exec, Executor, Handler, SpecialFn};
use crate::state::State;
use crate::termination::Termination;
use crate::value::Value;

/// What an indexified run gives the engine.
pub struct IndexifyRun {
    /// Gardens and tables (shared: the caller saves the table cache after the run).
    pub tables: Arc<Mutex<Tables>>,
    /// The helper each declared `__indexify_*` name stands for.
    pub helpers: FxHashMap<String, Helper>,
    /// The preprocessing's report, for summary.json's `indexify` section.
    pub report: serde_json::Value,
}

/// Counters of the exploration.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunStats {
    /// Paths ended because ⊥ became observable.
    pub out_of_garden: u64,
    /// Symbolic inputs made symbolic indices.
    pub symbolic_indices: u64,
    /// Table lookups with every index concrete.
    pub concrete_lookups: u64,
    /// Table lookups over symbolic indices (constant-array reads).
    pub symbolic_lookups: u64,
    /// Lookups over two different symbolic indices whose table was too large to read
    /// whole: one path per value of the first (fork per row).
    pub row_forks: u64,
    /// Calls answered by the original function because a string argument was not in the
    /// index world (symbolic bytes that are not δ⁻¹ of an index, a symbolic pointer).
    pub fallbacks: u64,
    /// δ of values: concrete, recognised as δ⁻¹ of an index, and by equality with every
    /// garden value (an `ite` chain).
    pub delta_concrete: u64,
    /// See `delta_concrete`.
    pub delta_pattern: u64,
    /// See `delta_concrete`.
    pub delta_chain: u64,
    /// δ⁻¹ of symbolic indices.
    pub undelta_symbolic: u64,
}

/// What δ⁻¹ of an index wrote: the index and the matrix its bytes come from.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    pub index: Expr,
    /// The position its bytes were read at (the source's, for a derived index).
    pub at: Expr,
    pub ty: Ty,
    pub matrix: Matrix,
    pub width: u32,
    /// For strings: the value is at most this long (bytes from here on read as zero).
    pub max_len: u64,
}

/// A lookup's column: the table, its fixed arguments, the maps of its symbolic arguments
/// (`derive.rs`) and the sizes of its sources.
pub(crate) type ColumnKey = (
    sear_indexify::ops::Op,
    Vec<Option<Key>>,
    Vec<usize>,
    Vec<usize>,
);

/// The engine's Indexify state.
pub(crate) struct IndexifyState {
    pub tables: Arc<Mutex<Tables>>,
    helpers: FxHashMap<String, Helper>,
    by_function: Vec<Option<Helper>>,
    pub columns: FxHashMap<ColumnKey, Column>,
    pub matrices: FxHashMap<(Ty, u32, usize), Matrix>,
    /// Value matrices of derived indices, by (type, width, map).
    pub composed_matrices: FxHashMap<(Ty, u32, usize), Matrix>,
    /// Index expressions made by lookups, as functions of their source.
    pub derived: FxHashMap<Expr, derive::Derived>,
    /// Every map of `derived`, once (interned by contents).
    pub maps: FxHashSet<Arc<[u32]>>,
    pub lengths: FxHashMap<usize, Column>,
    /// The first byte of every δ⁻¹ written, with what it came from.
    pub patterns: FxHashMap<Expr, Pattern>,
    /// Index expressions that are never ⊥ or NULL (symbolic inputs, reads of columns
    /// without ⊥).
    pub in_garden: FxHashSet<Expr>,
    pub stats: RunStats,
    report: serde_json::Value,
}

impl IndexifyState {
    /// The tables, locked (the run is single-threaded: never contended).
    pub fn tables(&self) -> MutexGuard<'_, Tables> {
        self.tables.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The termination of a path on which ⊥ became observable.
pub(crate) fn out_of_garden() -> Termination {
    Termination::Early("out-of-garden".into())
}

impl Executor<'_> {
    /// Runs the rewritten module's `__indexify_*` helpers with these tables.
    pub fn enable_indexify(&mut self, run: IndexifyRun) {
        let module = Arc::clone(&self.program.module);
        let mut by_function = vec![None; module.functions.len()];
        for (i, f) in module.functions.iter().enumerate() {
            if let Some(h) = run.helpers.get(&f.name) {
                if f.is_declaration {
                    by_function[i] = Some(*h);
                    self.program.handlers[i] = Handler::Special(SpecialFn::Indexify);
                }
            }
        }
        self.indexify = Some(Box::new(IndexifyState {
            tables: run.tables,
            helpers: run.helpers,
            by_function,
            columns: FxHashMap::default(),
            matrices: FxHashMap::default(),
            composed_matrices: FxHashMap::default(),
            derived: FxHashMap::default(),
            maps: FxHashSet::default(),
            lengths: FxHashMap::default(),
            patterns: FxHashMap::default(),
            in_garden: FxHashSet::default(),
            stats: RunStats::default(),
            report: run.report,
        }));
    }

    pub(crate) fn ix(&mut self) -> &mut IndexifyState {
        self.indexify
            .as_mut()
            .expect("indexify helpers run only when enabled")
    }

    /// Runs an `__indexify_*` helper.
    pub(crate) fn call_indexify(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        args: &[Value],
        arg_types: &[TypeId],
    ) -> Exec<()> {
        let f = match &inst.kind {
            sear_ir::InstKind::Call {
                callee: sear_ir::Callee::Direct(f),
                ..
            } => *f,
            _ => return Err(super::step::exec("indirect call of an indexify helper")),
        };
        let Some(helper) = self
            .indexify
            .as_ref()
            .and_then(|s| s.by_function[f.0 as usize])
        else {
            return Err(super::step::exec("indexify helper without tables"));
        };
        let arg = |i: usize| {
            args.get(i)
                .ok_or_else(|| super::step::exec("indexify helper called with too few arguments"))
        };
        let result = match helper {
            Helper::Table(op) => self.table_call(module, state, inst, op, args, arg_types)?,
            Helper::Delta(t) => Some(self.delta_value(state, t, arg(0)?)?),
            Helper::Undelta(Ty::Str) => Some(self.materialize(state, &arg(0)?.to_expr())?),
            Helper::Undelta(t) => Some(self.undelta_value(state, t, arg(0)?)?),
            Helper::SymbolicValue(t) | Helper::SymbolicIndex(t) => {
                let size = self
                    .cx()
                    .concretize(state, arg(1)?, "klee_make_symbolic size")?
                    as u64;
                let name = match arg(2) {
                    Ok(p) => self.indexify_name(state, p)?,
                    Err(_) => "unnamed".into(),
                };
                let as_index = matches!(helper, Helper::SymbolicIndex(_));
                self.symbolic_index(state, t, arg(0)?, size, &name, as_index)?;
                None
            }
        };
        if let (Some(dest), Some(v)) = (inst.dest, result) {
            state.frame_mut().locals[dest.0 as usize] = v;
        }
        Ok(())
    }

    /// summary.json's `indexify` section: the preprocessing's report, the tables' and the
    /// exploration's counters, and the time split.
    pub(crate) fn indexify_summary(&self, exploration_s: f64) -> serde_json::Value {
        let Some(s) = &self.indexify else {
            return serde_json::Value::Null;
        };
        let tables = s.tables();
        let mut report = s.report.clone();
        if let serde_json::Value::Object(map) = &mut report {
            let preprocessing = map.get("time_s").and_then(|v| v.as_f64()).unwrap_or(0.0);
            map.insert(
                "tables".into(),
                serde_json::to_value(&tables.stats).unwrap_or_default(),
            );
            map.insert("table_rows".into(), serde_json::json!(tables.row_count()));
            map.insert(
                "garden_final_sizes".into(),
                serde_json::to_value(
                    tables
                        .gardens()
                        .iter()
                        .map(|(t, g)| (t.name(), g.len()))
                        .collect::<std::collections::BTreeMap<_, _>>(),
                )
                .unwrap_or_default(),
            );
            map.insert(
                "run".into(),
                serde_json::to_value(&s.stats).unwrap_or_default(),
            );
            map.insert(
                "out_of_garden".into(),
                serde_json::json!(s.stats.out_of_garden),
            );
            map.insert("preprocessing_s".into(), serde_json::json!(preprocessing));
            map.insert("exploration_s".into(), serde_json::json!(exploration_s));
            map.insert("helpers".into(), serde_json::json!(s.helpers.len()));
        }
        report
    }
}

impl Executor<'_> {
    /// The test bytes of a symbolic index whose model is `bytes`: δ⁻¹ of the index (zeros
    /// if it names no value, which the domain assumption rules out).
    pub(crate) fn deindex(&self, d: crate::state::Deindex, bytes: &[u8]) -> Vec<u8> {
        let mut raw = [0u8; 4];
        for (r, b) in raw.iter_mut().zip(bytes) {
            *r = *b;
        }
        let index = u32::from_le_bytes(raw);
        self.indexify
            .as_ref()
            .and_then(|s| {
                s.tables()
                    .value(d.ty, index)
                    .map(|v| v.test_bytes(d.size as usize))
            })
            .unwrap_or_else(|| vec![0; d.size as usize])
    }
}
