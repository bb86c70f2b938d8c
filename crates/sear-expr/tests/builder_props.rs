//! Property tests of the simplifying builder: random unsimplified operator trees, built
//! through the constructors, must evaluate like an independent interpretation of the tree,
//! and the built expressions must be in canonical form.
//!
//! `SEAR_PROPTEST_CASES` scales the number of cases.

mod common;

use proptest::prelude::*;
use sear_expr::testing::{gen_query, random_assignment, QueryConfig, Rng, TreeConfig, TreeGen};
use sear_expr::visit::Rewriter;
use sear_expr::{Array, ArrayKind, ArrayRef, Expr};

fn test_arrays(rng: &mut Rng) -> Vec<ArrayRef> {
    let contents: Vec<u8> = (0..8).map(|_| rng.next_u64() as u8).collect();
    vec![
        Array::new("a", 8, ArrayKind::SymbolicInput, None),
        Array::with_index_width("b", 16, 64, ArrayKind::SymbolicInput, None),
        Array::new("c", 8, ArrayKind::Other, Some(contents.into())),
    ]
}

fn check_tree(seed: u64, config: &TreeConfig) -> Result<(), TestCaseError> {
    let mut rng = Rng::new(seed);
    let arrays = test_arrays(&mut rng);
    let width = *rng.pick(&config.widths);
    let tree = TreeGen::new(&mut rng, &arrays, config).tree(width, config.max_depth);
    let expr = tree.build(&arrays);
    prop_assert_eq!(expr.width(), width, "width of {:?}", tree);
    if let Some(why) = common::canonical_violation(&expr) {
        return Err(TestCaseError::fail(format!("{why}\nfrom tree {tree:?}")));
    }
    for _ in 0..6 {
        let model = random_assignment(&mut rng, &arrays);
        let expected = common::reference(&tree, &arrays, &model);
        let actual = model.evaluate(&expr);
        prop_assert_eq!(
            actual,
            expected,
            "\ntree: {:?}\nbuilt: {:?}\nmodel: {:?}",
            tree,
            expr,
            model
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: common::cases(4000), ..ProptestConfig::default() })]

    #[test]
    fn builder_agrees_with_reference(seed in any::<u64>()) {
        check_tree(seed, &TreeConfig::full())?;
    }

    #[test]
    fn builder_agrees_on_byte_sized_terms(seed in any::<u64>()) {
        let config = TreeConfig { widths: vec![1, 8, 32], max_depth: 4, ..TreeConfig::full() };
        check_tree(seed, &config)?;
    }

    #[test]
    fn generated_queries_match_their_trees(seed in any::<u64>()) {
        let q = gen_query(seed, &QueryConfig::stress());
        let mut rng = Rng::new(seed ^ 0x5eed);
        for _ in 0..4 {
            let model = random_assignment(&mut rng, &q.arrays);
            for (tree, c) in q.trees.iter().zip(&q.constraints) {
                prop_assert_eq!(model.evaluate(c), common::reference(tree, &q.arrays, &model));
            }
        }
    }

    #[test]
    fn planted_witnesses_satisfy_their_queries(seed in any::<u64>()) {
        let q = gen_query(seed, &QueryConfig::path_like());
        prop_assert!(!q.constraints.is_empty());
        prop_assert!(q.constraints.iter().all(|c| !c.is_constant() && c.is_bool()));
        let witness = q.witness.as_ref().expect("path_like plants a witness");
        prop_assert!(witness.satisfies(&q.constraints));
    }

    /// Rebuilding a built expression through the constructors changes nothing: the
    /// canonical form is a fixpoint of the builder.
    #[test]
    fn canonical_form_is_a_fixpoint(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let arrays = test_arrays(&mut rng);
        let config = TreeConfig::full();
        let width = *rng.pick(&config.widths);
        let expr = TreeGen::new(&mut rng, &arrays, &config).tree(width, config.max_depth).build(&arrays);
        let rebuilt = Rewriter::new(|_: &Expr, _: &Expr| None).apply(&expr);
        prop_assert_eq!(rebuilt, expr);
    }
}
