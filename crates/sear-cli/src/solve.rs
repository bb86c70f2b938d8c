//! `sear solve FILE.smt2`: answers an SMT-LIB2 script through the solver chain, like KLEE's
//! `kleaver`. Each `check-sat` prints `sat`, `unsat` or `unknown`; `get-model` and
//! `get-value` print the last model; `push`/`pop`/`echo`/`exit` behave as in SMT-LIB.

use std::path::PathBuf;

use anyhow::{Context, Result};
use sear_expr::smtlib::{parse_script, print_model, print_values, Command};
use sear_expr::{Assignment, Expr};
use sear_solver::{QueryMeta, Solver, SolverError};

use crate::solver_args::SolverArgs;

/// Arguments of `sear solve`.
#[derive(Debug, Clone, clap::Args)]
pub struct SolveArgs {
    /// The SMT-LIB2 script (QF_ABV / QF_BV).
    pub file: PathBuf,
    /// Print the model after every `sat`.
    #[arg(long)]
    pub model: bool,
    /// Print the solver statistics (JSON) to stderr at the end.
    #[arg(long)]
    pub stats: bool,
    /// Solver chain options.
    #[command(flatten)]
    pub solver: SolverArgs,
}

/// Runs `sear solve`; returns the exit code (0, or 1 if a command failed).
pub fn run_solve(args: &SolveArgs) -> Result<i32> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let script =
        parse_script(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let mut solver = Solver::new(&args.solver.to_config()?)
        .map_err(|e| anyhow::anyhow!("cannot start the solver: {e}"))?;
    let meta = QueryMeta::default();
    // The assertions of each open scope.
    let mut scopes: Vec<Vec<Expr>> = vec![Vec::new()];
    let mut model: Option<Assignment> = None;
    let mut code = 0;
    for command in &script.commands {
        match command {
            Command::Assert(e) => scopes
                .last_mut()
                .expect("a scope is always open")
                .push(e.clone()),
            Command::CheckSat => {
                let assertions: Vec<Expr> = scopes.iter().flatten().cloned().collect();
                model = None;
                match solver.check_sat(&assertions, &meta) {
                    Ok(Some(m)) => {
                        crate::term::outln!("sat");
                        if args.model {
                            crate::term::out!("{}", print_model(&m, &script));
                        }
                        model = Some(m);
                    }
                    Ok(None) => crate::term::outln!("unsat"),
                    Err(SolverError::Timeout) => crate::term::outln!("unknown"),
                    Err(e) => {
                        crate::term::outln!("unknown");
                        crate::term::errln!("sear solve: {e}");
                        code = 1;
                    }
                }
            }
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
            Command::Echo(s) => crate::term::outln!("{s}"),
            Command::Exit => break,
            Command::Ignored(_) => {}
        }
    }
    if args.stats {
        crate::term::errln!("{}", serde_json::to_string_pretty(&solver.stats())?);
    }
    Ok(code)
}
