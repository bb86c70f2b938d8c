//! Folding of `getelementptr` index lists into a byte offset and scaled index terms.

use super::Lowerer;
use crate::ir::*;

/// One index of a `getelementptr`.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GepIndex {
    /// A constant index (sign-extended to 64 bits).
    Const(i64),
    /// An index only known at run time.
    Var,
}

/// A folded index list: the constant byte offset, and `(position in the index list,
/// scale in bytes)` for each variable index.
pub(crate) type FoldedGep = (i64, Vec<(usize, i64)>);

impl Lowerer<'_> {
    /// Folds the indices of a GEP whose source element type is `source`.
    ///
    /// The first index steps over whole `source` objects; each further index selects a
    /// struct field (it must be constant) or an array/vector element.
    pub(crate) fn gep_offsets(
        &self,
        source: TypeId,
        indices: &[GepIndex],
    ) -> Result<FoldedGep, String> {
        let mut offset = 0i64;
        let mut terms = Vec::new();
        let mut current = source;
        for (position, &index) in indices.iter().enumerate() {
            let stride = if position == 0 {
                self.module.ty(current).size as i64
            } else {
                let info = self.module.ty(current);
                match &info.kind {
                    TypeKind::Struct { fields, .. } => {
                        let GepIndex::Const(field) = index else {
                            return Err("variable struct field index".into());
                        };
                        let field = usize::try_from(field)
                            .ok()
                            .filter(|&f| f < fields.len() && f < info.field_offsets.len())
                            .ok_or_else(|| format!("struct field index {field} out of range"))?;
                        offset = offset.wrapping_add(info.field_offsets[field] as i64);
                        current = fields[field];
                        continue;
                    }
                    TypeKind::Array { elem, .. } | TypeKind::Vector { elem, .. } => {
                        current = *elem;
                        self.module.ty(current).size as i64
                    }
                    _ => return Err("index into a non-aggregate type".into()),
                }
            };
            match index {
                GepIndex::Const(value) => offset = offset.wrapping_add(value.wrapping_mul(stride)),
                GepIndex::Var if stride != 0 => terms.push((position, stride)),
                GepIndex::Var => {}
            }
        }
        Ok((offset, terms))
    }
}
