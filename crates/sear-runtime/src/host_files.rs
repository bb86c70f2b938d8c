//! The `--host-file` table: an LLVM IR module defining `__sear_host_files` (name, contents
//! and size of each file) and `__sear_host_file_count`, which the runtime's file system
//! (`runtime/src/posix/fs.c`) turns into read-only files. It is linked with every program
//! that uses the runtime, empty when there are no host files. The module also defines
//! `__sear_host_stat` ([`HostStat`]): the status fields KLEE's model prefers for symbolic
//! files (`runtime/src/posix/env.c`).

use std::fmt::Write as _;

/// A host file as the program will see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostFile {
    /// The path the program opens.
    pub name: String,
    /// The contents.
    pub contents: Vec<u8>,
}

/// The status fields a symbolic file prefers to take from the host, as KLEE's
/// `klee_init_fds` takes them from `stat(".")`: device, special device, owner, group and
/// the three times (seconds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostStat {
    /// `st_dev`.
    pub dev: u64,
    /// `st_rdev`.
    pub rdev: u64,
    /// `st_uid`.
    pub uid: u32,
    /// `st_gid`.
    pub gid: u32,
    /// `st_atime`.
    pub atime: i64,
    /// `st_mtime`.
    pub mtime: i64,
    /// `st_ctime`.
    pub ctime: i64,
}

impl HostStat {
    /// The status of the current directory (all zero when it cannot be read).
    pub fn of_current_dir() -> HostStat {
        use std::os::unix::fs::MetadataExt;
        match std::fs::metadata(".") {
            Ok(m) => HostStat {
                dev: m.dev(),
                rdev: m.rdev(),
                uid: m.uid(),
                gid: m.gid(),
                atime: m.atime(),
                mtime: m.mtime(),
                ctime: m.ctime(),
            },
            Err(_) => HostStat::default(),
        }
    }
}

/// The LLVM IR text of the table, with no target and a zero [`HostStat`].
pub fn module(files: &[HostFile]) -> String {
    module_for_target(files, &HostStat::default(), "", "")
}

/// The LLVM IR text of the table for the program's data layout and target triple (empty:
/// none), so that linking it with the program is silent.
pub fn module_for_target(
    files: &[HostFile],
    host_stat: &HostStat,
    data_layout: &str,
    triple: &str,
) -> String {
    let mut ir = String::from("; sear --host-file table (generated)\n");
    if !data_layout.is_empty() {
        let _ = writeln!(ir, "target datalayout = \"{}\"", ir_escape(data_layout));
    }
    if !triple.is_empty() {
        let _ = writeln!(ir, "target triple = \"{}\"", ir_escape(triple));
    }
    let _ = writeln!(
        ir,
        "@__sear_host_stat = constant {{ i64, i64, i64, i64, i64, i64, i64 }} {{ i64 {}, i64 {}, \
         i64 {}, i64 {}, i64 {}, i64 {}, i64 {} }}",
        host_stat.dev as i64,
        host_stat.rdev as i64,
        host_stat.uid,
        host_stat.gid,
        host_stat.atime,
        host_stat.mtime,
        host_stat.ctime
    );
    let _ = writeln!(ir, "@__sear_host_file_count = constant i32 {}", files.len());
    let mut entries = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let mut name = file.name.as_bytes().to_vec();
        name.push(0);
        let _ = writeln!(
            ir,
            "@.sear_host_name.{i} = private unnamed_addr constant [{} x i8] {}",
            name.len(),
            bytes(&name)
        );
        let _ = writeln!(
            ir,
            "@.sear_host_data.{i} = private unnamed_addr constant [{} x i8] {}",
            file.contents.len(),
            bytes(&file.contents)
        );
        entries.push(format!(
            "{{ ptr, ptr, i64 }} {{ ptr @.sear_host_name.{i}, ptr @.sear_host_data.{i}, i64 {} }}",
            file.contents.len()
        ));
    }
    let table = if entries.is_empty() {
        "zeroinitializer".to_string()
    } else {
        format!("[{}]", entries.join(", "))
    };
    let _ = writeln!(
        ir,
        "@__sear_host_files = constant [{} x {{ ptr, ptr, i64 }}] {table}",
        files.len()
    );
    ir
}

/// `text` with `"`, `\\` and non-printable characters as `\\XX` escapes (for IR strings).
fn ir_escape(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        if b == b'"' || b == b'\\' || !(0x20..0x7f).contains(&b) {
            let _ = write!(out, "\\{b:02X}");
        } else {
            out.push(b as char);
        }
    }
    out
}

/// An IR string constant (`c"..."`), or `zeroinitializer` when empty.
fn bytes(data: &[u8]) -> String {
    if data.is_empty() {
        return "zeroinitializer".to_string();
    }
    let mut s = String::with_capacity(data.len() + 3);
    s.push_str("c\"");
    for &b in data {
        if (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\' {
            s.push(b as char);
        } else {
            let _ = write!(s, "\\{b:02X}");
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_table() {
        let ir = module(&[]);
        assert!(ir.contains("@__sear_host_file_count = constant i32 0"));
        assert!(
            ir.contains("@__sear_host_files = constant [0 x { ptr, ptr, i64 }] zeroinitializer")
        );
    }

    #[test]
    fn host_status_is_a_constant() {
        let stat = HostStat {
            dev: 2049,
            rdev: 0,
            uid: 1000,
            gid: 100,
            atime: 1,
            mtime: 2,
            ctime: 3,
        };
        let ir = module_for_target(&[], &stat, "", "");
        assert!(
            ir.contains(
                "@__sear_host_stat = constant { i64, i64, i64, i64, i64, i64, i64 } { i64 2049, \
             i64 0, i64 1000, i64 100, i64 1, i64 2, i64 3 }"
            ),
            "{ir}"
        );
    }

    #[test]
    fn target_is_the_programs() {
        let ir = module_for_target(
            &[],
            &HostStat::default(),
            "e-m:e-i64:64",
            "x86_64-pc-linux-gnu",
        );
        assert!(
            ir.contains("target datalayout = \"e-m:e-i64:64\"\n"),
            "{ir}"
        );
        assert!(
            ir.contains("target triple = \"x86_64-pc-linux-gnu\"\n"),
            "{ir}"
        );
        assert!(!module(&[]).contains("target"));
    }

    #[test]
    fn files_are_escaped() {
        let ir = module(&[
            HostFile {
                name: "a \"q\".txt".into(),
                contents: b"x\n\\\0".to_vec(),
            },
            HostFile {
                name: "empty".into(),
                contents: Vec::new(),
            },
        ]);
        assert!(ir.contains("[10 x i8] c\"a \\22q\\22.txt\\00\""), "{ir}");
        assert!(ir.contains("[4 x i8] c\"x\\0A\\5C\\00\""), "{ir}");
        assert!(ir.contains("[0 x i8] zeroinitializer"), "{ir}");
        assert!(
            ir.contains("i64 4 }, { ptr, ptr, i64 } { ptr @.sear_host_name.1"),
            "{ir}"
        );
        assert!(ir.contains("@__sear_host_file_count = constant i32 2"));
    }
}
