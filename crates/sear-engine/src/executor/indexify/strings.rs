//! Strings in memory: δ of the string a pointer points to, δ⁻¹ into a fresh object, and the
//! writes of `strcpy`/`strcat`.

use sear_expr::Expr;
use sear_indexify::encode;
use sear_indexify::{GValue, Ty, BOTTOM, NULL};

use super::{out_of_garden, IndexifyState};
use crate::executor::{Exec, Executor};
use crate::memory::{ptr_error, AllocRequest, Init, Lookup, ObjectKind};
use crate::state::State;
use crate::value::Value;

/// Bytes read at a time while looking for a string's end.
const CHUNK: u64 = 64;

impl Executor<'_> {
    /// The name argument of `klee_make_symbolic`.
    pub(super) fn indexify_name(&mut self, state: &mut State, p: &Value) -> Exec<String> {
        let name = self.cx().optional_string(state, p)?;
        Ok(if name.is_empty() {
            "unnamed".into()
        } else {
            name
        })
    }

    /// δ of the string at `ptr`: its index when its bytes are concrete (a value not in the
    /// garden is added) or δ⁻¹ of an index; `None` when it is not in the index world (then
    /// the original function runs).
    pub(super) fn string_index(&mut self, state: &mut State, ptr: &Value) -> Exec<Option<Expr>> {
        let Value::Concrete(address, _) = state.settle(ptr) else {
            return Ok(None);
        };
        let address = address as u64;
        let available = match state.memory.lookup(address) {
            Lookup::Live(e) => e.object.address + e.object.size - address,
            _ => return Ok(None),
        };
        let mut bytes: Vec<Expr> = Vec::new();
        let mut concrete: Vec<u8> = Vec::new();
        while (bytes.len() as u64) < available {
            let n = CHUNK.min(available - bytes.len() as u64);
            let at = Value::Concrete((address + bytes.len() as u64) as u128, 64);
            let chunk = self.read_bytes(state, &at, n)?;
            let start = bytes.len();
            bytes.extend(chunk);
            for b in &bytes[start..] {
                match b.as_constant() {
                    Some(0) => {
                        self.ix().stats.delta_concrete += 1;
                        let i = self.ix().tables().index(GValue::Str(concrete));
                        return Ok(Some(Expr::constant(i as u128, 32)));
                    }
                    Some(c) => concrete.push(c as u8),
                    None => {
                        // symbolic: δ⁻¹ of an index, or not in the index world
                        let width = self
                            .ix()
                            .patterns
                            .get(&bytes[0])
                            .map_or(0, |p| p.width as u64);
                        if width > bytes.len() as u64 && width <= available {
                            let at = Value::Concrete((address + bytes.len() as u64) as u128, 64);
                            let rest = self.read_bytes(state, &at, width - bytes.len() as u64)?;
                            bytes.extend(rest);
                        }
                        let found = self.ix().pattern_index(Ty::Str, &bytes);
                        if found.is_some() {
                            self.ix().stats.delta_pattern += 1;
                        }
                        return Ok(found);
                    }
                }
            }
        }
        Ok(None) // no NUL in the object: the original function reports it
    }

    /// δ⁻¹ of a string index: a pointer to a fresh read-only object holding the string
    /// (NULL for the NULL index; ⊥ ends the path).
    pub(crate) fn materialize(&mut self, state: &mut State, e: &Expr) -> Exec<Value> {
        let e = Expr::zext_or_trunc(e.clone(), 32);
        let (bytes, size) = match e.as_constant() {
            Some(c) if c as u32 == NULL => return Ok(Value::Concrete(0, 64)),
            Some(c) if c as u32 == BOTTOM => {
                self.ix().stats.out_of_garden += 1;
                return Err(out_of_garden());
            }
            Some(c) => {
                let value = self.ix().tables().value(Ty::Str, c as u32).cloned();
                let Some(v) = value else {
                    self.ix().stats.out_of_garden += 1;
                    return Err(out_of_garden());
                };
                let s = v.as_str().unwrap_or_default().to_vec();
                let size = s.len() + 1;
                (
                    v.test_bytes(size)
                        .into_iter()
                        .map(|b| Expr::constant(b as u128, 8))
                        .collect::<Vec<_>>(),
                    size,
                )
            }
            None => {
                self.exclude_bottom(state, &e)?;
                self.ix().stats.undelta_symbolic += 1;
                let width = self.ix().widest_string() + 1;
                let b = self.ix().value_bytes(Ty::Str, &e, width as u32, width - 1);
                (b, width as usize)
            }
        };
        let request = AllocRequest::new(
            size as u64,
            ObjectKind::Global,
            "indexify string",
            Init::Zero,
        );
        let p = self.memory.alloc(state, request).base_value();
        self.write_bytes(state, &p, &bytes)?;
        Ok(p)
    }
}

impl IndexifyState {
    /// The longest string in the garden.
    fn widest_string(&mut self) -> u64 {
        self.tables()
            .garden(Ty::Str)
            .map_or(0, |g| g.max_str_len() as u64)
    }
}

impl Executor<'_> {
    /// Writes the string of index `r` (not ⊥ or NULL) into the buffer at `dst`, with its NUL
    /// (`strcpy`/`strcat`); a string longer than the buffer is a `ptr` error there.
    pub(super) fn write_string(&mut self, state: &mut State, dst: &Value, r: &Expr) -> Exec<()> {
        if let Some(c) = r.as_constant() {
            let value = self.ix().tables().value(Ty::Str, c as u32).cloned();
            let Some(v) = value else {
                self.ix().stats.out_of_garden += 1;
                return Err(out_of_garden());
            };
            let len = v.as_str().map_or(0, <[u8]>::len) + 1;
            let bytes: Vec<Expr> = v
                .test_bytes(len)
                .into_iter()
                .map(|b| Expr::constant(b as u128, 8))
                .collect();
            return self.write_bytes(state, dst, &bytes);
        }
        let address = self.cx().concretize(state, dst, "a string destination")? as u64;
        let available = match state.memory.lookup(address) {
            Lookup::Live(e) => e.object.address + e.object.size - address,
            _ => return Err(crate::memory::bad_pointer(state, address)),
        };
        let lengths = self.ix().length_column();
        let len = encode::read(&lengths, encode::position(r, Ty::Str), 64);
        let over = Expr::uge(len, Expr::constant(available as u128, 64));
        if self
            .sv
            .may_be_true(state, &over, "indexify: string write")?
        {
            let error = ptr_error("string written past the end of its buffer (indexed)");
            if self
                .sv
                .must_be_true(state, &over, "indexify: string write")?
            {
                return Err(error);
            }
            self.fork_check(state, Expr::not(over), || error)?;
        }
        let width = (self.ix().widest_string() + 1).min(available);
        let bytes = self
            .ix()
            .value_bytes(Ty::Str, r, width as u32, available - 1);
        self.write_bytes(state, &Value::Concrete(address as u128, 64), &bytes)
    }
}
