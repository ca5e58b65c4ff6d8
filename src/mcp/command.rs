//! A short command a profile needs run to its end (the version command, a
//! `git init` of a root), under the supervision every server gets: a
//! process group of its own tied to the harness, standard input closed,
//! its output read as bounded lines, and a deadline after which the group
//! is ended. `Command::output()` would wait for ever on a command that
//! never ends (`version: {command: [sleep, "1000"]}` hung a run) and keep
//! whatever it writes.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::subject::adapter::{REAP_TIMEOUT, STDERR_GRACE, TERM_GRACE};
use crate::subject::lines::{Next, Output};
use crate::subject::process::Process;

/// The most of the first line kept; the rest of the output is read and
/// dropped (a command's output need not fit in memory).
pub const FIRST_LINE_BYTES: usize = 4096;

/// How a command ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Its first line of standard output (at most [`FIRST_LINE_BYTES`]).
    pub first_line: String,
    pub success: bool,
    /// The exit status, as the standard library says it.
    pub status: String,
    /// The tail of its standard error.
    pub stderr: String,
}

/// Runs `command` to its end within `timeout`, as `user` when given (the
/// server's own: a `git init` it made as root would be root's in a root
/// of the server's); `Err` says why it did not end (or start). The
/// command's stdio is replaced by pipes.
pub fn run(
    mut command: Command,
    user: Option<(u32, u32)>,
    timeout: Duration,
) -> Result<Finished, String> {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let (mut process, pipes) = Process::spawn(command, user).map_err(|e| e.to_string())?;
    drop(pipes.stdin);
    let mut output = Output::new(pipes.stdout, pipes.stderr).map_err(|e| e.to_string())?;
    let deadline = Instant::now() + timeout;
    let mut first_line: Option<String> = None;
    let ended = loop {
        match output.next_line(deadline, FIRST_LINE_BYTES) {
            Next::Line(line) => {
                first_line.get_or_insert_with(|| String::from_utf8_lossy(&line).into_owned());
            }
            // The rest of a long line is read as the next ones: dropped.
            Next::TooLong => {
                first_line.get_or_insert_with(String::new);
            }
            Next::Eof => break Ok(()),
            Next::Timeout => break Err(format!("did not end within {} ms", timeout.as_millis())),
            Next::Cancelled => break Err("the run was cancelled".to_owned()),
            Next::Failed(e) => break Err(format!("cannot read its output: {e}")),
        }
    };
    // Its output closed: it exits now, or is ended like a hung one.
    let left = deadline.saturating_duration_since(Instant::now());
    let status = match ended {
        Ok(()) => process.wait_timeout(left).map(str::to_owned),
        Err(_) => None,
    };
    let status = match status {
        Some(status) => {
            process.kill_group();
            status
        }
        None => {
            process.end(Duration::ZERO, TERM_GRACE, REAP_TIMEOUT);
            return Err(ended.err().unwrap_or_else(|| {
                format!(
                    "closed its output but did not exit within {} ms",
                    timeout.as_millis()
                )
            }));
        }
    };
    output.drain_stderr(STDERR_GRACE);
    Ok(Finished {
        first_line: first_line.unwrap_or_default(),
        success: status == "exit status: 0",
        status,
        stderr: output.take_stderr(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    #[test]
    fn a_command_ends_with_its_first_line_status_and_stderr() {
        let done = run(
            sh("echo 'tool 1.2.3'; echo more; echo oops >&2; exit 3"),
            None,
            Duration::from_secs(60),
        )
        .unwrap();
        assert_eq!(done.first_line, "tool 1.2.3");
        assert!(!done.success);
        assert_eq!(done.status, "exit status: 3");
        assert_eq!(done.stderr, "oops\n");
        assert!(
            run(sh("true"), None, Duration::from_secs(60))
                .unwrap()
                .success
        );
    }

    /// A command that never ends is ended at the deadline (the test's
    /// time is the deadline, a tenth of a second, not the command's).
    #[test]
    fn a_command_that_never_ends_is_ended_at_its_deadline() {
        let e = run(sh("exec sleep 1000"), None, Duration::from_millis(100)).unwrap_err();
        assert_eq!(e, "did not end within 100 ms");
        // Output that never ends is read and dropped, never kept whole.
        let e = run(sh("exec yes"), None, Duration::from_millis(100)).unwrap_err();
        assert_eq!(e, "did not end within 100 ms");
        // Output closed, process still there.
        let e = run(
            sh("exec >&- ; sleep 1000"),
            None,
            Duration::from_millis(100),
        )
        .unwrap_err();
        assert!(e.contains("did not exit within 100 ms"), "{e}");
    }

    #[test]
    fn a_first_line_past_the_cap_is_dropped() {
        let done = run(
            sh("head -c 100000 /dev/zero | tr '\\0' x; echo"),
            None,
            Duration::from_secs(60),
        )
        .unwrap();
        assert!(
            done.first_line.is_empty(),
            "a line past the cap is not kept"
        );
        assert!(done.success);
    }
}
