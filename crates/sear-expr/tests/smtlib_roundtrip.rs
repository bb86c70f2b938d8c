//! Printing and parsing back: `parse(print_query(cs))` rebuilds the same hash-consed
//! constraints (after mapping the new arrays to the old ones by name), prints to the same
//! text again, keeps array metadata, and evaluates identically.

mod common;

use std::collections::HashMap;

use proptest::prelude::*;
use sear_expr::smtlib::{parse_script, print_query, Command, QueryPrintOptions};
use sear_expr::testing::{arb_query, random_assignment, QueryConfig, Rng, TestQuery};
use sear_expr::{ArrayRef, Expr};

fn get_values(script: &sear_expr::smtlib::Script) -> Vec<Expr> {
    script
        .commands
        .iter()
        .filter_map(|c| match c {
            Command::GetValue(v) => Some(v.iter().map(|(_, e, _)| e.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn check_roundtrip(q: &TestQuery) -> Result<(), TestCaseError> {
    // Without the `ite` lifting (`sear_expr::ite_lift`, process-wide: this binary only):
    // the AC normalisation builds chain nodes without the builder's lift, so `x + x` over an
    // `ite` x may stay plain where building it again from the text lifts it (equal in value,
    // not as a node).
    sear_expr::ite_lift::set_enabled(false);
    // Ask for the value of a few subterms too.
    let mut subterms = Vec::new();
    sear_expr::visit::for_each_node(&q.constraints, |e| {
        if subterms.len() < 3 && !e.is_bool() {
            subterms.push(e.clone());
        }
    });
    let options = QueryPrintOptions {
        comments: vec![format!("seed {}", q.seed)],
        extra_arrays: q.symbolic_arrays.clone(),
        get_values: subterms.clone(),
        get_model: true,
    };
    let text = print_query(&q.constraints, &options);
    let script = parse_script(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;

    // Array metadata survives.
    for original in &q.symbolic_arrays {
        let parsed = script.arrays.iter().find(|a| a.name() == original.name());
        let parsed =
            parsed.ok_or_else(|| TestCaseError::fail(format!("{} lost", original.name())))?;
        prop_assert_eq!(
            (parsed.size(), parsed.kind(), parsed.index_width()),
            (original.size(), original.kind(), original.index_width())
        );
    }

    // The same hash-consed expressions, once mapped back to the original arrays.
    let by_name: HashMap<String, ArrayRef> = q
        .arrays
        .iter()
        .map(|a| (a.name().to_string(), a.clone()))
        .collect();
    let mut memo = HashMap::new();
    let parsed = script.assertions();
    prop_assert_eq!(parsed.len(), q.constraints.len());
    for (p, c) in parsed.iter().zip(&q.constraints) {
        let back = common::remap_arrays(p, &by_name, &mut memo);
        prop_assert_eq!(&back, c, "\n{}", text);
    }
    let values = get_values(&script);
    for (p, s) in values.iter().zip(&subterms) {
        prop_assert_eq!(&common::remap_arrays(p, &by_name, &mut memo), s);
    }

    // Printing the parsed script gives the same text, when AC chains are not normalised:
    // a normalised chain lists its operands in creation order (`sear_expr::ac`), and the
    // parser creates the operands in the order the text names them, which the shared
    // definitions above the assertions change. The parsed expressions are the same
    // (checked above, mapped back to the original arrays).
    let again = print_query(
        &parsed,
        &QueryPrintOptions {
            comments: options.comments.clone(),
            extra_arrays: script.arrays.clone(),
            get_values: values,
            get_model: true,
        },
    );
    if !sear_expr::ac::enabled() {
        prop_assert_eq!(&again, &text);
    }

    // And the same values under random assignments.
    let mut rng = Rng::new(q.seed);
    for _ in 0..4 {
        let model = random_assignment(&mut rng, &q.arrays);
        let moved = common::transfer_model(&model, &script.arrays);
        for (p, c) in parsed.iter().zip(&q.constraints) {
            prop_assert_eq!(moved.evaluate(p), model.evaluate(c));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(600), ..ProptestConfig::default() })]

    #[test]
    fn path_like_queries_roundtrip(q in arb_query(QueryConfig::path_like())) {
        check_roundtrip(&q)?;
    }

    #[test]
    fn stress_queries_roundtrip(q in arb_query(QueryConfig::stress())) {
        check_roundtrip(&q)?;
    }

    #[test]
    fn many_constraints_sharing_subterms_roundtrip(q in arb_query(QueryConfig { max_constraints: 12, ..QueryConfig::path_like() })) {
        check_roundtrip(&q)?;
    }
}

/// A quantified query (the worked example of seed 003 §6.4.1) prints with `forall`, parses
/// back to a clause that evaluates alike, and prints to the same text again.
#[test]
fn quantified_clauses_roundtrip() {
    use sear_expr::{Array, ArrayKind, Assignment, UpdateList};
    let s = Array::with_index_width("s", 8, 64, ArrayKind::SymbolicInput, None);
    let n_arr = Array::with_index_width("n", 8, 64, ArrayKind::SymbolicInput, None);
    let k_arr = Array::with_index_width("k", 8, 64, ArrayKind::Other, None);
    let word = |a: &ArrayRef| Expr::read_lsb(&UpdateList::new(a.clone()), Expr::constant(0, 64), 8);
    let (n, k) = (word(&n_arr), word(&k_arr));
    let sul = UpdateList::new(s.clone());
    let c = |v: u128| Expr::constant(v, 64);
    let i = Expr::fresh_var(64);
    let body = Expr::ne(
        Expr::read(&sul, Expr::sub(i.clone(), c(1))),
        Expr::constant(0, 8),
    );
    let constraints = vec![
        Expr::eq(Expr::read(&sul, n.clone()), Expr::constant(0, 8)),
        Expr::ule(c(1), k.clone()),
        Expr::ule(k.clone(), c(10)),
        Expr::eq(
            Expr::read(&sul, Expr::sub(k.clone(), c(1))),
            Expr::constant(8, 8),
        ),
        // The body is shared with a quantifier-free use of the same read at another index.
        Expr::and(
            Expr::forall(i.clone(), k.clone(), body),
            Expr::ne(n.clone(), c(9)),
        ),
    ];
    let text = print_query(&constraints, &QueryPrintOptions::default());
    assert!(text.contains("(set-logic ABV)"), "{text}");
    assert!(text.contains("(forall ((?ei"), "{text}");
    let script = parse_script(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let parsed = script.assertions();
    assert_eq!(parsed.len(), constraints.len());
    assert!(sear_expr::quant::contains_forall(&parsed));
    let again = print_query(&parsed, &QueryPrintOptions::default());
    assert_eq!(again, text);
    // Both evaluate alike: the model {n ↦ 7, k ↦ 7, s ↦ [1,1,1,1,1,1,8,0]} satisfies the
    // query, {s ↦ [1,0,0,0,0,0,8,0]} does not.
    for (bytes, sat) in [
        ([1u8, 1, 1, 1, 1, 1, 8, 0], true),
        ([1, 0, 0, 0, 0, 0, 8, 0], false),
    ] {
        let mut original = Assignment::new();
        original.insert(s.clone(), bytes.to_vec());
        original.insert(n_arr.clone(), vec![7, 0, 0, 0, 0, 0, 0, 0]);
        original.insert(k_arr.clone(), vec![7, 0, 0, 0, 0, 0, 0, 0]);
        let mut mapped = Assignment::new();
        for a in &script.arrays {
            let bytes = match a.name() {
                "s" => bytes.to_vec(),
                _ => vec![7, 0, 0, 0, 0, 0, 0, 0],
            };
            mapped.insert(a.clone(), bytes);
        }
        assert_eq!(original.satisfies(&constraints), sat);
        assert_eq!(mapped.satisfies(&parsed), sat);
    }
}
