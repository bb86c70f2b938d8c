//! Options of the array-read transformations (KLEE's `--optimize-array` family) and of the
//! trace-equivalence check, for `sear run`.

use anyhow::{bail, Result};
use sear_arrayopt::{ArrayOptConfig, OptMode, ValueLimits};
use sear_engine::EngineConfig;
use sear_expr::ReadPolicy;

/// Array transformation options.
#[derive(Debug, Clone, clap::Args)]
pub struct ArrayArgs {
    /// Transform reads of constant and mixed arrays at symbolic offsets before they reach
    /// the solver. The default, all, never lost on the bench suite (docs/benchmarks.md, "Defaults").
    #[arg(long, value_name = "MODE", value_enum, default_value_t = OptMode::default())]
    pub optimize_array: OptMode,
    /// Value-based: apply only when distinct byte values / bytes of the array is below this
    /// ratio (0 to 1; KLEE's rule).
    #[arg(long, value_name = "R", default_value_t = 1.0, value_parser = crate::values::ratio)]
    pub array_value_ratio: f64,
    /// Value-based on mixed arrays: apply only when symbolic bytes / bytes is at most this
    /// ratio (0 to 1).
    #[arg(long, value_name = "R", default_value_t = 1.0, value_parser = crate::values::ratio)]
    pub array_value_symb_ratio: f64,
    /// Value-based rewrites of a condition over more than two input bytes are kept only when
    /// at most this many times the original's size (plus 64 nodes); 0: no limit (at most
    /// 10^6).
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub array_value_max_growth: u32,
    /// Value-based: skip reads whose reachable elements hold more than this many distinct
    /// values (0: no limit; at most 10^6).
    #[arg(long, value_name = "N", default_value_t = ValueLimits::default().max_values as u32, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub array_value_max_values: u32,
    /// Disable dynamic constant folding of reads (constant-array reads at constant
    /// offsets and reads through provably different writes), for ablation studies.
    #[arg(long)]
    pub no_array_folding: bool,
    /// Prove every transformed expression equivalent to its original with the solver; a
    /// disagreement ends the path with an `exec` error.
    #[arg(long)]
    pub validate_array_opt: bool,
    /// Write `testNNNNNN.trace` with each path's instruction-trace hash.
    #[arg(long)]
    pub write_trace_hash: bool,
}

impl ArrayArgs {
    /// Stores the options in the engine configuration.
    pub fn apply(&self, config: &mut EngineConfig) -> Result<()> {
        for (name, r) in [
            ("--array-value-ratio", self.array_value_ratio),
            ("--array-value-symb-ratio", self.array_value_symb_ratio),
        ] {
            if !(0.0..=1.0).contains(&r) {
                bail!("{name} must be between 0 and 1");
            }
        }
        config.array_opt = ArrayOptConfig {
            mode: self.optimize_array,
            limits: ValueLimits {
                value_ratio: self.array_value_ratio,
                symbolic_ratio: self.array_value_symb_ratio,
                max_values: self.array_value_max_values as usize,
            },
            max_condition_growth: self.array_value_max_growth as usize,
            ..ArrayOptConfig::default()
        };
        config.read_policy = ReadPolicy::from_folding(!self.no_array_folding);
        config.validate_array_opt = self.validate_array_opt;
        config.write_trace_hash = self.write_trace_hash;
        Ok(())
    }
}
