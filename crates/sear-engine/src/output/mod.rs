//! Run outputs: test files, error reports, the run summary.
//!
//! Layout of an output directory (KLEE's names where KLEE has them):
//! `testNNNNNN.ktest` for every path that ended (normally, by an error or early),
//! `testNNNNNN.<kind>.err` for errors, `testNNNNNN.early` for early terminations,
//! `info.json` (how the run was started), `summary.json` (outcome and statistics),
//! `messages.txt` and `warnings.txt`.

mod summary;
mod test_files;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sear_ktest::{KTest, KTestObject};
pub use summary::{
    AcNormalizationStats, ErrorRecord, IteCompareStats, IteLiftingStats, PurposeQueries,
    SimplificationStats, Summary,
};
pub use test_files::TestFiles;

/// Creates and fills an output directory.
pub struct OutputWriter {
    dir: PathBuf,
    /// Where the test files go: `dir`, or the run's directory for a worker of a parallel run.
    tests_dir: PathBuf,
    /// Where test numbers come from when they are not `1, 2, 3, ...` (a worker).
    numbers: Option<Box<dyn TestNumbers>>,
    next_test: u32,
    tests_written: u32,
    /// A worker's test files, for its coordinator (`None` in a single run).
    files: Option<TestFiles>,
    messages: fs::File,
    warnings: fs::File,
}

/// The test numbers of a worker of a parallel run: numbers of the whole run, handed out by
/// its coordinator (in increasing order, not consecutive), so that the worker writes its
/// tests into the run's directory under their final names.
pub trait TestNumbers {
    /// The next number; `None` when there is none to be had (the coordinator is gone).
    fn next(&mut self) -> Option<u32>;
}

/// Errors while writing outputs.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// An I/O error on a named file.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Error report contents for a `.err` file.
pub struct ErrReport<'a> {
    /// The error message.
    pub message: &'a str,
    /// Source file of the error.
    pub file: &'a str,
    /// Source line.
    pub line: u32,
    /// Function containing the error.
    pub function: &'a str,
    /// Call stack, innermost first (already formatted).
    pub stack: &'a [String],
    /// Extra information (e.g. the address involved).
    pub info: &'a str,
}

impl OutputWriter {
    /// Creates the directory, which must not exist or be empty. Never overwrites a
    /// previous run.
    pub fn create(dir: &Path) -> Result<OutputWriter, OutputError> {
        if dir.exists() {
            let mut entries = fs::read_dir(dir).map_err(io_err(dir))?;
            if entries.next().is_some() {
                return Err(OutputError::Io {
                    path: dir.to_path_buf(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        "output directory exists and is not empty",
                    ),
                });
            }
        } else {
            fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        let messages_path = dir.join("messages.txt");
        let warnings_path = dir.join("warnings.txt");
        Ok(OutputWriter {
            dir: dir.to_path_buf(),
            tests_dir: dir.to_path_buf(),
            numbers: None,
            next_test: 1,
            tests_written: 0,
            files: None,
            messages: fs::File::create(&messages_path).map_err(io_err(&messages_path))?,
            warnings: fs::File::create(&warnings_path).map_err(io_err(&warnings_path))?,
        })
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes the test files into `dir` under the numbers `numbers` gives (a worker of a
    /// parallel run writing into the run's directory).
    pub fn set_tests(&mut self, dir: &Path, numbers: Box<dyn TestNumbers>) {
        self.tests_dir = dir.to_path_buf();
        self.numbers = Some(numbers);
        self.files = Some(TestFiles::default());
    }

    /// Takes the test files written so far, for a worker (`set_tests`); empty in a single
    /// run.
    pub fn take_test_files(&mut self) -> TestFiles {
        self.files.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Writes `bytes` to `<test><suffix>` and notes it (a worker).
    fn write_file(&mut self, test: &str, suffix: &str, bytes: &[u8]) -> std::io::Result<()> {
        fs::write(self.tests_dir.join(format!("{test}{suffix}")), bytes)?;
        if let Some(files) = self.files.as_mut() {
            files.note(test, suffix);
        }
        Ok(())
    }

    /// Writes a `.ktest` file; returns the test's name (`test000001`).
    pub fn write_test(
        &mut self,
        args: &[String],
        objects: Vec<(String, Vec<u8>)>,
    ) -> Result<String, OutputError> {
        let number = match self.numbers.as_mut() {
            None => {
                self.next_test += 1;
                self.next_test - 1
            }
            Some(numbers) => numbers.next().ok_or_else(|| OutputError::Io {
                path: self.tests_dir.clone(),
                source: std::io::Error::other("no test number (the coordinator is gone)"),
            })?,
        };
        self.tests_written += 1;
        let name = format!("test{number:06}");
        let ktest = KTest {
            args: args.to_vec(),
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: objects
                .into_iter()
                .map(|(name, bytes)| KTestObject { name, bytes })
                .collect(),
        };
        let path = self.tests_dir.join(format!("{name}.ktest"));
        let bytes = ktest.to_bytes().map_err(|e| OutputError::Io {
            path: path.clone(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
        })?;
        self.write_file(&name, ".ktest", &bytes)
            .map_err(io_err(&path))?;
        Ok(name)
    }

    /// Writes `<test>.<suffix>.err`.
    pub fn write_err(
        &mut self,
        test: &str,
        suffix: &str,
        report: &ErrReport,
    ) -> Result<(), OutputError> {
        let file = format!(".{suffix}.err");
        let path = self.tests_dir.join(format!("{test}{file}"));
        let mut text = format!(
            "Error: {}\nFile: {}\nLine: {}\nFunction: {}\n",
            report.message, report.file, report.line, report.function
        );
        if !report.info.is_empty() {
            text.push_str("Info:\n");
            for line in report.info.lines() {
                text.push_str(&format!("\t{line}\n"));
            }
        }
        text.push_str("Stack:\n");
        for (i, frame) in report.stack.iter().enumerate() {
            text.push_str(&format!("\t#{i} {frame}\n"));
        }
        self.write_file(test, &file, text.as_bytes())
            .map_err(io_err(&path))
    }

    /// Writes `<test>.early` with the reason for an early termination.
    pub fn write_early(&mut self, test: &str, reason: &str) -> Result<(), OutputError> {
        let path = self.tests_dir.join(format!("{test}.early"));
        self.write_file(test, ".early", format!("{reason}\n").as_bytes())
            .map_err(io_err(&path))
    }

    /// Writes a JSON file in the output directory.
    pub fn write_json<T: serde::Serialize>(
        &self,
        file: &str,
        value: &T,
    ) -> Result<(), OutputError> {
        let path = self.dir.join(file);
        let text = serde_json::to_string_pretty(value).expect("serialisable");
        fs::write(&path, text + "\n").map_err(io_err(&path))
    }

    /// Writes `<test>.<suffix>` beside the test's `.ktest` (best effort: a test file that
    /// cannot be written is no reason to stop the run).
    pub fn write_test_file(&mut self, test: &str, suffix: &str, bytes: &[u8]) {
        let _ = self.write_file(test, &format!(".{suffix}"), bytes);
    }

    /// Appends a line to `messages.txt`.
    pub fn message(&mut self, text: &str) {
        let _ = writeln!(self.messages, "{text}");
    }

    /// Appends a line to `warnings.txt`.
    pub fn warning(&mut self, text: &str) {
        let _ = writeln!(self.warnings, "{text}");
    }

    /// The number of tests written so far.
    pub fn tests_written(&self) -> u32 {
        self.tests_written
    }
}
