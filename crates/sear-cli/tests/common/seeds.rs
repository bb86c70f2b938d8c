//! Seed files for the seeding tests.

use std::path::{Path, PathBuf};

use sear_ktest::{KTest, KTestObject};

/// Writes a `.ktest` seed with `objects` (name, bytes) into `dir` and returns its path.
pub fn ktest(dir: &Path, file: &str, objects: &[(&str, &[u8])]) -> PathBuf {
    let test = KTest {
        args: vec!["prog".into()],
        sym_argvs: 0,
        sym_argv_len: 0,
        objects: objects
            .iter()
            .map(|(name, bytes)| KTestObject {
                name: name.to_string(),
                bytes: bytes.to_vec(),
            })
            .collect(),
    };
    let path = dir.join(file);
    test.write(&path).expect("seed written");
    path
}
