//! The POSIX model's command-line options, as the runtime's entry parses them out of the
//! program's argv (`runtime/src/posix/env.c`), and the inverse for native replay: which
//! `.ktest` objects they create and how to rebuild argv, stdin and files from them.
//!
//! | option | objects (in creation order) |
//! |---|---|
//! | `--sym-arg N` | `argNN` (N + 1 bytes, the last one NUL) |
//! | `--sym-args MIN MAX N` | `n_args` (an int in MIN..=MAX; absent when MIN = MAX), then that many `argNN` |
//! | `--sym-files NUM N` | `A-data` (N bytes), `A-data-stat` (a `struct stat`), `B-data`, ... |
//! | `--sym-stdin N` | `stdin`, `stdin-stat` |
//! | `--fd-fail`, `--max-fail N` | `read_fail`, `write_fail`, `close_fail`, `ftruncate_fail`, `getcwd_fail` (ints; the last two only for KLEE's klee-replay) |
//! | `--sym-stdout` | `stdout` (1024 bytes), `stdout-stat` |
//! | any of them | `model_version` (the int 1), last |
//!
//! With `--sym-size-inputs` (seed 003 Ch. 5), every `argNN`, `X-data` and `stdin` is preceded
//! by its symbolic length, `argNN-size`, `X-data-size`, `stdin-size` (a `size_t` up to the
//! option's bound), and holds that many bytes (an argument one more, its NUL).
//!
//! Arguments are numbered `arg00`, `arg01`, ... across all `--sym-arg(s)`. Every option
//! also has a one-dash spelling. `--save-all-writes` is accepted (and removed) as in KLEE,
//! without effect. Order and sizes are KLEE's, so KLEE's klee-replay accepts the tests.

/// The failure counters of `--fd-fail`, in creation order.
pub const FAIL_OBJECTS: [&str; 5] = [
    "read_fail",
    "write_fail",
    "close_fail",
    "ftruncate_fail",
    "getcwd_fail",
];

/// Size of glibc's `struct stat` on x86-64 (the `*-stat` objects).
pub const STAT_SIZE: usize = 144;

/// Size of glibc's `struct stat` on i386 (the `*-stat` objects of a 32-bit program).
pub const STAT_SIZE_I386: usize = 88;

/// Most symbolic arguments (as in KLEE).
pub const MAX_SYM_ARGS: u32 = 100;

/// Most symbolic files (A to Z).
pub const MAX_SYM_FILES: u32 = 26;

/// The largest number any option accepts (sizes and counts; the counts have lower limits).
pub const MAX_OPTION_VALUE: u32 = 100_000_000;

/// Size of the symbolic stdout (`--sym-stdout`).
pub const SYM_STDOUT_SIZE: usize = 1024;

/// One argument position of the program's command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A concrete argument.
    Plain(String),
    /// `--sym-arg N`: one symbolic argument of up to `len` bytes.
    SymArg {
        /// Maximum length.
        len: u32,
    },
    /// `--sym-args MIN MAX N`: `min` to `max` symbolic arguments of up to `len` bytes.
    SymArgs {
        /// Fewest arguments.
        min: u32,
        /// Most arguments.
        max: u32,
        /// Maximum length of each.
        len: u32,
    },
}

/// A command line split into arguments and model options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelOptions {
    /// The arguments after argv[0], in order.
    pub args: Vec<Arg>,
    /// `--sym-files NUM N`: number of files and size of each (once, NUM and N not 0).
    pub files: Option<(u32, u32)>,
    /// `--sym-stdin N`.
    pub stdin: Option<u32>,
    /// `--sym-stdout`.
    pub sym_stdout: bool,
    /// `--fd-fail` (1) or `--max-fail N`: injected read/write failures allowed.
    pub max_fail: u32,
    /// `--save-all-writes` (no effect, accepted for KLEE compatibility).
    pub save_all_writes: bool,
    /// `--sym-size-inputs`: arguments, files and stdin of symbolic lengths.
    pub sym_size_inputs: bool,
}

/// A malformed model option or a test that does not match the options.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OptionError(pub String);

fn err<T>(message: impl Into<String>) -> Result<T, OptionError> {
    Err(OptionError(message.into()))
}

/// The option name if `arg` is `--name` or `-name` for a model option.
fn option_name(arg: &str) -> Option<&str> {
    let name = arg.strip_prefix("--").or_else(|| arg.strip_prefix('-'))?;
    [
        "sym-arg",
        "sym-args",
        "sym-files",
        "sym-stdin",
        "sym-stdout",
        "fd-fail",
        "max-fail",
        "save-all-writes",
        "sym-size-inputs",
    ]
    .into_iter()
    .find(|n| *n == name)
}

/// True if `arg` is one of the model's options.
pub fn is_model_option(arg: &str) -> bool {
    option_name(arg).is_some()
}

fn number(args: &[String], at: usize, usage: &str) -> Result<u32, OptionError> {
    let Some(text) = args.get(at) else {
        return err(usage);
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return err(usage);
    }
    match text.parse::<u64>() {
        Ok(n) if n <= MAX_OPTION_VALUE as u64 => Ok(n as u32),
        _ => err(format!(
            "{usage} (a number from 0 to {MAX_OPTION_VALUE}, not {text})"
        )),
    }
}

impl ModelOptions {
    /// Parses the arguments after argv[0] as the runtime's entry does.
    pub fn parse(args: &[String]) -> Result<ModelOptions, OptionError> {
        let mut o = ModelOptions::default();
        let mut sym_args = 0u32;
        let mut k = 0;
        while k < args.len() {
            let Some(name) = option_name(&args[k]) else {
                o.args.push(Arg::Plain(args[k].clone()));
                k += 1;
                continue;
            };
            match name {
                "sym-arg" => {
                    let len = number(args, k + 1, "--sym-arg expects a length: --sym-arg N")?;
                    sym_args += 1;
                    o.args.push(Arg::SymArg { len });
                    k += 2;
                }
                "sym-args" => {
                    let usage = "--sym-args expects MIN MAX N: --sym-args MIN MAX N";
                    let (min, max, len) = (
                        number(args, k + 1, usage)?,
                        number(args, k + 2, usage)?,
                        number(args, k + 3, usage)?,
                    );
                    if min > max {
                        return err("invalid range to --sym-args: MIN is larger than MAX");
                    }
                    if max == 0 {
                        return err("invalid range to --sym-args: MAX is 0");
                    }
                    sym_args += max;
                    o.args.push(Arg::SymArgs { min, max, len });
                    k += 4;
                }
                "sym-files" => {
                    let usage = "--sym-files expects NUM N: --sym-files NUM N";
                    let (num, len) = (number(args, k + 1, usage)?, number(args, k + 2, usage)?);
                    if num > MAX_SYM_FILES {
                        return err("--sym-files: at most 26 files");
                    }
                    if num == 0 {
                        return err("--sym-files: the number of files cannot be 0");
                    }
                    if len == 0 {
                        return err("--sym-files: the file size cannot be 0");
                    }
                    if o.files.is_some() {
                        return err("--sym-files: given more than once (KLEE refuses it too)");
                    }
                    o.files = Some((num, len));
                    k += 3;
                }
                "sym-stdin" => {
                    o.stdin = Some(number(
                        args,
                        k + 1,
                        "--sym-stdin expects a size: --sym-stdin N",
                    )?);
                    k += 2;
                }
                "sym-stdout" => {
                    o.sym_stdout = true;
                    k += 1;
                }
                "fd-fail" => {
                    o.max_fail = 1;
                    k += 1;
                }
                "save-all-writes" => {
                    o.save_all_writes = true;
                    k += 1;
                }
                "sym-size-inputs" => {
                    o.sym_size_inputs = true;
                    k += 1;
                }
                _ => {
                    o.max_fail = number(args, k + 1, "--max-fail expects a count: --max-fail N")?;
                    k += 2;
                }
            }
            if sym_args > MAX_SYM_ARGS {
                return err("too many symbolic arguments (at most 100)");
            }
        }
        Ok(o)
    }

    /// True if any model option was given (the model then creates its objects).
    pub fn any(&self) -> bool {
        self.files.is_some()
            || self.stdin.is_some()
            || self.sym_stdout
            || self.max_fail > 0
            || self.save_all_writes
            || self.sym_size_inputs
            || self.args.iter().any(|a| !matches!(a, Arg::Plain(_)))
    }
}

/// A test's inputs for a native run, rebuilt from its objects.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NativeInputs {
    /// argv[1..].
    pub args: Vec<Vec<u8>>,
    /// Symbolic files: name (`A`, `B`, ...) and contents.
    pub files: Vec<(String, Vec<u8>)>,
    /// stdin contents (`--sym-stdin`).
    pub stdin: Option<Vec<u8>>,
    /// The failing read and write call numbers (`--fd-fail`), as the test chose them.
    pub read_fail: Option<i32>,
    /// See `read_fail`.
    pub write_fail: Option<i32>,
    /// The failing close call number (`--fd-fail`).
    pub close_fail: Option<i32>,
    /// How many leading objects the model created (the program's own follow).
    pub model_objects: usize,
}

struct Cursor<'a> {
    objects: &'a [(String, Vec<u8>)],
    at: usize,
}

impl Cursor<'_> {
    /// Takes a `*-stat` object: a `struct stat` of x86-64 or of i386 (a 32-bit program).
    fn take_stat(&mut self, name: &str) -> Result<(), OptionError> {
        let len = self.take(name, None)?.len();
        if len != STAT_SIZE && len != STAT_SIZE_I386 {
            return err(format!(
                "object '{name}' has {len} bytes, expected {STAT_SIZE} (x86-64) or \
                 {STAT_SIZE_I386} (i386)"
            ));
        }
        Ok(())
    }

    fn take(&mut self, name: &str, size: Option<usize>) -> Result<&[u8], OptionError> {
        let Some((found, bytes)) = self.objects.get(self.at) else {
            return err(format!(
                "the test has no object '{name}' (object {})",
                self.at
            ));
        };
        // KLEE 3 writes '_' where sear and KLEE 2 write '-' (A_data_stat, stdin_stat).
        if found != name && *found != name.replace('-', "_") {
            return err(format!(
                "object {} is '{found}', expected '{name}'",
                self.at
            ));
        }
        if let Some(size) = size {
            if bytes.len() != size {
                return err(format!(
                    "object '{name}' has {} bytes, expected {size}",
                    bytes.len()
                ));
            }
        }
        self.at += 1;
        Ok(bytes)
    }

    fn int(&mut self, name: &str) -> Result<i32, OptionError> {
        let b = self.take(name, Some(4))?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// The symbolic length `name`-size of `--sym-size-inputs` (a `size_t` up to `max`).
    fn size(&mut self, name: &str, max: u32) -> Result<usize, OptionError> {
        let object = format!("{name}-size");
        let b = self.take(&object, Some(8))?;
        let n = u64::from_le_bytes(b.try_into().expect("8 bytes"));
        if n > max as u64 {
            return err(format!("{object} is {n}, above {max}"));
        }
        Ok(n as usize)
    }
}

/// Rebuilds argv, files and stdin from a test's objects, checking that they are the
/// objects `options` creates, in order. KLEE 3's tests are read too: its names use `_`
/// where sear's use `-` (`A_data`, `A_data_stat`, `stdin_stat`, `stdout_stat`) and it
/// writes no `model_version`.
pub fn native_inputs(
    options: &ModelOptions,
    objects: &[(String, Vec<u8>)],
) -> Result<NativeInputs, OptionError> {
    let mut c = Cursor { objects, at: 0 };
    let mut out = NativeInputs::default();
    let mut index = 0u32;
    let sym_size = options.sym_size_inputs;
    let mut sym_arg =
        |c: &mut Cursor, len: u32, out: &mut NativeInputs| -> Result<(), OptionError> {
            let name = format!("arg{index:02}");
            index += 1;
            if sym_size {
                // A NUL-terminated string of the symbolic length.
                let n = c.size(&name, len)?;
                let bytes = &c.take(&name, Some(n + 1))?[..n];
                let end = bytes.iter().position(|&b| b == 0).unwrap_or(n);
                out.args.push(bytes[..end].to_vec());
                return Ok(());
            }
            // The runtime stores NUL over the object's last byte: the argument is the first
            // `len` bytes up to a NUL.
            let bytes = &c.take(&name, Some(len as usize + 1))?[..len as usize];
            let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
            out.args.push(bytes[..end].to_vec());
            Ok(())
        };
    for arg in &options.args {
        match *arg {
            Arg::Plain(ref s) => out.args.push(s.as_bytes().to_vec()),
            Arg::SymArg { len } => sym_arg(&mut c, len, &mut out)?,
            Arg::SymArgs { min, max, len } => {
                let n = if min == max {
                    min as i32
                } else {
                    let n = c.int("n_args")?;
                    if n < min as i32 || n > max as i32 {
                        return err(format!("n_args is {n}, outside {min}..={max}"));
                    }
                    n
                };
                for _ in 0..n {
                    sym_arg(&mut c, len, &mut out)?;
                }
            }
        }
    }
    if options.any() {
        let (files, len) = options.files.unwrap_or((0, 0));
        for k in 0..files {
            let name = ((b'A' + k as u8) as char).to_string();
            let contents = if sym_size {
                let data = format!("{name}-data");
                let n = c.size(&data, len)?;
                c.take(&data, Some(n))?.to_vec()
            } else if len > 0 {
                c.take(&format!("{name}-data"), Some(len as usize))?
                    .to_vec()
            } else {
                Vec::new()
            };
            c.take_stat(&format!("{name}-data-stat"))?;
            out.files.push((name, contents));
        }
        if let Some(len) = options.stdin.filter(|&n| n > 0) {
            let size = if sym_size {
                c.size("stdin", len)?
            } else {
                len as usize
            };
            out.stdin = Some(c.take("stdin", Some(size))?.to_vec());
            c.take_stat("stdin-stat")?;
        }
        if options.max_fail > 0 {
            out.read_fail = Some(c.int(FAIL_OBJECTS[0])?);
            out.write_fail = Some(c.int(FAIL_OBJECTS[1])?);
            out.close_fail = Some(c.int(FAIL_OBJECTS[2])?);
            for name in &FAIL_OBJECTS[3..] {
                c.int(name)?;
            }
        }
        if options.sym_stdout {
            c.take("stdout", Some(SYM_STDOUT_SIZE))?;
            c.take_stat("stdout-stat")?;
        }
        // KLEE 3 writes no model_version object.
        if c.objects
            .get(c.at)
            .is_some_and(|(n, _)| n == "model_version")
        {
            let version = c.int("model_version")?;
            if version != 1 {
                return err(format!("model_version is {version}, expected 1"));
            }
        }
    }
    out.model_objects = c.at;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    fn obj(name: &str, bytes: &[u8]) -> (String, Vec<u8>) {
        (name.to_string(), bytes.to_vec())
    }

    #[test]
    fn options_are_split_from_arguments() {
        let o = ModelOptions::parse(&strings(&[
            "-x",
            "--sym-arg",
            "3",
            "-sym-args",
            "0",
            "2",
            "4",
            "y",
            "--sym-files",
            "2",
            "8",
            "--sym-stdin",
            "5",
            "--fd-fail",
            "--sym-stdout",
        ]))
        .unwrap();
        assert_eq!(
            o.args,
            vec![
                Arg::Plain("-x".into()),
                Arg::SymArg { len: 3 },
                Arg::SymArgs {
                    min: 0,
                    max: 2,
                    len: 4
                },
                Arg::Plain("y".into())
            ]
        );
        assert_eq!(o.files, Some((2, 8)));
        assert_eq!(o.stdin, Some(5));
        assert!(o.sym_stdout);
        assert_eq!(o.max_fail, 1);
        assert!(o.any());
        assert!(!ModelOptions::parse(&strings(&["a", "--sym-argz"]))
            .unwrap()
            .any());
    }

    #[test]
    fn malformed_options_are_errors() {
        for bad in [
            &["--sym-arg"][..],
            &["--sym-arg", "x"],
            &["--sym-args", "3", "2", "1"],
            &["--sym-files", "27", "1"],
            &["--sym-files", "0", "10"],
            &["--sym-files", "2", "0"],
            &["--sym-files", "1", "10", "--sym-files", "2", "10"],
            &["--sym-args", "0", "0", "10"],
            &["--sym-stdin", "-1"],
        ] {
            assert!(ModelOptions::parse(&strings(bad)).is_err(), "{bad:?}");
        }
        assert!(ModelOptions::parse(&strings(&["--sym-args", "0", "101", "1"])).is_err());
        // Numbers beyond the range name it.
        let e = ModelOptions::parse(&strings(&["--sym-arg", "4000000000"])).unwrap_err();
        assert!(
            e.0.contains("a number from 0 to 100000000, not 4000000000"),
            "{}",
            e.0
        );
        assert!(ModelOptions::parse(&strings(&["--sym-arg", "100000000"])).is_ok());
    }

    #[test]
    fn inputs_are_rebuilt_from_objects() {
        let o = ModelOptions::parse(&strings(&[
            "-n",
            "--sym-args",
            "0",
            "2",
            "2",
            "--sym-files",
            "1",
            "3",
            "--sym-stdin",
            "2",
        ]))
        .unwrap();
        let stat = vec![0u8; STAT_SIZE];
        let objects = vec![
            obj("n_args", &1i32.to_le_bytes()),
            obj("arg00", b"h\0x"),
            obj("A-data", b"abc"),
            obj("A-data-stat", &stat),
            obj("stdin", b"\x00\xff"),
            obj("stdin-stat", &stat),
            obj("model_version", &1u32.to_le_bytes()),
            obj("user", b"u"),
        ];
        let inputs = native_inputs(&o, &objects).unwrap();
        assert_eq!(inputs.args, vec![b"-n".to_vec(), b"h".to_vec()]);
        assert_eq!(inputs.files, vec![("A".to_string(), b"abc".to_vec())]);
        assert_eq!(inputs.stdin, Some(vec![0, 255]));
        assert_eq!(inputs.model_objects, 7);
    }

    #[test]
    fn symbolic_size_inputs_are_rebuilt_with_their_lengths() {
        let o = ModelOptions::parse(&strings(&[
            "--sym-size-inputs",
            "--sym-arg",
            "4",
            "--sym-files",
            "1",
            "3",
            "--sym-stdin",
            "5",
        ]))
        .unwrap();
        assert!(o.sym_size_inputs && o.any());
        let stat = vec![0u8; STAT_SIZE];
        let size = |n: u64| n.to_le_bytes();
        let objects = vec![
            obj("arg00-size", &size(2)),
            obj("arg00", b"hi\0"),
            obj("A-data-size", &size(0)),
            obj("A-data", b""),
            obj("A-data-stat", &stat),
            obj("stdin-size", &size(3)),
            obj("stdin", b"abc"),
            obj("stdin-stat", &stat),
            obj("model_version", &1u32.to_le_bytes()),
        ];
        let inputs = native_inputs(&o, &objects).unwrap();
        assert_eq!(inputs.args, vec![b"hi".to_vec()]);
        assert_eq!(inputs.files, vec![("A".to_string(), Vec::new())]);
        assert_eq!(inputs.stdin, Some(b"abc".to_vec()));
        assert_eq!(inputs.model_objects, 9);
        // A length above the bound is a mismatch.
        let mut bad = objects.clone();
        bad[0] = obj("arg00-size", &size(5));
        assert!(native_inputs(&o, &bad).is_err());
    }

    #[test]
    fn failure_counters_are_read_in_klee_order() {
        let o = ModelOptions::parse(&strings(&["--save-all-writes", "--fd-fail"])).unwrap();
        assert!(o.save_all_writes && o.args.is_empty());
        let mut objects: Vec<_> = FAIL_OBJECTS
            .iter()
            .enumerate()
            .map(|(i, n)| obj(n, &(i as i32 + 1).to_le_bytes()))
            .collect();
        objects.push(obj("model_version", &1u32.to_le_bytes()));
        let inputs = native_inputs(&o, &objects).unwrap();
        assert_eq!(
            (inputs.read_fail, inputs.write_fail, inputs.model_objects),
            (Some(1), Some(2), 6)
        );
        objects.remove(2);
        assert!(native_inputs(&o, &objects).is_err());
    }

    #[test]
    fn fixed_counts_have_no_n_args() {
        let o = ModelOptions::parse(&strings(&["--sym-args", "1", "1", "1"])).unwrap();
        let objects = vec![
            obj("arg00", b"zz"),
            obj("model_version", &1u32.to_le_bytes()),
        ];
        // The last byte of an argument object is always replaced by NUL.
        assert_eq!(
            native_inputs(&o, &objects).unwrap().args,
            vec![b"z".to_vec()]
        );
    }

    #[test]
    fn mismatched_objects_are_reported() {
        let o = ModelOptions::parse(&strings(&["--sym-arg", "2"])).unwrap();
        let e = native_inputs(&o, &[obj("arg00", b"ab")]).unwrap_err();
        assert!(e.0.contains("expected 3"), "{e}");
        let e = native_inputs(&o, &[obj("x", b"abc")]).unwrap_err();
        assert!(e.0.contains("expected 'arg00'"), "{e}");
        let e = native_inputs(
            &o,
            &[
                obj("arg00", b"ab\0"),
                obj("model_version", &2u32.to_le_bytes()),
            ],
        )
        .unwrap_err();
        assert!(e.0.contains("model_version is 2"), "{e}");
    }

    #[test]
    fn klee_3_tests_are_read() {
        // KLEE 3.2's names use '_' and it writes no model_version object.
        let o = ModelOptions::parse(&strings(&[
            "--sym-args",
            "0",
            "1",
            "3",
            "--sym-files",
            "1",
            "2",
            "--sym-stdin",
            "2",
            "--sym-stdout",
        ]))
        .unwrap();
        let stat = [0u8; STAT_SIZE];
        let objects = vec![
            obj("n_args", &1u32.to_le_bytes()),
            obj("arg00", b"-n\0\0"),
            obj("A_data", b"hi"),
            obj("A_data_stat", &stat),
            obj("stdin", b"in"),
            obj("stdin_stat", &stat),
            obj("stdout", &[0; SYM_STDOUT_SIZE]),
            obj("stdout_stat", &stat),
            obj("x", b"1"),
        ];
        let inputs = native_inputs(&o, &objects).unwrap();
        assert_eq!(inputs.args, vec![b"-n".to_vec()]);
        assert_eq!(inputs.files, vec![("A".to_string(), b"hi".to_vec())]);
        assert_eq!(inputs.stdin, Some(b"in".to_vec()));
        assert_eq!(inputs.model_objects, 8);
    }

    #[test]
    fn plain_command_lines_need_no_objects() {
        let o = ModelOptions::parse(&strings(&["a", "b"])).unwrap();
        let inputs = native_inputs(&o, &[obj("x", b"1")]).unwrap();
        assert_eq!(inputs.args, vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(inputs.model_objects, 0);
    }
}
