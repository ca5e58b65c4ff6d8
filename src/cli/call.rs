//! `toolpath call --mcp PROFILE TOOL [JSON]`: starts the profile's
//! server as a run would, calls one of its tools with the arguments as
//! given (a JSON object, sent untouched: no rename, template or constant of
//! the profile applies), and prints the answer as the server sent it, then
//! the text the profile's result rules would read from it. A profile's
//! result rules are written from such answers; without this command a
//! server's author had to write an MCP client first (issue 44).

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde_json::{Map, Value};

use crate::cli::{load_profile, print_out, usage};
use crate::mcp::wire::CallToolResult;
use crate::report::ExitCode;
use crate::session::Supervision;
use crate::session::tools::ServerCall;
use toolpath_suite::sanitize;

/// `toolpath call`.
#[derive(Debug, Clone, Args)]
pub struct CallRequest {
    /// The MCP server's profile (YAML; see docs/mcp.md).
    #[arg(long, value_name = "PROFILE")]
    pub mcp: PathBuf,
    /// The server's tool, by the name it lists (`toolpath tools --mcp`
    /// shows them), not the suite's.
    #[arg(value_name = "TOOL")]
    pub tool: String,
    /// Its arguments: a JSON object, sent as it is.
    #[arg(value_name = "JSON", default_value = "{}")]
    pub arguments: String,
    /// A directory the server is given as its allowed directory, as a run
    /// gives a case's roots (repeatable; default: an empty directory of
    /// its own). As root the server runs as a user of its own, which must
    /// be able to read it.
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
    /// How long the server may take to start, and to answer the call, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub timeout_ms: u64,
    /// Where the run directory goes (default: the system's temporary directory).
    #[arg(long, value_name = "DIR")]
    pub fixture_dir: Option<PathBuf>,
}

/// `toolpath call`: 0 the server answered (an error answer included), 1 it
/// did not start or answer, 2 bad usage (an invalid profile, arguments
/// that are no JSON object, a root that is no directory, a tool the
/// server does not list).
pub fn call(request: CallRequest) -> ExitCode {
    let arguments = match serde_json::from_str::<Value>(&request.arguments) {
        Ok(Value::Object(arguments)) => arguments,
        Ok(_) => return usage("the arguments must be a JSON object (`{\"path\": \"/tmp\"}`)"),
        Err(e) => return usage(format!("the arguments are not JSON: {e}")),
    };
    let mut roots = Vec::new();
    for root in &request.roots {
        match std::fs::canonicalize(root) {
            Ok(real) if real.is_dir() => roots.push(real.display().to_string()),
            Ok(_) => return usage(format!("--root {}: not a directory", root.display())),
            Err(e) => return usage(format!("--root {}: {e}", root.display())),
        }
    }
    let loaded = match load_profile(&request.mcp) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let timeout = Duration::from_millis(request.timeout_ms);
    let supervision = Supervision {
        call_timeout: timeout,
        hello_timeout: timeout,
        max_restarts: 0,
        hang_timeout: crate::subject::fifos::DEFAULT_HANG_TIMEOUT,
    };
    let (called, code) = crate::session::tools::call(
        loaded,
        &supervision,
        request.fixture_dir.as_deref(),
        &request.tool,
        &arguments,
        &roots,
    );
    match called {
        Ok(answer) => {
            let _ = print_out(&describe(&request.tool, &arguments, &answer));
            if !answer.stderr.trim().is_empty() {
                eprint!(
                    "--- server stderr ---\n{}",
                    sanitize::indented(&answer.stderr, "  | ")
                );
            }
        }
        Err(e) => eprintln!("toolpath: {e}"),
    }
    code
}

/// The answer as sent (pretty JSON), then the text the rules read. All of
/// it is the server's text, shown with stand-ins for what would act on a
/// terminal (escapes, bidi controls): JSON escapes only the C0 controls.
fn describe(tool: &str, arguments: &Map<String, Value>, call: &ServerCall) -> String {
    let imp = &call.hello.implementation;
    let sent = Value::Object(arguments.clone());
    let mut out = format!(
        "{} {}: tools/call {} {}\n",
        sanitize::one_line(&imp.name),
        sanitize::one_line(&imp.version),
        sanitize::one_line(tool),
        sanitize::one_line(&sent.to_string()),
    );
    let pretty = serde_json::to_string_pretty(&call.answer).expect("JSON serialises");
    out.push_str(&sanitize::visible(&pretty));
    out.push('\n');
    if call.answer.get("error").is_some() {
        out.push_str("A JSON-RPC error: its message is read as an error answer's text.\n");
        return out;
    }
    match serde_json::from_value::<CallToolResult>(call.answer.clone()) {
        Ok(result) => {
            let text = result.text();
            let flagged = if result.is_error() { ", flagged isError" } else { "" };
            if text.is_empty() {
                out.push_str(&format!(
                    "No text for the result rules to read{flagged} (`structured: POINTER` reads structuredContent).\n"
                ));
            } else {
                out.push_str(&format!(
                    "The text the result rules read, line by line{flagged}:\n"
                ));
                out.push_str(&sanitize::indented(&text, "  | "));
            }
        }
        Err(e) => out.push_str(&format!(
            "Not a tools/call result as MCP shapes it ({}): a run fails such an answer as a protocol_error.\n",
            sanitize::one_line(&e.to_string())
        )),
    }
    out
}
