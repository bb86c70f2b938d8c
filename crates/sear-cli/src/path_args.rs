//! `--replay-path FILE`: a recorded path read and checked before the run (`--write-paths` is
//! an engine option).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use sear_engine::path::PathRecord;
use sear_engine::EngineConfig;

/// Path-record options of `sear run`.
#[derive(Debug, Clone, clap::Args)]
pub struct PathArgs {
    /// Follow the branch decisions of FILE (a `testNNNNNN.path`) from the initial state:
    /// one path, with no solver query for the recorded forks; a fork the file does not
    /// have ends the path with an `exec` error naming the decision.
    #[arg(long, value_name = "FILE")]
    pub replay_path: Option<PathBuf>,
}

impl PathArgs {
    /// Stores the options in the engine configuration (reading and checking the path file).
    pub fn apply(&self, config: &mut EngineConfig) -> Result<()> {
        if let Some(file) = &self.replay_path {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("--replay-path {}", file.display()))?;
            let record: PathRecord = text
                .parse()
                .with_context(|| format!("--replay-path {}: not a path file", file.display()))?;
            config.replay_path = Some(Arc::new(record));
        }
        Ok(())
    }
}
