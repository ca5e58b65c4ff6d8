//! External adapters: a long-lived process speaking the JSON Lines protocol.
//!
//! The process is started once and reused for every case; start-up cost is
//! paid once. Anything that goes wrong with it (exit, silence past the
//! timeout, a line that is not a valid message or is too long, a wrong
//! `seq`) becomes an [`AdapterFailure`] for the one case being run: the
//! whole process group is killed, and the next call starts a fresh process
//! and replays `hello`. After `max_restarts` restarts in a row with no call
//! answered between them, counted once per case file
//! ([`restarts`](super::restarts)), the adapter is given up on and the
//! caller marks the run partial. A call on a fixture with FIFOs is
//! released rather than timed out ([`fifos`](super::fifos)). An adapter that answers between its crashes is still
//! working, and each crash fails only its own case: a tool that blocks on
//! a FIFO and ends itself does so on every FIFO cell of the suite (nine
//! for one published package), and a budget over the whole run gave all
//! the cases after the fifth up as not run. Starts that never reach a
//! `hello` are the exception, budgeted over the whole run
//! ([`SilentStarts`]): they show nothing working.
//!
//! Output written while no call is outstanding (an extra `result`, a log
//! line) is never taken as the answer to the next call: it is found before
//! that call is sent and charged to the case answered last, as a
//! [`Subject::take_violation`].
//!
//! Every wait is bounded (see [`process`](super::process)): after standard
//! output ends the process has [`EXIT_GRACE`] to exit by itself; then its
//! group gets SIGTERM and [`TERM_GRACE`] to exit, then SIGKILL, and a
//! killed group has [`REAP_TIMEOUT`] to be reaped.
//!
//! What an adapter says is bounded before it costs anything: its `hello` is
//! one line of at most [`MAX_HELLO_BYTES`], with lists and schemas capped
//! ([`check_hello`]), so a `hello` of millions of features cannot take
//! gigabytes; and each call carries a fresh random `seq`, so no line
//! written ahead of a call can guess it and pass for its answer.
//!
//! The adapter gets a fixed environment (`LC_ALL`, `TZ`, its own `TMPDIR`)
//! and places of its own below that `TMPDIR`, made anew for each process:
//! its `HOME` ([`HOME_DIR`]) and its working directory ([`WORK_DIR`]).
//! Both were the harness's (the user's own `HOME`, the directory `toolpath`
//! was started in), where nothing of the run's may be put: a tool that
//! allows them beside the roots showed nothing. Private, they get a canary
//! before each call (`harness::reach`) like the `TMPDIR`. The command's
//! words that name a path where `toolpath` was started are made absolute
//! first ([`anchored`]), so `python3 adapter.py` still runs that file, and
//! an adapter finds its own files by its own path (`__file__`,
//! `import.meta.url`), never by its working directory.
//!
//! Git's environment is a clean one: every `GIT_*` variable of the harness's
//! environment is removed (`GIT_CONFIG_COUNT`/`GIT_CONFIG_PARAMETERS` can
//! run code, and a `GIT_INDEX_FILE` inherited from a pre-commit hook made a
//! tool's `git status` rewrite the user's index), and git reads no system
//! or global configuration (`GIT_CONFIG_NOSYSTEM=1`,
//! `GIT_CONFIG_GLOBAL=/dev/null`).

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crate::subject::fifos::{self, HangProne};
use crate::subject::lines::{MAX_LINE_BYTES, Next, Output};
use crate::subject::process::Process;
use crate::subject::restarts::{Restarts, SilentStarts};
use crate::subject::{AdapterFailure, FailureKind, HOME_DIR, Subject, WORK_DIR};
use toolpath_suite::case::validate::repository::git_gives_meaning;
use toolpath_suite::protocol::{
    AdapterHello, AdapterMessage, Call, HarnessHello, HarnessMessage, PROTOCOL_VERSION, ToolResult,
};

/// How long an adapter whose standard output ended, or that was sent `bye`,
/// has to exit by itself before its process group is killed.
pub const EXIT_GRACE: Duration = Duration::from_secs(1);
/// How long a process group sent SIGTERM (on a timeout, a bad line, the end
/// of a run) has to exit before it is sent SIGKILL.
pub const TERM_GRACE: Duration = Duration::from_secs(1);
/// How long a killed process group has to be reaped. SIGKILL cannot be
/// caught, so only a process stuck in the kernel takes this long.
pub const REAP_TIMEOUT: Duration = Duration::from_secs(5);
/// How long standard error may stay open after the group was killed (a
/// grandchild that left the group may hold it) before the tail is taken.
pub const STDERR_GRACE: Duration = Duration::from_secs(1);
/// The environment variable that carries the run's id to the adapter.
pub const RUN_ID_ENV: &str = "TOOLPATH_RUN";
/// How much of an offending line is quoted in a failure.
const QUOTED_BYTES: usize = 200;
/// The longest `hello` line an adapter may write (`spec/protocol.md`).
pub const MAX_HELLO_BYTES: usize = 1024 * 1024;
/// The most entries of each of `hello`'s lists (`tools`, `features`,
/// `unobservable`, each list of `unobservable_by_tool`), of
/// `unobservable_by_tool` and of its `schemas`.
pub const MAX_HELLO_ENTRIES: usize = 64;
/// The largest one schema in `hello` may be, as JSON.
pub const MAX_SCHEMA_BYTES: usize = 64 * 1024;
/// The longest `implementation` field (`name`, `version`, `language`).
pub const MAX_IMPLEMENTATION_BYTES: usize = 256;
/// The most names in `hello`'s `ignore_files`: an agent knows one or two
/// of its own, and each is one more file in every fixture that asks.
pub const MAX_IGNORE_FILES: usize = 8;
/// The longest name in `ignore_files`: a file name's limit on Linux.
pub const MAX_IGNORE_FILE_BYTES: usize = 255;
/// `seq` is drawn from `1 .. 2^53`: every JSON number in that range is
/// exact in JavaScript too.
const SEQ_BITS: u32 = 53;

/// How to start and supervise an adapter.
#[derive(Debug, Clone)]
pub struct AdapterConfig {
    /// Program and arguments, already split.
    pub argv: Vec<String>,
    pub call_timeout: Duration,
    pub hello_timeout: Duration,
    pub max_restarts: usize,
    /// Run the process as this user and group (used to observe permission
    /// bits when the harness itself runs as root).
    pub user: Option<(u32, u32)>,
    /// Where each adapter process gets a fresh temporary directory of its
    /// own (its `TMPDIR`), so workers and restarts never share state.
    pub tmpdir: PathBuf,
    pub suite_version: String,
    /// The run's id (its directory's base name, never its path), passed as
    /// `TOOLPATH_RUN` so that `toolpath clean` can find the processes of a
    /// run that was killed.
    pub run_id: Option<String>,
    /// The run's starts in a row with no `hello`, shared by every clone of
    /// this config (every worker's adapter).
    pub silent_starts: SilentStarts,
}

struct Running {
    process: Process,
    stdin: ChildStdin,
    output: Output,
    /// This process's own `TMPDIR`, removed with it.
    scratch: tempfile::TempDir,
}

/// A supervised adapter process.
pub struct Adapter {
    config: AdapterConfig,
    running: Option<Running>,
    hello: AdapterHello,
    seq: u64,
    /// Restarts after the first start, in a row, by case file.
    restarts: Restarts,
    /// Output written while no call was outstanding, not yet charged.
    violation: Option<AdapterFailure>,
    /// Standard error of the last process ended, until it is reported.
    last_stderr: String,
    /// Time spent on calls that got no answer in time (timeouts, calls
    /// blocked on a FIFO) and on restarts: what the run's `waited_ms` adds.
    waited: Duration,
}

fn failure(kind: FailureKind, message: String) -> AdapterFailure {
    AdapterFailure {
        kind,
        message,
        stderr: String::new(),
    }
}

/// The start of `bytes`, escaped, as text for a failure message: at most
/// [`QUOTED_BYTES`] of it, and `…` when there was more.
pub fn excerpt(bytes: &[u8]) -> String {
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(QUOTED_BYTES)]);
    let more = if bytes.len() > QUOTED_BYTES {
        "…"
    } else {
        ""
    };
    format!("{}{more}", shown.escape_debug())
}

impl Adapter {
    /// Starts the adapter and exchanges `hello`. The process is tied to the
    /// calling thread (it is killed if that thread ends), so start it on the
    /// thread that uses it.
    pub fn start(config: AdapterConfig) -> Result<Adapter, AdapterFailure> {
        let mut adapter = Adapter {
            restarts: Restarts::new(config.max_restarts),
            config,
            running: None,
            // Replaced by the adapter's own as soon as it answers.
            hello: AdapterHello::default(),
            seq: 0,
            violation: None,
            last_stderr: String::new(),
            waited: Duration::ZERO,
        };
        adapter.spawn()?;
        Ok(adapter)
    }

    /// Starts a process and greets it, unless the run's starts without a
    /// usable `hello` are spent ([`SilentStarts`]); a start that fails
    /// before one (cannot start, exits, is silent past the hello timeout,
    /// says a wrong `hello`) counts toward them, a greeting resets them.
    fn spawn(&mut self) -> Result<(), AdapterFailure> {
        if let Err(spent) = self.config.silent_starts.allow() {
            return Err(failure(
                FailureKind::GaveUp,
                format!(
                    "the adapter was started {spent} times in a row without answering `hello` \
                     (it could not be started, or said nothing usable within {} ms); \
                     giving up on it for the rest of the run",
                    self.config.hello_timeout.as_millis()
                ),
            ));
        }
        let greeted = self.launch().and_then(|running| {
            self.running = Some(running);
            self.seq = 0;
            self.greet()
        });
        match &greeted {
            Ok(()) => self.config.silent_starts.greeted(),
            Err(f) if f.kind == FailureKind::Cancelled => {}
            Err(_) => self.config.silent_starts.silent(),
        }
        greeted
    }

    /// Starts the process with its own `TMPDIR`, `HOME` and working
    /// directory, in its own process group.
    fn launch(&self) -> Result<Running, AdapterFailure> {
        let argv = match std::env::current_dir() {
            Ok(from) => anchored(&self.config.argv, &from),
            Err(_) => self.config.argv.clone(),
        };
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| failure(FailureKind::Start, "empty adapter command".into()))?;
        let cannot_make = |e: std::io::Error| {
            failure(
                FailureKind::Crash,
                format!("cannot create the adapter's temporary directory: {e}"),
            )
        };
        let scratch = tempfile::Builder::new()
            .prefix("adapter-")
            .tempdir_in(&self.config.tmpdir)
            .map_err(cannot_make)?;
        let (home, work) = (scratch.path().join(HOME_DIR), scratch.path().join(WORK_DIR));
        for dir in [&home, &work] {
            std::fs::DirBuilder::new()
                .mode(0o700)
                .create(dir)
                .map_err(cannot_make)?;
        }
        let mut command = Command::new(program);
        command.args(args);
        environment(&mut command, scratch.path(), self.config.run_id.as_deref());
        command
            .current_dir(&work)
            .env("PWD", &work)
            .env("HOME", &home);
        if let Some(user) = self.config.user {
            for dir in [scratch.path(), &home, &work] {
                let _ = crate::sys::chown(dir, user);
            }
        }
        let cannot_start = |e: std::io::Error| {
            let argv = self.config.argv.join(" ");
            failure(FailureKind::Start, format!("cannot start `{argv}`: {e}"))
        };
        let (process, pipes) = Process::spawn(command, self.config.user).map_err(cannot_start)?;
        let output = Output::new(pipes.stdout, pipes.stderr).map_err(cannot_start)?;
        Ok(Running {
            process,
            stdin: pipes.stdin,
            output,
            scratch,
        })
    }

    /// Exchanges `hello` with a freshly started process.
    fn greet(&mut self) -> Result<(), AdapterFailure> {
        let hello = HarnessHello {
            protocol: PROTOCOL_VERSION,
            suite: self.config.suite_version.clone(),
        };
        self.send(&HarnessMessage::Hello(hello), self.config.hello_timeout)?;
        match self.receive(self.config.hello_timeout, MAX_HELLO_BYTES, None)? {
            AdapterMessage::Hello(h) if h.protocol == PROTOCOL_VERSION => match check_hello(&h) {
                Ok(()) => {
                    self.hello = h;
                    Ok(())
                }
                Err(why) => Err(self.fail(FailureKind::BadOutput, format!("its hello {why}"))),
            },
            AdapterMessage::Hello(h) => Err(self.fail(
                FailureKind::BadOutput,
                format!(
                    "adapter speaks protocol {}, this harness speaks {PROTOCOL_VERSION}",
                    h.protocol
                ),
            )),
            AdapterMessage::Result(_) => Err(self.fail(
                FailureKind::BadOutput,
                "expected `hello`, got `result`".into(),
            )),
        }
    }

    /// Writes `message` by `timeout` from now: the same bound as its answer.
    fn send(&mut self, message: &HarnessMessage, timeout: Duration) -> Result<(), AdapterFailure> {
        let mut line = serde_json::to_string(message).expect("messages serialise");
        line.push('\n');
        let running = self.running.as_mut().expect("running");
        let written = crate::subject::process::write_by(
            &mut running.stdin,
            line.as_bytes(),
            Instant::now() + timeout,
        );
        written.map_err(|e| match e.kind() {
            std::io::ErrorKind::TimedOut => self.fail(
                FailureKind::Timeout,
                format!(
                    "the adapter did not read its input within {} ms",
                    timeout.as_millis()
                ),
            ),
            _ => self.fail(
                FailureKind::Crash,
                format!("cannot write to the adapter: {e}"),
            ),
        })
    }

    /// The next message, within `timeout`; for a call that may block on a
    /// FIFO, with its FIFOs released on the way ([`fifos`]). A subject found
    /// blocked fails the call as [`FailureKind::Blocked`], whatever it then
    /// writes: kept running if it answered once released, else ended.
    fn receive(
        &mut self,
        timeout: Duration,
        limit: usize,
        hang: Option<&HangProne>,
    ) -> Result<AdapterMessage, AdapterFailure> {
        let deadline = Instant::now() + timeout;
        let running = self.running.as_mut().expect("running");
        let (next, blocked) = fifos::next_line(&mut running.output, deadline, limit, hang);
        if let Some(blocked) = blocked {
            return Err(match next {
                Next::Line(_) => {
                    self.restarts.answered();
                    self.failed(FailureKind::Blocked, blocked.message(true))
                }
                _ => {
                    self.restarts.excuse();
                    self.fail(FailureKind::Blocked, blocked.message(false))
                }
            });
        }
        let (kind, message) = match next {
            Next::Line(line) => match serde_json::from_slice(&line) {
                Ok(message) => return Ok(message),
                Err(e) => (
                    FailureKind::BadOutput,
                    format!("not a protocol message ({e}): {}", excerpt(&line)),
                ),
            },
            Next::TooLong => (
                FailureKind::BadOutput,
                format!("a line longer than the protocol's limit of {limit} bytes"),
            ),
            Next::Eof => {
                let (exited, status) = self.stop(EXIT_GRACE);
                let message = if exited {
                    format!("the adapter exited ({status})")
                } else {
                    format!(
                        "the adapter closed its standard output but was still running {} ms later; \
                         its process group was killed ({status})",
                        EXIT_GRACE.as_millis()
                    )
                };
                return Err(self.failed(FailureKind::Crash, message));
            }
            Next::Timeout => (
                FailureKind::Timeout,
                format!("no answer within {} ms", timeout.as_millis()),
            ),
            Next::Cancelled => (FailureKind::Cancelled, "the run was cancelled".into()),
            Next::Failed(e) => (FailureKind::Crash, format!("cannot read its output: {e}")),
        };
        Err(self.fail(kind, message))
    }

    /// Ends the process group at once and returns the failure with the
    /// stderr tail.
    fn fail(&mut self, kind: FailureKind, message: String) -> AdapterFailure {
        self.stop(Duration::ZERO);
        self.failed(kind, message)
    }

    /// The failure, with what the adapter wrote to standard error.
    fn failed(&mut self, kind: FailureKind, message: String) -> AdapterFailure {
        AdapterFailure {
            kind,
            message,
            stderr: std::mem::take(&mut self.last_stderr),
        }
    }

    /// Ends the running process (after `grace` to exit by itself), keeps its
    /// last standard error and removes its `TMPDIR`. Returns whether it
    /// exited by itself, and its exit status.
    fn stop(&mut self, grace: Duration) -> (bool, String) {
        let Some(mut running) = self.running.take() else {
            return (true, "not running".into());
        };
        let ended = running.process.end(grace, TERM_GRACE, REAP_TIMEOUT);
        running.output.drain_stderr(STDERR_GRACE);
        self.last_stderr.push_str(&running.output.take_stderr());
        ended
    }

    /// Charges anything written since the last answer, before the next
    /// call is sent, so it can never be taken for that call's answer.
    fn check_quiet(&mut self) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if let Some(bytes) = running.output.unsolicited() {
            let seq = self.seq;
            let violation = self.fail(
                FailureKind::Unsolicited,
                format!(
                    "wrote while no call was outstanding (after its answer to seq {seq}): {}",
                    excerpt(&bytes)
                ),
            );
            self.violation = Some(violation);
        }
    }

    /// A fresh `seq` for the next call: random in `1 .. 2^53` and not the
    /// last one, so a line written before the call was sent cannot carry
    /// it except by a one-in-2^53 guess.
    fn next_seq(&mut self) -> Result<u64, AdapterFailure> {
        loop {
            let drawn = crate::sys::random_u64().map_err(|e| {
                failure(
                    FailureKind::Crash,
                    format!("cannot draw a random seq for the call: {e}"),
                )
            })? >> (64 - SEQ_BITS);
            if drawn != 0 && drawn != self.seq {
                return Ok(drawn);
            }
        }
    }

    /// Says `bye`, gives the process [`EXIT_GRACE`] to exit, then ends its group.
    pub fn shutdown(&mut self) {
        if self.running.is_some() {
            let _ = self.send(&HarnessMessage::Bye, EXIT_GRACE);
        }
        self.stop(EXIT_GRACE);
    }

    /// One call; `hang` when its fixture holds FIFOs.
    fn call_with(
        &mut self,
        call: &Call,
        hang: Option<&HangProne>,
    ) -> Result<ToolResult, AdapterFailure> {
        self.check_quiet();
        self.last_stderr.clear();
        self.ensure_running()?;
        self.seq = self.next_seq()?;
        let call = Call {
            seq: self.seq,
            ..call.clone()
        };
        let asked = Instant::now();
        self.send(
            &HarnessMessage::Call(call.clone()),
            self.config.call_timeout,
        )?;
        let received = self.receive(self.config.call_timeout, MAX_LINE_BYTES, hang);
        if let Err(f) = &received
            && matches!(f.kind, FailureKind::Timeout | FailureKind::Blocked)
        {
            self.waited += asked.elapsed();
        }
        match received? {
            AdapterMessage::Result(result) if result.seq == call.seq => {
                if result.outcome.is_none() {
                    return Err(
                        self.fail(FailureKind::BadOutput, "result without `outcome`".into())
                    );
                }
                self.restarts.answered();
                Ok(result)
            }
            AdapterMessage::Result(result) => Err(self.fail(
                FailureKind::WrongSeq,
                format!("answered seq {} to call seq {}", result.seq, call.seq),
            )),
            AdapterMessage::Hello(_) => Err(self.fail(
                FailureKind::BadOutput,
                "expected `result`, got `hello`".into(),
            )),
        }
    }

    /// Starts a new process if the last one was ended, unless given up on;
    /// the time a restart takes is waited time.
    fn ensure_running(&mut self) -> Result<(), AdapterFailure> {
        if self.running.is_some() {
            return Ok(());
        }
        if let Err(spent) = self.restarts.take() {
            return Err(failure(
                FailureKind::GaveUp,
                format!(
                    "the adapter was restarted for {spent} case files in a row without answering a call; giving up"
                ),
            ));
        }
        let started = Instant::now();
        let spawned = self.spawn();
        self.waited += started.elapsed();
        spawned
    }
}

impl Subject for Adapter {
    fn hello(&self) -> &AdapterHello {
        &self.hello
    }

    /// The user every process of it is started as (its config's).
    fn user(&self) -> Option<(u32, u32)> {
        self.config.user
    }

    fn ready(&mut self, file: &Path) -> Result<(), AdapterFailure> {
        self.restarts.for_file(file);
        self.check_quiet();
        self.ensure_running()
    }

    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        self.call_with(call, None)
    }

    fn call_hang_prone(
        &mut self,
        call: &Call,
        hang: &HangProne,
    ) -> Result<ToolResult, AdapterFailure> {
        self.call_with(call, Some(hang))
    }

    fn waited(&self) -> Duration {
        self.waited
    }

    fn stderr_tail(&mut self) -> String {
        match self.running.as_mut() {
            Some(running) => running.output.take_stderr(),
            None => std::mem::take(&mut self.last_stderr),
        }
    }

    fn scratch_dir(&self) -> Option<&std::path::Path> {
        self.running.as_ref().map(|r| r.scratch.path())
    }

    fn homes(&self) -> Vec<PathBuf> {
        (self.running.iter())
            .map(|r| r.scratch.path().join(HOME_DIR))
            .collect()
    }

    fn workdir(&self) -> Option<PathBuf> {
        (self.running.as_ref()).map(|r| r.scratch.path().join(WORK_DIR))
    }

    fn take_violation(&mut self) -> Option<AdapterFailure> {
        self.violation.take()
    }

    fn finish(&mut self) -> Option<AdapterFailure> {
        self.check_quiet();
        self.shutdown();
        self.violation.take()
    }
}

impl Drop for Adapter {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Piped standard streams and the environment every process under test
/// gets (`spec/protocol.md`, Environment): `LC_ALL=C`, `TZ=UTC`, `TMPDIR`
/// its own, the run's id, and git isolated: every `GIT_*` variable of the
/// harness's environment removed, no system or global configuration.
/// MCP servers get the same.
pub fn environment(command: &mut Command, tmpdir: &std::path::Path, run_id: Option<&str>) {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("LC_ALL", "C")
        .env("TZ", "UTC")
        .env("TMPDIR", tmpdir);
    if let Some(run_id) = run_id {
        command.env(RUN_ID_ENV, run_id);
    }
    // git inherits nothing from the harness's environment, and reads
    // no configuration but a repository's own.
    for (name, _) in std::env::vars_os() {
        if name.as_encoded_bytes().starts_with(b"GIT_") {
            command.env_remove(name);
        }
    }
    command
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null");
}

/// `argv` with the words that name a path relative to `from` (where
/// `toolpath` was started) made absolute: the program when it names a
/// path (`./adapter`, `venv/bin/python`), and each argument that names a
/// file or directory existing there (`adapter.py`, `runners/x/adapter.mjs`,
/// `.`), as the session's start check reads them. The adapter runs
/// in a directory of its own ([`WORK_DIR`]), where they would name
/// nothing. A word that names nothing there (a mode, a glob, an option)
/// is passed as it is, and so is one that cannot be made absolute as text.
pub fn anchored(argv: &[String], from: &Path) -> Vec<String> {
    let word = |(i, word): (usize, &String)| {
        let path = Path::new(word);
        let names = match i {
            0 => word.contains('/'),
            _ => !word.starts_with('-') && from.join(path).exists(),
        };
        if word.is_empty() || path.is_absolute() || !names {
            return word.clone();
        }
        let absolute = from.join(path).into_os_string().into_string();
        absolute.unwrap_or_else(|_| word.clone())
    };
    argv.iter().enumerate().map(word).collect()
}

/// Splits an adapter command line into words as a POSIX shell would, but
/// expands nothing (no variables, globs or substitutions) and runs no
/// shell: white space separates words, single and double quotes group
/// them, a backslash escapes the next character, and `#` at the start of
/// a word begins a comment. Through [`shlex`], whose splitting follows
/// POSIX's quoting rules.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(line)
        .ok_or_else(|| format!("unbalanced quote or trailing backslash in `{line}`"))?;
    if words.is_empty() {
        return Err("empty adapter command".into());
    }
    Ok(words)
}

/// Whether `hello` is within the protocol's bounds: `Err` says which one
/// it passes (the adapter then cannot start, with that reason).
pub fn check_hello(hello: &AdapterHello) -> Result<(), String> {
    let lists = [
        ("tools", hello.tools.len()),
        ("features", hello.features.len()),
        ("unobservable", hello.unobservable.len()),
        ("schemas", hello.schemas.len()),
    ];
    for (field, n) in lists {
        if n > MAX_HELLO_ENTRIES {
            return Err(format!(
                "has {n} `{field}` entries; the protocol allows at most {MAX_HELLO_ENTRIES}"
            ));
        }
    }
    for (tool, fields) in &hello.unobservable_by_tool {
        if fields.len() > MAX_HELLO_ENTRIES {
            return Err(format!(
                "has {} `unobservable_by_tool` entries for `{}`; the protocol allows at most {MAX_HELLO_ENTRIES}",
                fields.len(),
                tool
            ));
        }
    }
    let who = &hello.implementation;
    for (field, text) in [
        ("name", &who.name),
        ("version", &who.version),
        ("language", &who.language),
    ] {
        if text.len() > MAX_IMPLEMENTATION_BYTES {
            return Err(format!(
                "has an `implementation.{field}` of {} bytes; the protocol allows at most {MAX_IMPLEMENTATION_BYTES}",
                text.len()
            ));
        }
    }
    for (tool, schema) in &hello.schemas {
        let size = serde_json::to_string(schema).map_or(usize::MAX, |s| s.len());
        if size > MAX_SCHEMA_BYTES {
            return Err(format!(
                "has a schema for `{}` of {size} bytes; the protocol allows at most {MAX_SCHEMA_BYTES}",
                excerpt(tool.as_bytes())
            ));
        }
    }
    check_ignore_files(&hello.ignore_files)
}

/// `ignore_files`: at most [`MAX_IGNORE_FILES`] plain file names, each
/// once. Each becomes a file in a fixture directory, so a name that is a
/// path (`../x`, `a/b`), empty, `.` or `..`, or longer than a name may be
/// would put it elsewhere or nowhere.
fn check_ignore_files(names: &[String]) -> Result<(), String> {
    if names.len() > MAX_IGNORE_FILES {
        return Err(format!(
            "has {} `ignore_files` entries; the protocol allows at most {MAX_IGNORE_FILES}",
            names.len()
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let why = if name.is_empty() {
            "it is empty".to_owned()
        } else if name == "." || name == ".." {
            "it names a directory".to_owned()
        } else if name.contains('/') {
            "it holds a `/`".to_owned()
        } else if name.contains('\0') {
            "it holds a NUL".to_owned()
        } else if name.len() > MAX_IGNORE_FILE_BYTES {
            format!(
                "it is {} bytes long; a file name is at most {MAX_IGNORE_FILE_BYTES}",
                name.len()
            )
        } else if git_gives_meaning(name) {
            "git gives the name a meaning, and only `fixture.git` makes a repository".to_owned()
        } else if names[..i].contains(name) {
            "it is given twice".to_owned()
        } else {
            continue;
        };
        return Err(format!(
            "has the `ignore_files` entry `{}`, which is not a file name: {why}",
            excerpt(name.as_bytes())
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolpath_suite::protocol::{Feature, Field, Tool};

    #[test]
    fn splits_commands_like_a_shell_without_expansion() {
        assert_eq!(split_command("python3 a.py").unwrap(), ["python3", "a.py"]);
        assert_eq!(
            split_command(" node 'my dir/a.mjs'  \"x y\"z ").unwrap(),
            ["node", "my dir/a.mjs", "x yz"]
        );
        assert_eq!(split_command("a ''").unwrap(), ["a", ""]);
        assert_eq!(split_command("echo $HOME").unwrap(), ["echo", "$HOME"]);
        assert!(split_command("a 'b").is_err());
        assert!(split_command("  ").is_err());
    }

    #[test]
    fn words_naming_paths_where_toolpath_started_are_made_absolute() {
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path();
        std::fs::create_dir_all(from.join("runners/x/venv/bin")).unwrap();
        std::fs::write(from.join("adapter.py"), "").unwrap();
        let words = |line: &str| anchored(&split_command(line).unwrap(), from);
        let at = |rel: &str| from.join(rel).display().to_string();
        assert_eq!(
            words("python3 adapter.py report-env '*.ts' -u"),
            ["python3", &at("adapter.py"), "report-env", "*.ts", "-u"]
        );
        // The program when it names a path, whether it exists or not (the
        // start says why it cannot run); an absolute word as it is.
        assert_eq!(
            words("runners/x/venv/bin/python ./runners /abs/a.py"),
            [
                &at("runners/x/venv/bin/python"),
                &at("./runners"),
                "/abs/a.py"
            ]
        );
        assert_eq!(words("node ."), ["node", &at(".")]);
    }

    #[test]
    fn backslashes_and_comments_split_as_in_a_shell() {
        assert_eq!(
            split_command(r"node my\ dir/a.mjs").unwrap(),
            ["node", "my dir/a.mjs"]
        );
        assert_eq!(split_command(r"a C:\\x").unwrap(), ["a", r"C:\x"]);
        assert_eq!(split_command(r#"a "q\"uote""#).unwrap(), ["a", "q\"uote"]);
        assert_eq!(
            split_command("node 'a b' # a note").unwrap(),
            ["node", "a b"]
        );
        assert!(split_command(r"a \").is_err(), "a trailing backslash");
    }

    fn hello() -> AdapterHello {
        AdapterHello {
            protocol: 1,
            tools: vec![toolpath_suite::protocol::Tool::Grep],
            ..AdapterHello::default()
        }
    }

    #[test]
    fn a_hello_within_the_bounds_passes_and_one_past_any_fails_naming_it() {
        assert_eq!(check_hello(&hello()), Ok(()));
        assert_eq!(
            check_hello(&crate::reference::hello()),
            Ok(()),
            "the reference's own"
        );
        let mut many = hello();
        many.features = vec![Feature::Symlinks; MAX_HELLO_ENTRIES + 1];
        let why = check_hello(&many).unwrap_err();
        assert_eq!(
            why,
            "has 65 `features` entries; the protocol allows at most 64"
        );
        let mut named = hello();
        named.implementation.name = "x".repeat(MAX_IMPLEMENTATION_BYTES + 1);
        assert!(
            check_hello(&named)
                .unwrap_err()
                .contains("implementation.name")
        );
        let mut schema = hello();
        schema.schemas.insert(
            "grep".into(),
            serde_json::Value::String("x".repeat(MAX_SCHEMA_BYTES)),
        );
        assert!(
            check_hello(&schema)
                .unwrap_err()
                .contains("schema for `grep`")
        );
        let mut by_tool = hello();
        by_tool
            .unobservable_by_tool
            .insert(Tool::Ls, vec![Field::Path; MAX_HELLO_ENTRIES + 1]);
        assert_eq!(
            check_hello(&by_tool).unwrap_err(),
            "has 65 `unobservable_by_tool` entries for `ls`; the protocol allows at most 64"
        );
    }

    /// Each announced ignore file becomes a file in a fixture directory:
    /// a name that is not one plain file name is refused, and named.
    #[test]
    fn an_ignore_file_that_is_not_a_plain_file_name_refuses_the_hello_naming_it() {
        let with = |names: &[&str]| {
            let mut h = hello();
            h.ignore_files = names.iter().map(|n| (*n).to_owned()).collect();
            check_hello(&h)
        };
        assert_eq!(with(&[".mytoolignore", ".clineignore"]), Ok(()));
        let long = "x".repeat(MAX_IGNORE_FILE_BYTES + 1);
        for (name, why) in [
            ("", "it is empty"),
            (".", "it names a directory"),
            ("..", "it names a directory"),
            ("../.x", "it holds a `/`"),
            ("a/b", "it holds a `/`"),
            (".x\0y", "it holds a NUL"),
            (&long, "it is 256 bytes long; a file name is at most 255"),
            (
                ".GIT",
                "git gives the name a meaning, and only `fixture.git` makes a repository",
            ),
            (
                "HEAD",
                "git gives the name a meaning, and only `fixture.git` makes a repository",
            ),
        ] {
            let refused = with(&[".ok", name]).unwrap_err();
            assert_eq!(
                refused,
                format!(
                    "has the `ignore_files` entry `{}`, which is not a file name: {why}",
                    excerpt(name.as_bytes())
                )
            );
        }
        assert_eq!(
            with(&[".x", ".x"]).unwrap_err(),
            "has the `ignore_files` entry `.x`, which is not a file name: it is given twice"
        );
        let nine: Vec<String> = (0..=MAX_IGNORE_FILES).map(|i| format!(".i{i}")).collect();
        let nine: Vec<&str> = nine.iter().map(String::as_str).collect();
        assert_eq!(
            with(&nine).unwrap_err(),
            "has 9 `ignore_files` entries; the protocol allows at most 8"
        );
        assert_eq!(with(&nine[..MAX_IGNORE_FILES]), Ok(()));
    }
}
