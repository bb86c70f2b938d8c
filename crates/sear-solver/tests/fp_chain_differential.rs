//! Floating-point queries (issue 34) answered by the default chain (the floating-point
//! search on, as by default), by plain Z3 and by plain Bitwuzla: the answers agree (a
//! timeout is allowed and counted) and every model satisfies its query by evaluation.
//!
//! Queries come as a run asks them: paths of branches on generated float conditions
//! (`fp_diff/gen.rs`: comparisons and class tests of expression trees, both formats, the
//! five rounding modes) over the path's inputs, symbolic 4- and 8-byte arrays read
//! little-endian as the engine reads a `float` or `double` (integer inputs too), some
//! leaves constants; both sides of each branch asked, the path extended with a feasible
//! side. `SEAR_FP_CHAIN_QUERIES=N` sets the number of queries (default 12; a query can take seconds: binary64 operations are bit-blasted by both cores).

mod fp_diff;

use std::time::{Duration, Instant};

use fp_diff::gen::{build, leaf_array, Gen, Rng};
use sear_expr::Expr;
use sear_solver::bitwuzla::BitwuzlaCore;
use sear_solver::z3core::{Z3Core, Z3Mode};
use sear_solver::{QueryMeta, SatQuery, SatResult, SatSolver, Solver, SolverConfig, SolverError};

const TIMEOUT: Duration = Duration::from_secs(3);
const STEPS: usize = 4;

/// One subject's answers.
#[derive(Default, Debug)]
struct Tally {
    sat: u64,
    unsat: u64,
    timeouts: u64,
}

impl Tally {
    /// Records an answer (`Some(model)` for sat); panics when a model does not hold.
    fn add(
        &mut self,
        who: &str,
        cs: &[Expr],
        r: Result<Option<sear_expr::Assignment>, SolverError>,
    ) -> Option<bool> {
        match r {
            Ok(Some(m)) => {
                assert!(
                    m.satisfies(cs),
                    "{who}: a model that does not satisfy {cs:?}"
                );
                self.sat += 1;
                Some(true)
            }
            Ok(None) => {
                self.unsat += 1;
                Some(false)
            }
            Err(SolverError::Timeout) => {
                self.timeouts += 1;
                None
            }
            Err(e) => panic!("{who}: {e}"),
        }
    }
}

fn core_check(
    core: &mut dyn SatSolver,
    cs: &[Expr],
) -> Result<Option<sear_expr::Assignment>, SolverError> {
    let meta = QueryMeta::default();
    core.check(&SatQuery::new(cs, Expr::true_(), &meta, false, true))
        .map(|r| match r {
            SatResult::Sat(m) => Some(m),
            SatResult::Unsat => None,
        })
}

#[test]
fn the_chain_and_both_cores_agree_on_float_queries() {
    let n: u64 = std::env::var("SEAR_FP_CHAIN_QUERIES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let meta = QueryMeta::default();
    let mut chain = Solver::new(&SolverConfig::default()).unwrap();
    chain.set_timeout(Some(TIMEOUT));
    let mut z3 = Z3Core::new(Z3Mode::default());
    z3.set_timeout(Some(TIMEOUT));
    let mut bitwuzla = BitwuzlaCore::default();
    bitwuzla.set_timeout(Some(TIMEOUT));
    let (mut t_chain, mut t_z3, mut t_bitwuzla) =
        (Tally::default(), Tally::default(), Tally::default());
    let (mut queries, mut paths, mut undecided) = (0u64, 0u64, 0u64);
    let started = Instant::now();
    let mut rng = Rng(0xF10A_7C4A_1D1F_F000);
    while queries < n {
        paths += 1;
        let mut g = Gen {
            rng: &mut rng,
            leaves: Default::default(),
            reuse: true,
        };
        // Leaf k of the path: a symbolic input, or (one time in three) its constant.
        let mut inputs: Vec<Expr> = Vec::new();
        let mut path: Vec<Expr> = Vec::new();
        for _ in 0..STEPS {
            let depth = 1 + g.rng.below(2) as u32;
            let node = g.boolean(depth);
            for (k, &(w, v, _)) in g.leaves.items.iter().enumerate().skip(inputs.len()) {
                inputs.push(if k % 3 == 2 {
                    Expr::constant(v as u128, w)
                } else {
                    leaf_array(&format!("p{paths}_in{k}"), w).1
                });
            }
            let c = build(&node, &inputs);
            if c.is_constant() {
                continue;
            }
            let mut feasible = Vec::new();
            for e in [c.clone(), Expr::not(c.clone())] {
                queries += 1;
                let mut cs = path.clone();
                cs.push(e.clone());
                let a = t_chain.add("the default chain", &cs, chain.check_sat(&cs, &meta));
                let b = t_z3.add("z3", &cs, core_check(&mut z3, &cs));
                let d = t_bitwuzla.add("bitwuzla", &cs, core_check(&mut bitwuzla, &cs));
                let answers: Vec<bool> = [a, b, d].into_iter().flatten().collect();
                assert!(
                    answers.windows(2).all(|w| w[0] == w[1]),
                    "chain {a:?}, z3 {b:?}, bitwuzla {d:?}: {cs:?}"
                );
                match answers.first() {
                    Some(true) => feasible.push(e),
                    Some(false) => {}
                    None => undecided += 1,
                }
            }
            if feasible.is_empty() {
                break;
            }
            let side = g.rng.below(feasible.len() as u64) as usize;
            path.push(feasible.swap_remove(side));
        }
    }
    let fp_search = chain
        .stats()
        .layers
        .iter()
        .find(|l| l.name == "fp-search")
        .map(|l| (l.queries, l.hits));
    eprintln!(
        "{queries} queries ({paths} paths, {undecided} answered by nobody), {:?}: chain \
         {t_chain:?} (fp-search queries, hits: {fp_search:?}); z3 {t_z3:?}; bitwuzla \
         {t_bitwuzla:?}",
        started.elapsed()
    );
    // Against vacuity: both answers occur.
    assert!(t_z3.sat > 0 && t_z3.unsat > 0, "{t_z3:?}");
}
