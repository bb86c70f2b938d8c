//! The byte search (`layers::byte_search`): its answers against plain Z3 on random path
//! conditions (every decided answer must agree, every model must satisfy the conjuncts by
//! evaluation), and the layer in a chain over a slow core.
//!
//! `SEAR_DIFF_QUERIES=N` sets the number of random queries (default 400).

use std::time::Duration;

use sear_expr::{Array, ArrayKind, Expr, UpdateList};
use sear_solver::layers::byte_search::decide;
use sear_solver::layers::ByteSearch;
use sear_solver::testing::{PathGen, Recorder};
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{LayerStats, QueryMeta, SatQuery, SatResult, SatSolver, SolverError};

#[test]
fn decided_answers_agree_with_z3() {
    let n: u64 = std::env::var("SEAR_DIFF_QUERIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400);
    let meta = QueryMeta::default();
    let mut z3 = Z3Core::new(Z3Mode::default());
    z3.set_timeout(Some(Duration::from_secs(5)));
    let (mut decided, mut unsat) = (0, 0);
    for seed in 0..n {
        let mut g = PathGen::new(seed);
        let mut cs = Vec::new();
        for _ in 0..1 + g.rng.below(4) {
            let c = g.condition(2, &mut cs);
            cs.push(if g.rng.chance(50) { c } else { Expr::not(c) });
        }
        cs.retain(|c| !c.is_constant());
        let q = SatQuery::new(&cs, Expr::true_(), &meta, false, true);
        let Some(answer) = decide(&q, 2_000_000) else {
            continue;
        };
        let expected = match z3.check(&q) {
            Ok(r) => r.is_sat(),
            Err(SolverError::Timeout) => continue,
            Err(e) => panic!("z3: {e:?}"),
        };
        decided += 1;
        match answer {
            SatResult::Sat(model) => {
                assert!(expected, "seed {seed}: search sat, Z3 unsat: {cs:?}");
                assert!(model.satisfies(&cs), "seed {seed}: model {model:?}");
            }
            SatResult::Unsat => {
                assert!(!expected, "seed {seed}: search unsat, Z3 sat: {cs:?}");
                unsat += 1;
            }
        }
    }
    // Against vacuity: a third of the generated queries read few enough bytes at constant
    // indices (the others read the memory object at symbolic indices, or too many bytes).
    assert!(decided * 4 >= n, "only {decided} of {n} decided");
    assert!(unsat * 20 >= decided, "only {unsat} of {decided} unsat");
}

/// A core that computes for 25 ms of CPU time a query.
struct Slow(Box<dyn SatSolver>);

impl SatSolver for Slow {
    fn name(&self) -> &'static str {
        "slow"
    }
    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        sear_solver::testing::spin(Duration::from_millis(25));
        self.0.check(query)
    }
    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.0.set_timeout(timeout);
    }
    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        self.0.collect_stats(out);
    }
}

#[test]
fn the_layer_answers_table_queries_once_the_core_is_slow() {
    let (rec, seen) = Recorder::new(Box::new(Slow(Box::new(Z3Core::new(Z3Mode::default())))));
    let mut s = ByteSearch::new(Box::new(rec));
    let meta = QueryMeta::default();
    let buf = UpdateList::new(Array::new("buf", 3, ArrayKind::SymbolicInput, None));
    let class = UpdateList::new(Array::new(
        "class",
        256,
        ArrayKind::MemoryObject,
        Some((0..=255u8).map(|b| b % 7).collect::<Vec<_>>().into()),
    ));
    let byte = |i: u128| Expr::read(&buf, Expr::constant(i, 32));
    let class_of = |i: u128| Expr::read(&class, Expr::zext(byte(i), 32));
    let is = |e: Expr, v: u128| Expr::eq(Expr::constant(v, 8), e);
    // Two queries without tables warm the average up: while the core is fast, the layer
    // searches only queries that read tables at symbolic indices.
    for v in [1, 2] {
        let cs = [is(byte(0), v)];
        assert!(s
            .check(&SatQuery::new(&cs, Expr::true_(), &meta, true, true))
            .unwrap()
            .is_sat());
    }
    assert_eq!(seen.borrow().len(), 2);
    // class[b0] = 3 and class[b1] = 3 with b0 + b1 = 20: b0 ≡ b1 ≡ 3 (mod 7), so b0 + b1 ≡ 6;
    // 20 ≡ 6 (mod 7): sat (b0 = 3, b1 = 17). With 21 it is unsat.
    let sum = Expr::add(Expr::zext(byte(0), 16), Expr::zext(byte(1), 16));
    for (total, sat) in [(20, true), (21, false)] {
        let cs = [is(class_of(0), 3), is(class_of(1), 3)];
        let target = Expr::eq(Expr::constant(total, 16), sum.clone());
        let q = SatQuery::new(&cs, target.clone(), &meta, true, true);
        match s.check(&q).unwrap() {
            SatResult::Sat(m) => {
                assert!(sat, "sum {total}");
                assert!(m.satisfies(cs.iter().chain([&target])));
            }
            SatResult::Unsat => assert!(!sat, "sum {total}"),
        }
    }
    assert_eq!(seen.borrow().len(), 2, "no core query");
    let mut stats = Vec::new();
    s.collect_stats(&mut stats);
    assert_eq!(stats[0].counter("sat"), 1);
    assert_eq!(stats[0].counter("unsat"), 1);
    // A symbolic array read at a symbolic index is not searched: the core answers.
    let at = Expr::read(
        &buf,
        Expr::zext(Expr::and(byte(2), Expr::constant(1, 8)), 32),
    );
    let cs = [is(at, 9)];
    assert!(s
        .check(&SatQuery::new(&cs, Expr::true_(), &meta, true, true))
        .unwrap()
        .is_sat());
    assert_eq!(seen.borrow().len(), 3);
}

/// A query that reads a constant table at a symbolic index is searched even while the core
/// is fast (its budget grows with the table's cells, which the eager core would assert one
/// by one); a query without one goes to the fast core.
#[test]
fn table_queries_are_searched_whatever_the_core_time() {
    let (rec, seen) = Recorder::new(Box::new(Z3Core::new(Z3Mode::default())));
    let mut s = ByteSearch::new(Box::new(rec));
    let meta = QueryMeta::default();
    let buf = UpdateList::new(Array::new("buf", 2, ArrayKind::SymbolicInput, None));
    let table = UpdateList::new(Array::new(
        "table",
        256,
        ArrayKind::MemoryObject,
        Some((0..=255u8).map(|b| b % 7).collect::<Vec<_>>().into()),
    ));
    let byte = |i: u128| Expr::read(&buf, Expr::constant(i, 32));
    let looked_up = |i: u128| Expr::read(&table, Expr::zext(byte(i), 32));
    for round in 0..4u128 {
        // table[b0] = table[b1] + 3 * round: the table's values are 0..=6, so rounds 0-2
        // are sat and round 3 (a difference of 9) is unsat.
        let cs = [Expr::eq(
            looked_up(0),
            Expr::add(looked_up(1), Expr::constant(3 * round, 8)),
        )];
        let q = SatQuery::new(&cs, Expr::true_(), &meta, true, true);
        match s.check(&q).unwrap() {
            SatResult::Sat(m) => {
                assert!(round < 3, "round {round} is unsat");
                assert!(m.satisfies(&cs));
            }
            SatResult::Unsat => assert_eq!(round, 3, "round {round} is sat"),
        }
    }
    assert_eq!(seen.borrow().len(), 0, "no core query");
    let cs = [Expr::eq(byte(0), byte(1))];
    assert!(s
        .check(&SatQuery::new(&cs, Expr::true_(), &meta, true, true))
        .unwrap()
        .is_sat());
    assert_eq!(
        seen.borrow().len(),
        1,
        "a query without tables goes to the fast core"
    );
}

/// A path condition over 16 bytes that drive an automaton (`s' = next[s * 256 + b]`,
/// 6 states, state 4 dead) is decided like the reachability it is: the search goes by the
/// states each prefix leads to, not by the 256^16 byte strings. Every target state's answer
/// agrees with the reachable states computed directly, and each model drives the automaton
/// there.
#[test]
fn an_automaton_over_many_bytes_is_searched_by_its_states() {
    const N: usize = 16;
    const DEAD: u8 = 4;
    let meta = QueryMeta::default();
    // Live states 0..=3 go to live states or the dead one; state 5 is entered only from the
    // dead state, which the path never enters.
    let mut seed = 7u32;
    let table: Vec<u8> = (0..6 * 256)
        .map(|i| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let r = (seed >> 16) as u8;
            match i / 256 {
                4 => 5,
                5 => DEAD,
                // Most bytes lead to the dead state; states 0..=2 cycle, state 3 is rare.
                _ if r % 8 < 5 => DEAD,
                _ if r.is_multiple_of(61) => 3,
                s => ((s as u8) + r % 2) % 3,
            }
        })
        .collect();
    let next = UpdateList::new(Array::new(
        "next",
        6 * 256,
        ArrayKind::MemoryObject,
        Some(table.clone().into()),
    ));
    let buf = UpdateList::new(Array::new("buf", N as u64, ArrayKind::SymbolicInput, None));
    let mut state = Expr::constant(0, 8);
    let mut live = Vec::new();
    for k in 0..N {
        let index = Expr::add(
            Expr::mul(Expr::zext(state, 32), Expr::constant(256, 32)),
            Expr::zext(Expr::read(&buf, Expr::constant(k as u128, 32)), 32),
        );
        state = Expr::read(&next, index);
        live.push(Expr::ne(state.clone(), Expr::constant(DEAD as u128, 8)));
    }
    // The states reachable in N steps without entering the dead one.
    let mut reachable = vec![true, false, false, false, false, false];
    for _ in 0..N {
        let mut after = vec![false; 6];
        for s in (0..6).filter(|&s| reachable[s]) {
            for b in 0..256 {
                let t = table[s * 256 + b] as usize;
                after[t] |= t != DEAD as usize;
            }
        }
        reachable = after;
    }
    for target in 0..6u128 {
        let goal = Expr::eq(state.clone(), Expr::constant(target, 8));
        let q = SatQuery::new(&live, goal.clone(), &meta, true, true);
        let answer = decide(&q, 2_000_000).expect("decided within the budget");
        match answer {
            SatResult::Sat(m) => {
                assert!(reachable[target as usize], "target {target}");
                assert!(m.satisfies(live.iter().chain([&goal])), "target {target}");
            }
            SatResult::Unsat => assert!(!reachable[target as usize], "target {target}"),
        }
    }
    // Against vacuity: some targets are reachable, some are not.
    assert!(reachable.iter().filter(|&&r| r).count() >= 2);
    assert!(!reachable[DEAD as usize] && !reachable[5]);
}

/// Issue 37: a byte that a conjunct reads only through a read whose update list holds a
/// write of a *later* byte (`read(in ← [1] := in[1], 0)`, unfolded, is `in[0]`) must
/// still tell prefixes apart. `in[0] + in[1] = 300` (16 bits) is satisfiable only with
/// `in[0] ≥ 45`; a frontier taken from the operands alone misses `in[0]`, so every
/// value of `in[0]` after the first shared the first one's failed key and the search
/// answered UNSAT.
#[test]
fn a_write_of_a_later_byte_does_not_hide_the_byte_read_through_the_root() {
    let meta = QueryMeta::default();
    let input = UpdateList::new(Array::new("in", 2, ArrayKind::SymbolicInput, None));
    let byte = |i: u128| Expr::read(&input, Expr::constant(i, 32));
    let written = input.write(Expr::constant(1, 32), byte(1));
    let first = Expr::read_unfolded(&written, Expr::constant(0, 32));
    let sum = Expr::add(Expr::zext(first, 16), Expr::zext(byte(1), 16));
    let mut z3 = Z3Core::new(Z3Mode::default());
    for (total, sat) in [(300u128, true), (510, true), (511, false), (12, true)] {
        let cs = [Expr::eq(Expr::constant(total, 16), sum.clone())];
        let q = SatQuery::new(&cs, Expr::true_(), &meta, false, true);
        assert_eq!(z3.check(&q).unwrap().is_sat(), sat, "z3, total {total}");
        match decide(&q, 2_000_000).expect("decided") {
            SatResult::Sat(m) => {
                assert!(sat, "search sat on unsat total {total}");
                assert!(m.satisfies(&cs), "total {total}: model {m:?}");
            }
            SatResult::Unsat => assert!(!sat, "search unsat on satisfiable total {total}"),
        }
    }
}
