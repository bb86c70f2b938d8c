//! A segment's page table: which pages are stored. Small segments keep a vector with one
//! slot per page (the fastest lookup); segments of more than [`DENSE_PAGES`] pages keep a
//! persistent map of the pages stored only, so that a huge object (SV-COMP's 10 GB arrays,
//! a `malloc` of 4 GiB) costs memory and fork time for the pages a path writes, not one
//! slot per page of its size.

/// Segments of up to this many pages (256 MiB) have a vector of slots.
pub const DENSE_PAGES: usize = 1 << 16;

/// The stored pages of a segment of `count` pages.
#[derive(Clone, Debug)]
pub enum PageTable<P: Clone> {
    /// One slot per page.
    Dense(Vec<Option<P>>),
    /// The stored pages by index (O(1) to clone; shares structure with its copies).
    Sparse {
        /// Pages in the segment.
        count: usize,
        /// The stored ones.
        pages: imbl::OrdMap<usize, P>,
    },
}

impl<P: Clone> PageTable<P> {
    /// A table of `count` pages, none stored.
    pub fn new(count: usize) -> Self {
        if count <= DENSE_PAGES {
            PageTable::Dense(vec![None; count])
        } else {
            PageTable::Sparse {
                count,
                pages: imbl::OrdMap::new(),
            }
        }
    }

    /// The number of pages (stored or not).
    pub fn page_count(&self) -> usize {
        match self {
            PageTable::Dense(v) => v.len(),
            PageTable::Sparse { count, .. } => *count,
        }
    }

    /// Page `p`, if stored.
    #[inline]
    pub fn get(&self, p: usize) -> Option<&P> {
        match self {
            PageTable::Dense(v) => v[p].as_ref(),
            PageTable::Sparse { pages, .. } => pages.get(&p),
        }
    }

    /// Page `p`, if stored, for changing.
    #[inline]
    pub fn get_mut(&mut self, p: usize) -> Option<&mut P> {
        match self {
            PageTable::Dense(v) => v[p].as_mut(),
            PageTable::Sparse { pages, .. } => pages.get_mut(&p),
        }
    }

    /// Stores `page` as page `p`.
    pub fn insert(&mut self, p: usize, page: P) {
        match self {
            PageTable::Dense(v) => v[p] = Some(page),
            PageTable::Sparse { pages, .. } => {
                pages.insert(p, page);
            }
        }
    }

    /// Forgets page `p` (it holds the segment's fill again).
    pub fn remove(&mut self, p: usize) {
        match self {
            PageTable::Dense(v) => v[p] = None,
            PageTable::Sparse { pages, .. } => {
                pages.remove(&p);
            }
        }
    }

    /// Forgets every page.
    pub fn clear(&mut self) {
        match self {
            PageTable::Dense(v) => v.iter_mut().for_each(|s| *s = None),
            PageTable::Sparse { pages, .. } => pages.clear(),
        }
    }

    /// The indices of the stored pages, in increasing order.
    pub fn stored(&self) -> Vec<usize> {
        match self {
            PageTable::Dense(v) => (0..v.len()).filter(|p| v[*p].is_some()).collect(),
            PageTable::Sparse { pages, .. } => pages.keys().copied().collect(),
        }
    }

    /// How many pages are stored.
    pub fn stored_count(&self) -> usize {
        match self {
            PageTable::Dense(v) => v.iter().filter(|s| s.is_some()).count(),
            PageTable::Sparse { pages, .. } => pages.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_tables_agree() {
        for count in [10, DENSE_PAGES + 1, 1 << 22] {
            let mut t: PageTable<u32> = PageTable::new(count);
            assert_eq!(matches!(t, PageTable::Sparse { .. }), count > DENSE_PAGES);
            assert_eq!(t.page_count(), count);
            t.insert(count - 1, 7);
            t.insert(3, 5);
            let copy = t.clone();
            *t.get_mut(3).unwrap() = 6;
            assert_eq!(copy.get(3), Some(&5), "a copy is independent");
            assert_eq!(t.get(3), Some(&6));
            assert_eq!(t.get(4), None);
            assert_eq!(t.stored(), vec![3, count - 1]);
            t.remove(3);
            assert_eq!(t.stored_count(), 1);
            t.clear();
            assert_eq!(t.stored_count(), 0);
            assert_eq!(copy.stored_count(), 2);
        }
    }
}
