//! Differential fuzzing of the array cores and the pre-check against Z3's native arrays
//! (spec 001 T6, T7): random array-heavy queries (constant and symbolic tables, multi-byte
//! reads at scaled and unaligned offsets, nested reads, constant- and symbolic-index writes,
//! reads that may go out of bounds, buffers of one fill byte with a few bytes set) under
//! random access sizes.
//!
//! * Every configuration (eager core over Z3 and over Bitwuzla; Bitwuzla core; CEGAR under every `--axiom-elim`, every
//!   `--cegar-select`, extras on and off; the pre-check in front of Z3 and of CEGAR) must
//!   give the same SAT/UNSAT answer as plain Z3, and every model must satisfy the query.
//! * Every interval the pre-check computes must contain the index value of Z3's model.
//!
//! `SEAR_ARRAY_FUZZ=N` sets the number of queries (default 60); `SEAR_ARRAY_FUZZ_SEED=S`
//! the first seed. Each query goes to the Bitwuzla core and a rotating subset of 8 other
//! configurations, or to all of them with `SEAR_ARRAY_FUZZ_ALL=1`. Longer run:
//! `SEAR_ARRAY_FUZZ=5000 SEAR_ARRAY_FUZZ_ALL=1 cargo test --release -p sear-solver --test array_cores`.

use std::collections::BTreeMap;
use std::sync::Arc;

use sear_expr::visit::{collect_symbolic_arrays, for_each_node};
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, ExprKind, UpdateList};
use sear_solver::ilp::IlpSolver;
use sear_solver::precheck::analyze::{precheck, Outcome};
use sear_solver::testing::Rng;
use sear_solver::{ArrayConfig, AxiomElim, CegarSelect, CoreKind, QueryMeta, Solver, SolverConfig};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A generated query: constraints and the access sizes of its tables.
struct Case {
    constraints: Vec<Expr>,
    granularity: BTreeMap<ArrayRef, u32>,
}

struct Gen {
    rng: Rng,
    inputs: Vec<ArrayRef>,
    tables: Vec<(ArrayRef, u32)>,
}

impl Gen {
    fn new(seed: u64) -> Gen {
        let mut rng = Rng::new(seed);
        let inputs = (0..2)
            .map(|i| Array::new(format!("x{i}"), 4, ArrayKind::SymbolicInput, None))
            .collect();
        let mut tables = Vec::new();
        for t in 0..1 + rng.below(2) {
            let elem = *rng.pick(&[1u32, 2, 4]);
            let n = elem as u64 * (2 + rng.below(4));
            let contents = if rng.chance(15) {
                // A buffer: one fill byte (KLEE's 0xAB pattern or zero) with a few bytes
                // set, large enough to stay native in the eager cores.
                let n = 256 + elem as u64 * rng.below(16);
                let fill = *rng.pick(&[0xabu8, 0]);
                let mut bytes = vec![fill; n as usize];
                for _ in 0..rng.below(9) {
                    let at = rng.below(n) as usize;
                    bytes[at] = rng.below(256) as u8;
                }
                tables.push((
                    Array::new(
                        format!("t{t}"),
                        n,
                        ArrayKind::MemoryObject,
                        Some(bytes.into()),
                    ),
                    elem,
                ));
                continue;
            } else if rng.chance(60) {
                let bytes: Vec<u8> = (0..n)
                    .map(|_| {
                        if rng.chance(50) {
                            0
                        } else {
                            rng.below(20) as u8
                        }
                    })
                    .collect();
                Some(Arc::from(bytes))
            } else {
                None
            };
            let kind = if contents.is_some() {
                ArrayKind::MemoryObject
            } else {
                ArrayKind::SymbolicInput
            };
            tables.push((Array::new(format!("t{t}"), n, kind, contents), elem));
        }
        Gen {
            rng,
            inputs,
            tables,
        }
    }

    /// A small symbolic value: one or two input bytes, zero-extended to 32 bits.
    fn var(&mut self) -> Expr {
        let a = self.rng.pick(&self.inputs).clone();
        let ul = UpdateList::new(a);
        let bytes = if self.rng.chance(70) { 1 } else { 2 };
        let start = self.rng.below(4 - bytes + 1);
        Expr::zext(
            Expr::read_lsb(&ul, Expr::constant(start as u128, 32), bytes as u32),
            32,
        )
    }

    /// An index base for table `t` and the side constraints keeping it (usually) in bounds.
    fn base(&mut self, t: usize, side: &mut Vec<Expr>, depth: u32) -> Expr {
        let (table, elem) = self.tables[t].clone();
        let elems = table.size() / elem as u64;
        let x = if depth > 0 && self.rng.chance(20) {
            // Nested: an element of another table.
            let other = self.rng.below(self.tables.len() as u64) as usize;
            Expr::zext(self.read(other, 1, side, depth - 1), 32)
        } else {
            self.var()
        };
        let scale = if self.rng.chance(80) { elem } else { 1 };
        let offset = if self.rng.chance(15) {
            1 + self.rng.below(3)
        } else {
            0
        };
        let idx = Expr::add(
            Expr::constant(offset as u128, 32),
            Expr::mul(Expr::constant(scale as u128, 32), x.clone()),
        );
        if self.rng.chance(85) {
            side.push(Expr::ult(x, Expr::constant(elems as u128, 32)));
        }
        idx
    }

    /// A read of `width` bytes of table `t`, possibly through writes.
    fn read(&mut self, t: usize, width: u32, side: &mut Vec<Expr>, depth: u32) -> Expr {
        let (table, _) = self.tables[t].clone();
        let mut ul = UpdateList::new(table.clone());
        if self.rng.chance(30) {
            for _ in 0..1 + self.rng.below(2) {
                let at = if self.rng.chance(80) {
                    Expr::constant(self.rng.below(table.size()) as u128, 32)
                } else {
                    Expr::zext(Expr::extract(self.var(), 0, 8), 32)
                };
                let v = if self.rng.chance(50) {
                    Expr::constant(self.rng.below(256) as u128, 8)
                } else {
                    Expr::extract(self.var(), 0, 8)
                };
                ul = ul.write(at, v);
            }
        }
        let idx = self.base(t, side, depth);
        Expr::read_lsb(&ul, idx, width)
    }

    fn case(&mut self) -> Case {
        let mut cs = Vec::new();
        for _ in 0..1 + self.rng.below(3) {
            let mut side = Vec::new();
            let t = self.rng.below(self.tables.len() as u64) as usize;
            let w = self.tables[t].1;
            let mut value = Expr::zext(self.read(t, w, &mut side, 1), 32);
            if self.rng.chance(40) {
                let t2 = self.rng.below(self.tables.len() as u64) as usize;
                let w2 = self.tables[t2].1;
                let other = Expr::zext(self.read(t2, w2, &mut side, 1), 32);
                value = Expr::add(value, other);
            }
            let c = Expr::constant(self.rng.below(40) as u128, 32);
            let cond = match self.rng.below(5) {
                0 => Expr::eq(c, value),
                1 => Expr::ult(c, value),
                2 => Expr::ule(value, c),
                3 => Expr::slt(c, value),
                _ => Expr::not(Expr::eq(c, value)),
            };
            cs.extend(side);
            cs.push(cond);
        }
        if self.rng.chance(30) {
            let (a, b) = (self.var(), self.var());
            cs.push(Expr::ult(a, b));
        }
        let mut granularity = BTreeMap::new();
        for (t, elem) in &self.tables {
            // Any size is sound; usually the element size, sometimes not.
            let g = if self.rng.chance(80) {
                *elem
            } else {
                *self.rng.pick(&[1u32, 2, 4, 8])
            };
            granularity.insert(t.clone(), g);
        }
        Case {
            constraints: cs,
            granularity,
        }
    }
}

/// The Bitwuzla core: the other native-array decision procedure, so it answers every query
/// (outside the rotation).
const BITWUZLA: &str = "bitwuzla";

fn configs() -> Vec<(String, SolverConfig)> {
    let plain = SolverConfig::plain();
    let mut out = vec![
        (
            "eager".to_string(),
            SolverConfig {
                core: CoreKind::Eager,
                ..plain.clone()
            },
        ),
        (
            "portfolio".to_string(),
            SolverConfig {
                core: CoreKind::Portfolio,
                ..plain.clone()
            },
        ),
        (
            "parallel".to_string(),
            SolverConfig {
                core: CoreKind::Parallel,
                ..plain.clone()
            },
        ),
        (
            BITWUZLA.to_string(),
            SolverConfig {
                core: CoreKind::Bitwuzla,
                ..plain.clone()
            },
        ),
        (
            "bitwuzla-eager".to_string(),
            SolverConfig {
                core: CoreKind::BitwuzlaEager,
                ..plain.clone()
            },
        ),
        (
            "bitwuzla-portfolio".to_string(),
            SolverConfig {
                core: CoreKind::BitwuzlaPortfolio,
                ..plain.clone()
            },
        ),
        (
            "eager-portfolio".to_string(),
            SolverConfig {
                core: CoreKind::EagerPortfolio,
                ..plain.clone()
            },
        ),
    ];
    for elim in [
        AxiomElim::None,
        AxiomElim::Type,
        AxiomElim::Interval,
        AxiomElim::Both,
    ] {
        for select in [
            CegarSelect::Violated,
            CegarSelect::Siblings,
            CegarSelect::Eager,
        ] {
            for extras in [true, false] {
                for precheck in [false, true] {
                    if !precheck && elim.by_interval() {
                        continue; // no intervals without the pre-check
                    }
                    out.push((
                        format!("cegar {elim:?} {select:?} extras={extras} precheck={precheck}"),
                        SolverConfig {
                            core: CoreKind::Cegar,
                            ilp_precheck: precheck,
                            array: ArrayConfig {
                                axiom_elim: elim,
                                select,
                                axiom_extras: extras,
                                precheck_validate: true,
                                ..ArrayConfig::default()
                            },
                            ..plain.clone()
                        },
                    ));
                }
            }
        }
    }
    out.push((
        "z3+precheck".into(),
        SolverConfig {
            ilp_precheck: true,
            array: ArrayConfig {
                precheck_validate: true,
                ..ArrayConfig::default()
            },
            ..plain.clone()
        },
    ));
    out
}

#[test]
fn array_cores_agree_with_native_arrays() {
    let n = env_u64("SEAR_ARRAY_FUZZ", 60);
    let seed0 = env_u64("SEAR_ARRAY_FUZZ_SEED", 1);
    let all = env_u64("SEAR_ARRAY_FUZZ_ALL", 0) == 1;
    let mut reference = Solver::new(&SolverConfig::plain()).unwrap();
    let mut solvers: Vec<(String, Solver)> = configs()
        .into_iter()
        .map(|(name, c)| (name, Solver::new(&c).unwrap()))
        .collect();
    let (mut sat, mut unsat) = (0, 0);
    for seed in seed0..seed0 + n {
        let case = Gen::new(seed).case();
        let meta = QueryMeta {
            access_granularity: case.granularity.clone(),
            ..Default::default()
        };
        let expected = reference
            .check_sat(&case.constraints, &meta)
            .unwrap_or_else(|e| panic!("seed {seed}: reference failed: {e}"));
        if let Some(m) = &expected {
            assert!(
                m.satisfies(&case.constraints),
                "seed {seed}: the reference model violates {:?}",
                case.constraints
            );
            sat += 1;
        } else {
            unsat += 1;
        }
        let count = solvers.len();
        for (k, (name, s)) in solvers.iter_mut().enumerate() {
            if !all && (k + seed as usize * 8) % count >= 8 && k != count - 1 && name != BITWUZLA {
                continue;
            }
            let t0 = std::time::Instant::now();
            let got = s
                .check_sat(&case.constraints, &meta)
                .unwrap_or_else(|e| panic!("seed {seed}: {name} failed: {e}"));
            if std::env::var("SEAR_ARRAY_FUZZ_TIMES").is_ok() {
                eprintln!("TIME {:>8.1}ms {name}", t0.elapsed().as_secs_f64() * 1e3);
            }
            assert_eq!(
                got.is_some(),
                expected.is_some(),
                "seed {seed}: {name} disagrees with Z3 on {:?}",
                case.constraints
            );
            if let Some(model) = got {
                assert!(
                    model.satisfies(&case.constraints),
                    "seed {seed}: {name} returned a model violating {:?}",
                    case.constraints
                );
                for a in collect_symbolic_arrays(&case.constraints) {
                    assert!(
                        model.get(&a).is_some(),
                        "seed {seed}: {name}: no bytes for {a:?}"
                    );
                }
            }
        }
    }
    eprintln!("{n} queries: {sat} sat, {unsat} unsat");
    assert!(
        sat > 0 && unsat > 0,
        "the generator must produce both answers"
    );
    let total = |layer: &str, counter: &str| -> u64 {
        solvers
            .iter()
            .filter_map(|(_, s)| s.stats().layer(layer).map(|l| l.counter(counter)))
            .sum()
    };
    eprintln!(
        "cegar: {} iterations, {} axioms generated, {} added, {} fallback; precheck: {} calls, {} unsat",
        total("cegar", "iterations"),
        total("cegar", "axioms_generated"),
        total("cegar", "axioms_added"),
        total("cegar", "fallback_axioms"),
        total("precheck", "calls"),
        total("precheck", "unsat")
    );
    assert!(total("cegar", "iterations") > 0);
    assert_eq!(
        total("cegar", "fallback_axioms"),
        0,
        "no model may violate only axioms outside the reduced pool"
    );
    assert!(
        total("precheck", "unsat") > 0,
        "the pre-check should prove some queries UNSAT"
    );
}

/// T6: every pre-check interval contains the index values of a reference model.
#[test]
fn precheck_intervals_contain_model_indices() {
    let n = env_u64("SEAR_ARRAY_FUZZ", 60);
    let seed0 = env_u64("SEAR_ARRAY_FUZZ_SEED", 1);
    let mut reference = Solver::new(&SolverConfig::plain()).unwrap();
    let mut ilp = IlpSolver::default();
    let mut checked = 0;
    for seed in seed0..seed0 + n {
        let case = Gen::new(seed).case();
        let meta = QueryMeta::default();
        let model = reference.check_sat(&case.constraints, &meta).unwrap();
        match precheck(&case.constraints, &case.granularity, &mut ilp, 10_000) {
            Outcome::Unsat => assert!(
                model.is_none(),
                "seed {seed}: pre-check UNSAT but Z3 found a model for {:?}",
                case.constraints
            ),
            Outcome::Unknown(iv) => {
                let Some(model) = model else { continue };
                for_each_node(&case.constraints, |e| {
                    if let ExprKind::Read { index, .. } = e.kind() {
                        if let Some((lo, hi)) = iv.get(index) {
                            let v = model.evaluate(index);
                            assert!(
                                lo <= v && v <= hi,
                                "seed {seed}: index {index} = {v} outside [{lo}, {hi}]"
                            );
                            checked += 1;
                        }
                    }
                });
            }
            _ => {}
        }
    }
    assert!(checked > 0);
}
