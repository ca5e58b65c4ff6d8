//! The implementation under test, whoever it is: the in-process reference or
//! an external adapter. The harness talks to both through [`Subject`], so an
//! in-process run and a run over stdio take exactly the same path.
//!
//! - [`adapter`]: an adapter process speaking the protocol, supervised;
//! - [`fifos`]: a call on a fixture with FIFOs, and how a subject blocked
//!   on one is released;
//! - [`restarts`]: the `--max-restarts` budget, once per case file, and
//!   the run's budget of starts that never reach `hello`;
//! - [`process`]: starting and ending one process (group) with bounded waits;
//! - [`lines`]: its output read as bounded lines, its stderr as a tail;
//! - [`budget`]: what one answer may cost once read, counted before;
//! - [`serve`]: `toolpath serve`, the reference as an adapter;
//! - [`scripted`]: a fake answering from a list, for tests without processes;
//! - here: [`Subject`], its failures, and the in-process [`Reference`].
//!
//! May import `sys`, `case`, `reference`, `report` and the suite model;
//! never `harness` or anything above it.

pub mod adapter;
pub mod budget;
pub mod fifos;
pub mod lines;
pub mod process;
pub mod restarts;
#[doc(hidden)]
pub mod scripted;
pub mod serve;

use crate::report::findings::Finding;
use crate::report::profile_rules::RuleUse;
use std::path::PathBuf;
use toolpath_suite::case::Instance;

use toolpath_suite::protocol::{AdapterHello, Call, ToolResult};

/// A subject process's private `HOME`, below its `TMPDIR`:
/// `{adapter-tmp}/home`, an adapter's and an MCP server's alike.
pub const HOME_DIR: &str = "home";
/// A subject process's private working directory, below its `TMPDIR`:
/// `{adapter-tmp}/work`, an adapter's and a kept MCP server's alike, so
/// the cases that ask for a canary there hold both to it.
pub const WORK_DIR: &str = "work";

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
    /// An MCP server never answered the request (it hung, or left the
    /// request open after a panic); it was ended. Not an adapter bug: the
    /// implementation under test failed the case, and the report's
    /// findings say it happened.
    NeverAnswered,
    /// An MCP server exited (or its pipes broke) while a request was open.
    /// The implementation under test failed the case; the findings count
    /// it (`crashed`), and it counts toward `--max-restarts`.
    ServerCrashed,
    /// An MCP server failed the case otherwise: a line past the cap, a
    /// JSON-RPC error where a tool's answer was needed to go on, a tool
    /// polled to the profile's limit that never said it was done. It was
    /// ended; the case fails, and the findings say why.
    ServerFailed,
    /// The subject was found blocked on a FIFO of the fixture it must not
    /// open (RES-10, FILE-6; see [`fifos`]): released, it answered (not
    /// judged) or was ended. The implementation failed the case.
    Blocked,
}

impl FailureKind {
    /// Whether the implementation under test is an MCP server that failed
    /// the case itself: a verdict on it (the case fails), never an
    /// adapter error, since there is no adapter to blame.
    pub fn is_server_fault(self) -> bool {
        matches!(
            self,
            FailureKind::NeverAnswered | FailureKind::ServerCrashed | FailureKind::ServerFailed
        )
    }

    /// Whether the failure is a verdict on the implementation (the case
    /// fails) rather than an adapter error: a server's own fault, or a
    /// subject that blocked on a FIFO.
    pub fn fails_the_case(self) -> bool {
        self.is_server_fault() || self == FailureKind::Blocked
    }

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
            FailureKind::NeverAnswered => "server never answered",
            FailureKind::ServerCrashed => "server crashed",
            FailureKind::ServerFailed => "server failed",
            FailureKind::Blocked => "blocked on a FIFO",
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
            // Its message already says it could not be started, or that
            // it blocked on a FIFO.
            FailureKind::Start | FailureKind::Blocked => f.write_str(&self.message),
            _ => write!(f, "{}: {}", self.kind.name(), self.message),
        }
    }
}

/// Something that answers tool calls.
pub trait Subject {
    fn hello(&self) -> &AdapterHello;
    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure>;
    /// [`call`](Self::call) for a call whose fixture holds FIFOs
    /// ([`fifos`]): a subject that waits on pipes releases them after each
    /// `hang.bound` and fails the call as [`FailureKind::Blocked`] when it
    /// was found holding one. In-process, where nothing can be released
    /// (the reference opens no FIFO), it is a plain call.
    fn call_hang_prone(
        &mut self,
        call: &Call,
        _hang: &fifos::HangProne,
    ) -> Result<ToolResult, AdapterFailure> {
        self.call(call)
    }
    /// The user and group the subject's processes run as, `None` for the
    /// harness's own (in-process, or a process started with no other user).
    /// Asked of the subject itself, the one source of truth: a fixture is
    /// handed to this user before its call, so a subject running as another
    /// user owns its fixture (and can write in it) and nothing else of the
    /// run's. No default: a subject that starts processes must say it.
    fn user(&self) -> Option<(u32, u32)>;
    /// Standard error written since the last look (empty in-process).
    fn stderr_tail(&mut self) -> String {
        String::new()
    }
    /// The adapter process's own `TMPDIR`, shown as `{adapter-tmp}` in
    /// reports so that messages naming it compare equal across runs.
    fn scratch_dir(&self) -> Option<&std::path::Path> {
        None
    }
    /// The `HOME` directories the harness gave the subject's processes,
    /// private to it (an adapter's or an MCP server's, below its
    /// `TMPDIR`): where the harness puts a canary before each call, as in
    /// its `TMPDIR` (`harness::reach`). None for a subject that keeps the
    /// harness's.
    fn homes(&self) -> Vec<std::path::PathBuf> {
        Vec::new()
    }
    /// The working directory the harness started the subject's process in,
    /// private to it (an adapter's, below its `TMPDIR`): a canary goes
    /// there before each call too. None for a subject whose working
    /// directory is not its own alone (in-process, an MCP server started
    /// in a case's target directory).
    fn workdir(&self) -> Option<std::path::PathBuf> {
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
    /// `file` is the case file the call comes from: restarts for the calls
    /// of one file count once toward `--max-restarts` ([`restarts`]).
    fn ready(&mut self, _file: &std::path::Path) -> Result<(), AdapterFailure> {
        Ok(())
    }
    /// Whether consecutive instances of one case file are to be built
    /// byte for byte in one place: a subject that must start again for
    /// every new set of roots (an MCP server given its allowed directories
    /// on its command line or in a config file) then keeps its process
    /// while the roots stay the same paths. Others get a fresh directory
    /// for every instance, which nothing a process kept could confuse.
    fn keeps_place(&self) -> bool {
        false
    }
    /// Marks the calls that follow, until `false`, as asked again on
    /// another fixture (SEC-12's twin, or the same fixture rebuilt to tell
    /// noise): a subject keeping its process for the place of the next
    /// instance ([`keeps_place`](Self::keeps_place)) answers them on a
    /// process of its own, started for them and ended after.
    fn aside(&mut self, _aside: bool) {}
    /// Why this subject cannot take `instance` at all, said before its
    /// fixture is built (reported *unsupported* with this reason): an MCP
    /// profile that names no fitting tool and says why, or a server that
    /// takes fewer allowed directories than the case has roots.
    fn refuse(&self, _instance: &Instance) -> Option<String> {
        None
    }
    /// Changes the subject makes to `call`'s fixture before the call and
    /// before the fixture is snapshotted (an MCP profile's `git init` in
    /// roots a server needs to be repositories); the directories returned
    /// are bookkeeping the snapshot leaves out, as it does a case's own
    /// `.git` directories.
    fn prepare(&mut self, _call: &Call) -> Result<Vec<PathBuf>, AdapterFailure> {
        Ok(Vec::new())
    }
    /// Who composes the fields an answer lists as `derived`, for reasons
    /// ("kind (derived by the adapter)"): an MCP server's are composed by
    /// its profile, never by the server.
    fn composer(&self) -> &'static str {
        "the adapter"
    }
    /// What the subject did wrong as a server during the run (see
    /// [`crate::report::findings`]); asked once, after [`finish`](Self::finish).
    fn findings(&mut self) -> Vec<Finding> {
        Vec::new()
    }
    /// How often each rule of the subject's profile matched (see
    /// [`crate::report::profile_rules`]): only an MCP server's answers are
    /// read by rules; asked once, after [`finish`](Self::finish).
    fn rule_uses(&mut self) -> Vec<RuleUse> {
        Vec::new()
    }
    /// Time spent on calls that got no answer in time (timeouts, calls
    /// blocked on a FIFO) and on restarting the subject: the run's
    /// `waited_ms`.
    fn waited(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// How long one in-process call may take by default: the same as an
/// adapter call (`toolpath run --timeout-ms`).
pub const DEFAULT_CALL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// What answers a call in-process.
pub type CallFn = fn(
    &toolpath_suite::protocol::Workspace,
    toolpath_suite::protocol::Tool,
    &serde_json::Map<String, serde_json::Value>,
) -> ToolResult;

/// The built-in reference, called in-process.
///
/// Calls run on one long-lived thread of the reference's own, and each is
/// given the same bounded time as an adapter call: a call that hangs (a
/// fixture that makes it read something endless) fails its case as a
/// timeout and the run goes on. A thread, not the caller's own: a hung call
/// cannot be stopped from outside, so the caller must be able to stop
/// *waiting* for it. The hung thread is left behind, detached (it ends with
/// the process, or on its own once its answer has nowhere to go), and the
/// next call starts a fresh one. One thread for all calls rather than one per
/// call: spawning a thread for each call cost more than the call itself.
pub struct Reference {
    hello: AdapterHello,
    timeout: std::time::Duration,
    answer: CallFn,
    /// A scratch directory of its own, like an adapter's `TMPDIR`, so the
    /// cases naming `{adapter-tmp}` (a directory outside every root that the
    /// implementation itself owns) run in-process too.
    scratch: Option<tempfile::TempDir>,
    /// The thread answering calls; `None` until the first call and after a
    /// call it was running timed out or panicked.
    worker: Option<CallThread>,
    /// Time spent on calls that timed out ([`Subject::waited`]).
    waited: std::time::Duration,
}

/// A thread that answers the calls sent to it, one at a time, until its
/// sender is dropped.
struct CallThread {
    calls: std::sync::mpsc::SyncSender<Call>,
    answers: std::sync::mpsc::Receiver<ToolResult>,
}

impl CallThread {
    fn start(answer: CallFn) -> std::io::Result<CallThread> {
        let (calls, requests) = std::sync::mpsc::sync_channel::<Call>(1);
        let (reply, answers) = std::sync::mpsc::sync_channel(1);
        std::thread::Builder::new()
            .name("reference".into())
            .spawn(move || {
                for call in requests {
                    let result = answer(&call.workspace, call.tool, &call.params);
                    if reply.send(result).is_err() {
                        return;
                    }
                }
            })?;
        Ok(CallThread { calls, answers })
    }
}

impl Default for Reference {
    fn default() -> Self {
        Reference::with_timeout(DEFAULT_CALL_TIMEOUT)
    }
}

impl Reference {
    /// A reference with its scratch directory in the system temporary
    /// directory (library use; a run uses [`Reference::with_scratch_in`]).
    pub fn with_timeout(timeout: std::time::Duration) -> Reference {
        Reference {
            scratch: tempfile::Builder::new().prefix("reference-").tempdir().ok(),
            ..Reference::with_timeout_only(timeout)
        }
    }

    /// A reference whose scratch directory is made in `parent`: a run's own
    /// directory, so that everything the run creates is removed with it
    /// (and by `toolpath clean` after a SIGKILL).
    pub fn with_scratch_in(parent: &std::path::Path, timeout: std::time::Duration) -> Reference {
        Reference {
            scratch: tempfile::Builder::new()
                .prefix("reference-")
                .tempdir_in(parent)
                .ok(),
            ..Reference::with_timeout_only(timeout)
        }
    }

    /// The reference with no scratch directory yet.
    fn with_timeout_only(timeout: std::time::Duration) -> Reference {
        Reference {
            hello: crate::reference::hello(),
            timeout,
            answer: crate::reference::call,
            scratch: None,
            worker: None,
            waited: std::time::Duration::ZERO,
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

    /// In-process: the harness's own.
    fn user(&self) -> Option<(u32, u32)> {
        None
    }

    fn scratch_dir(&self) -> Option<&std::path::Path> {
        self.scratch.as_ref().map(tempfile::TempDir::path)
    }

    fn waited(&self) -> std::time::Duration {
        self.waited
    }

    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        let crash = |message: String| AdapterFailure {
            kind: FailureKind::Crash,
            message,
            stderr: String::new(),
        };
        if self.worker.is_none() {
            let thread = CallThread::start(self.answer)
                .map_err(|e| crash(format!("cannot start a thread for the call: {e}")))?;
            self.worker = Some(thread);
        }
        let worker = self.worker.as_ref().expect("started above");
        // A send fails only if the thread is gone, which a panic would have
        // reported on the previous call's receive; the receive below says so.
        let _ = worker.calls.send(call.clone());
        match worker.answers.recv_timeout(self.timeout) {
            Ok(mut result) => {
                result.seq = call.seq;
                Ok(result)
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                // Still running the call: left behind, never waited for again.
                self.worker = None;
                self.waited += self.timeout;
                Err(AdapterFailure {
                    kind: FailureKind::Timeout,
                    message: format!(
                        "the in-process call gave no answer within {} ms",
                        self.timeout.as_millis()
                    ),
                    stderr: String::new(),
                })
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                self.worker = None;
                Err(crash("the in-process call panicked".into()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Map, Value};
    use std::time::Duration;
    use toolpath_suite::protocol::{Tool, Workspace};

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

    /// Hangs or panics when the parameters say so, else answers as the reference.
    fn misbehave(workspace: &Workspace, tool: Tool, params: &Map<String, Value>) -> ToolResult {
        if params.contains_key("hang") {
            hang(workspace, tool, params)
        } else if params.contains_key("panic") {
            panic!("asked to")
        } else {
            crate::reference::call(workspace, tool, params)
        }
    }

    /// One reference keeps answering after a call of its own hung or
    /// panicked: the thread that ran it is given up and a fresh one takes
    /// the next call. Timeouts as above (a certain hang, 300 ms; 60 s else).
    #[test]
    fn one_reference_answers_again_after_a_hang_and_a_panic() {
        let mut reference = Reference::answering_with(misbehave, Duration::from_secs(60));
        let with = |seq, key: &str| {
            let mut c = call(seq);
            c.params.insert(key.into(), Value::Bool(true));
            c
        };
        assert_eq!(reference.call(&call(1)).expect("answered").seq, 1);
        reference.timeout = Duration::from_millis(300);
        let failure = reference.call(&with(2, "hang")).unwrap_err();
        assert_eq!(failure.kind, FailureKind::Timeout, "{failure}");
        reference.timeout = Duration::from_secs(60);
        assert_eq!(reference.call(&call(3)).expect("answered").seq, 3);
        let failure = reference.call(&with(4, "panic")).unwrap_err();
        assert_eq!(failure.kind, FailureKind::Crash, "{failure}");
        assert_eq!(reference.call(&call(5)).expect("answered").seq, 5);
    }
}
