//! The box every process a run starts for its subject runs in, made
//! between `fork` and `exec` (issues 30 and 41): what the subject may
//! reach is decided here, once, for every command that starts one
//! (`run`, `fuzz`, `smoke`, `tools`, certification) and for the
//! reference's shell commands.
//!
//! In the child, in this order ([`enter`]):
//! 1. every descriptor but its three standard ones is marked
//!    close-on-exec (`close_range(3, ~0, CLOSE_RANGE_CLOEXEC)`): a
//!    descriptor the harness inherited without the flag (a root-only log
//!    its caller opened) never reaches the subject;
//! 2. it becomes the leader of a session of its own (`setsid`): it has
//!    no controlling terminal, so `/dev/tty` does not open for it and
//!    `TIOCSTI` cannot type into the terminal of the shell that started
//!    the harness (a session leader acquires a terminal only by opening
//!    one no session holds, and the user it runs as can open none);
//! 3. where the harness may (`CAP_SYS_ADMIN`), it gets an IPC namespace
//!    of its own: SysV shared memory, message queues, semaphores and
//!    POSIX message queues it makes go when its last process does;
//! 4. its [`LIMITS`] (processes of its user, data, file size, open
//!    files, no core files);
//! 5. every capability leaves it, it becomes the run's user when given,
//!    and no_new_privs is set ([`give_up_privileges`]);
//! 6. it dies with the harness's spawning thread (`PR_SET_PDEATHSIG`),
//!    armed only now: the kernel clears the death signal when a
//!    process's user changes, so armed before step 5 it was gone and a
//!    SIGKILLed harness left its subject running;
//! 7. a seccomp filter ([`no_user_namespaces`]) refuses it a user
//!    namespace (`unshare` or `clone` with `CLONE_NEWUSER`; `clone3`,
//!    whose flags a filter cannot read, answers `ENOSYS`, so the C
//!    library falls back to `clone`), where it would hold every
//!    capability again.
//!
//! [`spawn_boxed`] then makes the child the first process of a PID
//! namespace of its own, which forks the subject and waits for it.

use std::io;
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::Command;

use rustix::io::Errno;

use super::linux::ids;
use rustix::process::{Pid, Resource, Rlimit, Signal};

/// What one subject's processes may use, each a resource limit
/// (`setrlimit`) set in the box. Processes count every process and
/// thread of the subject's user, which is the run's own
/// (`session::run_user`): a fork bomb stops at its own run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Processes and threads of the user (`RLIMIT_NPROC`). Not enforced
    /// for a subject run as root (`--subject-as-root`).
    pub processes: u64,
    /// Bytes of data each process may map writable (`RLIMIT_DATA`): not
    /// `RLIMIT_AS`, which counts the address space Node and V8 reserve
    /// without using it.
    pub data_bytes: u64,
    /// The largest file it may write (`RLIMIT_FSIZE`): fixtures live on a
    /// tmpfs, in memory.
    pub file_bytes: u64,
    /// Open descriptors of each process (`RLIMIT_NOFILE`).
    pub open_files: u64,
}

/// The limits of every subject: far above what the published tools the
/// project certifies use (a Node agent package starts tens of threads and
/// maps a few hundred MiB; a run's largest fixture file is a few MiB),
/// far below what takes the machine down (the issue's fork bomb reached
/// 1,193 processes).
pub const LIMITS: Limits = Limits {
    processes: 512,
    data_bytes: 4 << 30,
    file_bytes: 256 << 20,
    open_files: 4096,
};

/// `CLONE_NEWUSER`, the flag the seccomp filter refuses.
const CLONE_NEWUSER: u64 = 0x1000_0000;

/// The seccomp filters that refuse a user namespace, built once in the
/// harness (a child between fork and exec may not allocate): `None` on an
/// architecture seccompiler does not know, where the box goes without
/// ([`refuses_user_namespaces`] says so, and the report).
fn no_user_namespaces() -> Option<&'static [seccompiler::BpfProgram]> {
    static FILTERS: std::sync::OnceLock<Option<Vec<seccompiler::BpfProgram>>> =
        std::sync::OnceLock::new();
    FILTERS.get_or_init(build_filters).as_deref()
}

/// Whether the box refuses its subject a user namespace here.
pub fn refuses_user_namespaces() -> bool {
    no_user_namespaces().is_some()
}

/// Two filters, as seccomp stacks them: `unshare` and `clone` with
/// `CLONE_NEWUSER` fail with `EPERM`, and `clone3` with `ENOSYS`. On
/// x86-64 the x32 numbers of the same calls are refused too (the filter's
/// architecture check lets them through as x86-64).
fn build_filters() -> Option<Vec<seccompiler::BpfProgram>> {
    use seccompiler::{
        SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
        SeccompRule, TargetArch,
    };
    use std::collections::BTreeMap;
    let arch = TargetArch::try_from(std::env::consts::ARCH).ok()?;
    let x32: &[i64] = match arch {
        TargetArch::x86_64 => &[0, 0x4000_0000],
        _ => &[0],
    };
    let with_newuser = || -> Option<Vec<SeccompRule>> {
        let flags = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::MaskedEq(CLONE_NEWUSER),
            CLONE_NEWUSER,
        )
        .ok()?;
        Some(vec![SeccompRule::new(vec![flags]).ok()?])
    };
    let mut namespaced = BTreeMap::new();
    let mut clone3 = BTreeMap::new();
    for base in x32 {
        namespaced.insert(base + libc::SYS_unshare, with_newuser()?);
        namespaced.insert(base + libc::SYS_clone, with_newuser()?);
        clone3.insert(base + libc::SYS_clone3, Vec::new());
    }
    let filter = |rules, errno: i32| {
        let filter = SeccompFilter::new(
            rules,
            SeccompAction::Allow,
            SeccompAction::Errno(errno as u32),
            arch,
        )
        .ok()?;
        seccompiler::BpfProgram::try_from(filter).ok()
    };
    Some(vec![
        filter(namespaced, libc::EPERM)?,
        filter(clone3, libc::ENOSYS)?,
    ])
}

/// What [`enter`] does beyond what every boxed process gets.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// The harness's pid, when the process must die with the thread that
    /// started it (a subject; not a reference shell command, which the
    /// harness waits for on the spot).
    parent: Option<u32>,
    /// An IPC namespace of its own ([`boxes_subjects`]).
    private_ipc: bool,
    user: Option<(u32, u32)>,
    filters: Option<&'static [seccompiler::BpfProgram]>,
}

/// The box, entered in the child between fork and exec (see the module
/// documentation for the order and why). Only raw system calls, no
/// allocation: async-signal-safe.
fn enter(entry: Entry) -> Result<(), Errno> {
    // SAFETY: a raw system call on integers.
    if unsafe { libc::close_range(3, libc::c_uint::MAX, libc::CLOSE_RANGE_CLOEXEC as i32) } != 0 {
        return Err(Errno::from_raw_os_error(errno()));
    }
    rustix::process::setsid()?;
    if entry.private_ipc {
        // SAFETY: CLONE_NEWIPC changes only this (single-threaded) child.
        unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWIPC) }?;
    }
    limit(Resource::Nproc, LIMITS.processes)?;
    limit(Resource::Data, LIMITS.data_bytes)?;
    limit(Resource::Fsize, LIMITS.file_bytes)?;
    limit(Resource::Nofile, LIMITS.open_files)?;
    limit(Resource::Core, 0)?;
    if !entry.private_ipc {
        // POSIX message queues live in the machine's IPC namespace then,
        // where nothing can list them unless /dev/mqueue is mounted: the
        // subject may make none (a queue costs more than 0 bytes).
        limit(Resource::Msgqueue, 0)?;
    }
    give_up_privileges(entry.user)?;
    // After the change of user, which clears it (see the module doc).
    if let Some(parent) = entry.parent {
        rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
        // In a PID namespace of its own (`spawn_boxed`) the parent is
        // outside it and `getppid` says 0: the harness is there as long
        // as the namespace's first process lives, which a dead harness's
        // death signal or `PR_SET_PDEATHSIG` itself ends.
        match rustix::process::getppid().map(Pid::as_raw_pid) {
            None => {}
            Some(p) if p == parent as i32 => {}
            Some(_) => {
                let _ = rustix::process::kill_process(rustix::process::getpid(), Signal::KILL);
            }
        }
    }
    for filter in entry.filters.unwrap_or_default() {
        seccompiler::apply_filter(filter).map_err(|_| Errno::from_raw_os_error(errno()))?;
    }
    Ok(())
}

/// The calling thread's `errno`.
fn errno() -> i32 {
    io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EINVAL)
}

/// Lowers `resource` to at most `most` (never raises a lower limit).
fn limit(resource: Resource, most: u64) -> Result<(), Errno> {
    let held = rustix::process::getrlimit(resource);
    let lower = |l: Option<u64>| Some(l.map_or(most, |l| l.min(most)));
    rustix::process::setrlimit(
        resource,
        Rlimit {
            current: lower(held.current),
            maximum: lower(held.maximum),
        },
    )
}

/// Starts `command`'s process in the box (see the module documentation),
/// as `user` when given, killed by the kernel when the thread that
/// spawned it ends (`PR_SET_PDEATHSIG`), so even a SIGKILLed harness
/// leaves no adapter behind. `parent` is this process's pid, checked in
/// the child: the harness may have died before the death signal was
/// armed. Its session is its process group: [`crate::sys::kill_group`]
/// with its pid reaches it.
pub fn tie_to_parent(command: &mut Command, user: Option<(u32, u32)>) {
    let entry = Entry {
        parent: Some(std::process::id()),
        private_ipc: boxes_subjects(),
        user,
        filters: no_user_namespaces(),
    };
    // SAFETY: see `enter`.
    unsafe {
        command.pre_exec(move || Ok(enter(entry)?));
    }
}

/// Makes `command`'s process a process without privilege, in the box but
/// for the death signal and the IPC namespace: for the reference's shell
/// commands, which run as the harness's user and which it waits for.
/// Every capability leaves its bounding set (while it still holds
/// `CAP_SETPCAP` to drop them), it becomes `user` when given, its sets
/// are emptied and no_new_privs is set: no program it runs, a setuid one
/// or root's own `execve` included, gets a capability back, so it cannot
/// trace the harness, mount tracefs (uprobes), load eBPF, read
/// `/proc/kcore` or use any other privileged interface from which the
/// spool's key could be read. A child that fails any step does not start.
pub fn confine(command: &mut Command, user: Option<(u32, u32)>) {
    let entry = Entry {
        parent: None,
        private_ipc: false,
        user,
        filters: no_user_namespaces(),
    };
    // SAFETY: see `enter`.
    unsafe {
        command.pre_exec(move || Ok(enter(entry)?));
    }
}

/// The harness's own PID namespace, when it may give each subject one of
/// its own ([`spawn_boxed`]): found once, by trying on a thread of its own
/// (`unshare(CLONE_NEWPID)` and back with `setns` take `CAP_SYS_ADMIN`).
fn own_pid_namespace() -> Option<&'static std::os::fd::OwnedFd> {
    static OWN: std::sync::OnceLock<Option<std::os::fd::OwnedFd>> = std::sync::OnceLock::new();
    OWN.get_or_init(|| {
        let own: std::os::fd::OwnedFd = std::fs::File::open("/proc/self/ns/pid").ok()?.into();
        let probe = std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    // SAFETY: CLONE_NEWPID changes only where this thread's
                    // children go; the thread ends right after.
                    unsafe {
                        rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWPID)
                    }?;
                    leave_box(&own)
                })
                .join()
        });
        matches!(probe, Ok(Ok(()))).then_some(own)
    })
    .as_ref()
}

/// Sends this thread's next children to the harness's own PID namespace again.
fn leave_box(own: &std::os::fd::OwnedFd) -> Result<(), Errno> {
    use rustix::thread::LinkNameSpaceType;
    rustix::thread::move_into_link_name_space(own.as_fd(), Some(LinkNameSpaceType::ProcessID))
}

/// Whether [`spawn_boxed`] gives each subject a PID namespace of its own
/// here (the harness holds `CAP_SYS_ADMIN`): if not, a process a subject
/// leaves behind may outlive the run, and the report says so.
pub fn boxes_subjects() -> bool {
    own_pid_namespace().is_some()
}

/// Starts `command` in a PID namespace of its own, where it is not the
/// first process: a first process made between fork and exec forks it,
/// waits for it, and exits with its status, and the kernel then kills
/// every process left in the namespace (a daemon, a chain of `setsid`
/// sleepers, whatever escaped the process group) and reaps them before
/// the first process's own exit can be waited for. So once the harness
/// has waited for the [`std::process::Child`] returned, nothing the
/// subject started is left (issue 30, item 2). The subject is not the
/// namespace's first process so that signals keep their usual effect on
/// it (the first process of a namespace ignores those it does not handle)
/// and so that its exit status is its own: the first process writes the
/// subject's wait status to the returned pipe before it exits, and
/// [`boxed_status`] reads it back.
///
/// Where no namespace can be made ([`boxes_subjects`] is false) the
/// command is started as it is, and no pipe is returned.
pub fn spawn_boxed(
    command: &mut Command,
) -> io::Result<(std::process::Child, Option<std::io::PipeReader>)> {
    let Some(own) = own_pid_namespace() else {
        return Ok((command.spawn()?, None));
    };
    let (reader, writer) = std::io::pipe()?;
    let status_fd = writer.as_raw_fd();
    // SAFETY: the closure runs between fork and exec; see `be_first_process`.
    unsafe {
        command.pre_exec(move || be_first_process(status_fd));
    }
    // SAFETY: CLONE_NEWPID changes only where this thread's children go;
    // it is undone right after the spawn.
    unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWPID) }?;
    let spawned = command.spawn();
    leave_box(own).expect("a thread that left its PID namespace may enter it again");
    drop(writer);
    Ok((spawned?, Some(reader)))
}

/// In the child, the first process of a new PID namespace: forks (a raw
/// `clone`, no fork handlers), and the copy returns to exec the subject;
/// this one closes every descriptor but `status_fd` (the subject alone
/// holds its pipes, so their ends are seen), waits for the subject (and
/// reaps what is re-parented to it meanwhile), writes the subject's wait
/// status to `status_fd` and exits with the same code (or 128 and the
/// signal). Only raw system calls, no allocation: async-signal-safe.
fn be_first_process(status_fd: RawFd) -> io::Result<()> {
    let child = fork_raw()?;
    if child == 0 {
        return Ok(());
    }
    let fd = status_fd as libc::c_uint;
    let mut status: libc::c_int = 0;
    // SAFETY: raw system calls on integers and a local.
    unsafe {
        if fd > 0 {
            libc::close_range(0, fd - 1, 0);
        }
        libc::close_range(fd + 1, libc::c_uint::MAX, 0);
        loop {
            let mut reaped: libc::c_int = 0;
            let pid = libc::waitpid(-1, &mut reaped, 0);
            if pid == child as libc::pid_t {
                status = reaped;
                break;
            }
            if pid < 0 && *libc::__errno_location() != libc::EINTR {
                break;
            }
        }
        let bytes = status.to_ne_bytes();
        libc::write(status_fd, bytes.as_ptr().cast(), bytes.len());
        let code = if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            128 + libc::WTERMSIG(status)
        };
        libc::_exit(code)
    }
}

/// fork(2) as a raw `clone` with SIGCHLD alone and no new stack: no fork
/// handlers run (a child of a threaded harness between fork and exec may
/// take no lock), and the child continues on a copy of this stack. The
/// child's pid, or 0 in the child.
fn fork_raw() -> io::Result<libc::c_long> {
    // SAFETY: see above; the caller's child makes only raw system calls.
    let child = unsafe {
        libc::syscall(
            libc::SYS_clone,
            libc::SIGCHLD as libc::c_long,
            0 as libc::c_long,
            0 as libc::c_long,
            0 as libc::c_long,
            0 as libc::c_long,
        )
    };
    match child {
        -1 => Err(io::Error::last_os_error()),
        child => Ok(child),
    }
}

/// The subject's own exit status, from the first process of its box
/// ([`spawn_boxed`]): `first` is how that process ended; when it exited
/// by itself, `pipe` holds the subject's wait status. A first process
/// killed (SIGKILL from the harness) killed the subject with it.
pub fn boxed_status(
    first: std::process::ExitStatus,
    mut pipe: std::io::PipeReader,
) -> std::process::ExitStatus {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    if first.code().is_none() {
        return first;
    }
    let mut bytes = [0u8; 4];
    match pipe.read_exact(&mut bytes) {
        Ok(()) => std::process::ExitStatus::from_raw(i32::from_ne_bytes(bytes)),
        Err(_) => first,
    }
}

/// [`confine`]'s work, in the child.
fn give_up_privileges(user: Option<(u32, u32)>) -> Result<(), Errno> {
    use rustix::thread::CapabilitySet;
    let held = rustix::thread::capabilities(None)?;
    if held.effective.contains(CapabilitySet::SETPCAP) {
        for capability in CapabilitySet::all().iter() {
            match rustix::thread::remove_capability_from_bounding_set(capability) {
                // EINVAL: a capability this kernel does not know.
                Ok(()) | Err(Errno::INVAL) => {}
                Err(e) => return Err(e),
            }
        }
    }
    if let Some((uid, gid)) = user {
        let (uid, gid) = ids((uid, gid));
        rustix::thread::set_thread_groups(&[gid])?;
        rustix::thread::set_thread_res_gid(gid, gid, gid)?;
        rustix::thread::set_thread_res_uid(uid, uid, uid)?;
    }
    let none = rustix::thread::CapabilitySets {
        effective: CapabilitySet::empty(),
        permitted: CapabilitySet::empty(),
        inheritable: CapabilitySet::empty(),
    };
    rustix::thread::set_capabilities(None, none)?;
    match rustix::thread::clear_ambient_capability_set() {
        Ok(()) | Err(Errno::INVAL) => {}
        Err(e) => return Err(e),
    }
    rustix::thread::set_no_new_privs(true)
}

/// A SysV IPC object, by kind and id (`/proc/sysvipc/*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SysvObject {
    SharedMemory(i32),
    MessageQueue(i32),
    Semaphores(i32),
}

/// Ends every process of `user` and removes the SysV IPC objects `ipc`,
/// from a process of that user: a raw `clone` of this one that takes
/// `user`'s ids (and so no capability) and sends SIGKILL to every process
/// it may signal (`kill(-1)`: exactly those of its user, in this PID
/// namespace and those below it, never itself). Rounds of that repeat
/// while `/proc` still shows a live process of the user ([`live_processes`]),
/// [`END_ROUNDS`] at most; then one more such process removes each object
/// of `ipc` as its owner. What it can do is what the subject's user could:
/// nothing of another user's is touched, whatever `ipc` names. `Err` when
/// such a process could not start; else the rounds it took.
///
/// Why rounds, and why `/proc` decides: `kill(-1)` succeeds whenever any
/// other process exists at all, signalled or not (the kernel counts the
/// processes it may not signal too), so its result cannot say that none
/// of the user's is left. A loop that stopped on its failure ran all of
/// its 10,000 calls every time, each one a walk of every process on the
/// machine: 0.3 to 0.4 s of system time, four times a run.
pub fn end_user(user: (u32, u32), ipc: &[SysvObject]) -> io::Result<usize> {
    let mut rounds = 0;
    while rounds < END_ROUNDS {
        as_user(user, || {
            // SAFETY: a raw system call on integers.
            unsafe { libc::kill(-1, libc::SIGKILL) };
        })?;
        rounds += 1;
        if live_processes(user.0) == 0 {
            break;
        }
        // A process killed is gone once the kernel has run its exit.
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    if !ipc.is_empty() {
        as_user(user, || remove_sysv(ipc))?;
    }
    Ok(rounds)
}

/// How many rounds of `kill(-1)` [`end_user`] makes at most: a user
/// whose processes fork faster than they die (its process limit bounds
/// them) is still ended, and no end waits unbounded on one that cannot
/// die at once (in an uninterruptible sleep, SIGKILL pending).
pub const END_ROUNDS: usize = 50;

/// Runs `work` in a raw `clone` of this process that takes `user`'s ids
/// (and so no capability), and waits for it. The child makes raw system
/// calls only (no allocation, no lock: this process may be threaded) and
/// ends with `_exit`.
fn as_user((uid, gid): (u32, u32), work: impl Fn()) -> io::Result<()> {
    let child = fork_raw()?;
    if child == 0 {
        let (uid, gid) = ids((uid, gid));
        let became = rustix::thread::set_thread_groups(&[gid])
            .and_then(|()| rustix::thread::set_thread_res_gid(gid, gid, gid))
            .and_then(|()| rustix::thread::set_thread_res_uid(uid, uid, uid));
        let code = match became {
            Ok(()) => {
                work();
                0
            }
            Err(_) => 1,
        };
        // SAFETY: ends this child without running the parent's exit handlers.
        unsafe { libc::_exit(code) }
    }
    let mut status = 0;
    loop {
        // SAFETY: waits for the child made above.
        let waited = unsafe { libc::waitpid(child as libc::pid_t, &mut status, 0) };
        if waited >= 0 || errno() != libc::EINTR {
            break;
        }
    }
    match libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
        true => Ok(()),
        false => Err(io::Error::other(
            "the process that ends the subject's user failed",
        )),
    }
}

/// Removes each of `objects` (raw system calls only: run in [`as_user`]).
fn remove_sysv(objects: &[SysvObject]) {
    for object in objects {
        // SAFETY: raw system calls on integers; IPC_RMID reads no buffer.
        unsafe {
            match *object {
                SysvObject::SharedMemory(id) => {
                    libc::shmctl(id, libc::IPC_RMID, std::ptr::null_mut());
                }
                SysvObject::MessageQueue(id) => {
                    libc::msgctl(id, libc::IPC_RMID, std::ptr::null_mut());
                }
                SysvObject::Semaphores(id) => {
                    libc::semctl(id, 0, libc::IPC_RMID);
                }
            }
        }
    }
}

/// How many processes `/proc` shows whose real or saved user id is `uid`
/// (those a process of `uid` may signal) and that have not yet died
/// (neither a zombie nor dead): what a round of [`end_user`] left.
pub fn live_processes(uid: u32) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    (entries.flatten())
        .filter(|entry| entry.file_name().to_str().is_some_and(is_pid))
        .filter_map(|entry| std::fs::read_to_string(entry.path().join("status")).ok())
        .filter(|status| is_live_process_of(status, uid))
        .count()
}

fn is_pid(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a `/proc/PID/status` text is that of a live process of `uid`:
/// its `State:` neither `Z` nor `X`, and its `Uid:` line (real,
/// effective, saved, filesystem) names `uid` as real or saved.
fn is_live_process_of(status: &str, uid: u32) -> bool {
    let field =
        |name: &str| (status.lines()).find_map(|line| line.strip_prefix(name).map(str::trim_start));
    let dead = field("State:").is_none_or(|state| state.starts_with(['Z', 'X']));
    let ids: Vec<u32> = field("Uid:")
        .map(|ids| {
            ids.split_whitespace()
                .filter_map(|n| n.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    !dead && ids.len() == 4 && (ids[0] == uid || ids[2] == uid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsFd;
    use std::process::Stdio;

    /// What a boxed `sh` sees of itself, one `name: value` line each.
    fn inside_the_box(extra_fd: impl AsFd) -> String {
        let script = r#"
            set -- $(cut -d' ' -f6,7 /proc/$$/stat)
            echo "session-leader: $([ "$1" = $$ ] && echo yes || echo no)"
            echo "tty: $2"
            echo "fds: $(ls /proc/$$/fd | tr '\n' ' ')"
            if ( : </dev/tty ) 2>/dev/null; then echo "dev-tty: opened"; else echo "dev-tty: refused"; fi
            grep -E '^Max (processes|data size|file size|open files|core file size)' /proc/$$/limits | tr -s ' '
            if unshare -U true 2>/dev/null; then echo "user-namespace: allowed"; else echo "user-namespace: refused"; fi
            echo "ipc: $(readlink /proc/$$/ns/ipc)"
        "#;
        // A descriptor without close-on-exec, as a caller of the harness
        // could leave one.
        let fd = rustix::io::dup(extra_fd).unwrap();
        let number = fd.as_raw_fd();
        let mut command = Command::new("/bin/sh");
        command
            .args(["-c", script])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        tie_to_parent(&mut command, None);
        let out = command.output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        drop(fd);
        format!("held-fd: {number}\n{text}")
    }

    /// A user id no run ever holds: just below `session::run_user::IDS`
    /// (runs claim 60,900 to 61,183), so ending its processes can never
    /// end a subject of a run beside these tests (an id inside the range
    /// was safe only while fewer than 250 runs were live). The test checks
    /// that no account names it.
    const SWEPT: u32 = 60_899;

    #[test]
    fn a_live_process_is_one_whose_real_or_saved_id_is_the_user_s() {
        let status = |state: &str, ids: &str| format!("Name:\tsh\nState:\t{state}\nUid:\t{ids}\n");
        assert!(is_live_process_of(&status("S (sleeping)", "7 7 7 7"), 7));
        assert!(
            is_live_process_of(&status("R (running)", "0 0 7 0"), 7),
            "saved"
        );
        assert!(
            is_live_process_of(&status("D (disk sleep)", "7 0 0 0"), 7),
            "real"
        );
        assert!(
            !is_live_process_of(&status("S (sleeping)", "0 7 0 7"), 7),
            "effective only"
        );
        assert!(!is_live_process_of(&status("Z (zombie)", "7 7 7 7"), 7));
        assert!(!is_live_process_of(&status("X (dead)", "7 7 7 7"), 7));
        assert!(
            !is_live_process_of("Name:\tsh\nUid:\t7 7 7 7\n", 7),
            "no state"
        );
        assert!(!is_live_process_of(&status("S (sleeping)", "8 8 8 8"), 7));
    }

    #[test]
    fn ending_a_user_ends_its_processes_and_their_children_in_few_rounds() {
        if !crate::sys::is_root() {
            return;
        }
        let named = |file: &str| {
            (std::fs::read_to_string(file).unwrap().lines())
                .any(|line| line.split(':').nth(2) == Some(&SWEPT.to_string()))
        };
        assert!(
            !named("/etc/passwd") && !named("/etc/group"),
            "{SWEPT} is an account's"
        );
        // Nothing of the user's: one round (a loop that stopped only on
        // `kill(-1)` failing made 10,000 calls, whatever there was).
        assert_eq!(live_processes(SWEPT), 0);
        assert_eq!(end_user((SWEPT, SWEPT), &[]).unwrap(), 1);
        // A process of the user that keeps making children.
        let mut forker = Command::new("/bin/sh");
        forker
            .args(["-c", "while :; do sleep 30 & sleep 0.01; done"])
            .uid(SWEPT)
            .gid(SWEPT)
            .stdin(Stdio::null());
        let mut forker = forker.spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(live_processes(SWEPT) >= 2, "the forker and a child run");
        let rounds = end_user((SWEPT, SWEPT), &[]).unwrap();
        // The forker is this process's child: reaped here, not a live one.
        forker.wait().unwrap();
        assert_eq!(live_processes(SWEPT), 0, "after {rounds} rounds");
        assert!(rounds < END_ROUNDS, "{rounds}");
    }

    fn value<'t>(text: &'t str, name: &str) -> &'t str {
        (text.lines())
            .find_map(|line| line.strip_prefix(&format!("{name}: ")))
            .unwrap_or_else(|| panic!("no {name}:\n{text}"))
    }

    #[test]
    fn a_subject_leads_a_session_without_a_terminal_and_holds_only_its_own_descriptors() {
        let file = std::fs::File::open("/proc/self/status").unwrap();
        let text = inside_the_box(&file);
        assert_eq!(value(&text, "session-leader"), "yes", "{text}");
        assert_eq!(value(&text, "tty"), "0", "{text}");
        assert_eq!(value(&text, "dev-tty"), "refused", "{text}");
        let held = value(&text, "held-fd");
        let fds: Vec<&str> = value(&text, "fds").split_whitespace().collect();
        assert!(!fds.contains(&held), "fd {held} was inherited: {text}");
        // Its three, and the one `ls` opens to list them.
        assert!(fds.len() <= 4, "{text}");
    }

    #[test]
    fn a_subject_has_its_limits_no_user_namespace_and_its_own_ipc_namespace_when_boxed() {
        let file = std::fs::File::open("/proc/self/status").unwrap();
        let text = inside_the_box(&file);
        for (line, most) in [
            ("Max processes", LIMITS.processes),
            ("Max data size", LIMITS.data_bytes),
            ("Max file size", LIMITS.file_bytes),
            ("Max open files", LIMITS.open_files),
            ("Max core file size", 0),
        ] {
            let limits = (text.lines())
                .find(|l| l.starts_with(line))
                .unwrap_or_else(|| panic!("no {line}:\n{text}"));
            let numbers: Vec<u64> = (limits.split_whitespace())
                .filter_map(|w| w.parse().ok())
                .collect();
            assert!(
                numbers.len() == 2 && numbers.iter().all(|n| *n <= most),
                "{line} above {most}: {limits}"
            );
        }
        // Meaningful where a user namespace can be made at all.
        let unboxed = Command::new("unshare").args(["-U", "true"]).output();
        if unboxed.is_ok_and(|out| out.status.success()) {
            assert!(refuses_user_namespaces(), "no seccomp filter here");
            assert_eq!(value(&text, "user-namespace"), "refused", "{text}");
        }
        let own = std::fs::read_link("/proc/self/ns/ipc").unwrap();
        let theirs = value(&text, "ipc");
        assert_eq!(
            theirs != own.to_str().unwrap(),
            boxes_subjects(),
            "an IPC namespace of its own exactly when boxed: {text}"
        );
    }
}
