//! The test files a worker of a parallel run wrote, so that its coordinator can make the
//! run's test numbers dense without listing the output directory (on tmpfs, reading the
//! names of 170,000 files took 0.12 s, a third of the coordinator's end of a maze run).

use serde::{Deserialize, Serialize};

/// Every test file written, as (test number, suffix); the suffixes (`.ktest`, `.exit`,
/// `.div.err`, ...) stored once each.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestFiles {
    /// The distinct suffixes, each with its leading dot.
    pub suffixes: Vec<String>,
    /// (test number, index into `suffixes`), in the order written.
    pub files: Vec<(u32, u16)>,
}

impl TestFiles {
    /// Notes that `testNNNNNN<suffix>` was written (`test` is `testNNNNNN`).
    pub fn note(&mut self, test: &str, suffix: &str) {
        let Some(number) = test.strip_prefix("test").and_then(|n| n.parse().ok()) else {
            return;
        };
        let index = match self.suffixes.iter().position(|s| s == suffix) {
            Some(i) => i,
            None => {
                self.suffixes.push(suffix.to_string());
                self.suffixes.len() - 1
            }
        };
        self.files.push((number, index as u16));
    }

    /// The suffixes of each test number.
    pub fn by_test(&self) -> std::collections::BTreeMap<u32, Vec<String>> {
        let mut tests: std::collections::BTreeMap<u32, Vec<String>> = Default::default();
        for &(number, index) in &self.files {
            if let Some(suffix) = self.suffixes.get(index as usize) {
                tests.entry(number).or_default().push(suffix.clone());
            }
        }
        tests
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_are_stored_once_and_grouped_by_test() {
        let mut files = TestFiles::default();
        files.note("test000007", ".ktest");
        files.note("test000007", ".exit");
        files.note("test000009", ".ktest");
        files.note("test000009", ".div.err");
        files.note("not-a-test", ".ktest");
        assert_eq!(files.suffixes, [".ktest", ".exit", ".div.err"]);
        let by_test = files.by_test();
        assert_eq!(by_test[&7], [".ktest", ".exit"]);
        assert_eq!(by_test[&9], [".ktest", ".div.err"]);
        assert_eq!(by_test.len(), 2);
    }
}
