//! The server's supervision over scripted peers ([`fake`]): its hello, a
//! call translated and read back, and what each way a call goes wrong (a
//! crash, a request never answered, a line past the cap, a stray or
//! malformed line, a start that never greets) comes to: the failure, the
//! finding, and whether the next start uses up a restart. No process is
//! started; `tests/mcp.rs` covers the pipes.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use toolpath_suite::protocol::{Kind, Outcome, Tool};

use super::*;
use crate::mcp::transport::fake::{self, Fake, Script};
use crate::subject::lines::Next;

/// `resolve` mapped onto the server's `get_file_info`, its kind read
/// from a line, its path composed from the request; roots over MCP.
/// The profile the fake servers answer to ([`MINIMAL_PROFILE`]): its
/// command is never run here, the opener makes the connection.
const PROFILE: &str = crate::mcp::profile::MINIMAL_PROFILE;

/// What a scripted server's `tools/call` writes back, given the request's
/// id.
type Answer = Box<dyn Fn(&Value) -> Vec<Next> + Send>;

/// A server over scripted peers, and what each process started was sent.
struct Scripted {
    server: Result<McpServer, AdapterFailure>,
    /// One log per process started, in order.
    started: Arc<Mutex<Vec<fake::Sent>>>,
    _tmp: tempfile::TempDir,
}

impl Scripted {
    fn server(&mut self) -> &mut McpServer {
        self.server.as_mut().expect("started")
    }

    fn starts(&self) -> usize {
        self.started.lock().unwrap().len()
    }
}

/// A server whose processes are `peers`, one per start, in order (a
/// start past the last is a test's mistake).
fn scripted(max_restarts: usize, peers: Vec<Script>) -> Scripted {
    scripted_with(max_restarts, SilentStarts::default(), peers)
}

fn scripted_with(max_restarts: usize, silent_starts: SilentStarts, peers: Vec<Script>) -> Scripted {
    let tmp = tempfile::tempdir().unwrap();
    let file = Path::new("profile.yaml");
    let config = McpConfig {
        profile: Loaded {
            profile: Loaded::parse(file, PROFILE).unwrap(),
            file: file.to_owned(),
            dir: tmp.path().to_owned(),
        },
        call_timeout: Duration::from_secs(1),
        hello_timeout: Duration::from_secs(1),
        max_restarts,
        tmpdir: tmp.path().to_owned(),
        run_id: None,
        user: None,
        silent_starts,
    };
    let started = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&started);
    let mut peers = VecDeque::from(peers);
    let open: Opener = Box::new(move |launch, roots, timeout| {
        let peer = Fake::new(peers.pop_front().expect("a peer scripted for each start"));
        log.lock().unwrap().push(peer.sent());
        Connection::open(Box::new(peer), roots, launch.offer_roots, timeout)
    });
    Scripted {
        server: McpServer::start_over(config, open),
        started,
        _tmp: tmp,
    }
}

/// A well-behaved server listing `get_file_info`, answering every call
/// with `answer`.
fn peer(answer: impl Fn(&Value) -> Vec<Next> + Send + 'static) -> Script {
    let answer: Answer = Box::new(answer);
    fake::server(&["get_file_info"], move |id, _, _| answer(id))
}

/// A server that answers every call: a directory.
fn healthy() -> Script {
    peer(|id| vec![fake::text(id, "isDirectory: true", false)])
}

fn resolve(seq: u64) -> Call {
    Call {
        seq,
        case: format!("c{seq}"),
        workspace: toolpath_suite::protocol::Workspace {
            roots: vec!["/ws".into()],
            target: "/ws".into(),
        },
        tool: Tool::Resolve,
        params: json!({"path": "a"}).as_object().unwrap().clone(),
    }
}

/// Each finding's kind, count and first case.
fn findings(server: &mut McpServer) -> Vec<(FindingKind, usize, Option<String>)> {
    let found = Subject::findings(server);
    (found.into_iter())
        .map(|f| (f.kind, f.count, f.cases.first().cloned()))
        .collect()
}

/// The hello: the profile's name and version, the suite tools whose
/// server tool is listed, and each one's schema under the suite's names.
#[test]
fn the_hello_says_what_the_profile_maps_onto_the_listed_tools() {
    let mut run = scripted(0, vec![healthy()]);
    let hello = run.server().hello().clone();
    assert_eq!(hello.implementation.version, "1.0");
    assert_eq!(hello.tools, [Tool::Resolve]);
    let schema = &hello.schemas["resolve"];
    assert_eq!(schema["properties"]["path"]["description"], "where");
    // A server that lists no `get_file_info` stands for no suite tool.
    let unlisted = fake::server(&["other"], |_, _, _| Vec::new());
    let mut run = scripted(0, vec![unlisted]);
    assert_eq!(run.server().hello().tools, []);
}

/// A call is sent under the server's names, with the roots given over
/// MCP, and its text read back by the profile's rules (each counted).
#[test]
fn a_call_is_sent_translated_and_read_back() {
    let mut run = scripted(0, vec![healthy()]);
    let read = run.server().call(&resolve(7)).unwrap();
    assert_eq!(read.seq, 7);
    assert_eq!(read.outcome, Some(Outcome::Ok));
    assert_eq!(read.kind, Some(Kind::Directory));
    assert_eq!(read.path.as_deref(), Some("/ws/a"));
    let sent = run.started.lock().unwrap()[0].lock().unwrap().clone();
    let call = sent.iter().find(|m| m["method"] == "tools/call").unwrap();
    assert_eq!(
        call["params"],
        json!({"name": "get_file_info", "arguments": {"path": "a"}})
    );
    assert!(
        sent.iter()
            .any(|m| m["method"] == "notifications/roots/list_changed")
    );
    let uses = run.server().rule_uses();
    let kind = uses
        .iter()
        .find(|u| u.rule == "tools.resolve.result.kind.lines[0]")
        .unwrap();
    assert_eq!((kind.applied, kind.matched), (1, 1));
    assert_eq!(findings(run.server()), []);
}

/// A stray line is a finding against the case it came during; the answer
/// after it is still read. A JSON-RPC error is an error answer.
#[test]
fn a_stray_line_is_a_finding_and_an_rpc_error_an_error_answer() {
    let chatty = peer(|id| {
        let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32000, "message": "ENOENT: no such file"}});
        vec![
            fake::line("checking paths..."),
            fake::line(&error.to_string()),
        ]
    });
    let mut run = scripted(0, vec![chatty]);
    let read = run.server().call(&resolve(1)).unwrap();
    assert_eq!(read.outcome, Some(Outcome::Error));
    assert_eq!(
        findings(run.server()),
        [(FindingKind::NotJsonRpc, 1, Some("c1".into()))]
    );
    assert_eq!(run.starts(), 1);
}

/// A crash fails its case as the server's, is a finding, and the next
/// start uses up a restart: with `--max-restarts 1`, one restart is
/// taken and the death after it gives up, with no third start.
#[test]
fn a_crash_is_a_finding_and_uses_up_a_restart() {
    let crashing = || peer(|_| vec![Next::Eof]);
    let mut run = scripted(1, vec![crashing(), crashing()]);
    let crashed = run.server().call(&resolve(1)).unwrap_err();
    assert_eq!(crashed.kind, FailureKind::ServerCrashed);
    assert!(crashed.message.contains("closed its standard output"));
    let again = run.server().call(&resolve(2)).unwrap_err();
    assert_eq!(again.kind, FailureKind::ServerCrashed);
    let given_up = run.server().call(&resolve(3)).unwrap_err();
    assert_eq!(given_up.kind, FailureKind::GaveUp);
    assert!(given_up.message.contains("--max-restarts 1"), "{given_up}");
    assert_eq!(run.starts(), 2);
    assert_eq!(
        findings(run.server()),
        [(FindingKind::Crashed, 2, Some("c1".into()))]
    );
}

/// A request never answered and a line past the cap each fail their case
/// and are findings, and the server is started again for the next call
/// without using up a restart (their verdicts are given): even with
/// `--max-restarts 0`, the next call is answered.
#[test]
fn a_request_never_answered_or_a_line_past_the_cap_costs_no_restart() {
    let silent = peer(|_| Vec::new());
    let long = peer(|_| vec![Next::TooLong]);
    let shapeless = peer(|id| vec![fake::result(id, json!({"content": 3}))]);
    let mut run = scripted(0, vec![silent, long, shapeless, healthy()]);
    let unanswered = run.server().call(&resolve(1)).unwrap_err();
    assert_eq!(unanswered.kind, FailureKind::NeverAnswered);
    let too_long = run.server().call(&resolve(2)).unwrap_err();
    assert_eq!(too_long.kind, FailureKind::ServerFailed);
    assert!(too_long.message.contains("longer than the limit"));
    let malformed = run.server().call(&resolve(3)).unwrap_err();
    assert_eq!(malformed.kind, FailureKind::ServerFailed);
    assert!(malformed.message.contains("malformed result"));
    assert!(run.server().call(&resolve(4)).is_ok());
    assert_eq!(run.starts(), 4);
    assert_eq!(
        findings(run.server()),
        [
            (FindingKind::NeverAnswered, 1, Some("c1".into())),
            (FindingKind::ProtocolError, 2, Some("c2".into())),
        ]
    );
}

/// A server that never finishes its handshake does not start, saying
/// why; the run's starts that never greeted are counted across servers,
/// and after three in a row the next is not tried.
#[test]
fn starts_that_never_greet_are_given_up_on_for_the_run() {
    let mute = || -> Script { Box::new(|_| vec![Next::Eof]) };
    let silent_starts = SilentStarts::default();
    for _ in 0..crate::subject::restarts::MAX_SILENT_STARTS {
        let run = scripted_with(0, silent_starts.clone(), vec![mute()]);
        let Err(failed) = run.server else {
            panic!("started")
        };
        assert_eq!(failed.kind, FailureKind::Start);
        assert!(failed.message.contains("`initialize`"), "{failed}");
    }
    let run = scripted_with(0, silent_starts, vec![]);
    let Err(given_up) = &run.server else {
        panic!("started")
    };
    assert_eq!(given_up.kind, FailureKind::GaveUp);
    assert_eq!(run.starts(), 0);
}
