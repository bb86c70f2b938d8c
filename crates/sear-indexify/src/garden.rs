//! The garden G of one indexed type: its values in insertion order, each numbered by its
//! position (δ₀), with the size after every builder round.

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::value::{GValue, Ty, BOTTOM, RANGE};

/// One type's garden: a deterministic numbering of values (positions 0, 1, ...; the index
/// of position `p` is `ty.base() + p`).
#[derive(Clone, Debug)]
pub struct Garden {
    ty: Ty,
    values: Vec<GValue>,
    positions: FxHashMap<GValue, u32>,
    /// Values taken from the seeds.
    pub seeds: usize,
    /// |G| after each builder round (round 0 = the seeds).
    pub rounds: Vec<usize>,
    /// |G| when construction ended: values added later (concrete values met at run
    /// time) have positions from here on.
    pub constructed: usize,
    /// Values refused by the garden's size cap.
    pub refused: u64,
}

/// What a garden's statistics report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GardenStats {
    /// Seeds.
    pub seeds: usize,
    /// |G| per round (round 0 = the seeds).
    pub size_per_round: Vec<usize>,
    /// |G| after construction.
    pub constructed: usize,
    /// |G| at the end of the run (with the concrete values added on demand).
    pub final_size: usize,
    /// Values the size cap refused.
    pub refused: u64,
}

impl Garden {
    /// An empty garden of `ty`.
    pub fn new(ty: Ty) -> Garden {
        Garden {
            ty,
            values: Vec::new(),
            positions: FxHashMap::default(),
            seeds: 0,
            rounds: Vec::new(),
            constructed: 0,
            refused: 0,
        }
    }

    /// The garden's type.
    pub fn ty(&self) -> Ty {
        self.ty
    }

    /// |G|.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// True when the garden holds nothing.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The values, in position order.
    pub fn values(&self) -> &[GValue] {
        &self.values
    }

    /// The value at position `pos`.
    pub fn value(&self, pos: u32) -> Option<&GValue> {
        self.values.get(pos as usize)
    }

    /// The position of `v`, if it is in the garden.
    pub fn position(&self, v: &GValue) -> Option<u32> {
        self.positions.get(v).copied()
    }

    /// Adds `v` (of this garden's type) unless present; returns its position and whether
    /// it is new. Positions are assigned in insertion order.
    pub fn insert(&mut self, v: GValue) -> (u32, bool) {
        debug_assert_eq!(v.ty(), self.ty);
        let v = v.canonical();
        if let Some(&p) = self.positions.get(&v) {
            return (p, false);
        }
        let p = self.values.len() as u32;
        assert!(
            p < RANGE - 2,
            "garden of {} exceeds its index range",
            self.ty
        );
        self.positions.insert(v.clone(), p);
        self.values.push(v);
        (p, true)
    }

    /// δ⊥: the index of `v`, or ⊥ when it is not in the garden.
    pub fn delta(&self, v: &GValue) -> u32 {
        self.position(v).map_or(BOTTOM, |p| self.ty.base() + p)
    }

    /// δ⊥⁻¹: the value of index `i` (None for ⊥, NULL and indices of other types).
    pub fn undelta(&self, i: u32) -> Option<&GValue> {
        let pos = i.checked_sub(self.ty.base())?;
        if pos >= RANGE {
            return None;
        }
        self.value(pos)
    }

    /// The index of position `pos`.
    pub fn index_of(&self, pos: u32) -> u32 {
        self.ty.base() + pos
    }

    /// Renumbers the values in their natural order (floats by value, −0 before +0, NaN
    /// last; strings by their bytes), so that a comparison with a constant holds on one run
    /// of positions: the conditions over a symbolic index become few ranges.
    pub fn sort(&mut self) {
        let key = |v: &GValue| match v {
            GValue::F64(b) => (f64::from_bits(*b), Vec::new()),
            GValue::F32(b) => (f32::from_bits(*b) as f64, Vec::new()),
            GValue::Str(s) => (0.0, s.clone()),
        };
        self.values.sort_by(|a, b| {
            let (x, s) = key(a);
            let (y, t) = key(b);
            x.total_cmp(&y).then_with(|| s.cmp(&t))
        });
        self.positions = self
            .values
            .iter()
            .enumerate()
            .map(|(p, v)| (v.clone(), p as u32))
            .collect();
    }

    /// Marks the end of construction.
    pub fn finish_construction(&mut self) {
        self.constructed = self.values.len();
    }

    /// The statistics.
    pub fn stats(&self) -> GardenStats {
        GardenStats {
            seeds: self.seeds,
            size_per_round: self.rounds.clone(),
            constructed: self.constructed,
            final_size: self.values.len(),
            refused: self.refused,
        }
    }

    /// The longest string in the garden (0 for floats).
    pub fn max_str_len(&self) -> usize {
        self.values
            .iter()
            .filter_map(GValue::as_str)
            .map(<[u8]>::len)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_follow_insertion_order_and_duplicates_keep_theirs() {
        let mut g = Garden::new(Ty::Str);
        assert_eq!(g.insert(GValue::str(b"b")), (0, true));
        assert_eq!(g.insert(GValue::str(b"a")), (1, true));
        assert_eq!(g.insert(GValue::str(b"b")), (0, false));
        assert_eq!(g.delta(&GValue::str(b"a")), 1);
        assert_eq!(g.delta(&GValue::str(b"zz")), BOTTOM);
        assert_eq!(g.undelta(1), Some(&GValue::str(b"a")));
        assert_eq!(g.undelta(BOTTOM), None);
        let mut f = Garden::new(Ty::F64);
        let (p, _) = f.insert(GValue::f64(1.5));
        assert_eq!(f.delta(&GValue::f64(1.5)), Ty::F64.base() + p);
        assert_eq!(f.undelta(Ty::F64.base()), Some(&GValue::f64(1.5)));
        assert_eq!(f.undelta(0), None);
    }

    #[test]
    fn sorting_orders_values_naturally() {
        let mut f = Garden::new(Ty::F64);
        for x in [2.0, f64::NAN, -1.0, 0.0, -0.0, 0.5] {
            f.insert(GValue::f64(x));
        }
        f.sort();
        let order: Vec<String> = f.values().iter().map(|v| v.to_string()).collect();
        assert_eq!(order, ["-1.0", "-0.0", "0.0", "0.5", "2.0", "NaN"]);
        assert_eq!(f.position(&GValue::f64(0.5)), Some(3));
        let mut s = Garden::new(Ty::Str);
        for x in ["b", "", "ab"] {
            s.insert(GValue::str(x.as_bytes()));
        }
        s.sort();
        assert_eq!(s.position(&GValue::str(b"ab")), Some(1));
    }
}
