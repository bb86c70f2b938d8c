//! `--cluster ADDRESS`: the workers of a parallel run placed on a Ray cluster's nodes by
//! `ray_workers.py` (embedded here, run with the project's Python). Ray places and starts
//! them and notices lost nodes; the workers connect back to the coordinator as local ones
//! do, so exploration, prefixes and balancing are the same.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// The launcher script.
const LAUNCHER: &str = include_str!("ray_workers.py");

/// How long the check that a cluster's head (`HOST:PORT`, Ray's GCS) answers may take.
const CHECK_TIMEOUT: Duration = Duration::from_secs(20);

/// How long the check through Ray Client (`ray://HOST:PORT`) may take. Longer than Ray's own
/// retries (attempts of 5, 10 and 15 s, each maybe followed by as long a pause while the
/// head starts the client's server process) and the launcher's second and third tries when
/// the head's client server failed, so that an unreachable address is reported in Ray's
/// words and a slow but working head is not refused.
const CLIENT_CHECK_TIMEOUT: Duration = Duration::from_secs(150);

/// The Python that has Ray: `SEAR_PYTHON`, else the project's virtualenv next to the
/// binary's checkout (`target/release/sear` → `.venv/bin/python`), else `python3`.
pub fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("SEAR_PYTHON") {
        return PathBuf::from(p);
    }
    if let Ok(exe) = std::env::current_exe() {
        for up in exe.ancestors().skip(1).take(4) {
            let candidate = up.join(".venv/bin/python");
            if candidate.exists() {
                return candidate;
            }
        }
    }
    PathBuf::from("python3")
}

/// Checks, before anything is written, that Ray is installed and the cluster at `address`
/// answers; returns its CPUs.
pub fn check(address: &str) -> Result<f64> {
    let script = write_launcher(&std::env::temp_dir())?;
    let mut child = Command::new(python())
        .arg(&script)
        .args(["--check", "--address", address])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("--cluster: starting {}", python().display()))?;
    let start = Instant::now();
    let limit = if address.starts_with("ray://") {
        CLIENT_CHECK_TIMEOUT
    } else {
        CHECK_TIMEOUT
    };
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = std::fs::remove_file(&script);
            bail!("--cluster {address}: no answer from the Ray cluster within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = child.wait_with_output()?;
    let _ = std::fs::remove_file(&script);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let reason = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    match status.code() {
        Some(0) => {}
        Some(2) => bail!(
            "--cluster: {reason}; scripts/setup.sh installs Ray into .venv (or set SEAR_PYTHON)"
        ),
        _ => bail!("--cluster {address}: {reason}"),
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().last().unwrap_or("{}");
    let facts: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
    Ok(facts["cpus"].as_f64().unwrap_or(0.0))
}

/// Starts the launcher: `workers` actors, each running this binary with the run's command
/// line as worker `i` of the coordinator at `coordinator`, writing under `dir`.
/// `prepared` names the module compiled once for all workers.
pub fn launch(
    address: &str,
    workers: usize,
    coordinator: &str,
    dir: &Path,
    prepared: Option<&super::worker::PreparedBitcode>,
) -> Result<Child> {
    let script = write_launcher(dir)?;
    let exe = std::env::current_exe().context("finding the sear binary")?;
    let log = std::fs::File::create(dir.join("ray.log"))?;
    let mut command = Command::new(python());
    if let Some(prepared) = prepared {
        command.env(super::protocol::BITCODE_ENV, prepared.to_env());
    }
    command
        .arg(&script)
        .args(["--address", address, "--workers", &workers.to_string()])
        .args(["--coordinator", coordinator])
        .arg("--dir")
        .arg(dir)
        .arg("--sear")
        .arg(&exe)
        .arg("--cwd")
        .arg(std::env::current_dir().context("the working directory")?)
        .arg("--")
        .args(std::env::args_os().skip(1))
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .spawn()
        .context("--cluster: starting the Ray launcher")
}

fn write_launcher(dir: &Path) -> Result<PathBuf> {
    let path = dir.join(format!("sear_ray_workers_{}.py", std::process::id()));
    std::fs::write(&path, LAUNCHER).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}
