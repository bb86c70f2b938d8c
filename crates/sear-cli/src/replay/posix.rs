//! Setting up a test's environment for its native run: argv, stdin and files rebuilt from
//! the POSIX model's objects (`n_args`, `arg00`, `A-data`, `stdin`, ...; see
//! `sear_runtime::options`), as KLEE's klee-replay does, in a fresh directory per test.
//! The model's objects come first in a test; the replay runtime skips them
//! (`SEAR_KTEST_SKIP`) and feeds the rest to the program's own `klee_make_symbolic` calls.

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use sear_ktest::KTest;
use sear_runtime::options::{native_inputs, ModelOptions};
use serde::Deserialize;

/// A `--host-file` as recorded in info.json.
#[derive(Clone, Debug, Deserialize)]
pub struct HostFile {
    /// The name the program opens.
    pub name: String,
    /// The file on the host.
    pub source: PathBuf,
}

/// A native run's command line, stdin and environment.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// argv[0].
    pub argv0: OsString,
    /// argv[1..].
    pub args: Vec<OsString>,
    /// The file to redirect stdin from.
    pub stdin: Option<PathBuf>,
    /// Environment variables for the replay runtime.
    pub env: Vec<(String, String)>,
}

/// Prepares `dir` (created, empty) and the command line for `ktest`. With `posix_model`,
/// argv and files come from the model's objects; otherwise the recorded argv is used.
pub fn prepare(
    ktest: &KTest,
    posix_model: bool,
    hosts: &[HostFile],
    dir: &Path,
) -> Result<Setup, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let argv0 = OsString::from(ktest.args.first().map_or("prog", String::as_str));
    let recorded = ktest.args.get(1..).unwrap_or(&[]);
    if !posix_model {
        return Ok(Setup {
            argv0,
            args: recorded.iter().map(OsString::from).collect(),
            ..Setup::default()
        });
    }
    let options = ModelOptions::parse(recorded).map_err(|e| e.to_string())?;
    let objects: Vec<(String, Vec<u8>)> = ktest
        .objects
        .iter()
        .map(|o| (o.name.clone(), o.bytes.clone()))
        .collect();
    let inputs =
        native_inputs(&options, &objects).map_err(|e| format!("POSIX model objects: {e}"))?;
    for (name, contents) in &inputs.files {
        write_file(&dir.join(name), contents, 0o644)?;
    }
    for host in hosts {
        let relative = Path::new(&host.name);
        if relative.is_absolute() || relative.components().any(|c| c.as_os_str() == "..") {
            continue; // read in place
        }
        let target = dir.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("creating {}: {e}", parent.display()))?;
        }
        std::fs::copy(&host.source, &target)
            .map_err(|e| format!("copying --host-file {}: {e}", host.source.display()))?;
        // Read-only, as under sear.
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o444))
            .map_err(|e| format!("chmod {}: {e}", target.display()))?;
    }
    let stdin = match &inputs.stdin {
        Some(bytes) => {
            let path = dir.with_extension("stdin");
            write_file(&path, bytes, 0o644)?;
            Some(path)
        }
        None => None,
    };
    let mut env = vec![(
        "SEAR_KTEST_SKIP".to_string(),
        inputs.model_objects.to_string(),
    )];
    if options.max_fail > 0 {
        env.push(("SEAR_MAX_FAIL".into(), options.max_fail.to_string()));
        env.push((
            "SEAR_READ_FAIL".into(),
            inputs.read_fail.unwrap_or(0).to_string(),
        ));
        env.push((
            "SEAR_WRITE_FAIL".into(),
            inputs.write_fail.unwrap_or(0).to_string(),
        ));
        env.push((
            "SEAR_CLOSE_FAIL".into(),
            inputs.close_fail.unwrap_or(0).to_string(),
        ));
    }
    Ok(Setup {
        argv0,
        args: inputs.args.into_iter().map(OsString::from_vec).collect(),
        stdin,
        env,
    })
}

/// True if a test's command line asks for failure injection (the replay build then
/// interposes `read` and `write`).
pub fn uses_fd_fail(ktest: &KTest) -> bool {
    ModelOptions::parse(ktest.args.get(1..).unwrap_or(&[])).is_ok_and(|o| o.max_fail > 0)
}

fn write_file(path: &Path, bytes: &[u8], mode: u32) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .map_err(|e| format!("chmod {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sear_ktest::KTestObject;

    fn ktest(args: &[&str], objects: &[(&str, &[u8])]) -> KTest {
        KTest {
            args: args.iter().map(|s| s.to_string()).collect(),
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: objects
                .iter()
                .map(|(n, b)| KTestObject {
                    name: n.to_string(),
                    bytes: b.to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn posix_tests_get_argv_files_and_stdin() {
        let dir = tempfile::tempdir().unwrap();
        let stat = [0u8; 144];
        let t = ktest(
            &[
                "wc",
                "-l",
                "--sym-arg",
                "2",
                "--sym-files",
                "1",
                "2",
                "--sym-stdin",
                "3",
            ],
            &[
                ("arg00", b"A\0\0"),
                ("A-data", b"hi"),
                ("A-data-stat", &stat),
                ("stdin", b"a\nb"),
                ("stdin-stat", &stat),
                ("model_version", &[1, 0, 0, 0]),
            ],
        );
        let case = dir.path().join("test000001");
        let setup = prepare(&t, true, &[], &case).unwrap();
        assert_eq!(setup.argv0, "wc");
        assert_eq!(setup.args, vec![OsString::from("-l"), OsString::from("A")]);
        assert_eq!(std::fs::read(case.join("A")).unwrap(), b"hi");
        assert_eq!(std::fs::read(setup.stdin.unwrap()).unwrap(), b"a\nb");
        assert_eq!(
            setup.env,
            vec![("SEAR_KTEST_SKIP".to_string(), "6".to_string())]
        );
    }

    #[test]
    fn plain_tests_keep_their_command_line() {
        let dir = tempfile::tempdir().unwrap();
        let t = ktest(&["p", "--sym-arg", "2"], &[("x", b"1")]);
        let setup = prepare(&t, false, &[], &dir.path().join("c")).unwrap();
        assert_eq!(
            setup.args,
            vec![OsString::from("--sym-arg"), OsString::from("2")]
        );
        assert!(setup.env.is_empty());
    }

    #[test]
    fn mismatched_objects_are_setup_errors() {
        let dir = tempfile::tempdir().unwrap();
        let t = ktest(&["p", "--sym-arg", "2"], &[("x", b"1")]);
        let e = prepare(&t, true, &[], &dir.path().join("c")).unwrap_err();
        assert!(e.contains("arg00"), "{e}");
        assert!(uses_fd_fail(&ktest(&["p", "--fd-fail"], &[])));
        assert!(!uses_fd_fail(&ktest(&["p"], &[])));
    }
}
