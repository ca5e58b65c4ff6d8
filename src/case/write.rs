//! Writes a [`Case`] in the case file format (`cases/README.md`), so that
//! tools that make cases (`toolpath fuzz`) produce files a human reviews and
//! `toolpath lint` loads like any other.
//!
//! Every string is a double-quoted scalar from [`sanitize::yaml`]: it reads
//! back as exactly the value written (a finding must reproduce), stays on
//! one line, and shows controls, bidi overrides and invisible characters as
//! escapes, so a reviewer sees them and no value can start a key. Call
//! parameters are a flow mapping of such scalars. File content that is not
//! UTF-8 is written as base64. The comment at the top is for people: each
//! of its lines gets the stand-ins of [`sanitize::visible`], so a carriage
//! return in an adapter's answer cannot end the comment and start a key.

use std::fmt::Write as _;

use base64::Engine;
use serde_json::Value;

use toolpath_suite::case::{Action, Case};
use toolpath_suite::protocol::Tool;

use toolpath_suite::sanitize;

fn q(text: &str) -> String {
    sanitize::yaml(text)
}

fn list(items: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let items: Vec<String> = items.into_iter().map(|s| q(s.as_ref())).collect();
    format!("[{}]", items.join(", "))
}

/// A JSON value (call parameters) as YAML flow: mappings and sequences in
/// braces and brackets, every string (keys included) through [`q`], and
/// numbers, booleans and null as JSON writes them, which YAML reads alike.
fn flow(value: &Value) -> String {
    match value {
        Value::String(text) => q(text),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(flow).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Object(map) => {
            let items: Vec<String> = map
                .iter()
                .map(|(key, value)| format!("{}: {}", q(key), flow(value)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        other => other.to_string(),
    }
}

/// An id as a plain scalar when it reads as the case format's usual
/// dotted name (`search.file.target`): lowercase words, digits, `-` and
/// `_`, starting with a letter and holding a dot, which YAML cannot take
/// for a number, a boolean or null. Anything else is quoted like every
/// other string.
fn id(id: &str) -> String {
    let plain = id.starts_with(|c: char| c.is_ascii_lowercase())
        && id.contains('.')
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-' | '_'));
    if plain { id.to_owned() } else { q(id) }
}

fn tool_name(tools: &[Tool]) -> &'static str {
    match tools {
        [one] => one.name(),
        _ => "search",
    }
}

/// The case as file text. `comment` (any number of lines, any text) goes
/// at the top, after the schema line, each line prefixed with `# ` and
/// shown with [`sanitize::visible`]'s stand-ins.
pub fn to_yaml(case: &Case, comment: &str) -> String {
    let mut out = String::from("# yaml-language-server: $schema=../../spec/case.schema.json\n");
    for line in comment.lines() {
        let _ = writeln!(out, "# {}", sanitize::visible(line));
    }
    let _ = writeln!(out, "id: {}", id(&case.id));
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
            let _ = writeln!(out, "  params: {}", flow(&Value::Object(params.clone())));
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
    files(out, "  files", &f.files);
    if !f.generated.is_empty() {
        out.push_str(if f.files.is_empty() { "  files:\n" } else { "" });
        for (path, g) in &f.generated {
            let at: Vec<String> = g
                .at
                .iter()
                .map(|(offset, bytes)| format!("{offset}: {}", q(&String::from_utf8_lossy(bytes))))
                .collect();
            let _ = writeln!(
                out,
                "    {}: {{generate: {{size: {}, fill: {}, at: {{{}}}}}}}",
                q(path.as_str()),
                g.size,
                q(&String::from_utf8_lossy(&g.fill)),
                at.join(", ")
            );
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
    paths(out, "untracked", &f.untracked);
    if !f.own_ignore_files.is_empty() {
        out.push_str("  own_ignore_files:\n");
        for (dir, text) in &f.own_ignore_files {
            let _ = writeln!(out, "    {}: {}", q(dir.as_str()), q(text));
        }
    }
}

/// A map of fixture paths to contents (`fixture.files`, `expect.writes`),
/// each content as text when it is UTF-8, else as base64.
fn files(out: &mut String, name: &str, files: &[(toolpath_suite::case::FixturePath, Vec<u8>)]) {
    if files.is_empty() {
        return;
    }
    let _ = writeln!(out, "{name}:");
    for (path, bytes) in files {
        let content = match std::str::from_utf8(bytes) {
            Ok(text) => q(text),
            Err(_) => format!(
                "{{base64: {}}}",
                base64::engine::general_purpose::STANDARD.encode(bytes)
            ),
        };
        let _ = writeln!(out, "    {}: {content}", q(path.as_str()));
    }
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
    files(out, "  writes", &e.writes);
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
            // A matrix's cell is written as the plain case it is.
            let strip = |c: &Case| Case {
                line: 0,
                matrix: None,
                ..c.clone()
            };
            assert_eq!(strip(&again), strip(case), "{}\n{text}", case.id);
        }
    }

    #[test]
    fn ids_are_plain_only_when_yaml_reads_them_as_strings() {
        assert_eq!(id("search.file.target"), "search.file.target");
        for odd in ["1.5", "true", "null", "a b.c", "x.y: z", "A.b", "a.b\rc: d"] {
            assert_eq!(id(odd), q(odd), "{odd}");
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

    /// Text an adapter or a generator could put in a case (file content,
    /// nested parameters, a link target, an expected message) is written
    /// so that a reviewer sees every character and the case reads back
    /// the same; only content that is not UTF-8 is base64.
    #[test]
    fn hostile_text_is_visible_and_reads_back() {
        let text = "id: t.t\nsummary: \"s\\u202e\\r\"\nspec: [RES-1]\nrequires: [symlinks]\nfixture:\n  roots: [ws]\n  \
            files: {ws/a: \"\\e[2J\\rkey: v\\u200d\\u2028\", ws/z: {base64: /w==}}\n  \
            symlinks: {ws/l: \"b\\u202ec\"}\n\
            call: {tool: grep, params: {pattern: \"\\u0085\", include: \"a\\tb\", case_sensitive: true}}\n\
            expect: {outcome: error, error: {code: invalid_params, message_contains: [\"\\rx: y\"]}}\n";
        let case = parse_case(Path::new("t.yaml"), text).unwrap_or_else(|e| panic!("{e}"));
        let written = to_yaml(&case, "line\rinjected: true");
        assert_eq!(
            toolpath_suite::sanitize::first_hostile(&written),
            None,
            "{written}"
        );
        assert_eq!(written.matches("base64").count(), 1, "{written}");
        let again =
            parse_case(Path::new("t.yaml"), &written).unwrap_or_else(|e| panic!("{e}\n{written}"));
        assert_eq!(
            Case { line: 0, ..again },
            Case { line: 0, ..case },
            "{written}"
        );
    }
}
