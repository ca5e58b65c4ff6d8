//! An MCP server started as a run starts it (in a run directory of its
//! own, boxed, unprivileged, its `HOME` private), asked for its tools or
//! to answer one call, and ended: what `toolpath tools --mcp` and
//! `toolpath call --mcp` show a server's author, who would otherwise
//! write an MCP client to learn what a profile may map and how to read
//! the answers.

use std::path::Path;

use crate::mcp::client::ToolInfo;
use crate::mcp::profile::Loaded;
use crate::mcp::server::McpServer;
use crate::report::ExitCode;
use crate::session::{Session, Supervision};
use crate::subject::Subject;
use serde_json::{Map, Value};
use toolpath_suite::protocol::AdapterHello;
use toolpath_suite::sanitize;

/// What the server said about itself.
pub struct ServerTools {
    /// The `hello` a run would make of it: its version, and the suite
    /// tools the profile maps to a tool it lists.
    pub hello: AdapterHello,
    /// Every tool it lists, in its order.
    pub listed: Vec<ToolInfo>,
}

/// Starts the server of `profile` (run directory in `fixture_dir`, or the
/// default place), lists its tools and ends it; the error says why it
/// could not, with what the server wrote to stderr, ready for a terminal:
/// the server's text in it is sanitised, its stderr one indented line per
/// line, so none of it acts on the terminal or passes for toolpath's. The
/// exit code is the session's: a SIGINT on the way cancels.
pub fn list(
    profile: Loaded,
    supervision: &Supervision,
    fixture_dir: Option<&Path>,
) -> (Result<ServerTools, String>, ExitCode) {
    // As a run starts it: as root, as the run's own user.
    let session = match Session::start(fixture_dir, false) {
        Ok(session) => session,
        Err(e) => return (Err(e), ExitCode::Usage),
    };
    let listed = start(&session, profile, supervision).map(|mut server| {
        let tools = ServerTools {
            hello: server.hello().clone(),
            listed: server.listed_tools().to_vec(),
        };
        server.finish();
        tools
    });
    let code = match listed {
        Ok(_) => ExitCode::Ok,
        Err(_) => ExitCode::Unexpected,
    };
    let code = session.end(code, "nothing was listed");
    (listed, code)
}

/// What one call of a server's tool came to.
pub struct ServerCall {
    /// Who answered: the `hello` a run would make of the server.
    pub hello: AdapterHello,
    /// The result as the server sent it (a JSON-RPC error as `{"error":
    /// ...}`), unread: no profile rule was applied.
    pub answer: Value,
    /// What the server wrote to stderr meanwhile, unsanitised.
    pub stderr: String,
}

/// Starts the server of `profile` as [`list`] does, gives it `roots` (as
/// a run gives a case's), calls its tool `tool` with `arguments` as they
/// are, and ends it. A tool the server does not list is refused before
/// it is called (exit 2), naming those it lists; the errors are ready for
/// a terminal, as [`list`]'s are.
pub fn call(
    profile: Loaded,
    supervision: &Supervision,
    fixture_dir: Option<&Path>,
    tool: &str,
    arguments: &Map<String, Value>,
    roots: &[String],
) -> (Result<ServerCall, String>, ExitCode) {
    let session = match Session::start(fixture_dir, false) {
        Ok(session) => session,
        Err(e) => return (Err(e), ExitCode::Usage),
    };
    let mut code = ExitCode::Unexpected;
    let called = start(&session, profile, supervision).and_then(|mut server| {
        if !server.listed_tools().iter().any(|t| t.name == tool) {
            let listed: Vec<String> = (server.listed_tools().iter())
                .map(|t| format!("`{}`", sanitize::one_line(&t.name)))
                .collect();
            server.finish();
            code = ExitCode::Usage;
            return Err(format!(
                "the server lists no tool `{}` (it lists {})",
                sanitize::one_line(tool),
                if listed.is_empty() {
                    "none".to_owned()
                } else {
                    listed.join(", ")
                }
            ));
        }
        let answer = server.call_raw(tool, arguments, roots);
        server.finish();
        let stderr = server.stderr_tail();
        match answer {
            Ok(answer) => {
                code = ExitCode::Ok;
                Ok(ServerCall {
                    hello: server.hello().clone(),
                    answer,
                    stderr,
                })
            }
            Err(failure) => Err(failed(
                "the call got no answer",
                &failure.message,
                &format!("{}{stderr}", failure.stderr),
            )),
        }
    });
    let code = session.end(code, "nothing was called");
    (called, code)
}

/// The server of `profile`, started in `session` as a run starts it, or
/// why not (ready for a terminal).
fn start(
    session: &Session,
    profile: Loaded,
    supervision: &Supervision,
) -> Result<McpServer, String> {
    let config = session.mcp_config(profile, supervision)?;
    McpServer::start(config).map_err(|failure| {
        failed(
            "the server did not start",
            &failure.message,
            &failure.stderr,
        )
    })
}

/// `what: message`, then the server's stderr one indented line per line:
/// the server's text sanitised, so none of it acts on the terminal or
/// passes for toolpath's.
fn failed(what: &str, message: &str, stderr: &str) -> String {
    let mut out = format!("{what}: {}", sanitize::one_line(message));
    if !stderr.trim().is_empty() {
        out.push_str("\n--- server stderr ---\n");
        out.push_str(sanitize::indented(stderr, "  | ").trim_end());
    }
    out
}
