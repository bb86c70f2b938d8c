//! KLEE's `.ktest` test-case files: the in-memory form, a reader, a writer and a
//! `ktest-tool`-style dump.
//!
//! The binary layout (all integers are big-endian `u32`):
//!
//! ```text
//! magic      "KTEST" (legacy "BOUT\n" accepted on read)
//! version    u32 (3 is written; anything above 3 is rejected)
//! numArgs    u32, then numArgs × (len u32, bytes)
//! symArgvs   u32   (only when version >= 2)
//! symArgvLen u32   (only when version >= 2)
//! numObjects u32, then numObjects × (nameLen u32, name, numBytes u32, bytes)
//! ```
//!
//! ```
//! use sear_ktest::{KTest, KTestObject};
//! let test = KTest {
//!     args: vec!["prog.bc".into()],
//!     sym_argvs: 0,
//!     sym_argv_len: 0,
//!     objects: vec![KTestObject { name: "x".into(), bytes: vec![1, 0, 0, 0] }],
//! };
//! let bytes = test.to_bytes().unwrap();
//! assert_eq!(KTest::from_bytes(&bytes).unwrap(), test);
//! ```

mod dump;
mod error;
mod read;
mod write;

use std::path::Path;

pub use dump::{dump, dump_named, dump_named_with};
pub use error::KTestError;

/// The version this crate writes, and the highest it reads.
pub const CURRENT_VERSION: u32 = 3;

/// The magic bytes at the start of every current `.ktest` file.
pub const MAGIC: &[u8; 5] = b"KTEST";

/// The magic bytes of the legacy format, still accepted on read.
pub const LEGACY_MAGIC: &[u8; 5] = b"BOUT\n";

/// One test case: the program arguments and the values of its symbolic objects, in the order
/// they were made symbolic.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KTest {
    /// The program's command line as recorded by the engine (argv strings, first is the program).
    ///
    /// Arguments that are not valid UTF-8 are read lossily.
    pub args: Vec<String>,
    /// The number of symbolic argv strings (`--sym-arg`/`--sym-args`), 0 if none.
    pub sym_argvs: u32,
    /// The maximum length of a symbolic argv string, 0 if none.
    pub sym_argv_len: u32,
    /// The symbolic objects, in creation order.
    pub objects: Vec<KTestObject>,
}

/// One symbolic object: its name and its concrete contents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KTestObject {
    /// The name given to `klee_make_symbolic` (read lossily if not UTF-8).
    pub name: String,
    /// The concrete bytes of the object.
    pub bytes: Vec<u8>,
}

impl KTest {
    /// Reads and parses a `.ktest` file.
    pub fn read(path: impl AsRef<Path>) -> Result<KTest, KTestError> {
        let path = path.as_ref();
        let data = std::fs::read(path).map_err(|source| KTestError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        KTest::from_bytes(&data)
    }

    /// Parses the contents of a `.ktest` file.
    pub fn from_bytes(data: &[u8]) -> Result<KTest, KTestError> {
        read::parse(data)
    }

    /// Serialises this test in the current format (version 3).
    ///
    /// Fails only if a count or length does not fit in a `u32`.
    pub fn to_bytes(&self) -> Result<Vec<u8>, KTestError> {
        write::serialize(self)
    }

    /// Writes this test to `path` in the current format (version 3).
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), KTestError> {
        let path = path.as_ref();
        let bytes = self.to_bytes()?;
        std::fs::write(path, bytes).map_err(|source| KTestError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Returns the first object called `name`, if any.
    pub fn object(&self, name: &str) -> Option<&KTestObject> {
        self.objects.iter().find(|object| object.name == name)
    }
}
