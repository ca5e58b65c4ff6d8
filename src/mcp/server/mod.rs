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
//!
//! By concern:
//! - here: [`McpServer`], its start and the [`Subject`] it is;
//! - [`roots`]: the state a call needs (allowed directories, working
//!   directory) and bringing the server into it;
//! - [`process`]: starting, ending and losing its process;
//! - [`hello`]: its version and tools, as every report shows them;
//! - [`answer`]: one suite call, sent, polled and read back.
//!
//! Each process is started through an opener ([`Connection::start`] in a
//! run), so the unit tests (`tests.rs`) drive every decision above over
//! scripted peers ([`crate::mcp::transport`]) without a process.

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

use crate::mcp::client::{Connection, RequestError, ToolInfo};
use crate::mcp::profile::{Loaded, Prepare, Profile, RelativeTo, RootsVia, ToolMap};
use crate::mcp::translate::{self};
use crate::mcp::transport::Launch;
use crate::report::findings::{Finding, FindingKind, Findings};
use crate::report::profile_rules::{RuleUse, RuleUses};
use crate::subject::fifos::HangProne;
use crate::subject::restarts::{Restarts, SilentStarts};
use crate::subject::{AdapterFailure, FailureKind, HOME_DIR, Subject, WORK_DIR};
use toolpath_suite::case::Instance;
use toolpath_suite::case::raw::Feature;
use toolpath_suite::protocol::{AdapterHello, Call, ToolResult};

mod answer;
mod hello;
mod process;
mod roots;
#[cfg(test)]
mod tests;

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

/// How a process is started in a state and greeted: its connection and
/// the tools it lists. [`Connection::start`] for a server process; a
/// scripted peer in the unit tests, which see the supervision's every
/// decision without a process.
type Opener = Box<
    dyn FnMut(&Launch, &[String], Duration) -> Result<(Connection, Vec<ToolInfo>), String> + Send,
>;

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
    open: Opener,
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

/// The subject's private directories: `tmp` (its `TMPDIR`) with its
/// `HOME` and working directory inside, in a scratch directory of the
/// run's. A server run as another user owns its `TMPDIR`, `HOME` and first
/// root (deepest first, each made just now in a directory of root's it
/// cannot rename entries in), and passes through the scratch directory,
/// which stays root's.
fn scratch(config: &McpConfig) -> Result<tempfile::TempDir, AdapterFailure> {
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
    Ok(scratch)
}

impl McpServer {
    /// Starts the server once: its version, tools and schemas make the
    /// `hello` every report shows.
    pub fn start(config: McpConfig) -> Result<McpServer, AdapterFailure> {
        McpServer::start_over(config, Box::new(Connection::start))
    }

    /// [`start`](Self::start), each process started and greeted by `open`.
    fn start_over(config: McpConfig, open: Opener) -> Result<McpServer, AdapterFailure> {
        let scratch = scratch(&config)?;
        let rule_uses = RuleUses::of(translate::rules(&config.profile.profile));
        let restarts = Restarts::new(config.max_restarts);
        let mut server = McpServer {
            config,
            hello: AdapterHello::default(),
            tools: Vec::new(),
            tmp_dir: scratch.path().join("tmp"),
            _scratch: scratch,
            running: None,
            open,
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
