//! `toolpath tools --mcp PROFILE`: starts the profile's server as a run
//! would, prints every tool it lists with its parameters (`*` required)
//! and the suite tool the profile maps to each, then what the profile maps
//! to a tool the server does not list and what it says has none. A server
//! author writes a profile's `tools:` from this instead of writing an MCP
//! client first.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde_json::Value;

use crate::cli::{load_profile, print_out};
use crate::mcp::client::ToolInfo;
use crate::mcp::profile::{Loaded, ToolMap};
use crate::report::ExitCode;
use crate::session::Supervision;
use crate::session::tools::ServerTools;
use toolpath_suite::sanitize;

/// `toolpath tools`.
#[derive(Debug, Clone, Args)]
pub struct ToolsRequest {
    /// The MCP server's profile (YAML; see docs/mcp.md).
    #[arg(long, value_name = "PROFILE")]
    pub mcp: PathBuf,
    /// How long the server may take to start and list its tools, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 30_000)]
    pub hello_timeout_ms: u64,
    /// Where the run directory goes (default: the system's temporary directory).
    #[arg(long, value_name = "DIR")]
    pub fixture_dir: Option<PathBuf>,
}

/// `toolpath tools --mcp PROFILE`: 0 listed, 1 the server did not start or
/// list, 2 bad usage (an invalid profile).
pub fn tools(request: ToolsRequest) -> ExitCode {
    let loaded = match load_profile(&request.mcp) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let supervision = Supervision {
        call_timeout: Duration::from_millis(request.hello_timeout_ms),
        hello_timeout: Duration::from_millis(request.hello_timeout_ms),
        max_restarts: 0,
        hang_timeout: crate::subject::fifos::DEFAULT_HANG_TIMEOUT,
    };
    let (listed, code) =
        crate::session::tools::list(loaded.clone(), &supervision, request.fixture_dir.as_deref());
    match listed {
        Ok(server) => {
            let _ = print_out(&describe(&loaded, &server));
        }
        Err(e) => eprintln!("toolpath: {e}"),
    }
    code
}

/// The listing: the server's tools, then the profile's mapping.
fn describe(loaded: &Loaded, server: &ServerTools) -> String {
    let imp = &server.hello.implementation;
    let mut out = format!(
        "{} {} ({}): {} tool{} listed\n",
        sanitize::one_line(&imp.name),
        sanitize::one_line(&imp.version),
        sanitize::one_line(&imp.language),
        server.listed.len(),
        if server.listed.len() == 1 { "" } else { "s" }
    );
    let profile = &loaded.profile;
    for tool in &server.listed {
        let mapped: Vec<&str> = profile
            .tools
            .iter()
            .filter(|(_, map)| matches!(map, ToolMap::Tool(s) if s.tool == tool.name))
            .map(|(suite, _)| suite.name())
            .collect();
        let to = match mapped.is_empty() {
            true => "not mapped".to_owned(),
            false => format!("as {}", mapped.join(", ")),
        };
        out.push_str(&format!(
            "  {}({})  {to}\n",
            sanitize::one_line(&tool.name),
            parameters(tool)
        ));
    }
    let mut missing = Vec::new();
    let mut none = Vec::new();
    for (suite, map) in &profile.tools {
        match map {
            ToolMap::Tool(s) if !server.listed.iter().any(|t| t.name == s.tool) => {
                missing.push(format!(
                    "  {} -> {}: the server lists no such tool\n",
                    suite.name(),
                    sanitize::one_line(&s.tool)
                ))
            }
            ToolMap::Tool(_) => {}
            ToolMap::None(reason) => none.push(format!(
                "  {}: {}\n",
                suite.name(),
                sanitize::one_line(reason)
            )),
        }
    }
    if !missing.is_empty() {
        out.push_str("The profile maps to tools the server does not list:\n");
        out.extend(missing);
    }
    if !none.is_empty() {
        out.push_str("The profile says no tool fits:\n");
        out.extend(none);
    }
    out
}

/// `name*: type, ...` from a tool's input schema (`*` required, in the
/// schema's `required` order first, then the rest by name).
fn parameters(tool: &ToolInfo) -> String {
    let Some(properties) = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
    else {
        return String::new();
    };
    let required: Vec<&str> = tool
        .input_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut names: Vec<&String> = properties.keys().collect();
    names.sort_by_key(|name| {
        (
            required
                .iter()
                .position(|r| r == name)
                .unwrap_or(usize::MAX),
            name.as_str(),
        )
    });
    names
        .into_iter()
        .map(|name| {
            let kind = match &properties[name]["type"] {
                Value::String(kind) => kind.clone(),
                Value::Array(kinds) => kinds
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join("|"),
                _ => "any".to_owned(),
            };
            let star = if required.contains(&name.as_str()) {
                "*"
            } else {
                ""
            };
            format!(
                "{}{star}: {}",
                sanitize::one_line(name),
                sanitize::one_line(&kind)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}
