//! Arrays of bytes and their persistent update lists.
//!
//! An [`Array`] is a root: a named, sized map from `index_width`-bit indices to bytes, either
//! fully symbolic or with known constant contents. Writes are never applied to a root;
//! they are recorded in an [`UpdateList`], a persistent singly linked list of
//! `(index, value)` pairs, newest first, shared between the states that forked from each
//! other. Update nodes are hash-consed like expressions, so two update lists are equal
//! exactly when their heads are the same pointer.
//!
//! ```
//! use sear_expr::{Array, ArrayKind, Expr, UpdateList};
//! let a = Array::new("buf", 4, ArrayKind::SymbolicInput, None);
//! let ul = UpdateList::new(a).write(Expr::constant(1, 32), Expr::constant(7, 8));
//! // Reading the written cell folds to the written value.
//! assert_eq!(Expr::read(&ul, Expr::constant(1, 32)).as_constant(), Some(7));
//! ```

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Weak};

use rustc_hash::{FxHashMap, FxHasher};

use crate::expr::Expr;
use crate::intern::{Internable, Interner};

/// What an array stands for; the solver layers and the engine read this tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArrayKind {
    /// Program input made symbolic (`klee_make_symbolic`, argv, files); written to `.ktest`.
    SymbolicInput,
    /// The contents of a memory object flushed for a symbolic-offset access.
    MemoryObject,
    /// A symbolic base address (relocatable memory model).
    SymbolicAddress,
    /// Anything else, e.g. arrays read from an SMT-LIB file.
    Other,
}

/// A root array: a named map from indices to bytes.
#[derive(Debug)]
pub struct Array {
    id: u64,
    name: String,
    size: u64,
    index_width: u32,
    kind: ArrayKind,
    contents: Option<Arc<[u8]>>,
    fill: u8,
    /// How many bytes of the contents differ from `fill`.
    unlike_fill: u64,
    unbounded: bool,
    hash: u64,
}

/// A shared handle to a root array. Arrays compare by identity.
#[derive(Clone, Debug)]
pub struct ArrayRef(Arc<Array>);

static NEXT_ARRAY_ID: AtomicU64 = AtomicU64::new(1);

/// The constant arrays [`Array::constant`] made.
static CONSTANT_ARRAYS: LazyLock<Mutex<ConstantArrays>> = LazyLock::new(Default::default);

/// The constant arrays made, by the name asked for.
#[derive(Default)]
struct ConstantArrays {
    names: FxHashMap<String, MadeConstants>,
    /// The number of names at which those without a live array are swept out.
    sweep_at: usize,
}

/// The constant arrays made for one name: those still in use, by a hash of their contents,
/// and how many were made.
#[derive(Default)]
struct MadeConstants {
    live: FxHashMap<u64, Vec<Weak<Array>>>,
    count: u32,
    /// The number of hashes at which the ones of dropped arrays are swept out.
    sweep_at: usize,
}

impl MadeConstants {
    /// Forgets the arrays no longer in use, and the hashes left without one.
    fn drop_dead(&mut self) {
        self.live.retain(|_, bucket| {
            bucket.retain(|w| w.strong_count() > 0);
            !bucket.is_empty()
        });
    }
}

// `new` returns the shared handle, not the root itself: roots only exist behind `ArrayRef`.
#[allow(clippy::new_ret_no_self)]
impl Array {
    /// Creates an array with 32-bit indices. `contents`, when given, must hold `size` bytes
    /// and makes the array constant.
    pub fn new(
        name: impl Into<String>,
        size: u64,
        kind: ArrayKind,
        contents: Option<Arc<[u8]>>,
    ) -> ArrayRef {
        Self::with_index_width(name, size, 32, kind, contents)
    }

    /// Creates an array with the given index width (32 or 64 in practice).
    pub fn with_index_width(
        name: impl Into<String>,
        size: u64,
        index_width: u32,
        kind: ArrayKind,
        contents: Option<Arc<[u8]>>,
    ) -> ArrayRef {
        let name = name.into();
        if let Some(bytes) = &contents {
            assert_eq!(
                bytes.len() as u64,
                size,
                "constant array contents must match its size"
            );
        }
        let mut hasher = FxHasher::default();
        name.hash(&mut hasher);
        size.hash(&mut hasher);
        index_width.hash(&mut hasher);
        kind.hash(&mut hasher);
        if let Some(bytes) = &contents {
            bytes.hash(&mut hasher);
        }
        let (fill, unlike_fill) = contents.as_deref().map_or((0, 0), most_common_byte);
        ArrayRef(Arc::new(Array {
            id: NEXT_ARRAY_ID.fetch_add(1, Ordering::Relaxed),
            name,
            size,
            index_width,
            kind,
            contents,
            fill,
            unlike_fill,
            unbounded: false,
            hash: hasher.finish(),
        }))
    }

    /// The constant array of `contents` made for `name`: the one an earlier call for the same
    /// name and contents made, while it is still in use, else a new one — named `name`, or
    /// `name_vN` while other arrays of that name live, so that the names of live arrays stay
    /// unique. Constant arrays of equal bytes are the same function: paths that flush the
    /// same memory again (siblings after a fork, a worker's rebuilt paths) then ask the
    /// queries the caches already answered instead of the same queries over a new array.
    pub fn constant(name: &str, kind: ArrayKind, contents: Arc<[u8]>) -> ArrayRef {
        let mut hasher = FxHasher::default();
        kind.hash(&mut hasher);
        contents.hash(&mut hasher);
        let key = hasher.finish();
        let mut table = CONSTANT_ARRAYS.lock().unwrap_or_else(|e| e.into_inner());
        if table.names.len() >= table.sweep_at {
            // Names none of whose arrays is alive start over: no live array has one of them.
            table.names.retain(|_, made| {
                made.drop_dead();
                !made.live.is_empty()
            });
            table.sweep_at = (2 * table.names.len()).max(4096);
        }
        let made = table.names.entry(name.to_string()).or_default();
        let bucket = made.live.entry(key).or_default();
        bucket.retain(|w| w.strong_count() > 0);
        let found = bucket
            .iter()
            .filter_map(Weak::upgrade)
            .find(|a| a.kind == kind && a.contents.as_deref() == Some(&contents[..]));
        if let Some(array) = found {
            return ArrayRef(array);
        }
        let unique = match made.count {
            0 => name.to_string(),
            n => format!("{name}_v{n}"),
        };
        made.count += 1;
        let array = Self::new(unique, contents.len() as u64, kind, Some(contents));
        bucket.push(Arc::downgrade(&array.0));
        if made.live.len() >= made.sweep_at {
            made.drop_dead();
            made.sweep_at = (2 * made.live.len()).max(64);
        }
        array
    }

    /// Creates a symbolic array over the whole index domain (e.g. one declared in an SMT-LIB
    /// file without size information): `size` bytes are reported in models densely, and
    /// reads beyond them are unconstrained, as in the SMT-LIB theory of arrays.
    pub fn unbounded(
        name: impl Into<String>,
        size: u64,
        index_width: u32,
        kind: ArrayKind,
    ) -> ArrayRef {
        let array = Self::with_index_width(name, size, index_width, kind, None);
        let mut inner = Arc::try_unwrap(array.0).expect("fresh array is unshared");
        inner.unbounded = true;
        inner.hash ^= 0x9e37_79b9_7f4a_7c15;
        ArrayRef(Arc::new(inner))
    }
}

/// The most frequent byte of `bytes` (the smallest of the most frequent, so 0 wins its ties)
/// and how many bytes differ from it.
fn most_common_byte(bytes: &[u8]) -> (u8, u64) {
    let mut counts = [0usize; 256];
    for &b in bytes {
        counts[b as usize] += 1;
    }
    let mut best = 0;
    for (b, &n) in counts.iter().enumerate() {
        if n > counts[best] {
            best = b;
        }
    }
    (best as u8, (bytes.len() - counts[best]) as u64)
}

impl ArrayRef {
    /// A process-unique identifier, increasing in creation order.
    pub fn id(&self) -> u64 {
        self.0.id
    }
    /// The array's name; unique among the arrays of one run.
    pub fn name(&self) -> &str {
        &self.0.name
    }
    /// The number of bytes the array holds.
    pub fn size(&self) -> u64 {
        self.0.size
    }
    /// The width of the index bit-vectors.
    pub fn index_width(&self) -> u32 {
        self.0.index_width
    }
    /// The width of each element (always 8: arrays hold bytes).
    pub fn value_width(&self) -> u32 {
        8
    }
    /// What the array stands for.
    pub fn kind(&self) -> ArrayKind {
        self.0.kind
    }
    /// The constant contents, if the array is constant.
    pub fn contents(&self) -> Option<&[u8]> {
        self.0.contents.as_deref()
    }
    /// True for arrays over the whole index domain (see [`Array::unbounded`]); reads beyond
    /// [`ArrayRef::size`] are then not zero but free.
    pub fn is_unbounded(&self) -> bool {
        self.0.unbounded
    }
    /// True if a read at `index` is zero in every model: beyond the bytes of a sized array
    /// (beyond an unbounded array's dense part, reads are free).
    pub fn reads_zero_at(&self, index: u128) -> bool {
        index >= self.size() as u128 && !self.is_unbounded()
    }
    /// True if the array's contents are known constants.
    pub fn is_constant(&self) -> bool {
        self.0.contents.is_some()
    }
    /// The byte most of a constant array's contents hold (0 on a tie with 0, and for symbolic
    /// arrays). A solver encodes the array as this byte everywhere plus the bytes that
    /// differ: an uninitialised 8 KiB buffer (KLEE's 0xAB pattern) is then a handful of
    /// `store`s over a constant array, not 8,000.
    pub fn fill_byte(&self) -> u8 {
        self.0.fill
    }
    /// How many bytes of a constant array differ from its [`fill_byte`](Self::fill_byte)
    /// (the `store`s of its encoding; 0 for symbolic arrays).
    pub fn bytes_unlike_fill(&self) -> u64 {
        self.0.unlike_fill
    }
    /// The structural hash (name, size, widths, kind, contents).
    pub fn structural_hash(&self) -> u64 {
        self.0.hash
    }
}

impl PartialEq for ArrayRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for ArrayRef {}
impl Hash for ArrayRef {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state)
    }
}
impl PartialOrd for ArrayRef {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ArrayRef {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.id.cmp(&other.0.id)
    }
}

/// One write in an update list.
#[derive(Debug)]
pub struct UpdateNode {
    index: Expr,
    value: Expr,
    next: Option<Arc<UpdateNode>>,
    len: usize,
    hash: u64,
    /// Whether this write or an older one mentions a quantified clause.
    quantified: bool,
}

impl UpdateNode {
    /// The written index.
    pub fn index(&self) -> &Expr {
        &self.index
    }
    /// The written byte.
    pub fn value(&self) -> &Expr {
        &self.value
    }
    /// The next older write.
    pub fn next(&self) -> Option<&Arc<UpdateNode>> {
        self.next.as_ref()
    }
}

impl Internable for UpdateNode {
    fn structural_hash(&self) -> u64 {
        self.hash
    }
    fn shallow_eq(&self, other: &Self) -> bool {
        self.index == other.index
            && self.value == other.value
            && match (&self.next, &other.next) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl Drop for UpdateNode {
    fn drop(&mut self) {
        // Long update lists would otherwise be dropped recursively.
        let mut next = self.next.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut inner) => next = inner.next.take(),
                Err(_) => break,
            }
        }
    }
}

static UPDATE_INTERNER: LazyLock<Interner<UpdateNode>> = LazyLock::new(Interner::new);

/// A root array plus a persistent list of writes, newest first.
#[derive(Clone, Debug)]
pub struct UpdateList {
    root: ArrayRef,
    head: Option<Arc<UpdateNode>>,
}

impl UpdateList {
    /// An update list with no writes.
    pub fn new(root: ArrayRef) -> Self {
        UpdateList { root, head: None }
    }

    /// Rebuilds an update list from a root and a head node (used by rewriters).
    pub fn from_parts(root: ArrayRef, head: Option<Arc<UpdateNode>>) -> Self {
        UpdateList { root, head }
    }

    /// The root array.
    pub fn root(&self) -> &ArrayRef {
        &self.root
    }

    /// The newest write, if any.
    pub fn head(&self) -> Option<&Arc<UpdateNode>> {
        self.head.as_ref()
    }

    /// The number of writes.
    pub fn len(&self) -> usize {
        self.head.as_ref().map_or(0, |h| h.len)
    }

    /// True when there are no writes.
    pub fn is_empty(&self) -> bool {
        self.head.is_none()
    }

    /// True when a written index or value contains a quantified clause.
    pub fn is_quantified(&self) -> bool {
        self.head.as_ref().is_some_and(|h| h.quantified)
    }

    /// Returns a new list with `value` written at `index` (the receiver is unchanged).
    pub fn write(&self, index: Expr, value: Expr) -> UpdateList {
        assert_eq!(index.width(), self.root.index_width(), "update index width");
        assert_eq!(value.width(), 8, "update value width");
        let mut hasher = FxHasher::default();
        index.structural_hash().hash(&mut hasher);
        value.structural_hash().hash(&mut hasher);
        self.head.as_ref().map(|h| h.hash).hash(&mut hasher);
        let quantified = index.is_quantified() || value.is_quantified() || self.is_quantified();
        let node = UpdateNode {
            index,
            value,
            quantified,
            len: self.len() + 1,
            next: self.head.clone(),
            hash: hasher.finish(),
        };
        UpdateList {
            root: self.root.clone(),
            head: Some(UPDATE_INTERNER.intern(node)),
        }
    }

    /// Iterates over the writes, newest first.
    pub fn iter(&self) -> UpdateIter<'_> {
        UpdateIter {
            next: self.head.as_deref(),
        }
    }

    /// The structural hash of the list (root and writes).
    pub fn structural_hash(&self) -> u64 {
        let mut hasher = FxHasher::default();
        self.root.structural_hash().hash(&mut hasher);
        self.head.as_ref().map(|h| h.hash).hash(&mut hasher);
        hasher.finish()
    }
}

impl PartialEq for UpdateList {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
            && match (&self.head, &other.head) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}
impl Eq for UpdateList {}

/// Iterator over the writes of an update list, newest first.
pub struct UpdateIter<'a> {
    next: Option<&'a UpdateNode>,
}

impl<'a> Iterator for UpdateIter<'a> {
    type Item = &'a UpdateNode;
    fn next(&mut self) -> Option<Self::Item> {
        let node = self.next?;
        self.next = node.next.as_deref();
        Some(node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_arrays_of_one_name_and_the_same_bytes_are_one_array() {
        let kind = ArrayKind::MemoryObject;
        let table = || -> Arc<[u8]> { vec![1, 2, 3].into() };
        let a = Array::constant("tbl_test_0", kind, table());
        let b = Array::constant("tbl_test_0", kind, table());
        assert_eq!(a, b, "the same name and bytes: the same array");
        let input = Array::new("i", 1, ArrayKind::SymbolicInput, None);
        let index = Expr::zext(
            Expr::read(&UpdateList::new(input), Expr::constant(0, 32)),
            32,
        );
        let read = |arr: &ArrayRef| Expr::read(&UpdateList::new(arr.clone()), index.clone());
        assert_eq!(read(&a), read(&b), "so the same expressions");
        let other = Array::constant("tbl_test_0", kind, vec![1, 2, 4].into());
        assert_ne!(a, other, "other bytes: another array");
        assert_ne!(a.name(), other.name(), "whose name stays unique");
        drop((a, b));
        let again = Array::constant("tbl_test_0", kind, table());
        assert_eq!(again.contents(), Some(&[1, 2, 3][..]));
        assert_ne!(again.name(), other.name());
    }

    #[test]
    fn the_fill_byte_is_the_most_common_and_zero_wins_ties() {
        let buffer: Vec<u8> = [vec![0xAB; 100], vec![1, 2, 0, 0]].concat();
        let a = Array::new("buf", 104, ArrayKind::MemoryObject, Some(buffer.into()));
        assert_eq!((a.fill_byte(), a.bytes_unlike_fill()), (0xAB, 4));
        let tie = Array::new(
            "tie",
            4,
            ArrayKind::MemoryObject,
            Some(vec![7, 0, 7, 0].into()),
        );
        assert_eq!((tie.fill_byte(), tie.bytes_unlike_fill()), (0, 2));
        let sym = Array::new("x", 4, ArrayKind::SymbolicInput, None);
        assert_eq!((sym.fill_byte(), sym.bytes_unlike_fill()), (0, 0));
    }
}
