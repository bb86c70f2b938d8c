//! Table calls: the indexed operator tables read over concrete or symbolic indices.

use sear_expr::Expr;
use sear_indexify::encode::{self, Decode};
use sear_indexify::ops::{Op, Param, Ret};
use sear_indexify::tables::{Key, NO_MATCH};
use sear_indexify::{Ty, BOTTOM, NULL};
use sear_ir::{Inst, Module, TypeId, TypeKind};

use super::derive::{out_of_band, Derived};
use super::out_of_garden;
use crate::executor::{Exec, Executor};
use crate::memory::ptr_error;
use crate::path::ForkKind;
use crate::state::State;
use crate::value::Value;

/// Two symbolic indices are read from one two-dimensional slice up to this many cells;
/// beyond, the first index is enumerated (one path per value, as KLEE forks per row).
const MAX_2D_CELLS: usize = 1 << 14;

/// An argument of a lookup: fixed, or derived from a symbolic source.
#[derive(Clone, Debug)]
enum Arg {
    Fixed(Key),
    Sym(Derived),
}

/// The distinct sources of the symbolic arguments, in argument order.
fn sources(args: &[Arg]) -> Vec<Derived> {
    let mut out: Vec<Derived> = Vec::new();
    for a in args {
        if let Arg::Sym(d) = a {
            if !out.iter().any(|s| s.source == d.source) {
                out.push(Derived {
                    map: None,
                    ..d.clone()
                });
            }
        }
    }
    out
}

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
            self.exclude_bottom(state, &r)?;
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
                Param::Int(_) => Got::Int(self.cx().concretize(
                    state,
                    v,
                    "an integer argument of a table",
                )? as u64),
            });
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
                if is_bottom {
                    self.ix().stats.out_of_garden += 1;
                    self.fork_check(state, Expr::not(cond), out_of_garden)?;
                } else {
                    self.fork_check(state, Expr::not(cond), null_error)?;
                }
            }
        }
        Ok(())
    }

    /// The table's cell for the arguments: a row when every index is concrete; otherwise
    /// one read of a constant array over the position of the (at most two) source indices
    /// the symbolic arguments derive from (`derive.rs`).
    fn lookup(
        &mut self,
        state: &mut State,
        op: &Op,
        params: &[Param],
        got: &[Got],
        width: u32,
    ) -> Exec<Expr> {
        let decode = decode_of(op);
        let index_result = matches!(decode, Decode::Index(_));
        let mut args: Vec<Arg> = Vec::with_capacity(got.len());
        for (p, g) in params.iter().zip(got) {
            args.push(match (p, g) {
                (Param::Idx(t), Got::Index(e)) => match e.as_constant() {
                    Some(c) => {
                        self.exclude_out_of_band(state, e, *t, op)?;
                        let pos = (c as u32).wrapping_sub(t.base());
                        if pos as usize >= self.ix().garden_len(*t) {
                            tracing::debug!("indexify: {op}: index {c:#x} is not a {t} index");
                            self.ix().stats.out_of_garden += 1;
                            return Err(out_of_garden());
                        }
                        Arg::Fixed(Key::Pos(pos))
                    }
                    None => {
                        let d = self.ix().derivation(e, *t);
                        if d.map.is_none() {
                            self.exclude_out_of_band(state, e, *t, op)?;
                        }
                        Arg::Sym(d)
                    }
                },
                (_, Got::Int(v)) => Arg::Fixed(Key::Int(*v)),
                (Param::Int(_), Got::Index(_)) => unreachable!("ints are concretised"),
            });
        }
        // at most two sources, and two only when their table is small: fix the others
        loop {
            let sources = sources(&args);
            let too_many = match sources.as_slice() {
                [a, b] => {
                    let (la, lb) = (self.ix().garden_len(a.ty), self.ix().garden_len(b.ty));
                    a.len(la) * b.len(lb) > MAX_2D_CELLS
                }
                s => s.len() > 2,
            };
            if !too_many {
                break;
            }
            tracing::debug!(
                "indexify: {op} over {} sources: {:?}",
                sources.len(),
                sources
                    .iter()
                    .map(|s| s.source.to_string())
                    .collect::<Vec<_>>()
            );
            self.fix_source(state, &mut args, &sources[0])?;
        }
        let sources = sources(&args);
        if sources.is_empty() {
            self.ix().stats.concrete_lookups += 1;
            let key: Vec<Key> = args
                .iter()
                .map(|a| match a {
                    Arg::Fixed(k) => *k,
                    Arg::Sym(_) => unreachable!(),
                })
                .collect();
            let cell = self.ix().tables().concrete(op, &key);
            let col = encode::column("row", &[cell], decode);
            return Ok(encode::read(&col, Expr::constant(0, 32), width));
        }
        self.ix().stats.symbolic_lookups += 1;
        let dims: Vec<usize> = sources
            .iter()
            .map(|d| {
                let n = self.ix().garden_len(d.ty);
                d.len(n)
            })
            .collect();
        let total: usize = dims.iter().product();
        let mut cells = Vec::with_capacity(total);
        let mut bad = Vec::with_capacity(total);
        let mut at = vec![0usize; sources.len()];
        {
            let s = self.ix();
            let mut tables = s.tables();
            for cell in 0..total {
                let mut rem = cell;
                for k in (0..dims.len()).rev() {
                    at[k] = rem % dims[k];
                    rem /= dims[k];
                }
                let mut key = Vec::with_capacity(args.len());
                let mut out_of_garden = false;
                for (a, p) in args.iter().zip(params) {
                    key.push(match a {
                        Arg::Fixed(k) => *k,
                        Arg::Sym(d) => {
                            let k = sources
                                .iter()
                                .position(|s| s.source == d.source)
                                .expect("source");
                            let i = d.at(at[k]);
                            let Param::Idx(t) = p else { unreachable!() };
                            if out_of_band(i) {
                                out_of_garden = true;
                                Key::Pos(0)
                            } else {
                                Key::Pos(i - t.base())
                            }
                        }
                    });
                }
                bad.push(out_of_garden);
                if out_of_garden {
                    cells.push(if index_result { BOTTOM as u64 } else { 0 });
                } else {
                    cells.push(tables.cell(op, &key));
                }
            }
        }
        let mut position = Expr::constant(0, 32);
        for (d, n) in sources.iter().zip(&dims) {
            position = Expr::add(
                Expr::mul(position, Expr::constant(*n as u128, 32)),
                d.position(),
            );
        }
        if !index_result {
            self.guard_positions(state, position.clone(), &bad)?;
        }
        let fixed: Vec<Option<Key>> = args
            .iter()
            .map(|a| match a {
                Arg::Fixed(k) => Some(*k),
                Arg::Sym(_) => None,
            })
            .collect();
        let maps: Vec<usize> = args
            .iter()
            .filter_map(|a| match a {
                Arg::Sym(d) => Some(d.map_id()),
                Arg::Fixed(_) => None,
            })
            .collect();
        let key = (*op, fixed, maps, dims.clone());
        let col = match self.ix().columns.get(&key) {
            Some(c) => c.clone(),
            None => {
                let c = encode::column(&format!("iot_{}", op.name()), &cells, decode);
                self.ix().columns.insert(key, c.clone());
                c
            }
        };
        let v = encode::read(&col, position, width);
        if index_result && sources.len() == 1 {
            let map = cells.iter().map(|&c| c as u32).collect();
            self.ix().record_derived(&v, &sources[0], map);
        }
        Ok(v)
    }

    /// Fixes a source index to one of its values (forking a path for the others, as KLEE
    /// forks per row); the arguments derived from it become concrete.
    fn fix_source(&mut self, state: &mut State, args: &mut [Arg], source: &Derived) -> Exec<()> {
        let e = &source.source;
        let v = self.sv.get_value(state, e, "indexify: row")?;
        let is = Expr::eq(e.clone(), Expr::constant(v, e.width()));
        if !self.sv.must_be_true(state, &is, "indexify: row")? {
            self.ix().stats.row_forks += 1;
            let rows = vec![is.clone(), Expr::not(is)];
            let taken = self.fork(state, ForkKind::Indexify, rows, |ex, _, other| {
                ex.restart(other, "indexify: row")
            })?;
            if taken == 1 {
                return Err(self.restart_current(state, "indexify: row"));
            }
        }
        let pos = (v as u32).wrapping_sub(source.ty.base()) as usize;
        for a in args.iter_mut() {
            if let Arg::Sym(d) = a {
                if d.source == *e {
                    let i = d.at(pos);
                    if out_of_band(i) {
                        self.ix().stats.out_of_garden += 1;
                        return Err(out_of_garden());
                    }
                    let base = Ty::of_index(i).map_or(0, Ty::base);
                    *a = Arg::Fixed(Key::Pos(i - base));
                }
            }
        }
        Ok(())
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
                self.exclude_bottom(state, &cell)?;
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
