//! One adapter process: started in a process group of its own, reaped by a
//! thread of its own, and ended with bounded waits only.
//!
//! A reaper thread owns the [`Child`] and blocks in `wait`; the exit status
//! comes back over a channel, so waiting for it is a `recv_timeout`: no wait
//! here can block for ever, whatever the adapter does (close its output and
//! keep running, ignore `bye`, sit in uninterruptible sleep).
//!
//! Ending a process is gentle first, as nextest ends a test: the group gets
//! SIGTERM and a bounded grace period to exit (an adapter over a Node
//! package can close what it opened), and only then SIGKILL.
//!
//! Processes that leave the group (`setsid`, a daemonising grandchild) are
//! out of reach of the group kill. A harness that called [`become_subreaper`]
//! inherits them when their parent dies, and [`end_orphans`] ends them.

use std::io;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A started process and its pipes.
pub struct Process {
    pid: u32,
    exit: Receiver<io::Result<ExitStatus>>,
    status: Option<String>,
}

/// The pipes of a started process, taken out so they can be read and
/// written while the reaper thread owns the [`Child`].
pub struct Pipes {
    pub stdin: ChildStdin,
    pub stdout: ChildStdout,
    pub stderr: ChildStderr,
}

impl Process {
    /// Starts `command` (with piped stdio) in a new process group, without
    /// privilege and as `user` when given ([`crate::sys::confine`]). The
    /// process is killed by the kernel if the thread that started it dies
    /// (PR_SET_PDEATHSIG), so even a SIGKILLed harness leaves no adapter
    /// running; the caller must keep the process on the thread that started it.
    pub fn spawn(mut command: Command, user: Option<(u32, u32)>) -> io::Result<(Process, Pipes)> {
        crate::sys::tie_to_parent(&mut command, user);
        let (mut child, boxed) = crate::sys::spawn_boxed(&mut command)?;
        let stdin = child.stdin.take().expect("piped stdin");
        // Written only through `write_by`: a subject that stops reading
        // never blocks the harness beyond a deadline.
        crate::sys::set_nonblocking(&stdin)?;
        let pipes = Pipes {
            stdin,
            stdout: child.stdout.take().expect("piped stdout"),
            stderr: child.stderr.take().expect("piped stderr"),
        };
        let pid = child.id();
        Ok((
            Process {
                pid,
                exit: reaper(child, boxed),
                status: None,
            },
            pipes,
        ))
    }

    /// Waits at most `timeout` for the process to exit; its status if it did.
    pub fn wait_timeout(&mut self, timeout: Duration) -> Option<&str> {
        if self.status.is_none() {
            self.status = match self.exit.recv_timeout(timeout) {
                Ok(Ok(status)) => Some(status.to_string()),
                Ok(Err(e)) => Some(format!("status unknown: {e}")),
                Err(RecvTimeoutError::Disconnected) => Some("status unknown".into()),
                Err(RecvTimeoutError::Timeout) => None,
            };
        }
        self.status.as_deref()
    }

    /// Kills the whole process group. Safe after the leader exited: Linux
    /// does not reuse a pid while a process group of that id has members.
    pub fn kill_group(&self) {
        crate::sys::kill_group(self.pid, crate::sys::Signal::KILL);
    }

    /// Ends the process: up to `grace` for it to exit by itself, then
    /// SIGTERM to the group and up to `term_grace` for the leader to exit,
    /// then SIGKILL to the group (members may outlive the leader) and the
    /// leader reaped within `reap`. Returns whether it exited by itself
    /// (before any signal), and its exit status or why there is none.
    pub fn end(&mut self, grace: Duration, term_grace: Duration, reap: Duration) -> (bool, String) {
        let exited = self.wait_timeout(grace).is_some();
        if !exited {
            crate::sys::kill_group(self.pid, crate::sys::Signal::TERM);
            self.wait_timeout(term_grace);
        }
        self.kill_group();
        let status = match self.wait_timeout(reap) {
            Some(status) => status.to_owned(),
            None => format!(
                "not reaped {} ms after SIGKILL (left to its reaper thread)",
                reap.as_millis()
            ),
        };
        (exited, status)
    }
}

/// Writes all of `bytes` to a subject's standard input (non-blocking,
/// [`Process::spawn`]) by `deadline`: a subject that stops reading its
/// input while it floods its output (or takes a 200 KiB call it never
/// reads) fails with [`io::ErrorKind::TimedOut`] at the call's deadline
/// instead of holding the harness in a write for ever (issue 30, item 5).
pub fn write_by(stdin: &mut ChildStdin, bytes: &[u8], deadline: Instant) -> io::Result<()> {
    use std::io::Write;
    let mut rest = bytes;
    while !rest.is_empty() {
        match stdin.write(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        "it did not read its input in time",
                    ));
                }
                crate::sys::poll_writable(&*stdin, left)?;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Waits for `child` on a thread of its own. A boxed child
/// ([`crate::sys::spawn_boxed`]) is the first process of the subject's
/// PID namespace: once it is reaped, so is everything the subject left
/// there, and the status sent is the subject's own.
fn reaper(
    mut child: Child,
    boxed: Option<std::io::PipeReader>,
) -> Receiver<io::Result<ExitStatus>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let status = child.wait();
        let status = match boxed {
            Some(pipe) => status.map(|first| crate::sys::boxed_status(first, pipe)),
            None => status,
        };
        let _ = tx.send(status);
    });
    rx
}

/// Makes this process the reaper of orphaned descendants (Linux
/// PR_SET_CHILD_SUBREAPER), so a grandchild that left its adapter's process
/// group is re-parented here, not to init, and [`end_orphans`] can end it.
pub fn become_subreaper() -> io::Result<()> {
    crate::sys::become_subreaper()
}

/// The pids of this process's children, from `/proc`.
fn children() -> Vec<u32> {
    let me = std::process::id();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| parent_of(*pid) == Some(me))
        .collect()
}

/// The parent pid from `/proc/PID/stat` (the field after the state, which
/// follows the last `)`: the command name may contain anything).
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Kills and reaps every child still left once all adapters were ended:
/// orphans that escaped their process group and were re-parented here.
/// Bounded by `timeout`; returns how many were found.
pub fn end_orphans(timeout: Duration) -> usize {
    let deadline = Instant::now() + timeout;
    let mut ended = 0;
    loop {
        let orphans = children();
        if orphans.is_empty() || Instant::now() >= deadline {
            return ended;
        }
        ended += orphans.len();
        let (tx, rx) = mpsc::channel();
        for pid in orphans {
            // A child of ours that no one else waits for.
            crate::sys::kill(pid, crate::sys::Signal::KILL);
            let tx = tx.clone();
            std::thread::spawn(move || {
                crate::sys::wait_for(pid);
                let _ = tx.send(pid);
            });
        }
        drop(tx);
        while rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .is_ok()
        {}
    }
}
