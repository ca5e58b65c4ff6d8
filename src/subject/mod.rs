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
    /// The process exited or could not be started or written to.
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
        write!(f, "{}: {}", self.kind.name(), self.message)
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
}

/// The built-in reference, called in-process.
pub struct Reference {
    hello: AdapterHello,
}

impl Default for Reference {
    fn default() -> Self {
        Reference {
            hello: crate::reference::hello(),
        }
    }
}

impl Subject for Reference {
    fn hello(&self) -> &AdapterHello {
        &self.hello
    }

    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        let mut result = crate::reference::call(&call.workspace, call.tool, &call.params);
        result.seq = call.seq;
        Ok(result)
    }
}
