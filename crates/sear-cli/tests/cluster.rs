//! `sear run --cluster`: a Ray cluster of a head and two worker nodes started on this
//! machine (bound to the loopback address), `--cluster ADDRESS --jobs 3` on an exhausting
//! program ends the same paths as one process, also when a worker is killed mid-run; an
//! unreachable cluster and a Python without Ray are refused before any output directory;
//! the launcher tries a `ray://` head whose per-client server failed again.
//! Needs Ray in the project's `.venv` (scripts/setup.sh installs it).

mod common;

use common::workers::{maze, summary, tests_in, worker_pid};

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn venv(tool: &str) -> PathBuf {
    let path = common::repo_root().join(".venv/bin").join(tool);
    assert!(
        path.exists(),
        "{} missing: run scripts/setup.sh",
        path.display()
    );
    path
}

/// A local Ray cluster, stopped when dropped (also when a test fails).
struct Cluster {
    address: String,
    /// The head's Ray Client address (`ray://127.0.0.1:PORT`).
    client: String,
}

/// A port nobody listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Cluster {
    fn start() -> Cluster {
        let port = free_port();
        let client_port = free_port().to_string();
        let address = format!("127.0.0.1:{port}");
        let ray = venv("ray");
        let common_args = [
            "--num-cpus",
            "1",
            "--node-ip-address",
            "127.0.0.1",
            "--disable-usage-stats",
        ];
        let head = [
            "start",
            "--head",
            "--port",
            &port.to_string(),
            "--include-dashboard=false",
            "--ray-client-server-port",
            &client_port,
        ];
        let cluster = Cluster {
            address: address.clone(),
            client: format!("ray://127.0.0.1:{client_port}"),
        };
        run_bounded(Command::new(&ray).args(head).args(common_args));
        for _ in 0..2 {
            run_bounded(
                Command::new(&ray)
                    .args(["start", "--address", &address])
                    .args(common_args),
            );
        }
        cluster
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = Command::new(venv("ray"))
            .args(["stop", "--force"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}

/// The last lines of the head's Ray Client server logs (Ray's default session directory),
/// to say why a `ray://` run failed.
fn client_server_logs() -> String {
    let logs = Path::new("/tmp/ray/session_latest/logs");
    let Ok(entries) = std::fs::read_dir(logs) else {
        return format!("(no {})", logs.display());
    };
    let mut text = String::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("ray_client_server") {
            continue;
        }
        let body = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let lines: Vec<&str> = body.lines().collect();
        let tail = &lines[lines.len().saturating_sub(40)..];
        text += &format!("== {name}\n{}\n", tail.join("\n"));
    }
    text
}

/// Runs a `ray` command, at most two minutes.
fn run_bounded(cmd: &mut Command) {
    let mut child = cmd
        .env("RAY_USAGE_STATS_ENABLED", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{cmd:?} failed");
            return;
        }
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("{cmd:?} did not finish in 2 minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn sear(args: &[&str], dir: &Path, address: &str) -> Output {
    Command::new(common::sear_bin())
        .args(args)
        .current_dir(dir)
        .env("RAY_ADDRESS", address)
        .env("RAY_USAGE_STATS_ENABLED", "0")
        .env("SEAR_RAY_NODE_IP", "127.0.0.1")
        .output()
        .unwrap()
}

#[test]
fn a_ray_cluster_explores_the_same_paths_and_survives_a_lost_worker() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("many.c"), maze(12)).unwrap();
    let one = sear(
        &["run", "--no-progress", "--output-dir", "one", "many.c"],
        dir,
        "",
    );
    assert!(one.status.success());
    let reference = summary(&dir.join("one"));

    let cluster = Cluster::start();
    let run = sear(
        &[
            "run",
            "--no-progress",
            "--cluster",
            "auto",
            "--jobs",
            "3",
            "--output-dir",
            "c",
            "many.c",
        ],
        dir,
        &cluster.address,
    );
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let s = summary(&dir.join("c"));
    assert_eq!(s["trace_digest"], reference["trace_digest"]);
    assert_eq!(s["workers"].as_array().map(Vec::len), Some(3));
    assert_eq!(tests_in(&dir.join("c")), tests_in(&dir.join("one")));

    // The same through Ray Client (`ray://`), as a cluster on other machines is reached.
    let client = &cluster.client;
    let args = ["run", "--no-progress", "--cluster", client, "--jobs", "2"];
    let run = sear(
        &[&args[..], &["--output-dir", "r", "many.c"]].concat(),
        dir,
        "",
    );
    assert!(
        run.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&run.stderr),
        client_server_logs()
    );
    let r = summary(&dir.join("r"));
    assert_eq!(r["trace_digest"], reference["trace_digest"]);

    // A worker killed mid-run: the same paths, and a warning.
    let mut child = Command::new(common::sear_bin())
        .args([
            "run",
            "--no-progress",
            "--cluster",
            &cluster.address,
            "--jobs",
            "3",
        ])
        .args(["--output-dir", "k", "many.c"])
        .current_dir(dir)
        .env("RAY_USAGE_STATS_ENABLED", "0")
        .env("SEAR_RAY_NODE_IP", "127.0.0.1")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let w1 = dir.join("k/.workers/w1");
    let start = Instant::now();
    // Workers write their tests into the run's directory: once it has some, all are at it.
    while tests_in(&dir.join("k")) < 150 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = worker_pid(&w1).expect("worker 1 runs");
    assert!(Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap()
        .success());
    assert!(child.wait().unwrap().success());
    let k = summary(&dir.join("k"));
    assert_eq!(k["trace_digest"], reference["trace_digest"]);
    assert_eq!(tests_in(&dir.join("k")), tests_in(&dir.join("one")));
    let warnings = std::fs::read_to_string(dir.join("k/warnings.txt")).unwrap();
    assert!(
        warnings.contains("worker 1 ended without finishing"),
        "{warnings}"
    );
}

#[test]
fn bad_clusters_are_refused_before_the_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("many.c"), maze(12)).unwrap();
    // Nothing listens on port 1.
    let out = sear(
        &[
            "run",
            "--cluster",
            "127.0.0.1:1",
            "--jobs",
            "2",
            "--output-dir",
            "o",
            "many.c",
        ],
        dir,
        "",
    );
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--cluster 127.0.0.1:1"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!dir.join("o").exists());
    // A Python without Ray.
    let out = Command::new(common::sear_bin())
        .args([
            "run",
            "--cluster",
            "auto",
            "--jobs",
            "2",
            "--output-dir",
            "o",
            "many.c",
        ])
        .current_dir(dir)
        .env("SEAR_PYTHON", "/usr/bin/python3")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("Ray is not installed"), "{stderr}");
    assert!(!dir.join("o").exists());
}

/// The launcher's connection (`ray_workers.py`'s unit tests, with a stand-in for Ray): a
/// `ray://` head whose per-client server failed is tried again, an unreachable one once.
#[test]
fn the_launcher_tries_a_failed_client_server_again() {
    let dir = common::repo_root().join("crates/sear-cli/src/parallel");
    let out = Command::new("python3")
        .args(["-B", "-m", "unittest", "test_ray_workers"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
