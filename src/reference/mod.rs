//! The reference implementation: what `spec/README.md` means where its prose is unclear.
//!
//! One concept per file:
//! - [`params`]: parameter validation, before any file system access;
//! - [`resolve`]: the shared resolver (lexical path, real path, containment,
//!   classification) and the `resolve` tool's core;
//! - [`search`]: `grep` and `ripgrep`, which share one contract;
//! - [`include`]: the search tools' `include` filter (SEARCH-9);
//! - [`shell`]: the shell tool's directory rules and execution;
//! - [`path_pattern`]: the `glob` tool's pattern over relative paths;
//! - [`glob_tool`]: the `glob` tool (GLOB);
//! - [`ls`]: the `ls` tool (LS);
//! - [`file`]: what the file tools share: an absolute path, and the one
//!   file it names examined and opened (FILE);
//! - [`read_file`], [`write_file`], [`edit`]: the file tools (FILE);
//! - [`walk`]: the recursive walk the search tools share.
//!
//! A tool set, not a harness: it answers one call on the file system it
//! is given and knows nothing of cases, runs or reports. May import `sys`
//! and the suite model (the floors below, ARCHITECTURE.md); never `case` or
//! `report` beside it on floor 2, nor anything above it.

pub mod edit;
pub mod file;
pub mod glob_tool;
pub mod include;
pub mod ls;
pub mod params;
pub mod path_pattern;
pub mod read_file;
pub mod resolve;
pub mod search;
pub mod shell;
pub mod walk;
pub mod write_file;

use serde_json::{Map, Value, json};

use resolve::Target;
use toolpath_suite::protocol::{
    AdapterHello, ErrorCode, Feature, Implementation, Kind, Outcome, PROTOCOL_VERSION, Tool,
    ToolResult, Workspace,
};

/// An error a tool reports: a spec code (ERR-1) and a message for humans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
        }
    }
}

impl From<ToolError> for ToolResult {
    fn from(err: ToolError) -> Self {
        ToolResult::error(err.code, err.message)
    }
}

/// The reference's `hello`: every tool and fixture feature, the parameter
/// schemas the DESC cases read, and an ignore file of its own
/// ([`OWN_IGNORE_FILE`]).
pub fn hello() -> AdapterHello {
    let schemas = Tool::ALL
        .into_iter()
        .map(|tool| (tool.name().to_owned(), schema(tool)))
        .collect();
    AdapterHello {
        protocol: PROTOCOL_VERSION,
        implementation: Implementation {
            name: "toolpath-reference".to_owned(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            language: "rust".to_owned(),
        },
        tools: Tool::ALL.to_vec(),
        features: Feature::DECLARED.to_vec(),
        unobservable: Vec::new(),
        unobservable_by_tool: Default::default(),
        schemas,
        ignore_files: vec![OWN_IGNORE_FILE.to_owned()],
    }
}

/// The ignore file the reference announces as its own. It consults no
/// ignore file at all (FILE-17); it announces one so that the cases of an
/// implementation's own ignore file run against it, as every case must,
/// and show what a conforming answer is.
pub const OWN_IGNORE_FILE: &str = ".toolpathignore";

/// `tool`'s parameters as a JSON Schema object of string properties,
/// from its table in the suite model.
fn schema(tool: Tool) -> Value {
    let table = toolpath_suite::params::of(tool);
    let properties: Map<String, Value> = table
        .iter()
        .map(|param| {
            let description = toolpath_suite::params::description(tool, param);
            (
                param.name.to_owned(),
                json!({"type": "string", "description": description}),
            )
        })
        .collect();
    let required: Vec<&str> = table
        .iter()
        .filter(|p| p.required)
        .map(|p| p.name)
        .collect();
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

/// The parameter names a tool takes (ERR-8): every other key is refused.
pub fn keys(tool: Tool) -> &'static [&'static str] {
    toolpath_suite::params::names(tool)
}

/// Answers one call. `seq` is left 0 for the caller to fill in; `outcome` is
/// always set.
pub fn call(workspace: &Workspace, tool: Tool, params: &Map<String, Value>) -> ToolResult {
    match tool {
        Tool::Resolve => resolve_tool(workspace, params),
        Tool::Grep | Tool::Ripgrep => search::run(workspace, params),
        Tool::Shell => shell::run(workspace, params),
        Tool::Glob => glob_tool::run(workspace, params),
        Tool::Ls => ls::run(workspace, params),
        Tool::ReadFile => read_file::run(workspace, params),
        Tool::WriteFile => write_file::run(workspace, params),
        Tool::Edit => edit::run(workspace, params),
    }
}

/// The `resolve` tool: the shared resolver on its own (RES).
fn resolve_tool(workspace: &Workspace, params: &Map<String, Value>) -> ToolResult {
    let target = params::only_for(params, Tool::Resolve)
        .and_then(|()| params::path_of(params, Tool::Resolve))
        .and_then(|path| resolve::resolve_target(workspace, path.as_deref()));
    let (kind, path, parent) = match target {
        Err(err) => return err.into(),
        Ok(Target::AllWorkspaces) => (Kind::AllWorkspaces, None, None),
        Ok(Target::Directory(path)) => (Kind::Directory, Some(path), None),
        Ok(Target::File { path, parent }) => (Kind::File, Some(path), Some(parent)),
    };
    ToolResult {
        outcome: Some(Outcome::Ok),
        kind: Some(kind),
        path,
        parent,
        ..ToolResult::default()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn descriptions_say_what_is_accepted() {
        let hello = hello();
        for tool in ["grep", "ripgrep", "shell", "glob", "ls"] {
            let props = &hello.schemas[tool]["properties"];
            let description = props["dir_path"]["description"]
                .as_str()
                .unwrap()
                .to_lowercase();
            let words: &[&str] = if tool == "shell" {
                &["relative", "workspace"]
            } else {
                &["file", "directory", "relative"]
            };
            for word in words {
                assert!(description.contains(word), "{tool}: {word}");
            }
            for prop in props.as_object().unwrap().values() {
                let d = prop["description"].as_str().unwrap().to_lowercase();
                assert!(!d.contains("absolute path to the directory"), "{tool}: {d}");
            }
        }
        for tool in ["read_file", "write_file", "edit"] {
            let props = &hello.schemas[tool]["properties"];
            for param in ["file_path", "absolute_path"] {
                let d = props[param]["description"].as_str().unwrap().to_lowercase();
                assert!(d.contains("absolute"), "{tool}.{param}: {d}");
                assert!(!d.contains("absolute path to the directory"), "{tool}: {d}");
            }
            let mut listed: Vec<&str> = props
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let mut known =
                keys(Tool::ALL.into_iter().find(|t| t.name() == tool).unwrap()).to_vec();
            known.sort();
            listed.sort();
            assert_eq!(
                listed, known,
                "{tool}: the schema lists exactly the keys it takes"
            );
        }
        assert_eq!(hello.tools, Tool::ALL);
    }

    #[test]
    fn resolve_tool_results() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path())
            .unwrap()
            .display()
            .to_string();
        std::fs::write(format!("{root}/a.ts"), "x\n").unwrap();
        let ws = Workspace {
            roots: vec![root.clone()],
            target: root.clone(),
        };
        let call = |p: Value| call(&ws, Tool::Resolve, p.as_object().unwrap());
        let r = call(json!({"path": "a.ts"}));
        assert_eq!(
            (r.kind, r.path, r.parent),
            (
                Some(Kind::File),
                Some(format!("{root}/a.ts")),
                Some(root.clone())
            )
        );
        let r = call(json!({}));
        assert_eq!(
            (r.outcome, r.kind, r.path),
            (Some(Outcome::Ok), Some(Kind::AllWorkspaces), None)
        );
        assert_eq!(
            call(json!({"path": 7})).error.unwrap().code,
            ErrorCode::InvalidParams
        );
        assert_eq!(
            call(json!({"path": "a\u{0}"})).error.unwrap().code,
            ErrorCode::InvalidParams
        );
    }
}
