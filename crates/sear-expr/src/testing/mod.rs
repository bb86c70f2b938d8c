//! Random expressions and queries for property tests (cargo feature `testing`).
//!
//! Generation is seed-based: a proptest strategy draws a `u64` seed and a deterministic
//! generator ([`Rng`], [`TreeGen`]) builds the value, so a failing case is reproduced from the
//! seed printed in the failure (there is no structural shrinking). Every generated query
//! keeps the unsimplified [`Tree`]s it was built from, so a test can compare the builder
//! against an independent interpretation of the trees.
//!
//! ```
//! use proptest::prelude::*;
//! use sear_expr::testing::{arb_query, QueryConfig};
//! proptest!(|(q in arb_query(QueryConfig::path_like()))| {
//!     // Planted witnesses satisfy every constraint.
//!     let witness = q.witness.as_ref().unwrap();
//!     prop_assert!(witness.satisfies(&q.constraints));
//! });
//! ```

mod gen;
mod rng;
mod tree;

pub use gen::{TreeConfig, TreeGen};
pub use rng::Rng;
pub use tree::{Tree, TreeCmp};

use proptest::prelude::*;

use crate::array::{Array, ArrayKind, ArrayRef};
use crate::eval::Assignment;
use crate::expr::Expr;

/// The knobs of [`gen_query`].
#[derive(Clone, Debug)]
pub struct QueryConfig {
    /// How many symbolic arrays (`a0`, `a1`, ...; kind `SymbolicInput`).
    pub symbolic_arrays: usize,
    /// How many constant arrays (`c0`, ...) with random contents.
    pub constant_arrays: usize,
    /// Bytes per array.
    pub array_size: u64,
    /// The most constraints per query (at least one is generated).
    pub max_constraints: usize,
    /// The tree generator's knobs.
    pub trees: TreeConfig,
    /// Plant a witness: draw a random assignment first and negate every constraint it
    /// falsifies, so that the query is satisfiable and [`TestQuery::witness`] proves it.
    pub plant_witness: bool,
}

impl QueryConfig {
    /// Path-condition-like queries: a few small input arrays, a constant table, comparisons
    /// of words read from the inputs, symbolic indices (always in bounds, as after the
    /// engine's bounds checks), writes; a planted witness.
    pub fn path_like() -> Self {
        QueryConfig {
            symbolic_arrays: 2,
            constant_arrays: 1,
            array_size: 8,
            max_constraints: 6,
            trees: TreeConfig {
                max_depth: 3,
                widths: vec![1, 8, 16, 32, 64],
                symbolic_indices: true,
                writes: true,
                out_of_bounds: false,
            },
            plant_witness: true,
        }
    }

    /// Like [`QueryConfig::path_like`] without a planted witness (often unsatisfiable).
    pub fn unconstrained() -> Self {
        QueryConfig {
            plant_witness: false,
            ..Self::path_like()
        }
    }

    /// Everything the generator can do: all widths up to 128, deeper trees, reads out of
    /// bounds.
    pub fn stress() -> Self {
        QueryConfig {
            symbolic_arrays: 2,
            constant_arrays: 1,
            array_size: 16,
            max_constraints: 4,
            trees: TreeConfig::full(),
            plant_witness: false,
        }
    }
}

/// A generated query.
#[derive(Clone, Debug)]
pub struct TestQuery {
    /// The seed it was generated from.
    pub seed: u64,
    /// Every array the trees may read: the symbolic arrays, then the constant ones.
    pub arrays: Vec<ArrayRef>,
    /// The symbolic arrays (a prefix of `arrays`).
    pub symbolic_arrays: Vec<ArrayRef>,
    /// The constraints, built through the simplifying constructors; never constants.
    pub constraints: Vec<Expr>,
    /// The unsimplified trees of the constraints (`constraints[i] == trees[i].build(&arrays)`).
    pub trees: Vec<Tree>,
    /// With [`QueryConfig::plant_witness`]: an assignment satisfying every constraint.
    pub witness: Option<Assignment>,
}

/// Random bytes for `arrays`, biased towards 0, 0xff, 0x80, 0x7f and small values.
pub fn random_assignment(rng: &mut Rng, arrays: &[ArrayRef]) -> Assignment {
    let mut model = Assignment::new();
    for array in arrays.iter().filter(|a| !a.is_constant()) {
        let bytes = (0..array.size()).map(|_| random_byte(rng)).collect();
        model.insert(array.clone(), bytes);
    }
    model
}

fn random_byte(rng: &mut Rng) -> u8 {
    match rng.below(8) {
        0 | 1 => 0,
        2 => 0xff,
        3 => *rng.pick(&[0x80, 0x7f, 0x01, 0xfe]),
        4 => rng.below(8) as u8,
        _ => rng.next_u64() as u8,
    }
}

/// Creates the arrays of a query: symbolic ones, then constant ones with random contents.
pub fn make_arrays(rng: &mut Rng, config: &QueryConfig) -> Vec<ArrayRef> {
    let mut arrays: Vec<ArrayRef> = (0..config.symbolic_arrays)
        .map(|i| {
            Array::new(
                format!("a{i}"),
                config.array_size,
                ArrayKind::SymbolicInput,
                None,
            )
        })
        .collect();
    for i in 0..config.constant_arrays {
        let contents: Vec<u8> = (0..config.array_size).map(|_| random_byte(rng)).collect();
        arrays.push(Array::new(
            format!("c{i}"),
            config.array_size,
            ArrayKind::Other,
            Some(contents.into()),
        ));
    }
    arrays
}

/// Generates the query of `seed` (deterministic).
pub fn gen_query(seed: u64, config: &QueryConfig) -> TestQuery {
    let mut rng = Rng::new(seed);
    let arrays = make_arrays(&mut rng, config);
    let symbolic: Vec<ArrayRef> = arrays
        .iter()
        .filter(|a| !a.is_constant())
        .cloned()
        .collect();
    let witness = config
        .plant_witness
        .then(|| random_assignment(&mut rng, &symbolic));
    let wanted = rng.range(1, config.max_constraints.max(1) as u64) as usize;
    let mut trees = Vec::new();
    let mut constraints = Vec::new();
    let mut attempts = 0;
    while constraints.len() < wanted && attempts < 20 * wanted {
        attempts += 1;
        let mut tree =
            TreeGen::new(&mut rng, &arrays, &config.trees).boolean(config.trees.max_depth);
        let mut expr = tree.build(&arrays);
        if expr.is_constant() {
            continue;
        }
        if let Some(w) = &witness {
            if w.evaluate(&expr) == 0 {
                tree = Tree::Not(Box::new(tree));
                expr = Expr::not(expr);
            }
        }
        trees.push(tree);
        constraints.push(expr);
    }
    if constraints.is_empty() {
        // Every attempt folded to a constant: fall back to a plain comparison.
        let byte = Tree::Read {
            array: 0,
            writes: Vec::new(),
            index: Box::new(Tree::Const {
                value: 0,
                width: arrays[0].index_width(),
            }),
        };
        let value = witness.as_ref().map_or(0, |w| w.byte(&arrays[0], 0)) as u128;
        let tree = Tree::Cmp {
            op: TreeCmp::Eq,
            lhs: Box::new(Tree::Const { value, width: 8 }),
            rhs: Box::new(byte),
        };
        constraints.push(tree.build(&arrays));
        trees.push(tree);
    }
    TestQuery {
        seed,
        symbolic_arrays: symbolic,
        arrays,
        constraints,
        trees,
        witness,
    }
}

/// Random queries (see [`gen_query`]).
pub fn arb_query(config: QueryConfig) -> impl Strategy<Value = TestQuery> {
    any::<u64>().prop_map(move |seed| gen_query(seed, &config))
}

/// A random tree of `width` bits over `arrays`, with the seed that produced it.
pub fn arb_tree(
    arrays: Vec<ArrayRef>,
    width: u32,
    config: TreeConfig,
) -> impl Strategy<Value = (u64, Tree)> {
    any::<u64>().prop_map(move |seed| {
        let mut rng = Rng::new(seed);
        let tree = TreeGen::new(&mut rng, &arrays, &config).tree(width, config.max_depth);
        (seed, tree)
    })
}

/// Random assignments of the symbolic arrays among `arrays`.
pub fn arb_assignment(arrays: Vec<ArrayRef>) -> impl Strategy<Value = Assignment> {
    any::<u64>().prop_map(move |seed| random_assignment(&mut Rng::new(seed), &arrays))
}
