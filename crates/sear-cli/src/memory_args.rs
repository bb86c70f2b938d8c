//! The options that tie the relocatable memory model (seed 003, Chapter 3) to the rest:
//! `--use-sym-addr` (the model itself) and the address-aware cache, which lives in the
//! solver. The model's own options are [`sear_engine::memory::relocatable::RelocatableConfig`].

use anyhow::{bail, Result};
use sear_engine::{EngineConfig, MemoryModelKind};
use sear_solver::SolverConfig;

/// Relocatable-memory options of `sear run` that set more than the model's configuration.
#[derive(Debug, clap::Args)]
pub struct RelocatableArgs {
    /// Symbolic base addresses for heap objects, bound to hidden concrete addresses
    /// (--memory-model=relocatable).
    #[arg(long)]
    pub use_sym_addr: bool,
    /// Address-aware query caching (seed 003 Ch. 4): a query equal to a cached one up to a
    /// renaming of symbolic bases (objects of equal sizes) is answered from the cache
    /// (implies --use-sym-addr).
    #[arg(long)]
    pub use_aa_cache: bool,
    /// Cross-check every hit of the address-aware cache against the solver; a disagreement
    /// is a solver failure (with --use-aa-cache).
    #[arg(long)]
    pub validate_caching: bool,
}

impl RelocatableArgs {
    /// Chooses the memory model and checks the model's options in `config`.
    pub fn apply(&self, config: &mut EngineConfig) -> Result<()> {
        let relocatable = self.use_sym_addr
            || self.use_aa_cache
            || config.memory_model == MemoryModelKind::Relocatable;
        if self.validate_caching && !self.use_aa_cache {
            bail!("--validate-caching needs --use-aa-cache");
        }
        config
            .relocatable
            .check(relocatable)
            .map_err(anyhow::Error::msg)?;
        if relocatable {
            config.memory_model = MemoryModelKind::Relocatable;
        }
        Ok(())
    }

    /// Sets the address-aware cache's options in the solver configuration.
    pub fn apply_solver(&self, config: &mut SolverConfig) {
        config.aa_cache = self.use_aa_cache;
        config.validate_caching = self.validate_caching;
    }
}
