//! The line pipe an MCP client speaks over: lines written by a deadline,
//! bounded lines read by a deadline, the peer's standard error, and an end.
//!
//! [`Pipe`] is the real one, a server process on the adapters' pipe
//! supervision ([`crate::subject::process`], [`crate::subject::lines`]).
//! The client ([`crate::mcp::client::Connection`]) and the server's
//! supervision ([`crate::mcp::server`]) see only [`Transport`], so their
//! decisions (what a crash, a line past the cap or a stray line comes to)
//! are unit-tested over a scripted peer (`fake`, in tests) without a
//! process.

use std::io;
use std::path::PathBuf;
use std::process::{ChildStdin, Command};
use std::time::{Duration, Instant};

use crate::subject::adapter::{REAP_TIMEOUT, STDERR_GRACE, TERM_GRACE};
use crate::subject::fifos::{Blocked, HangProne};
use crate::subject::lines::{Next, Output};
use crate::subject::process::Process;

#[cfg(test)]
pub mod fake;

/// How to start one server process.
#[derive(Debug, Clone)]
pub struct Launch {
    pub argv: Vec<String>,
    pub env: Vec<(String, String)>,
    pub cwd: PathBuf,
    /// Its `TMPDIR`.
    pub tmpdir: PathBuf,
    pub run_id: Option<String>,
    /// Offer the `roots` capability (the profile gives roots over MCP).
    pub offer_roots: bool,
    /// Run as this user and group (permission cases as root).
    pub user: Option<(u32, u32)>,
}

/// Both directions of one connection to a server. `Send`: a server being
/// ended is ended on a thread of its own.
pub trait Transport: Send {
    /// Writes all of `line` (its newline included) by `deadline`: a peer
    /// that stops reading ends the write there, never blocks the caller.
    fn send(&mut self, line: &[u8], deadline: Instant) -> io::Result<()>;

    /// The next line of at most `limit` bytes by `deadline`; for a
    /// hang-prone call, with the fixture's FIFOs released on the way and
    /// what the release found ([`crate::subject::fifos::next_line`]).
    fn next_line(
        &mut self,
        deadline: Instant,
        limit: usize,
        hang: Option<&HangProne>,
    ) -> (Next, Option<Blocked>);

    /// Standard error written since the last look (a bounded tail).
    fn take_stderr(&mut self) -> String;

    /// Ends the peer: its input closed, `grace` to exit by itself, then
    /// SIGTERM and SIGKILL; whether it exited by itself, and its status
    /// as shown. What it wrote to standard error last is kept for
    /// [`take_stderr`](Self::take_stderr). Called once.
    fn end(&mut self, grace: Duration) -> (bool, String);
}

/// A server process: its group tied to the harness, its input written
/// without blocking, its output read as bounded lines.
pub struct Pipe {
    process: Process,
    stdin: Option<ChildStdin>,
    output: Output,
}

impl Pipe {
    /// Starts `launch`'s command in its directory and environment; an
    /// error says which command could not be started or read.
    pub fn spawn(launch: &Launch) -> Result<Pipe, String> {
        let (program, args) = launch
            .argv
            .split_first()
            .ok_or_else(|| "empty server command".to_owned())?;
        let mut command = Command::new(program);
        command.args(args).current_dir(&launch.cwd);
        crate::subject::adapter::environment(
            &mut command,
            &launch.tmpdir,
            launch.run_id.as_deref(),
        );
        for (name, value) in &launch.env {
            command.env(name, value);
        }
        let argv = launch.argv.join(" ");
        let (process, pipes) = Process::spawn(command, launch.user)
            .map_err(|e| format!("cannot start `{argv}`: {e}"))?;
        let output = Output::new(pipes.stdout, pipes.stderr)
            .map_err(|e| format!("cannot read `{argv}`: {e}"))?;
        Ok(Pipe {
            process,
            stdin: Some(pipes.stdin),
            output,
        })
    }
}

impl Transport for Pipe {
    fn send(&mut self, line: &[u8], deadline: Instant) -> io::Result<()> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| io::Error::other("standard input is closed"))?;
        crate::subject::process::write_by(stdin, line, deadline)
    }

    fn next_line(
        &mut self,
        deadline: Instant,
        limit: usize,
        hang: Option<&HangProne>,
    ) -> (Next, Option<Blocked>) {
        crate::subject::fifos::next_line(&mut self.output, deadline, limit, hang)
    }

    fn take_stderr(&mut self) -> String {
        self.output.take_stderr()
    }

    fn end(&mut self, grace: Duration) -> (bool, String) {
        drop(self.stdin.take());
        let ended = self.process.end(grace, TERM_GRACE, REAP_TIMEOUT);
        self.output.drain_stderr(STDERR_GRACE);
        ended
    }
}
