//! Converting values to and from the bytes of memory, following the data layout.
//!
//! Pointer values are held as 64-bit values whatever the data model; in a 32-bit (ILP32)
//! module every pointer value is below 2^32 ([`fit_pointer`]) and occupies 4 bytes of
//! memory: it is truncated when stored and zero-extended when loaded.

use std::rc::Rc;

use sear_expr::bits::mask;
use sear_expr::{Expr, ReadPolicy};
use sear_ir::{FloatKind, Module, TypeId, TypeKind};

use crate::memory::Segment;
use crate::value::Value;

/// The number of bytes a scalar of `bit_width` bits occupies in memory (i1 takes a byte,
/// x86_fp80 takes 10 bytes of its 16-byte slot).
pub fn store_bytes(bit_width: u32) -> u32 {
    bit_width.div_ceil(8)
}

/// The bit width of a scalar type, or `None` for aggregates and non-values.
pub fn scalar_width(module: &Module, ty: TypeId) -> Option<u32> {
    match &module.ty(ty).kind {
        TypeKind::Int(w) => Some(*w),
        TypeKind::Ptr => Some(64),
        TypeKind::Float(k) => Some(match k {
            FloatKind::Half => 16,
            FloatKind::Single => 32,
            FloatKind::Double => 64,
            FloatKind::X86Fp80 => 80,
            FloatKind::Fp128 => 128,
        }),
        _ => None,
    }
}

/// The bit width of a scalar type in memory: [`scalar_width`], except that a pointer
/// takes the data layout's pointer size.
pub fn memory_width(module: &Module, ty: TypeId) -> Option<u32> {
    match &module.ty(ty).kind {
        TypeKind::Ptr => Some(module.data_model.pointer_bits()),
        _ => scalar_width(module, ty),
    }
}

/// A pointer value reduced to the module's pointer width (kept in 64 bits): the address
/// arithmetic of a 32-bit module wraps around at 2^32.
pub fn fit_pointer(module: &Module, value: Value) -> Value {
    let bits = module.data_model.pointer_bits();
    if bits >= 64 {
        return value;
    }
    match value {
        Value::Concrete(v, w) => Value::Concrete(v & mask(bits), w),
        Value::Symbolic(e) => {
            let w = e.width();
            Value::from_expr(Expr::zext(Expr::extract(e, 0, bits), w))
        }
        aggregate => aggregate,
    }
}

/// A scalar value of type `ty` as memory holds it (a pointer of a 32-bit module truncated).
fn to_memory<'v>(module: &Module, ty: TypeId, value: &'v Value) -> std::borrow::Cow<'v, Value> {
    let pointer = matches!(module.ty(ty).kind, TypeKind::Ptr);
    match memory_width(module, ty) {
        Some(m) if pointer && m < value.width() => std::borrow::Cow::Owned(match value {
            Value::Concrete(v, _) => Value::Concrete(v & mask(m), m),
            other => Value::from_expr(Expr::extract(other.to_expr(), 0, m)),
        }),
        _ => std::borrow::Cow::Borrowed(value),
    }
}

/// A scalar value of type `ty` read from memory (`memory_width` bits) as a register holds
/// it (a pointer of a 32-bit module zero-extended to 64 bits).
pub fn from_memory(module: &Module, ty: TypeId, value: Value) -> Value {
    let pointer = matches!(module.ty(ty).kind, TypeKind::Ptr);
    match scalar_width(module, ty) {
        Some(r) if pointer && r > value.width() => match value {
            Value::Concrete(v, _) => Value::Concrete(v, r),
            other => Value::from_expr(Expr::zext(other.to_expr(), r)),
        },
        _ => value,
    }
}

/// The byte offsets and types of the elements of an aggregate type.
pub fn aggregate_elements(module: &Module, ty: TypeId) -> Option<Vec<(u64, TypeId)>> {
    let info = module.ty(ty);
    match &info.kind {
        TypeKind::Struct { fields, .. } => Some(
            fields
                .iter()
                .zip(info.field_offsets.iter())
                .map(|(f, o)| (*o, *f))
                .collect(),
        ),
        TypeKind::Array { elem, len } | TypeKind::Vector { elem, len } => {
            let stride = module.ty(*elem).size;
            let stride = if matches!(info.kind, TypeKind::Vector { .. }) {
                // Vector elements are packed by their store size.
                memory_width(module, *elem).map_or(stride, |w| store_bytes(w) as u64)
            } else {
                stride
            };
            Some((0..*len).map(|i| (i * stride, *elem)).collect())
        }
        _ => None,
    }
}

/// The byte-level pieces of a value, for writing to memory at `base`.
pub fn value_to_bytes(
    module: &Module,
    ty: TypeId,
    value: &Value,
    base: u64,
    out: &mut Vec<(u64, Expr)>,
) {
    match to_memory(module, ty, value).as_ref() {
        Value::Aggregate(items) => {
            let elems = aggregate_elements(module, ty).expect("aggregate value of scalar type");
            for ((offset, elem_ty), item) in elems.iter().zip(items.iter()) {
                value_to_bytes(module, *elem_ty, item, base + offset, out);
            }
        }
        Value::Concrete(bits, width) => {
            for i in 0..store_bytes(*width) {
                out.push((base + i as u64, Expr::constant((bits >> (8 * i)) & 0xff, 8)));
            }
        }
        Value::Symbolic(e) => {
            let n = store_bytes(e.width());
            let wide = Expr::zext(e.clone(), n * 8);
            for i in 0..n {
                out.push((base + i as u64, Expr::extract(wide.clone(), 8 * i, 8)));
            }
        }
    }
}

/// Writes a value of type `ty` at a constant offset of an object.
pub fn write_value(
    module: &Module,
    contents: &mut Segment,
    offset: u64,
    ty: TypeId,
    value: &Value,
) {
    if let Value::Concrete(bits, width) = to_memory(module, ty, value).as_ref() {
        contents.write_concrete(offset as usize, store_bytes(*width) as usize, *bits);
        return;
    }
    let mut bytes = Vec::new();
    value_to_bytes(module, ty, value, offset, &mut bytes);
    for (at, byte) in bytes {
        contents.write_byte(at as usize, byte);
    }
}

/// Writes a value at a constant offset element by element, so that a concrete aggregate (a
/// global's initializer) becomes concrete bytes without an expression per byte. Elements
/// missing from an aggregate (a large zero constant, see `init.rs`) are left as they are.
pub fn write_initializer(
    module: &Module,
    contents: &mut Segment,
    offset: u64,
    ty: TypeId,
    value: &Value,
) {
    let Value::Aggregate(items) = value else {
        return write_value(module, contents, offset, ty, value);
    };
    let info = module.ty(ty);
    match &info.kind {
        TypeKind::Array { elem, .. } => {
            let stride = module.ty(*elem).size;
            for (i, item) in items.iter().enumerate() {
                write_initializer(module, contents, offset + i as u64 * stride, *elem, item);
            }
        }
        TypeKind::Struct { fields, .. } => {
            for ((field, at), item) in fields.iter().zip(&info.field_offsets).zip(items.iter()) {
                write_initializer(module, contents, offset + at, *field, item);
            }
        }
        _ => write_value(module, contents, offset, ty, value),
    }
}

/// Reads a value of type `ty` at a constant offset of a segment (bytes held by its update
/// list are read under `reads`).
pub fn read_value(
    module: &Module,
    contents: &Segment,
    offset: u64,
    ty: TypeId,
    reads: ReadPolicy,
) -> Value {
    if let Some(width) = memory_width(module, ty) {
        let n = store_bytes(width) as usize;
        if let Some(v) = contents.read_concrete(offset as usize, n) {
            return from_memory(module, ty, Value::Concrete(v & mask(width), width));
        }
        let parts: Vec<Expr> = (0..n)
            .rev()
            .map(|i| contents.read_byte(offset as usize + i, reads))
            .collect();
        let e = Expr::concat_all(&parts);
        return from_memory(module, ty, Value::from_expr(Expr::extract(e, 0, width)));
    }
    let elems = aggregate_elements(module, ty).unwrap_or_default();
    let items: Vec<Value> = elems
        .iter()
        .map(|(o, t)| read_value(module, contents, offset + o, *t, reads))
        .collect();
    Value::Aggregate(Rc::from(items))
}

/// A value of type `ty` from its bytes in memory order (the inverse of
/// [`value_to_bytes`]).
pub fn value_from_bytes(module: &Module, ty: TypeId, bytes: &[Expr]) -> Value {
    if let Some(width) = memory_width(module, ty) {
        let n = store_bytes(width) as usize;
        let parts: Vec<Expr> = bytes[..n].iter().rev().cloned().collect();
        let value = Value::from_expr(Expr::extract(Expr::concat_all(&parts), 0, width));
        return from_memory(module, ty, value);
    }
    let elems = aggregate_elements(module, ty).unwrap_or_default();
    Value::Aggregate(Rc::from(
        elems
            .iter()
            .map(|(o, t)| value_from_bytes(module, *t, &bytes[*o as usize..]))
            .collect::<Vec<_>>(),
    ))
}

/// The zero value of a type.
pub fn zero_value(module: &Module, ty: TypeId) -> Value {
    if let Some(width) = scalar_width(module, ty) {
        return Value::Concrete(0, width);
    }
    let elems = aggregate_elements(module, ty).unwrap_or_default();
    Value::Aggregate(Rc::from(
        elems
            .iter()
            .map(|(_, t)| zero_value(module, *t))
            .collect::<Vec<_>>(),
    ))
}
