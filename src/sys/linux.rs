//! The Linux implementation of [`crate::sys`].

use std::io;
use std::os::fd::{AsFd, BorrowedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::fs::{Access, FlockOperation, Gid, Mode, OFlags, Uid};
use rustix::io::Errno;
use rustix::process::{Pid, WaitOptions};

/// A signal to send ([`kill`], [`kill_group`]).
pub use rustix::process::Signal;

/// The user and group permission cases run as when the harness is root
/// (`nobody:nogroup`), so that permission bits are observed.
pub const UNPRIVILEGED_USER: (u32, u32) = (65534, 65534);

/// SIGINT's number, for handlers and names.
pub const SIGINT: i32 = Signal::INT.as_raw();
/// SIGTERM's number, for handlers and names.
pub const SIGTERM: i32 = Signal::TERM.as_raw();

/// `O_NOFOLLOW`, for `OpenOptionsExt::custom_flags`.
pub const O_NOFOLLOW: i32 = OFlags::NOFOLLOW.bits() as i32;

/// `TMPFS_MAGIC` from `<linux/magic.h>` (rustix names no file system types).
const TMPFS_MAGIC: u64 = 0x0102_1994;

/// This process's effective user id.
pub fn geteuid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Whether this process runs as root, which ignores permission bits.
pub fn is_root() -> bool {
    rustix::process::geteuid().is_root()
}

/// Whether `path` is on a tmpfs (a RAM file system).
pub fn is_tmpfs(path: &Path) -> io::Result<bool> {
    let fs = rustix::fs::statfs(path)?;
    Ok(fs.f_type as u64 == TMPFS_MAGIC)
}

/// Whether this process may create entries in the directory `path`
/// (write and search permission, as `access(2)` decides with the real ids).
pub fn can_write_and_search(path: &Path) -> bool {
    rustix::fs::access(path, Access::WRITE_OK | Access::EXEC_OK).is_ok()
}

/// Takes an exclusive `flock` on `file` without waiting: `Ok(false)` when
/// another open file description holds one.
pub fn try_lock_exclusive(file: impl AsFd) -> io::Result<bool> {
    match rustix::fs::flock(file, FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(Errno::WOULDBLOCK) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

/// Gives `path` (following a link, as `chown(2)`) to `user` (uid, gid).
pub fn chown(path: &Path, user: (u32, u32)) -> io::Result<()> {
    let (uid, gid) = ids(user);
    Ok(rustix::fs::chown(path, Some(uid), Some(gid))?)
}

/// Gives the open file `fd` to `user` (uid, gid).
pub fn fchown(fd: impl AsFd, user: (u32, u32)) -> io::Result<()> {
    let (uid, gid) = ids(user);
    Ok(rustix::fs::fchown(fd, Some(uid), Some(gid))?)
}

fn ids((uid, gid): (u32, u32)) -> (Uid, Gid) {
    (Uid::from_raw(uid), Gid::from_raw(gid))
}

/// Makes a FIFO at `path` with permission bits `mode`.
pub fn mkfifo(path: &Path, mode: u32) -> io::Result<()> {
    Ok(rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        Mode::from_raw_mode(mode),
        0,
    )?)
}

/// Whether an I/O error means "not allowed" (`EACCES`, `EPERM`) rather than
/// "not there".
pub fn is_permission_error(err: &io::Error) -> bool {
    matches!(
        err.raw_os_error(),
        Some(e) if e == Errno::ACCESS.raw_os_error() || e == Errno::PERM.raw_os_error()
    )
}

/// Makes reads and writes on `fd` return at once instead of waiting.
pub fn set_nonblocking(fd: impl AsFd) -> io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(&fd)?;
    Ok(rustix::fs::fcntl_setfl(&fd, flags | OFlags::NONBLOCK)?)
}

/// Waits at most `timeout` until one of `fds` is readable (or at its end,
/// or in error); `None` entries are not watched. Returns, per entry,
/// whether it woke; all `false` on a timeout or an interrupted wait.
///
/// Raw descriptors, because one of them (the cancellation pipe) lives in a
/// static: `poll(2)` only looks at descriptor numbers, so a stale one is an
/// error flag (`POLLNVAL`), never unsafety.
pub fn poll_readable(fds: &[Option<RawFd>], timeout: Duration) -> io::Result<Vec<bool>> {
    let watched: Vec<(usize, RawFd)> = fds
        .iter()
        .enumerate()
        .filter_map(|(i, fd)| fd.filter(|fd| *fd >= 0).map(|fd| (i, fd)))
        .collect();
    // SAFETY: each number is a descriptor the caller holds open for the
    // length of this call; poll(2) only reads the numbers.
    let borrowed: Vec<BorrowedFd<'_>> = watched
        .iter()
        .map(|(_, fd)| unsafe { BorrowedFd::borrow_raw(*fd) })
        .collect();
    let mut polled: Vec<PollFd<'_>> = borrowed
        .iter()
        .map(|fd| PollFd::new(fd, PollFlags::IN))
        .collect();
    let timeout = Timespec::try_from(timeout).unwrap_or(Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    });
    let mut woke = vec![false; fds.len()];
    match rustix::event::poll(&mut polled, Some(&timeout)) {
        Ok(_) => {}
        Err(Errno::INTR) => return Ok(woke),
        Err(e) => return Err(e.into()),
    }
    for ((index, _), fd) in watched.iter().zip(&polled) {
        woke[*index] = !fd.revents().is_empty();
    }
    Ok(woke)
}

/// Starts `command` in a process group of its own, killed by the kernel
/// when the thread that spawned it ends (`PR_SET_PDEATHSIG`), so even a
/// SIGKILLed harness leaves no adapter behind. `parent` is this process's
/// pid, checked in the child: the harness may have died before the death
/// signal was armed.
pub fn tie_to_parent(command: &mut Command) {
    let parent = std::process::id();
    command.process_group(0);
    // SAFETY: the closure runs between fork and exec and makes only raw
    // system calls (prctl, getppid, getpid, kill), which are
    // async-signal-safe; it allocates nothing.
    unsafe {
        command.pre_exec(move || {
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            if rustix::process::getppid().map(Pid::as_raw_pid) != Some(parent as i32) {
                let _ = rustix::process::kill_process(rustix::process::getpid(), Signal::KILL);
            }
            Ok(())
        });
    }
}

/// Sends `signal` to the process `pid`. A process already gone is not an error.
pub fn kill(pid: u32, signal: Signal) {
    if let Some(pid) = Pid::from_raw(pid as i32) {
        let _ = rustix::process::kill_process(pid, signal);
    }
}

/// Sends `signal` to every process of the group `pgid`. Safe after the
/// leader exited: Linux does not reuse a pid while a process group of that
/// id has members.
pub fn kill_group(pgid: u32, signal: Signal) {
    if let Some(pgid) = Pid::from_raw(pgid as i32) {
        let _ = rustix::process::kill_process_group(pgid, signal);
    }
}

/// Waits for the child `pid` to end and reaps it.
pub fn wait_for(pid: u32) {
    if let Some(pid) = Pid::from_raw(pid as i32) {
        let _ = rustix::process::waitpid(Some(pid), WaitOptions::empty());
    }
}

/// Makes this process the reaper of orphaned descendants
/// (`PR_SET_CHILD_SUBREAPER`): a grandchild that left its adapter's process
/// group is re-parented here, not to init, so the run can end it.
pub fn become_subreaper() -> io::Result<()> {
    Ok(rustix::process::set_child_subreaper(Some(
        rustix::process::getpid(),
    ))?)
}

/// A random 64-bit number from the kernel's generator.
pub fn random_u64() -> io::Result<u64> {
    let mut bytes = [0u8; 8];
    let mut filled = 0;
    while filled < bytes.len() {
        filled +=
            rustix::rand::getrandom(&mut bytes[filled..], rustix::rand::GetRandomFlags::empty())?;
    }
    Ok(u64::from_ne_bytes(bytes))
}

/// The name of a signal number, for reasons in reports.
pub fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "a signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_is_made_and_polled_until_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        mkfifo(&path, 0o600).unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&path).unwrap().file_type().is_fifo());
        let (read, mut write) = std::io::pipe().unwrap();
        use std::os::fd::AsRawFd;
        let fds = [None, Some(read.as_raw_fd())];
        assert_eq!(poll_readable(&fds, Duration::ZERO).unwrap(), [false, false]);
        std::io::Write::write_all(&mut write, b"x").unwrap();
        assert_eq!(poll_readable(&fds, Duration::ZERO).unwrap(), [false, true]);
    }

    #[test]
    fn permission_errors_are_told_from_missing_paths() {
        let denied = io::Error::from_raw_os_error(Errno::ACCESS.raw_os_error());
        let perm = io::Error::from_raw_os_error(Errno::PERM.raw_os_error());
        let missing = io::Error::from_raw_os_error(Errno::NOENT.raw_os_error());
        assert!(is_permission_error(&denied) && is_permission_error(&perm));
        assert!(!is_permission_error(&missing));
    }

    #[test]
    fn a_lock_is_exclusive_between_open_files() {
        let file = tempfile::NamedTempFile::new().unwrap();
        let first = std::fs::File::open(file.path()).unwrap();
        let second = std::fs::File::open(file.path()).unwrap();
        assert!(try_lock_exclusive(&first).unwrap());
        assert!(!try_lock_exclusive(&second).unwrap());
    }

    #[test]
    fn random_numbers_differ() {
        assert_ne!(random_u64().unwrap(), random_u64().unwrap());
    }

    #[test]
    fn tmpfs_is_told_from_other_file_systems() {
        if let Ok(tmpfs) = is_tmpfs(Path::new("/dev/shm")) {
            assert!(tmpfs, "/dev/shm is a tmpfs wherever it exists");
        }
        assert!(!is_tmpfs(Path::new("/proc")).unwrap(), "procfs");
        assert!(is_tmpfs(Path::new("/nonexistent-toolpath")).is_err());
    }
}
