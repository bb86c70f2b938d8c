//! Ending paths: statistics, test generation, error reports.

use sear_expr::Expr;
use sear_ir::Loc;

use super::StopReason;
use super::{Executor, Program};
use crate::output::{ErrReport, ErrorRecord};
use crate::state::State;
use crate::termination::{ErrorKind, Termination};

/// Where a state is: file, line, function.
pub(crate) struct Place {
    pub file: String,
    pub line: u32,
    pub function: String,
    pub loc: Option<Loc>,
}

impl Executor<'_> {
    /// Ends `state`: updates statistics and writes its test (and error report).
    pub(crate) fn terminate(&mut self, mut state: State, termination: Termination) {
        if state.deferred.is_some() && termination != Termination::Elsewhere {
            if self.run.deferring {
                // A deferred side its fork site ends at once (a check's failing side): it
                // ends so once found feasible (`seeding.rs`).
                if let Some(d) = state.deferred.as_mut() {
                    d.end = Some(termination);
                }
                self.spawn(state);
                return;
            }
            // Ended before it ran (the memory limit): its condition is part of its path.
            if let Some(d) = state.deferred.take() {
                state.add_constraint(d.cond);
            }
        }
        let Some(state) = self.hook_take_ending(state, &termination) else {
            return;
        };
        if !state.seeds.is_empty() && termination != Termination::Elsewhere {
            self.report_unused_seed_objects(&state);
        }
        self.hook_ended(&state);
        self.run.searcher.remove(state.id);
        self.run.ptree.remove(state.ptree_node);
        if termination == Termination::Elsewhere {
            return;
        }
        self.run.trace_hashes.push(state.trace_hash);
        let termination = match termination {
            Termination::Exit(code) if self.config.check_leaks => match self.program.leaked(&state)
            {
                Some(message) => Termination::Error {
                    kind: ErrorKind::Custom("leak".into()),
                    message,
                },
                None => Termination::Exit(code),
            },
            other => other,
        };
        match termination {
            Termination::Exit(code) => {
                self.run.summary.completed_paths += 1;
                self.run.stats.completed_paths += 1;
                if !self.wants_test(&state) {
                    return;
                }
                if let Some(test) = self.write_test(&state) {
                    self.report.output.write_test_file(
                        &test,
                        "exit",
                        format!("{code}\n").as_bytes(),
                    );
                }
            }
            Termination::Early(reason) => {
                self.run.summary.early_paths += 1;
                if !self.wants_test(&state) {
                    return;
                }
                if let Some(test) = self.write_test(&state) {
                    let _ = self.report.output.write_early(&test, &reason);
                }
            }
            Termination::Silent => self.run.summary.silent_paths += 1,
            // `Restart` never gets here: the step absorbs it (fork.rs).
            Termination::Suspend(_)
            | Termination::LoopExit
            | Termination::Restart
            | Termination::Elsewhere => {}
            Termination::Error { kind, message } => {
                self.run.summary.error_paths += 1;
                self.run.stats.error_paths += 1;
                self.report_error(&state, kind, message);
            }
        }
    }

    /// Whether a path that ended without an error gets a test: always, or under
    /// `--only-output-states-covering-new` only if it covered new instructions.
    pub(super) fn wants_test(&self, state: &State) -> bool {
        !self.config.only_output_states_covering_new || state.covered_new
    }

    fn report_error(&mut self, state: &State, kind: ErrorKind, message: String) {
        let mut place = self.program.place(state);
        if let Some((file, line)) = self.report.reported_location.take() {
            place.file = file;
            place.line = line;
            place.loc = None;
        }
        // One error per (kind, source location); klee_report_error locations count by their
        // file and line.
        let key = (
            kind.suffix().to_string(),
            place.file.clone(),
            place.line,
            place.loc.map_or(0, |l| l.col),
        );
        // With --emit-all-errors every error gets a test, under
        // --only-output-states-covering-new only the first at its location and those that
        // covered something new (KLEE's rule for error paths too: a cover-branches run whose
        // loop reaches reach_error on thousands of paths writes a handful of them).
        let first = self.report.emitted_errors.insert(key);
        let wanted = first || (self.config.emit_all_errors && self.wants_test(state));
        if !wanted {
            return;
        }
        let Some(test) = self.write_test(state) else {
            return;
        };
        let stack = self.program.format_stack(state);
        let report = ErrReport {
            message: &message,
            file: &place.file,
            line: place.line,
            function: &place.function,
            stack: &stack,
            info: "",
        };
        if let Err(e) = self.report.output.write_err(&test, kind.suffix(), &report) {
            self.report
                .observer
                .warning(&format!("cannot write error report: {e}"));
        }
        let record = ErrorRecord {
            kind: kind.suffix().to_string(),
            message,
            file: place.file,
            line: place.line,
            function: place.function,
            test,
        };
        let stop_here = self
            .config
            .exit_on_error_types
            .iter()
            .any(|k| k == &record.kind);
        self.report.observer.error(&record);
        self.run.summary.errors.push(record);
        if self.config.exit_on_error || stop_here {
            self.run.stop = Some(StopReason::ErrorFound);
        }
    }

    /// Solves for the state's inputs and writes a `.ktest`; returns the test name.
    fn write_test(&mut self, state: &State) -> Option<String> {
        // Test generation is not cut short by --max-time: remaining states still get their
        // tests when the run halts (bounded by the solver timeout, or 10 s per test).
        let mut test_timeout = match (self.sv.base_timeout, self.config.max_time) {
            (Some(base), _) => Some(base),
            (None, Some(_)) => Some(std::time::Duration::from_secs(10)),
            (None, None) => None,
        };
        if let Some(deadline) = self.run.halt_deadline {
            // At the halt, no test may run past the halt's time budget.
            let left = deadline
                .saturating_duration_since(std::time::Instant::now())
                .max(std::time::Duration::from_millis(1));
            test_timeout = Some(test_timeout.map_or(left, |t| t.min(left)));
        }
        if let Some(model) = self.seed_model(state) {
            return self.write_test_with(state, model);
        }
        self.sv.solver.set_timeout(test_timeout);
        // The test's queries count in the run's solver time, as the path's do (KLEE counts
        // its test generation in its solver time too).
        let solving = std::time::Instant::now();
        let mut constraints: Vec<Expr> = state.constraints.to_vec();
        // A seed the path started from decides the constraints it satisfies (independent
        // factors: a hash it passes); the solver gets the rest (`seeding.rs`).
        let hint = self.seed_hint(state);
        let mut hinted = std::collections::BTreeSet::new();
        if let Some(h) = &hint {
            (constraints, hinted) = super::seeding::split_by_hint(constraints, h);
        }
        for preference in &state.cex_preferences {
            if !hinted.is_empty()
                && sear_expr::visit::collect_symbolic_arrays([preference])
                    .iter()
                    .any(|a| hinted.contains(a))
            {
                continue;
            }
            let q = sear_solver::Query::new(&constraints, preference.clone(), &self.sv.meta)
                .with_addresses(&state.addresses);
            if let Ok(true) = self.sv.solver.may_be_true(&q) {
                constraints.push(preference.clone());
            }
        }
        let mut arrays: Vec<_> = state
            .symbolics
            .iter()
            .map(|s| s.array.clone())
            .filter(|a| !hinted.contains(a))
            .collect();
        // A guarded input's guard is evaluated in the model: its arrays are in it too.
        let guards: Vec<&Expr> = state
            .symbolics
            .iter()
            .filter_map(|s| s.guard.as_ref())
            .collect();
        if !guards.is_empty() {
            let known: std::collections::BTreeSet<_> = arrays.iter().cloned().collect();
            for a in sear_expr::visit::collect_symbolic_arrays(guards) {
                if !known.contains(&a) && !hinted.contains(&a) {
                    arrays.push(a);
                }
            }
        }
        // The path's queries were asked in their solver forms; the test's query is too.
        let constraints = match self.sv.solver_form(state, &constraints) {
            Ok(c) => c,
            Err(_) => return None,
        };
        let pins = hint
            .as_ref()
            .map(|h| super::seeding::pins(&constraints, h))
            .unwrap_or_default();
        let mut model = Ok(None);
        if !pins.is_empty() {
            // The seed's bytes where the seed binds an array the rest reads: the solver
            // completes the free ones (the model's objects) with the seed's fixed.
            let pinned: Vec<Expr> = constraints.iter().chain(&pins).cloned().collect();
            model = self
                .sv
                .solver
                .get_initial_values(&pinned, &self.sv.meta, &arrays);
        }
        if !matches!(model, Ok(Some(_))) {
            model = self
                .sv
                .solver
                .get_initial_values(&constraints, &self.sv.meta, &arrays);
        }
        self.sv.solver_time += solving.elapsed();
        let model = match model {
            Ok(Some(mut model)) => {
                if let Some(h) = &hint {
                    for a in &hinted {
                        let bytes = h
                            .get(a)
                            .map(<[u8]>::to_vec)
                            .unwrap_or_else(|| vec![0; a.size() as usize]);
                        model.insert(a.clone(), bytes);
                    }
                    self.run.seed_stats.tests_from_hints += u64::from(!hinted.is_empty());
                }
                model
            }
            Ok(None) => {
                self.report
                    .observer
                    .warning("path condition unsatisfiable when generating a test");
                return None;
            }
            Err(e) => {
                self.report
                    .observer
                    .warning(&format!("unable to compute test inputs: {e}"));
                return None;
            }
        };
        self.write_test_with(state, model)
    }

    /// Writes the `.ktest` (and its companions) of `state` under the inputs `model`.
    fn write_test_with(&mut self, state: &State, model: sear_expr::Assignment) -> Option<String> {
        let objects: Vec<(String, Vec<u8>)> = state
            .symbolics
            .iter()
            .filter(|s| {
                // An input of one side of a merged iteration: in the test where its side is.
                s.guard
                    .as_ref()
                    .is_none_or(|g| model.evaluate(&state.addresses.substitute(g)) != 0)
            })
            .map(|s| {
                let mut bytes = model
                    .get(&s.array)
                    .map(|b| b.to_vec())
                    .unwrap_or_else(|| vec![0; s.array.size() as usize]);
                if let Some(sigma) = &s.size {
                    // A symbolic-size object: the input is σ's value of bytes.
                    let n = model.evaluate(&state.addresses.substitute(sigma));
                    bytes.truncate(n.min(bytes.len() as u128) as usize);
                }
                let bytes = match s.deindex {
                    Some(d) => self.deindex(d, &bytes),
                    None => bytes,
                };
                (s.name.clone(), bytes)
            })
            .collect();
        match self.report.output.write_test(&self.config.argv, objects) {
            Ok(name) => {
                self.write_program_output(&name, state, &model);
                if self.config.write_trace_hash {
                    let text = format!("{:016x} {}\n", state.trace_hash, state.instructions);
                    self.report
                        .output
                        .write_test_file(&name, "trace", text.as_bytes());
                }
                if self.config.write_paths {
                    let text = state.path.to_string();
                    self.report
                        .output
                        .write_test_file(&name, "path", text.as_bytes());
                }
                Some(name)
            }
            Err(e) => {
                self.report
                    .observer
                    .warning(&format!("cannot write test: {e}"));
                None
            }
        }
    }

    /// Writes `<test>.stdout` and `<test>.stderr` (when not empty): what the path printed,
    /// under the test's inputs.
    fn write_program_output(&mut self, test: &str, state: &State, model: &sear_expr::Assignment) {
        for (stream, suffix) in [(1u8, "stdout"), (2u8, "stderr")] {
            let bytes = state
                .output
                .evaluate_with(stream, model, |e| state.addresses.substitute(e));
            if !bytes.is_empty() {
                self.report.output.write_test_file(test, suffix, &bytes);
            }
        }
    }
}

impl Program {
    /// The location of the instruction `state` is executing.
    pub(crate) fn place(&self, state: &State) -> Place {
        let module = &self.module;
        let Some(frame) = state.stack.last() else {
            return Place {
                file: String::new(),
                line: 0,
                function: String::new(),
                loc: None,
            };
        };
        let function = module.function(frame.func);
        let block = &function.blocks[frame.block.0 as usize];
        // Instructions without a location (the allocas of the entry block) are placed at
        // the function's definition.
        let loc = block
            .insts
            .get(state.current_inst)
            .map_or(block.term_loc, |i| i.loc)
            .or(function.loc);
        Place {
            file: loc.map_or_else(String::new, |l| module.file_name(l.file).to_string()),
            line: loc.map_or(0, |l| l.line),
            function: super::cxx::demangle(&function.name),
            loc,
        }
    }

    /// The call stack, innermost first: `function at file:line`.
    pub(crate) fn format_stack(&self, state: &State) -> Vec<String> {
        let module = &self.module;
        let mut out = Vec::new();
        let n = state.stack.len();
        for (depth, frame) in state.stack.iter().enumerate().rev() {
            let function = module.function(frame.func);
            let block = &function.blocks[frame.block.0 as usize];
            let index = if depth + 1 == n {
                state.current_inst
            } else {
                frame.inst.saturating_sub(1)
            };
            let loc = block
                .insts
                .get(index)
                .map_or(block.term_loc, |i| i.loc)
                .or(function.loc);
            let at = loc.map_or_else(
                || "<unknown>".to_string(),
                |l| format!("{}:{}", module.file_name(l.file), l.line),
            );
            // The arguments as KLEE prints them: name=value (the name when the module has
            // one), the value a number or "symbolic".
            let args: Vec<String> = frame
                .locals
                .iter()
                .take(function.params.len())
                .enumerate()
                .map(|(i, v)| {
                    let value = match v {
                        crate::value::Value::Concrete(bits, _) => bits.to_string(),
                        crate::value::Value::Symbolic(_) => "symbolic".to_string(),
                        crate::value::Value::Aggregate(_) => "{...}".to_string(),
                    };
                    match function.param_names.get(i).filter(|n| !n.is_empty()) {
                        Some(name) => format!("{name}={value}"),
                        None => value,
                    }
                })
                .collect();
            // A C++ function's demangled name carries its parameter types: the name alone.
            let name = super::cxx::demangle_function(&function.name);
            out.push(format!("in {}({}) at {}", name, args.join(", "), at));
        }
        out
    }
}
