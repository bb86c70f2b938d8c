//! `sear run --indexify` (seed 004) end to end: the spec's worked examples (§6.1 ReactOS,
//! §6.2 Figure 6), de-indexed tests replayed natively against the original program, the
//! table cache, out-of-garden ends, floats and the POSIX model's arguments, the fork policies
//! at a lookup's fork per row, and bad options.

mod common;

use common::sear;

use std::path::{Path, PathBuf};
use std::process::Output;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

/// Runs sear in `dir` on `program` with `args` (no table cache unless given) into `out`.
fn run(dir: &Path, out: &str, program: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["run", "--no-progress", "--output-dir", out];
    if !args.iter().any(|a| a.starts_with("--index-cache")) {
        all.push("--no-index-cache");
    }
    all.extend(args);
    all.push(program);
    let o = sear(&all, dir);
    assert!(o.status.success(), "sear run failed: {}", stderr(&o));
    summary(&dir.join(out))
}

/// Replays `out` natively (against the original program) and returns the replay summary;
/// every error must reproduce and every compared output match.
fn replay(dir: &Path, out: &str) -> serde_json::Value {
    let o = sear(&["replay", "--json", out], dir);
    let report: serde_json::Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("replay output: {e}: {}", stderr(&o)));
    let s = report["summary"].clone();
    assert_eq!(s["not_reproduced"], 0, "{s}");
    assert_eq!(s["output_mismatches"], 0, "{s}");
    assert_eq!(s["input_mismatches"], 0, "{s}");
    assert_eq!(s["unexpected_errors"], 0, "{s}");
    s
}

/// Every test of `out`: (the first object's bytes up to its NUL, as text; the .exit
/// status if it exited; the error kind if it has one).
fn tests(dir: &Path) -> Vec<(String, Option<i32>, Option<String>)> {
    let mut out = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ktest"))
        .collect();
    names.sort();
    for k in names {
        let test = sear_ktest::KTest::read(&k).unwrap();
        let bytes = &test.objects[0].bytes;
        let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
        let text = String::from_utf8_lossy(&bytes[..end]).into_owned();
        let exit = std::fs::read_to_string(k.with_extension("exit"))
            .ok()
            .and_then(|s| s.trim().parse().ok());
        let stem = k.file_stem().unwrap().to_string_lossy().into_owned();
        let error = std::fs::read_dir(dir).unwrap().find_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.strip_prefix(&format!("{stem}."))
                .and_then(|r| r.strip_suffix(".err"))
                .map(str::to_string)
        });
        out.push((text, exit, error));
    }
    out
}

const REACTOS: &str = r#"#include <assert.h>
#include <string.h>
#include <klee/klee.h>
/* ReactOS vbe.c (seed 004 §6.1): the length is sizeof of a pointer */
static const char *Nv11Vendor = "NVidiaCorporation";
static const char *Vendors[] = {"NVidia", "ATI", "Matrox"};
int IsVesaBiosOk(const char *Vendor) {
  if (!strncmp(Vendor, Nv11Vendor, PTR_SIZE))
    assert(strncmp(Vendor, Nv11Vendor, 32) == 0);
  return 1;
}
int main(void) {
  char Vendor[32];
  klee_make_symbolic(Vendor, sizeof Vendor, "Vendor");
  return IsVesaBiosOk(Vendor) + (Vendors[1][0] == 'A');
}
"#;

/// §6.1 with 32-bit pointers (sizeof = 4): the garden's "NVidia" shares four characters
/// with "NVidiaCorporation", so the assertion fails with Vendor = "NVidia".
#[test]
fn reactos_strncmp_bug_is_found_with_vendor_nvidia() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "reactos.c", REACTOS);
    let s = run(
        tmp.path(),
        "out",
        "reactos.c",
        &["--indexify=strings", "-D", "PTR_SIZE=4"],
    );
    assert_eq!(s["error_paths"], 1, "{s}");
    let ts = tests(&tmp.path().join("out"));
    let failing: Vec<_> = ts.iter().filter(|t| t.2.is_some()).collect();
    assert_eq!(failing.len(), 1);
    assert_eq!(failing[0].0, "NVidia");
    assert_eq!(failing[0].2.as_deref(), Some("assert"));
    // every test is a garden string, de-indexed into the 32-byte buffer
    for (text, _, _) in &ts {
        assert!(
            ["NVidiaCorporation", "NVidia", "ATI", "Matrox"].contains(&text.as_str())
                || text.contains("Vendor")
                || text.ends_with(".c")
                || text.contains('('),
            "{text:?} is not a garden value"
        );
    }
    let ix = &s["indexify"];
    assert_eq!(ix["run"]["symbolic_indices"], 1);
    assert_eq!(ix["run"]["fallbacks"], 0, "no strncmp ran over bytes");
    assert_eq!(
        ix["rewrite"]["retyped_globals"], 1,
        "Nv11Vendor holds an index"
    );
    let r = replay(tmp.path(), "out");
    assert_eq!(r["reproduced"], 1);
}

/// §6.1 on x86-64 (sizeof = 8): "NVidia" no longer shares the compared prefix; the bug
/// needs a garden string sharing eight characters, e.g. a human seed (--add-seeds).
#[test]
fn reactos_with_eight_byte_pointers_needs_a_longer_seed() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "reactos.c", REACTOS);
    let args = ["--indexify=strings", "-D", "PTR_SIZE=8"];
    let s = run(tmp.path(), "plain", "reactos.c", &args);
    assert_eq!(
        s["error_paths"], 0,
        "under-approximation: no garden string fits"
    );
    write(tmp.path(), "seeds.txt", "# a vendor prefix\n\"NVidiaCo\"\n");
    let mut with_seed = args.to_vec();
    with_seed.extend(["--add-seeds", "seeds.txt"]);
    let s = run(tmp.path(), "seeded", "reactos.c", &with_seed);
    assert_eq!(s["error_paths"], 1, "{s}");
    let ts = tests(&tmp.path().join("seeded"));
    let failing: Vec<_> = ts.iter().filter(|t| t.2.is_some()).collect();
    assert_eq!(failing[0].0, "NVidiaCo");
    replay(tmp.path(), "seeded");
}

/// §6.2, Figure 6: the garden {foobar, oobar, bar, oo}; `strstr(S1, "bar")` is a lookup in
/// the column of "bar"; the true branch is taken for foobar, oobar and bar, the false one
/// for oo. `puts(S1)` reads the de-indexed bytes (rule 8), so each value is a path.
#[test]
fn figure_six_strstr_over_a_four_element_garden() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "fig6.c",
        r#"#include <stdio.h>
#include <string.h>
#include <klee/klee.h>
int main(void) {
  char S1[8], S2[8];
  klee_make_symbolic(S1, sizeof S1, "S1");
  puts(S1);
  strcpy(S2, "a");
  strcat(S2, "foo");
  if (strstr(S1, "bar"))
    return 1;
  return 0;
}
"#,
    );
    write(
        tmp.path(),
        "g.txt",
        "\"foobar\"\n\"oobar\"\n\"bar\"\n\"oo\"\n",
    );
    let s = run(
        tmp.path(),
        "out",
        "fig6.c",
        &[
            "--indexify=strings",
            "--seeds",
            "g.txt",
            "--index-fplus=strstr",
            "--index-k=0",
        ],
    );
    let ix = &s["indexify"];
    assert_eq!(ix["gardens"]["str"]["constructed"], 4);
    assert_eq!(ix["table_rows"], 16, "|G|^2 rows of strstr");
    assert_eq!(ix["run"]["fallbacks"], 0);
    let mut got: Vec<(String, Option<i32>)> = tests(&tmp.path().join("out"))
        .into_iter()
        .map(|(t, e, _)| (t, e))
        .collect();
    got.sort();
    assert_eq!(
        got,
        [
            ("bar".to_string(), Some(1)),
            ("foobar".to_string(), Some(1)),
            ("oo".to_string(), Some(0)),
            ("oobar".to_string(), Some(1)),
        ]
    );
    let r = replay(tmp.path(), "out");
    assert_eq!(r["outputs_checked"], 4);
}

/// Tables computed in one run are read from the cache by the next.
#[test]
fn tables_are_cached_across_runs() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "reactos.c", REACTOS);
    let args = [
        "--indexify=strings",
        "-D",
        "PTR_SIZE=4",
        "--index-cache",
        "cache",
    ];
    let first = run(tmp.path(), "one", "reactos.c", &args);
    assert_eq!(first["indexify"]["rows_from_cache"], 0);
    let computed = first["indexify"]["tables"]["rows_computed"]["strncmp"]
        .as_u64()
        .unwrap();
    assert!(computed > 0);
    let second = run(tmp.path(), "two", "reactos.c", &args);
    assert_eq!(
        second["indexify"]["rows_from_cache"].as_u64(),
        Some(computed)
    );
    assert!(second["indexify"]["tables"]["rows_computed"]
        .as_object()
        .unwrap()
        .is_empty());
    assert_eq!(second["error_paths"], 1);
}

/// A path on which ⊥ becomes observable ends early ("out-of-garden"), never as an error:
/// here the concatenation of a garden string and a literal is not in the garden.
#[test]
fn out_of_garden_paths_end_early() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "cat.c",
        r#"#include <string.h>
#include <klee/klee.h>
int main(void) {
  char s[16];
  klee_make_symbolic(s, sizeof s, "s");
  if (strcmp(s, "key") == 0)
    return 1;
  strcat(s, "-suffix-too-long-to-build");
  return strcmp(s, "x") == 0;
}
"#,
    );
    let s = run(tmp.path(), "out", "cat.c", &["--indexify=strings"]);
    assert_eq!(s["error_paths"], 0, "{s}");
    assert!(s["indexify"]["out_of_garden"].as_u64().unwrap() >= 1, "{s}");
    assert!(s["early_paths"].as_u64().unwrap() >= 1);
    let early: Vec<String> = std::fs::read_dir(tmp.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "early"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(
        early.iter().any(|t| t.contains("out-of-garden")),
        "{early:?}"
    );
}

/// Floats: fdlibm-style classification; without indexify and with floats concretised
/// (`--fp=concretize`, KLEE's behaviour) the double is fixed at the first comparison (one
/// class), with it every class in reach of the garden is
/// covered, and each test replays natively with the same branch decisions (its printed
/// class).
#[test]
fn floats_cover_more_classes_and_replay() {
    let tmp = tempfile::tempdir().unwrap();
    let program = common::repo_root().join("bench/programs/indexify/fd_classify.c");
    let program = program.to_str().unwrap();
    let classes = |dir: &str| -> std::collections::BTreeSet<String> {
        std::fs::read_dir(tmp.path().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "stdout"))
            .flat_map(|p| {
                std::fs::read_to_string(p)
                    .unwrap()
                    .split_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    run(tmp.path(), "base", program, &["--fp=concretize"]);
    let base = classes("base");
    let s = run(tmp.path(), "ix", program, &["--indexify=floats"]);
    let indexed = classes("ix");
    assert!(base.len() <= 2, "{base:?}");
    assert!(indexed.len() >= 9, "{indexed:?}");
    for c in [
        "nan",
        "zero",
        "minus-zero",
        "huge",
        "infinite",
        "even",
        "odd",
        "upper",
        "lower",
    ] {
        assert!(indexed.contains(c), "{c} not covered: {indexed:?}");
    }
    assert_eq!(s["indexify"]["run"]["symbolic_indices"], 1);
    let f64 = &s["indexify"]["gardens"]["f64"];
    assert!(f64["constructed"].as_u64().unwrap() > f64["seeds"].as_u64().unwrap());
    let r = replay(tmp.path(), "ix");
    assert!(r["outputs_checked"].as_u64().unwrap() >= 9);
}

/// The POSIX model's symbolic arguments become symbolic string indices.
#[test]
fn posix_arguments_are_indexed() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "opts.c",
        r#"#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  if (argc < 2) return 3;
  if (strcmp(argv[1], "--help") == 0) { puts("usage"); return 0; }
  if (strncmp(argv[1], "-v", 2) == 0) { puts("verbose"); return 1; }
  if (strlen(argv[1]) > 5) return 2;
  return 4;
}
"#,
    );
    let s = run(
        tmp.path(),
        "out",
        "opts.c",
        &["--indexify=strings", "--sym-arg", "8"],
    );
    assert_eq!(s["indexify"]["run"]["symbolic_indices"], 1);
    assert_eq!(s["indexify"]["rewrite"]["symbolic_inputs"], 1);
    let mut exits: Vec<i32> = tests(&tmp.path().join("out"))
        .iter()
        .filter_map(|t| t.1)
        .collect();
    exits.sort();
    assert_eq!(exits, [0, 1, 2, 4]);
    replay(tmp.path(), "out");
}

/// Two `--sym-args` strings compared with each other over a garden too large for one
/// two-dimensional read (|G|² > 2^14 cells): the first is enumerated row by row inside the
/// table call, whose arguments are concrete pointers (coreutils' `test A = B` ended such
/// paths with "indexify: row outside a call").
#[test]
fn two_arguments_compared_over_a_large_garden() {
    let tmp = tempfile::tempdir().unwrap();
    let seeds: String = (0..130).map(|i| format!("\"s{i:03}\"\n")).collect();
    write(tmp.path(), "seeds.txt", &seeds);
    write(
        tmp.path(),
        "eq.c",
        r#"#include <string.h>
int main(int argc, char **argv) {
  if (argc < 3) return 3;
  if (strcmp(argv[1], argv[2]) == 0) return 0;
  return 1;
}
"#,
    );
    let s = run(
        tmp.path(),
        "out",
        "eq.c",
        &[
            "--indexify=strings",
            "--add-seeds",
            "seeds.txt",
            "--sym-args",
            "2",
            "2",
            "4",
        ],
    );
    assert_eq!(s["error_paths"], 0, "{s}");
    assert!(
        s["indexify"]["run"]["row_forks"].as_u64().unwrap() >= 1,
        "{s}"
    );
    let exits: std::collections::BTreeSet<i32> = tests(&tmp.path().join("out"))
        .iter()
        .filter_map(|t| t.1)
        .collect();
    assert_eq!(exits, [0, 1].into(), "{s}");
    replay(tmp.path(), "out");
}

/// Writes `name`, a program comparing its two `--sym-args` strings after `prelude`, and the
/// 130 seeds that make the garden too large for one two-dimensional read, so the
/// comparison forks per row at an Indexify lookup (`ForkKind::Indexify`).
fn row_fork_program(dir: &Path, name: &str, prelude: &str) {
    let seeds: String = (0..130).map(|i| format!("\"s{i:03}\"\n")).collect();
    write(dir, "seeds.txt", &seeds);
    write(
        dir,
        name,
        &format!(
            r#"#include <string.h>
#include <klee/klee.h>
int main(int argc, char **argv) {{
  {prelude}
  if (argc < 3) return 3;
  if (strcmp(argv[1], argv[2]) == 0) return 0;
  return 1;
}}
"#
        ),
    );
}

/// The decision lines of every `testNNNNNN.path` in `out`.
fn decisions(out: &Path) -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "path"))
        .collect();
    paths.sort();
    paths
        .iter()
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.lines().map(str::to_string).collect::<Vec<_>>()
        })
        .collect()
}

const ROW_FORK_ARGS: [&str; 9] = [
    "--search",
    "dfs",
    "--write-paths",
    "--indexify=strings",
    "--add-seeds",
    "seeds.txt",
    "--sym-args",
    "2",
    "2",
];

/// `--max-depth 1` holds at an Indexify lookup's fork per row (the fork point applies every
/// policy at every fork site): the branch on `y` takes both paths to depth 1; the one that
/// reaches the lookup ends early there instead of forking.
#[test]
fn a_row_fork_respects_max_depth() {
    let tmp = tempfile::tempdir().unwrap();
    row_fork_program(tmp.path(), "eq.c", r#"if (klee_int("y") > 0) return 2;"#);
    let args: Vec<&str> = ROW_FORK_ARGS
        .iter()
        .copied()
        .chain(["4", "--max-depth", "1"])
        .collect();
    let s = run(tmp.path(), "out", "eq.c", &args);
    assert_eq!(s["indexify"]["run"]["row_forks"], 1, "{s}");
    assert_eq!(s["forks"], 1, "{s}");
    assert_eq!(s["completed_paths"], 1, "{s}");
    assert_eq!(s["early_paths"], 1, "{s}");
    assert_eq!(s["error_paths"], 0, "{s}");
    let d = decisions(&tmp.path().join("out"));
    assert!(d.iter().all(|l| l.starts_with("branch ")), "{d:?}");
}

/// `klee_set_forking(0)` holds at an Indexify lookup's fork per row: the path follows one
/// row at each lookup (recorded as a forced `indexify` decision) and no other path is made.
#[test]
fn a_row_fork_respects_klee_set_forking() {
    let tmp = tempfile::tempdir().unwrap();
    row_fork_program(tmp.path(), "eq.c", "klee_set_forking(0);");
    let args: Vec<&str> = ROW_FORK_ARGS.iter().copied().chain(["4"]).collect();
    let s = run(tmp.path(), "out", "eq.c", &args);
    assert!(
        s["indexify"]["run"]["row_forks"].as_u64().unwrap() >= 1,
        "{s}"
    );
    assert_eq!(s["forks"], 0, "{s}");
    assert_eq!(s["completed_paths"], 1, "{s}");
    assert_eq!(s["error_paths"], 0, "{s}");
    let d = decisions(&tmp.path().join("out"));
    assert!(
        d.iter()
            .any(|l| l.starts_with("indexify ") && l.ends_with(" forced")),
        "{d:?}"
    );
    assert!(
        d.iter().all(|l| l.ends_with(" forced")),
        "every decision is forced: {d:?}"
    );
}

/// --output-indexed-ir writes the gardens and the rewritten module.
#[test]
fn indexed_ir_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "reactos.c", REACTOS);
    run(
        tmp.path(),
        "out",
        "reactos.c",
        &[
            "--indexify=strings",
            "-D",
            "PTR_SIZE=4",
            "--output-indexed-ir",
            "ix.ir",
        ],
    );
    let text = std::fs::read_to_string(tmp.path().join("ix.ir")).unwrap();
    assert!(
        text.contains("; garden str:"),
        "{}",
        &text[..200.min(text.len())]
    );
    assert!(text.contains("\"NVidiaCorporation\""));
    assert!(text.contains("call i32 @__indexify_i_strncmp("));
    assert!(text.contains("@__indexify_symbolic_value.str("));
}

#[test]
fn bad_indexify_options_fail_cleanly() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "p.c", "int main(void) { return 0; }\n");
    write(tmp.path(), "bad.txt", "\"ok\"\nnot a seed\n");
    let cases: &[(&[&str], &str)] = &[
        (&["--seeds", "bad.txt"], "need --indexify"),
        (
            &["--indexify=strings", "--seeds", "missing.txt"],
            "missing.txt",
        ),
        (&["--indexify=strings", "--add-seeds", "bad.txt"], "line 2"),
        (
            &["--indexify=floats", "--index-fplus=bogus"],
            "unknown operator 'bogus'",
        ),
        (&["--indexify=words"], "invalid value 'words'"),
        (&["--indexify=strings", "--index-k=11"], "--index-k"),
    ];
    for (args, needle) in cases {
        let mut all = vec!["run", "--no-progress", "--no-index-cache"];
        all.extend(*args);
        all.push("p.c");
        let o = sear(&all, tmp.path());
        let err = stderr(&o);
        assert!(!o.status.success(), "{args:?} succeeded");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            err.contains(needle),
            "{args:?}: expected {needle:?} in {err}"
        );
    }
}
