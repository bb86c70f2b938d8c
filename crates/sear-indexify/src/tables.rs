//! Indexed operator tables (IOTs): Algorithm 3's memoiser over the gardens, rows computed
//! by the concrete oracle, and the slices the solver encoding reads (the rows that remain
//! once the concrete arguments are fixed).

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::builder::Gardens;
use crate::ops::{Op, Param, Ret};
use crate::oracle::{self, Arg, Outcome};
use crate::value::{GValue, Ty, BOTTOM, NULL};

/// One argument of a row: a garden position (for an indexed parameter) or an integer.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Key {
    /// Position in the parameter type's garden.
    Pos(u32),
    /// An integer argument.
    Int(u64),
}

/// A row's result as a table cell: an index (or ⊥) for an indexed result, the integer
/// for an integer or boolean result, the offset (or [`NO_MATCH`]) for a pointer result.
pub type Cell = u64;

/// The cell of a pointer result that is NULL.
pub const NO_MATCH: Cell = u64::MAX;

/// A slice: the table with some arguments fixed.
type SliceKey = (Op, Vec<Option<Key>>);
/// The sizes of a slice's free dimensions and its cells.
type Slice = (Vec<usize>, std::sync::Arc<[Cell]>);

/// Counters of the tables.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TableStats {
    /// Rows computed by the oracle, per table.
    pub rows_computed: BTreeMap<String, u64>,
    /// Rows taken from the table cache of an earlier run.
    pub rows_from_cache: u64,
    /// Tables memoised whole before exploration (Algorithm 3).
    pub tables_memoised: u64,
    /// Slices built for lookups with symbolic arguments.
    pub slices: u64,
    /// Lookups answered with every argument concrete.
    pub concrete_lookups: u64,
    /// Lookups with symbolic arguments (encoded as a constant-array read).
    pub symbolic_lookups: u64,
    /// Concrete values indexed at run time that were not in the garden.
    pub values_added: u64,
}

/// The gardens and the memoised rows of every indexed operator.
#[derive(Debug)]
pub struct Tables {
    gardens: Gardens,
    rows: FxHashMap<(Op, Vec<Key>), Outcome>,
    slices: FxHashMap<SliceKey, Slice>,
    /// The counters.
    pub stats: TableStats,
}

/// Rows Algorithm 3 computes before exploration, per table, at most; larger tables are
/// filled on demand (slice by slice).
pub const EAGER_ROWS: u64 = 1 << 16;

impl Tables {
    /// Tables over `gardens` (no rows yet).
    pub fn new(gardens: Gardens) -> Tables {
        Tables {
            gardens,
            rows: FxHashMap::default(),
            slices: FxHashMap::default(),
            stats: TableStats::default(),
        }
    }

    /// The gardens.
    pub fn gardens(&self) -> &Gardens {
        &self.gardens
    }

    /// The garden of `ty` (empty when the type is not indexed).
    pub fn garden(&self, ty: Ty) -> Option<&crate::garden::Garden> {
        self.gardens.get(&ty)
    }

    /// The value of index `i` of type `ty`.
    pub fn value(&self, ty: Ty, i: u32) -> Option<&GValue> {
        self.gardens.get(&ty)?.undelta(i)
    }

    /// δ of a concrete value: its index, adding it to the garden when it is new (a concrete
    /// value is a garden of one; its rows are computed by the same oracle).
    pub fn index(&mut self, v: GValue) -> u32 {
        let ty = v.ty();
        let g = self
            .gardens
            .entry(ty)
            .or_insert_with(|| crate::garden::Garden::new(ty));
        let (pos, new) = g.insert(v);
        if new {
            self.stats.values_added += 1;
        }
        g.index_of(pos)
    }

    /// Algorithm 3: every row of `op` over the gardens, with integer parameters ranging over
    /// `ints`, when there are at most [`EAGER_ROWS`] of them; returns the rows computed.
    pub fn memoise(&mut self, op: &Op, ints: &[u64]) -> u64 {
        let domains: Vec<u64> = op
            .params()
            .iter()
            .map(|p| match p {
                Param::Idx(t) => self.gardens.get(t).map_or(0, |g| g.len() as u64),
                Param::Int(_) => ints.len() as u64,
            })
            .collect();
        let total = domains.iter().try_fold(1u64, |a, &d| a.checked_mul(d));
        if total.is_none_or(|t| t == 0 || t > EAGER_ROWS) {
            return 0;
        }
        let params = op.params();
        let mut tuple = vec![0u64; params.len()];
        let mut n = 0;
        loop {
            let key: Vec<Key> = params
                .iter()
                .zip(&tuple)
                .map(|(p, &i)| match p {
                    Param::Idx(_) => Key::Pos(i as u32),
                    Param::Int(_) => Key::Int(ints[i as usize]),
                })
                .collect();
            self.outcome(op, &key);
            n += 1;
            let mut d = params.len();
            loop {
                if d == 0 {
                    self.stats.tables_memoised += 1;
                    return n;
                }
                d -= 1;
                tuple[d] += 1;
                if tuple[d] < domains[d] {
                    break;
                }
                tuple[d] = 0;
            }
        }
    }

    /// The outcome of one row (computed once by the oracle).
    pub fn outcome(&mut self, op: &Op, key: &[Key]) -> Outcome {
        if let Some(o) = self.rows.get(&(*op, key.to_vec())) {
            return o.clone();
        }
        let params = op.params();
        let args: Vec<Arg> = params
            .iter()
            .zip(key)
            .map(|(p, k)| match (p, k) {
                (Param::Idx(t), Key::Pos(pos)) => Arg::Val(
                    self.gardens[t]
                        .value(*pos)
                        .expect("row arguments are garden positions"),
                ),
                (_, Key::Int(v)) => Arg::Int(*v),
                (Param::Int(_), Key::Pos(p)) => Arg::Int(*p as u64),
            })
            .collect();
        let outcome = oracle::apply(op, &args).unwrap_or(Outcome::Null);
        *self.stats.rows_computed.entry(op.name()).or_default() += 1;
        self.rows.insert((*op, key.to_vec()), outcome.clone());
        outcome
    }

    /// The cell of a row whose result is taken as the table stores it: indexed results are
    /// indices (⊥ when not in the garden), pointer results offsets or [`NO_MATCH`].
    pub fn cell(&mut self, op: &Op, key: &[Key]) -> Cell {
        let o = self.outcome(op, key);
        self.encode(op, o)
    }

    /// The result of a row with every argument concrete, as a cell; an indexed result that
    /// is not in the garden is added to it (concrete values never leave the garden).
    pub fn concrete(&mut self, op: &Op, key: &[Key]) -> Cell {
        self.stats.concrete_lookups += 1;
        match self.outcome(op, key) {
            Outcome::Value(v) => self.index(v) as Cell,
            other => self.encode(op, other),
        }
    }

    fn encode(&self, op: &Op, o: Outcome) -> Cell {
        match (o, op.ret()) {
            (Outcome::Value(v), _) => {
                let t = v.ty();
                self.gardens.get(&t).map_or(BOTTOM, |g| g.delta(&v)) as Cell
            }
            (Outcome::Null, Ret::Offset) => NO_MATCH,
            (Outcome::Null, Ret::Idx(_)) => NULL as Cell,
            (Outcome::Null, _) => 0,
            (Outcome::Int(v), Ret::Int(w)) if w < 64 => v & ((1 << w) - 1),
            (Outcome::Int(v), _) => v,
        }
    }

    /// The slice of `op` with the arguments in `fixed` (`Some`) held and the others (the
    /// symbolic ones, `None`) ranging over their gardens: cells in odometer order (the last
    /// free parameter fastest), and the size of each free dimension.
    pub fn slice(
        &mut self,
        op: &Op,
        fixed: &[Option<Key>],
    ) -> (Vec<usize>, std::sync::Arc<[Cell]>) {
        let params = op.params();
        let dims: Vec<usize> = params
            .iter()
            .zip(fixed)
            .filter(|(_, f)| f.is_none())
            .map(|(p, _)| match p {
                Param::Idx(t) => self.gardens.get(t).map_or(0, |g| g.len()),
                Param::Int(_) => 0,
            })
            .collect();
        let cache_key = (*op, fixed.to_vec());
        if let Some((d, cells)) = self.slices.get(&cache_key) {
            if *d == dims {
                return (d.clone(), cells.clone());
            }
        }
        self.stats.slices += 1;
        let total: usize = dims.iter().product();
        let mut cells = Vec::with_capacity(total);
        let mut free = vec![0usize; dims.len()];
        for _ in 0..total {
            let mut next = free.iter();
            let key: Vec<Key> = fixed
                .iter()
                .map(|f| f.unwrap_or_else(|| Key::Pos(*next.next().expect("free") as u32)))
                .collect();
            cells.push(self.cell(op, &key));
            for d in (0..dims.len()).rev() {
                free[d] += 1;
                if free[d] < dims[d] {
                    break;
                }
                free[d] = 0;
            }
        }
        let cells: std::sync::Arc<[Cell]> = cells.into();
        self.slices.insert(cache_key, (dims.clone(), cells.clone()));
        (dims, cells)
    }

    /// Every memoised row, as (table, arguments, outcome), for the table cache.
    pub fn rows(&self) -> impl Iterator<Item = (&Op, &[Key], &Outcome)> {
        self.rows.iter().map(|((op, k), o)| (op, k.as_slice(), o))
    }

    /// Adds rows from the table cache (they count as rows from the cache).
    pub fn add_cached_rows(&mut self, rows: impl IntoIterator<Item = (Op, Vec<Key>, Outcome)>) {
        for (op, key, o) in rows {
            if self.rows.insert((op, key), o).is_none() {
                self.stats.rows_from_cache += 1;
            }
        }
    }

    /// Total rows held.
    pub fn row_count(&self) -> usize {
        self.rows.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::garden::Garden;
    use crate::ops::StrFn;

    /// Spec §6.2: Figure 6's garden {foobar, oobar, bar, oo} and the full `strstr` table
    /// (row = haystack, column = needle; the cell is the match offset, or NULL).
    pub(crate) fn figure6() -> Tables {
        let mut g = Garden::new(Ty::Str);
        for s in ["foobar", "oobar", "bar", "oo"] {
            g.insert(GValue::str(s.as_bytes()));
        }
        let mut gardens = Gardens::new();
        gardens.insert(Ty::Str, g);
        Tables::new(gardens)
    }

    #[test]
    fn figure_six_strstr_table() {
        let mut t = figure6();
        let op = Op::Str(StrFn::Strstr);
        assert_eq!(t.memoise(&op, &[]), 16, "|G|^2 rows");
        let n = NO_MATCH;
        // the suffix each offset points to, as a garden index (NULL = no match)
        let expected = [[0, 1, 2, 1], [n, 1, 2, 1], [n, n, 2, n], [n, n, n, 3]];
        for (h, row) in expected.iter().enumerate() {
            for (needle, &want) in row.iter().enumerate() {
                let cell = t.cell(&op, &[Key::Pos(h as u32), Key::Pos(needle as u32)]);
                let suffix = (cell != NO_MATCH).then(|| {
                    let hay = t.value(Ty::Str, h as u32).unwrap().as_str().unwrap();
                    t.garden(Ty::Str)
                        .unwrap()
                        .delta(&GValue::str(&hay[cell as usize..])) as u64
                });
                assert_eq!(suffix.unwrap_or(NO_MATCH), want, "strstr({h}, {needle})");
            }
        }
        // with the needle fixed to "bar" (index 2), only that column remains
        let (dims, column) = t.slice(&op, &[None, Some(Key::Pos(2))]);
        assert_eq!(dims, vec![4]);
        assert_eq!(&*column, &[3, 2, 0, n]);
        assert_eq!(t.stats.rows_computed["strstr"], 16, "no row computed twice");
    }

    #[test]
    fn indexed_results_outside_the_garden_are_bottom_unless_concrete() {
        let mut t = figure6();
        let op = Op::Str(StrFn::Strcat);
        let key = [Key::Pos(2), Key::Pos(3)]; // "bar" ++ "oo"
        assert_eq!(t.cell(&op, &key), BOTTOM as Cell);
        let i = t.concrete(&op, &key);
        assert_eq!(t.value(Ty::Str, i as u32), Some(&GValue::str(b"baroo")));
        assert_eq!(t.stats.values_added, 1);
    }
}
