//! An MCP server started as a run starts it (in a run directory of its
//! own, boxed, unprivileged, its `HOME` private), asked for its tools and
//! ended: what `toolpath tools --mcp` shows a server's author, who would
//! otherwise write an MCP client to learn what a profile may map.

use std::path::Path;

use crate::mcp::client::ToolInfo;
use crate::mcp::profile::Loaded;
use crate::mcp::server::McpServer;
use crate::report::ExitCode;
use crate::session::{Session, Supervision};
use crate::subject::Subject;
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
    let listed = session
        .mcp_config(profile, supervision)
        .and_then(|config| {
            McpServer::start(config).map_err(|failure| {
                let mut message = format!(
                    "the server did not start: {}",
                    sanitize::one_line(&failure.message)
                );
                if !failure.stderr.trim().is_empty() {
                    message.push_str("\n--- server stderr ---\n");
                    message.push_str(sanitize::indented(&failure.stderr, "  | ").trim_end());
                }
                message
            })
        })
        .map(|mut server| {
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
