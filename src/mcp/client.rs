//! A synchronous MCP client over stdio: one server process, its requests
//! answered one at a time on the calling thread.
//!
//! It speaks over a [`Transport`]: for a server process, the pipe
//! supervision every adapter gets ([`crate::mcp::transport::Pipe`]): a
//! process group of its own tied to the harness, bounded lines (16 MiB),
//! every wait bounded by a deadline and woken by cancellation, and an end
//! that closes standard input, waits a grace period, then sends SIGTERM
//! and SIGKILL.
//! No async runtime: the client needs four methods and one request in
//! flight, and the harness's workers are threads already.
//!
//! What a server does wrong besides answering is noted, never fatal, and
//! taken by the caller as findings ([`Connection::take_notes`]): a line
//! on standard output that is not JSON-RPC (one server `console.log`s while
//! checking paths; stricter clients would drop it) is skipped, a response
//! to no open request is skipped. The server's own requests are answered:
//! `roots/list` with the roots in force, `ping` with `{}`, anything else
//! with -32601.
//!
//! Request ids are random (in `1 .. 2^53`, exact in JavaScript too), drawn
//! afresh for every request, as the adapter protocol's `seq` is: a server
//! cannot answer a request before it was sent by guessing its id (the
//! next number of a count), and a response carrying an id this client
//! never sent is a protocol finding, never taken for an answer.

use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::mcp::transport::{Launch, Pipe, Transport};
use crate::mcp::wire::{
    CallToolParams, CallToolResult, ClientCapabilities, InitializeParams, InitializeResult,
    ListToolsParams, ListToolsResult, PeerInfo, RootsCapability,
};
use crate::report::findings::FindingKind;
use crate::subject::adapter::excerpt;
use crate::subject::budget::{self, MAX_ITEMS};
use crate::subject::fifos::{Blocked, HangProne};
use crate::subject::lines::{MAX_LINE_BYTES, Next};

/// The newest protocol revision this client implements; offered first.
pub const LATEST_PROTOCOL: &str = "2025-11-25";

/// Every revision this client accepts from a server: the subset it uses
/// (`initialize`, `tools/list`, `tools/call`, roots, `ping`) is the same
/// in all of them.
pub const SUPPORTED_PROTOCOLS: &[&str] = &["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The most `tools/list` pages read: a server whose cursor never ends
/// cannot keep the client reading.
const MAX_PAGES: usize = 100;
/// The most all of `tools/list`'s pages may hold together, in bytes: a
/// 14 MiB page became 450 MiB of parsed JSON, and 100 of them could be
/// read (issue 30, item 6). Servers' tool lists are a few KiB.
pub const MAX_TOOLS_LIST_BYTES: usize = 2 * 1024 * 1024;

/// Request ids are drawn from `1 .. 2^ID_BITS`: every JSON number in that
/// range is exact in JavaScript, where most servers parse them.
const ID_BITS: u32 = 53;

/// How long a server has to exit by itself once its standard input is
/// closed, before it is sent SIGTERM (and the `killed` finding says so).
/// Generous: a Python server that exits in half a second alone took more
/// than one on a loaded 2-core machine, and a finding must not depend on
/// the load. Servers restarted per case are ended on threads of their
/// own, so this is not waited out between cases.
pub const SERVER_EXIT_GRACE: Duration = Duration::from_secs(5);

/// Why a request got no usable answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RequestError {
    /// No response by the deadline: the request is left open. The time it
    /// had, from the moment it was asked, to the nearest millisecond: what
    /// a report shows must not depend on how long the write took (a
    /// truncated 9,999.6 ms said 9999 or 10000 from run to run).
    NoAnswer(Duration),
    /// Standard output ended (the server exited).
    Exited,
    /// A line longer than the limit.
    TooLong,
    /// A line or an answer that would cost more than it may once read
    /// ([`budget`](crate::subject::budget)): what it holds.
    OverBudget(String),
    /// The run was cancelled.
    Cancelled,
    /// The pipes failed.
    Io(String),
    /// A JSON-RPC error response.
    Rpc { code: i64, message: String },
    /// The server was found blocked on a FIFO of the call's fixture and
    /// released ([`crate::subject::fifos`]); `answered` when it then
    /// answered (the answer is not judged).
    Blocked { blocked: Blocked, answered: bool },
    /// A result that is not what the method answers (`wire`'s types).
    Malformed(String),
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::NoAnswer(after) => {
                write!(f, "no response within {} ms", after.as_millis())
            }
            RequestError::Exited => f.write_str("the server closed its standard output"),
            RequestError::TooLong => {
                write!(f, "a line longer than the limit of {MAX_LINE_BYTES} bytes")
            }
            RequestError::OverBudget(what) => f.write_str(what),
            RequestError::Cancelled => f.write_str("the run was cancelled"),
            RequestError::Io(e) => write!(f, "cannot talk to the server: {e}"),
            RequestError::Rpc { code, message } => {
                write!(f, "JSON-RPC error {code}: {message}")
            }
            RequestError::Blocked { blocked, answered } => f.write_str(&blocked.message(*answered)),
            RequestError::Malformed(why) => write!(f, "a malformed result: {why}"),
        }
    }
}

/// A tool the server lists.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolInfo {
    pub name: String,
    pub input_schema: Value,
}

/// A running, initialised server.
pub struct Connection {
    transport: Box<dyn Transport>,
    /// Every request id sent, to tell a late or repeated response (to a
    /// request sent) from a forged one (to an id never sent).
    sent: HashSet<u64>,
    /// What `roots/list` answers.
    roots: Vec<String>,
    /// The protocol revision the server chose.
    pub protocol: String,
    /// Misbehaviour seen since the last [`take_notes`](Self::take_notes):
    /// each kind once, with its first example and how often it was seen,
    /// so a server that writes millions of stray lines during one call
    /// costs a counter, not their text (885 MiB in 8 s did, issue 30
    /// item 6).
    notes: Vec<(FindingKind, String, u64)>,
    /// Whether [`end`](Self::end) ran: its process group is never
    /// signalled again (its id may be another's by now).
    ended: bool,
}

impl Drop for Connection {
    /// A connection dropped without being ended (a panic, a lost thread)
    /// leaves no server behind.
    fn drop(&mut self) {
        if !self.ended {
            self.end(Duration::ZERO);
        }
    }
}

impl Connection {
    /// Starts the server, initialises it with `roots` in force (when they
    /// go over MCP), and lists its tools, all within `timeout`.
    pub fn start(
        launch: &Launch,
        roots: &[String],
        timeout: Duration,
    ) -> Result<(Connection, Vec<ToolInfo>), String> {
        let pipe = Pipe::spawn(launch)?;
        Connection::open(Box::new(pipe), roots, launch.offer_roots, timeout).map_err(|e| {
            let argv = launch.argv.join(" ");
            format!("the server `{argv}` did not start: {e}")
        })
    }

    /// Initialises the server at the other end of `transport` with `roots`
    /// in force (offered over MCP when `offer_roots`), and lists its tools,
    /// all within `timeout`. A server that does not finish is ended, and
    /// the error ends with its standard error.
    pub fn open(
        transport: Box<dyn Transport>,
        roots: &[String],
        offer_roots: bool,
        timeout: Duration,
    ) -> Result<(Connection, Vec<ToolInfo>), String> {
        let mut connection = Connection {
            transport,
            sent: HashSet::new(),
            roots: roots.to_vec(),
            protocol: String::new(),
            notes: Vec::new(),
            ended: false,
        };
        let deadline = Instant::now() + timeout;
        match connection.initialize(offer_roots, deadline) {
            Ok(tools) => Ok((connection, tools)),
            Err(e) => {
                let stderr = connection.end(Duration::ZERO).1;
                let tail = if stderr.trim().is_empty() {
                    String::new()
                } else {
                    format!("; its standard error ends:\n{stderr}")
                };
                Err(format!("{e}{tail}"))
            }
        }
    }

    /// `initialize`, `notifications/initialized`, `tools/list` (every page).
    fn initialize(
        &mut self,
        offer_roots: bool,
        deadline: Instant,
    ) -> Result<Vec<ToolInfo>, String> {
        let params = InitializeParams {
            protocol_version: LATEST_PROTOCOL,
            capabilities: ClientCapabilities {
                roots: offer_roots.then_some(RootsCapability { list_changed: true }),
            },
            client_info: PeerInfo {
                name: "toolpath",
                version: crate::SUITE_VERSION,
            },
        };
        let answer: InitializeResult = self
            .request("initialize", to_json(&params), deadline)
            .and_then(typed)
            .map_err(|e| format!("`initialize`: {e}"))?;
        let version = answer.protocol_version.as_str();
        if !SUPPORTED_PROTOCOLS.contains(&version) {
            return Err(format!(
                "it answered protocol revision `{}`; this client speaks {}",
                excerpt(version.as_bytes()),
                SUPPORTED_PROTOCOLS.join(", ")
            ));
        }
        self.protocol = version.to_owned();
        self.notify("notifications/initialized", None, deadline)
            .map_err(|e| e.to_string())?;
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        let mut budget = MAX_TOOLS_LIST_BYTES;
        for _ in 0..MAX_PAGES {
            let params = ListToolsParams {
                cursor: cursor.as_deref(),
            };
            let (page, bytes) = self
                .request_within("tools/list", to_json(&params), deadline, budget, None)
                .and_then(|(page, bytes)| Ok((typed::<ListToolsResult>(page)?, bytes)))
                .map_err(|e| match e {
                    RequestError::TooLong => format!(
                        "`tools/list`: its pages hold more than {MAX_TOOLS_LIST_BYTES} bytes"
                    ),
                    e => format!("`tools/list`: {e}"),
                })?;
            budget = budget.saturating_sub(bytes);
            tools.extend(page.tools.into_iter().map(|tool| ToolInfo {
                name: tool.name,
                input_schema: tool.input_schema,
            }));
            cursor = page.next_cursor;
            if cursor.is_none() {
                return Ok(tools);
            }
        }
        Err(format!(
            "`tools/list` was still paging after {MAX_PAGES} pages"
        ))
    }

    /// `tools/call`; its result (content blocks, `structuredContent`,
    /// `isError`).
    pub fn call_tool(
        &mut self,
        name: &str,
        arguments: &Map<String, Value>,
        timeout: Duration,
    ) -> Result<CallToolResult, RequestError> {
        self.call_tool_watched(name, arguments, timeout, None)
    }

    /// [`call_tool`](Self::call_tool); for a call whose fixture holds
    /// FIFOs, with them released on the way ([`crate::subject::fifos`]).
    pub fn call_tool_watched(
        &mut self,
        name: &str,
        arguments: &Map<String, Value>,
        timeout: Duration,
        hang: Option<&HangProne>,
    ) -> Result<CallToolResult, RequestError> {
        let params = CallToolParams { name, arguments };
        self.request_within(
            "tools/call",
            to_json(&params),
            Instant::now() + timeout,
            MAX_LINE_BYTES,
            hang,
        )
        .and_then(|(answer, _)| typed(answer))
    }

    /// Puts `roots` in force and tells the server they changed; the
    /// server asks `roots/list` when it likes (answered while waiting for
    /// any later response).
    pub fn change_roots(
        &mut self,
        roots: &[String],
        deadline: Instant,
    ) -> Result<(), RequestError> {
        self.roots = roots.to_vec();
        self.notify("notifications/roots/list_changed", None, deadline)
    }

    /// The roots `roots/list` answers now.
    pub fn roots(&self) -> &[String] {
        &self.roots
    }

    /// Misbehaviour seen since the last look: kind and what was seen.
    pub fn take_notes(&mut self) -> Vec<(FindingKind, String, u64)> {
        std::mem::take(&mut self.notes)
    }

    /// Notes one more `kind`; `example` is made only for its first.
    fn note(&mut self, kind: FindingKind, example: impl FnOnce() -> String) {
        match self.notes.iter_mut().find(|(k, _, _)| *k == kind) {
            Some((_, _, count)) => *count += 1,
            None => self.notes.push((kind, example(), 1)),
        }
    }

    /// Standard error written since the last look.
    pub fn take_stderr(&mut self) -> String {
        self.transport.take_stderr()
    }

    /// Ends the server: standard input closed, `grace` to exit by itself,
    /// then SIGTERM, then SIGKILL. Whether it exited by itself (else a
    /// [`FindingKind::Killed`] is noted, with its exit status), and its
    /// last standard error.
    pub fn end(&mut self, grace: Duration) -> (bool, String) {
        if std::mem::replace(&mut self.ended, true) {
            return (true, self.transport.take_stderr());
        }
        let (exited, status) = self.transport.end(grace);
        if !exited && !grace.is_zero() {
            self.note(FindingKind::Killed, || {
                format!(
                    "still running {} ms after its standard input closed; ended by signal ({status})",
                    grace.as_millis()
                )
            });
        }
        (exited, self.transport.take_stderr())
    }

    /// Ends the server the polite way ([`SERVER_EXIT_GRACE`] after
    /// closing stdin).
    pub fn shutdown(&mut self) -> String {
        self.end(SERVER_EXIT_GRACE).1
    }

    /// Writes `message` by `deadline`, the one its answer has: a server
    /// that stops reading (while flooding requests of its own) ends the
    /// call at its deadline, never blocks the harness in the write.
    fn write(&mut self, message: &Value, deadline: Instant) -> Result<(), RequestError> {
        let mut line = serde_json::to_string(message).expect("JSON serialises");
        line.push('\n');
        self.transport
            .send(line.as_bytes(), deadline)
            .map_err(|e| RequestError::Io(e.to_string()))
    }

    fn notify(
        &mut self,
        method: &str,
        params: Option<Value>,
        deadline: Instant,
    ) -> Result<(), RequestError> {
        let mut message = json!({"jsonrpc": "2.0", "method": method});
        if let Some(params) = params {
            message["params"] = params;
        }
        self.write(&message, deadline)
    }

    /// Sends a request and waits until `deadline` for its response,
    /// answering the server's own requests and skipping everything else
    /// meanwhile (noted).
    pub fn request(
        &mut self,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, RequestError> {
        self.request_within(method, params, deadline, MAX_LINE_BYTES, None)
            .map(|(answer, _)| answer)
    }

    /// [`request`](Self::request) with lines of at most `limit` bytes,
    /// and a hang-prone call's FIFOs released while it waits; the answer
    /// and the length of its line.
    fn request_within(
        &mut self,
        method: &str,
        params: Value,
        deadline: Instant,
        limit: usize,
        hang: Option<&HangProne>,
    ) -> Result<(Value, usize), RequestError> {
        let mut deadline = deadline;
        let mut blocked: Option<Blocked> = None;
        let asked = Instant::now();
        let id = self.fresh_id()?;
        self.sent.insert(id);
        self.write(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
            deadline,
        )?;
        loop {
            let watching = hang.filter(|_| blocked.is_none());
            let (next, found) = self.transport.next_line(deadline, limit, watching);
            if let Some(found) = found {
                deadline = deadline.min(Instant::now() + crate::subject::fifos::RELEASE_GRACE);
                blocked = Some(found);
            }
            let line = match next {
                Next::Line(line) => line,
                Next::Timeout if blocked.is_some() => {
                    let blocked = blocked.take().expect("blocked");
                    return Err(RequestError::Blocked {
                        blocked,
                        answered: false,
                    });
                }
                Next::Eof => return Err(RequestError::Exited),
                Next::TooLong => return Err(RequestError::TooLong),
                Next::Timeout => {
                    let had = deadline.saturating_duration_since(asked);
                    let millis = (had.as_micros() + 500) / 1000;
                    return Err(RequestError::NoAnswer(Duration::from_millis(millis as u64)));
                }
                Next::Cancelled => return Err(RequestError::Cancelled),
                Next::Failed(e) => return Err(RequestError::Io(e.to_string())),
            };
            // Parsed, each value costs tens of bytes and each object
            // hundreds: counted first, the line is refused unparsed.
            if budget::json_items(&line, MAX_ITEMS).is_err() {
                return Err(RequestError::OverBudget(format!(
                    "a line of {} bytes holding more than {MAX_ITEMS} JSON values and members, \
                     more than a message may",
                    line.len()
                )));
            }
            if let Some(answer) = self.receive(&line, id, deadline)? {
                if let Some(blocked) = blocked {
                    return Err(RequestError::Blocked {
                        blocked,
                        answered: true,
                    });
                }
                return answer.map(|answer| (answer, line.len()));
            }
        }
    }

    /// A request id never used on this connection, random in `1 .. 2^53`.
    fn fresh_id(&self) -> Result<u64, RequestError> {
        loop {
            let drawn = crate::sys::random_u64()
                .map_err(|e| RequestError::Io(format!("cannot draw a request id: {e}")))?
                >> (64 - ID_BITS);
            if drawn != 0 && !self.sent.contains(&drawn) {
                return Ok(drawn);
            }
        }
    }

    /// Handles one line: `Some` when it is the response to `id`.
    #[allow(clippy::type_complexity)]
    fn receive(
        &mut self,
        line: &[u8],
        id: u64,
        deadline: Instant,
    ) -> Result<Option<Result<Value, RequestError>>, RequestError> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        let mut message: Map<String, Value> = match serde_json::from_slice(line) {
            Ok(Value::Object(m)) if m.get("jsonrpc") == Some(&json!("2.0")) => m,
            _ => {
                self.note(FindingKind::NotJsonRpc, || excerpt(line));
                return Ok(None);
            }
        };
        match (
            message.get("method").and_then(Value::as_str),
            message.get("id"),
        ) {
            (Some(method), Some(their_id)) => {
                let answer = self.answer_request(method, their_id.clone());
                self.write(&answer, deadline)?;
                Ok(None)
            }
            // A notification (progress, logging, list changed): nothing to do.
            (Some(_), None) => Ok(None),
            (None, Some(their_id)) if their_id.as_u64() == Some(id) => {
                // Taken, not copied: an answer may be most of a line.
                if let Some(result) = message.remove("result") {
                    return Ok(Some(Ok(result)));
                }
                let error = message.get("error");
                let code = error
                    .and_then(|e| e.get("code"))
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                let text = error
                    .and_then(|e| e.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("(a response with neither result nor error)");
                Ok(Some(Err(RequestError::Rpc {
                    code,
                    message: text.to_owned(),
                })))
            }
            (None, their_id) => {
                let sent = their_id
                    .and_then(Value::as_u64)
                    .is_some_and(|i| self.sent.contains(&i));
                let what = if sent {
                    "a response to a request no longer open"
                } else {
                    "a response to an id this client never sent (never taken for an answer)"
                };
                self.note(FindingKind::ProtocolError, || {
                    format!("{what}: {}", excerpt(line))
                });
                Ok(None)
            }
        }
    }

    /// The response to a request from the server.
    fn answer_request(&self, method: &str, id: Value) -> Value {
        match method {
            "roots/list" => {
                let roots: Vec<Value> = self
                    .roots
                    .iter()
                    .map(|r| json!({"uri": file_uri(Path::new(r)), "name": base_name(r)}))
                    .collect();
                json!({"jsonrpc": "2.0", "id": id, "result": {"roots": roots}})
            }
            "ping" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
            _ => json!({
                "jsonrpc": "2.0",
                "id": id,
                "error": {"code": -32601, "message": format!("method not found: {method}")},
            }),
        }
    }
}

/// A request's parameters as JSON.
fn to_json(params: &impl serde::Serialize) -> Value {
    serde_json::to_value(params).expect("parameters serialise")
}

/// A result read into the type its method answers.
fn typed<T: serde::de::DeserializeOwned>(result: Value) -> Result<T, RequestError> {
    serde_json::from_value(result).map_err(|e| RequestError::Malformed(e.to_string()))
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// `file://` and the path, each byte outside RFC 3986's unreserved set and
/// `/` percent-encoded, so any fixture path makes a valid URI.
pub fn file_uri(path: &Path) -> String {
    let mut uri = String::from("file://");
    for &b in path.as_os_str().as_encoded_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::transport::fake::{self, Fake};

    const SECOND: Duration = Duration::from_secs(1);

    /// A connection to a scripted server listing `read`, whose calls
    /// `call` answers; and the log of what it was sent.
    fn connect(
        call: impl FnMut(&Value, &str, &Value) -> Vec<Next> + Send + 'static,
    ) -> (Connection, fake::Sent) {
        let peer = Fake::new(fake::server(&["read"], call));
        let sent = peer.sent();
        let (connection, tools) =
            Connection::open(Box::new(peer), &["/r".into()], true, SECOND).unwrap();
        assert_eq!(tools[0].name, "read");
        (connection, sent)
    }

    fn call(connection: &mut Connection) -> Result<CallToolResult, RequestError> {
        connection.call_tool("read", &Map::new(), SECOND)
    }

    fn kinds(connection: &mut Connection) -> Vec<(FindingKind, u64)> {
        let notes = connection.take_notes();
        notes.into_iter().map(|(k, _, n)| (k, n)).collect()
    }

    /// The handshake in MCP's order: `initialize` (offering roots when
    /// asked), `initialized`, then `tools/list`; the revision chosen kept.
    #[test]
    fn a_server_is_greeted_then_its_tools_listed() {
        let (connection, sent) = connect(|_, _, _| Vec::new());
        let sent = sent.lock().unwrap();
        let methods: Vec<&str> = sent.iter().filter_map(|m| m["method"].as_str()).collect();
        assert_eq!(
            methods,
            ["initialize", "notifications/initialized", "tools/list"]
        );
        assert_eq!(
            sent[0]["params"]["capabilities"]["roots"],
            json!({"listChanged": true})
        );
        assert_eq!(connection.protocol, LATEST_PROTOCOL);
    }

    /// A revision this client does not speak stops the start, with the
    /// server's standard error; the server is ended.
    #[test]
    fn an_unknown_revision_is_refused_with_the_server_s_stderr() {
        let script: fake::Script = Box::new(|m| match m["method"].as_str() {
            Some("initialize") => vec![fake::result(&m["id"], json!({"protocolVersion": "1999"}))],
            _ => Vec::new(),
        });
        let peer = Fake::new(script).with_stderr("boot failed");
        let Err(e) = Connection::open(Box::new(peer), &[], false, SECOND) else {
            panic!("started");
        };
        assert!(e.contains("revision `1999`"), "{e}");
        assert!(e.ends_with("its standard error ends:\nboot failed"), "{e}");
    }

    /// Between a request and its answer: a stray line is skipped and
    /// noted, the server's own `roots/list` is answered with the roots in
    /// force, and the answer is still the one to this request.
    #[test]
    fn stray_lines_are_noted_and_the_server_s_requests_answered() {
        let (mut connection, sent) = connect(|id, _, _| {
            vec![
                fake::line("checking paths..."),
                fake::line(r#"{"jsonrpc": "2.0", "id": "q", "method": "roots/list"}"#),
                fake::text(id, "done", false),
            ]
        });
        assert_eq!(call(&mut connection).unwrap().text(), "done");
        assert_eq!(kinds(&mut connection), [(FindingKind::NotJsonRpc, 1)]);
        let answered = sent.lock().unwrap().last().cloned().unwrap();
        assert_eq!(answered["id"], "q");
        assert_eq!(answered["result"]["roots"][0]["uri"], "file:///r");
    }

    /// A response to an id never sent is a protocol finding, never the
    /// answer: the request stays open until its deadline.
    #[test]
    fn a_response_to_an_id_never_sent_is_no_answer() {
        let (mut connection, _) = connect(|_, _, _| {
            let forged = json!({"content": [{"type": "text", "text": "forged"}]});
            vec![fake::result(&json!(0), forged)]
        });
        assert!(matches!(
            call(&mut connection),
            Err(RequestError::NoAnswer(_))
        ));
        assert_eq!(kinds(&mut connection), [(FindingKind::ProtocolError, 1)]);
    }

    /// What ends a request without an answer, each told apart: the
    /// server's output ending (and every write after it failing), a line
    /// past the cap, a line of too many values, a result of the wrong
    /// shape, and a JSON-RPC error.
    #[test]
    fn each_way_a_request_goes_unanswered_is_told_apart() {
        let mut ended = connect(|_, _, _| vec![Next::Eof]).0;
        assert_eq!(call(&mut ended), Err(RequestError::Exited));
        assert!(matches!(call(&mut ended), Err(RequestError::Io(_))));
        let mut long = connect(|_, _, _| vec![Next::TooLong]).0;
        assert_eq!(call(&mut long), Err(RequestError::TooLong));
        let many = format!("[{}0]", "0,".repeat(MAX_ITEMS));
        let mut dense = connect(move |_, _, _| vec![fake::line(&many)]).0;
        assert!(matches!(call(&mut dense), Err(RequestError::OverBudget(_))));
        let mut shapeless = connect(|id, _, _| vec![fake::result(id, json!({"content": 3}))]).0;
        assert!(matches!(
            call(&mut shapeless),
            Err(RequestError::Malformed(_))
        ));
        let mut refusing = connect(|id, _, _| {
            let error = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -1, "message": "no"}});
            vec![fake::line(&error.to_string())]
        })
        .0;
        let refused = Err(RequestError::Rpc {
            code: -1,
            message: "no".into(),
        });
        assert_eq!(call(&mut refusing), refused);
    }

    /// A server that outlives its input closing by the grace period is
    /// noted as killed; one ended at once (it hung) is not.
    #[test]
    fn a_server_that_lingers_after_its_input_closes_is_noted_killed() {
        let open = || {
            let peer = Fake::new(fake::server(&[], |_, _, _| Vec::new())).lingering();
            Connection::open(Box::new(peer), &[], false, SECOND)
                .unwrap()
                .0
        };
        let mut polite = open();
        polite.shutdown();
        assert_eq!(kinds(&mut polite), [(FindingKind::Killed, 1)]);
        let mut hung = open();
        hung.end(Duration::ZERO);
        assert_eq!(kinds(&mut hung), []);
    }

    #[test]
    fn file_uris_encode_every_byte_that_needs_it() {
        assert_eq!(
            file_uri(Path::new("/tmp/a b/ü%")),
            "file:///tmp/a%20b/%C3%BC%25"
        );
        assert_eq!(file_uri(Path::new("/x/y-z_1.~")), "file:///x/y-z_1.~");
    }
}
