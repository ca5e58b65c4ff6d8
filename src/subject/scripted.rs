//! A scripted fake of a subject: it answers calls from a list, fails them,
//! hangs (a certain timeout, reported at once) or writes output while no
//! call is outstanding, and it restarts and gives up as an adapter process
//! does. The worker, the run loop and the session are unit-tested with it,
//! without processes; the process-level tests then only need to cover the
//! pipes.
//!
//! Its semantics follow [`Adapter`](crate::subject::adapter::Adapter):
//! a failure ends the "process";
//! the next call restarts it, up to `max_restarts` times in a row with no
//! call answered between them, counted once per case file
//! ([`Restarts`]), after which every call fails as
//! [`FailureKind::GaveUp`]; output written after an answer is
//! found before the next call (or at [`Subject::finish`]) and returned by
//! [`Subject::take_violation`], and it ends the process too.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::report::findings::Finding;
use crate::subject::restarts::Restarts;
use crate::subject::{AdapterFailure, FailureKind, Subject};
use toolpath_suite::case::Instance;
use toolpath_suite::protocol::{AdapterHello, Call, ToolResult};

/// What the fake does with one call.
#[derive(Debug, Clone)]
pub enum Step {
    /// Answers with this result (its `seq` set to the call's).
    Answer(ToolResult),
    /// Answers, then writes this to standard output while no call is
    /// outstanding.
    AnswerThenWrite(ToolResult, String),
    /// The call fails so, with this message.
    Fail(FailureKind, String),
    /// No answer: a timeout, reported at once.
    Hang,
    /// Does something to the fixture (given the call), then answers.
    Touch(fn(&Call), ToolResult),
}

/// A subject answering from a script; see the module doc.
pub struct Scripted {
    hello: AdapterHello,
    steps: VecDeque<Step>,
    /// Every call received, in order, for tests to look at.
    calls: Arc<Mutex<Vec<Call>>>,
    restarts: Restarts,
    running: bool,
    /// Written after the last answer, not yet found.
    written: Option<String>,
    violation: Option<AdapterFailure>,
    scratch: Option<PathBuf>,
    /// Instances refused before anything is built: (instance id, reason).
    refusals: Vec<(String, String)>,
    /// What [`Subject::findings`] gives at the end.
    findings: Vec<Finding>,
    /// The user it says it runs as ([`Subject::user`]).
    user: Option<(u32, u32)>,
    /// What it says of [`Subject::keeps_place`].
    keeps_place: bool,
}

impl Scripted {
    /// A fake that says `hello` and then follows `steps`, one per call.
    pub fn new(hello: AdapterHello, steps: impl IntoIterator<Item = Step>) -> Scripted {
        Scripted {
            hello,
            steps: steps.into_iter().collect(),
            calls: Arc::default(),
            restarts: Restarts::new(usize::MAX),
            running: true,
            written: None,
            violation: None,
            scratch: None,
            refusals: Vec::new(),
            findings: Vec::new(),
            user: None,
            keeps_place: false,
        }
    }

    /// Refuses the instance `id` with `reason`, as a profile without a
    /// fitting tool does.
    pub fn refusing(mut self, id: &str, reason: &str) -> Scripted {
        self.refusals.push((id.to_owned(), reason.to_owned()));
        self
    }

    /// Reports `findings` once it is ended.
    pub fn with_findings(mut self, findings: Vec<Finding>) -> Scripted {
        self.findings = findings;
        self
    }

    /// Gives up after `n` restarts, as `--max-restarts` does.
    pub fn max_restarts(mut self, n: usize) -> Scripted {
        self.restarts = Restarts::new(n);
        self
    }

    /// Reports `dir` as its scratch directory (`{adapter-tmp}`).
    pub fn scratch(mut self, dir: &Path) -> Scripted {
        self.scratch = Some(dir.to_owned());
        self
    }

    /// Says it runs as `user` ([`Subject::user`]), as an adapter started
    /// as another user does.
    pub fn as_user(mut self, user: (u32, u32)) -> Scripted {
        self.user = Some(user);
        self
    }

    /// Asks for one case file's instances in one place
    /// ([`Subject::keeps_place`]), as an MCP server given its roots at
    /// start does.
    pub fn keeping_place(mut self) -> Scripted {
        self.keeps_place = true;
        self
    }

    /// Where every call it receives is recorded.
    pub fn calls(&self) -> Arc<Mutex<Vec<Call>>> {
        Arc::clone(&self.calls)
    }

    fn failure(kind: FailureKind, message: String) -> AdapterFailure {
        AdapterFailure {
            kind,
            message,
            stderr: String::new(),
        }
    }

    /// Finds what was written since the last answer, as an adapter does
    /// before each call; it ends the process.
    fn check_quiet(&mut self) {
        if let Some(text) = self.written.take() {
            self.running = false;
            self.violation = Some(Scripted::failure(
                FailureKind::Unsolicited,
                format!("wrote while no call was outstanding: {text}"),
            ));
        }
    }

    fn ensure_running(&mut self) -> Result<(), AdapterFailure> {
        if self.running {
            return Ok(());
        }
        if let Err(spent) = self.restarts.take() {
            return Err(Scripted::failure(
                FailureKind::GaveUp,
                format!(
                    "the adapter was restarted for {spent} case files in a row without answering a call; giving up"
                ),
            ));
        }
        self.running = true;
        Ok(())
    }
}

impl Subject for Scripted {
    fn hello(&self) -> &AdapterHello {
        &self.hello
    }

    fn user(&self) -> Option<(u32, u32)> {
        self.user
    }

    fn keeps_place(&self) -> bool {
        self.keeps_place
    }

    fn ready(&mut self, file: &Path) -> Result<(), AdapterFailure> {
        self.restarts.for_file(file);
        self.check_quiet();
        self.ensure_running()
    }

    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        self.check_quiet();
        self.ensure_running()?;
        self.calls.lock().expect("calls").push(call.clone());
        let step = self
            .steps
            .pop_front()
            .unwrap_or_else(|| panic!("the script has no step left for {}", call.case));
        let mut answer = |mut result: ToolResult| {
            self.restarts.answered();
            result.seq = call.seq;
            result
        };
        match step {
            Step::Answer(result) => Ok(answer(result)),
            Step::AnswerThenWrite(result, text) => {
                let answered = answer(result);
                self.written = Some(text);
                Ok(answered)
            }
            Step::Touch(act, result) => {
                act(call);
                Ok(answer(result))
            }
            Step::Fail(kind, message) => {
                self.running = false;
                Err(Scripted::failure(kind, message))
            }
            Step::Hang => {
                self.running = false;
                Err(Scripted::failure(
                    FailureKind::Timeout,
                    "no answer within the timeout".into(),
                ))
            }
        }
    }

    fn scratch_dir(&self) -> Option<&Path> {
        self.scratch.as_deref()
    }

    fn take_violation(&mut self) -> Option<AdapterFailure> {
        self.violation.take()
    }

    fn finish(&mut self) -> Option<AdapterFailure> {
        self.check_quiet();
        self.violation.take()
    }

    fn refuse(&self, instance: &Instance) -> Option<String> {
        let id = instance.id();
        self.refusals
            .iter()
            .find(|(refused, _)| *refused == id)
            .map(|(_, reason)| reason.clone())
    }

    fn findings(&mut self) -> Vec<Finding> {
        std::mem::take(&mut self.findings)
    }
}
