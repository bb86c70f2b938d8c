//! bench/competitions: the BenchExec tool-info modules parse sear's outputs (fixtures) and
//! build its command lines, and BenchExec runs three tasks of sear's own through them
//! (bench/competitions/test_sear_benchexec.py, with the project's .venv, where
//! scripts/setup.sh installs BenchExec).

mod common;

use std::process::Command;

#[test]
fn benchexec_tool_info_module() {
    // The integration tests build the release binary the tool-info module runs.
    let _ = common::sear(&["--version"], &std::env::temp_dir());
    let root = common::repo_root();
    let python = root.join(".venv/bin/python");
    let has_benchexec = Command::new(&python)
        .args(["-c", "import benchexec"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        has_benchexec,
        "{} with BenchExec is missing: run scripts/setup.sh",
        python.display()
    );
    let o = Command::new(&python)
        .args([
            "-m",
            "unittest",
            "-v",
            "bench/competitions/test_sear_benchexec.py",
        ])
        .current_dir(&root)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "{text}");
    assert!(text.contains("test_three_tasks"), "{text}");
}
