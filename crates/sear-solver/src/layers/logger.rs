//! The query log: every query passing this layer is written as `queryNNNNNN.smt2` (SMT-LIB2)
//! with the answer and the time as comments. Placed at the top of the chain (all queries) or
//! just above the core (queries that reach it); see [`crate::build_chain`].

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sear_expr::smtlib::{print_query, QueryPrintOptions};
use sear_expr::Expr;

use crate::query::SolverError;
use crate::sat::{SatQuery, SatResult, SatSolver};
use crate::stats::LayerStats;

/// The query-logging layer.
pub struct QueryLogger {
    inner: Box<dyn SatSolver>,
    dir: PathBuf,
    next: u64,
    stats: LayerStats,
}

impl QueryLogger {
    /// Wraps `inner`, writing into `dir` (created if missing). File numbers continue after the
    /// highest already in the directory, so two loggers may share it.
    pub fn new(inner: Box<dyn SatSolver>, dir: &Path) -> Result<Self, SolverError> {
        std::fs::create_dir_all(dir).map_err(|e| {
            SolverError::Failure(format!(
                "cannot create query log directory {}: {e}",
                dir.display()
            ))
        })?;
        Ok(QueryLogger {
            inner,
            dir: dir.to_path_buf(),
            next: 0,
            stats: LayerStats::new("query-log"),
        })
    }

    fn path(&mut self) -> PathBuf {
        loop {
            let p = self.dir.join(format!("query{:06}.smt2", self.next));
            self.next += 1;
            if !p.exists() {
                return p;
            }
        }
    }
}

impl SatSolver for QueryLogger {
    fn name(&self) -> &'static str {
        "query-log"
    }

    fn check(&mut self, query: &SatQuery) -> Result<SatResult, SolverError> {
        let start = Instant::now();
        let conjuncts: Vec<Expr> = query.conjuncts().cloned().collect();
        let options = QueryPrintOptions {
            comments: vec![format!(
                "known-sat: {} need-model: {} internal: {}",
                query.constraints_known_sat, query.need_model, query.meta.internal
            )],
            ..Default::default()
        };
        let text = print_query(&conjuncts, &options);
        let result = self.inner.check(query);
        let elapsed = start.elapsed();
        let mut out = text;
        let answer = match &result {
            Ok(SatResult::Sat(_)) => "sat".to_string(),
            Ok(SatResult::Unsat) => "unsat".to_string(),
            Err(e) => format!("unknown ({e})"),
        };
        let _ = writeln!(
            out,
            "; answer: {answer}\n; time: {:.6} s",
            elapsed.as_secs_f64()
        );
        let path = self.path();
        if let Err(e) = std::fs::write(&path, out) {
            tracing::warn!("cannot write query log {}: {e}", path.display());
        }
        self.stats.record(start, false);
        result
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.inner.set_timeout(timeout);
    }

    fn collect_stats(&self, out: &mut Vec<LayerStats>) {
        out.push(self.stats.clone());
        self.inner.collect_stats(out);
    }
    fn learn(&mut self, query: &SatQuery, result: &SatResult) {
        self.inner.learn(query, result);
    }
}
