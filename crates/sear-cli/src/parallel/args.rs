//! `--jobs N|auto`.

/// Parallel-exploration options of `sear run`.
#[derive(Debug, Clone, clap::Args)]
pub struct ParallelArgs {
    /// Explore with N worker processes (`auto`: the cores this process may use); 1 runs in
    /// one process, deterministically (docs/parallel.md).
    #[arg(long, short = 'j', value_name = "N|auto", default_value = "1", value_parser = jobs)]
    pub jobs: u32,
    /// Place the workers on the Ray cluster at ADDRESS (`auto`: `RAY_ADDRESS` or the
    /// cluster running here; or `HOST:PORT` of its head) instead of on this machine; Ray is
    /// installed into the project's `.venv` by scripts/setup.sh (docs/parallel.md).
    #[arg(long, value_name = "ADDRESS")]
    pub cluster: Option<String>,
}

/// Parses `--jobs`: a number from 1 to 1024, or `auto`.
fn jobs(text: &str) -> Result<u32, String> {
    if text == "auto" {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        return Ok(cores.min(1024) as u32);
    }
    match text.parse::<u32>() {
        Ok(n) if (1..=1024).contains(&n) => Ok(n),
        Ok(_) => Err("must be between 1 and 1024 (or auto)".into()),
        Err(_) => Err(format!(
            "'{text}' is not a number of jobs (1 to 1024, or auto)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::jobs;

    #[test]
    fn jobs_are_checked() {
        assert_eq!(jobs("3"), Ok(3));
        assert!(jobs("auto").unwrap() >= 1);
        assert!(jobs("0").is_err());
        assert!(jobs("-2").is_err());
        assert!(jobs("two").is_err());
        assert!(jobs("1025").is_err());
    }
}
