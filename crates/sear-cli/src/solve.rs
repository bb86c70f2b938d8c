//! `sear solve FILE.smt2`: answers an SMT-LIB2 script through the solver chain, like KLEE's
//! `kleaver`. Each `check-sat` prints `sat`, `unsat` or `unknown`; `get-model` and
//! `get-value` print the last model; `push`/`pop`/`echo`/`exit` behave as in SMT-LIB.
//! Floating-point scripts (`QF_FP`, `QF_BVFP`, `QF_ABVFP`; binary32 and binary64) are read
//! into sear's floating-point nodes (`sear_expr::smtlib`; docs/techniques/floating-point.md).
//! Scripts with bit-vectors wider than 128 bits are answered by Z3 directly
//! ([`crate::solve_wide`]), with the same output.

use std::path::PathBuf;

use anyhow::{Context, Result};
use sear_expr::smtlib::{parse_script, print_model, print_values, Command};
use sear_expr::{Assignment, Expr};
use sear_solver::{QueryMeta, Solver, SolverError};

/// Arguments of `sear solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// The SMT-LIB2 script (QF_ABV / QF_BV, QF_FP / QF_BVFP / QF_ABVFP).
    pub file: PathBuf,
    /// Print the model after every `sat`.
    #[arg(long)]
    pub model: bool,
    /// Print the solver statistics (JSON) to stderr at the end.
    #[arg(long)]
    pub stats: bool,
    /// Print `; time: SECONDS` at the end: the time spent parsing the script and answering
    /// it, without the process's start-up (what `bench/solvers/compare` reads, so sear is
    /// timed as the solvers it is compared with are).
    #[arg(long)]
    pub time: bool,
    /// Solver chain options.
    #[command(flatten)]
    pub solver: sear_solver::SolverConfig,
}

/// Runs `sear solve`; returns the exit code (0, or 1 if a command failed).
pub fn run_solve(args: &SolveArgs) -> Result<i32> {
    let start = std::time::Instant::now();
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let script = match parse_script(&text) {
        Ok(script) => script,
        // Bit-vectors wider than sear's expressions hold: Z3 answers the script directly.
        Err(e) if e.message.contains("is not in 1..=128") => {
            let z3 = sear_solver::direct::DirectZ3::new(args.solver.timeout);
            return crate::solve_wide::run(&text, &z3, args.model)
                .map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()));
        }
        Err(e) => anyhow::bail!("{}: {e}", args.file.display()),
    };
    let mut config = args.solver.clone();
    config.quantified.stage |= sear_expr::quant::contains_forall(&script.assertions());
    let mut solver =
        Solver::new(&config).map_err(|e| anyhow::anyhow!("cannot start the solver: {e}"))?;
    let meta = QueryMeta::default();
    // The assertions of each open scope, with their names.
    let mut scopes: Vec<Vec<(Option<String>, Expr)>> = vec![Vec::new()];
    let mut model: Option<Assignment> = None;
    // The assertions of the last check, when it answered unsat (for get-unsat-core).
    let mut last_unsat: Option<Vec<(Option<String>, Expr)>> = None;
    let mut code = 0;
    for command in &script.commands {
        match command {
            Command::Assert(e) => scopes
                .last_mut()
                .expect("a scope is always open")
                .push((None, e.clone())),
            Command::AssertNamed(name, e) => scopes
                .last_mut()
                .expect("a scope is always open")
                .push((Some(name.clone()), e.clone())),
            Command::CheckSat | Command::CheckSatAssuming(_) => {
                let mut checked: Vec<(Option<String>, Expr)> =
                    scopes.iter().flatten().cloned().collect();
                if let Command::CheckSatAssuming(literals) = command {
                    // Assumptions take part in unsat cores under their source text.
                    checked.extend(
                        literals
                            .iter()
                            .map(|(text, l)| (Some(text.clone()), l.clone())),
                    );
                }
                let assertions: Vec<Expr> = checked.iter().map(|(_, e)| e.clone()).collect();
                model = None;
                last_unsat = None;
                match solver.check_sat(&assertions, &meta) {
                    Ok(Some(m)) => {
                        crate::term::outln!("sat");
                        if args.model {
                            crate::term::out!("{}", print_model(&m, &script));
                        }
                        model = Some(m);
                    }
                    Ok(None) => {
                        crate::term::outln!("unsat");
                        last_unsat = Some(checked);
                    }
                    Err(SolverError::Timeout) => crate::term::outln!("unknown"),
                    Err(e) => {
                        crate::term::outln!("unknown");
                        crate::term::errln!("sear solve: {e}");
                        code = 1;
                    }
                }
            }
            Command::GetUnsatCore => match &last_unsat {
                Some(checked) => match unsat_core(&mut solver, checked, &meta) {
                    Ok(names) => crate::term::outln!("({})", names.join(" ")),
                    Err(e) => {
                        crate::term::outln!("(error \"no unsat core: {e}\")");
                        code = 1;
                    }
                },
                None => crate::term::outln!("(error \"the last check was not unsat\")"),
            },
            Command::GetModel => match &model {
                Some(m) => crate::term::out!("{}", print_model(m, &script)),
                None => crate::term::outln!("(error \"no model available\")"),
            },
            Command::GetValue(values) => match &model {
                Some(m) => crate::term::out!("{}", print_values(values, m)),
                None => crate::term::outln!("(error \"no model available\")"),
            },
            Command::Push(n) => scopes.extend((0..*n).map(|_| Vec::new())),
            Command::Pop(n) => {
                if *n as usize >= scopes.len() {
                    crate::term::outln!(
                        "(error \"pop {n} exceeds the {} open scopes\")",
                        scopes.len() - 1
                    );
                    code = 1;
                } else {
                    scopes.truncate(scopes.len() - *n as usize);
                }
            }
            Command::Reset | Command::ResetAssertions => {
                scopes = vec![Vec::new()];
                model = None;
                last_unsat = None;
            }
            Command::Echo(s) => crate::term::outln!("{s}"),
            Command::Exit => break,
            Command::Ignored(_) => {}
        }
    }
    if args.time {
        crate::term::outln!("; time: {:.6}", start.elapsed().as_secs_f64());
    }
    if args.stats {
        crate::term::errln!("{}", serde_json::to_string_pretty(&solver.stats())?);
    }
    Ok(code)
}

/// The names of named assertions (and assumed literals) that are unsatisfiable together with
/// the unnamed ones: every named one is dropped in turn and kept out when the rest stays
/// unsat (deletion-based, so the core is minimal among the named ones).
fn unsat_core(
    solver: &mut Solver,
    checked: &[(Option<String>, Expr)],
    meta: &QueryMeta,
) -> std::result::Result<Vec<String>, SolverError> {
    let mut keep: Vec<bool> = vec![true; checked.len()];
    for i in 0..checked.len() {
        if checked[i].0.is_none() {
            continue;
        }
        keep[i] = false;
        let rest: Vec<Expr> = checked
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|((_, e), _)| e.clone())
            .collect();
        if solver.check_sat(&rest, meta)?.is_some() {
            keep[i] = true; // needed
        }
    }
    Ok(checked
        .iter()
        .zip(&keep)
        .filter_map(|((name, _), k)| if *k { name.clone() } else { None })
        .collect())
}
