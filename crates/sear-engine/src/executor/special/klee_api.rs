//! KLEE's API among the special functions: `klee_make_symbolic` and its helpers (string
//! arguments, fixed objects, fresh symbolic values), `klee_assume`, `klee_range`,
//! `klee_report_error` and the nondet functions.

use sear_expr::{Expr, UpdateList};

use super::{arg, user_error};
use crate::executor::Cx;
use crate::executor::{Exec, Executor};
use crate::memory::segment::MAX_ARRAY_SIZE;
use crate::memory::{AllocRequest, Init, Lookup, ObjectKind};
use crate::state::{State, Symbolic};
use crate::termination::{ErrorKind, Termination};
use crate::value::Value;

/// The executor's part of KLEE's API: new input arrays are named through the run (a worker's
/// rebuilt paths reuse the arrays of the first, `worker.rs::input_array`) and bound to the
/// run's seeds, and `klee_make_symbolic` may allocate a symbolic size.
impl Executor<'_> {
    /// `klee_make_symbolic(ptr, size, name)`: the bytes become a fresh input array.
    pub(crate) fn make_symbolic(
        &mut self,
        state: &mut State,
        ptr: &Value,
        size: u64,
        name: &str,
    ) -> Exec<()> {
        let address = self
            .cx()
            .concretize(state, ptr, "klee_make_symbolic address")? as u64;
        let entry = match state.memory.lookup(address) {
            Lookup::Live(e) => e.clone(),
            _ => return Err(user_error("klee_make_symbolic: invalid pointer")),
        };
        // As KLEE: the whole object, from its start (a part of an object, or a size that is
        // not the object's, is the caller's mistake).
        if address != entry.object.address || size != entry.object.size {
            return Err(user_error(format!(
                "wrong size given to klee_make_symbolic: {size} bytes at offset {} of a {}-byte object",
                address - entry.object.address,
                entry.object.size
            )));
        }
        if entry.object.read_only {
            return Err(user_error("cannot make a read-only object symbolic"));
        }
        if size > MAX_ARRAY_SIZE {
            return Err(user_error(format!(
                "symbolic objects larger than 1 GiB are not supported ({size} bytes)"
            )));
        }
        let array = self.input_array(state, name, size);
        let updates = UpdateList::new(array.clone());
        let base = entry.object.address;
        let own = matches!(entry.storage, crate::memory::Storage::Own(_));
        if own && size > LAZY_SYMBOLIC_OBJECT {
            // A large object (a big symbolic file): its bytes are read from the array on
            // demand, instead of one expression per byte up front.
            let (segment, _) = state.memory.whole_segment_mut(base).expect("live object");
            segment.replace_with(updates);
        } else {
            for i in 0..size {
                let byte = Expr::read(&updates, Expr::constant(i as u128, 32));
                let (segment, at) = state.memory.segment_mut(base, i, 1).expect("live object");
                segment.write_byte(at as usize, byte);
            }
        }
        state.symbolics.push_back(Symbolic {
            object: Some(entry.object.id),
            array,
            name: name.to_string(),
            size: entry.object.symbolic_size.clone(),
            deindex: None,
            guard: None,
        });
        self.bind_seeds(state);
        Ok(())
    }

    /// A fresh symbolic value of `width` bits recorded as a test object named `name`
    /// (`klee_int`, `klee_range`, `klee_choose`, `__VERIFIER_nondet_*`).
    pub(crate) fn fresh_symbolic(&mut self, state: &mut State, name: &str, width: u32) -> Value {
        let bytes = width.div_ceil(8);
        let array = self.input_array(state, name, bytes as u64);
        let value = Expr::read_lsb(
            &UpdateList::new(array.clone()),
            Expr::constant(0, 32),
            bytes,
        );
        // A value, not memory: no object is allocated (a program asking for 10^6 inputs must
        // not carry 10^6 objects).
        state.symbolics.push_back(Symbolic {
            object: None,
            array,
            name: name.to_string(),
            size: None,
            deindex: None,
            guard: None,
        });
        self.bind_seeds(state);
        Value::from_expr(Expr::extract(value, 0, width))
    }

    /// A `__VERIFIER_nondet_*` value; booleans are "any non-zero byte is true".
    pub(super) fn nondet(&mut self, state: &mut State, name: &str, width: u32) -> Value {
        if width == 1 {
            let byte = self.fresh_symbolic(state, name, 8).to_expr();
            return Value::from_expr(Expr::ne(byte, Expr::constant(0, 8)));
        }
        self.fresh_symbolic(state, name, width)
    }

    /// `klee_range(begin, end, name)`: a symbolic int in `[begin, end)`.
    pub(super) fn range(&mut self, state: &mut State, args: &[Value]) -> Exec<Value> {
        let begin = self.cx().concretize(state, arg(args, 0)?, "klee_range")?;
        let end = self.cx().concretize(state, arg(args, 1)?, "klee_range")?;
        let (b, e) = (begin as u32 as i32, end as u32 as i32);
        if b >= e {
            return Err(user_error("invalid range"));
        }
        if b + 1 == e {
            return Ok(Value::concrete(begin, 32));
        }
        let name = self.cx().optional_string(state, arg(args, 2)?)?;
        let x = self.fresh_symbolic(state, &name, 32).to_expr();
        let low = Expr::sle(Expr::constant(begin, 32), x.clone());
        let high = Expr::slt(x.clone(), Expr::constant(end, 32));
        // Seeds whose value is outside the range leave the path (`seeding.rs`).
        if !state.seeds.is_empty() {
            let within = Expr::and(low.clone(), high.clone());
            if self.cx().assume_by_seeds(state, &within) {
                return Ok(Value::from_expr(x));
            }
        }
        state.add_constraint(low);
        state.add_constraint(high);
        Ok(Value::from_expr(x))
    }
}

impl Cx<'_, '_> {
    /// A string argument, or `"unnamed"` for a null pointer. As in KLEE, a pointer with more
    /// than one feasible value, or one into no object, is a user error.
    pub(crate) fn optional_string(&mut self, state: &mut State, ptr: &Value) -> Exec<String> {
        if ptr.as_concrete() == Some(0) {
            return Ok("unnamed".into());
        }
        let ptr = match ptr {
            Value::Symbolic(e) => {
                let v = self.sv.get_value(state, e, "klee string argument")?;
                let unique = Expr::eq(e.clone(), Expr::constant(v, e.width()));
                if !self
                    .sv
                    .must_be_true(state, &unique, "klee string argument")?
                {
                    return Err(user_error(
                        "symbolic string pointer passed to one of the klee_ functions",
                    ));
                }
                Value::Concrete(v, e.width())
            }
            other => other.clone(),
        };
        self.read_message_string(state, &ptr, "string argument")
            .map_err(|t| match t {
                Termination::Error {
                    kind: ErrorKind::Ptr,
                    ..
                } => user_error("invalid string pointer passed to one of the klee_ functions"),
                other => other,
            })
    }

    /// The size of a `klee_make_symbolic` request: the capacity of a symbolic-size object
    /// when the requested size must equal its σ (the whole object becomes symbolic; its test
    /// holds σ's value of bytes), otherwise the size concretised.
    pub(super) fn make_symbolic_size(
        &mut self,
        state: &mut State,
        ptr: &Value,
        size: &Value,
    ) -> Exec<u64> {
        if let (Value::Concrete(address, _), Value::Symbolic(e)) = (state.settle(ptr), size) {
            let sigma = match state.memory.get_by_base(address as u64) {
                Some(entry) => entry
                    .object
                    .symbolic_size
                    .clone()
                    .map(|s| (s, entry.object.size)),
                None => None,
            };
            if let Some((sigma, capacity)) = sigma {
                let same = Expr::eq(Expr::zext_or_trunc(e.clone(), 64), sigma);
                if self
                    .sv
                    .must_be_true(state, &same, "klee_make_symbolic size")?
                {
                    return Ok(capacity);
                }
            }
        }
        Ok(self.concretize(state, size, "klee_make_symbolic size")? as u64)
    }

    /// `klee_define_fixed_object(addr, n)`: a zeroed object of `n` bytes at exactly `addr`
    /// (memory-mapped device registers and the like), as KLEE's `allocateFixed`; anywhere
    /// but at 0, in the null page too (KLEE's tests use 0x80).
    pub(super) fn define_fixed_object(
        &mut self,
        state: &mut State,
        address: u64,
        size: u64,
    ) -> Exec<()> {
        if address == 0 || size == 0 {
            return Err(user_error(format!(
                "klee_define_fixed_object: invalid object ({size} bytes at {address:#x})"
            )));
        }
        if address.checked_add(size).is_none() || state.memory.overlaps(address, size) {
            return Err(user_error(format!(
                "klee_define_fixed_object: {size} bytes at {address:#x} overlap an object"
            )));
        }
        let name = format!("fixed object at {address:#x}");
        let mut request = AllocRequest::new(size, ObjectKind::Global, name, Init::Zero);
        request.fixed_address = Some(address);
        self.memory.alloc(state, request);
        Ok(())
    }

    /// `klee_assume(cond)`.
    pub(super) fn assume(&mut self, state: &mut State, cond: &Value) -> Exec<()> {
        let infeasible = |silent: bool| {
            if silent {
                Termination::Silent
            } else {
                user_error("invalid klee_assume call (provably false)")
            }
        };
        let silent = self.config.silent_klee_assume;
        let c = match cond {
            Value::Concrete(v, _) => {
                return if *v != 0 {
                    Ok(())
                } else {
                    Err(infeasible(silent))
                }
            }
            other => {
                let e = other.to_expr();
                Expr::ne(e.clone(), Expr::constant(0, e.width()))
            }
        };
        let c = self.sv.opt_condition(state, c)?;
        if self.assume_by_seeds(state, &c) {
            return Ok(());
        }
        if !self.sv.may_be_true(state, &c, "klee_assume")? {
            return Err(infeasible(silent));
        }
        state.add_constraint(c);
        Ok(())
    }

    /// `klee_report_error(file, line, message, suffix)`.
    pub(super) fn klee_report_error(
        &mut self,
        state: &mut State,
        args: &[Value],
    ) -> Exec<Termination> {
        let file = self.optional_string(state, arg(args, 0)?)?;
        let line = self.concretize(state, arg(args, 1)?, "klee_report_error")?;
        let message = self.optional_string(state, arg(args, 2)?)?;
        let suffix = self.optional_string(state, arg(args, 3)?)?;
        self.report.reported_location = Some((file, line as u32));
        Ok(Termination::error(ErrorKind::from_suffix(&suffix), message))
    }
}

/// Objects made symbolic whole above this size (bytes) get no expression per byte.
const LAZY_SYMBOLIC_OBJECT: u64 = 1 << 16;
