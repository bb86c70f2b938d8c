//! `sear run --indexify=strings,floats` and its parameters (seed 004,
//! docs/techniques/indexify.md): the preprocessing runs between loading the module and
//! exploring it, and the table cache is saved after the run.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context, Result};
use sear_indexify::{BuilderKind, Prepared, Settings};

/// The types `--indexify` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IndexType {
    /// C strings (`string.h` operators).
    Strings,
    /// `double` and `float` (the float instructions and `math.h` operators).
    Floats,
}

/// Indexify options.
#[derive(Debug, Clone, clap::Args)]
pub struct IndexifyArgs {
    /// Index these types (comma-separated): the program runs over finite gardens of values
    /// with its hard operators replaced by indexed operator tables.
    #[arg(
        long,
        value_name = "TYPES",
        value_enum,
        value_delimiter = ',',
        help_heading = "Indexify"
    )]
    pub indexify: Vec<IndexType>,
    /// Seeds from FILE instead of the program's literals (one a line: a JSON string, a
    /// number for a double, f32:NUMBER for a float).
    #[arg(long, value_name = "FILE", help_heading = "Indexify")]
    pub seeds: Option<PathBuf>,
    /// Seeds from FILE added to the program's literals.
    #[arg(long, value_name = "FILE", help_heading = "Indexify")]
    pub add_seeds: Option<PathBuf>,
    /// Builder rounds k (0 to 10).
    #[arg(long, value_name = "K", default_value_t = 3, value_parser = clap::value_parser!(u32).range(0..=10), help_heading = "Indexify")]
    pub index_k: u32,
    /// The string garden's builder: ops (the string operators the program uses, k rounds)
    /// or kleene (concatenations of at most k seeds).
    #[arg(long, value_name = "KIND", value_enum, default_value_t = BuilderKind::default(), help_heading = "Indexify")]
    pub index_builder: BuilderKind,
    /// Built strings longer than this are not added to the garden (0 to 4096).
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=4096), help_heading = "Indexify")]
    pub index_max_len: u64,
    /// No garden grows beyond this many values by construction (1 to 2^20).
    #[arg(long, value_name = "N", default_value_t = 2048, value_parser = clap::value_parser!(u64).range(1..=1 << 20), help_heading = "Indexify")]
    pub index_max_garden: u64,
    /// The operators to index (comma-separated string.h / math.h names; fadd, fsub, fmul,
    /// fdiv, frem, fneg also build the float garden). Default: the string.h and math.h
    /// functions the program calls; the float instructions are always indexed.
    #[arg(
        long,
        value_name = "LIST",
        value_delimiter = ',',
        help_heading = "Indexify"
    )]
    pub index_fplus: Option<Vec<String>>,
    /// Write the indexed module (sear-ir, with its gardens) to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Indexify")]
    pub output_indexed_ir: Option<PathBuf>,
    /// Directory of the table cache (default: $XDG_CACHE_HOME/sear/indexify or
    /// ~/.cache/sear/indexify).
    #[arg(long, value_name = "DIR", help_heading = "Indexify")]
    pub index_cache: Option<PathBuf>,
    /// Neither read nor write the table cache.
    #[arg(long, help_heading = "Indexify")]
    pub no_index_cache: bool,
}

impl IndexifyArgs {
    /// True when some type is indexed.
    pub fn enabled(&self) -> bool {
        !self.indexify.is_empty()
    }

    /// Refuses parameters given without `--indexify`.
    pub fn check(&self) -> Result<()> {
        if !self.enabled()
            && (self.seeds.is_some()
                || self.add_seeds.is_some()
                || self.index_fplus.is_some()
                || self.output_indexed_ir.is_some())
        {
            bail!("--seeds, --add-seeds, --index-fplus and --output-indexed-ir need --indexify");
        }
        Ok(())
    }

    fn settings(&self, entry: &str) -> Settings {
        Settings {
            strings: self.indexify.contains(&IndexType::Strings),
            floats: self.indexify.contains(&IndexType::Floats),
            seeds_file: self.seeds.clone(),
            add_seeds_file: self.add_seeds.clone(),
            k: self.index_k,
            builder: self.index_builder,
            max_len: self.index_max_len as usize,
            max_garden: self.index_max_garden as usize,
            fplus: self.index_fplus.clone(),
            entry: entry.to_string(),
        }
    }

    fn cache_dir(&self) -> Option<PathBuf> {
        if self.no_index_cache {
            return None;
        }
        if let Some(d) = &self.index_cache {
            return Some(d.clone());
        }
        let base = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
        Some(base.join("sear").join("indexify"))
    }

    /// Runs the preprocessing on `linked` (the program with the runtime); `program` is the
    /// program's own bitcode (seeds and F₊ come from it).
    pub fn prepare(
        &self,
        program: &Path,
        linked: &sear_ir::Module,
        entry: &str,
        verify: bool,
    ) -> Result<Prepared> {
        let own = sear_ir::load_module(program)
            .with_context(|| format!("loading {}", program.display()))?;
        let cache = self.cache_dir();
        let prepared =
            sear_indexify::prepare(&own, linked, &self.settings(entry), cache.as_deref())
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        if verify {
            sear_ir::verify(&prepared.module).context("the indexed module")?;
        }
        if let Some(path) = &self.output_indexed_ir {
            std::fs::write(path, indexed_ir_text(&prepared))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(prepared)
    }
}

/// The indexed module as text: the gardens (position, index, value), then sear-ir.
fn indexed_ir_text(p: &Prepared) -> String {
    let mut out = String::from("; indexed by sear --indexify (seed 004)\n");
    for (ty, g) in p.tables.gardens() {
        out.push_str(&format!("; garden {ty}: {} values\n", g.len()));
        for (pos, v) in g.values().iter().enumerate() {
            out.push_str(&format!(";   {} = {v}\n", g.index_of(pos as u32)));
        }
    }
    out.push_str(&sear_ir::print_module(&p.module));
    out
}

/// Saves the table cache after the run (a failure is only a warning).
pub fn save_cache(tables: &Arc<Mutex<sear_indexify::Tables>>, file: Option<&Path>) {
    let Some(file) = file else { return };
    let tables = tables.lock().unwrap_or_else(|e| e.into_inner());
    if let Err(e) = sear_indexify::cache::save(file, &tables) {
        crate::term::errln!(
            "sear: warning: cannot save the table cache {}: {e}",
            file.display()
        );
    }
}
