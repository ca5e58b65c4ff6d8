//! A scripted peer for unit tests: a [`Transport`] whose "server" is a
//! function from each message it is sent to the lines it writes back, so
//! the client's and the server supervision's decisions are tested without
//! a process, a pipe or a wait.
//!
//! Lines are answered as they are sent: nothing ever arrives later, so a
//! peer with nothing queued never answers (the caller's deadline passes at
//! once, as it would after waiting). A peer that wrote its end of file
//! reads as closed from then on, and writes to it fail as to a dead
//! process's pipe.

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::Transport;
use crate::mcp::client::LATEST_PROTOCOL;
use crate::subject::fifos::{Blocked, HangProne};
use crate::subject::lines::Next;

/// What the peer writes back for each message it is sent.
pub type Script = Box<dyn FnMut(&Value) -> Vec<Next> + Send>;

/// Every message a peer was sent, in order, shared with the test.
pub type Sent = Arc<Mutex<Vec<Value>>>;

/// A scripted peer.
pub struct Fake {
    script: Script,
    /// Written by the peer, not read yet.
    queued: VecDeque<Next>,
    sent: Sent,
    /// Its output ended (it wrote its end of file, or was ended).
    closed: bool,
    /// It ignores its input closing, and is ended by a signal.
    lingers: bool,
    stderr: String,
}

impl Fake {
    pub fn new(script: Script) -> Fake {
        Fake {
            script,
            queued: VecDeque::new(),
            sent: Sent::default(),
            closed: false,
            lingers: false,
            stderr: String::new(),
        }
    }

    /// The log of what it is sent, to be read by the test.
    pub fn sent(&self) -> Sent {
        Arc::clone(&self.sent)
    }

    /// It writes `text` to its standard error.
    pub fn with_stderr(mut self, text: &str) -> Fake {
        self.stderr = text.to_owned();
        self
    }

    /// It does not exit when its input closes.
    pub fn lingering(mut self) -> Fake {
        self.lingers = true;
        self
    }
}

impl Transport for Fake {
    fn send(&mut self, line: &[u8], _deadline: Instant) -> io::Result<()> {
        if self.closed {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        let message: Value = serde_json::from_slice(line).expect("the client writes JSON");
        let written = (self.script)(&message);
        self.sent.lock().expect("not poisoned").push(message);
        self.queued.extend(written);
        Ok(())
    }

    fn next_line(
        &mut self,
        _deadline: Instant,
        limit: usize,
        _hang: Option<&HangProne>,
    ) -> (Next, Option<Blocked>) {
        let next = match self.queued.pop_front() {
            Some(Next::Line(line)) if line.len() > limit => Next::TooLong,
            Some(Next::Eof) => {
                self.closed = true;
                Next::Eof
            }
            Some(next) => next,
            None if self.closed => Next::Eof,
            None => Next::Timeout,
        };
        (next, None)
    }

    fn take_stderr(&mut self) -> String {
        std::mem::take(&mut self.stderr)
    }

    fn end(&mut self, grace: Duration) -> (bool, String) {
        self.closed = true;
        match self.lingers && !grace.is_zero() {
            true => (false, "signal: 15 (SIGTERM)".into()),
            false => (true, "exit status: 0".into()),
        }
    }
}

/// One line as the peer writes it.
pub fn line(text: &str) -> Next {
    Next::Line(text.as_bytes().to_vec())
}

/// The response to request `id` with `result`.
pub fn result(id: &Value, result: Value) -> Next {
    line(&json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string())
}

/// A `tools/call` result of one text block, an error one when `is_error`.
pub fn text(id: &Value, text: &str, is_error: bool) -> Next {
    let content = json!([{"type": "text", "text": text}]);
    result(id, json!({"content": content, "isError": is_error}))
}

/// An MCP server listing `tools` (each taking a `path`), greeting with the
/// newest revision, its `tools/call`s answered by `call` (the request's
/// id, the tool's name and its arguments).
pub fn server(
    tools: &[&str],
    mut call: impl FnMut(&Value, &str, &Value) -> Vec<Next> + Send + 'static,
) -> Script {
    let listed: Vec<Value> = tools
        .iter()
        .map(|name| {
            let path = json!({"type": "string", "description": "where"});
            json!({"name": name, "inputSchema": {"type": "object", "properties": {"path": path}}})
        })
        .collect();
    Box::new(move |message| {
        let (Some(id), Some(method)) = (message.get("id"), message["method"].as_str()) else {
            return Vec::new();
        };
        match method {
            "initialize" => vec![result(id, json!({"protocolVersion": LATEST_PROTOCOL}))],
            "tools/list" => vec![result(id, json!({"tools": listed}))],
            "tools/call" => call(
                id,
                message["params"]["name"].as_str().unwrap_or_default(),
                &message["params"]["arguments"],
            ),
            _ => vec![line(
                &json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "no"}})
                    .to_string(),
            )],
        }
    })
}
