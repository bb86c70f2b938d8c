//! Access-type inference (spec 001 §11 T4) and paged storage at the level of one
//! segment.

use super::*;

fn off() -> Expr {
    let a = Array::new("k", 4, ArrayKind::SymbolicInput, None);
    Expr::read_lsb(&UpdateList::new(a), Expr::constant(0, 32), 4)
}

#[test]
fn smallest_symbolic_access_width_per_segment() {
    let mut c = Segment::zeroed(SegmentId(1), 32);
    // Constant-offset accesses never set the access type.
    c.write_concrete(0, 4, 7);
    assert_eq!(c.access_granularity(), None);
    // int a[8] accessed via a[k]: 4.
    c.read_symbolic(&off(), 4, "a", ReadPolicy::Fold);
    let (root, w) = c.access_granularity().unwrap();
    assert_eq!(w, 4);
    // A fork copies the contents: the two paths evolve independently.
    let mut other = c.clone();
    // short view on one path: 2; a char access: 1.
    other.read_symbolic(&off(), 2, "a", ReadPolicy::Fold);
    assert_eq!(other.access_granularity().unwrap().1, 2);
    other.write_symbolic(&off(), &[(0, Expr::constant(1, 8))], "a");
    assert_eq!(other.access_granularity().unwrap().1, 1);
    assert_eq!(c.access_granularity(), Some((root, 4)));
    // A new allocation starts without an access type.
    assert_eq!(Segment::zeroed(SegmentId(2), 32).access_granularity(), None);
}

#[test]
fn unwritten_pages_are_not_stored_and_reads_cross_pages() {
    let big = 64 * PAGE_SIZE;
    let mut s = Segment::filled(SegmentId(1), big, 0xAB);
    assert_eq!(s.stored_pages(), 0);
    assert_eq!(s.read_concrete(5 * PAGE_SIZE, 4), Some(0xABAB_ABAB));
    // A write straddling two pages materialises both, and reads back across them.
    s.write_concrete(PAGE_SIZE - 2, 4, 0x1122_3344);
    assert_eq!(s.stored_pages(), 2);
    assert_eq!(s.read_concrete(PAGE_SIZE - 2, 4), Some(0x1122_3344));
    assert_eq!(s.read_concrete(PAGE_SIZE - 4, 4), Some(0x3344_ABAB));
    // A fork shares pages; the first write copies one page only.
    let mut child = s.clone();
    child.write_concrete_byte(0, 1);
    assert_eq!(s.concrete_byte(0), Some(0xAB));
    assert_eq!(child.concrete_byte(0), Some(1));
    // memset of the fill over whole pages stores nothing again.
    child.fill_concrete(0, big, 0xAB);
    assert_eq!(child.stored_pages(), 0);
}

#[test]
fn huge_segments_store_only_written_pages() {
    // 1 TiB: the page table holds the written pages only, and a fork shares them.
    let size = 1usize << 40;
    let mut s = Segment::zeroed(SegmentId(4), size);
    s.write_concrete(size - 4, 4, 0xDEAD_BEEF);
    s.write_concrete_byte(0, 1);
    assert_eq!(s.stored_pages(), 2);
    let mut child = s.clone();
    child.write_concrete_byte(size - 1, 0);
    assert_eq!(s.read_concrete(size - 4, 4), Some(0xDEAD_BEEF));
    assert_eq!(child.read_concrete(size - 4, 4), Some(0x00AD_BEEF));
    assert_eq!(child.read_concrete(1 << 35, 8), Some(0));
    child.fill_concrete(0, PAGE_SIZE, 0);
    assert_eq!(child.stored_pages(), 1);
    assert!(child.is_all_concrete());
}

#[test]
fn flush_keeps_concrete_root_and_writes_symbolic_bytes() {
    let mut s = Segment::from_bytes(SegmentId(3), &[1, 2, 3, 4]);
    let x = Expr::read(
        &UpdateList::new(Array::new("x", 1, ArrayKind::SymbolicInput, None)),
        Expr::constant(0, 32),
    );
    s.write_byte(2, x.clone());
    let updates = s.flush("mo3");
    // The root holds the concrete bytes (a symbolic byte is written over it).
    assert_eq!(updates.root().contents().unwrap(), [1, 2, 3, 4]);
    assert_eq!(Expr::read(&updates, Expr::constant(2, 32)), x);
    assert_eq!(
        Expr::read(&updates, Expr::constant(1, 32)).as_constant(),
        Some(2)
    );
    // A second flush without writes adds nothing.
    let again = s.flush("mo3");
    assert_eq!(again, updates);
    // A constant-offset write after the flush is flushed by the next one.
    s.write_concrete_byte(0, 9);
    let later = s.flush("mo3");
    assert_eq!(
        Expr::read(&later, Expr::constant(0, 32)).as_constant(),
        Some(9)
    );
}
