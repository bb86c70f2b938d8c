//! Declarations and definitions of a script: declared constants and arrays, `define-fun`
//! without parameters, constant arrays with constant writes.

use crate::array::{Array, ArrayKind, ArrayRef, UpdateList};
use crate::expr::Expr;
use crate::smtlib::lexer::ParseError;
use crate::smtlib::ops::{ArrayVal, SortSpec, Val};
use crate::smtlib::parse::{Parser, MAX_CONSTANT_ARRAY};

impl Parser<'_> {
    /// A new array named `name`, of the kind its `; sear-array` comment gives.
    pub(crate) fn new_array(
        &mut self,
        name: &str,
        size: u64,
        index_width: u32,
        contents: Option<Vec<u8>>,
    ) -> ArrayRef {
        let kind = self
            .info
            .get(name)
            .and_then(|i| i.kind)
            .unwrap_or(ArrayKind::Other);
        Array::with_index_width(name, size, index_width, kind, contents.map(Into::into))
    }

    /// `declare-fun`/`declare-const` of `name_at` with the sort at `sort_at`.
    pub(crate) fn declare(&mut self, name_at: usize, sort_at: usize) -> Result<(), ParseError> {
        let name = self.symbol(name_at)?;
        if self.globals.contains_key(name) {
            return Err(self.err(name_at, format!("{name} is already declared")));
        }
        let sort = self.sort(sort_at)?;
        let value = match sort {
            SortSpec::Bool | SortSpec::Bv(_) => {
                let width = if let SortSpec::Bv(w) = sort { w } else { 1 };
                let bytes = width.div_ceil(8);
                let array = self.new_array(name, bytes as u64, 32, None);
                self.pass.script.arrays.push(array.clone());
                let read = Expr::read_lsb(&UpdateList::new(array), Expr::constant(0, 32), bytes);
                let e = Expr::extract(read, 0, width);
                if sort == SortSpec::Bool {
                    self.pass
                        .script
                        .bool_consts
                        .push((name.to_string(), e.clone()));
                    Val::Bool(e)
                } else {
                    self.pass
                        .script
                        .bitvector_consts
                        .push((name.to_string(), e.clone()));
                    Val::Bv(e)
                }
            }
            SortSpec::Fp(_) | SortSpec::Rm => self.declare_fp(name, sort),
            SortSpec::Array(iw) => {
                let ordinal = self.pass.declared;
                self.pass.declared += 1;
                let given = self.info.get(name).and_then(|i| i.size);
                let size = given.or(self.size_overrides.get(ordinal).copied().flatten());
                let array = if given.is_some() {
                    self.new_array(name, size.unwrap_or(0), iw, None)
                } else {
                    // No size metadata: an array of the SMT-LIB theory, free everywhere;
                    // models list the bytes up to the largest constant index read.
                    let kind = self
                        .info
                        .get(name)
                        .and_then(|i| i.kind)
                        .unwrap_or(ArrayKind::Other);
                    Array::unbounded(name, size.unwrap_or(0), iw, kind)
                };
                if given.is_none() {
                    self.pass.unknown_sizes.insert(array.id(), ordinal);
                }
                self.pass.script.arrays.push(array.clone());
                Val::Array(ArrayVal::Updates(UpdateList::new(array)))
            }
        };
        self.bind_global(name_at, name, value)
    }

    /// `define-fun` without parameters.
    pub(crate) fn define(
        &mut self,
        name_at: usize,
        sort_at: usize,
        body_at: usize,
    ) -> Result<(), ParseError> {
        let name = self.symbol(name_at)?;
        let sort = self.sort(sort_at)?;
        let value = self.term(body_at)?;
        if !sort.matches(&value) {
            return Err(self.err(
                body_at,
                format!("define-fun {name}: the body has sort {}", value.sort_name()),
            ));
        }
        let value = match value {
            Val::Array(ArrayVal::Const(c)) => match self.constant_root(name, &c) {
                Some(root) => Val::Array(ArrayVal::Updates(UpdateList::new(root))),
                None => Val::Array(ArrayVal::Const(c)),
            },
            other => other,
        };
        self.bind_global(name_at, name, value)
    }

    /// Turns a zero-default constant array with constant writes into a constant root.
    pub(crate) fn constant_root(
        &mut self,
        name: &str,
        c: &crate::smtlib::ops::ConstArray,
    ) -> Option<ArrayRef> {
        if c.default.as_constant() != Some(0) {
            return None;
        }
        let mut writes = Vec::with_capacity(c.stores.len());
        for (i, v) in &c.stores {
            writes.push((
                u64::try_from(i.as_constant()?).ok()?,
                v.as_constant()? as u8,
            ));
        }
        let needed = writes
            .iter()
            .map(|&(i, _)| i.saturating_add(1))
            .max()
            .unwrap_or(0);
        let size = self.info.get(name).and_then(|i| i.size).unwrap_or(needed);
        if size < needed || size > MAX_CONSTANT_ARRAY {
            return None;
        }
        let mut contents = vec![0u8; size as usize];
        for (i, v) in writes {
            contents[i as usize] = v;
        }
        Some(self.new_array(name, size, c.index_width, Some(contents)))
    }
}
