//! The options of the relocatable memory model (seed 003, Chapter 3).

use anyhow::{bail, Result};
use sear_engine::memory::relocatable::{RelocatableConfig, SplitConfig};
use sear_engine::{EngineConfig, MemoryModelKind};
use sear_solver::SolverConfig;

/// Relocatable-memory options of `sear run`.
#[derive(Debug, clap::Args)]
pub struct RelocatableArgs {
    /// Symbolic base addresses for heap objects, bound to hidden concrete addresses
    /// (--memory-model=relocatable).
    #[arg(long)]
    pub use_sym_addr: bool,
    /// Stack objects get symbolic bases too (with --use-sym-addr).
    #[arg(long)]
    pub sym_addr_stack: bool,
    /// DSMM: merge the objects a symbolic pointer may point into into one segment (one path
    /// instead of one per object).
    #[arg(long)]
    pub merge_objects: bool,
    /// Resolve first among the objects whose allocation contexts were resolved at the same
    /// instruction before (with --merge-objects).
    #[arg(long)]
    pub use_context_resolve: bool,
    /// Frames in an allocation context (0: the allocation site only; 0-64).
    #[arg(long, value_name = "K", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub kcontext: u32,
    /// Place the segment of the same objects merged at the same instruction at the same
    /// hidden address in every path.
    #[arg(long)]
    pub reuse_segments: bool,
    /// Split objects larger than --split-threshold accessed at symbolic offsets into
    /// --partition-size chunks.
    #[arg(long)]
    pub split_objects: bool,
    /// Objects larger than this (bytes) are split (1 to 2^32).
    #[arg(long, value_name = "BYTES", default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=1 << 32))]
    pub split_threshold: u64,
    /// The chunk size of split objects (a multiple of 8, 8 to 2^24).
    #[arg(long, value_name = "BYTES", default_value_t = 64, value_parser = clap::value_parser!(u64).range(8..=1 << 24))]
    pub partition_size: u64,
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
    /// Sets the memory model and its options in `config`.
    pub fn apply(&self, config: &mut EngineConfig) -> Result<()> {
        let relocatable = self.use_sym_addr
            || self.use_aa_cache
            || config.memory_model == MemoryModelKind::Relocatable;
        if self.validate_caching && !self.use_aa_cache {
            bail!("--validate-caching needs --use-aa-cache");
        }
        let needs_model = self.sym_addr_stack
            || self.merge_objects
            || self.use_context_resolve
            || self.reuse_segments
            || self.split_objects;
        if needs_model && !relocatable {
            bail!("--sym-addr-stack, --merge-objects, --use-context-resolve, --reuse-segments and --split-objects need --use-sym-addr");
        }
        if self.use_context_resolve && !self.merge_objects {
            bail!("--use-context-resolve needs --merge-objects");
        }
        if !self.partition_size.is_multiple_of(8) {
            bail!(
                "--partition-size must be a multiple of 8 (got {})",
                self.partition_size
            );
        }
        if relocatable {
            config.memory_model = MemoryModelKind::Relocatable;
        }
        config.relocatable = RelocatableConfig {
            stack: self.sym_addr_stack,
            merge_objects: self.merge_objects,
            context: self.use_context_resolve.then_some(self.kcontext),
            reuse_segments: self.reuse_segments,
            split: self.split_objects.then_some(SplitConfig {
                threshold: self.split_threshold,
                partition: self.partition_size,
            }),
        };
        Ok(())
    }

    /// Sets the address-aware cache's options in the solver configuration.
    pub fn apply_solver(&self, config: &mut SolverConfig) {
        config.aa_cache = self.use_aa_cache;
        config.validate_caching = self.validate_caching;
    }
}
