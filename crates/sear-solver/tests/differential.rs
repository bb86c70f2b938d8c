//! Differential test: the full chain against plain Z3 (no layers) on random path-condition
//! query sequences, and the Bitwuzla core alone (no layers: every query reaches it) against
//! plain Z3. Every validity answer must agree, every value must be feasible and every model
//! must satisfy its path condition by evaluation.
//!
//! `SEAR_DIFF_QUERIES=N` sets the number of queries of each test (default 2500 for the chain
//! and 1000 for Bitwuzla in a release build, as CI runs it, about two minutes together; 800
//! and 300 in a debug build: Z3 takes most of the time);
//! `SEAR_DIFF_SEED=S` the first seed. Longer run:
//! `SEAR_DIFF_QUERIES=50000 cargo test --release -p sear-solver --test differential`.

use std::time::Duration;

use sear_expr::Expr;
use sear_solver::testing::PathGen;
use sear_solver::{CoreKind, Query, QueryMeta, Solver, SolverConfig, SolverError, Validity};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Pair {
    chain: Solver,
    plain: Solver,
    queries: u64,
    timeouts: u64,
}

impl Pair {
    /// Both answers, or None if either timed out.
    fn evaluate(&mut self, q: &Query) -> Option<Validity> {
        self.queries += 1;
        match (self.chain.evaluate(q), self.plain.evaluate(q)) {
            (Ok(a), Ok(b)) => {
                assert_eq!(
                    a, b,
                    "the solver and plain Z3 disagree on {} under {:?}",
                    q.expr, q.constraints
                );
                Some(a)
            }
            (Err(SolverError::Timeout), _) | (_, Err(SolverError::Timeout)) => {
                self.timeouts += 1;
                None
            }
            (a, b) => panic!("solver error: chain {a:?}, plain {b:?}"),
        }
    }
}

#[test]
fn chain_agrees_with_plain_z3() {
    let default = if cfg!(debug_assertions) { 800 } else { 2500 };
    agrees_with_plain_z3(SolverConfig::default(), default);
}

#[test]
fn bitwuzla_core_agrees_with_plain_z3() {
    let default = if cfg!(debug_assertions) { 300 } else { 1000 };
    agrees_with_plain_z3(
        SolverConfig {
            core: CoreKind::Bitwuzla,
            ..SolverConfig::plain()
        },
        default,
    );
}

/// Runs about `default` queries (or `SEAR_DIFF_QUERIES`) on a solver configured by `config`
/// and on plain Z3.
fn agrees_with_plain_z3(config: SolverConfig, default: u64) {
    let target = env_u64("SEAR_DIFF_QUERIES", default);
    let seed0 = env_u64("SEAR_DIFF_SEED", 1);
    let timeout = Some(Duration::from_secs(5));
    let mut pair = Pair {
        chain: Solver::new(&SolverConfig { timeout, ..config }).unwrap(),
        plain: Solver::new(&SolverConfig {
            timeout,
            ..SolverConfig::plain()
        })
        .unwrap(),
        queries: 0,
        timeouts: 0,
    };
    let meta = QueryMeta::default();
    let (mut paths, mut models, mut values) = (0u64, 0u64, 0u64);
    while pair.queries < target {
        let mut g = PathGen::new(seed0 + paths);
        paths += 1;
        let mut pc: Vec<Expr> = Vec::new();
        for step in 0..12 {
            let mut side = Vec::new();
            let cond = g.condition(2, &mut side);
            let side = Expr::and_all(side);
            if !side.is_true() {
                match pair.evaluate(&Query::new(&pc, side.clone(), &meta)) {
                    Some(Validity::True) => {}
                    Some(Validity::Unknown) => pc.push(side),
                    _ => continue,
                }
            }
            if cond.is_constant() {
                continue;
            }
            let Some(v) = pair.evaluate(&Query::new(&pc, cond.clone(), &meta)) else {
                continue;
            };
            let take_true = match v {
                Validity::True => true,
                Validity::False => false,
                Validity::Unknown => g.rng.chance(50),
            };
            pc.push(if take_true { cond } else { Expr::not(cond) });
            if step % 3 == 2 {
                let mut side = Vec::new();
                let e = g.value(32, 1, &mut side);
                if side.is_empty() && !e.is_constant() {
                    let q = Query::new(&pc, e.clone(), &meta);
                    if let Ok(value) = pair.chain.get_value(&q) {
                        let is_value = Expr::eq(Expr::constant(value, 32), e);
                        let check = Query::new(&pc, is_value, &meta);
                        if let Ok(feasible) = pair.plain.may_be_true(&check) {
                            assert!(feasible, "get_value returned an infeasible value");
                        }
                        values += 1;
                    }
                }
            }
        }
        match pair.chain.get_initial_values(&pc, &meta, &g.arrays()) {
            Ok(Some(m)) => {
                assert!(
                    m.satisfies(&pc),
                    "model does not satisfy the path condition"
                );
                models += 1;
            }
            Ok(None) => panic!("path condition reported unsatisfiable"),
            Err(SolverError::Timeout) => {}
            Err(e) => panic!("{e}"),
        }
    }
    let stats = pair.chain.stats();
    eprintln!(
        "{} queries on {paths} paths ({} timeouts), {models} models, {values} values checked",
        pair.queries, pair.timeouts
    );
    eprintln!("{}", serde_json::to_string_pretty(&stats).unwrap());
    assert!(models > 0 && values > 0);
    assert!(pair.timeouts * 10 <= pair.queries, "too many timeouts");
}
