//! Starting, ending and losing the server's process: a launch in the
//! state a call needs, the start budget, and what an ended or lost
//! process leaves for the report (its stderr, a finding).

use crate::mcp::client::RequestError;
use crate::mcp::profile::RootsVia;
use crate::report::findings::FindingKind;
use crate::subject::{AdapterFailure, FailureKind};
use std::time::Duration;

use super::*;

impl McpServer {
    /// Starts a process in `state`, ending the one running meanwhile,
    /// unless the run's starts that never finished the handshake are spent
    /// ([`SilentStarts`]: a server that stopped starting would cost a
    /// start timeout per case, its restarts for one case file being free).
    /// A failed start counts toward them, a handshake resets them.
    pub(super) fn launch(&mut self, state: State) -> Result<(), AdapterFailure> {
        if let Err(spent) = self.config.silent_starts.allow() {
            return Err(failure(
                FailureKind::GaveUp,
                format!(
                    "the server was started {spent} times in a row without finishing its start \
                     (`initialize` and `tools/list` within the start timeout); \
                     giving up on it for the rest of the run"
                ),
            ));
        }
        let started = self.start_process(state);
        match &started {
            Ok(()) => self.config.silent_starts.greeted(),
            Err(_) => self.config.silent_starts.silent(),
        }
        started
    }

    /// [`Self::launch`] without the budget.
    pub(super) fn start_process(&mut self, state: State) -> Result<(), AdapterFailure> {
        self.stop_meanwhile();
        let profile = self.profile().clone();
        let mut argv: Vec<String> = profile
            .server
            .command
            .iter()
            .map(|w| self.expand(w))
            .collect();
        match *profile.roots.via {
            RootsVia::Argv => argv.extend(state.roots.iter().cloned()),
            RootsVia::Flag => {
                let flag = profile.roots.flag.clone().expect("checked at load");
                for root in &state.roots {
                    argv.push(flag.clone());
                    argv.push(root.clone());
                }
            }
            RootsVia::Config => self.write_config(&state.roots)?,
            RootsVia::Tool if profile.roots.config.is_some() => self.write_config(&state.roots)?,
            RootsVia::Tool | RootsVia::Mcp | RootsVia::None => {}
        }
        self.make_home().map_err(|e| {
            failure(
                FailureKind::Start,
                format!("cannot create {}: {e}", self.home().display()),
            )
        })?;
        let mut env: Vec<(String, String)> =
            vec![("HOME".into(), self.home().display().to_string())];
        env.extend(
            profile
                .server
                .env
                .iter()
                .map(|(k, v)| (k.clone(), self.expand(v))),
        );
        let launch = Launch {
            argv,
            env,
            cwd: state.cwd.clone(),
            tmpdir: self.tmp(),
            run_id: self.config.run_id.clone(),
            offer_roots: *profile.roots.via == RootsVia::Mcp,
            user: self.config.user,
        };
        let timeout = profile
            .server
            .start_timeout_ms
            .map_or(self.config.hello_timeout, Duration::from_millis);
        let (mut connection, tools) = (self.open)(&launch, &state.roots, timeout)
            .map_err(|e| failure(FailureKind::Start, e))?;
        self.tools = tools;
        self.note(connection.take_notes());
        self.running = Some(Running { connection, state });
        Ok(())
    }

    /// Ends the running process, if any, keeping its findings and stderr,
    /// and waits for those being ended meanwhile.
    pub(super) fn stop(&mut self) {
        if let Some(mut running) = self.running.take() {
            let stderr = running.connection.shutdown();
            self.stderr.push_str(&stderr);
            let notes = running.connection.take_notes();
            self.note(notes);
        }
        for ending in std::mem::take(&mut self.ending) {
            // The thread only waits on bounded waits (Connection::end).
            if let Ok((notes, case)) = ending.join() {
                for (kind, text, count) in notes {
                    for _ in 0..count {
                        self.findings.note(kind, || text.clone(), case.as_deref());
                    }
                }
            }
        }
    }

    /// Ends the running process on a thread of its own while the next
    /// one starts: a server restarted per case (roots on its command
    /// line) that ignores its input closing costs a grace period each
    /// time, and need not cost it in turn. Its findings are collected by
    /// [`stop`](Self::stop) at the end, charged to the case it served.
    /// The process stays tied to the worker's thread (it started it).
    pub(super) fn stop_meanwhile(&mut self) {
        let Some(mut running) = self.running.take() else {
            return;
        };
        let case = self.case.clone();
        let mut notes = running.connection.take_notes();
        let ender = std::thread::Builder::new()
            .name("mcp-end".into())
            .spawn(move || {
                running.connection.shutdown();
                notes.extend(running.connection.take_notes());
                (notes, case)
            });
        // Without a thread to be had, the connection was dropped with the
        // closure, which ends its process at once (`Connection`'s Drop).
        if let Ok(handle) = ender {
            self.ending.push(handle);
        }
    }

    /// Ends the running process at once (it hung or broke the protocol).
    pub(super) fn kill(&mut self) -> String {
        match self.running.take() {
            Some(mut running) => {
                let (_, stderr) = running.connection.end(Duration::ZERO);
                let notes = running.connection.take_notes();
                self.note(notes);
                stderr
            }
            None => String::new(),
        }
    }

    pub(super) fn note(&mut self, notes: Notes) {
        for (kind, text, count) in notes {
            for _ in 0..count {
                self.findings
                    .note(kind, || text.clone(), self.case.as_deref());
            }
        }
    }

    /// The failure for a tool polled to the profile's limit that never
    /// said it was done: a finding, and the server ended (its state is
    /// unknown), which is no unexplained death.
    pub(super) fn exhausted(&mut self, message: String) -> AdapterFailure {
        let case = self.case.clone();
        self.findings.note(
            FindingKind::PollsExhausted,
            || message.clone(),
            case.as_deref(),
        );
        let stderr = self.kill();
        AdapterFailure {
            kind: FailureKind::ServerFailed,
            message,
            stderr: format!("{}{stderr}", std::mem::take(&mut self.stderr)),
        }
    }

    /// The failure for a request that got no usable answer; the server is
    /// ended, and what it did is a finding. Only a crash is an
    /// unexplained death (counted toward `--max-restarts`).
    pub(super) fn lost(&mut self, error: RequestError, doing: &str) -> AdapterFailure {
        let message = format!("{doing}: {error}");
        let (kind, finding) = match &error {
            // Released, it answered: it is kept running, no finding (the
            // case's own failure says what it did).
            RequestError::Blocked { answered: true, .. } => {
                return AdapterFailure {
                    kind: FailureKind::Blocked,
                    message,
                    stderr: std::mem::take(&mut self.stderr),
                };
            }
            RequestError::Blocked { .. } => {
                (FailureKind::Blocked, Some(FindingKind::NeverAnswered))
            }
            RequestError::NoAnswer(_) => {
                (FailureKind::NeverAnswered, Some(FindingKind::NeverAnswered))
            }
            RequestError::Exited | RequestError::Io(_) => {
                self.unexplained = true;
                (FailureKind::ServerCrashed, Some(FindingKind::Crashed))
            }
            RequestError::TooLong
            | RequestError::OverBudget(_)
            | RequestError::Rpc { .. }
            | RequestError::Malformed(_) => {
                (FailureKind::ServerFailed, Some(FindingKind::ProtocolError))
            }
            RequestError::Cancelled => (FailureKind::Cancelled, None),
        };
        if let Some(finding) = finding {
            let case = self.case.clone();
            self.findings
                .note(finding, || message.clone(), case.as_deref());
        }
        let stderr = self.kill();
        self.ended_waiting = true;
        AdapterFailure {
            kind,
            message,
            stderr: format!("{}{stderr}", std::mem::take(&mut self.stderr)),
        }
    }
}
