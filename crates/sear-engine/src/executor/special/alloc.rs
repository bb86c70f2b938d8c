//! Allocation among the special functions: `malloc`, `realloc` and `free` (and their C++
//! and aligned forms through `AllocFamily`), with KLEE's concretisation of a symbolic size.
//! They are the executor's: a symbolic size forks one path per size, and a symbolic pointer
//! given to `free` or `realloc` forks one path per object it may point to.

use sear_expr::Expr;
use sear_ir::{Inst, Module};

use crate::executor::cxx::AllocFamily;
use crate::executor::memop::object_at;
use crate::executor::step::exec;
use crate::executor::sym_alloc::SizeDecision;
use crate::executor::{Exec, Executor};
use crate::memory::{bad_free, AllocRequest, Init, ObjectKind};
use crate::path::ForkKind;
use crate::state::State;
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

impl Executor<'_> {
    /// `malloc`-like allocation; a symbolic size is concretised as KLEE does.
    pub(in crate::executor) fn malloc(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        size: &Value,
        init: Init,
    ) -> Exec<Option<Value>> {
        let (size, sigma) = match size {
            Value::Concrete(s, _) => (*s as u64, None),
            Value::Symbolic(e) => {
                let mut allocate_other = |ex: &mut Self, st: &mut State, n: u64| {
                    let n = Value::Concrete(n as u128, 64);
                    let p = ex.malloc(module, st, inst, &n, init.clone())?;
                    Ok(p.unwrap_or(Value::Concrete(0, 64)))
                };
                match self.decide_size(state, inst.dest, e, false, &mut allocate_other)? {
                    SizeDecision::Concrete(n) => (n, None),
                    SizeDecision::Null => return Ok(Some(Value::Concrete(0, 64))),
                    SizeDecision::Symbolic { sigma, capacity } => (capacity, Some(sigma)),
                }
            }
            Value::Aggregate(_) => return Err(exec("aggregate allocation size")),
        };
        if size > self.config.max_alloc_size {
            self.report.warn_once(&format!(
                "allocation of {size} bytes exceeds the limit; returning NULL"
            ));
            return Ok(Some(Value::Concrete(0, 64)));
        }
        if !state.heap.fits(size, 16) {
            self.report.warn_once(&format!(
                "allocation of {size} bytes does not fit in the 32-bit address space; \
                 returning NULL"
            ));
            return Ok(Some(Value::Concrete(0, 64)));
        }
        let name = &module.function(state.frame().func).name;
        let mut request = AllocRequest::new(size, ObjectKind::Heap, name, init).at(inst.loc);
        if let Some(sigma) = sigma {
            request = request.with_symbolic_size(sigma);
        }
        Ok(Some(self.memory.alloc(state, request).base_value()))
    }

    pub(super) fn realloc(
        &mut self,
        module: &Module,
        state: &mut State,
        inst: &Inst,
        ptr: &Value,
        size: &Value,
    ) -> Exec<Value> {
        let address = match &state.settle(ptr) {
            Value::Symbolic(p) => {
                self.exact_base(state, &Expr::zext_or_trunc(p.clone(), 64), "realloc")?
            }
            _ => self.cx().concretize(state, ptr, "realloc pointer")? as u64,
        };
        let new_size = match size {
            Value::Symbolic(e) => {
                // As KLEE: fork on a zero size (realloc frees), then concretise the size; a
                // huge size yields NULL and keeps the old object.
                let e = Expr::zext_or_trunc(e.clone(), 64);
                let old = Value::Concrete(address as u128, 64);
                let mut allocate_other = |ex: &mut Self, st: &mut State, n: u64| {
                    ex.realloc(module, st, inst, &old, &Value::Concrete(n as u128, 64))
                };
                let zero = Expr::eq(Expr::constant(0, 64), e.clone());
                if self.sv.must_be_true(state, &zero, "realloc size")? {
                    0
                } else {
                    let sizes = if self.sv.may_be_true(state, &zero, "realloc size")? {
                        vec![Expr::not(zero.clone()), zero]
                    } else {
                        vec![Expr::not(zero)]
                    };
                    let taken = self.fork(state, ForkKind::Size, sizes, |ex, _, other| {
                        ex.allocate_on(other, inst.dest, 0, &mut allocate_other)
                    })?;
                    if taken == 1 {
                        0
                    } else {
                        match self.concretize_size(
                            state,
                            inst.dest,
                            &e,
                            false,
                            &mut allocate_other,
                        )? {
                            Some(n) => n,
                            // A huge size: realloc yields NULL and keeps the old object.
                            None => return Ok(Value::Concrete(0, 64)),
                        }
                    }
                }
            }
            other => self.cx().concretize(state, other, "realloc size")? as u64,
        };
        if address == 0 {
            return Ok(self
                .malloc(
                    module,
                    state,
                    inst,
                    &Value::Concrete(new_size as u128, 64),
                    Init::Garbage,
                )?
                .unwrap_or(Value::Concrete(0, 64)));
        }
        let old = object_at(state, address);
        let Some(old) = old.filter(|o| o.kind == ObjectKind::Heap) else {
            return Err(bad_free(state, address));
        };
        if new_size == 0 {
            state.memory.free(address);
            return Ok(Value::Concrete(0, 64));
        }
        let bytes = if old.symbolic_size.is_some() {
            self.cx().read_cells(state, address, old.size.min(new_size))
        } else {
            self.read_bytes(state, &old.base_value(), old.size.min(new_size))?
        };
        let name = &module.function(state.frame().func).name;
        let request =
            AllocRequest::new(new_size, ObjectKind::Heap, name, Init::Garbage).at(inst.loc);
        let new = self.memory.alloc(state, request).base_value();
        self.write_bytes(state, &new, &bytes)?;
        state.memory.free(address);
        Ok(new)
    }

    pub(super) fn free(&mut self, state: &mut State, ptr: &Value, family: AllocFamily) -> Exec<()> {
        let address = match &state.settle(ptr) {
            Value::Symbolic(p) => {
                self.exact_base(state, &Expr::zext_or_trunc(p.clone(), 64), "free")?
            }
            _ => self.cx().concretize(state, ptr, "free pointer")? as u64,
        };
        super::cxx::check_release(state, address, family)?;
        self.memory.free(state, address)
    }

    /// The object base (or NULL) a symbolic pointer passed to `free` or `realloc` equals, as
    /// KLEE's exact resolution: one path per feasible base, each restarting the call with the
    /// pointer fixed to its base (so the whole call runs in every one), and an invalid-free
    /// error where the pointer may equal none of them. The current state takes the first.
    pub(super) fn exact_base(&mut self, state: &mut State, p: &Expr, what: &str) -> Exec<u64> {
        let is = |base: &Expr| Expr::eq(base.clone(), p.clone());
        // Length 0: an object of size 0 (`malloc(0)`) is a candidate too.
        let candidates = self.memory.candidates(&mut self.sv, state, p, 0)?;
        let mut bases: Vec<(u64, Expr)> = Vec::new();
        let null = Expr::constant(0, 64);
        let objects = candidates.into_iter().map(|address| {
            let base = state
                .memory
                .get_by_base(address)
                .expect("candidate")
                .object
                .base_expr();
            (address, base)
        });
        for (address, base) in std::iter::once((0, null)).chain(objects.collect::<Vec<_>>()) {
            if !bases.iter().any(|(a, _)| *a == address)
                && self.sv.may_be_true(state, &is(&base), what)?
            {
                bases.push((address, base));
            }
        }
        let none = Expr::and_all(bases.iter().map(|(_, b)| Expr::not(is(b))));
        let invalid = |ex: &mut Self, state: &State| match ex.sv.get_value(state, p, what) {
            Ok(address) => bad_free(state, address as u64),
            Err(t) => t,
        };
        // The alternatives: the first base, the invalid pointers (if feasible), the other
        // bases; the current state takes the first base unless policy chooses.
        let has_invalid = self.sv.may_be_true(state, &none, what)?;
        if bases.is_empty() {
            let error = if has_invalid {
                state.add_constraint(none);
                invalid(self, state)
            } else {
                Termination::error(ErrorKind::Exec, format!("{what}: no feasible pointer"))
            };
            return Err(error);
        }
        let mut alternatives = vec![is(&bases[0].1)];
        let mut meaning = vec![Some(0)];
        if has_invalid {
            alternatives.push(none);
            meaning.push(None);
        }
        for (i, (_, base)) in bases.iter().enumerate().skip(1) {
            alternatives.push(is(base));
            meaning.push(Some(i));
        }
        let taken =
            self.fork(
                state,
                ForkKind::ExactBase,
                alternatives,
                |ex, i, other| match meaning[i] {
                    None => {
                        let error = invalid(ex, &other);
                        ex.terminate(other, error);
                    }
                    Some(_) => ex.restart(other, what),
                },
            )?;
        match meaning[taken] {
            Some(0) => Ok(bases[0].0),
            Some(_) => Err(self.restart_current(state, what)),
            None => Err(invalid(self, state)),
        }
    }
}
