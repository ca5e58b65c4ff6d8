//! An MCP server as a [`Subject`]: the profile's server started and kept
//! in the state each call needs (allowed directories, working directory),
//! each suite call translated into a `tools/call` and its text read back.
//!
//! One process serves as many cases as its state allows: with MCP roots
//! a case's new roots are announced (`notifications/roots/list_changed`)
//! and, for a server that swaps them asynchronously, polled for until in
//! force; a server given them by a tool of its own (`via: tool`) is
//! called with them; a server given its directories on the command line
//! or in a config file is started again for each new set, which the
//! harness keeps the same paths across the consecutive instances of one
//! case file, each built in the same place ([`Subject::keeps_place`]);
//! their twins, and every call that needs the server in the case's
//! directory (a server resolving relative paths against its working
//! directory), go to a process of their own, started for them and ended
//! after. A server that was ended is started again for the next case. Only deaths nothing explains count toward `--max-restarts` (a
//! crash, a start that failed), and only those in a row, with no call
//! answered between them: a server ended because a request was never
//! answered, a line ran past the cap or a poll never came to an end has
//! already had its verdict (the case failed, a finding says why), and a
//! restart for new allowed directories is how such a server is run.
//!
//! Everything a server does wrong outside its answers (stray stdout, a
//! request never answered, a kill at shutdown) is counted as a finding
//! against the instance it happened during.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The longest version a server may have: it is shown in every report (a
/// 10 MB `version` in a `package.json` was, issue 30 item 6).
pub const MAX_VERSION_BYTES: usize = 128;

/// The most a search session's answers may come to together, as one
/// answer may: each poll's answer was joined to the others without
/// limit (2.4 GB for one call at the default 50 polls, issue 30 item 6).
pub const MAX_POLLED_BYTES: usize = crate::subject::lines::MAX_LINE_BYTES;

use serde_json::{Map, Value};

use crate::mcp::client::{Connection, Launch, RequestError, ToolInfo};
use crate::mcp::profile::{
    Loaded, PollAnswers, Prepare, Profile, RelativeTo, RootsVia, ServerTool, ToolMap, VersionSource,
};
use crate::mcp::translate::{self, Context, Trial};
use crate::report::findings::{Finding, FindingKind, Findings};
use crate::report::profile_rules::{RuleUse, RuleUses};
use crate::subject::budget;
use crate::subject::hang::HangProne;
use crate::subject::restarts::{Restarts, SilentStarts};
use crate::subject::{AdapterFailure, FailureKind, HOME_DIR, Subject, WORK_DIR};
use toolpath_suite::case::Instance;
use toolpath_suite::case::raw::Feature;
use toolpath_suite::protocol::{AdapterHello, Call, Implementation, PROTOCOL_VERSION, ToolResult};

mod roots;

/// The first pause between two asks of a server that swaps its roots
/// asynchronously whether the new ones are in force; each pause doubles up
/// to [`READY_PAUSE_MAX`]. The asks are bounded by the call's time, not by
/// a count: 200 asks with no pause went by in 26 ms under load, before a
/// healthy server had switched.
const READY_PAUSE_FIRST: Duration = Duration::from_millis(1);
const READY_PAUSE_MAX: Duration = Duration::from_millis(100);
/// How many times a search session is polled, by default.
const SESSION_POLLS: usize = 50;

/// How to run a profile's server.
#[derive(Debug, Clone)]
pub struct McpConfig {
    pub profile: Loaded,
    pub call_timeout: Duration,
    pub hello_timeout: Duration,
    pub max_restarts: usize,
    /// Where each subject makes its private `HOME` and `TMPDIR`.
    pub tmpdir: PathBuf,
    pub run_id: Option<String>,
    /// Run the server as this user and group.
    pub user: Option<(u32, u32)>,
    /// The run's starts in a row that never finished the handshake,
    /// shared by every clone of this config (every worker's server).
    pub silent_starts: SilentStarts,
}

/// What the running process was started with.
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    roots: Vec<String>,
    cwd: PathBuf,
}

struct Running {
    connection: Connection,
    state: State,
}

/// A profile's server, supervised.
pub struct McpServer {
    config: McpConfig,
    hello: AdapterHello,
    /// The server's tools, from its first start.
    tools: Vec<ToolInfo>,
    /// `tmp/` (its `TMPDIR`, `{adapter-tmp}`, with its `HOME` and its
    /// working directory inside: see [`McpServer::start_dir`]), for this
    /// subject's whole life: restarts keep them, so `{adapter-tmp}` in a
    /// call built before a restart still names the server's `TMPDIR`.
    /// Held only to be removed with the subject.
    _scratch: tempfile::TempDir,
    /// `scratch/tmp`, the server's `TMPDIR`.
    tmp_dir: PathBuf,
    running: Option<Running>,
    /// Restarts after an unexplained death since the last answered call,
    /// counted against `--max-restarts` once per case file.
    restarts: Restarts,
    /// The last process ended in a way nothing explains (it crashed, or a
    /// start failed): starting the next one uses up a restart.
    unexplained: bool,
    findings: Findings,
    /// How often each rule of the profile matched (issue 34).
    rule_uses: RuleUses,
    /// The instance being answered, for findings.
    case: Option<String>,
    /// The FIFOs of the call being answered, when its fixture has any.
    hang: Option<HangProne>,
    /// Time spent on requests never answered (or blocked on a FIFO) and
    /// on starting the server again after them: the run's `waited_ms`.
    waited: Duration,
    /// The last process was ended for a request it did not answer (or a
    /// crash): the next start is waited time.
    ended_waiting: bool,
    /// Standard error of servers ended since the last look.
    stderr: String,
    /// The roots already prepared (`git init`), so each is prepared once.
    prepared: Vec<String>,
    /// A process started for the current call alone is running.
    own_call: bool,
    /// The calls being sent are asked aside ([`Subject::aside`]).
    aside: bool,
    /// Processes being ended on threads of their own, with their notes
    /// and the case they served.
    ending: Vec<std::thread::JoinHandle<(Notes, Option<String>)>>,
}

/// Misbehaviour noted by a connection: kind and what was seen.
type Notes = Vec<(FindingKind, String, u64)>;

fn failure(kind: FailureKind, message: String) -> AdapterFailure {
    AdapterFailure {
        kind,
        message,
        stderr: String::new(),
    }
}

impl McpServer {
    /// Starts the server once: its version, tools and schemas make the
    /// `hello` every report shows.
    pub fn start(config: McpConfig) -> Result<McpServer, AdapterFailure> {
        let scratch = tempfile::Builder::new()
            .prefix("mcp-")
            .tempdir_in(&config.tmpdir)
            .map_err(|e| {
                failure(
                    FailureKind::Start,
                    format!("cannot create the server's directories: {e}"),
                )
            })?;
        for dir in ["tmp", "tmp/home", "tmp/work"] {
            std::fs::create_dir(scratch.path().join(dir)).map_err(|e| {
                failure(
                    FailureKind::Start,
                    format!("cannot create the server's {dir}: {e}"),
                )
            })?;
        }
        // A server run as another user owns its `TMPDIR`, `HOME` and first
        // root (deepest first, each made just now in a directory of root's
        // it cannot rename entries in), and passes through the scratch
        // directory, which stays root's.
        if let Some(user) = config.user {
            use std::os::unix::fs::PermissionsExt;
            let passable = std::fs::Permissions::from_mode(0o711);
            let handed = std::fs::set_permissions(scratch.path(), passable).and_then(|()| {
                ["tmp/home", "tmp/work", "tmp"]
                    .iter()
                    .try_for_each(|dir| crate::sys::chown(&scratch.path().join(dir), user))
            });
            handed.map_err(|e| {
                failure(
                    FailureKind::Start,
                    format!("cannot hand the server its directories: {e}"),
                )
            })?;
        }
        let rule_uses = RuleUses::of(translate::rules(&config.profile.profile));
        let restarts = Restarts::new(config.max_restarts);
        let mut server = McpServer {
            config,
            hello: AdapterHello::default(),
            tools: Vec::new(),
            tmp_dir: scratch.path().join("tmp"),
            _scratch: scratch,
            running: None,
            restarts,
            unexplained: false,
            rule_uses,
            findings: Findings::default(),
            case: None,
            hang: None,
            waited: Duration::ZERO,
            ended_waiting: false,
            stderr: String::new(),
            prepared: Vec::new(),
            own_call: false,
            aside: false,
            ending: Vec::new(),
        };
        let start_root = server.start_dir().display().to_string();
        if server.profile().server.prepare.contains(&Prepare::GitInit) {
            server.init_repository(&start_root)?;
        }
        let state = State {
            roots: vec![start_root],
            cwd: server.start_dir(),
        };
        server.launch(state)?;
        let version = server.version()?;
        if version.len() > MAX_VERSION_BYTES {
            return Err(failure(
                FailureKind::Start,
                format!(
                    "cannot read the server's version: it is {} bytes long, more than {MAX_VERSION_BYTES}",
                    version.len()
                ),
            ));
        }
        server.hello = server.make_hello(version);
        Ok(server)
    }

    fn profile(&self) -> &Profile {
        &self.config.profile.profile
    }

    /// Every tool the server listed at its first start, as it listed them
    /// (`toolpath tools --mcp`): what a profile's `tools:` may map to.
    pub fn listed_tools(&self) -> &[ToolInfo] {
        &self.tools
    }

    /// One call of the server's tool `tool` with `arguments` as they are
    /// (nothing of the profile's renames or templates), the server first
    /// given `roots` as a run gives a case's (none: its own empty start
    /// directory): the result as the server sent it (a JSON-RPC error as
    /// `{"error": {...}}`), what `toolpath call
    /// --mcp` prints for a profile's author to write its rules from.
    pub fn call_raw(
        &mut self,
        tool: &str,
        arguments: &Map<String, Value>,
        roots: &[String],
    ) -> Result<Value, AdapterFailure> {
        if let Some(first) = roots.first() {
            // A call with no path: the server in its roots, in the first
            // one when it resolves relative paths against its directory.
            let call = Call {
                seq: 0,
                case: "toolpath call".into(),
                workspace: toolpath_suite::protocol::Workspace {
                    roots: roots.to_vec(),
                    target: first.clone(),
                },
                tool: toolpath_suite::protocol::Tool::Resolve,
                params: Map::new(),
            };
            self.enter(&call)?;
        }
        let timeout = self.config.call_timeout;
        let running = self.running.as_mut().expect("started");
        let params = serde_json::json!({"name": tool, "arguments": arguments});
        let answer = running
            .connection
            .request("tools/call", params, Instant::now() + timeout);
        let notes = running.connection.take_notes();
        self.note(notes);
        match answer {
            Ok(result) => Ok(result),
            // An error response is an answer too: shown as the server
            // sent it, JSON-RPC's `error` member.
            Err(RequestError::Rpc { code, message }) => {
                Ok(serde_json::json!({"error": {"code": code, "message": message}}))
            }
            Err(e) => Err(self.lost(e, &format!("`tools/call {tool}`"))),
        }
    }

    /// `{profile}` and `{home}` in a word of the command or environment.
    fn expand(&self, word: &str) -> String {
        word.replace("{profile}", &self.config.profile.dir.display().to_string())
            .replace("{home}", &self.home().display().to_string())
    }

    /// Inside its `TMPDIR`, so messages naming it read `{adapter-tmp}/home`
    /// in reports, the same in every run. A process started for one call
    /// (see [`Subject::call`]) has a `HOME` of its own, `home-call`: a
    /// server that writes its config back while it runs (desktop-commander
    /// does after every call, and reloads the file whenever it changes)
    /// must not have the kept server's settings changed under it by
    /// another process, at a moment no one chose.
    fn home(&self) -> PathBuf {
        self.tmp_dir
            .join(if self.own_call { "home-call" } else { HOME_DIR })
    }

    fn tmp(&self) -> PathBuf {
        self.tmp_dir.clone()
    }

    /// The one root of a server not yet given a case's, and the working
    /// directory of every process that is not started for a call needing
    /// its target directory: `{adapter-tmp}/work`, as an adapter's. It is
    /// private to the subject, so the harness puts a canary there before
    /// each call (`harness::reach`): a server that allows its working
    /// directory beside the roots on its own shows it.
    fn start_dir(&self) -> PathBuf {
        self.tmp_dir.join(WORK_DIR)
    }

    /// Starts a process in `state`, ending the one running meanwhile,
    /// unless the run's starts that never finished the handshake are spent
    /// ([`SilentStarts`]: a server that stopped starting would cost a
    /// start timeout per case, its restarts for one case file being free).
    /// A failed start counts toward them, a handshake resets them.
    fn launch(&mut self, state: State) -> Result<(), AdapterFailure> {
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
    fn start_process(&mut self, state: State) -> Result<(), AdapterFailure> {
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
        let (mut connection, tools) = Connection::start(&launch, &state.roots, timeout)
            .map_err(|e| failure(FailureKind::Start, e))?;
        self.tools = tools;
        self.note(connection.take_notes());
        self.running = Some(Running { connection, state });
        Ok(())
    }

    /// Ends the running process, if any, keeping its findings and stderr,
    /// and waits for those being ended meanwhile.
    fn stop(&mut self) {
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
    fn stop_meanwhile(&mut self) {
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
    fn kill(&mut self) -> String {
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

    fn note(&mut self, notes: Notes) {
        for (kind, text, count) in notes {
            for _ in 0..count {
                self.findings
                    .note(kind, || text.clone(), self.case.as_deref());
            }
        }
    }

    /// The implementation's version, from where the profile says (at most
    /// [`MAX_VERSION_BYTES`]: it is printed in every report).
    fn version(&self) -> Result<String, AdapterFailure> {
        let cannot = |why: String| {
            failure(
                FailureKind::Start,
                format!("cannot read the server's version: {why}"),
            )
        };
        match &self.profile().implementation.version {
            VersionSource::Text(text) => Ok(text.clone()),
            VersionSource::PackageJson(file) => {
                let path = self.config.profile.dir.join(&**file);
                let bytes = crate::mcp::confined::read(
                    &self.config.profile.dir,
                    file,
                    crate::mcp::confined::MAX_READ_BYTES,
                )
                .map_err(|e| cannot(format!("{}: {e}", path.display())))?;
                let json: Value = serde_json::from_slice(&bytes)
                    .map_err(|e| cannot(format!("{}: {e}", path.display())))?;
                json.get("version")
                    .and_then(Value::as_str)
                    .map(str::to_owned)
                    .ok_or_else(|| cannot(format!("{} has no `version`", path.display())))
            }
            VersionSource::Command(words) => {
                let words: Vec<String> = words.iter().map(|w| self.expand(w)).collect();
                let (program, args) = words
                    .split_first()
                    .ok_or_else(|| cannot("an empty command".into()))?;
                let mut command = std::process::Command::new(program);
                command.args(args);
                crate::subject::adapter::environment(&mut command, &self.tmp(), None);
                command.env("HOME", self.home());
                let shown = words.join(" ");
                let done =
                    crate::mcp::command::run(command, self.config.user, self.config.hello_timeout)
                        .map_err(|e| cannot(format!("`{shown}`: {e}")))?;
                if !done.success {
                    return Err(cannot(format!("`{shown}` failed ({})", done.status)));
                }
                done.first_line
                    .split_whitespace()
                    .last()
                    .map(str::to_owned)
                    .ok_or_else(|| cannot(format!("`{shown}` printed nothing")))
            }
        }
    }

    /// The `hello` a profile stands for: the suite tools whose server tool
    /// the server lists, its features, what it cannot observe, and each
    /// tool's schema under the suite's names.
    fn make_hello(&self, version: String) -> AdapterHello {
        let profile = self.profile();
        let mut tools = Vec::new();
        let mut schemas = std::collections::BTreeMap::new();
        for (tool, map) in &profile.tools {
            let ToolMap::Tool(server) = map else { continue };
            let Some(info) = self.tools.iter().find(|t| t.name == server.tool) else {
                continue;
            };
            tools.push(*tool);
            schemas.insert(
                tool.name().to_owned(),
                suite_schema(&info.input_schema, server),
            );
        }
        AdapterHello {
            protocol: PROTOCOL_VERSION,
            implementation: Implementation {
                name: profile.implementation.name.clone(),
                version,
                language: profile.implementation.language.clone(),
            },
            tools,
            features: crate::mcp::profile::features(&profile.features),
            unobservable: crate::mcp::profile::fields(&profile.unobservable),
            // A profile states what it cannot observe for every tool at once;
            // a field one translation cannot read is marked `derived` in
            // the answer itself.
            unobservable_by_tool: Default::default(),
            schemas,
            // A profile names no ignore file of the server's own: the cases
            // of one are skipped for it (spec/protocol.md, `ignore_files`).
            ignore_files: Vec::new(),
        }
    }

    /// The failure for a tool polled to the profile's limit that never
    /// said it was done: a finding, and the server ended (its state is
    /// unknown), which is no unexplained death.
    fn exhausted(&mut self, message: String) -> AdapterFailure {
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
    fn lost(&mut self, error: RequestError, doing: &str) -> AdapterFailure {
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

    /// One suite call: the server in the state it needs, the call
    /// translated, the answer (polled to its end) read back.
    fn answer(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        let profile = self.profile().clone();
        let Some(ToolMap::Tool(map)) = profile.tools.get(&call.tool) else {
            unreachable!("only declared tools are routed here")
        };
        self.enter(call)?;
        let base = match profile.relative_paths {
            RelativeTo::Cwd => self
                .running
                .as_ref()
                .expect("running")
                .state
                .cwd
                .display()
                .to_string(),
            RelativeTo::Roots => call.workspace.roots[0].clone(),
        };
        let arguments = translate::arguments(map, &call.params);
        let mut ctx = Context::new(call.tool, map, &profile.errors, &base, &call.params);
        // What the request named, as the fixture holds it before the call
        // (a link to a file counts: a search given one searches the file).
        ctx.requested_file = translate::requested_path(call.tool, &call.params).is_some()
            && std::fs::metadata(&ctx.requested).is_ok_and(|m| m.is_file());
        let timeout = self.config.call_timeout;
        let running = self.running.as_mut().expect("running");
        let answer = running.connection.call_tool_watched(
            &map.tool,
            &arguments,
            timeout,
            self.hang.as_ref(),
        );
        let notes = running.connection.take_notes();
        self.note(notes);
        let result = match answer {
            Ok(result) => result,
            // A JSON-RPC error is an error answer like an `isError` one:
            // its message is what a client shows the model, and what the
            // profile's rules read (anchored rules included).
            Err(RequestError::Rpc { message, .. }) => {
                let read = translate::error(&mut ctx, &message);
                self.count(ctx.tried);
                return Ok(read);
            }
            Err(e) => return Err(self.lost(e, &format!("`tools/call {}`", map.tool))),
        };
        let is_error = result.is_error();
        // The model is shown the content; the rules read it too, or, where
        // the profile says so, a value of a successful answer's
        // `structuredContent`.
        let mut text = result.text();
        let mut shown = None;
        if let Some(pointer) = &map.result.structured
            && !is_error
        {
            let Some(structured) = result.structured_text(pointer) else {
                let why = format!("its structuredContent has no value at `{pointer}`");
                let doing = format!("`tools/call {}`", map.tool);
                return Err(self.lost(RequestError::Malformed(why), &doing));
            };
            shown = Some(std::mem::replace(&mut text, structured));
        }
        if let Some(poll) = &map.result.poll
            && !is_error
        {
            let (all, read) = self.poll(poll, text)?;
            shown = Some(all);
            text = read;
            let notes = self
                .running
                .as_mut()
                .expect("running")
                .connection
                .take_notes();
            self.note(notes);
        }
        // Each line read may become an entry or a match with its path
        // composed: counted before they are split.
        if budget::text_lines(&text, budget::MAX_ITEMS).is_err() {
            let what = format!(
                "an answer of more than {} lines, more than one may be read as",
                budget::MAX_ITEMS
            );
            let doing = format!("`tools/call {}`", map.tool);
            return Err(self.lost(RequestError::OverBudget(what), &doing));
        }
        // A text a rule reads as JSON becomes a value per item once parsed:
        // counted first, as a message is.
        if translate::reads_json(&map.result)
            && !is_error
            && budget::json_items(text.as_bytes(), budget::MAX_ITEMS).is_err()
        {
            let what = format!(
                "a JSON text of more than {} values and members, more than one may be read as",
                budget::MAX_ITEMS
            );
            let doing = format!("`tools/call {}`", map.tool);
            return Err(self.lost(RequestError::OverBudget(what), &doing));
        }
        let mut read = translate::read(&mut ctx, &text, is_error);
        self.count(ctx.tried);
        // The model saw every answer of a session, whichever was read.
        if let Some(all) = shown {
            read.model_text = Some(all);
        }
        for &field in &map.unobservable {
            if !read.derived.contains(&field) {
                read.derived.push(field);
            }
        }
        Ok(read)
    }

    /// Counts the rules tried on one answer.
    fn count(&mut self, tried: Vec<Trial>) {
        for trial in tried {
            self.rule_uses
                .applied(&trial.rule, || trial.rule.clone(), trial.matched);
        }
    }

    /// A search session: asked for more until a line says it is done.
    /// Every answer joined (what the model saw), and the text to read:
    /// the same, or the last answer alone when each poll answers the
    /// whole session.
    fn poll(
        &mut self,
        poll: &crate::mcp::profile::Poll,
        first: String,
    ) -> Result<(String, String), AdapterFailure> {
        let Some(session) = first.lines().find_map(|line| {
            let found = poll.session.0.captures(line)?.name("session")?;
            Some(found.as_str().to_owned())
        }) else {
            return Ok((first.clone(), first));
        };
        let whole = poll.answers == PollAnswers::All;
        let done = |text: &str| text.lines().any(|l| poll.done.is_match(l));
        let mut all = first.clone();
        let mut last = first;
        let mut polled = false;
        let arguments = substitute(&poll.arguments, &session);
        let timeout = self.config.call_timeout;
        let polls = poll.max_polls.unwrap_or(SESSION_POLLS);
        for _ in 0..polls {
            if done(&last) && (polled || !whole) {
                break;
            }
            let running = self.running.as_mut().expect("running");
            match running
                .connection
                .call_tool(&poll.tool, &arguments, timeout)
            {
                Ok(result) => {
                    last = result.text();
                    if all.len() + 1 + last.len() > MAX_POLLED_BYTES {
                        return Err(self.exhausted(format!(
                            "its search session's answers came to more than {MAX_POLLED_BYTES} bytes"
                        )));
                    }
                    all.push('\n');
                    all.push_str(&last);
                    polled = true;
                }
                Err(e) => return Err(self.lost(e, &format!("polling `{}`", poll.tool))),
            }
        }
        if done(&last) && (polled || !whole) {
            let read = if whole { last } else { all.clone() };
            return Ok((all, read));
        }
        Err(self.exhausted(format!(
            "its search session was not done after {polls} call{} of `{}`",
            if polls == 1 { "" } else { "s" },
            poll.tool
        )))
    }
}

/// Whether `text` names the directory `root` (as given, or as its real
/// path: a server may report either).
fn names(text: &str, root: &str) -> bool {
    text.lines().any(|l| l.trim() == root)
        || std::fs::canonicalize(root)
            .ok()
            .is_some_and(|real| text.lines().any(|l| Path::new(l.trim()) == real))
}

/// `{session}` replaced in every string value.
fn substitute(arguments: &Map<String, Value>, session: &str) -> Map<String, Value> {
    arguments
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) => Value::String(s.replace("{session}", session)),
                other => other.clone(),
            };
            (k.clone(), v)
        })
        .collect()
}

/// A server tool's input schema with its properties (and `required`) under
/// the suite's names, so DESC cases read the description a model sees for
/// each suite parameter.
fn suite_schema(schema: &Value, map: &ServerTool) -> Value {
    let mut copy = schema.clone();
    let to_suite = |name: &str| -> String { map.arguments.suite_name_of(name).to_owned() };
    if let Some(Value::Object(props)) = copy.get_mut("properties") {
        let renamed: Map<String, Value> = std::mem::take(props)
            .into_iter()
            .map(|(k, v)| (to_suite(&k), v))
            .collect();
        *props = renamed;
    }
    if let Some(Value::Array(required)) = copy.get_mut("required") {
        for name in required.iter_mut() {
            if let Some(s) = name.as_str() {
                *name = Value::String(to_suite(s));
            }
        }
    }
    copy
}

impl Subject for McpServer {
    fn hello(&self) -> &AdapterHello {
        &self.hello
    }

    /// The user the server (and every command of its profile) runs as.
    fn user(&self) -> Option<(u32, u32)> {
        self.config.user
    }

    fn scratch_dir(&self) -> Option<&Path> {
        // Fixed for the subject's life (see `_scratch`).
        Some(&self.tmp_dir)
    }

    /// Both: which one the call's process gets is decided as it is sent.
    fn homes(&self) -> Vec<PathBuf> {
        [HOME_DIR, "home-call"]
            .map(|h| self.tmp_dir.join(h))
            .to_vec()
    }

    /// Always the start directory: a process started in a case's target
    /// directory instead has its working directory inside the fixture,
    /// where a canary would be a file of the fixture's, and the one here
    /// is then read by nothing.
    fn workdir(&self) -> Option<PathBuf> {
        Some(self.start_dir())
    }

    fn refuse(&self, instance: &Instance) -> Option<String> {
        let profile = self.profile();
        match profile.tools.get(&instance.tool) {
            None => {
                return Some(format!(
                    "the profile maps no server tool to `{}`",
                    instance.tool
                ));
            }
            Some(ToolMap::None(why)) => return Some(format!("no fitting server tool: {why}")),
            Some(ToolMap::Tool(server)) if !self.tools.iter().any(|t| t.name == server.tool) => {
                return Some(format!("the server lists no tool `{}`", server.tool));
            }
            Some(ToolMap::Tool(_)) => {}
        }
        // Said here in the server's terms, before the harness would say
        // "the adapter does not declare" it.
        for feature in &instance.case.requires {
            let name = feature.name();
            let fixture_feature = Feature::DECLARED.contains(feature);
            if fixture_feature && !profile.features.iter().any(|f| f.as_str() == name) {
                return Some(format!(
                    "the profile does not declare the `{name}` feature (the server's tools are not given such fixtures)"
                ));
            }
        }
        let roots = instance.case.fixture.roots.len();
        match profile.roots.max.as_deref() {
            Some(&max) if roots > max => Some(format!(
                "the server takes at most {max} allowed director{} and this case has {roots} roots",
                if max == 1 { "y" } else { "ies" }
            )),
            _ => None,
        }
    }

    /// A call that needs the server in the case's directory goes to a
    /// process of its own, started there and ended after it: the kept one
    /// stays in a directory that outlives every case (a process kept in a
    /// case's directory would find it gone at the next call, and answer
    /// `ENOENT ... uv_cwd`). So does a call asked aside of a server whose
    /// roots are fixed at start: the kept one stays in the roots of the
    /// case file's next instance.
    fn call(&mut self, call: &Call) -> Result<ToolResult, AdapterFailure> {
        self.case = Some(call.case.clone());
        let own_process =
            self.required_cwd(call).is_some() || (self.aside && !self.roots_change_while_running());
        let kept = if own_process {
            self.running.take()
        } else {
            None
        };
        self.own_call = own_process;
        let asked = Instant::now();
        let answered = self.answer(call);
        if let Err(failure) = &answered
            && matches!(
                failure.kind,
                FailureKind::NeverAnswered | FailureKind::Blocked
            )
        {
            self.waited += asked.elapsed();
        }
        self.own_call = false;
        if own_process {
            self.stop_meanwhile();
            self.running = kept;
        }
        let mut result = answered?;
        // A server that answers between its deaths is still working: the
        // budget counts restarts in a row.
        self.restarts.answered();
        result.seq = call.seq;
        Ok(result)
    }

    fn stderr_tail(&mut self) -> String {
        let mut tail = std::mem::take(&mut self.stderr);
        if let Some(running) = self.running.as_mut() {
            tail.push_str(&running.connection.take_stderr());
        }
        tail
    }

    fn ready(&mut self, file: &Path) -> Result<(), AdapterFailure> {
        self.restarts.for_file(file);
        Ok(())
    }

    /// A server given its roots when it starts.
    fn keeps_place(&self) -> bool {
        !self.roots_change_while_running()
    }

    fn aside(&mut self, aside: bool) {
        self.aside = aside;
    }

    fn call_hang_prone(
        &mut self,
        call: &Call,
        hang: &HangProne,
    ) -> Result<ToolResult, AdapterFailure> {
        self.hang = Some(hang.clone());
        let answered = self.call(call);
        self.hang = None;
        answered
    }

    fn waited(&self) -> Duration {
        self.waited
    }

    fn prepare(&mut self, call: &Call) -> Result<Vec<PathBuf>, AdapterFailure> {
        self.case = Some(call.case.clone());
        self.git_init(&call.workspace.roots)
    }

    fn finish(&mut self) -> Option<AdapterFailure> {
        self.case = None;
        self.stop();
        None
    }

    fn composer(&self) -> &'static str {
        "the profile"
    }

    fn findings(&mut self) -> Vec<Finding> {
        std::mem::take(&mut self.findings).into_vec()
    }

    fn rule_uses(&mut self) -> Vec<RuleUse> {
        std::mem::take(&mut self.rule_uses).into_vec()
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        self.stop();
    }
}
