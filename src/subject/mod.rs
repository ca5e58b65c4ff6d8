//! The implementation under test, whoever it is: the in-process reference or
//! an external adapter. The harness talks to both through [`Subject`], so an
//! in-process run and a run over stdio take exactly the same path.

pub mod adapter;
pub mod lines;
pub mod process;
pub mod serve;

use crate::protocol::{AdapterHello, Call, ToolResult};

/// What went wrong with an adapter (never with the answer itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// The process could not be started at all (no such program, not
    /// executable): a mistake in the command, not a crash of the adapter.
    Start,
    /// The process exited or could not be written to.
    Crash,
    /// No answer within the timeout.
    Timeout,
    /// A line that is not a valid protocol message.
    BadOutput,
    /// A result for another call.
    WrongSeq,
    /// Output written while no call was outstanding; charged to the case
    /// answered last.
    Unsolicited,
    /// The run was cancelled (SIGINT, SIGTERM) while the call was outstanding.
    Cancelled,
    /// Restarted too often; no longer started.
    GaveUp,
}

impl FailureKind {
    pub fn name(self) -> &'static str {
        match self {
            FailureKind::Start => "cannot start",
            FailureKind::Crash => "crash",
            FailureKind::Timeout => "timeout",
            FailureKind::BadOutput => "bad output",
            FailureKind::WrongSeq => "wrong seq",
            FailureKind::Unsolicited => "unsolicited output",
            FailureKind::Cancelled => "cancelled",
            FailureKind::GaveUp => "gave up",
        }
    }
}

/// An adapter failure, with the tail of the adapter's standard error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterFailure {
    pub kind: FailureKind,
    pub message: String,
    pub stderr: String,
}

impl std::fmt::Display for AdapterFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind {
            // Its message already says it could not be started.
            FailureKind::Start => f.write_str(&self.message),
            _ => write!(f, "{}: {}", self.kind.name(), self.message),
        }
    }
}

/// Something that answers tool calls.
pub trait Subject {
    fn hello(&self) -> &AdapterHello;
    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure>;
    /// Standard error written since the last look (empty in-process).
    fn stderr_tail(&mut self) -> String {
        String::new()
    }
    /// The adapter process's own `TMPDIR`, shown as `{adapter-tmp}` in
    /// reports so that messages naming it compare equal across runs.
    fn scratch_dir(&self) -> Option<&std::path::Path> {
        None
    }
    /// A protocol violation found since the last look that belongs to the
    /// case answered before the last call (output written while no call was
    /// outstanding).
    fn take_violation(&mut self) -> Option<AdapterFailure> {
        None
    }
    /// Ends the subject after its last call; returns a violation found only
    /// now (output written after the last answer).
    fn finish(&mut self) -> Option<AdapterFailure> {
        None
    }
    /// Makes sure the subject is running (an adapter that crashed is started
    /// again), so that [`scratch_dir`](Self::scratch_dir) names the directory
    /// of the process the next call goes to: cases pass it as `{adapter-tmp}`.
    fn ready(&mut self) -> Result<(), AdapterFailure> {
        Ok(())
    }
}

/// How long one in-process call may take by default: the same as an
/// adapter call (`toolpath run --timeout-ms`).
pub const DEFAULT_CALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// What answers a call in-process.
pub type CallFn = fn(
    &crate::protocol::Workspace,
    crate::protocol::Tool,
    &serde_json::Map<String, serde_json::Value>,
) -> ToolResult;

/// The built-in reference, called in-process.
///
/// Each call runs on a thread of its own and is given the same bounded time
/// as an adapter call: a call that hangs (a fixture that makes it read
/// something endless) fails its case as a timeout and the run goes on. The
/// hung thread cannot be stopped from outside; it is left behind, detached,
/// and ends with the process.
pub struct Reference {
    hello: AdapterHello,
    timeout: std::time::Duration,
    answer: CallFn,
    /// A scratch directory of its own, like an adapter's `TMPDIR`, so the
    /// cases naming `{adapter-tmp}` (a directory outside every root that the
    /// implementation itself owns) run in-process too.
    scratch: Option<tempfile::TempDir>,
}

impl Default for Reference {
    fn default() -> Self {
        Reference::with_timeout(DEFAULT_CALL_TIMEOUT)
    }
}

impl Reference {
    pub fn with_timeout(timeout: std::time::Duration) -> Reference {
        Reference {
            hello: crate::reference::hello(),
            timeout,
            answer: crate::reference::call,
            scratch: tempfile::Builder::new().prefix("reference-").tempdir().ok(),
        }
    }

    /// The reference's `hello` with another implementation behind it, to
    /// test what a hung or misbehaving in-process call does to a run.
    pub fn answering_with(answer: CallFn, timeout: std::time::Duration) -> Reference {
        Reference {
            answer,
            ..Reference::with_timeout(timeout)
        }
    }
}

impl Subject for Reference {
    fn hello(&self) -> &AdapterHello {
        &self.hello
    }

    fn scratch_dir(&self) -> Option<&std::path::Path> {
        self.scratch.as_ref().map(tempfile::TempDir::path)
    }

    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        let (send, receive) = std::sync::mpsc::sync_channel(1);
        let (answer, request) = (self.answer, call.clone());
        std::thread::Builder::new()
            .name(format!("reference {}", call.case))
            .spawn(move || {
                let result = answer(&request.workspace, request.tool, &request.params);
                let _ = send.send(result);
            })
            .map_err(|e| AdapterFailure {
                kind: FailureKind::Crash,
                message: format!("cannot start a thread for the call: {e}"),
                stderr: String::new(),
            })?;
        match receive.recv_timeout(self.timeout) {
            Ok(mut result) => {
                result.seq = call.seq;
                Ok(result)
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Err(AdapterFailure {
                kind: FailureKind::Timeout,
                message: format!(
                    "the in-process call gave no answer within {} ms",
                    self.timeout.as_millis()
                ),
                stderr: String::new(),
            }),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(AdapterFailure {
                kind: FailureKind::Crash,
                message: "the in-process call panicked".into(),
                stderr: String::new(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Tool, Workspace};
    use serde_json::{Map, Value};
    use std::time::Duration;

    /// Blocks forever on a channel nobody sends on (a call reading an
    /// endless file); no sleep involved.
    fn hang(_: &Workspace, _: Tool, _: &Map<String, Value>) -> ToolResult {
        let (_keep, wait) = std::sync::mpsc::channel::<()>();
        let _ = wait.recv();
        unreachable!("the sender is alive for ever")
    }

    fn call(seq: u64) -> Call {
        Call {
            seq,
            case: "t.t".into(),
            workspace: Workspace {
                roots: vec!["/nonexistent-toolpath".into()],
                target: "/nonexistent-toolpath".into(),
            },
            tool: Tool::Resolve,
            params: Map::new(),
        }
    }

    /// A hung in-process call fails as a timeout within its bound, and the
    /// next call is answered. The hang is certain (it never ends), so a
    /// short timeout cannot make this test flaky; the normal call gets a
    /// generous one (60 s) for a busy machine.
    #[test]
    fn a_hung_in_process_call_times_out_and_the_next_is_answered() {
        let mut hung = Reference::answering_with(hang, Duration::from_millis(300));
        let failure = hung.call(&call(1)).unwrap_err();
        assert_eq!(failure.kind, FailureKind::Timeout, "{failure}");
        assert!(failure.message.contains("300 ms"), "{failure}");
        let mut normal = Reference::with_timeout(Duration::from_secs(60));
        let result = normal.call(&call(2)).expect("answered");
        assert_eq!(result.seq, 2);
    }
}
