//! The tests of an output directory: its `info.json`, its `.ktest` files in test-number
//! order and their `.err` files. Shared by `sear replay` and `sear coverage`; also reads
//! KLEE's output directories (no `info.json`: the program is given on the command line, and
//! tests that carry the POSIX model's `model_version` object are replayed as model tests).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::Deserialize;

use super::errfile::{self, ErrInfo};
use super::posix;

/// True when a test was made with the POSIX model: its command line has the model's options
/// (`--sym-arg`, `-sym-files`, ...) or it has the `model_version` object.
pub fn uses_posix_model(ktest: &sear_ktest::KTest) -> bool {
    const OPTIONS: &[&str] = &[
        "sym-arg",
        "sym-args",
        "sym-files",
        "sym-stdin",
        "sym-stdout",
        "fd-fail",
        "max-fail",
    ];
    ktest.objects.iter().any(|o| o.name == "model_version")
        || ktest.args.iter().skip(1).any(|a| {
            let bare = a.trim_start_matches('-');
            a.starts_with('-') && OPTIONS.contains(&bare)
        })
}

/// The tests of one output directory, loaded.
#[derive(Debug)]
pub struct TestSet {
    /// The output directory.
    pub dir: PathBuf,
    /// Its tests, in test-number order.
    pub cases: Vec<TestCase>,
    /// Its `info.json` (defaults when there is none).
    pub info: RunInfo,
    /// The error each test's `.err` file names, if any.
    pub expected: Vec<Option<ErrInfo>>,
}

impl TestSet {
    /// Loads an output directory (or one `.ktest` file in one).
    pub fn load(target: &Path) -> Result<TestSet> {
        let (dir, cases) = discover(target)?;
        let mut info = read_info(&dir)?;
        if !dir.join("info.json").is_file() {
            // KLEE's output directories have no info.json: its POSIX runtime's tests carry
            // the model's options in their command line (and, before KLEE 3, end with the
            // `model_version` object, as sear's do).
            info.posix_model = cases
                .iter()
                .any(|c| sear_ktest::KTest::read(&c.ktest).is_ok_and(|k| uses_posix_model(&k)));
        }
        let expected = cases
            .iter()
            .map(|case| {
                case.err
                    .as_ref()
                    .map(|(path, kind)| errfile::read_err_file(path, kind))
                    .transpose()
            })
            .collect::<Result<_>>()?;
        Ok(TestSet {
            dir,
            cases,
            info,
            expected,
        })
    }

    /// The program to build: `explicit`, or the one info.json names (relative names are
    /// looked up in the output directory first).
    pub fn program(&self, explicit: Option<&Path>) -> Result<PathBuf> {
        Ok(match (explicit, &self.info.program) {
            (Some(program), _) => program.to_path_buf(),
            (None, Some(program)) if program.is_relative() && self.dir.join(program).is_file() => {
                self.dir.join(program)
            }
            (None, Some(program)) => program.clone(),
            (None, None) => bail!(
                "no program to build: pass --program, or use an output directory whose \
                 info.json names it ({})",
                self.dir.display()
            ),
        })
    }

    /// True if some test asks for failure injection (`--fd-fail`).
    pub fn uses_fd_fail(&self) -> bool {
        self.info.posix_model
            && self
                .cases
                .iter()
                .any(|c| sear_ktest::KTest::read(&c.ktest).is_ok_and(|k| posix::uses_fd_fail(&k)))
    }
}

/// `info.json` in an output directory.
#[derive(Debug, Default, Deserialize)]
pub struct RunInfo {
    /// The program `sear run` was given.
    pub program: Option<PathBuf>,
    /// Its compiler flags.
    #[serde(default)]
    pub cflags: Vec<String>,
    /// The run used the C runtime's entry (argv holds the POSIX model's options).
    #[serde(default)]
    pub posix_model: bool,
    /// The --host-file files.
    #[serde(default)]
    pub host_files: Vec<posix::HostFile>,
    /// Bitcode libraries linked with --link-llvm-lib.
    #[serde(default)]
    pub link_llvm_libs: Vec<PathBuf>,
    /// The program's environment when the run took it from --env-file; otherwise the
    /// replay's own environment is the program's, as sear's was.
    #[serde(default)]
    pub environment: Option<Vec<String>>,
}

impl RunInfo {
    /// The environment to give the native run (entries as name/value pairs).
    pub fn program_env(&self) -> Vec<(String, String)> {
        let entries = match &self.environment {
            Some(recorded) => sear_runtime::environment::normalise(recorded.iter().cloned()),
            None => sear_runtime::environment::from_host(),
        };
        entries
            .iter()
            .map(|e| {
                let (k, v) = sear_runtime::environment::split_entry(e);
                (k.to_string(), v.to_string())
            })
            .collect()
    }
}

pub fn read_info(dir: &Path) -> Result<RunInfo> {
    let path = dir.join("info.json");
    if !path.is_file() {
        return Ok(RunInfo::default());
    }
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))
}

/// One test to replay: its `.ktest` and its `.err` file with the kind, if any.
#[derive(Clone, Debug)]
pub struct TestCase {
    /// The `.ktest` file.
    pub ktest: PathBuf,
    /// Its number (`test000012` is 12).
    pub number: u64,
    /// Its `.err` file and the error kind.
    pub err: Option<(PathBuf, String)>,
}

/// Finds the tests of an output directory (or the one named), in test-number order.
pub fn discover(target: &Path) -> Result<(PathBuf, Vec<TestCase>)> {
    let (dir, only) = if target.is_dir() {
        (target.to_path_buf(), None)
    } else if target.is_file() {
        let name = target
            .file_name()
            .and_then(|n| n.to_str())
            .context("bad .ktest file name")?;
        let dir = target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        (dir.to_path_buf(), Some(name.to_string()))
    } else {
        bail!(
            "{} is neither a directory nor a .ktest file",
            target.display()
        );
    };
    let mut ktests = Vec::new();
    let mut errs = Vec::new();
    for entry in std::fs::read_dir(&dir).with_context(|| format!("listing {}", dir.display()))? {
        let entry = entry?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        if let Some(stem) = name.strip_suffix(".ktest") {
            if errfile::is_test_stem(stem) || only.as_deref() == Some(name.as_str()) {
                ktests.push((stem.to_string(), entry.path()));
            }
        } else if let Some((stem, kind)) = errfile::split_err_name(&name) {
            errs.push((stem.to_string(), kind.to_string(), entry.path()));
        }
    }
    if let Some(only) = &only {
        ktests.retain(|(stem, _)| format!("{stem}.ktest") == *only);
        if ktests.is_empty() {
            bail!("{} is not a .ktest file", target.display());
        }
    }
    errs.sort();
    let mut cases: Vec<TestCase> = ktests
        .into_iter()
        .map(|(stem, ktest)| TestCase {
            number: stem.trim_start_matches("test").parse().unwrap_or(u64::MAX),
            err: errs
                .iter()
                .find(|(s, _, _)| *s == stem)
                .map(|(_, kind, path)| (path.clone(), kind.clone())),
            ktest,
        })
        .collect();
    cases.sort_by(|a, b| (a.number, &a.ktest).cmp(&(b.number, &b.ktest)));
    Ok((dir, cases))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_ktest::{KTest, KTestObject};

    fn ktest(args: &[&str], objects: &[&str]) -> KTest {
        KTest {
            args: args.iter().map(|s| s.to_string()).collect(),
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: objects
                .iter()
                .map(|n| KTestObject {
                    name: n.to_string(),
                    bytes: vec![0; 4],
                })
                .collect(),
        }
    }

    #[test]
    fn posix_model_tests_are_recognised() {
        // KLEE 3: the options in the command line, no model_version.
        assert!(uses_posix_model(&ktest(
            &["prog.bc", "--sym-args", "0", "1", "10"],
            &["n_args", "arg00"]
        )));
        assert!(uses_posix_model(&ktest(
            &["p", "-sym-stdin", "8"],
            &["stdin"]
        )));
        // sear and KLEE 2: model_version.
        assert!(uses_posix_model(&ktest(&["p"], &["model_version"])));
        assert!(!uses_posix_model(&ktest(&["p", "sym-args"], &["x"])));
        assert!(!uses_posix_model(&ktest(&["p"], &["x"])));
    }
}
