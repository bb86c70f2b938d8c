//! lcov's tracefile format (`coverage.info`: `SF`, `DA`, `BRDA`, `LF`/`LH`, `BRF`/`BRH`
//! records per file), which `genhtml` turns into an HTML report.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use anyhow::{bail, Context, Result};

use super::gcov::FileCoverage;

/// The tracefile for `files`.
pub fn tracefile(files: &[FileCoverage]) -> String {
    let mut out = String::new();
    for file in files {
        let totals = file.totals();
        let _ = writeln!(out, "TN:\nSF:{}", file.path);
        for &(line, block, branch, taken) in &file.branches {
            let taken = taken.map_or("-".to_string(), |n| n.to_string());
            let _ = writeln!(out, "BRDA:{line},{block},{branch},{taken}");
        }
        let _ = writeln!(out, "BRF:{}\nBRH:{}", totals.branches, totals.branches_hit);
        for &(line, count) in &file.lines {
            let _ = writeln!(out, "DA:{line},{count}");
        }
        let _ = writeln!(
            out,
            "LF:{}\nLH:{}\nend_of_record",
            totals.lines, totals.lines_hit
        );
    }
    out
}

/// Runs `genhtml` (Debian's `lcov` package) on `info` with branch coverage, into `html`.
pub fn genhtml(info: &Path, html: &Path) -> Result<()> {
    let output = Command::new("genhtml")
        .args(["--quiet", "--branch-coverage", "--output-directory"])
        .arg(html)
        .arg(info)
        .output()
        .context(
            "cannot run genhtml (it is in Debian's lcov package; scripts/setup.sh installs it)",
        )?;
    if !output.status.success() {
        bail!(
            "genhtml failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tracefile_records() {
        let f = FileCoverage {
            path: "/src/p.c".into(),
            lines: vec![(3, 2), (4, 0)],
            branches: vec![(3, 0, 0, Some(2)), (3, 0, 1, Some(0)), (4, 0, 0, None)],
        };
        assert_eq!(
            tracefile(&[f]),
            "TN:\nSF:/src/p.c\nBRDA:3,0,0,2\nBRDA:3,0,1,0\nBRDA:4,0,0,-\nBRF:3\nBRH:1\n\
             DA:3,2\nDA:4,0\nLF:2\nLH:1\nend_of_record\n"
        );
    }
}
