//! One adapter process: started in a process group of its own, reaped by a
//! thread of its own, and ended with bounded waits only.
//!
//! A reaper thread owns the [`Child`] and blocks in `wait`; the exit status
//! comes back over a channel, so waiting for it is a `recv_timeout`: no wait
//! here can block for ever, whatever the adapter does (close its output and
//! keep running, ignore `bye`, sit in uninterruptible sleep).
//!
//! Processes that leave the group (`setsid`, a daemonising grandchild) are
//! out of reach of the group kill. A harness that called [`become_subreaper`]
//! inherits them when their parent dies, and [`end_orphans`] ends them.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A started process and its pipes.
pub struct Process {
    pid: libc::pid_t,
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
    /// Starts `command` (with piped stdio) in a new process group. The
    /// process is killed by the kernel if the thread that started it dies
    /// (PR_SET_PDEATHSIG), so even a SIGKILLed harness leaves no adapter
    /// running; the caller must keep the process on the thread that started it.
    pub fn spawn(mut command: Command) -> io::Result<(Process, Pipes)> {
        let parent = std::process::id() as libc::pid_t;
        command.process_group(0);
        // SAFETY: the closure runs between fork and exec and only makes
        // async-signal-safe system calls (prctl, getppid, raise).
        unsafe {
            command.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                    return Err(io::Error::last_os_error());
                }
                // The harness may have died before the prctl took effect.
                if libc::getppid() != parent {
                    libc::raise(libc::SIGKILL);
                }
                Ok(())
            });
        }
        let mut child = command.spawn()?;
        let pipes = Pipes {
            stdin: child.stdin.take().expect("piped stdin"),
            stdout: child.stdout.take().expect("piped stdout"),
            stderr: child.stderr.take().expect("piped stderr"),
        };
        let pid = child.id() as libc::pid_t;
        Ok((
            Process {
                pid,
                exit: reaper(child),
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
        // SAFETY: kill(2) with a negative pid signals the group we created.
        unsafe {
            libc::kill(-self.pid, libc::SIGKILL);
        }
    }

    /// Ends the process: up to `grace` for it to exit by itself, then the
    /// group is killed and the leader reaped within `reap`. Returns whether
    /// it exited by itself, and its exit status or why there is none.
    pub fn end(&mut self, grace: Duration, reap: Duration) -> (bool, String) {
        let exited = self.wait_timeout(grace).is_some();
        // Members of the group may outlive the leader; end them either way.
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

fn reaper(mut child: Child) -> Receiver<io::Result<ExitStatus>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    rx
}

/// Makes this process the reaper of orphaned descendants (Linux
/// PR_SET_CHILD_SUBREAPER), so a grandchild that left its adapter's process
/// group is re-parented here, not to init, and [`end_orphans`] can end it.
pub fn become_subreaper() -> io::Result<()> {
    // SAFETY: prctl with these arguments only sets a flag on this process.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The pids of this process's children, from `/proc`.
fn children() -> Vec<libc::pid_t> {
    let me = std::process::id() as libc::pid_t;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<libc::pid_t>().ok())
        .filter(|pid| parent_of(*pid) == Some(me))
        .collect()
}

/// The parent pid from `/proc/PID/stat` (the field after the state, which
/// follows the last `)`: the command name may contain anything).
fn parent_of(pid: libc::pid_t) -> Option<libc::pid_t> {
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
            // SAFETY: kill and waitpid on a child of ours that no one else waits for.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            let tx = tx.clone();
            std::thread::spawn(move || {
                let mut status = 0;
                unsafe { libc::waitpid(pid, &mut status, 0) };
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
