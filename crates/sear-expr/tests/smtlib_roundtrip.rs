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
            Command::GetValue(v) => Some(v.iter().map(|(_, e)| e.clone()).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn check_roundtrip(q: &TestQuery) -> Result<(), TestCaseError> {
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

    // Printing the parsed script gives the same text.
    let again = print_query(
        &parsed,
        &QueryPrintOptions {
            comments: options.comments.clone(),
            extra_arrays: script.arrays.clone(),
            get_values: values,
            get_model: true,
        },
    );
    prop_assert_eq!(&again, &text);

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
