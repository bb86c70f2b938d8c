//! Bulk memory operations: byte ranges read, written and filled through pointer resolution
//! (the memory intrinsics and the runtime's string arguments use them).

use sear_expr::Expr;

use crate::executor::limits::LIMIT_CHECK_BYTES;
use crate::executor::Cx;
use crate::executor::{Exec, Executor};
use crate::memory::{bad_pointer, ptr_error, Lookup, Offset, Target};
use crate::state::State;
use crate::value::Value;

impl Executor<'_> {
    /// Reads `len` bytes at `ptr` as byte expressions (resolving, and forking, like a load).
    pub(crate) fn read_bytes(
        &mut self,
        state: &mut State,
        ptr: &Value,
        len: u64,
    ) -> Exec<Vec<Expr>> {
        if len == 0 {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        self.resolve_access(state, ptr, len, false, &mut |ex, st, target| {
            let mut bytes = Vec::with_capacity(len as usize);
            for i in 0..len {
                if i > 0 && i % LIMIT_CHECK_BYTES as u64 == 0 {
                    ex.check_limits_in_operation()?;
                }
                bytes.push(ex.cx().read_byte_at(st, &target.shifted(i)));
            }
            out = bytes;
            Ok(())
        })?;
        Ok(out)
    }

    /// Writes byte expressions at `ptr`.
    pub(crate) fn write_bytes(
        &mut self,
        state: &mut State,
        ptr: &Value,
        bytes: &[Expr],
    ) -> Exec<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        self.resolve_access(
            state,
            ptr,
            bytes.len() as u64,
            true,
            &mut |ex, st, target| {
                for (i, b) in bytes.iter().enumerate() {
                    if i > 0 && i % LIMIT_CHECK_BYTES == 0 {
                        ex.check_limits_in_operation()?;
                    }
                    ex.cx()
                        .write_byte_at(st, &target.shifted(i as u64), b.clone());
                }
                Ok(())
            },
        )
    }

    /// Writes `n` copies of `byte` at `ptr` (`memset`), without a vector of `n` expressions.
    pub(crate) fn fill_bytes(
        &mut self,
        state: &mut State,
        ptr: &Value,
        byte: &Expr,
        n: u64,
    ) -> Exec<()> {
        if n == 0 {
            return Ok(());
        }
        self.resolve_access(state, ptr, n, true, &mut |ex, st, target| {
            if let (Offset::Concrete(start), Some(value)) = (&target.offset, byte.as_constant()) {
                // Concrete bytes at a concrete offset: straight into the segment, a page at a
                // time (limits are checked between pieces).
                let mut done = 0u64;
                while done < n {
                    if done > 0 {
                        ex.check_limits_in_operation()?;
                    }
                    let piece = (n - done).min(LIMIT_CHECK_BYTES as u64);
                    let at = start + done;
                    match st.memory.segment_mut(target.address, at, piece) {
                        Some((segment, offset)) => {
                            segment.fill_concrete(offset as usize, piece as usize, value as u8)
                        }
                        None => {
                            for i in 0..piece {
                                let b = Expr::constant(value, 8);
                                ex.cx().write_byte_at(st, &target.shifted(done + i), b);
                            }
                        }
                    }
                    done += piece;
                }
                return Ok(());
            }
            for i in 0..n {
                if i > 0 && i % LIMIT_CHECK_BYTES as u64 == 0 {
                    ex.check_limits_in_operation()?;
                }
                ex.cx().write_byte_at(st, &target.shifted(i), byte.clone());
            }
            Ok(())
        })
    }
}

impl Cx<'_, '_> {
    /// A string argument of a klee.h function (names, warnings, messages) at a concrete
    /// pointer, symbolic bytes concretised: as KLEE reads them, an unterminated one ends at
    /// the end of its object instead of being an error.
    pub(crate) fn read_message_string(
        &mut self,
        state: &mut State,
        ptr: &Value,
        what: &str,
    ) -> Exec<String> {
        let address = self.concretize(state, ptr, what)? as u64;
        let object = match state.memory.lookup(address) {
            Lookup::Live(e) => e.object.clone(),
            _ => return Err(bad_pointer(state, address)),
        };
        let mut bytes = Vec::new();
        let start = address - object.address;
        let mut offset = start;
        loop {
            if offset >= object.size {
                if offset > start {
                    self.report.warn_once(
                        "string not terminated by \\0 passed to one of the klee_ functions",
                    );
                    break;
                }
                return Err(ptr_error("out of bound pointer"));
            }
            let target = Target {
                address: object.address,
                offset: Offset::Concrete(offset),
                chunk: None,
            };
            let e = self.read_byte_at(state, &target);
            let b = match e.as_constant() {
                Some(b) => b as u8,
                None => self.concretize(state, &Value::from_expr(e), what)? as u8,
            };
            if b == 0 {
                break;
            }
            bytes.push(b);
            offset += 1;
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }
}
