//! Table calls: the indexed operator tables read over concrete or symbolic indices.

use sear_expr::Expr;
use sear_indexify::encode::{self, Column, Decode};
use sear_indexify::ops::{Op, Param, Ret};
use sear_indexify::tables::{Key, NO_MATCH};
use sear_indexify::{Ty, BOTTOM, NULL};
use sear_ir::{Inst, Module, TypeId, TypeKind};

use super::out_of_garden;
use crate::executor::{Exec, Executor};
use crate::memory::ptr_error;
use crate::state::State;
use crate::value::Value;

/// Two symbolic indices are read from one two-dimensional slice up to this many cells;
/// beyond, the first index is enumerated (one path per value, as KLEE forks per row).
const MAX_2D_CELLS: usize = 1 << 14;

/// An argument of a table call once its index is known.
#[derive(Clone, Debug)]
enum Got {
    Index(Expr),
    Int(u64),
}

impl Executor<'_> {
    /// `__indexify_i_<op>(args)`: the value of the table, or `None` when the call went to the
    /// original function (a frame was pushed whose return sets the result).
    pub(super) fn table_call(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        op: Op,
        args: &[Value],
        arg_types: &[TypeId],
    ) -> Exec<Option<Value>> {
        let params = op.params();
        if op == Op::Str(sear_indexify::ops::StrFn::Strcpy) {
            // the result is the source's value, written into the destination
            let src = args
                .get(1)
                .ok_or_else(|| crate::executor::step::exec("strcpy with too few arguments"))?;
            let Some(r) = self.string_index(state, src)? else {
                return self.fallback(module, state, inst, op, args, arg_types);
            };
            self.exclude_out_of_band(state, &r, Ty::Str, &op)?;
            self.write_string(state, &args[0], &r)?;
            return Ok(Some(args[0].clone()));
        }
        let mut got = Vec::with_capacity(params.len());
        for (i, p) in params.iter().enumerate() {
            let v = args.get(i).ok_or_else(|| {
                crate::executor::step::exec("table called with too few arguments")
            })?;
            got.push(match p {
                Param::Idx(Ty::Str) if is_ptr(module, arg_types.get(i)) => {
                    match self.string_index(state, v)? {
                        Some(e) => Got::Index(e),
                        None => return self.fallback(module, state, inst, op, args, arg_types),
                    }
                }
                Param::Idx(_) => Got::Index(Expr::zext_or_trunc(v.to_expr(), 32)),
                Param::Int(_) => {
                    Got::Int(self.concretize(state, v, "an integer argument of a table")? as u64)
                }
            });
        }
        // ⊥ and NULL never reach a row
        for (p, g) in params.iter().zip(&got) {
            if let (Param::Idx(t), Got::Index(e)) = (p, g) {
                self.exclude_out_of_band(state, e, *t, &op)?;
            }
        }
        let width = result_width(module, inst, &op);
        let cell = self.lookup(state, &op, &params, &got, width)?;
        Ok(Some(self.finish_table(state, &op, args, cell, width)?))
    }

    /// Ends (or splits off) the paths on which an index argument is ⊥ (out of the garden)
    /// or the NULL string (a null pointer passed to a string function: a `ptr` error).
    fn exclude_out_of_band(&mut self, state: &mut State, e: &Expr, t: Ty, op: &Op) -> Exec<()> {
        let null_error = || ptr_error(&format!("null pointer passed to {}", op.family()));
        if let Some(c) = e.as_constant() {
            return match c as u32 {
                BOTTOM => {
                    self.ix().stats.out_of_garden += 1;
                    Err(out_of_garden())
                }
                NULL if t == Ty::Str => Err(null_error()),
                _ => Ok(()),
            };
        }
        if self.ix().in_garden.contains(e) {
            return Ok(());
        }
        let bottom = Expr::eq(e.clone(), Expr::constant(BOTTOM as u128, 32));
        let null = Expr::eq(e.clone(), Expr::constant(NULL as u128, 32));
        for (cond, is_bottom) in [(bottom, true), (null, false)] {
            if !is_bottom && t != Ty::Str {
                continue;
            }
            if self
                .sv
                .may_be_true(state, &cond, "indexify: out-of-band index")?
            {
                if self
                    .sv
                    .must_be_true(state, &cond, "indexify: out-of-band index")?
                {
                    if is_bottom {
                        self.ix().stats.out_of_garden += 1;
                        return Err(out_of_garden());
                    }
                    return Err(null_error());
                }
                let other = self.branch(state, cond.clone());
                if is_bottom {
                    self.ix().stats.out_of_garden += 1;
                    self.terminate(other, out_of_garden());
                } else {
                    self.terminate(other, null_error());
                }
                state.add_constraint(Expr::not(cond));
            }
        }
        Ok(())
    }

    /// The table's cell for the arguments: a row when every index is concrete, a read of
    /// the slice's constant array otherwise.
    fn lookup(
        &mut self,
        state: &mut State,
        op: &Op,
        params: &[Param],
        got: &[Got],
        width: u32,
    ) -> Exec<Expr> {
        let mut fixed: Vec<Option<Key>> = Vec::with_capacity(got.len());
        let mut free: Vec<(Ty, Expr)> = Vec::new();
        for (p, g) in params.iter().zip(got) {
            match (p, g) {
                (Param::Idx(t), Got::Index(e)) => match e.as_constant() {
                    Some(c) => fixed.push(Some(Key::Pos(c as u32 - t.base()))),
                    None => {
                        fixed.push(None);
                        free.push((*t, e.clone()));
                    }
                },
                (_, Got::Int(v)) => fixed.push(Some(Key::Int(*v))),
                (Param::Int(_), Got::Index(_)) => unreachable!("ints are concretised"),
            }
        }
        let decode = decode_of(op);
        if free.is_empty() {
            self.ix().stats.concrete_lookups += 1;
            let key: Vec<Key> = fixed.into_iter().map(|k| k.expect("all fixed")).collect();
            let cell = self.ix().tables().concrete(op, &key);
            let col = encode::column("row", &[cell], decode);
            return Ok(encode::read(&col, Expr::constant(0, 32), width));
        }
        self.ix().stats.symbolic_lookups += 1;
        if free.len() == 2 && free[0].1 == free[1].1 {
            // the same index twice (x * x): the diagonal
            let (t, e) = free[0].clone();
            let col = self.diagonal(op, &fixed, decode);
            return Ok(self.read_column(&col, encode::position(&e, t), width));
        }
        if free.len() == 2 {
            let sizes: Vec<usize> = {
                let s = self.ix();
                let tables = s.tables();
                free.iter()
                    .map(|(t, _)| tables.garden(*t).map_or(0, |g| g.len()))
                    .collect()
            };
            if sizes[0] * sizes[1] > MAX_2D_CELLS {
                // fork per row: fix the first symbolic index to each of its values in turn
                let (t, e) = free.remove(0);
                let v = self.sv.get_value(state, &e, "indexify: row")?;
                let is = Expr::eq(e.clone(), Expr::constant(v, 32));
                if !self.sv.must_be_true(state, &is, "indexify: row")? {
                    self.ix().stats.row_forks += 1;
                    self.fork_restart(state, Expr::not(is.clone()), "indexify: row");
                    state.add_constraint(is);
                }
                let slot = fixed.iter().position(Option::is_none).expect("two free");
                fixed[slot] = Some(Key::Pos(v as u32 - t.base()));
            }
        }
        let col = self.column(op, &fixed, decode);
        let mut cell = Expr::constant(0, 32);
        let dims: Vec<usize> = {
            let s = self.ix();
            let tables = s.tables();
            free.iter()
                .map(|(t, _)| tables.garden(*t).map_or(0, |g| g.len()))
                .collect()
        };
        for ((t, e), d) in free.iter().zip(&dims) {
            cell = Expr::add(
                Expr::mul(cell, Expr::constant(*d as u128, 32)),
                encode::position(e, *t),
            );
        }
        Ok(self.read_column(&col, cell, width))
    }

    fn read_column(&mut self, col: &Column, cell: Expr, width: u32) -> Expr {
        let v = encode::read(col, cell, width);
        if matches!(col.decode, Decode::Index(_)) && !col.has_bottom {
            self.ix().in_garden.insert(v.clone());
        }
        v
    }

    /// The constant array of a slice (built once per slice and garden size).
    fn column(&mut self, op: &Op, fixed: &[Option<Key>], decode: Decode) -> Column {
        let s = self.ix();
        let size: usize = s.tables().gardens().values().map(|g| g.len()).sum();
        let key = (*op, fixed.to_vec(), false, size);
        if let Some(c) = s.columns.get(&key) {
            return c.clone();
        }
        let (_, cells) = s.tables().slice(op, fixed);
        let col = encode::column(&format!("iot_{}", op.name()), &cells, decode);
        s.columns.insert(key, col.clone());
        col
    }

    /// The diagonal of a table over one index used for two parameters.
    fn diagonal(&mut self, op: &Op, fixed: &[Option<Key>], decode: Decode) -> Column {
        let s = self.ix();
        let size: usize = s.tables().gardens().values().map(|g| g.len()).sum();
        let key = (*op, fixed.to_vec(), true, size);
        if let Some(c) = s.columns.get(&key) {
            return c.clone();
        }
        let mut tables = s.tables();
        let n = tables.garden(op.ty()).map_or(0, |g| g.len());
        let cells: Vec<u64> = (0..n as u32)
            .map(|p| {
                let row: Vec<Key> = fixed.iter().map(|k| k.unwrap_or(Key::Pos(p))).collect();
                tables.cell(op, &row)
            })
            .collect();
        drop(tables);
        let col = encode::column(&format!("iot_{}_diag", op.name()), &cells, decode);
        s.columns.insert(key, col.clone());
        col
    }

    /// Turns a table's cell into the call's result: offsets into pointers, the result of
    /// `strcpy`/`strcat` into the destination's new contents.
    fn finish_table(
        &mut self,
        state: &mut State,
        op: &Op,
        args: &[Value],
        cell: Expr,
        width: u32,
    ) -> Exec<Value> {
        match op.ret() {
            Ret::Offset => {
                let base = Expr::zext_or_trunc(args[0].to_expr(), 64);
                let none = Expr::eq(cell.clone(), Expr::constant(NO_MATCH as u128, 64));
                let p = Expr::select(none, Expr::constant(0, 64), Expr::add(base, cell));
                Ok(Value::from_expr(p))
            }
            Ret::Idx(Ty::Str) if op.writes_first() => {
                self.exclude_out_of_band(state, &cell, Ty::Str, op)?;
                self.write_string(state, &args[0], &cell)?;
                Ok(args[0].clone())
            }
            _ => Ok(Value::from_expr(Expr::zext_or_trunc(cell, width))),
        }
    }

    /// Calls the original function (the runtime's implementation) instead of the table:
    /// an argument index is materialised as a string.
    fn fallback(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        op: Op,
        args: &[Value],
        arg_types: &[TypeId],
    ) -> Exec<Option<Value>> {
        self.ix().stats.fallbacks += 1;
        let name = op.family();
        let Some(f) = module.function_by_name(name) else {
            return Err(crate::executor::step::exec(format!(
                "indexify: '{name}' has no implementation to fall back to"
            )));
        };
        let ptr = module
            .types
            .iter()
            .position(|t| t.kind == TypeKind::Ptr)
            .map(|i| TypeId(i as u32));
        let mut values = Vec::with_capacity(args.len());
        let mut types = Vec::with_capacity(args.len());
        for (i, v) in args.iter().enumerate() {
            let is_index = op.params().get(i) == Some(&Param::Idx(Ty::Str))
                && !is_ptr(module, arg_types.get(i));
            if is_index {
                values.push(self.materialize(state, &v.to_expr())?);
                types.push(ptr.unwrap_or(arg_types[i]));
            } else {
                values.push(v.clone());
                types.push(arg_types[i]);
            }
        }
        self.call_function(module, state, inst, f, values, &types)?;
        Ok(None)
    }
}

fn is_ptr(module: &Module, t: Option<&TypeId>) -> bool {
    t.is_some_and(|t| module.ty(*t).kind == TypeKind::Ptr)
}

/// How a table's cells decode.
fn decode_of(op: &Op) -> Decode {
    match op.ret() {
        Ret::Idx(t) => Decode::Index(t),
        Ret::Int(w) => Decode::Int(w),
        Ret::Bool => Decode::Int(1),
        Ret::Offset => Decode::Int(64),
    }
}

/// The width of a table call's result value.
fn result_width(module: &Module, inst: &Inst, op: &Op) -> u32 {
    match op.ret() {
        Ret::Idx(_) => 32,
        Ret::Offset => 64,
        Ret::Bool => 1,
        Ret::Int(w) => match module.ty(inst.ty).bit_width {
            0 => w,
            b => b,
        },
    }
}
