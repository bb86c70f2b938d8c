//! What a path wrote to stdout and stderr, recorded through `__sear_write` (the C runtime's
//! `write` on descriptors 1 and 2) for the per-test `.stdout` and `.stderr` files.
//!
//! Bytes stay expressions: a test's output is their value under the test's inputs, so
//! printing a symbolic byte neither forks nor constrains the path. The record is a
//! persistent list of chunks shared between forked states; appending to a chunk no other
//! state shares extends it in place.

use std::rc::Rc;

use sear_expr::{Assignment, Expr};

#[derive(Debug)]
struct Chunk {
    prev: Option<Rc<Chunk>>,
    stream: u8,
    bytes: Vec<Expr>,
}

/// The output of one path, newest chunk first.
#[derive(Clone, Debug, Default)]
pub struct ProgramOutput {
    head: Option<Rc<Chunk>>,
}

impl ProgramOutput {
    /// Appends `bytes` (8-bit expressions) written to `stream` (1: stdout, 2: stderr).
    pub fn append(&mut self, stream: u8, bytes: Vec<Expr>) {
        if bytes.is_empty() {
            return;
        }
        if let Some(chunk) = self.head.as_mut().and_then(Rc::get_mut) {
            if chunk.stream == stream {
                chunk.bytes.extend(bytes);
                return;
            }
        }
        let prev = self.head.take();
        self.head = Some(Rc::new(Chunk {
            prev,
            stream,
            bytes,
        }));
    }

    /// True when both records are the same (shared) record.
    pub fn same_as(&self, other: &ProgramOutput) -> bool {
        match (&self.head, &other.head) {
            (None, None) => true,
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// True if nothing was written.
    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// The bytes written to `stream`, in order, as expressions.
    pub fn bytes(&self, stream: u8) -> Vec<Expr> {
        let mut chunks = Vec::new();
        let mut next = self.head.as_deref();
        while let Some(chunk) = next {
            if chunk.stream == stream {
                chunks.push(chunk);
            }
            next = chunk.prev.as_deref();
        }
        chunks
            .iter()
            .rev()
            .flat_map(|c| c.bytes.iter().cloned())
            .collect()
    }

    /// The bytes written to `stream` under the inputs of `model`.
    pub fn evaluate(&self, stream: u8, model: &Assignment) -> Vec<u8> {
        self.evaluate_with(stream, model, |e| e.clone())
    }

    /// The bytes of `stream` under `model`, each first rewritten by `settle` (the state's
    /// address constraints substituted, so printed addresses have their values).
    pub fn evaluate_with(
        &self,
        stream: u8,
        model: &Assignment,
        settle: impl Fn(&Expr) -> Expr,
    ) -> Vec<u8> {
        self.bytes(stream)
            .iter()
            .map(|e| model.evaluate(&settle(e)) as u8)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(text: &str) -> Vec<Expr> {
        text.bytes().map(|b| Expr::constant(b as u128, 8)).collect()
    }

    #[test]
    fn streams_are_separated_and_ordered() {
        let mut out = ProgramOutput::default();
        out.append(1, bytes("ab"));
        out.append(2, bytes("E"));
        out.append(1, bytes("c"));
        out.append(1, bytes("d"));
        let model = Assignment::new();
        assert_eq!(out.evaluate(1, &model), b"abcd");
        assert_eq!(out.evaluate(2, &model), b"E");
    }

    #[test]
    fn forks_do_not_see_each_other() {
        let mut a = ProgramOutput::default();
        a.append(1, bytes("x"));
        let mut b = a.clone();
        a.append(1, bytes("1"));
        b.append(1, bytes("2"));
        let model = Assignment::new();
        assert_eq!(a.evaluate(1, &model), b"x1");
        assert_eq!(b.evaluate(1, &model), b"x2");
    }

    #[test]
    fn empty_appends_record_nothing() {
        let mut out = ProgramOutput::default();
        out.append(1, Vec::new());
        assert!(out.is_empty());
    }
}
