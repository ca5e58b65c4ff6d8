//! Reading an adapter's standard output as bounded lines, and its standard
//! error as a bounded tail, on the calling thread with `poll(2)`.
//!
//! Reading on the caller's thread (no reader thread in between) is what lets
//! the harness tell "written while no call was outstanding" from "written in
//! answer": whatever is readable before a call is sent was not an answer to
//! it. `poll` also watches the run's cancellation descriptor, so SIGINT ends
//! a wait at once. Memory stays bounded whatever the adapter writes: a line
//! may hold at most [`MAX_LINE_BYTES`], and standard error keeps its last
//! [`STDERR_TAIL_BYTES`].

use std::collections::VecDeque;
use std::io::{self, Read};
use std::os::fd::AsRawFd;
use std::process::{ChildStderr, ChildStdout};
use std::time::{Duration, Instant};

/// The longest line an adapter may write, newline excluded (16 MiB; see
/// `spec/protocol.md`). The largest answer the suite provokes is a few
/// kilobytes; this leaves room for adapters that add long descriptions.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// How much of an adapter's standard error is kept for reports.
pub const STDERR_TAIL_BYTES: usize = 8 * 1024;

/// How much is read per `read(2)`.
const CHUNK: usize = 64 * 1024;

/// What waiting for a line ended with.
#[derive(Debug)]
pub enum Next {
    Line(Vec<u8>),
    /// Standard output ended (the adapter closed it or exited).
    Eof,
    /// A line ran past [`MAX_LINE_BYTES`]; what was read is discarded.
    TooLong,
    Timeout,
    /// The run was cancelled (SIGINT, SIGTERM).
    Cancelled,
    Failed(io::Error),
}

/// An adapter's output pipes.
pub struct Output {
    stdout: ChildStdout,
    stderr: Option<ChildStderr>,
    stdout_eof: bool,
    /// Bytes of standard output not yet returned as a line.
    buf: Vec<u8>,
    /// How far `buf` was already searched for a newline.
    scanned: usize,
    tail: VecDeque<u8>,
}

/// Reads what is available from `source` into `into`, at most `limit` bytes
/// (at most [`CHUNK`]); `Ok(true)` at end of file.
///
/// The read goes through a chunk on the stack, zeroed at once, rather than
/// `into` grown by `limit` zero bytes and cut back: in a debug build that
/// growth is a loop over 64 KiB for every line an adapter writes, which was
/// 6% of a whole-suite run against a skeleton.
fn read_some(source: &mut impl Read, into: &mut Vec<u8>, limit: usize) -> io::Result<bool> {
    let mut chunk = [0u8; CHUNK];
    let limit = limit.min(CHUNK);
    let result = source.read(&mut chunk[..limit]);
    into.extend_from_slice(&chunk[..*result.as_ref().unwrap_or(&0)]);
    match result {
        Ok(0) if limit > 0 => Ok(true),
        Ok(_) => Ok(false),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
            ) =>
        {
            Ok(false)
        }
        Err(e) => Err(e),
    }
}

impl Output {
    pub fn new(stdout: ChildStdout, stderr: ChildStderr) -> io::Result<Output> {
        crate::sys::set_nonblocking(&stdout)?;
        crate::sys::set_nonblocking(&stderr)?;
        Ok(Output {
            stdout,
            stderr: Some(stderr),
            stdout_eof: false,
            buf: Vec::new(),
            scanned: 0,
            tail: VecDeque::new(),
        })
    }

    /// The next complete line of at most `limit` bytes (at most
    /// [`MAX_LINE_BYTES`]), waiting until `deadline` at most.
    pub fn next_line(&mut self, deadline: Instant, limit: usize) -> Next {
        let limit = limit.min(MAX_LINE_BYTES);
        loop {
            if let Some(line) = self.take_line() {
                return Next::Line(line);
            }
            if self.buf.len() > limit {
                self.buf = Vec::new();
                self.scanned = 0;
                return Next::TooLong;
            }
            if self.stdout_eof {
                return match std::mem::take(&mut self.buf) {
                    rest if rest.is_empty() => Next::Eof,
                    rest => Next::Line(rest),
                };
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Next::Timeout;
            }
            match self.wait(left, Some(limit)) {
                Ok(Wake::Cancelled) => return Next::Cancelled,
                Ok(_) => {}
                Err(e) => return Next::Failed(e),
            }
        }
    }

    /// Whatever standard output holds right now, without waiting: bytes the
    /// adapter wrote while no call was outstanding.
    pub fn unsolicited(&mut self) -> Option<Vec<u8>> {
        if !self.stdout_eof {
            let _ = self.wait(Duration::ZERO, Some(MAX_LINE_BYTES));
        }
        if self.buf.is_empty() {
            return None;
        }
        self.scanned = 0;
        Some(std::mem::take(&mut self.buf))
    }

    /// Reads standard error until it ends (every process holding it exited)
    /// or `timeout` passes, so a failure shows what the adapter wrote last.
    pub fn drain_stderr(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.stderr.is_some() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || !matches!(self.wait(left, None), Ok(Wake::Ready)) {
                break;
            }
        }
    }

    /// Standard error written since the last call.
    pub fn take_stderr(&mut self) -> String {
        let bytes: Vec<u8> = self.tail.drain(..).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn take_line(&mut self) -> Option<Vec<u8>> {
        let found = self.buf[self.scanned..].iter().position(|&b| b == b'\n');
        match found {
            Some(i) => {
                let end = self.scanned + i;
                let mut line: Vec<u8> = self.buf.drain(..=end).collect();
                line.pop();
                self.scanned = 0;
                Some(line)
            }
            None => {
                self.scanned = self.buf.len();
                None
            }
        }
    }

    /// One `poll` over standard error, standard output (if a line of at
    /// most `stdout` bytes is being read) and the cancellation descriptor,
    /// then one read from whatever is ready (standard output: never past
    /// one byte over the line's limit).
    fn wait(&mut self, timeout: Duration, stdout: Option<usize>) -> io::Result<Wake> {
        let fds = [
            stdout.map(|_| self.stdout.as_raw_fd()),
            self.stderr.as_ref().map(|e| e.as_raw_fd()),
            crate::sys::cancel::wake_fd(),
        ];
        let woke = crate::sys::poll_readable(&fds, timeout)?;
        if woke[2] {
            return Ok(Wake::Cancelled);
        }
        if woke[1] {
            self.read_stderr()?;
        }
        if let (true, Some(limit)) = (woke[0], stdout) {
            let room = (limit + 1).saturating_sub(self.buf.len()).min(CHUNK);
            self.stdout_eof = read_some(&mut self.stdout, &mut self.buf, room.max(1))?;
        }
        Ok(if woke.contains(&true) {
            Wake::Ready
        } else {
            Wake::Idle
        })
    }

    fn read_stderr(&mut self) -> io::Result<()> {
        let Some(stderr) = self.stderr.as_mut() else {
            return Ok(());
        };
        let mut chunk = Vec::new();
        if read_some(stderr, &mut chunk, CHUNK)? {
            self.stderr = None;
        }
        self.tail.extend(chunk);
        let excess = self.tail.len().saturating_sub(STDERR_TAIL_BYTES);
        self.tail.drain(..excess);
        Ok(())
    }
}

enum Wake {
    Ready,
    Idle,
    Cancelled,
}
