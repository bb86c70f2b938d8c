//! Element views of byte arrays: recognising element reads and the cells behind an update
//! list (spec §3.0).
//!
//! Arrays hold bytes; a `w`-byte load at byte offset `b` is built by
//! [`Expr::read_lsb`](sear_expr::Expr::read_lsb) as the right-associated chain
//! `Concat(Read(ul, b+w-1), …, Read(ul, b))`. [`match_element`] recognises such chains (and
//! single byte reads) as one [`ElementRead`]; [`Cells`] is the content of an update list as
//! seen through its writes, when every write has a constant index.

use std::sync::Arc;

use rustc_hash::FxHashMap;
use sear_expr::array::{ArrayRef, UpdateList};
use sear_expr::expr::{Expr, ExprKind};

/// The widest element handled, in bytes (values must fit in 128 bits).
pub const MAX_ELEMENT_BYTES: u32 = 16;

/// A read of `bytes` consecutive bytes (little-endian) of `updates` at byte offset `base`.
#[derive(Clone, Debug)]
pub struct ElementRead {
    /// The array and its writes.
    pub updates: UpdateList,
    /// The byte offset of the least significant byte.
    pub base: Expr,
    /// The element width in bytes (1 for a plain byte read).
    pub bytes: u32,
}

impl ElementRead {
    /// The number of legal byte offsets: `0 ..= size - bytes` (0 if the element does not fit).
    pub fn offsets(&self) -> u64 {
        let size = self.updates.root().size();
        (size + 1).saturating_sub(self.bytes as u64)
    }
}

/// Recognises a byte read or an ordered little-endian chain of byte reads of one update list
/// at consecutive offsets.
pub fn match_element(e: &Expr) -> Option<ElementRead> {
    match e.kind() {
        ExprKind::Read { updates, index } => Some(ElementRead {
            updates: updates.clone(),
            base: index.clone(),
            bytes: 1,
        }),
        ExprKind::Concat { .. } => match_chain(e),
        _ => None,
    }
}

fn match_chain(e: &Expr) -> Option<ElementRead> {
    if !e.width().is_multiple_of(8) || e.width() / 8 > MAX_ELEMENT_BYTES {
        return None;
    }
    // Most significant part first.
    let mut parts: Vec<&Expr> = Vec::new();
    let mut cur = e;
    while let ExprKind::Concat { hi, lo } = cur.kind() {
        parts.push(hi);
        cur = lo;
    }
    parts.push(cur);
    let (
        ExprKind::Read {
            updates,
            index: base,
        },
        true,
    ) = (
        parts[parts.len() - 1].kind(),
        parts.iter().all(|p| p.width() == 8),
    )
    else {
        return None;
    };
    let width = base.width();
    let n = parts.len();
    for (t, part) in parts.iter().rev().enumerate().skip(1) {
        let ExprKind::Read { updates: u, index } = part.kind() else {
            return None;
        };
        if u != updates || *index != Expr::add(Expr::constant(t as u128, width), base.clone()) {
            return None;
        }
    }
    Some(ElementRead {
        updates: updates.clone(),
        base: base.clone(),
        bytes: n as u32,
    })
}

/// The cells of an update list whose writes all have constant indices.
#[derive(Debug)]
pub struct Cells {
    root: ArrayRef,
    /// Per byte: its constant value, or `None` when it is symbolic.
    bytes: Vec<Option<u8>>,
    /// Symbolic values written by updates (bytes not listed here and not constant are the
    /// root's own symbolic bytes).
    written: FxHashMap<u64, Expr>,
    symbolic: usize,
}

impl Cells {
    /// The cells of `updates`, or `None` when a write has a symbolic index or a write lies
    /// outside the array (then no transformation applies).
    pub fn of(updates: &UpdateList) -> Option<Cells> {
        let root = updates.root().clone();
        let size = usize::try_from(root.size()).ok()?;
        let mut bytes: Vec<Option<u8>> = match root.contents() {
            Some(c) => c.iter().map(|b| Some(*b)).collect(),
            None => vec![None; size],
        };
        let mut written: FxHashMap<u64, Expr> = FxHashMap::default();
        let writes: Vec<_> = updates.iter().collect();
        for w in writes.iter().rev() {
            let j = w.index().as_constant()?;
            if j >= size as u128 {
                return None;
            }
            let j = j as u64;
            match w.value().as_constant() {
                Some(v) => {
                    bytes[j as usize] = Some(v as u8);
                    written.remove(&j);
                }
                None => {
                    bytes[j as usize] = None;
                    written.insert(j, w.value().clone());
                }
            }
        }
        let symbolic = bytes.iter().filter(|b| b.is_none()).count();
        Some(Cells {
            root,
            bytes,
            written,
            symbolic,
        })
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// True for an empty array.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// True when every byte is constant.
    pub fn is_constant(&self) -> bool {
        self.symbolic == 0
    }

    /// The number of symbolic bytes.
    pub fn symbolic_bytes(&self) -> usize {
        self.symbolic
    }

    /// The constant byte at `j`, if constant (`None` also beyond the end).
    #[inline]
    pub fn byte(&self, j: u64) -> Option<u8> {
        self.bytes.get(j as usize).copied().flatten()
    }

    /// The little-endian value of bytes `o .. o + w`, if all are constant.
    pub fn element(&self, o: u64, w: u32) -> Option<u128> {
        let mut v = 0u128;
        for t in (0..w as u64).rev() {
            v = (v << 8) | self.byte(o + t)? as u128;
        }
        Some(v)
    }

    /// Byte `j` as an 8-bit expression: a constant, a written symbolic value, or a
    /// constant-index read of the symbolic root (a plain variable, not an array term).
    pub fn byte_expr(&self, j: u64) -> Expr {
        if let Some(b) = self.byte(j) {
            return Expr::constant(b as u128, 8);
        }
        if let Some(e) = self.written.get(&j) {
            return e.clone();
        }
        // A root without contents and no writes: every read policy builds the same read.
        let index = Expr::constant(j as u128, self.root.index_width());
        Expr::read(&UpdateList::new(self.root.clone()), index)
    }

    /// Bytes `o .. o + w` as one little-endian expression.
    pub fn element_expr(&self, o: u64, w: u32) -> Expr {
        let parts: Vec<Expr> = (0..w as u64).rev().map(|t| self.byte_expr(o + t)).collect();
        Expr::concat_all(&parts)
    }
}

/// An update list's identity: root id and head node address.
type ListKey = (u64, usize);

/// A cache of [`Cells`] per update list (keyed by identity; holding the list keeps the key
/// alive, so pointer reuse cannot alias two lists).
pub struct CellsCache {
    map: FxHashMap<ListKey, (UpdateList, Option<Arc<Cells>>)>,
    max_bytes: u64,
}

impl CellsCache {
    /// An empty cache that refuses arrays larger than `max_bytes`.
    pub fn new(max_bytes: u64) -> Self {
        CellsCache {
            map: FxHashMap::default(),
            max_bytes,
        }
    }

    /// The cells of `updates` (computed once per list); `None` for arrays over the size
    /// limit and for lists with symbolic-index writes.
    pub fn get(&mut self, updates: &UpdateList) -> Option<Arc<Cells>> {
        if updates.root().size() > self.max_bytes {
            return None;
        }
        let key = (
            updates.root().id(),
            updates.head().map_or(0, |h| Arc::as_ptr(h) as usize),
        );
        if let Some((_, cells)) = self.map.get(&key) {
            return cells.clone();
        }
        let cells = Cells::of(updates).map(Arc::new);
        self.map.insert(key, (updates.clone(), cells.clone()));
        cells
    }

    /// The number of cached lists.
    pub fn len(&self) -> usize {
        self.map.len()
    }

    /// True when nothing is cached.
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.map.clear();
    }
}
