//! Run outputs: test files, error reports, the run summary.
//!
//! Layout of an output directory (KLEE's names where KLEE has them):
//! `testNNNNNN.ktest` for every path that ended (normally, by an error or early),
//! `testNNNNNN.<kind>.err` for errors, `testNNNNNN.early` for early terminations,
//! `info.json` (how the run was started), `summary.json` (outcome and statistics),
//! `messages.txt` and `warnings.txt`.

mod summary;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use sear_ktest::{KTest, KTestObject};
pub use summary::{ErrorRecord, Summary};

/// Creates and fills an output directory.
pub struct OutputWriter {
    dir: PathBuf,
    next_test: u32,
    messages: fs::File,
    warnings: fs::File,
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
            next_test: 1,
            messages: fs::File::create(&messages_path).map_err(io_err(&messages_path))?,
            warnings: fs::File::create(&warnings_path).map_err(io_err(&warnings_path))?,
        })
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Writes a `.ktest` file; returns the test's name (`test000001`).
    pub fn write_test(
        &mut self,
        args: &[String],
        objects: Vec<(String, Vec<u8>)>,
    ) -> Result<String, OutputError> {
        let name = format!("test{:06}", self.next_test);
        self.next_test += 1;
        let ktest = KTest {
            args: args.to_vec(),
            sym_argvs: 0,
            sym_argv_len: 0,
            objects: objects
                .into_iter()
                .map(|(name, bytes)| KTestObject { name, bytes })
                .collect(),
        };
        let path = self.dir.join(format!("{name}.ktest"));
        let bytes = ktest.to_bytes().map_err(|e| OutputError::Io {
            path: path.clone(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, e.to_string()),
        })?;
        fs::write(&path, bytes).map_err(io_err(&path))?;
        Ok(name)
    }

    /// Writes `<test>.<suffix>.err`.
    pub fn write_err(
        &mut self,
        test: &str,
        suffix: &str,
        report: &ErrReport,
    ) -> Result<(), OutputError> {
        let path = self.dir.join(format!("{test}.{suffix}.err"));
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
        fs::write(&path, text).map_err(io_err(&path))
    }

    /// Writes `<test>.early` with the reason for an early termination.
    pub fn write_early(&mut self, test: &str, reason: &str) -> Result<(), OutputError> {
        let path = self.dir.join(format!("{test}.early"));
        fs::write(&path, format!("{reason}\n")).map_err(io_err(&path))
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

    /// Writes a small text file in the output directory (failures are ignored, as for the
    /// message logs).
    pub fn write_text(&self, file: &str, text: &str) {
        let _ = fs::write(self.dir.join(file), text);
    }

    /// Writes a binary file in the output directory (best effort, like `write_text`).
    pub fn write_bytes(&self, file: &str, bytes: &[u8]) {
        let _ = fs::write(self.dir.join(file), bytes);
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
        self.next_test - 1
    }
}
