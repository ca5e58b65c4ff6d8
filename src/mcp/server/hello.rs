//! The `hello` a server gets in every report: its version, read where
//! its profile says, and its tools with their schemas under the suite's
//! parameter names.

use crate::mcp::profile::{Arguments, ToolMap, VersionSource};
use crate::subject::{AdapterFailure, FailureKind};
use serde_json::{Map, Value};
use toolpath_suite::protocol::{AdapterHello, Implementation, PROTOCOL_VERSION};

use super::*;

impl McpServer {
    /// The implementation's version, from where the profile says (at most
    /// [`MAX_VERSION_BYTES`]: it is printed in every report).
    pub(super) fn version(&self) -> Result<String, AdapterFailure> {
        let cannot = |why: String| {
            failure(
                FailureKind::Start,
                format!("cannot read the server's version: {why}"),
            )
        };
        let version = self.read_version(cannot)?;
        if version.len() > MAX_VERSION_BYTES {
            return Err(cannot(format!(
                "it is {} bytes long, more than {MAX_VERSION_BYTES}",
                version.len()
            )));
        }
        Ok(version)
    }

    /// The version as the profile's source gives it, of any length;
    /// `cannot` says why it could not be read.
    fn read_version(
        &self,
        cannot: impl Fn(String) -> AdapterFailure,
    ) -> Result<String, AdapterFailure> {
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
    pub(super) fn make_hello(&self, version: String) -> AdapterHello {
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
                suite_schema(&info.input_schema, &server.arguments),
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
}

/// A server tool's input schema with its properties (and `required`) under
/// the suite's names, so DESC cases read the description a model sees for
/// each suite parameter.
fn suite_schema(schema: &Value, arguments: &Arguments) -> Value {
    let mut copy = schema.clone();
    let to_suite = |name: &str| -> String { arguments.suite_name_of(name).to_owned() };
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A model reads each suite parameter's description under the suite's
    /// name: properties and `required` renamed, everything else as sent.
    #[test]
    fn a_schema_is_shown_under_the_suite_s_names() {
        let arguments = Arguments {
            rename: [("dir_path".to_owned(), "path".to_owned())].into(),
            ..Arguments::default()
        };
        let schema = json!({
            "type": "object",
            "properties": {"path": {"description": "where"}, "pattern": {"type": "string"}},
            "required": ["path", "pattern"],
        });
        assert_eq!(
            suite_schema(&schema, &arguments),
            json!({
                "type": "object",
                "properties": {"dir_path": {"description": "where"}, "pattern": {"type": "string"}},
                "required": ["dir_path", "pattern"],
            })
        );
        // A schema without properties is left as it is.
        assert_eq!(suite_schema(&json!(true), &arguments), json!(true));
    }
}
