//! Writes a [`Case`] in the case file format (`cases/README.md`), so that
//! tools that make cases (`toolpath fuzz`) produce files a human reviews and
//! `toolpath lint` loads like any other.
//!
//! Every scalar is written as a JSON string, number or flow collection: JSON
//! is valid YAML, and its escapes (`\n`, `\r`, `\u0000`, `\"`) are YAML's
//! double-quoted escapes, so names with spaces, backslashes, braces or
//! non-ASCII survive unchanged without a YAML emitter of our own. File
//! content that is not printable text is written as base64.

use std::fmt::Write as _;

use base64::Engine;
use serde_json::Value;

use toolpath_suite::case::{Action, Case};
use toolpath_suite::protocol::Tool;

fn q(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialise")
}

fn list(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let items: Vec<String> = items.into_iter().map(|s| q(s.as_ref())).collect();
    format!("[{}]", items.join(", "))
}

/// Content that reads well as a YAML string: UTF-8 with no control
/// characters other than newline and tab.
fn printable(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes)
        .ok()
        .filter(|s| !s.chars().any(|c| c.is_control() && c != '\n' && c != '\t'))
}

fn tool_name(tools: &[Tool]) -> &'static str {
    match tools {
        [one] => one.name(),
        _ => "search",
    }
}

/// The case as file text. `comment` (any number of lines) goes at the top,
/// after the schema line, each line prefixed with `# `.
pub fn to_yaml(case: &Case, comment: &str) -> String {
    let mut out = String::from("# yaml-language-server: $schema=../../spec/case.schema.json\n");
    for line in comment.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "id: {}", case.id);
    let _ = writeln!(out, "summary: {}", q(&case.summary));
    let _ = writeln!(out, "spec: {}", list(&case.spec));
    if !case.tags.is_empty() {
        let _ = writeln!(out, "tags: {}", list(&case.tags));
    }
    if !case.requires.is_empty() {
        let _ = writeln!(
            out,
            "requires: {}",
            list(case.requires.iter().map(|f| f.name()))
        );
    }
    fixture(&mut out, &case.fixture);
    out.push_str("call:\n");
    let _ = writeln!(out, "  tool: {}", tool_name(&case.tools));
    match &case.action {
        Action::Invoke(params) => {
            let params = Value::Object(params.clone());
            let _ = writeln!(out, "  params: {params}");
        }
        Action::Describe(param) => {
            let _ = writeln!(out, "  describe: {}", q(param));
        }
    }
    expect(&mut out, &case.expect);
    out
}

fn fixture(out: &mut String, f: &toolpath_suite::case::Fixture) {
    out.push_str("fixture:\n");
    let _ = writeln!(out, "  roots: {}", list(f.roots.iter().map(|r| r.as_str())));
    if Some(&f.target) != f.roots.first() {
        let _ = writeln!(out, "  target: {}", q(f.target.as_str()));
    }
    if !f.files.is_empty() {
        out.push_str("  files:\n");
        for (path, bytes) in &f.files {
            let content = match printable(bytes) {
                Some(text) => q(text),
                None => format!(
                    "{{base64: {}}}",
                    base64::engine::general_purpose::STANDARD.encode(bytes)
                ),
            };
            let _ = writeln!(out, "    {}: {content}", q(path.as_str()));
        }
    }
    let paths = |out: &mut String, name: &str, list_of: &[toolpath_suite::case::FixturePath]| {
        if !list_of.is_empty() {
            let _ = writeln!(
                out,
                "  {name}: {}",
                list(list_of.iter().map(|p| p.as_str()))
            );
        }
    };
    paths(out, "dirs", &f.dirs);
    if !f.symlinks.is_empty() {
        out.push_str("  symlinks:\n");
        for (link, target) in &f.symlinks {
            let _ = writeln!(out, "    {}: {}", q(link.as_str()), q(target));
        }
    }
    paths(out, "fifos", &f.fifos);
    paths(out, "sockets", &f.sockets);
    paths(out, "devices", &f.devices);
    if !f.modes.is_empty() {
        out.push_str("  modes:\n");
        for (path, mode) in &f.modes {
            let _ = writeln!(out, "    {}: \"{mode:04o}\"", q(path.as_str()));
        }
    }
    paths(out, "git", &f.git);
}

fn expect(out: &mut String, e: &toolpath_suite::case::Expect) {
    out.push_str("expect:\n");
    let outcome = match e.outcome {
        toolpath_suite::case::raw::ExpectedOutcome::Ok => "ok",
        toolpath_suite::case::raw::ExpectedOutcome::Error => "error",
    };
    let _ = writeln!(out, "  outcome: {outcome}");
    if let Some(kind) = e.kind {
        let _ = writeln!(out, "  kind: {}", kind.name());
    }
    for (name, value) in [("path", &e.path), ("parent", &e.parent), ("cwd", &e.cwd)] {
        if let Some(v) = value {
            let _ = writeln!(out, "  {name}: {}", q(v));
        }
    }
    if let Some(matches) = &e.matches {
        let items = matches.iter().map(|m| format!("{}:{}", m.path, m.line));
        let _ = writeln!(out, "  matches: {}", list(items));
    }
    if let Some(notes) = &e.notes {
        let _ = writeln!(out, "  notes: {}", list(notes));
    }
    if let Some(files) = &e.files {
        let _ = writeln!(out, "  files: {}", list(files));
    }
    if let Some(entries) = &e.entries {
        let items: Vec<String> = entries
            .iter()
            .map(|(path, t)| format!("{}: {}", q(path), t.name()))
            .collect();
        let _ = writeln!(out, "  entries: {{{}}}", items.join(", "));
    }
    if let Some(error) = &e.error {
        let _ = write!(out, "  error: {{code: {}", error.code.name());
        if !error.message_contains.is_empty() {
            let _ = write!(out, ", message_contains: {}", list(&error.message_contains));
        }
        out.push_str("}\n");
    }
    for (name, value) in [("mentions", &e.mentions), ("excludes", &e.excludes)] {
        if let Some(v) = value {
            let _ = writeln!(out, "  {name}: {}", list(v));
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use toolpath_suite::case::validate::parse_case;

    /// Every case of the suite survives a round trip through the writer,
    /// so the writer covers the whole format.
    #[test]
    fn every_suite_case_round_trips() {
        let (cases, errors) = crate::case::embedded::load_embedded();
        assert!(errors.is_empty());
        for case in &cases {
            let text = to_yaml(case, "a comment\nover two lines");
            let again = parse_case(&case.file, &text)
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", case.id));
            assert_eq!(again.line, 4, "{}", case.id);
            let strip = |c: &Case| Case {
                line: 0,
                ..c.clone()
            };
            assert_eq!(strip(&again), strip(case), "{}\n{text}", case.id);
        }
    }

    #[test]
    fn odd_names_and_bytes_survive() {
        let text = "id: t.t\nsummary: s\nspec: [RES-1]\nfixture:\n  roots: [ws]\n  files: {\"ws/a\\\\b \\u00e9\": \"x\\r\\n\", ws/z: {base64: AAEC}}\ncall: {tool: resolve, params: {path: \"a\\u0000b\"}}\nexpect: {outcome: ok}\n";
        let case = parse_case(Path::new("t.yaml"), text).unwrap();
        let again = parse_case(Path::new("t.yaml"), &to_yaml(&case, "")).unwrap();
        assert_eq!(again.fixture, case.fixture);
        assert_eq!(again.action, case.action);
    }
}
