//! The options of the relocatable model ([`super::relocatable`]); with the `cli` feature,
//! also the command-line options that set them.

use serde::Serialize;

/// The options of the relocatable model, one field per command-line option; the model
/// reads them through [`RelocatableConfig::context`] and [`RelocatableConfig::split`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct RelocatableConfig {
    /// Stack objects get symbolic bases too (with --use-sym-addr).
    #[cfg_attr(feature = "cli", arg(id = "sym-addr-stack", long = "sym-addr-stack"))]
    pub stack: bool,
    /// DSMM: merge the objects a symbolic pointer may point into into one segment (one path
    /// instead of one per object).
    #[cfg_attr(feature = "cli", arg(id = "merge-objects", long = "merge-objects"))]
    pub merge_objects: bool,
    /// Resolve first among the objects whose allocation contexts were resolved at the same
    /// instruction before (with --merge-objects).
    #[cfg_attr(
        feature = "cli",
        arg(id = "use-context-resolve", long = "use-context-resolve")
    )]
    pub use_context_resolve: bool,
    /// Frames in an allocation context (0: the allocation site only; 0-64).
    #[cfg_attr(feature = "cli", arg(
        id = "kcontext",
        long = "kcontext",
        value_name = "K",
        default_value_t = defaults::KCONTEXT,
        value_parser = clap::value_parser!(u32).range(0..=64),
    ))]
    pub kcontext: u32,
    /// Place the segment of the same objects merged at the same instruction at the same
    /// hidden address in every path.
    #[cfg_attr(feature = "cli", arg(id = "reuse-segments", long = "reuse-segments"))]
    pub reuse_segments: bool,
    /// Split objects larger than --split-threshold accessed at symbolic offsets into
    /// --partition-size chunks.
    #[cfg_attr(feature = "cli", arg(id = "split-objects", long = "split-objects"))]
    pub split_objects: bool,
    /// Objects larger than this (bytes) are split (1 to 2^32).
    #[cfg_attr(feature = "cli", arg(
        id = "split-threshold",
        long = "split-threshold",
        value_name = "BYTES",
        default_value_t = defaults::SPLIT_THRESHOLD,
        value_parser = clap::value_parser!(u64).range(1..=1 << 32),
    ))]
    pub split_threshold: u64,
    /// The chunk size of split objects (a multiple of 8, 8 to 2^24).
    #[cfg_attr(feature = "cli", arg(
        id = "partition-size",
        long = "partition-size",
        value_name = "BYTES",
        default_value_t = defaults::PARTITION_SIZE,
        value_parser = clap::value_parser!(u64).range(8..=1 << 24),
    ))]
    pub partition_size: u64,
}

/// The defaults of [`RelocatableConfig`], written once.
pub mod defaults {
    /// Frames in an allocation context.
    pub const KCONTEXT: u32 = 0;
    /// Objects larger than this many bytes are split.
    pub const SPLIT_THRESHOLD: u64 = 300;
    /// The chunk size of split objects.
    pub const PARTITION_SIZE: u64 = 64;
}

impl Default for RelocatableConfig {
    fn default() -> Self {
        RelocatableConfig {
            stack: false,
            merge_objects: false,
            use_context_resolve: false,
            kcontext: defaults::KCONTEXT,
            reuse_segments: false,
            split_objects: false,
            split_threshold: defaults::SPLIT_THRESHOLD,
            partition_size: defaults::PARTITION_SIZE,
        }
    }
}

/// When and how objects are split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SplitConfig {
    /// Objects larger than this (bytes) are split when accessed at a symbolic offset.
    pub threshold: u64,
    /// The chunk size (a multiple of 8).
    pub partition: u64,
}

impl RelocatableConfig {
    /// Context-based resolution with contexts of this many frames (`--use-context-resolve
    /// --kcontext=K`), if on.
    pub fn context(&self) -> Option<u32> {
        self.use_context_resolve.then_some(self.kcontext)
    }

    /// Splitting (`--split-objects`), if on.
    pub fn split(&self) -> Option<SplitConfig> {
        self.split_objects.then_some(SplitConfig {
            threshold: self.split_threshold,
            partition: self.partition_size,
        })
    }

    /// Refuses options that need another (`relocatable`: the relocatable model is on).
    pub fn check(&self, relocatable: bool) -> Result<(), String> {
        let needs_model = self.stack
            || self.merge_objects
            || self.use_context_resolve
            || self.reuse_segments
            || self.split_objects;
        if needs_model && !relocatable {
            return Err("--sym-addr-stack, --merge-objects, --use-context-resolve, --reuse-segments and --split-objects need --use-sym-addr".into());
        }
        if self.use_context_resolve && !self.merge_objects {
            return Err("--use-context-resolve needs --merge-objects".into());
        }
        if !self.partition_size.is_multiple_of(8) {
            return Err(format!(
                "--partition-size must be a multiple of 8 (got {})",
                self.partition_size
            ));
        }
        Ok(())
    }
}

/// Written as the model reads it: `{stack, merge_objects, context, reuse_segments, split}`
/// (`info.json`).
impl Serialize for RelocatableConfig {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = s.serialize_struct("RelocatableConfig", 5)?;
        out.serialize_field("stack", &self.stack)?;
        out.serialize_field("merge_objects", &self.merge_objects)?;
        out.serialize_field("context", &self.context())?;
        out.serialize_field("reuse_segments", &self.reuse_segments)?;
        out.serialize_field("split", &self.split())?;
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::RelocatableConfig;

    #[test]
    fn written_as_the_model_reads_it() {
        let config = RelocatableConfig {
            use_context_resolve: true,
            kcontext: 2,
            ..Default::default()
        };
        let json = serde_json::to_value(&config).unwrap();
        assert_eq!(json["context"], 2);
        assert!(json["split"].is_null());
        assert!(json.get("kcontext").is_none());
        let split = RelocatableConfig {
            split_objects: true,
            ..Default::default()
        };
        assert_eq!(
            serde_json::to_value(&split).unwrap()["split"],
            serde_json::json!({"threshold": 300, "partition": 64})
        );
    }
}
