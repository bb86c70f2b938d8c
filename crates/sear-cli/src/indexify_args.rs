//! `sear run --indexify=strings,floats` and its parameters (seed 004,
//! docs/techniques/indexify.md): the preprocessing runs between loading the module and
//! exploring it, and the table cache is saved after the run.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use anyhow::{bail, Context, Result};
use sear_indexify::{Prepared, Settings};

/// The types `--indexify` takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IndexType {
    /// C strings (`string.h` operators).
    Strings,
    /// `double` and `float` (the float instructions and `math.h` operators).
    Floats,
}

/// Indexify options: the types, the preprocessing's [`Settings`], and the CLI's files.
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
    /// The preprocessing's parameters.
    #[command(flatten, next_help_heading = "Indexify")]
    pub settings: Settings,
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
            && (self.settings.seeds_file.is_some()
                || self.settings.add_seeds_file.is_some()
                || self.settings.fplus.is_some()
                || self.output_indexed_ir.is_some())
        {
            bail!("--seeds, --add-seeds, --index-fplus and --output-indexed-ir need --indexify");
        }
        Ok(())
    }

    /// The settings of a run from `entry`.
    fn settings(&self, entry: &str) -> Settings {
        Settings {
            strings: self.indexify.contains(&IndexType::Strings),
            floats: self.indexify.contains(&IndexType::Floats),
            entry: entry.to_string(),
            ..self.settings.clone()
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
