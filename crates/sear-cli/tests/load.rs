//! Issue 37: results that do not depend on the machine's load. The layers that choose by time
//! (the byte search's and the neighbour models' gate, the portfolio's turns) measure CPU
//! time, so a run with busy threads beside it answers its queries with the same layers and
//! writes the same tests as a run without, on programs it explores exhaustively.

mod common;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{repo_root, sear};

/// What a run wrote: every test's bytes in name order, and the trace digest.
fn written(dir: &Path) -> (Vec<(String, Vec<u8>)>, String) {
    let mut tests: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".ktest"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    tests.sort();
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    (tests, summary["trace_digest"].as_str().unwrap().to_string())
}

/// Runs `program` (with `-D SIZE=size`) into `out`, with `hogs` threads spinning beside it.
fn run(program: &str, size: u32, out: &Path, hogs: usize) {
    let stop = Arc::new(AtomicBool::new(false));
    let spinning: Vec<_> = (0..hogs)
        .map(|_| {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut x = 1u64;
                while !stop.load(Ordering::Relaxed) {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                    std::hint::black_box(x);
                }
            })
        })
        .collect();
    let prog = repo_root().join(program);
    let define = format!("SIZE={size}");
    let result = sear(
        &[
            "run",
            "--no-progress",
            "--search",
            "dfs",
            "-D",
            &define,
            "--output-dir",
            out.to_str().unwrap(),
            prog.to_str().unwrap(),
        ],
        out.parent().unwrap(),
    );
    stop.store(true, Ordering::Relaxed);
    for h in spinning {
        h.join().unwrap();
    }
    assert!(
        result.status.success(),
        "{program}: {}",
        String::from_utf8_lossy(&result.stderr)
    );
}

#[test]
fn a_loaded_machine_writes_the_same_tests() {
    let tmp = tempfile::tempdir().unwrap();
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    for (program, size) in [
        ("bench/programs/tables/dfa_tokens.c", 5),
        ("bench/programs/tables/url_decode.c", 3),
        ("bench/programs/tables/bytecode_vm.c", 3),
    ] {
        let idle = tmp.path().join("idle");
        let loaded = tmp.path().join("loaded");
        run(program, size, &idle, 0);
        // Three busy threads per core: the run gets about a quarter of a core.
        run(program, size, &loaded, 3 * cores);
        let (a, b) = (written(&idle), written(&loaded));
        assert!(!a.0.is_empty(), "{program}: tests written");
        assert_eq!(a.1, b.1, "{program}: the same paths (trace digest)");
        assert!(a.0 == b.0, "{program}: the same tests, byte for byte");
        std::fs::remove_dir_all(&idle).unwrap();
        std::fs::remove_dir_all(&loaded).unwrap();
    }
}
