//! Limits at their edges: instructions, memory, time inside one long instruction, stack,
//! and the halt's tests.

mod common;

use common::sear;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn summary(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap()
}

fn files_with_extension(dir: &Path, ext: &str) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == ext)
        })
        .count()
}

#[test]
fn max_instructions_is_exact() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "p.c",
        "int main(void) { int s = 0; for (int i = 0; i < 100; i++) s += i; return s; }\n",
    );
    for limit in [1u64, 7, 250] {
        let out = format!("out{limit}");
        let o = sear(
            &[
                "run",
                "--no-runtime",
                "--max-instructions",
                &limit.to_string(),
                "--output-dir",
                &out,
                "p.c",
            ],
            tmp.path(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let s = summary(&tmp.path().join(&out));
        assert_eq!(s["instructions"], limit, "{s}");
        assert_eq!(s["completed_paths"], 0, "{s}");
        assert_eq!(s["early_paths"], 1, "{s}");
        assert_eq!(s["stop_reason"], "max-instructions");
    }
}

#[test]
fn max_memory_ends_the_last_state_of_a_leaking_loop() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "leak.c",
        "#include <stdlib.h>\n#include <string.h>\n\
         int main(void) { for (;;) { char *p = malloc(1 << 20); memset(p, 1, 1 << 20); } }\n",
    );
    let start = Instant::now();
    let o = sear(
        &[
            "run",
            "--max-memory",
            "200",
            "--max-time",
            "120",
            "--output-dir",
            "out",
            "leak.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Before the fix the one state was never dropped and the run went on to --max-time.
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    let s = summary(&tmp.path().join("out"));
    assert_eq!(s["stop_reason"], "max-memory", "{s}");
    assert_eq!(s["dropped_states"], 1, "{s}");
    assert_eq!(s["early_paths"], 1, "{s}");
    assert_eq!(files_with_extension(&tmp.path().join("out"), "ktest"), 1);
    // The warning is in warnings.txt too, as every warning (KLEE's MemoryLimit test).
    let warnings = std::fs::read_to_string(tmp.path().join("out/warnings.txt")).unwrap();
    assert!(warnings.contains("memory limit of"), "{warnings}");
}

#[test]
fn max_time_holds_inside_one_long_instruction() {
    let tmp = tempfile::tempdir().unwrap();
    // A memset of 1 GiB is one instruction that takes seconds.
    write(
        tmp.path(),
        "big.c",
        "#include <stdlib.h>\n#include <string.h>\n\
         int main(void) { char *p = malloc(1 << 30); memset(p, 1, 1 << 30); return p[3]; }\n",
    );
    let start = Instant::now();
    let o = sear(
        &["run", "--max-time", "1", "--output-dir", "out", "big.c"],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Generous for a loaded machine: compilation and linking come before the clock starts.
    assert!(
        start.elapsed() < Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    let s = summary(&tmp.path().join("out"));
    assert_eq!(s["stop_reason"], "max-time", "{s}");
    assert!(s["time_s"].as_f64().unwrap() < 5.0, "{s}");
    assert_eq!(s["early_paths"], 1, "{s}");
}

#[test]
fn halt_without_dumping_states_counts_the_tests_not_written() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "fork.c",
        "#include \"klee/klee.h\"\n\
         int main(void) { int x; klee_make_symbolic(&x, sizeof x, \"x\");\n\
         int n = 0; for (int i = 0; i < 20; i++) if (x & (1 << i)) n++;\n\
         for (;;) n++; }\n",
    );
    let o = sear(
        &[
            "run",
            "--search",
            "bfs",
            "--max-time",
            "2",
            "--dump-states-on-halt=false",
            "--output-dir",
            "out",
            "fork.c",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let s = summary(&tmp.path().join("out"));
    assert_eq!(s["stop_reason"], "max-time", "{s}");
    let not_written = s["tests_not_written"].as_u64().unwrap();
    assert!(not_written > 1, "{s}");
    assert_eq!(
        s["tests"].as_u64().unwrap(),
        files_with_extension(&tmp.path().join("out"), "ktest") as u64
    );
    assert_eq!(
        s["early_paths"].as_u64().unwrap(),
        not_written + s["tests"].as_u64().unwrap()
    );
}

#[test]
fn a_large_symbolic_file_is_created_without_work_per_byte() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "cat.c",
        "#include <fcntl.h>\n#include <unistd.h>\n\
         int main(void) { char b[4]; int fd = open(\"A\", O_RDONLY);\n\
         if (fd < 0 || read(fd, b, 4) != 4) return 1;\n\
         if (b[0] == 'x') return 2; return 3; }\n",
    );
    let start = Instant::now();
    let o = sear(
        &[
            "run",
            "--max-time",
            "60",
            "--output-dir",
            "out",
            "cat.c",
            "--sym-files",
            "1",
            "20000000",
        ],
        tmp.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Before: one expression per byte, minutes for 10^8 bytes, deaf to --max-time.
    assert!(
        start.elapsed() < Duration::from_secs(40),
        "{:?}",
        start.elapsed()
    );
    let s = summary(&tmp.path().join("out"));
    assert_eq!(s["completed_paths"], 2, "{s}");
    assert_eq!(s["stop_reason"], "exhausted", "{s}");
}
