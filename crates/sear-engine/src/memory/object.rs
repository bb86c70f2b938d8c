//! Memory objects: the identity, placement, size and provenance of an allocation.

use sear_expr::Expr;
use sear_ir::Loc;

use crate::value::Value;

/// Identifies a memory object within a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjectId(pub u64);

/// Where an object lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// A global variable.
    Global,
    /// A stack allocation (`alloca`), freed when its frame returns.
    Stack,
    /// A heap allocation (`malloc` and friends).
    Heap,
    /// Memory the engine allocates for the program (argv strings, varargs areas).
    Environment,
}

/// An allocation as one state sees it.
///
/// `address` and `size` are the concrete interval the object occupies in the state's
/// address space (for an object with a symbolic size, `size` is its capacity). The pointer
/// value the program holds is the constant `address` in the standard model (`base` is
/// `None`: no expression is built for it), or a symbolic base bound to `address` by the
/// state's address constraints in a relocatable one. `symbolic_size` is the size σ ≤ `size` that accesses are checked against, when
/// the size is symbolic. Objects are shared between states (`Arc`); a state that moves an
/// object gets its own copy with another `address`.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryObject {
    /// Identity.
    pub id: ObjectId,
    /// The concrete base address (the hidden address of a symbolic base).
    pub address: u64,
    /// Bytes occupied in the address space (the capacity of a symbolic-size object).
    pub size: u64,
    /// The symbolic base the program holds, when it is not the constant `address`.
    pub base: Option<Expr>,
    /// The symbolic size, when the size is not `size`.
    pub symbolic_size: Option<Expr>,
    /// Where it lives.
    pub kind: ObjectKind,
    /// A name for diagnostics (global name, or the allocating function).
    pub name: String,
    /// The allocation site, if known.
    pub alloc_site: Option<Loc>,
    /// True for constant globals.
    pub read_only: bool,
}

impl MemoryObject {
    /// One past the last byte.
    pub fn end(&self) -> u64 {
        self.address.wrapping_add(self.size)
    }

    /// True if `[addr, addr + len)` lies inside the object's interval.
    pub fn contains_range(&self, addr: u64, len: u64) -> bool {
        addr >= self.address && len <= self.size && addr - self.address <= self.size - len
    }

    /// The pointer to the object's first byte, as the program sees it.
    pub fn base_value(&self) -> Value {
        match &self.base {
            Some(b) => Value::Symbolic(b.clone()),
            None => Value::Concrete(self.address as u128, 64),
        }
    }

    /// The base as a 64-bit expression.
    pub fn base_expr(&self) -> Expr {
        self.base
            .clone()
            .unwrap_or_else(|| Expr::constant(self.address as u128, 64))
    }

    /// The size as a 64-bit expression (symbolic for a symbolic-size object).
    pub fn size_expr(&self) -> Expr {
        self.symbolic_size
            .clone()
            .unwrap_or_else(|| Expr::constant(self.size as u128, 64))
    }
}
