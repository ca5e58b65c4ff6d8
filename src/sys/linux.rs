//! The Linux implementation of [`crate::sys`].

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, RawFd};
use std::path::Path;
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

/// This process's effective user and group ids.
pub fn effective_ids() -> (u32, u32) {
    (
        rustix::process::geteuid().as_raw(),
        rustix::process::getegid().as_raw(),
    )
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

pub(super) fn ids((uid, gid): (u32, u32)) -> (Uid, Gid) {
    (Uid::from_raw(uid), Gid::from_raw(gid))
}

/// The largest extended attribute list, and the largest value, Linux
/// keeps (`XATTR_LIST_MAX`, `XATTR_SIZE_MAX`): the bounds of the buffers
/// [`each_xattr`] reads into.
const XATTR_MAX: usize = 64 * 1024;

/// Calls `each` with the name and value of every extended attribute of
/// `name` in the open directory `dir`, the entry itself and never what a
/// link there leads to, in the order the file system lists them. An
/// attribute removed between listing and reading is skipped.
///
/// Linux 6.13's `listxattrat` and `getxattrat` read them relative to the
/// directory's descriptor. Where they are missing, the path goes through
/// the descriptor (`/proc/self/fd/N/name`, the last component not
/// followed), since no other call reads a link's own attributes without
/// opening it: on an older kernel (`ENOSYS`), and under a seccomp filter
/// that refuses the calls it does not know (a container runtime's default
/// profile answers `EPERM`), once the path way is seen to work. The
/// snapshot reads every entry of every fixture twice a call: the walk
/// through `/proc` took three times as long (3.5 against 1.1 µs a listing,
/// measured on Linux 6.18).
pub fn each_xattr(
    dir: impl AsFd,
    name: &std::ffi::CStr,
    mut each: impl FnMut(&[u8], &[u8]),
) -> io::Result<()> {
    use std::sync::atomic::Ordering::Relaxed;
    let dir = dir.as_fd();
    if !XATTR_AT_MISSING.load(Relaxed) {
        let mut given = 0usize;
        let at = each_xattr_of(&XattrOf::At(dir), name, &mut |attr, value| {
            given += 1;
            each(attr, value)
        });
        match at {
            // Refused before anything was read: the other way, this time
            // and, once it works, every later time.
            Err(Errno::NOSYS | Errno::PERM) if given == 0 => {
                let through = each_xattr_through_proc(dir, name, &mut each);
                if through.is_ok() {
                    XATTR_AT_MISSING.store(true, Relaxed);
                }
                return through;
            }
            done => return done.map_err(Into::into),
        }
    }
    each_xattr_through_proc(dir, name, &mut each)
}

/// [`each_xattr`] by the entry's path through its directory's descriptor.
fn each_xattr_through_proc(
    dir: BorrowedFd,
    name: &std::ffi::CStr,
    each: &mut impl FnMut(&[u8], &[u8]),
) -> io::Result<()> {
    let mut path = format!("/proc/self/fd/{}/", dir.as_raw_fd()).into_bytes();
    path.extend_from_slice(name.to_bytes());
    let path = std::ffi::CString::new(path).map_err(|_| io::Error::from(Errno::INVAL))?;
    each_xattr_of(&XattrOf::Path(&path), name, each).map_err(Into::into)
}

/// Set once `listxattrat` is found missing or refused (see [`each_xattr`]):
/// every later reading goes through `/proc` at once.
static XATTR_AT_MISSING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// How an entry's extended attributes are reached: by its name in its
/// directory's descriptor, or by a `/proc/self/fd` path.
enum XattrOf<'a> {
    At(BorrowedFd<'a>),
    Path(&'a std::ffi::CStr),
}

/// [`each_xattr`] of the entry `name` reached as `of`.
fn each_xattr_of(
    of: &XattrOf,
    name: &std::ffi::CStr,
    each: &mut impl FnMut(&[u8], &[u8]),
) -> Result<(), Errno> {
    // Most entries have none: a small list is read on the stack, a long
    // one (`ERANGE`) again into a buffer of the largest size.
    let mut small = [0u8; 1024];
    let mut large = Vec::new();
    let listed: &[u8] = match list_xattrs(of, name, &mut small[..]) {
        Ok(len) => &small[..len],
        Err(Errno::RANGE) => {
            large.resize(XATTR_MAX, 0);
            let len = list_xattrs(of, name, &mut large[..])?;
            &large[..len]
        }
        Err(e) => return Err(e),
    };
    if listed.is_empty() {
        return Ok(());
    }
    let mut value = vec![0u8; XATTR_MAX];
    for attr in listed.split(|b| *b == 0).filter(|n| !n.is_empty()) {
        let Ok(attr) = std::ffi::CString::new(attr) else {
            continue;
        };
        match get_xattr(of, name, &attr, &mut value[..]) {
            Ok(len) => each(attr.to_bytes(), &value[..len]),
            Err(Errno::NODATA) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// `listxattrat(2)`'s number: new system calls share one number on every
/// architecture but alpha (Linux 6.13).
const SYS_LISTXATTRAT: libc::c_long = 465;
/// `getxattrat(2)`'s number (as [`SYS_LISTXATTRAT`]).
const SYS_GETXATTRAT: libc::c_long = 464;

/// The names of the entry's extended attributes, NUL-separated, into `buf`.
fn list_xattrs(of: &XattrOf, name: &std::ffi::CStr, buf: &mut [u8]) -> Result<usize, Errno> {
    match of {
        XattrOf::At(dir) => {
            // SAFETY: a system call on a descriptor this process holds, a
            // NUL-terminated name and a buffer of the length given.
            let len = unsafe {
                libc::syscall(
                    SYS_LISTXATTRAT,
                    dir.as_raw_fd(),
                    name.as_ptr(),
                    libc::AT_SYMLINK_NOFOLLOW as libc::c_uint,
                    buf.as_mut_ptr(),
                    buf.len(),
                )
            };
            syscall_length(len)
        }
        XattrOf::Path(path) => rustix::fs::llistxattr(*path, buf),
    }
}

/// `getxattrat(2)`'s argument block.
#[repr(C)]
struct XattrArgs {
    value: u64,
    size: u32,
    flags: u32,
}

/// The value of attribute `attr` of the entry, into `buf`.
fn get_xattr(
    of: &XattrOf,
    name: &std::ffi::CStr,
    attr: &std::ffi::CStr,
    buf: &mut [u8],
) -> Result<usize, Errno> {
    match of {
        XattrOf::At(dir) => {
            let mut args = XattrArgs {
                value: buf.as_mut_ptr() as u64,
                size: buf.len().min(u32::MAX as usize) as u32,
                flags: 0,
            };
            // SAFETY: a system call on a descriptor this process holds,
            // NUL-terminated names, and an argument block naming a buffer
            // of the length given, all alive for the call.
            let len = unsafe {
                libc::syscall(
                    SYS_GETXATTRAT,
                    dir.as_raw_fd(),
                    name.as_ptr(),
                    libc::AT_SYMLINK_NOFOLLOW as libc::c_uint,
                    attr.as_ptr(),
                    &mut args as *mut XattrArgs,
                    std::mem::size_of::<XattrArgs>(),
                )
            };
            syscall_length(len)
        }
        XattrOf::Path(path) => rustix::fs::lgetxattr(*path, attr, buf),
    }
}

/// A raw system call's result as a length, or its `errno`.
fn syscall_length(result: libc::c_long) -> Result<usize, Errno> {
    match usize::try_from(result) {
        Ok(len) => Ok(len),
        Err(_) => Err(Errno::from_io_error(&io::Error::last_os_error()).unwrap_or(Errno::IO)),
    }
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

/// Who held a FIFO open (or was blocked opening it) when
/// [`release_fifo`] looked, and so was released.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FifoHeld {
    /// A reader: someone opened it for reading (or is blocked doing so).
    pub reader: bool,
    /// A writer: someone opened it for writing (or is blocked doing so).
    pub writer: bool,
}

impl FifoHeld {
    pub fn any(self) -> bool {
        self.reader || self.writer
    }
}

/// The most bytes [`release_fifo`] reads from a FIFO a writer holds, so
/// that a writer blocked on a full pipe can go on.
const FIFO_DRAIN_BYTES: usize = 1 << 20;

/// Opens the other end of the FIFO `relative` (beneath the directory
/// `root`, through no symbolic link) without ever blocking, and closes it:
/// a process blocked opening it for reading gets past its `open` and then
/// reads end of file; one blocked opening it for writing gets past its
/// `open`, and what it writes is read (at most [`FIFO_DRAIN_BYTES`]) and
/// dropped. Says who held it: a reader (opening the write end succeeds
/// only when one exists: `ENXIO` otherwise), a writer (reading gives
/// nothing yet, or data, rather than end of file). `Ok` with nobody when
/// the path is no longer a FIFO.
///
/// The write end is opened and closed first: the read end held while
/// probing for a reader would be taken for one.
pub fn release_fifo(root: &Path, relative: &Path) -> io::Result<FifoHeld> {
    use rustix::fs::{ResolveFlags, openat2};
    let beneath = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
    // The fixture directory is the subject's: were it swapped for a link,
    // the release would open what the link names, as root (issue 41).
    let dir = rustix::fs::open(
        root,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let open = |flags: OFlags| {
        openat2(
            &dir,
            relative,
            flags | OFlags::CLOEXEC,
            Mode::empty(),
            beneath,
        )
    };
    let nonblocking = |flags: OFlags| open(flags | OFlags::NONBLOCK | OFlags::NOCTTY);
    // `openat2` takes no other flag with `O_PATH`.
    let probe = open(OFlags::PATH)?;
    if rustix::fs::FileType::from_raw_mode(rustix::fs::fstat(&probe)?.st_mode)
        != rustix::fs::FileType::Fifo
    {
        return Ok(FifoHeld::default());
    }
    let mut held = FifoHeld::default();
    match nonblocking(OFlags::WRONLY) {
        Ok(write_end) => {
            held.reader = true;
            drop(write_end);
        }
        Err(Errno::NXIO) => {}
        Err(e) => return Err(e.into()),
    }
    let read_end = nonblocking(OFlags::RDONLY)?;
    let mut buffer = [0u8; 64 * 1024];
    let mut drained = 0;
    loop {
        match rustix::io::read(&read_end, &mut buffer) {
            Ok(0) => break,
            Ok(n) => {
                held.writer = true;
                drained += n;
                if drained >= FIFO_DRAIN_BYTES {
                    break;
                }
            }
            Err(Errno::AGAIN) => {
                held.writer = true;
                break;
            }
            Err(Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(held)
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

/// Waits at most `timeout` until `fd` can be written to (or is in error:
/// the write then says which). `false` on a timeout or an interrupted wait.
pub fn poll_writable(fd: impl AsFd, timeout: Duration) -> io::Result<bool> {
    let mut polled = [PollFd::new(&fd, PollFlags::OUT)];
    let timeout = Timespec::try_from(timeout).unwrap_or(Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    });
    match rustix::event::poll(&mut polled, Some(&timeout)) {
        Ok(n) => Ok(n > 0),
        Err(Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
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

/// Closes this process's memory to every other process of its user: not
/// dumpable (`PR_SET_DUMPABLE` 0), so `ptrace`, `/proc/<pid>/mem` and the
/// links in `/proc/<pid>/fd` need `CAP_SYS_PTRACE` even from a process of
/// the same user, and no core file is written. (`environ` and `maps` stay
/// readable to a root process that keeps `CAP_SYS_ADMIN` or
/// `CAP_PERFMON`: they hold no secret.) Then gives up `CAP_SYS_PTRACE` itself
/// (`give_up_tracing`), so every thread started from here on, and every
/// child they start, however it is started, has no way back in.
///
/// The harness holds the key that seals its event log, and runs adapters,
/// MCP servers and shell commands as its own user (root in CI; [`confine`]
/// takes their capabilities): without this, one of them read the key from
/// `/proc/$PPID/mem` and sealed a forged log (issue 21). Call it on the
/// main thread before any other thread starts: capabilities and
/// no_new_privs belong to a thread, and threads inherit them when created.
pub fn keep_memory_private() -> io::Result<()> {
    rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable)?;
    Ok(give_up_tracing()?)
}

/// Drops `CAP_SYS_PTRACE` from the calling thread's bounding set (when it
/// may: that takes `CAP_SETPCAP`, which a process already unprivileged,
/// such as the `nobody` copy after its `setuid`, no longer has and does not
/// need) and from its effective, permitted and inheritable sets (which
/// clears it from the ambient set too), then sets no_new_privs, under which
/// `execve` never grants more than the permitted set already holds.
fn give_up_tracing() -> Result<(), Errno> {
    use rustix::thread::CapabilitySet;
    match rustix::thread::remove_capability_from_bounding_set(CapabilitySet::SYS_PTRACE) {
        Ok(()) | Err(Errno::PERM) => {}
        Err(e) => return Err(e),
    }
    let mut sets = rustix::thread::capabilities(None)?;
    let held = sets.effective | sets.permitted | sets.inheritable;
    if held.contains(CapabilitySet::SYS_PTRACE) {
        sets.effective.remove(CapabilitySet::SYS_PTRACE);
        sets.permitted.remove(CapabilitySet::SYS_PTRACE);
        sets.inheritable.remove(CapabilitySet::SYS_PTRACE);
        rustix::thread::set_capabilities(None, sets)?;
    }
    rustix::thread::set_no_new_privs(true)
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

/// Sends SIGKILL to each process of `pids` through a pidfd, which names
/// that process and no other (a pid reused since the caller found it is
/// never signalled), then waits at most `limit` until every one signalled
/// has ended (a pidfd becomes readable then, for any process, not only a
/// child). Returns how many were signalled; one already gone is not.
/// SIGKILL cannot be caught, but a loaded machine takes its time to
/// deliver it, and a process stuck in the kernel is left to it.
pub fn kill_and_wait(pids: &[i32], limit: Duration) -> usize {
    let killed: Vec<std::os::fd::OwnedFd> = pids
        .iter()
        .filter_map(|pid| {
            let pidfd = rustix::process::pidfd_open(
                Pid::from_raw(*pid)?,
                rustix::process::PidfdFlags::empty(),
            )
            .ok()?;
            rustix::process::pidfd_send_signal(&pidfd, Signal::KILL).ok()?;
            Some(pidfd)
        })
        .collect();
    let deadline = std::time::Instant::now() + limit;
    let mut waiting: Vec<RawFd> = killed.iter().map(|fd| fd.as_raw_fd()).collect();
    while !waiting.is_empty() {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            break;
        }
        let watched: Vec<Option<RawFd>> = waiting.iter().copied().map(Some).collect();
        let Ok(woke) = poll_readable(&watched, left) else {
            break;
        };
        waiting = waiting
            .into_iter()
            .zip(woke)
            .filter(|(_, ended)| !ended)
            .map(|(fd, _)| fd)
            .collect();
    }
    killed.len()
}

/// Makes this process the reaper of orphaned descendants
/// (`PR_SET_CHILD_SUBREAPER`): a grandchild that left its adapter's process
/// group is re-parented here, not to init, so the run can end it.
pub fn become_subreaper() -> io::Result<()> {
    Ok(rustix::process::set_child_subreaper(Some(
        rustix::process::getpid(),
    ))?)
}

/// Fills `bytes` from the kernel's random generator (`getrandom(2)`, which
/// may return fewer bytes than asked when interrupted: it is called until
/// every byte is filled).
pub fn random_bytes(bytes: &mut [u8]) -> io::Result<()> {
    let mut filled = 0;
    while filled < bytes.len() {
        filled +=
            rustix::rand::getrandom(&mut bytes[filled..], rustix::rand::GetRandomFlags::empty())?;
    }
    Ok(())
}

/// A random 64-bit number from the kernel's generator.
pub fn random_u64() -> io::Result<u64> {
    let mut bytes = [0u8; 8];
    random_bytes(&mut bytes)?;
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
    use crate::sys::{boxed_status, boxes_subjects, confine, spawn_boxed};
    use std::process::Command;

    /// Both ways of reading an entry's extended attributes, relative to
    /// its directory (`getxattrat`) and through `/proc` (the fallback of a
    /// kernel before 6.13), give the same names and values in the same
    /// order; a link's own, none here, never its target's.
    #[test]
    fn extended_attributes_read_the_same_both_ways_and_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        std::os::unix::fs::symlink("f", dir.path().join("l")).unwrap();
        let flags = rustix::fs::XattrFlags::empty();
        rustix::fs::setxattr(&file, "user.a", b"1", flags).unwrap();
        rustix::fs::setxattr(&file, "user.b", &vec![7u8; 2000], flags).unwrap();
        let open = rustix::fs::open(
            dir.path(),
            OFlags::RDONLY | OFlags::DIRECTORY,
            Mode::empty(),
        )
        .unwrap();
        let read = |of: &XattrOf, name: &std::ffi::CStr| {
            let mut seen: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
            each_xattr_of(of, name, &mut |a, v| seen.push((a.to_vec(), v.to_vec()))).unwrap();
            seen
        };
        let through_proc = |name: &str| {
            std::ffi::CString::new(format!("/proc/self/fd/{}/{name}", open.as_raw_fd())).unwrap()
        };
        let at = read(&XattrOf::At(open.as_fd()), c"f");
        assert_eq!(at, read(&XattrOf::Path(&through_proc("f")), c"f"));
        assert_eq!(
            at,
            [
                (b"user.a".to_vec(), b"1".to_vec()),
                (b"user.b".to_vec(), vec![7u8; 2000])
            ]
        );
        // The link's own, each call on its own: listed empty, its target's
        // attribute not found on it.
        for of in [XattrOf::At(open.as_fd()), XattrOf::Path(&through_proc("l"))] {
            assert!(read(&of, c"l").is_empty());
            assert_eq!(list_xattrs(&of, c"l", &mut [0u8; 64]), Ok(0));
            assert_eq!(
                get_xattr(&of, c"l", c"user.a", &mut [0u8; 64]),
                Err(Errno::NODATA)
            );
        }
    }

    /// Under a seccomp filter that refuses `listxattrat` with `EPERM` (a
    /// container runtime's default profile refuses the calls it does not
    /// know so), the attributes are still read, through `/proc`. A thread
    /// of its own holds the filter (seccomp filters are per thread).
    #[test]
    fn extended_attributes_are_read_through_proc_where_listxattrat_is_refused() {
        use seccompiler::{SeccompAction, SeccompFilter, TargetArch};
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        rustix::fs::setxattr(&file, "user.a", b"1", rustix::fs::XattrFlags::empty()).unwrap();
        let open = rustix::fs::open(
            dir.path(),
            OFlags::RDONLY | OFlags::DIRECTORY,
            Mode::empty(),
        )
        .unwrap();
        let arch = TargetArch::try_from(std::env::consts::ARCH).unwrap();
        let rules = [(SYS_LISTXATTRAT, Vec::new())].into_iter().collect();
        let refused = SeccompAction::Errno(libc::EPERM as u32);
        let filter = SeccompFilter::new(rules, SeccompAction::Allow, refused, arch).unwrap();
        let program = seccompiler::BpfProgram::try_from(filter).unwrap();
        let seen = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    seccompiler::apply_filter(&program).unwrap();
                    let refused = list_xattrs(&XattrOf::At(open.as_fd()), c"f", &mut [0u8; 64]);
                    assert_eq!(refused, Err(Errno::PERM), "the filter holds");
                    let mut seen: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
                    each_xattr(&open, c"f", |a, v| seen.push((a.to_vec(), v.to_vec()))).unwrap();
                    seen
                })
                .join()
                .unwrap()
        });
        assert_eq!(seen, [(b"user.a".to_vec(), b"1".to_vec())]);
    }

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

    /// Issue 41: with `--keep-fixtures` a subject swapped its fixture
    /// directory for a link to a directory of root's holding a FIFO, and
    /// the release (as root) opened that FIFO. A fixture directory that is
    /// a link is refused, and the FIFO behind it is never opened.
    #[test]
    fn a_fifo_is_never_released_through_a_fixture_directory_swapped_for_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let roots = dir.path().join("root-only");
        std::fs::create_dir(&roots).unwrap();
        mkfifo(&roots.join("f"), 0o600).unwrap();
        let swapped = dir.path().join("fixture");
        std::os::unix::fs::symlink(&roots, &swapped).unwrap();
        // A reader waiting on the FIFO would be released by an open of its
        // write end; none may happen through the link.
        let reader = std::thread::spawn({
            let fifo = roots.join("f");
            move || std::fs::File::open(fifo).map(|_| ())
        });
        let released = release_fifo(&swapped, Path::new("f"));
        assert!(released.is_err(), "{released:?}");
        assert!(
            !reader.is_finished(),
            "the reader was released through the link"
        );
        // Through the directory itself it is released (the control), once
        // the reader is there.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !release_fifo(&roots, Path::new("f")).unwrap().reader {
            assert!(std::time::Instant::now() < deadline, "no reader came");
            std::thread::sleep(Duration::from_millis(5));
        }
        reader.join().unwrap().unwrap();
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

    /// The capability sets and no_new_privs of a `/bin/sh` started by
    /// `command`, from its `/proc/self/status`.
    fn child_status(mut command: Command) -> Vec<(String, u64)> {
        let out = command
            .args([
                "-c",
                "grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs):' /proc/self/status",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|line| {
                let (name, value) = line.split_once(':').unwrap();
                let value = value.trim();
                let value = u64::from_str_radix(value, 16).unwrap();
                (name.to_owned(), value)
            })
            .collect()
    }

    fn field(status: &[(String, u64)], name: &str) -> u64 {
        status.iter().find(|(n, _)| n == name).unwrap().1
    }

    /// A confined child holds no capability in any set (its bounding set
    /// is empty too when the harness may empty it: it holds
    /// `CAP_SETPCAP`) and runs with no_new_privs; the same child unconfined
    /// (the control) has no_new_privs clear and, under a root that holds
    /// capabilities, those capabilities.
    #[test]
    fn a_confined_child_holds_no_capability_and_gains_none() {
        let mut confined = Command::new("/bin/sh");
        confine(&mut confined, None);
        let status = child_status(confined);
        assert_eq!(status.len(), 6, "{status:?}");
        let mine = rustix::thread::capabilities(None).unwrap();
        let may_empty_bounding = mine
            .effective
            .contains(rustix::thread::CapabilitySet::SETPCAP);
        for (name, value) in &status {
            match name.as_str() {
                "NoNewPrivs" => assert_eq!(*value, 1),
                "CapBnd" if !may_empty_bounding => {}
                _ => assert_eq!(*value, 0, "{name} is not empty: {status:?}"),
            }
        }
        let free = child_status(Command::new("/bin/sh"));
        assert_eq!(field(&free, "NoNewPrivs"), 0, "{free:?}");
        if !mine.effective.is_empty() {
            assert_ne!(field(&free, "CapEff"), 0, "the control has none: {free:?}");
            assert_ne!(field(&free, "CapBnd"), 0, "the control has none: {free:?}");
        }
    }

    /// Confined as another user, a child of root runs as that user and
    /// group only, with the same empty sets (the bounding set included:
    /// it is emptied before the user changes, while it still may be).
    #[test]
    fn a_child_confined_as_another_user_is_that_user_with_no_capability() {
        if !is_root() {
            return;
        }
        let mut confined = Command::new("/bin/sh");
        confine(&mut confined, Some(UNPRIVILEGED_USER));
        let out = confined
            .args([
                "-c",
                "grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Uid|Gid|Groups):' /proc/self/status",
            ])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let ids = format!("{}\t{0}\t{0}\t{0}", UNPRIVILEGED_USER.0);
        assert!(text.contains(&format!("Uid:\t{ids}")), "{text}");
        let ids = format!("{}\t{0}\t{0}\t{0}", UNPRIVILEGED_USER.1);
        assert!(text.contains(&format!("Gid:\t{ids}")), "{text}");
        assert!(
            text.contains(&format!("Groups:\t{} \n", UNPRIVILEGED_USER.1))
                || text.contains(&format!("Groups:\t{}\n", UNPRIVILEGED_USER.1)),
            "{text}"
        );
        for set in ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"] {
            assert!(
                text.contains(&format!("{set}:\t0000000000000000\n")),
                "{set} in {text}"
            );
        }
        assert!(text.contains("NoNewPrivs:\t1\n"), "{text}");
    }

    /// Whether `pid` is a live process (a zombie is dead).
    fn alive(pid: i32) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit_once(')')
                .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
        })
    }

    /// A shell that leaves a sleeper in a session of its own behind, its
    /// pid (as this process sees it) written to `file` first, and exits.
    fn leaves_a_sleeper(file: &Path) -> Command {
        let mut command = Command::new("/bin/sh");
        command.args([
            "-c",
            "setsid /bin/sh -c 'read pid rest < /proc/self/stat; echo $pid > \"$1\"; exec sleep 600' sh \"$1\" & \
             while [ ! -s \"$1\" ]; do sleep 0.01; done",
            "sh",
        ]);
        command.arg(file);
        command
    }

    /// Whether subjects can be boxed here (root). Not, the test is
    /// skipped loudly, or fails where `TOOLPATH_REQUIRE_ROOT` says the
    /// machine is root (scripts/test, CI), so it never passes by not
    /// running where it must.
    fn boxes_or_skip() -> bool {
        if boxes_subjects() {
            return true;
        }
        assert!(
            std::env::var_os("TOOLPATH_REQUIRE_ROOT").is_none(),
            "subjects are not boxed here though TOOLPATH_REQUIRE_ROOT is set"
        );
        eprintln!("SKIPPED: boxing subjects needs root");
        false
    }

    /// Issue 30 item 2: a process started with `spawn_boxed` takes
    /// everything it started with it; once it is reaped, the sleeper it
    /// left in a session of its own is gone too. The control, started as
    /// it is, leaves its sleeper running.
    #[test]
    fn a_boxed_process_leaves_nothing_behind_once_reaped() {
        if !boxes_or_skip() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let pid_of = |file: &Path| -> i32 {
            std::fs::read_to_string(file)
                .unwrap()
                .trim()
                .parse()
                .unwrap()
        };
        let control = dir.path().join("control");
        let status = leaves_a_sleeper(&control).status().unwrap();
        assert!(status.success());
        let sleeper = pid_of(&control);
        assert!(alive(sleeper), "the control's sleeper is gone");
        assert_eq!(kill_and_wait(&[sleeper], Duration::from_secs(60)), 1);

        let boxed = dir.path().join("boxed");
        let (mut child, pipe) = spawn_boxed(&mut leaves_a_sleeper(&boxed)).unwrap();
        let first = child.wait().unwrap();
        let status = boxed_status(first, pipe.expect("a box"));
        assert!(status.success(), "{status}");
        let sleeper = pid_of(&boxed);
        assert!(!alive(sleeper), "the sleeper {sleeper} outlived its box");
    }

    /// The status a boxed process's harness sees is the subject's own:
    /// its exit code, or the signal that ended it.
    #[test]
    fn a_boxed_process_ends_with_its_own_status() {
        use std::os::unix::process::ExitStatusExt;
        if !boxes_or_skip() {
            return;
        }
        let mut code = Command::new("/bin/sh");
        code.args(["-c", "exit 7"]);
        let (mut child, pipe) = spawn_boxed(&mut code).unwrap();
        let status = boxed_status(child.wait().unwrap(), pipe.unwrap());
        assert_eq!(status.code(), Some(7));
        let mut term = Command::new("/bin/sh");
        term.args(["-c", "kill -TERM $$; sleep 600"]);
        let (mut child, pipe) = spawn_boxed(&mut term).unwrap();
        let status = boxed_status(child.wait().unwrap(), pipe.unwrap());
        assert_eq!(status.signal(), Some(Signal::TERM.as_raw()), "{status}");
    }

    #[test]
    fn kill_and_wait_ends_the_processes_it_names_and_no_other() {
        let mut child = Command::new("/bin/sh")
            .args(["-c", "read line"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        // Generous: only a hang guard on a loaded machine.
        assert_eq!(kill_and_wait(&[pid], Duration::from_secs(60)), 1);
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(child.wait().unwrap().signal(), Some(Signal::KILL.as_raw()));
        // A pid with no process behind it is not signalled.
        assert_eq!(kill_and_wait(&[i32::MAX], Duration::ZERO), 0);
    }

    #[test]
    fn random_numbers_differ() {
        assert_ne!(random_u64().unwrap(), random_u64().unwrap());
        // Every byte is filled, also of a buffer larger than one call may
        // return (256 bytes at most are guaranteed whole).
        let mut big = vec![0u8; 4096];
        random_bytes(&mut big).unwrap();
        assert!(big[4000..].iter().any(|b| *b != 0));
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
