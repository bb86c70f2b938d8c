//! Keeps a native replay run as root from writing to the machine's file system outside the
//! temporary directory.
//!
//! Tests name absolute paths such as `/x`, `/A/../d` or `/dev/null` (sear's runtime models
//! its own `/dev/null`, whose `unlink` fails). Natively the replay runs in a scratch
//! directory, and as root the same test would `mkdir`, create, rename or remove those paths
//! in the machine's real file system: the coverage replays of coreutils' `mkdir`, `split`
//! and `ln` left over a thousand entries in `/`, and one of `unlink /dev/null` removed the
//! machine's `/dev/null`. For root, each replayed program therefore runs in a private mount
//! namespace where every mount is read-only, except the temporary directory (where the
//! replay's scratch and gcov's counters live, and where programs keep temporary files) and
//! the scratch directory itself. Writing elsewhere fails with EROFS. Other users' replays are
//! left as they are: the file system's permissions already confine them.
//!
//! If the namespace cannot be set up (a container without `CAP_SYS_ADMIN`), the run
//! goes ahead unconfined, as before.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The directories a replay may write to, as C strings built before `fork`, so that
/// entering the namespace in the child does not allocate.
pub struct ReadOnlyRoot {
    writable: Vec<CString>,
    cwd: Option<CString>,
}

impl ReadOnlyRoot {
    /// A read-only root but for `writable` (directories that exist; others are skipped),
    /// for a process whose working directory is `cwd`.
    pub fn new(writable: &[&Path], cwd: &Path) -> ReadOnlyRoot {
        let c_path = |p: &Path| {
            let p = std::fs::canonicalize(p).ok()?;
            CString::new(p.as_os_str().as_bytes()).ok()
        };
        let writable = writable
            .iter()
            .filter(|p| p.is_dir())
            .filter_map(|p| c_path(p))
            .collect();
        ReadOnlyRoot {
            writable,
            cwd: c_path(cwd),
        }
    }

    /// Enters a new mount namespace where every mount is read-only (`/` and the ones
    /// under it: `/dev`, `/dev/shm`, `/proc`, `/sys`, ...) and the writable directories
    /// are bound onto themselves and made writable again, then changes to the working
    /// directory again: the one `Command` set refers to the old mount, through which
    /// relative paths would be read-only. Device files stay usable (`/dev/null` opens for
    /// writing on a read-only mount), but cannot be removed: a test of coreutils' `unlink
    /// /dev/null`, replayed as root, had removed the machine's `/dev/null`. Meant for
    /// `pre_exec`: only system calls. Does nothing unless the process is root; a failure
    /// leaves the process as it was (or with some directories bound, which changes
    /// nothing visible). On kernels without `mount_setattr` (before 5.12) only `/` itself
    /// becomes read-only.
    pub fn enter(&self) {
        // SAFETY: geteuid(2) cannot fail.
        if unsafe { libc::geteuid() } != 0 {
            return;
        }
        // SAFETY: unshare(2) with a flag; mount(2) and mount_setattr(2) with valid
        // NUL-terminated strings (owned by `self`, which outlives the calls), a valid
        // `MountAttr` of the size passed, or null pointers where the kernel ignores the
        // argument.
        unsafe {
            if libc::unshare(libc::CLONE_NEWNS) != 0 {
                return;
            }
            let root = c"/".as_ptr();
            let none: *const libc::c_char = std::ptr::null();
            let no_data: *const libc::c_void = std::ptr::null();
            // Our mounts must not propagate back to the machine's namespace.
            if libc::mount(none, root, none, libc::MS_REC | libc::MS_PRIVATE, no_data) != 0 {
                return;
            }
            let read_only = MountAttr {
                attr_set: MOUNT_ATTR_RDONLY,
                attr_clr: 0,
                propagation: 0,
                userns_fd: 0,
            };
            let recursive = libc::syscall(
                libc::SYS_mount_setattr,
                libc::AT_FDCWD,
                root,
                AT_RECURSIVE,
                &read_only as *const MountAttr,
                std::mem::size_of::<MountAttr>(),
            ) == 0;
            if !recursive {
                libc::mount(
                    none,
                    root,
                    none,
                    libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY,
                    no_data,
                );
            }
            for dir in &self.writable {
                let dir = dir.as_ptr();
                // A bind mount starts with its source's flags, read-only here, so it is
                // made writable again.
                if libc::mount(dir, dir, none, libc::MS_BIND, no_data) == 0 {
                    libc::mount(none, dir, none, libc::MS_REMOUNT | libc::MS_BIND, no_data);
                }
            }
            if let Some(cwd) = &self.cwd {
                libc::chdir(cwd.as_ptr());
            }
        }
    }
}

/// `struct mount_attr` of mount_setattr(2) (not in the `libc` crate).
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// `MOUNT_ATTR_RDONLY` of `<linux/mount.h>`.
const MOUNT_ATTR_RDONLY: u64 = 0x1;
/// `AT_RECURSIVE` of `<linux/fcntl.h>`: apply to the whole mount tree.
const AT_RECURSIVE: libc::c_int = 0x8000;

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// Runs `script` under sh in the confinement, with `writable` writable; its exit code.
    fn confined(script: &str, writable: &Path) -> i32 {
        let guard = ReadOnlyRoot::new(&[writable], writable);
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(script).current_dir(writable);
        // SAFETY: `enter` only makes system calls.
        unsafe {
            cmd.pre_exec(move || {
                guard.enter();
                Ok(())
            })
        };
        cmd.status().expect("sh runs").code().expect("an exit code")
    }

    #[test]
    fn writes_go_only_to_the_writable_directories() {
        let dir = tempfile::tempdir().unwrap();
        let inside = dir.path().join("made");
        let script = format!(
            "mkdir '{}' && echo ok > '{}/f'",
            inside.display(),
            inside.display()
        );
        assert_eq!(confined(&script, dir.path()), 0);
        assert!(inside.join("f").is_file());
        // Relative to the working directory too.
        assert_eq!(confined("echo ok > g && test -f g", dir.path()), 0);
        assert!(dir.path().join("g").is_file());
        // Outside: the root directory (a name no one else uses). As root the mount
        // namespace makes it read-only; other users could not write there anyway.
        let outside = format!("/sear-readonly-root-probe-{}", std::process::id());
        let code = confined(&format!("mkdir '{outside}'"), dir.path());
        let made = Path::new(&outside).exists();
        if made {
            let _ = std::fs::remove_dir(&outside);
        }
        assert!(
            code != 0 && !made,
            "mkdir {outside} succeeded in the confinement"
        );
    }

    #[test]
    fn mounts_under_the_root_are_read_only_and_devices_usable() {
        let dir = tempfile::tempdir().unwrap();
        // /dev/null stays writable (and is the device, not a file).
        assert_eq!(
            confined("echo x > /dev/null && test -c /dev/null", dir.path()),
            0
        );
        // /dev/shm is a mount of its own under /dev, itself a mount under /.
        let shm = Path::new("/dev/shm");
        if !shm.is_dir() {
            return;
        }
        let probe = shm.join(format!("sear-readonly-probe-{}", std::process::id()));
        let code = confined(&format!("echo x > '{}'", probe.display()), dir.path());
        let made = probe.exists();
        if made {
            let _ = std::fs::remove_file(&probe);
        }
        assert!(
            code != 0 && !made,
            "{} was written in the confinement",
            probe.display()
        );
    }
}
