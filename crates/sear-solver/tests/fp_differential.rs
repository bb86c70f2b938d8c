//! Differential test of the floating-point semantics (issue 34): random expression trees
//! (binary32 and binary64; arithmetic in the five rounding modes, `fmod`, `remainder`,
//! `sqrt`, `fma`, rounding to integral, `fneg`/`fabs`/`copysign`, `minnum`/`maxnum`/
//! `minimum`/`maximum`, the 14 comparison predicates, class tests, conversions to and from
//! integers of 1 to 64 bits, `fpext`/`fptrunc`, `select`) over leaves biased toward special
//! values, each computed
//!
//! * by sear's evaluator, on the tree over symbolic leaves (4- or 8-byte arrays read
//!   little-endian, as the engine reads a float) under the leaves' assignment, and on the
//!   tree over concrete leaves the builder does not fold (stock reads of constant arrays),
//! * by sear's constant folding (the same tree built over the leaves' constants),
//! * natively (`fp_diff/native.rs`: the x86-64 instructions themselves, glibc's `fmod` and
//!   `remainder`), where the hardware has the operation,
//! * by the cores, through sear's encoding of the nodes: Z3 on every tree (over concrete
//!   leaves) and on each of its operations (over concrete leaves holding the operands'
//!   values, as the evaluator computed them in the tree); Bitwuzla on the operations of
//!   every `SEAR_FP_DIFF_BITWUZLA_EVERY`-th tree (default 100). Each checked expression gets
//!   an output constant `o_i = e_i`; per batch, one satisfiable query whose model gives every
//!   `o_i`, then `∨ e_i ≠ value_i` must be unsatisfiable (the value is the only one).
//!   Bitwuzla is sampled because it does not fold these queries: the encoding gives each
//!   float result a fresh bit-vector (Bitwuzla has no `fp.to_ieee_bv`) and the leaves are
//!   array reads, so it bit-blasts every operation (up to seconds for a binary64 `sqrt`,
//!   `fp.rem` or conversion), where Z3's rewriter folds the constants (milliseconds).
//!
//! All agree bit for bit (NaN payloads included). `SEAR_FP_DIFF_N` sets the number of trees
//! (default 2,000; the full run is `SEAR_FP_DIFF_N=100000`), `SEAR_FP_DIFF_SEED` the seed;
//! `SEAR_FP_DIFF_CORES=0` leaves the cores out. `SEAR_FP_DIFF_BITWUZLA_BATCH` sets
//! Bitwuzla's batch (default: `SEAR_FP_DIFF_BATCH`, 200); with a batch of 1 the run also
//! prints Bitwuzla's time by operation (kind and width).

mod fp_diff;

use std::time::{Duration, Instant};

use fp_diff::gen::{build, constant_leaf, leaf_array, Gen, Node, Rng};
use fp_diff::native;
use sear_expr::{Assignment, Evaluator, Expr};
use sear_solver::bitwuzla::{BitwuzlaCore, BitwuzlaMode};
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{QueryMeta, SatQuery, SatResult, SatSolver};

/// One generated tree with its leaves and values.
#[derive(Clone)]
struct Case {
    node: Node,
    /// The tree over concrete (unfolded) leaves.
    expr: Expr,
    leaf_values: Vec<u64>,
    value: u128,
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The operations of `node` (each over concrete leaves holding its operands' values), after
/// those of its operands.
fn operations(node: &Node, tree: usize, concrete: &[Expr], out: &mut Vec<Case>) {
    for c in node.children() {
        operations(c, tree, concrete, out);
    }
    if matches!(node, Node::Leaf(..)) {
        return;
    }
    let values: Vec<u64> = node
        .children()
        .iter()
        .map(|c| Evaluator::new(&Assignment::new()).eval(&build(c, concrete)) as u64)
        .collect();
    let k = out.len();
    let leaves: Vec<Expr> = node
        .children()
        .iter()
        .zip(&values)
        .enumerate()
        .map(|(i, (c, &v))| constant_leaf(&format!("t{tree}_o{k}_{i}"), c.width(), v))
        .collect();
    let flat = node.over_leaves();
    let expr = build(&flat, &leaves);
    let value = Evaluator::new(&Assignment::new()).eval(&build(node, concrete));
    out.push(Case {
        node: flat,
        expr,
        leaf_values: values,
        value,
    });
}

/// Generates tree `index`; checks evaluation = folding = native; returns its operations for
/// the cores, and whether the native oracle took part.
fn generate(rng: &mut Rng, index: usize, failures: &mut Vec<String>) -> (Vec<Case>, bool, usize) {
    let depth = 1 + rng.below(4) as u32;
    let mut g = Gen {
        rng,
        leaves: Default::default(),
        reuse: false,
    };
    let node = g.any(depth);
    let items = g.leaves.items;
    let mut assignment = Assignment::new();
    let mut leaf_exprs = Vec::new();
    let mut consts = Vec::new();
    let mut concrete = Vec::new();
    for (k, &(w, v, _)) in items.iter().enumerate() {
        let (array, e) = leaf_array(&format!("t{index}_l{k}"), w);
        assignment.insert(array, v.to_le_bytes()[..(w / 8) as usize].to_vec());
        leaf_exprs.push(e);
        consts.push(Expr::constant(v as u128, w));
        concrete.push(constant_leaf(&format!("t{index}_c{k}"), w, v));
    }
    let leaf_values: Vec<u64> = items.iter().map(|&(_, v, _)| v).collect();
    let value = Evaluator::new(&assignment).eval(&build(&node, &leaf_exprs));
    let expr = build(&node, &concrete);
    let over_concrete = Evaluator::new(&Assignment::new()).eval(&expr);
    if over_concrete != value {
        failures.push(format!(
            "tree {index}: over concrete leaves {over_concrete:#x} ≠ over symbolic ones \
             {value:#x}: {node:?} leaves {leaf_values:x?}"
        ));
    }
    let folded = build(&node, &consts);
    if folded.as_constant() != Some(value) {
        failures.push(format!(
            "tree {index}: folded {:?} ≠ evaluated {value:#x}: {node:?} leaves {leaf_values:x?}",
            folded.as_constant()
        ));
    }
    let hw = native::eval(&node, &leaf_values);
    if let Some(h) = hw {
        if h as u128 != value {
            failures.push(format!(
                "tree {index}: native {h:#x} ≠ evaluated {value:#x}: {node:?} leaves {leaf_values:x?}"
            ));
        }
    }
    let mut ops = Vec::new();
    operations(&node, index, &concrete, &mut ops);
    if ops.len() > 1 {
        ops.push(Case {
            node: node.clone(),
            expr,
            leaf_values,
            value,
        });
    }
    let kind = match &node {
        Node::Cmp(..) | Node::Class(..) => 2,
        Node::ToInt(..) => 1,
        _ => 0,
    };
    (ops, hw.is_some(), kind)
}

/// An output constant of `w` bits (a read of its own array).
fn output(name: &str, w: u32) -> Expr {
    let bytes = w.div_ceil(8) * 8;
    let (_, e) = leaf_array(name, bytes);
    Expr::extract(e, 0, w)
}

/// The kind and width of an operation (for Bitwuzla's time by operation).
fn op_name(node: &Node) -> String {
    match node {
        Node::Arith(w, op, ..) => format!("{op:?} w{w}"),
        Node::Sqrt(w, ..) => format!("sqrt w{w}"),
        Node::Fma(w, ..) => format!("fma w{w}"),
        Node::Round(w, ..) => format!("round w{w}"),
        Node::FromInt(w, _, signed, c) => {
            format!(
                "{}itofp i{}→w{w}",
                if *signed { 's' } else { 'u' },
                c.width()
            )
        }
        Node::ToInt(w, signed, c) => {
            format!(
                "fpto{}i w{}→i{w}",
                if *signed { 's' } else { 'u' },
                c.width()
            )
        }
        Node::Cmp(_, a, _) => format!("cmp w{}", a.width()),
        Node::Ext(_) => "fpext".into(),
        Node::Trunc(..) => "fptrunc".into(),
        other => {
            let d = format!("{other:?}");
            format!("{} w{}", d.split('(').next().unwrap_or(""), other.width())
        }
    }
}

/// Asks `core` for a batch: the disagreements found (as messages).
fn core_batch(core: &mut dyn SatSolver, cases: &[(usize, Case)], failures: &mut Vec<String>) {
    let name = core.name();
    let meta = QueryMeta::default();
    let mut with_outputs = Vec::new();
    let mut outputs = Vec::new();
    for (index, case) in cases {
        let o = output(&format!("t{index}_out"), case.expr.width());
        with_outputs.push(Expr::eq(o.clone(), case.expr.clone()));
        outputs.push(o);
    }
    let query = SatQuery::new(&with_outputs, Expr::true_(), &meta, false, true);
    match core.check(&query) {
        Ok(SatResult::Sat(model)) => {
            for ((index, case), o) in cases.iter().zip(&outputs) {
                let theirs = model.evaluate(o);
                if theirs != case.value {
                    failures.push(format!(
                        "tree {index}: {name} {theirs:#x} ≠ evaluated {:#x}: {:?} leaves {:x?}",
                        case.value, case.node, case.leaf_values
                    ));
                }
            }
        }
        other => failures.push(format!(
            "batch from tree {}: {name} says {other:?}",
            cases[0].0
        )),
    }
    let differs = cases.iter().fold(Expr::false_(), |acc, (_, case)| {
        let v = Expr::constant(case.value, case.expr.width());
        Expr::or(acc, Expr::ne(v, case.expr.clone()))
    });
    let query = SatQuery::new(&[], differs, &meta, false, true);
    match core.check(&query) {
        Ok(SatResult::Unsat) => {}
        other => failures.push(format!(
            "batch from tree {}: another value is possible for {name}: {other:?}",
            cases[0].0
        )),
    }
}

#[test]
fn evaluator_folding_hardware_and_cores_agree() {
    let n = env_u64("SEAR_FP_DIFF_N", 2_000) as usize;
    let mut rng = Rng(env_u64("SEAR_FP_DIFF_SEED", 0x5EA2_F10A_7D1F_F000));
    let batch = env_u64("SEAR_FP_DIFF_BATCH", 200) as usize;
    let every = env_u64("SEAR_FP_DIFF_BITWUZLA_EVERY", 100).max(1) as usize;
    let bitwuzla_batch = env_u64("SEAR_FP_DIFF_BITWUZLA_BATCH", batch as u64).max(1) as usize;
    let mut by_op: std::collections::BTreeMap<String, (usize, Duration)> = Default::default();
    // `SEAR_FP_DIFF_CORES=0`: the evaluator, folding and the hardware only.
    let cores = env_u64("SEAR_FP_DIFF_CORES", 1) != 0;
    let mut z3 = Z3Core::new(Z3Mode::Incremental);
    let mut bitwuzla = BitwuzlaCore::new(BitwuzlaMode::Fresh);
    let mut failures = Vec::new();
    let mut native_checked = 0usize;
    let (mut for_z3, mut for_bitwuzla) = (Vec::new(), Vec::new());
    let (mut z3_checked, mut bitwuzla_checked) = (0usize, 0usize);
    let mut times = [Duration::ZERO; 3]; // local, Z3, Bitwuzla
    let mut kinds = [0usize; 3]; // float, integer, Boolean results
    let started = Instant::now();
    for index in 0..n {
        let start = Instant::now();
        let (ops, native, kind) = generate(&mut rng, index, &mut failures);
        times[0] += start.elapsed();
        native_checked += native as usize;
        kinds[kind] += 1;
        if index > 0 && index % 10_000 == 0 {
            eprintln!(
                "{index} trees, {:?}; Z3 {z3_checked} {:?}, Bitwuzla {bitwuzla_checked} {:?}",
                started.elapsed(),
                times[1],
                times[2]
            );
        }
        if !cores {
            continue;
        }
        if index % every == 0 {
            // The tree's operations (the whole tree, last, is not among them).
            let single = ops.len() - (ops.len() > 1) as usize;
            for_bitwuzla.extend(ops[..single].iter().map(|op| (index, op.clone())));
        }
        for_z3.extend(ops.into_iter().map(|op| (index, op)));
        let last = index + 1 == n;
        for (core, pending, time, checked, size) in [
            (
                &mut z3 as &mut dyn SatSolver,
                &mut for_z3,
                1,
                &mut z3_checked,
                batch,
            ),
            (
                &mut bitwuzla,
                &mut for_bitwuzla,
                2,
                &mut bitwuzla_checked,
                bitwuzla_batch,
            ),
        ] {
            if pending.len() >= size || (last && !pending.is_empty()) {
                let start = Instant::now();
                core_batch(core, pending, &mut failures);
                let spent = start.elapsed();
                times[time] += spent;
                if time == 2 && size == 1 {
                    let e = by_op.entry(op_name(&pending[0].1.node)).or_default();
                    e.0 += 1;
                    e.1 += spent;
                }
                *checked += pending.len();
                pending.clear();
            }
        }
        if failures.len() >= 20 {
            break;
        }
    }
    eprintln!(
        "{n} trees ({} float, {} integer, {} Boolean results), {:?}: {native_checked} also \
         native; evaluation, folding and native {:?}; Z3 {z3_checked} trees and operations \
         {:?}; Bitwuzla {bitwuzla_checked} operations {:?}",
        kinds[0],
        kinds[1],
        kinds[2],
        started.elapsed(),
        times[0],
        times[1],
        times[2]
    );
    let mut slow: Vec<_> = by_op.into_iter().collect();
    slow.sort_by_key(|(_, (_, t))| std::cmp::Reverse(*t));
    for (name, (count, time)) in slow.iter().take(16) {
        eprintln!(
            "Bitwuzla {name}: {count} operations, {time:?} ({:?} each)",
            *time / *count as u32
        );
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        native_checked * 2 > n,
        "the native oracle took part too rarely"
    );
    assert!(!cores || (z3_checked >= n && bitwuzla_checked > 0));
}
