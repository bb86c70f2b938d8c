//! What an allocation asks for.

use sear_expr::Expr;
use sear_ir::Loc;

use super::ObjectKind;

/// How memory is initialised at allocation.
#[derive(Clone, Debug)]
pub enum Init {
    /// All zero (globals without initializer, `calloc`).
    Zero,
    /// KLEE's pattern for uninitialised memory (0xAB).
    Garbage,
    /// Given bytes.
    Bytes(Vec<u8>),
}

/// An allocation request: everything [`super::Memory::alloc`] needs to create an object.
#[derive(Clone, Debug)]
pub struct AllocRequest {
    /// Bytes.
    pub size: u64,
    /// Alignment (a power of two; the allocators use at least 16).
    pub align: u64,
    /// Where the object lives.
    pub kind: ObjectKind,
    /// A name for diagnostics.
    pub name: String,
    /// Initial contents.
    pub init: Init,
    /// The allocation site.
    pub site: Option<Loc>,
    /// A constant global (writes are errors).
    pub read_only: bool,
    /// An exact address (`klee_define_fixed_object`) instead of one the model chooses.
    pub fixed_address: Option<u64>,
    /// The symbolic size σ ≤ `size` of a symbolic-size object (then `size` is its capacity).
    pub symbolic_size: Option<Expr>,
}

impl AllocRequest {
    /// A request for `size` bytes of `kind`, named `name`, with the given contents.
    pub fn new(size: u64, kind: ObjectKind, name: impl Into<String>, init: Init) -> Self {
        AllocRequest {
            size,
            align: 16,
            kind,
            name: name.into(),
            init,
            site: None,
            read_only: false,
            fixed_address: None,
            symbolic_size: None,
        }
    }

    /// The same request with alignment `align`.
    pub fn aligned(mut self, align: u64) -> Self {
        self.align = align;
        self
    }

    /// The same request for an object of symbolic size `sigma` (64 bits) whose capacity is
    /// the request's size.
    pub fn with_symbolic_size(mut self, sigma: Expr) -> Self {
        self.symbolic_size = Some(sigma);
        self
    }

    /// The same request from allocation site `site`.
    pub fn at(mut self, site: Option<Loc>) -> Self {
        self.site = site;
        self
    }
}
