//! `sear run`'s C-runtime options and linking: the POSIX model's options given to sear
//! (forwarded into the program's argv, where the runtime's entry reads them, as KLEE does),
//! `--host-file`, and linking the program with the runtime's bitcode — the entry in whole,
//! libc and the model only as needed (`llvm-link --only-needed`).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use sear_runtime::host_files::{self, HostFile};
use sear_runtime::options::{ModelOptions, MAX_OPTION_VALUE};

/// The values of the model's numeric options: 0 to [`MAX_OPTION_VALUE`] (the counts have
/// lower limits, checked by [`ModelOptions::parse`] with a message naming them).
fn size_parser() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(0..=MAX_OPTION_VALUE as i64)
}

/// The default of --max-host-file-size: 4 MiB.
pub const DEFAULT_MAX_HOST_FILE_SIZE: u64 = 4 << 20;

/// The runtime options of `sear run`.
#[derive(Debug, Default, clap::Args)]
pub struct RuntimeArgs {
    /// Adds a symbolic argument of up to N bytes (0 to 10^8; repeatable). sear's own model options are
    /// placed before the program's arguments, in this order: --sym-arg, --sym-args,
    /// --sym-files, --sym-stdin, --sym-stdout, --fd-fail/--max-fail; to interleave them
    /// with concrete arguments, write them among the program's arguments instead.
    #[arg(long = "sym-arg", value_name = "N", value_parser = size_parser(), help_heading = "Environment model")]
    pub sym_arg: Vec<u32>,
    /// Adds MIN to MAX symbolic arguments (at most 100 in all) of up to N bytes each (0 to
    /// 10^8; repeatable).
    #[arg(long = "sym-args", num_args = 3, value_parser = size_parser(), value_names = ["MIN", "MAX", "N"], action = clap::ArgAction::Append, help_heading = "Environment model")]
    pub sym_args: Vec<u32>,
    /// NUM symbolic files (at most 26) named A, B, ... of N bytes each (0 to 10^8).
    #[arg(long = "sym-files", num_args = 2, value_parser = size_parser(), value_names = ["NUM", "N"], action = clap::ArgAction::Append, help_heading = "Environment model")]
    pub sym_files: Option<Vec<u32>>,
    /// N symbolic bytes on stdin (0 to 10^8).
    #[arg(
        long = "sym-stdin",
        value_name = "N",
        value_parser = size_parser(),
        help_heading = "Environment model"
    )]
    pub sym_stdin: Option<u32>,
    /// Gives stdout a symbolic file status (KLEE's --sym-stdout).
    #[arg(long = "sym-stdout", help_heading = "Environment model")]
    pub sym_stdout: bool,
    /// Lets one read and one write fail with EIO (symbolic read_fail/write_fail).
    #[arg(long = "fd-fail", help_heading = "Environment model")]
    pub fd_fail: bool,
    /// Like --fd-fail, with up to N failures (0 to 10^8).
    #[arg(
        long = "max-fail",
        value_name = "N",
        value_parser = size_parser(),
        help_heading = "Environment model"
    )]
    pub max_fail: Option<u32>,
    /// Gives the symbolic arguments, files and stdin symbolic lengths up to their bounds
    /// (seed 003 Ch. 5; use with --sym-size-mode=fork-lazy, sm or smopt, which keep the
    /// lengths symbolic).
    #[arg(long = "sym-size-inputs", help_heading = "Environment model")]
    pub sym_size_inputs: bool,
    /// Makes a read-only copy of a host file visible to the program under PATH (repeatable).
    #[arg(
        long = "host-file",
        value_name = "PATH",
        help_heading = "Environment model"
    )]
    pub host_file: Vec<PathBuf>,
    /// The largest --host-file accepted, in bytes (at most 1 GiB); a larger file, or one that
    /// is not a regular file (a device, a FIFO, a directory), is refused before exploring.
    #[arg(
        long = "max-host-file-size",
        value_name = "BYTES",
        default_value_t = DEFAULT_MAX_HOST_FILE_SIZE,
        value_parser = clap::value_parser!(u64).range(0..=1 << 30),
        help_heading = "Environment model"
    )]
    pub max_host_file_size: u64,
    /// Gives the program the environment in FILE (one NAME=value a line, as KLEE's
    /// --env-file) instead of sear's own environment (without sear's and the sanitizers'
    /// SEAR_*, ASAN_OPTIONS, UBSAN_OPTIONS and ASAN_SYMBOLIZER_PATH variables).
    #[arg(
        long = "env-file",
        value_name = "FILE",
        help_heading = "Environment model"
    )]
    pub env_file: Option<PathBuf>,
    /// Does not link sear's C runtime (libc and the POSIX model); the program's main is
    /// called directly and library calls are unsupported.
    #[arg(long = "no-runtime", help_heading = "Environment model")]
    pub no_runtime: bool,
}

/// A host file recorded in info.json for replay.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct HostFileInfo {
    /// The name the program opens.
    pub name: String,
    /// The absolute path of the file on the host.
    pub source: PathBuf,
}

impl RuntimeArgs {
    /// The model options given to sear, as program arguments.
    pub fn forwarded(&self) -> Vec<String> {
        let mut out = Vec::new();
        for n in &self.sym_arg {
            out.extend(["--sym-arg".to_string(), n.to_string()]);
        }
        for triple in self.sym_args.chunks(3) {
            out.push("--sym-args".into());
            out.extend(triple.iter().map(u32::to_string));
        }
        if let Some(files) = &self.sym_files {
            out.push("--sym-files".into());
            out.extend(files.iter().map(u32::to_string));
        }
        if let Some(n) = self.sym_stdin {
            out.extend(["--sym-stdin".to_string(), n.to_string()]);
        }
        if self.sym_stdout {
            out.push("--sym-stdout".into());
        }
        if let Some(n) = self.max_fail {
            out.extend(["--max-fail".to_string(), n.to_string()]);
        } else if self.fd_fail {
            out.push("--fd-fail".into());
        }
        if self.sym_size_inputs {
            out.push("--sym-size-inputs".into());
        }
        out
    }

    /// The program's argv: its name, the forwarded options, then its own arguments; checks
    /// the model options (they would otherwise fail on every path).
    pub fn program_argv(&self, name: &str, args: &[String]) -> Result<Vec<String>> {
        if self.sym_files.as_ref().is_some_and(|f| f.len() > 2) {
            bail!("--sym-files: given more than once (KLEE refuses it too)");
        }
        let forwarded = self.forwarded();
        if self.no_runtime && (!forwarded.is_empty() || !self.host_file.is_empty()) {
            bail!("--no-runtime cannot be combined with the environment model's options");
        }
        let mut argv = vec![name.to_string()];
        argv.extend(forwarded);
        argv.extend(args.iter().cloned());
        if !self.no_runtime {
            ModelOptions::parse(&argv[1..]).map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        Ok(argv)
    }

    /// The program's environment: the --env-file's entries, or sear's own environment.
    pub fn environment(&self) -> Result<Vec<String>> {
        match &self.env_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("--env-file {}", path.display()))?;
                Ok(sear_runtime::environment::parse_env_file(&text))
            }
            None => Ok(sear_runtime::environment::from_host()),
        }
    }

    /// The --host-file files: each visible under the path as given and its absolute path.
    pub fn host_files(&self) -> Result<(Vec<HostFile>, Vec<HostFileInfo>)> {
        let mut files = Vec::new();
        let mut infos = Vec::new();
        for path in &self.host_file {
            let contents = read_host_file(path, self.max_host_file_size)?;
            let source = path
                .canonicalize()
                .with_context(|| format!("--host-file {}", path.display()))?;
            let given = path.to_string_lossy().into_owned();
            let absolute = source.to_string_lossy().into_owned();
            files.push(HostFile {
                name: given.clone(),
                contents: contents.clone(),
            });
            if absolute != given {
                files.push(HostFile {
                    name: absolute,
                    contents,
                });
            }
            infos.push(HostFileInfo {
                name: given,
                source,
            });
        }
        Ok((files, infos))
    }

    /// Links `program` (bitcode) with the runtime into `scratch/linked.bc`: the entry (when
    /// `with_entry`) and the host-file table in whole, libc and the model as needed.
    pub fn link(
        &self,
        program: &Path,
        scratch: &Path,
        with_entry: bool,
        hosts: &[HostFile],
        target: &sear_ir::Target,
    ) -> Result<PathBuf> {
        let i386 = target.data_model == sear_ir::DataModel::Ilp32;
        let bitcode =
            sear_runtime::write_bitcode(scratch, i386).context("writing the runtime's bitcode")?;
        let table = scratch.join("sear-host-files.ll");
        std::fs::write(
            &table,
            host_files::module_for_target(
                hosts,
                &host_files::HostStat::of_current_dir(),
                &target.data_layout,
                &target.triple,
            ),
        )
        .with_context(|| format!("writing {}", table.display()))?;
        let mut inputs = vec![program.to_path_buf()];
        if with_entry {
            inputs.push(bitcode.entry);
        }
        inputs.push(table);
        let linked = scratch.join("linked.bc");
        sear_ir::frontend::link_with_libraries(&inputs, &[bitcode.libc], &linked)
            .map_err(|e| anyhow::anyhow!("linking with sear's runtime: {e}"))?;
        Ok(linked)
    }
}

/// Reads a --host-file: a regular file of at most `max` bytes.
fn read_host_file(path: &Path, max: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let what = || format!("--host-file {}", path.display());
    let metadata = std::fs::metadata(path).with_context(what)?;
    if !metadata.is_file() {
        let kind = if metadata.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, FIFO or socket)"
        };
        bail!("--host-file {}: is {kind}", path.display());
    }
    let too_big = |size: u64| {
        anyhow::anyhow!(
            "--host-file {}: {size} bytes is more than --max-host-file-size ({max} bytes)",
            path.display()
        )
    };
    if metadata.len() > max {
        return Err(too_big(metadata.len()));
    }
    // The file may grow after the check: never read more than the limit.
    let mut contents = Vec::with_capacity(metadata.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(max + 1).read_to_end(&mut contents))
        .with_context(what)?;
    if contents.len() as u64 > max {
        return Err(too_big(contents.len() as u64));
    }
    Ok(contents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_forwarded_in_a_fixed_order() {
        let args = RuntimeArgs {
            sym_arg: vec![3],
            sym_args: vec![0, 2, 4, 1, 1, 5],
            sym_files: Some(vec![2, 8]),
            sym_stdin: Some(8),
            sym_stdout: true,
            fd_fail: true,
            ..RuntimeArgs::default()
        };
        let argv = args.program_argv("prog", &["-x".to_string()]).unwrap();
        assert_eq!(
            argv.join(" "),
            "prog --sym-arg 3 --sym-args 0 2 4 --sym-args 1 1 5 --sym-files 2 8 --sym-stdin 8 --sym-stdout --fd-fail -x"
        );
    }

    #[test]
    fn bad_options_in_program_arguments_are_rejected() {
        let args = RuntimeArgs::default();
        assert!(args.program_argv("p", &["--sym-arg".to_string()]).is_err());
        assert!(args
            .program_argv(
                "p",
                &["--sym-args".into(), "2".into(), "1".into(), "3".into()]
            )
            .is_err());
        assert!(args
            .program_argv("p", &["--sym-arg".into(), "2".into()])
            .is_ok());
    }

    #[test]
    fn no_runtime_excludes_model_options() {
        let args = RuntimeArgs {
            no_runtime: true,
            sym_stdin: Some(1),
            ..RuntimeArgs::default()
        };
        assert!(args.program_argv("p", &[]).is_err());
        let plain = RuntimeArgs {
            no_runtime: true,
            ..RuntimeArgs::default()
        };
        assert_eq!(
            plain.program_argv("p", &["--sym-arg".into()]).unwrap(),
            vec!["p", "--sym-arg"]
        );
    }
}
