//! Per-layer statistics: calls, hits (answered without asking below) and time.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Statistics of one layer or core.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct LayerStats {
    /// The layer's name.
    pub name: String,
    /// True for a core solver of the chain (counted in [`ChainStats::core_queries`]).
    pub core: bool,
    /// Queries the layer received.
    pub queries: u64,
    /// Queries answered without asking the layer below.
    pub hits: u64,
    /// Total time spent in the layer, including the layers below, in seconds.
    pub time_secs: f64,
    /// For a core: queries that needed the array theory (see
    /// [`crate::layers::ArrayTermCounter`]).
    pub array_queries: u64,
    /// Layer-specific counters (e.g. the pre-check's UNSATs, the CEGAR core's iterations).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub counters: BTreeMap<String, u64>,
}

impl LayerStats {
    /// Empty statistics for `name`.
    pub fn new(name: &str) -> Self {
        LayerStats {
            name: name.to_string(),
            ..Default::default()
        }
    }

    /// Empty statistics for the core `name`.
    pub fn new_core(name: &str) -> Self {
        LayerStats {
            name: name.to_string(),
            core: true,
            ..Default::default()
        }
    }

    /// Adds `n` to the counter `name`.
    pub fn bump(&mut self, name: &str, n: u64) {
        *self.counters.entry(name.to_string()).or_default() += n;
    }

    /// The counter `name` (0 if never bumped).
    pub fn counter(&self, name: &str) -> u64 {
        self.counters.get(name).copied().unwrap_or(0)
    }

    /// Counts one query that started at `start`.
    pub fn record(&mut self, start: Instant, hit: bool) {
        self.queries += 1;
        self.hits += hit as u64;
        self.time_secs += start.elapsed().as_secs_f64();
    }
}

/// The statistics of a whole chain, top layer first, core last.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct ChainStats {
    /// Every layer, top first (the facade's constant short-cut is first).
    pub layers: Vec<LayerStats>,
    /// Queries that reached a core.
    pub core_queries: u64,
    /// Time spent in cores, in seconds.
    pub core_time_secs: f64,
    /// Queries that reached a core and still needed the array theory.
    pub core_queries_with_arrays: u64,
    /// Answers found without the core whose check failed (every layer's
    /// [`crate::audit::SAT_CHECK_FAILED`]): a model that did not satisfy its query, an
    /// interval answer false at the zero assignment. Each such query was decided below.
    pub sat_checks_failed: u64,
    /// The address-aware cache's counters, when it is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aa_cache: Option<crate::aa::AaStats>,
}

impl ChainStats {
    /// The statistics of the layer called `name`, if present.
    pub fn layer(&self, name: &str) -> Option<&LayerStats> {
        self.layers.iter().find(|l| l.name == name)
    }

    /// Total core time as a duration.
    pub fn core_time(&self) -> Duration {
        Duration::from_secs_f64(self.core_time_secs)
    }
}
