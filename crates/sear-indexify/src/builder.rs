//! Garden construction: Algorithm 1 (the driver: k rounds over the builders B₊) and
//! Algorithm 2 (`extend`: every type-correct tuple of the garden as it was when the call
//! began, applied concretely; new values get fresh positions), and the Kleene-closure
//! builder B₊* (concatenations of at most k seeds, plus the empty string).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::garden::Garden;
use crate::ops::{Op, Param};
use crate::oracle::{self, Arg};
use crate::value::{GValue, Ty};

/// Which builder grows the string garden.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "snake_case")]
pub enum BuilderKind {
    /// B₊°: the operators (F₊'s builders) applied to the garden, k rounds (Algorithm 1).
    #[default]
    Ops,
    /// B₊*: concatenations of at most k seeds (and the empty string), each at most the
    /// length cap. Floats always use the operators.
    Kleene,
}

/// Limits on what construction adds.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Built strings longer than this are not added (seeds are kept whatever their length).
    pub max_len: usize,
    /// No garden grows beyond this many values.
    pub max_garden: usize,
}

/// Counters of construction.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BuildStats {
    /// Builder applications, per builder name.
    pub applications: BTreeMap<String, u64>,
    /// Applications that yielded a value not yet in the garden, per builder name.
    pub productive: BTreeMap<String, u64>,
}

impl BuildStats {
    /// All applications.
    pub fn total_applications(&self) -> u64 {
        self.applications.values().sum()
    }
    /// All productive applications.
    pub fn total_productive(&self) -> u64 {
        self.productive.values().sum()
    }
}

/// The gardens of every indexed type.
pub type Gardens = BTreeMap<Ty, Garden>;

/// Algorithm 1's first loop: `k` rounds, each extending the gardens by every builder in
/// turn (a later builder sees an earlier one's output). `ints` are the values enumerated
/// for integer parameters. Records |G| after each round.
pub fn drive(
    gardens: &mut Gardens,
    builders: &[Op],
    ints: &[u64],
    k: u32,
    limits: Limits,
    stats: &mut BuildStats,
) {
    for g in gardens.values_mut() {
        g.rounds = vec![g.len()];
    }
    for _ in 0..k {
        for b in builders {
            extend(gardens, b, ints, limits, stats);
        }
        for g in gardens.values_mut() {
            g.rounds.push(g.len());
        }
    }
}

/// Algorithm 2: applies `f` to every tuple of the gardens' snapshot whose types match its
/// parameters; results not yet indexed get fresh positions (subject to `limits`).
pub fn extend(gardens: &mut Gardens, f: &Op, ints: &[u64], limits: Limits, stats: &mut BuildStats) {
    let params = f.params();
    let snapshot: BTreeMap<Ty, Vec<GValue>> = gardens
        .iter()
        .map(|(t, g)| (*t, g.values().to_vec()))
        .collect();
    let domains: Vec<usize> = params
        .iter()
        .map(|p| match p {
            Param::Idx(t) => snapshot.get(t).map_or(0, Vec::len),
            Param::Int(_) => ints.len(),
        })
        .collect();
    if domains.contains(&0) {
        return;
    }
    // a full garden takes nothing more: skip the applications
    let full = |g: &Gardens, t: Ty| g.get(&t).is_none_or(|g| g.len() >= limits.max_garden);
    let result_ty = match f.ret() {
        crate::ops::Ret::Idx(t) => t,
        _ => Ty::Str,
    };
    if full(gardens, result_ty) {
        return;
    }
    let name = f.name();
    let mut tuple = vec![0usize; params.len()];
    loop {
        let args: Vec<Arg> = params
            .iter()
            .zip(&tuple)
            .map(|(p, &i)| match p {
                Param::Idx(t) => Arg::Val(&snapshot[t][i]),
                Param::Int(_) => Arg::Int(ints[i]),
            })
            .collect();
        *stats.applications.entry(name.clone()).or_default() += 1;
        if let Some(v) = oracle::build(f, &args) {
            if admit(gardens, v, limits) {
                *stats.productive.entry(name.clone()).or_default() += 1;
            } else if full(gardens, result_ty) {
                return;
            }
        }
        // the next tuple (odometer order: the last parameter varies fastest)
        let mut d = params.len();
        loop {
            if d == 0 {
                return;
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

/// Adds a built value if it passes the filters; true when it was new and added.
fn admit(gardens: &mut Gardens, v: GValue, limits: Limits) -> bool {
    match gardens.get_mut(&v.ty()) {
        Some(g) => admit_to(g, v, limits),
        None => false,
    }
}

fn admit_to(g: &mut Garden, v: GValue, limits: Limits) -> bool {
    if g.position(&v).is_some() {
        return false;
    }
    if v.as_str().is_some_and(|s| s.len() > limits.max_len) {
        return false;
    }
    if g.len() >= limits.max_garden {
        g.refused += 1;
        return false;
    }
    g.insert(v).1
}

/// B₊*: the empty string and every concatenation of at most `k` seeds of length at most
/// `limits.max_len`, added to `garden` (which holds the seeds) round by round.
pub fn kleene(garden: &mut Garden, k: u32, limits: Limits, stats: &mut BuildStats) {
    let seeds: Vec<Vec<u8>> = garden
        .values()
        .iter()
        .filter_map(|v| v.as_str().map(<[u8]>::to_vec))
        .collect();
    garden.rounds = vec![garden.len()];
    let mut frontier: Vec<Vec<u8>> = seeds.clone();
    admit_one(garden, Vec::new(), limits, stats);
    for _ in 1..k.max(1) {
        let mut next = Vec::new();
        for prefix in &frontier {
            for seed in &seeds {
                let mut s = prefix.clone();
                s.extend_from_slice(seed);
                if s.len() <= limits.max_len {
                    admit_one(garden, s.clone(), limits, stats);
                    if garden.position(&GValue::Str(s.clone())).is_some() {
                        next.push(s);
                    }
                }
            }
        }
        next.dedup();
        frontier = next;
        garden.rounds.push(garden.len());
    }
    if garden.rounds.len() == 1 {
        garden.rounds.push(garden.len());
    }
}

fn admit_one(garden: &mut Garden, s: Vec<u8>, limits: Limits, stats: &mut BuildStats) -> bool {
    *stats.applications.entry("kleene".into()).or_default() += 1;
    let added = admit_to(garden, GValue::Str(s), limits);
    if added {
        *stats.productive.entry("kleene".into()).or_default() += 1;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::StrFn;

    fn strings(g: &Garden) -> Vec<String> {
        let mut v: Vec<String> = g
            .values()
            .iter()
            .map(|v| String::from_utf8_lossy(v.as_str().unwrap()).into_owned())
            .collect();
        v.sort();
        v
    }

    fn seeded(seeds: &[&str]) -> Gardens {
        let mut g = Garden::new(Ty::Str);
        for s in seeds {
            g.insert(GValue::str(s.as_bytes()));
        }
        g.seeds = seeds.len();
        let mut all = Gardens::new();
        all.insert(Ty::Str, g);
        all
    }

    const WIDE: Limits = Limits {
        max_len: 8,
        max_garden: 1 << 20,
    };

    /// Spec §6.3: the Kleene builder over S = {a, b} with bound 2 gives
    /// {ε, a, b, aa, ab, ba, bb}.
    #[test]
    fn kleene_closure_of_two_seeds() {
        let mut gardens = seeded(&["a", "b"]);
        let g = gardens.get_mut(&Ty::Str).unwrap();
        let mut stats = BuildStats::default();
        kleene(g, 2, WIDE, &mut stats);
        assert_eq!(strings(g), ["", "a", "aa", "ab", "b", "ba", "bb"]);
        assert_eq!(g.rounds, vec![2, 7]);
    }

    /// Spec §6.3: Algorithm 1 with B₊ = [strcat, strstr] over S = [a, b]: k = 1 gives
    /// {a, b, aa, ab, ba, bb} (the paper counts NULL as a seventh value; sear keeps NULL out
    /// of band), k = 2 every {a,b}-string of length 1 to 4 (30).
    #[test]
    fn algorithm_one_with_strcat_and_strstr() {
        let builders = [Op::Str(StrFn::Strcat), Op::Str(StrFn::Strstr)];
        for (k, expected) in [(1, 6), (2, 30)] {
            let mut gardens = seeded(&["a", "b"]);
            let mut stats = BuildStats::default();
            drive(&mut gardens, &builders, &[], k, WIDE, &mut stats);
            let g = &gardens[&Ty::Str];
            assert_eq!(g.len(), expected, "k = {k}: {:?}", strings(g));
            assert!(g.values().iter().all(|v| {
                let s = v.as_str().unwrap();
                !s.is_empty() && s.len() <= 4 && s.iter().all(|c| *c == b'a' || *c == b'b')
            }));
            // round 1: 4 strcat applications on 2 seeds, 6 * 6 strstr on the 6 values
            assert_eq!(
                stats.applications["strcat"],
                if k == 1 { 4 } else { 4 + 36 }
            );
        }
        // the builder order does not change the count here
        let mut gardens = seeded(&["a", "b"]);
        let mut stats = BuildStats::default();
        let reversed = [Op::Str(StrFn::Strstr), Op::Str(StrFn::Strcat)];
        drive(&mut gardens, &reversed, &[], 2, WIDE, &mut stats);
        assert_eq!(gardens[&Ty::Str].len(), 30);
    }

    /// Snapshot semantics: values made in one call are not arguments in the same call.
    #[test]
    fn extend_uses_the_snapshot() {
        let mut gardens = seeded(&["a"]);
        let mut stats = BuildStats::default();
        extend(&mut gardens, &Op::Str(StrFn::Strcat), &[], WIDE, &mut stats);
        assert_eq!(strings(&gardens[&Ty::Str]), ["a", "aa"]);
        assert_eq!(stats.total_applications(), 1);
        assert_eq!(stats.total_productive(), 1);
    }

    #[test]
    fn limits_cap_length_and_size() {
        let mut gardens = seeded(&["abcde", "xyz"]);
        let mut stats = BuildStats::default();
        let tight = Limits {
            max_len: 6,
            max_garden: 3,
        };
        drive(
            &mut gardens,
            &[Op::Str(StrFn::Strcat)],
            &[],
            1,
            tight,
            &mut stats,
        );
        // "xyzxyz" is the only concatenation within the length cap
        assert_eq!(strings(&gardens[&Ty::Str]), ["abcde", "xyz", "xyzxyz"]);
        let mut gardens = seeded(&["ab", "c"]);
        let full = Limits {
            max_len: 6,
            max_garden: 3,
        };
        drive(
            &mut gardens,
            &[Op::Str(StrFn::Strcat)],
            &[],
            1,
            full,
            &mut stats,
        );
        assert_eq!(gardens[&Ty::Str].len(), 3);
        // the first value over the cap stops the builder: a full garden takes nothing
        assert_eq!(gardens[&Ty::Str].refused, 1);
    }
}
