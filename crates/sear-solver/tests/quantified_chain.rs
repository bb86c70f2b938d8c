//! Quantified clauses through the whole chain: every layer either handles them or passes
//! them by (docs/architecture.md, "Quantified constraints"), under every core arrangement,
//! from expressions and from SMT-LIB text.

use sear_expr::smtlib::parse_script;
use sear_expr::{Array, ArrayKind, ArrayRef, Expr, UpdateList};
use sear_solver::{
    CoreKind, QuantifiedConfig, QuantifiedCore, Query, QueryMeta, Solver, SolverConfig,
};

fn word(a: &ArrayRef) -> Expr {
    Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 64), 8)
}

fn c(v: u128) -> Expr {
    Expr::constant(v, 64)
}

/// The worked example of §6.4 plus an independent constraint on another input.
fn example() -> (Vec<Expr>, ArrayRef, ArrayRef, ArrayRef) {
    let s = Array::with_index_width("s", 8, 64, ArrayKind::SymbolicInput, None);
    let n = Array::with_index_width("n", 8, 64, ArrayKind::SymbolicInput, None);
    let k = Array::with_index_width("k", 8, 64, ArrayKind::Other, None);
    let other = Array::with_index_width("other", 8, 64, ArrayKind::SymbolicInput, None);
    let sul = UpdateList::new(s.clone());
    let i = Expr::fresh_var(64);
    let body = Expr::ne(
        Expr::read(&sul, Expr::sub(i.clone(), c(1))),
        Expr::constant(0, 8),
    );
    let constraints = vec![
        Expr::eq(Expr::constant(0, 8), Expr::read(&sul, word(&n))),
        Expr::ule(c(1), word(&k)),
        Expr::ule(word(&k), c(10)),
        Expr::eq(
            Expr::constant(8, 8),
            Expr::read(&sul, Expr::sub(word(&k), c(1))),
        ),
        Expr::forall(i, word(&k), body),
        Expr::ult(c(100), word(&other)),
    ];
    (constraints, s, k, other)
}

fn configs() -> Vec<(String, SolverConfig)> {
    let mut out = Vec::new();
    for stage in [true, false] {
        for core in [CoreKind::Z3, CoreKind::Bitwuzla, CoreKind::Eager] {
            if !stage && core == CoreKind::Eager {
                continue; // the eager core refuses quantified clauses; the stage is needed
            }
            for ilp_precheck in [false, true] {
                let config = SolverConfig {
                    core,
                    ilp_precheck,
                    quantified: QuantifiedConfig {
                        stage,
                        validate: stage,
                        core: QuantifiedCore::Z3,
                        core_only: false,
                    },
                    ..SolverConfig::default()
                };
                out.push((
                    format!("stage {stage} core {core:?} ilp {ilp_precheck}"),
                    config,
                ));
            }
        }
    }
    out.push(("plain".into(), SolverConfig::plain()));
    out
}

#[test]
fn every_layer_handles_or_passes_quantified_queries() {
    let (constraints, s, k, other) = example();
    let meta = QueryMeta::default();
    for (name, config) in configs() {
        let mut solver = Solver::new(&config).expect("solver");
        let model = solver
            .check_sat(&constraints, &meta)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .unwrap_or_else(|| panic!("{name}: the example is satisfiable"));
        assert!(model.satisfies(&constraints), "{name}");
        let q = Query::new(&constraints, Expr::true_(), &meta);
        // Validity under the quantified path condition: s[0] ≠ 0 holds (instance 1, k ≥ 1)
        // and s[1] = 0 may hold only if k ≤ 1.
        let s0 = Expr::ne(
            Expr::read(&UpdateList::new(s.clone()), c(0)),
            Expr::constant(0, 8),
        );
        assert!(
            solver.must_be_true(&q.with_expr(s0.clone())).unwrap(),
            "{name}"
        );
        let s1_zero_k_big = Expr::and(
            Expr::eq(
                Expr::constant(0, 8),
                Expr::read(&UpdateList::new(s.clone()), c(1)),
            ),
            Expr::ult(c(2), word(&k)),
        );
        assert!(
            !solver
                .may_be_true(&q.with_expr(s1_zero_k_big.clone()))
                .unwrap(),
            "{name}"
        );
        // The independent part is sliced away from the quantified factor, and asked twice
        // it hits the caches.
        let big = Expr::ult(c(200), word(&other));
        for _ in 0..2 {
            assert!(
                solver.may_be_true(&q.with_expr(big.clone())).unwrap(),
                "{name}"
            );
            assert!(
                solver.must_be_true(&q.with_expr(s0.clone())).unwrap(),
                "{name}"
            );
        }
        let stats = solver.stats();
        if config.quantified.stage {
            let st = stats
                .layer("quantified")
                .expect("the stage is in the chain");
            assert!(st.counter("quantified_queries") >= 2, "{name}: {st:?}");
            assert_eq!(st.counter("validation_failures"), 0, "{name}");
        } else if config.cex_cache {
            let cex = stats.layer("cex-cache").expect("cex cache");
            assert!(cex.counter("quantified_passed") >= 1, "{name}: {cex:?}");
        }
        if config.ilp_precheck && !config.quantified.stage {
            let pre = stats.layer("precheck").expect("pre-check");
            assert!(pre.counter("quantified_passed") >= 1, "{name}: {pre:?}");
        }
        if config.query_cache {
            assert!(stats.layer("query-cache").unwrap().hits >= 1, "{name}");
        }
    }
}

#[test]
fn printed_quantified_queries_parse_and_solve() {
    let (constraints, ..) = example();
    let text = sear_expr::smtlib::print_query(&constraints, &Default::default());
    let script = parse_script(&text).expect("parses");
    let parsed = script.assertions();
    let config = SolverConfig {
        quantified: QuantifiedConfig {
            stage: true,
            ..Default::default()
        },
        ..SolverConfig::default()
    };
    let mut solver = Solver::new(&config).unwrap();
    let m = solver
        .check_sat(&parsed, &QueryMeta::default())
        .unwrap()
        .expect("sat");
    assert!(m.satisfies(&parsed));
}
