//! Reading gcov's counts: `llvm-cov gcov` turns the `.gcno`/`.gcda` files of a `--coverage`
//! build into one `.gcov` text file per source file, which [`parse_gcov`] reads into line
//! and branch records.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde::Serialize;

/// The environment variable naming the `llvm-cov` to use (default `llvm-cov-19`).
pub const LLVM_COV_ENV: &str = "SEAR_LLVM_COV";

/// The coverage of one source file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FileCoverage {
    /// The source file, as its debug information names it.
    pub path: String,
    /// Executable lines: (line number, execution count).
    pub lines: Vec<(u32, u64)>,
    /// Branches: (line number, block index on the line, branch index, times taken, or
    /// `None` when the branch's block never executed).
    pub branches: Vec<(u32, u32, u32, Option<u64>)>,
}

/// Counts of one file or a set of files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Executable lines.
    pub lines: usize,
    /// Executable lines executed at least once.
    pub lines_hit: usize,
    /// Branches (outcomes of conditional jumps).
    pub branches: usize,
    /// Branches taken at least once.
    pub branches_hit: usize,
}

impl Totals {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Totals) {
        self.lines += other.lines;
        self.lines_hit += other.lines_hit;
        self.branches += other.branches;
        self.branches_hit += other.branches_hit;
    }

    /// Line coverage in percent (100 when there are no lines).
    pub fn line_percent(&self) -> f64 {
        percent(self.lines_hit, self.lines)
    }

    /// Branch coverage in percent (100 when there are no branches).
    pub fn branch_percent(&self) -> f64 {
        percent(self.branches_hit, self.branches)
    }
}

fn percent(hit: usize, all: usize) -> f64 {
    if all == 0 {
        100.0
    } else {
        100.0 * hit as f64 / all as f64
    }
}

impl FileCoverage {
    /// The file's counts.
    pub fn totals(&self) -> Totals {
        Totals {
            lines: self.lines.len(),
            lines_hit: self.lines.iter().filter(|(_, n)| *n > 0).count(),
            branches: self.branches.len(),
            branches_hit: self
                .branches
                .iter()
                .filter(|b| b.3.is_some_and(|n| n > 0))
                .count(),
        }
    }
}

/// The `llvm-cov` named by `SEAR_LLVM_COV`, or `llvm-cov-19` (`llvm-cov` as a fallback).
pub fn llvm_cov() -> Result<PathBuf> {
    if let Some(tool) = std::env::var_os(LLVM_COV_ENV) {
        return Ok(PathBuf::from(tool));
    }
    sear_ir::frontend::find_tool("llvm-cov-19", "llvm-cov").map_err(|e| anyhow::anyhow!("{e}"))
}

/// Runs `llvm-cov gcov` on the counts of each of `notes` (the `.gcno` files of the build;
/// each `.gcda` beside its `.gcno`) and reads its reports. It runs in `build_dir`, the
/// directory the build ran in, since the notes name the sources relative to it; the reports
/// go to stdout (`-t`), so nothing is written there, and are also saved, one after the
/// other, as `raw`. A unit without counts (no test reached it) reads as all zeros; relative
/// source names are made absolute.
///
/// Each note is read on its own and the results are summed line by line and branch by
/// branch: a module holding several compilation units (a whole program linked from many
/// files) gets one note per unit from LLVM's gcov pass, each describing every function of
/// the module, with a function's counts in one of them and zeros in the others.
pub fn collect(notes: &[PathBuf], build_dir: &Path, raw: &Path) -> Result<Vec<FileCoverage>> {
    if notes.is_empty() {
        bail!("the coverage build wrote no .gcno file");
    }
    let tool = llvm_cov()?;
    let mut files = Vec::new();
    let mut all_text = Vec::new();
    for note in notes {
        // -b -c: branch counts; -t: the report on stdout.
        let output = Command::new(&tool)
            .args(["gcov", "-b", "-c", "-t"])
            .arg(note)
            .current_dir(build_dir)
            .output()
            .with_context(|| format!("cannot run {}", tool.display()))?;
        if !output.status.success() {
            bail!(
                "{} gcov {} failed ({}):\n{}",
                tool.display(),
                note.display(),
                output.status,
                String::from_utf8_lossy(&output.stderr)
            );
        }
        let text = String::from_utf8_lossy(&output.stdout);
        for document in split_documents(&text) {
            if let Some(mut file) = parse_gcov(document) {
                if Path::new(&file.path).is_relative() {
                    file.path = build_dir.join(&file.path).display().to_string();
                }
                merge_into(&mut files, file);
            }
        }
        all_text.extend_from_slice(&output.stdout);
    }
    std::fs::write(raw, &all_text).with_context(|| format!("writing {}", raw.display()))?;
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Splits `llvm-cov gcov -t`'s output into one document per source file (each starts with
/// its `0:Source:` line).
fn split_documents(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = text
        .match_indices("\n")
        .map(|(at, _)| at + 1)
        .filter(|&at| is_source_line(&text[at..]))
        .collect();
    if is_source_line(text) {
        starts.insert(0, 0);
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

fn is_source_line(text: &str) -> bool {
    let line = text.lines().next().unwrap_or("");
    let mut fields = line.splitn(3, ':');
    fields.next().is_some_and(|c| c.trim() == "-")
        && fields.next().is_some_and(|n| n.trim() == "0")
        && fields.next().is_some_and(|r| r.starts_with("Source:"))
}

/// Adds `file` to `files`, summing the counts of a source reported again (by another note,
/// or a header included by several units) line by line and branch by branch.
fn merge_into(files: &mut Vec<FileCoverage>, file: FileCoverage) {
    let Some(existing) = files.iter_mut().find(|f| f.path == file.path) else {
        files.push(file);
        return;
    };
    for (line, count) in file.lines {
        match existing.lines.iter_mut().find(|(l, _)| *l == line) {
            Some(entry) => entry.1 += count,
            None => existing.lines.push((line, count)),
        }
    }
    existing.lines.sort();
    for (line, block, branch, taken) in file.branches {
        let same = |b: &&mut (u32, u32, u32, Option<u64>)| (b.0, b.1, b.2) == (line, block, branch);
        match existing.branches.iter_mut().find(same) {
            Some(entry) => {
                entry.3 = match (entry.3, taken) {
                    (None, None) => None,
                    (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
                }
            }
            None => existing.branches.push((line, block, branch, taken)),
        }
    }
    existing.branches.sort();
}

/// Parses one `.gcov` file of `llvm-cov gcov -b -c`: its `Source:` line, the count of every
/// executable line (`#####` is zero, `-` not executable) and the `branch N taken K` /
/// `branch N never executed` lines under each line. None without a `Source:` line.
pub fn parse_gcov(text: &str) -> Option<FileCoverage> {
    let mut file = FileCoverage::default();
    let mut current_line = 0u32;
    let mut block = 0u32;
    for raw in text.lines() {
        if let Some(rest) = raw.trim_start().strip_prefix("branch ") {
            let mut words = rest.split_whitespace();
            let index: u32 = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
            if index == 0 && file.branches.last().is_some_and(|b| b.0 == current_line) {
                block += 1;
            }
            let taken = match (words.next(), words.next()) {
                (Some("taken"), Some(n)) => Some(n.parse().unwrap_or(0)),
                _ => None,
            };
            file.branches.push((current_line, block, index, taken));
            continue;
        }
        let mut fields = raw.splitn(3, ':');
        let (Some(count), Some(number), Some(rest)) = (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        let Ok(number) = number.trim().parse::<u32>() else {
            continue;
        };
        let count = count.trim().trim_end_matches('*');
        if number == 0 {
            if let Some(source) = rest.strip_prefix("Source:") {
                file.path = source.to_string();
            }
            continue;
        }
        current_line = number;
        block = 0;
        match count {
            "-" => {}
            "#####" | "=====" | "$$$$$" | "%%%%%" => file.lines.push((number, 0)),
            n => {
                if let Ok(n) = n.parse() {
                    file.lines.push((number, n));
                }
            }
        }
    }
    (!file.path.is_empty()).then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "        -:    0:Source:/src/p.c
        -:    0:Graph:p.gcno
        -:    1:#include <stdio.h>
function f called 3 returned 100% blocks executed 80%
        3:    2:int f(int x) {
        3:    3:  if (x > 3)
branch  0 taken 1
branch  1 taken 2
        1:    4:    return 1;
    #####:    5:  if (x < -5)
branch  0 never executed
branch  1 never executed
        2*:    6:  return 0;
        -:    7:}
";

    #[test]
    fn gcov_text_is_read() {
        let f = parse_gcov(SAMPLE).unwrap();
        assert_eq!(f.path, "/src/p.c");
        assert_eq!(f.lines, vec![(2, 3), (3, 3), (4, 1), (5, 0), (6, 2)]);
        assert_eq!(
            f.branches,
            vec![
                (3, 0, 0, Some(1)),
                (3, 0, 1, Some(2)),
                (5, 0, 0, None),
                (5, 0, 1, None)
            ]
        );
        let t = f.totals();
        assert_eq!(
            (t.lines, t.lines_hit, t.branches, t.branches_hit),
            (5, 4, 4, 2)
        );
        assert_eq!(t.line_percent(), 80.0);
        assert_eq!(t.branch_percent(), 50.0);
        assert!(parse_gcov("no source here").is_none());
    }

    #[test]
    fn stdout_report_is_split_per_file() {
        let two = format!("{SAMPLE}{}", SAMPLE.replace("/src/p.c", "/src/q.c"));
        let docs = split_documents(&two);
        assert_eq!(docs.len(), 2);
        assert_eq!(parse_gcov(docs[1]).unwrap().path, "/src/q.c");
        assert_eq!(parse_gcov(docs[0]).unwrap().lines.len(), 5);
    }

    #[test]
    fn a_source_reported_twice_is_summed() {
        let mut files = vec![parse_gcov(SAMPLE).unwrap()];
        merge_into(&mut files, parse_gcov(SAMPLE).unwrap());
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].lines[0], (2, 6));
        assert_eq!(files[0].branches.len(), 4);
        assert_eq!(files[0].branches[0], (3, 0, 0, Some(2)));
        assert_eq!(files[0].branches[3], (5, 0, 1, None));
    }
}
