//! Keeps a native replay from setting the machine's clock.
//!
//! sear's runtime makes `clock_settime` and `settimeofday` fail with EPERM, as for an
//! unprivileged process, so a test of `date -s ...` follows the path where setting the
//! clock fails. Replayed natively as root, the same call would succeed and set the host's
//! clock (a coverage replay of coreutils' `date` moved it by twelve hours). Each replayed
//! program therefore runs under a seccomp filter that answers the clock-setting system
//! calls with EPERM: the native run then follows the path sear explored, and the host is
//! left alone. Every other system call is allowed.
//!
//! The filter is a few lines of classic BPF built here on `libc` rather than with a
//! seccomp crate: it must cover both x86-64 and i386 system calls in one filter (ILP32
//! programs replay as 32-bit executables), which the crates' single-architecture filters
//! do not, and `libseccomp` would add a C library to the set-up.

/// A seccomp filter program, built before `fork` so that installing it in the child does
/// not allocate.
pub struct ClockGuard {
    filter: Vec<libc::sock_filter>,
}

/// `AUDIT_ARCH_X86_64` (`<linux/audit.h>`; not in the `libc` crate).
const AUDIT_ARCH_X86_64: u32 = 0xC000_003E;
/// `AUDIT_ARCH_I386`.
const AUDIT_ARCH_I386: u32 = 0x4000_0003;
/// Offsets in `struct seccomp_data`.
const NR_OFFSET: u32 = 0;
const ARCH_OFFSET: u32 = 4;

/// The clock-setting calls of x86-64: clock_settime, settimeofday, adjtimex,
/// clock_adjtime (`<asm/unistd_64.h>`).
const X86_64_CALLS: [u32; 4] = [227, 164, 159, 305];
/// The same calls of i386, with stime and the 64-bit-time variants
/// (`<asm/unistd_32.h>`): stime, settimeofday, adjtimex, clock_settime, clock_adjtime,
/// clock_settime64, clock_adjtime64.
const I386_CALLS: [u32; 7] = [25, 79, 124, 264, 343, 404, 405];

impl ClockGuard {
    /// The filter: per architecture, the listed calls return EPERM; all else is allowed.
    pub fn new() -> ClockGuard {
        let mut filter = vec![stmt(
            libc::BPF_LD | libc::BPF_W | libc::BPF_ABS,
            ARCH_OFFSET,
        )];
        for (arch, calls) in [
            (AUDIT_ARCH_X86_64, &X86_64_CALLS[..]),
            (AUDIT_ARCH_I386, &I386_CALLS[..]),
        ] {
            let block = arch_block(calls);
            // Not this architecture: jump over its block to the next test of the arch.
            let skip = u8::try_from(block.len()).expect("a short block");
            filter.push(jump(arch, 0, skip));
            filter.extend(block);
        }
        filter.push(ret(libc::SECCOMP_RET_ALLOW));
        ClockGuard { filter }
    }

    /// Installs the filter in the calling process. Meant for `pre_exec`: it only makes
    /// two `prctl` calls. Failing to install it is an error only for root, the one user
    /// whose replay could set the clock.
    pub fn install(&self) -> std::io::Result<()> {
        let program = libc::sock_fprog {
            len: self.filter.len() as libc::c_ushort,
            filter: self.filter.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: prctl(2) with PR_SET_NO_NEW_PRIVS takes integers; PR_SET_SECCOMP reads
        // `program`, which points into `self.filter` and outlives the call.
        let installed = unsafe {
            libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
                && libc::prctl(
                    libc::PR_SET_SECCOMP,
                    libc::SECCOMP_MODE_FILTER,
                    &program as *const libc::sock_fprog,
                ) == 0
        };
        // SAFETY: geteuid(2) cannot fail.
        if installed || unsafe { libc::geteuid() } != 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

impl Default for ClockGuard {
    fn default() -> Self {
        ClockGuard::new()
    }
}

/// Load the call number, answer EPERM for each of `calls`, allow the rest.
fn arch_block(calls: &[u32]) -> Vec<libc::sock_filter> {
    let mut block = vec![stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, NR_OFFSET)];
    for &nr in calls {
        // Equal: fall through to the EPERM; else skip it.
        block.push(jump(nr, 0, 1));
        block.push(ret(libc::SECCOMP_RET_ERRNO | libc::EPERM as u32));
    }
    block.push(ret(libc::SECCOMP_RET_ALLOW));
    block
}

fn stmt(code: u32, k: u32) -> libc::sock_filter {
    libc::sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter {
        code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
        jt,
        jf,
        k,
    }
}

fn ret(k: u32) -> libc::sock_filter {
    stmt(libc::BPF_RET | libc::BPF_K, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// Runs `script` under sh with the guard installed; its exit code.
    fn guarded(script: &str) -> i32 {
        let guard = ClockGuard::new();
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(script);
        // SAFETY: `install` only calls prctl(2) and geteuid(2).
        unsafe { cmd.pre_exec(move || guard.install()) };
        cmd.status().expect("sh runs").code().expect("an exit code")
    }

    #[test]
    fn other_calls_are_allowed() {
        assert_eq!(
            guarded("echo ok >/dev/null && date >/dev/null && exit 7"),
            7
        );
    }

    #[test]
    fn setting_the_clock_fails() {
        // `date -s` with the current time: harmless if the filter did not hold. It fails
        // under the guard for root and non-root alike.
        assert_ne!(guarded("date -s \"$(date)\" >/dev/null 2>&1"), 0);
    }

    #[test]
    fn every_jump_stays_inside_the_filter() {
        let f = ClockGuard::new().filter;
        for (i, insn) in f.iter().enumerate() {
            if insn.code == (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16 {
                assert!(i + 1 + (insn.jt.max(insn.jf) as usize) < f.len());
            }
        }
        assert_eq!(
            f.last().map(|i| i.k),
            Some(libc::SECCOMP_RET_ALLOW),
            "the filter ends by allowing"
        );
    }
}
