//! `--seed-file`, `--seed-dir`, `--seed-format`: the seeds read before the run (how they
//! are used is the engine's `SeedConfig`: `--only-seed`, `--allow-seed-extension`, ...).
//!
//! A `.ktest` seed gives its objects as they are. A raw file (a fuzzer's corpus entry)
//! becomes a *partial* seed of the POSIX model, matched by name: `raw-stdin` gives the
//! object `stdin` (`--sym-stdin N`), `raw-file` the object `A-data` (the first file of
//! `--sym-files`), `raw-args` the arguments `arg00`, `arg01`, ... (`--sym-arg`/`--sym-args`;
//! the file's arguments are separated by NUL bytes, as in `/proc/PID/cmdline`, a trailing
//! NUL optional) and `n_args`, their number. Every other symbolic object stays free.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{bail, Context, Result};
use sear_engine::seed::{SeedInput, SeedObject};
use sear_engine::EngineConfig;

/// What the seed files hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SeedFormat {
    /// `.ktest` files (a `--seed-dir` takes its `*.ktest`).
    Ktest,
    /// Raw bytes: the content of the symbolic stdin (`--sym-stdin`).
    RawStdin,
    /// Raw bytes: the content of the first symbolic file (`A-data`, `--sym-files`).
    RawFile,
    /// Raw bytes: the symbolic arguments (`--sym-arg`, `--sym-args`), NUL-separated.
    RawArgs,
}

/// Seed options of `sear run`.
#[derive(Debug, Clone, clap::Args)]
pub struct SeedArgs {
    /// Seed the run with FILE (repeatable): a `.ktest` (or a raw file, `--seed-format`)
    /// whose inputs decide branches without solver queries; exploration widens around it
    /// (docs/seeds.md).
    #[arg(long = "seed-file", value_name = "FILE")]
    pub seed_file: Vec<PathBuf>,
    /// Seed the run with every `.ktest` in DIR (every file, for a raw `--seed-format`), in
    /// name order (repeatable).
    #[arg(long = "seed-dir", value_name = "DIR")]
    pub seed_dir: Vec<PathBuf>,
    /// What seed files hold: ktest, raw-stdin, raw-file or raw-args (a fuzzer's corpus:
    /// raw-args separates arguments with NUL bytes).
    #[arg(
        long = "seed-format",
        value_name = "FORMAT",
        value_enum,
        default_value = "ktest"
    )]
    pub seed_format: SeedFormat,
}

impl SeedArgs {
    /// Reads the seeds into the engine configuration (a missing or malformed file is an
    /// error naming it).
    pub fn apply(&self, config: &mut EngineConfig) -> Result<()> {
        let mut files: Vec<PathBuf> = Vec::new();
        for file in &self.seed_file {
            if !file.is_file() {
                bail!("--seed-file {}: no such file", file.display());
            }
            files.push(file.clone());
        }
        for dir in &self.seed_dir {
            files.extend(self.dir_files(dir)?);
        }
        for file in files {
            let seed = self
                .read(&file)
                .with_context(|| format!("seed {}", file.display()))?;
            config.seeding.seeds.push(Arc::new(seed));
        }
        Ok(())
    }

    /// The seed files of `dir`, in name order.
    fn dir_files(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let entries =
            std::fs::read_dir(dir).with_context(|| format!("--seed-dir {}", dir.display()))?;
        let mut files = Vec::new();
        for entry in entries {
            let path = entry
                .with_context(|| format!("--seed-dir {}", dir.display()))?
                .path();
            let hidden = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'));
            let wanted = match self.seed_format {
                SeedFormat::Ktest => path.extension().is_some_and(|e| e == "ktest"),
                _ => !hidden,
            };
            if wanted && path.is_file() {
                files.push(path);
            }
        }
        files.sort();
        if files.is_empty() {
            let what = match self.seed_format {
                SeedFormat::Ktest => ".ktest files",
                _ => "files",
            };
            bail!("--seed-dir {}: no {what} in it", dir.display());
        }
        Ok(files)
    }

    /// One seed file as a seed.
    fn read(&self, file: &Path) -> Result<SeedInput> {
        let source = file.display().to_string();
        if self.seed_format == SeedFormat::Ktest {
            let test = sear_ktest::KTest::read(file).map_err(|e| anyhow::anyhow!("{e}"))?;
            let objects = test
                .objects
                .into_iter()
                .map(|o| SeedObject {
                    name: o.name,
                    bytes: o.bytes,
                    pads: false,
                })
                .collect();
            return Ok(SeedInput {
                source,
                objects,
                partial: false,
            });
        }
        let bytes = std::fs::read(file)?;
        let object = |name: &str, bytes: Vec<u8>, pads: bool| SeedObject {
            name: name.to_string(),
            bytes,
            pads,
        };
        let objects = match self.seed_format {
            SeedFormat::RawStdin => vec![object("stdin", bytes, false)],
            SeedFormat::RawFile => vec![object("A-data", bytes, false)],
            SeedFormat::RawArgs => raw_args(&bytes)
                .into_iter()
                .enumerate()
                .map(|(i, arg)| object(&format!("arg{i:02}"), arg, true))
                .collect(),
            SeedFormat::Ktest => unreachable!("read above"),
        };
        let mut objects = objects;
        if self.seed_format == SeedFormat::RawArgs {
            let n = objects.len() as i32;
            objects.push(object("n_args", n.to_le_bytes().to_vec(), false));
        }
        Ok(SeedInput {
            source,
            objects,
            partial: true,
        })
    }
}

/// The arguments of a raw-args seed: NUL-separated, a trailing NUL optional.
fn raw_args(bytes: &[u8]) -> Vec<Vec<u8>> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(&[0]).unwrap_or(bytes);
    body.split(|b| *b == 0).map(<[u8]>::to_vec).collect()
}

#[cfg(test)]
mod tests {
    use super::raw_args;

    #[test]
    fn raw_arguments_are_nul_separated() {
        assert_eq!(raw_args(b""), Vec::<Vec<u8>>::new());
        assert_eq!(
            raw_args(b"-n\0abc\0"),
            vec![b"-n".to_vec(), b"abc".to_vec()]
        );
        assert_eq!(raw_args(b"x"), vec![b"x".to_vec()]);
        assert_eq!(raw_args(b"\0"), vec![Vec::<u8>::new()]);
    }
}
