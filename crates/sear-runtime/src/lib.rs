//! sear's C runtime — libc and the POSIX environment model, written in C under `runtime/`
//! — compiled to LLVM bitcode at build time (see `build.rs`) and embedded here, so the
//! `sear` binary is self-contained.
//!
//! A program is linked with the runtime in two parts: [`ENTRY_BITCODE`] in whole (the
//! entry point [`ENTRY_FUNCTION`], which sets up the POSIX model from argv and calls the
//! program's `main` under the name [`USER_MAIN_ALIAS`]), and [`LIBC_BITCODE`] on demand
//! (`llvm-link --only-needed`), so only the functions the program uses come in.
//! [`environment`] is the program's environment (sear's own or an `--env-file`),
//! [`host_files`] builds the table of `--host-file` contents, [`options`] is the grammar of
//! the model's command-line options (`--sym-arg N`, ...), shared by `sear run` and
//! `sear replay`.

pub mod environment;
pub mod host_files;
pub mod options;

use std::path::{Path, PathBuf};

/// libc and the POSIX model, linked on demand.
pub const LIBC_BITCODE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/sear-libc.bc"));

/// The runtime's entry point, linked in whole.
pub const ENTRY_BITCODE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/sear-entry.bc"));

/// libc and the POSIX model built for i386 (32-bit programs), linked on demand.
pub const LIBC_BITCODE_I386: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/sear-libc-i386.bc"));

/// The runtime's entry point built for i386, linked in whole.
pub const ENTRY_BITCODE_I386: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/sear-entry-i386.bc"));

/// The function the engine starts at when the runtime's entry is used:
/// `int __sear_start(int argc, char **argv, char **envp)`.
pub const ENTRY_FUNCTION: &str = "__sear_start";

/// The name under which the entry calls the program's `main`; the engine maps it to `main`.
pub const USER_MAIN_ALIAS: &str = "__sear_user_main";

/// The runtime's bitcode files, written to disk for the linker.
#[derive(Clone, Debug)]
pub struct BitcodeFiles {
    /// libc and the POSIX model (link with `--only-needed`).
    pub libc: PathBuf,
    /// The entry point (link in whole).
    pub entry: PathBuf,
}

/// Writes the embedded bitcode to `dir/sear-libc.bc` and `dir/sear-entry.bc`: the i386
/// build when `i386` (a program with 32-bit pointers), else the x86-64 one.
pub fn write_bitcode(dir: &Path, i386: bool) -> std::io::Result<BitcodeFiles> {
    let files = BitcodeFiles {
        libc: dir.join("sear-libc.bc"),
        entry: dir.join("sear-entry.bc"),
    };
    let (libc, entry) = if i386 {
        (LIBC_BITCODE_I386, ENTRY_BITCODE_I386)
    } else {
        (LIBC_BITCODE, ENTRY_BITCODE)
    };
    std::fs::write(&files.libc, libc)?;
    std::fs::write(&files.entry, entry)?;
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_bitcode_is_llvm_bitcode() {
        for bc in [
            LIBC_BITCODE,
            ENTRY_BITCODE,
            LIBC_BITCODE_I386,
            ENTRY_BITCODE_I386,
        ] {
            assert!(bc.len() > 64);
            // Raw bitcode starts with "BC\xC0\xDE"; the wrapper format with 0x0B17C0DE.
            assert!(bc.starts_with(b"BC\xC0\xDE") || bc.starts_with(&[0xDE, 0xC0, 0x17, 0x0B]));
        }
    }

    #[test]
    fn bitcode_is_written_where_announced() {
        let dir = std::env::temp_dir().join(format!("sear-runtime-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let files = write_bitcode(&dir, false).unwrap();
        assert_eq!(std::fs::read(&files.libc).unwrap(), LIBC_BITCODE);
        assert_eq!(std::fs::read(&files.entry).unwrap(), ENTRY_BITCODE);
        let files = write_bitcode(&dir, true).unwrap();
        assert_eq!(std::fs::read(&files.libc).unwrap(), LIBC_BITCODE_I386);
        assert_eq!(std::fs::read(&files.entry).unwrap(), ENTRY_BITCODE_I386);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
