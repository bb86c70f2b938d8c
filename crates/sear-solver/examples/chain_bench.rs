//! Benchmark: the full solver chain against raw Z3 on path-condition-like query sequences.
//!
//! A corpus of query sequences is generated first (as an engine would issue them: a growing
//! path condition with a validity query per branch, some value queries and a model at the end
//! of each path), then replayed on each configuration. Prints a markdown table.
//!
//! `cargo run --release -p sear-solver --example chain_bench -- [PATHS] [DEPTH] [SEED]`
//! (also `bench/solver-chain.sh`).

use std::time::{Duration, Instant};

use sear_expr::{ArrayRef, Expr};
use sear_solver::testing::PathGen;
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{Query, QueryMeta, Solver, SolverConfig, Validity};

/// One solver call of the corpus; `pc` is a prefix length of the path's constraints.
enum Op {
    Evaluate { pc: usize, expr: Expr },
    Value { pc: usize, expr: Expr },
    Model { pc: usize },
}

struct Path {
    constraints: Vec<Expr>,
    arrays: Vec<ArrayRef>,
    ops: Vec<Op>,
}

fn generate(paths: u64, depth: usize, seed: u64) -> Vec<Path> {
    let meta = QueryMeta::default();
    let mut oracle = Solver::new(&SolverConfig {
        timeout: Some(Duration::from_secs(2)),
        ..Default::default()
    })
    .expect("solver");
    let mut out = Vec::new();
    for p in 0..paths {
        let mut g = PathGen::new(seed + p);
        let mut pc: Vec<Expr> = Vec::new();
        let mut ops = Vec::new();
        for step in 0..depth {
            let mut side = Vec::new();
            let cond = g.condition(2, &mut side);
            let side = Expr::and_all(side);
            if !side.is_true() {
                ops.push(Op::Evaluate {
                    pc: pc.len(),
                    expr: side.clone(),
                });
                match oracle.evaluate(&Query::new(&pc, side.clone(), &meta)) {
                    Ok(Validity::True) => {}
                    Ok(Validity::Unknown) => pc.push(side),
                    _ => continue,
                }
            }
            if cond.is_constant() {
                continue;
            }
            ops.push(Op::Evaluate {
                pc: pc.len(),
                expr: cond.clone(),
            });
            let take = match oracle.evaluate(&Query::new(&pc, cond.clone(), &meta)) {
                Ok(Validity::True) => true,
                Ok(Validity::False) => false,
                Ok(Validity::Unknown) => g.rng.chance(50),
                Err(_) => continue,
            };
            pc.push(if take { cond } else { Expr::not(cond) });
            if step % 3 == 2 {
                let mut side = Vec::new();
                let e = g.value(32, 1, &mut side);
                if side.is_empty() && !e.is_constant() {
                    ops.push(Op::Value {
                        pc: pc.len(),
                        expr: e,
                    });
                }
            }
        }
        ops.push(Op::Model { pc: pc.len() });
        out.push(Path {
            constraints: pc,
            arrays: g.arrays(),
            ops,
        });
    }
    out
}

/// Replays the corpus; returns (queries, errors, elapsed).
fn replay(
    solver: &mut Solver,
    corpus: &[Path],
    slow: &mut Vec<(Duration, String)>,
) -> (u64, u64, Duration) {
    let meta = QueryMeta::default();
    let (mut n, mut errors) = (0, 0);
    let start = Instant::now();
    for path in corpus {
        for op in &path.ops {
            n += 1;
            let t = Instant::now();
            let (ok, what) = match op {
                Op::Evaluate { pc, expr } => (
                    solver
                        .evaluate(&Query::new(&path.constraints[..*pc], expr.clone(), &meta))
                        .is_ok(),
                    expr,
                ),
                Op::Value { pc, expr } => (
                    solver
                        .get_value(&Query::new(&path.constraints[..*pc], expr.clone(), &meta))
                        .is_ok(),
                    expr,
                ),
                Op::Model { pc } => (
                    solver
                        .get_initial_values(&path.constraints[..*pc], &meta, &path.arrays)
                        .is_ok(),
                    path.constraints.last().unwrap_or(&path.constraints[0]),
                ),
            };
            errors += !ok as u64;
            if t.elapsed() > Duration::from_millis(100) && std::env::var("SEAR_BENCH_SLOW").is_ok()
            {
                let pc = match op {
                    Op::Evaluate { pc, .. } | Op::Value { pc, .. } | Op::Model { pc } => *pc,
                };
                let mut all = path.constraints[..pc].to_vec();
                all.push(what.clone());
                let text = sear_expr::smtlib::print_query(&all, &Default::default());
                let _ = std::fs::write(format!("/tmp/slow{}.smt2", slow.len()), text);
            }
            slow.push((t.elapsed(), format!("{what}")));
        }
    }
    (n, errors, start.elapsed())
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let paths = args.first().copied().unwrap_or(100);
    let depth = args.get(1).copied().unwrap_or(12) as usize;
    let seed = args.get(2).copied().unwrap_or(1);
    let t = Instant::now();
    let corpus = generate(paths, depth, seed);
    let ops: usize = corpus.iter().map(|p| p.ops.len()).sum();
    eprintln!(
        "corpus: {paths} paths, {ops} solver calls, generated in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    let timeout = Some(Duration::from_secs(2));
    let raw = |mode: Z3Mode| {
        let mut s = Solver::from_chain(Box::new(Z3Core::new(mode)));
        s.set_timeout(timeout);
        s
    };
    let mut configs: Vec<(&str, Solver)> = vec![
        (
            "raw Z3 (fresh `smt` tactic solver per query, the default core)",
            raw(Z3Mode::FreshSmt),
        ),
        (
            "full chain (independence, query cache, cex cache, Z3)",
            Solver::new(&SolverConfig {
                timeout,
                ..Default::default()
            })
            .unwrap(),
        ),
        (
            "raw Z3 (fresh `Solver::new()` per query)",
            raw(Z3Mode::Fresh),
        ),
    ];
    // Incremental mode does not enforce the time limit reliably with Z3 4.8.12.
    if std::env::var("SEAR_BENCH_INCREMENTAL").is_ok() {
        configs.push(("raw Z3 (incremental push/pop)", raw(Z3Mode::Incremental)));
    }
    println!("| configuration | solver calls | errors | core queries | time (s) | calls/s | speed-up vs raw Z3 (smt tactic) |");
    println!("|---|---|---|---|---|---|---|");
    let mut slow = Vec::new();
    let mut base = None;
    for (name, mut solver) in configs {
        let (n, errors, elapsed) = replay(&mut solver, &corpus, &mut slow);
        let secs = elapsed.as_secs_f64();
        let base = *base.get_or_insert(secs);
        println!(
            "| {name} | {n} | {errors} | {} | {secs:.2} | {:.0} | {:.2}x |",
            solver.stats().core_queries,
            n as f64 / secs,
            base / secs
        );
    }
    if std::env::var("SEAR_BENCH_SLOW").is_ok() {
        slow.sort_by_key(|s| std::cmp::Reverse(s.0));
        for (d, e) in slow.iter().take(5) {
            eprintln!("{:.3} s: {}", d.as_secs_f64(), &e[..e.len().min(400)]);
        }
    }
}
