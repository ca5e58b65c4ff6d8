//! Translation between the suite's calls and a server's tools, as a
//! profile says: the suite's arguments renamed (swaps included), constants
//! and defaults added, unknown keys passed through; the server's text read
//! back into a [`ToolResult`] by the profile's line patterns.
//!
//! Nothing here decides what a tool *should* have done; it reads what the
//! server said. What the profile had to compose rather than read (a kind
//! assumed from success, a path built from the request, a code only the
//! default rule gave) is listed in the result's `derived`, so it is judged
//! as not observable and can never make a case pass.

use serde_json::{Map, Value};

use crate::mcp::profile::{Errors, KindRule, MatchesRule, PathRule, ResultMap, ServerTool};
use crate::reference::resolve::{lexical_parent, lexical_resolve};
use toolpath_suite::protocol::{
    Entry, EntryType, ErrorBody, ErrorCode, Field, Kind, Match, Outcome, Tool, ToolResult,
};

/// The server tool's arguments for the suite's `params`.
pub fn arguments(map: &ServerTool, params: &Map<String, Value>) -> Map<String, Value> {
    if let Some(template) = &map.arguments.template {
        // Defaults are the suite's parameters a case left out, so they go
        // in before the template places them.
        let mut given = params.clone();
        for (suite_name, value) in &map.arguments.default {
            given
                .entry(suite_name.clone())
                .or_insert_with(|| value.clone());
        }
        let mut out = template.fill(&given);
        for (key, value) in &map.arguments.constant {
            out.insert(key.clone(), value.clone());
        }
        return out;
    }
    let rename = &map.arguments.rename;
    let mut out = Map::new();
    let mut renamed = Vec::new();
    for (key, value) in params {
        match rename.get(key) {
            Some(to) => renamed.push((key, to, value)),
            None => {
                out.insert(key.clone(), value.clone());
            }
        }
    }
    // All renames at once, after the untouched keys: a swap never reads a
    // value another rename wrote. A value landing on a name already filled
    // with something (the suite's `dir_path` and its alias `path` both
    // given) keeps its suite name, so the server sees a key it does not
    // declare, as it would from a model that sent both; an empty one
    // there is dropped, since an empty alias counts as absent (SEARCH-1).
    for (suite_name, to, value) in renamed {
        let filled = out.get(to).is_some_and(|v| !is_empty(v));
        if filled {
            if !is_empty(value) {
                out.insert(suite_name.clone(), value.clone());
            }
        } else if !(out.contains_key(to) && is_empty(value)) {
            out.insert(to.clone(), value.clone());
        }
    }
    for (suite_name, value) in &map.arguments.default {
        if !params.contains_key(suite_name) {
            let to = rename.get(suite_name).unwrap_or(suite_name);
            out.entry(to.clone()).or_insert_with(|| value.clone());
        }
    }
    for (key, value) in &map.arguments.constant {
        out.insert(key.clone(), value.clone());
    }
    out
}

fn is_empty(value: &Value) -> bool {
    value.is_null() || value.as_str() == Some("")
}

/// The suite's path parameter of `tool` in `params`, if a path was given
/// (RES-1: absent, `null` and `""` give none).
pub fn requested_path(tool: Tool, params: &Map<String, Value>) -> Option<&str> {
    toolpath_suite::params::path_names(tool)
        .filter_map(|n| params.get(n)?.as_str())
        .find(|p| !p.is_empty())
}

/// What a call's answer is read against: the tool, the directory the
/// server resolves relative paths against, and the path the call asked for.
pub struct Context<'a> {
    pub tool: Tool,
    pub map: &'a ServerTool,
    pub errors: &'a Errors,
    /// The profile's place of this tool's error rules, for `rule`.
    pub place: String,
    /// Where the server resolves relative paths (its cwd or first root).
    pub base: &'a str,
    /// The lexical absolute path the call asked for; the base when none.
    pub requested: String,
}

impl<'a> Context<'a> {
    pub fn new(
        tool: Tool,
        map: &'a ServerTool,
        errors: &'a Errors,
        base: &'a str,
        params: &Map<String, Value>,
    ) -> Context<'a> {
        let requested = match requested_path(tool, params) {
            Some(path) => lexical_resolve(base, path),
            None => base.to_owned(),
        };
        Context {
            tool,
            map,
            errors,
            place: format!("tools.{tool}"),
            base,
            requested,
        }
    }
}

/// The text blocks of a `tools/call` result, joined with newlines: what
/// the model is shown (OUT-5), and what the profile's rules read.
pub fn text_of(result: &Value) -> String {
    result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

/// An answer from `text` with the server's `is_error` flag.
pub fn read(ctx: &Context, text: &str, is_error: bool) -> ToolResult {
    let result = &ctx.map.result;
    let first = text.lines().next().unwrap_or_default();
    let empty = result
        .empty
        .as_ref()
        .is_some_and(|p| p.is_match(text.trim()));
    let error_text = !is_error
        && ctx
            .map
            .errors
            .texts
            .iter()
            .chain(&ctx.errors.texts)
            .any(|p| p.is_match(first));
    if (is_error && !empty) || error_text {
        return error(ctx, text);
    }
    let mut answer = ToolResult {
        outcome: Some(Outcome::Ok),
        model_text: Some(text.to_owned()),
        ..ToolResult::default()
    };
    let lines: Vec<&str> = if empty {
        Vec::new()
    } else {
        text.lines().collect()
    };
    read_kind(&mut answer, result, &lines);
    read_path(&mut answer, ctx, &lines);
    if let Some(rule) = &result.entries {
        let mut entries = Vec::new();
        let mut typed = true;
        for line in &lines {
            let Some(c) = rule.line.0.captures(line) else {
                continue;
            };
            let path = match (c.name("path"), c.name("name")) {
                (Some(p), _) => absolute(&ctx.requested, p.as_str()),
                (None, Some(n)) => {
                    format!("{}/{}", ctx.requested.trim_end_matches('/'), n.as_str())
                }
                (None, None) => continue,
            };
            let entry_type = match c.name("type") {
                Some(t) => rule
                    .types
                    .get(t.as_str())
                    .copied()
                    .unwrap_or(EntryType::Other),
                None => {
                    typed = false;
                    EntryType::File
                }
            };
            entries.push(Entry { path, entry_type });
        }
        if !typed {
            answer.derived.push(Field::Entries.name().into());
        }
        answer.entries = Some(entries);
    }
    if let Some(files) = &result.files {
        let found = lines
            .iter()
            .filter_map(|l| files.0.captures(l))
            .filter_map(|c| Some(absolute(&ctx.requested, c.name("path")?.as_str())))
            .collect();
        answer.files = Some(found);
    }
    if let Some(rule) = &result.matches {
        answer.matches = Some(read_matches(rule, ctx, &lines));
        // The suite's only note (SEARCH-6) has no counterpart in a
        // server's text: never observed.
        answer.notes = Some(Vec::new());
        answer.derived.push(Field::Notes.name().into());
    }
    if result.content.is_some() {
        // The whole text, exactly: a server that rewrites line endings,
        // numbers lines or adds a header fails FILE-5 here.
        answer.content = Some(text.to_owned());
        // FILE-5's note `binary` has no counterpart in a server's text:
        // never observed.
        answer.notes = Some(Vec::new());
        answer.derived.push(Field::Notes.name().into());
    }
    if result.output.is_some() {
        answer.output = Some(text.to_owned());
        answer.cwd = Some(ctx.requested.clone());
        answer.derived.push(Field::Cwd.name().into());
    }
    answer
}

fn read_kind(answer: &mut ToolResult, result: &ResultMap, lines: &[&str]) {
    match &result.kind {
        Some(KindRule::Always(always)) => {
            answer.kind = Some(*always);
            answer.derived.push(Field::Kind.name().into());
        }
        Some(KindRule::Lines(rules)) => {
            answer.kind = rules
                .iter()
                .find(|r| lines.iter().any(|l| r.line.is_match(l)))
                .map(|r| r.kind);
        }
        None => {}
    }
}

fn read_path(answer: &mut ToolResult, ctx: &Context, lines: &[&str]) {
    let (path, composed) = match &ctx.map.result.path {
        Some(PathRule::Request) => (Some(ctx.requested.clone()), true),
        Some(PathRule::Line(line)) => (
            lines
                .iter()
                .find_map(|l| line.0.captures(l)?.name("path").map(|p| p.as_str()))
                .map(|p| absolute(ctx.base, p)),
            false,
        ),
        None => (None, false),
    };
    if answer.kind == Some(Kind::AllWorkspaces) {
        return;
    }
    if let Some(path) = path {
        if answer.kind == Some(Kind::File) {
            answer.parent = Some(lexical_parent(&path));
            if composed {
                answer.derived.push(Field::Parent.name().into());
            }
        }
        answer.path = Some(path);
        if composed {
            answer.derived.push(Field::Path.name().into());
        }
    }
}

/// Matches on one line each, or under the file line before them.
fn read_matches(rule: &MatchesRule, ctx: &Context, lines: &[&str]) -> Vec<Match> {
    let mut matches = Vec::new();
    let mut file: Option<String> = None;
    for line in lines {
        if let Some(f) = &rule.file
            && let Some(c) = f.0.captures(line)
            && let Some(p) = c.name("path")
        {
            file = Some(absolute(&ctx.requested, p.as_str()));
            continue;
        }
        let Some(c) = rule.line.0.captures(line) else {
            continue;
        };
        let path = match c.name("path") {
            Some(p) => absolute(&ctx.requested, p.as_str()),
            None => match &file {
                Some(f) => f.clone(),
                None => continue,
            },
        };
        let Some(number) = c.name("line").and_then(|n| n.as_str().parse().ok()) else {
            continue;
        };
        let text = c.name("text").map_or("", |t| t.as_str()).to_owned();
        matches.push(Match {
            path,
            line: number,
            text,
        });
    }
    matches
}

/// `path` made absolute: as it is when absolute, else joined onto `dir`
/// (a file the server names relative to the directory it searched).
fn absolute(dir: &str, path: &str) -> String {
    if path.starts_with('/') {
        path.to_owned()
    } else if path.is_empty() || path == "." {
        dir.to_owned()
    } else {
        format!("{}/{}", dir.trim_end_matches('/'), path)
    }
}

/// An error answer for `text`, its code from the first rule that matches
/// (the tool's, then the profile's); a code only the default gave is
/// derived.
pub fn error(ctx: &Context, text: &str) -> ToolResult {
    let message = if text.trim().is_empty() {
        "(the server gave no message)".to_owned()
    } else {
        text.to_owned()
    };
    let (code, rule, derived) = classify(ctx, &message);
    ToolResult {
        outcome: Some(Outcome::Error),
        error: Some(ErrorBody {
            code,
            message,
            rule: Some(rule),
        }),
        model_text: Some(text.to_owned()),
        derived: if derived {
            vec![Field::ErrorCode.name().into()]
        } else {
            Vec::new()
        },
        ..ToolResult::default()
    }
}

/// The code for an error text, the rule that gave it (as the profile
/// places it), and whether only a default gave it.
fn classify(ctx: &Context, text: &str) -> (ErrorCode, String, bool) {
    let lists = [
        (&ctx.map.errors, format!("{}.errors", ctx.place)),
        (ctx.errors, "errors".to_owned()),
    ];
    for (errors, place) in &lists {
        for (i, rule) in errors.codes.iter().enumerate() {
            let (hit, what) = match (&rule.message, rule.errno) {
                (Some(message), _) => (
                    message.is_match(text),
                    format!("message /{}/", message.as_str()),
                ),
                (None, Some(errno)) => {
                    let name: &'static str = errno.into();
                    (errno.named_in(text), format!("errno {name}"))
                }
                (None, None) => unreachable!("checked at load: one of the two"),
            };
            if hit {
                return (rule.code, format!("{place}.codes[{i}]: {what}"), false);
            }
        }
    }
    for (errors, place) in &lists {
        if let Some(code) = errors.default {
            return (code, format!("{place}.default"), true);
        }
    }
    (
        ErrorCode::InvalidParams,
        "no rule matched (toolpath's default)".into(),
        true,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::profile::{Loaded, Profile, ToolMap};
    use serde_json::json;

    const PROFILE: &str = r#"
profile: 1
implementation: {name: fake, language: python, version: {text: "1"}}
server: {command: [x]}
roots: {via: mcp}
relative_paths: roots
errors:
  texts: ['^\[NOT_FOUND\]']
  codes:
    - {message: 'outside allowed', code: outside_workspace}
    - {errno: ENOENT, code: not_found}
  default: invalid_params
tools:
  resolve:
    tool: info
    arguments: {rename: {path: target}}
    result:
      kind: {lines: [{line: '^isDirectory: true$', kind: directory}, {line: '^isFile: true$', kind: file}]}
      path: request
  ls:
    tool: list
    arguments: {rename: {dir_path: path}, constant: {depth: 1}}
    result:
      kind: {always: directory}
      entries: {line: '^\[(?P<type>FILE|DIR)\] (?P<name>.*)$', types: {FILE: file, DIR: directory}}
  grep:
    tool: search
    arguments:
      rename: {pattern: query, include: pattern, dir_path: path}
      default: {include: "*"}
      constant: {is_regex: true}
    errors:
      codes: [{message: '^bad regex', code: invalid_params}]
    result:
      empty: '^No matches found$'
      matches: {file: '^(?P<path>/.*)$', line: '^  (?P<line>\d+):\d+: (?P<text>.*)$'}
  glob:
    tool: find
    result:
      files: '^(?P<path>.+)$'
      empty: '^No matches found$'
  read_file:
    tool: read_text_file
    arguments: {rename: {file_path: path, absolute_path: path}}
    result: {kind: {always: file}, path: request, content: text}
  edit:
    tool: edit_file
    arguments:
      template: {path: "{file_path|absolute_path}", edits: [{oldText: "{old_string}", newText: "{new_string}"}]}
      default: {new_string: ""}
      constant: {dryRun: false}
    result:
      kind: {always: file}
      path: {line: '^Index: (?P<path>.*)$'}
  ripgrep: {none: "grep stands for it"}
  shell: {none: "no commands"}
  write_file: {none: "no writes"}
"#;

    fn profile() -> Profile {
        Loaded::parse(std::path::Path::new("p.yaml"), PROFILE).unwrap()
    }

    fn tool(p: &Profile, t: Tool) -> &ServerTool {
        match &p.tools[&t] {
            ToolMap::Tool(s) => s,
            ToolMap::None(_) => panic!("mapped"),
        }
    }

    fn params(v: Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn renames_swap_defaults_fill_only_what_is_absent_and_unknown_keys_pass() {
        let p = profile();
        let grep = tool(&p, Tool::Grep);
        let args = arguments(
            grep,
            &params(json!({"pattern": "x", "include": "*.ts", "dir_path": "a", "bogus": 1})),
        );
        assert_eq!(
            Value::Object(args),
            json!({"query": "x", "pattern": "*.ts", "path": "a", "bogus": 1, "is_regex": true})
        );
        let args = arguments(grep, &params(json!({"pattern": "x"})));
        assert_eq!(args["pattern"], "*", "the default, for an absent include");
        for kept in [json!(null), json!("")] {
            let args = arguments(
                grep,
                &params(json!({"pattern": "x", "include": kept.clone()})),
            );
            assert_eq!(args["pattern"], kept, "never replaces what the case sent");
        }
        let args = arguments(
            tool(&p, Tool::Ls),
            &params(json!({"dir_path": "a", "path": "b"})),
        );
        assert_eq!(
            Value::Object(args),
            json!({"path": "b", "dir_path": "a", "depth": 1}),
            "both aliases given: the second keeps its suite name"
        );
        let args = arguments(
            tool(&p, Tool::Ls),
            &params(json!({"dir_path": "", "path": "b"})),
        );
        assert_eq!(Value::Object(args), json!({"path": "b", "depth": 1}));
    }

    #[test]
    fn a_template_shapes_the_arguments_with_defaults_before_and_constants_after() {
        let p = profile();
        let edit = tool(&p, Tool::Edit);
        let args = arguments(
            edit,
            &params(json!({"file_path": "/w/ws/a.txt", "old_string": "a\r\n", "dryRun": true})),
        );
        assert_eq!(
            Value::Object(args),
            json!({
                "path": "/w/ws/a.txt",
                "edits": [{"oldText": "a\r\n", "newText": ""}],
                "dryRun": false,
            }),
            "the default fills the absent new_string; the constant wins over a sent key"
        );
        let args = arguments(
            edit,
            &params(json!({"absolute_path": "/w/ws/a.txt", "old_string": "a", "new_string": null})),
        );
        assert_eq!(args["path"], "/w/ws/a.txt", "the alias");
        assert_eq!(
            args["edits"],
            json!([{"oldText": "a", "newText": null}]),
            "a null the case sent is kept, never defaulted"
        );
    }

    #[test]
    fn content_is_the_whole_text_exactly_and_notes_are_composed() {
        let p = profile();
        let c = ctx(
            &p,
            Tool::ReadFile,
            &params(json!({"file_path": "/w/ws/a.txt"})),
        );
        let text = "one\r\ntwo\tthree é\n\nlast";
        let r = read(&c, text, false);
        assert_eq!(r.content.as_deref(), Some(text));
        assert_eq!(r.notes, Some(vec![]));
        assert_eq!(r.kind, Some(Kind::File));
        assert_eq!(r.derived, ["kind", "parent", "path", "notes"]);
        let r = read(
            &c,
            "ENOENT: no such file or directory, open '/w/ws/a.txt'",
            true,
        );
        assert_eq!(r.content, None, "an error has no content");
        assert_eq!(r.error.unwrap().code, ErrorCode::NotFound);
        let edit = ctx(&p, Tool::Edit, &params(json!({"file_path": "/w/ws/a.txt"})));
        let r = read(&edit, "```diff\nIndex: /w/real/a.txt\n===\n", false);
        assert_eq!(
            r.path.as_deref(),
            Some("/w/real/a.txt"),
            "read, not composed"
        );
        assert_eq!(r.content, None, "only a content rule gives content");
        assert_eq!(r.derived, ["kind"]);
    }

    fn ctx<'a>(p: &'a Profile, t: Tool, params: &Map<String, Value>) -> Context<'a> {
        Context::new(t, tool(p, t), &p.errors, "/w/ws", params)
    }

    #[test]
    fn kinds_are_read_or_assumed_and_composed_fields_are_derived() {
        let p = profile();
        let c = ctx(&p, Tool::Resolve, &params(json!({"path": "src/../a.ts"})));
        let r = read(&c, "size: 1\nisDirectory: false\nisFile: true", false);
        assert_eq!(r.kind, Some(Kind::File));
        assert_eq!(r.path.as_deref(), Some("/w/ws/a.ts"));
        assert_eq!(r.parent.as_deref(), Some("/w/ws"));
        assert_eq!(r.derived, ["parent", "path"]);
        assert_eq!(
            r.model_text.as_deref(),
            Some("size: 1\nisDirectory: false\nisFile: true")
        );
        let c = ctx(&p, Tool::Ls, &params(json!({"dir_path": "/w/ws/src"})));
        let r = read(&c, "[FILE] a.ts\n[DIR] sub\n[LINK] odd", false);
        assert_eq!(r.kind, Some(Kind::Directory));
        assert_eq!(r.derived, ["kind"]);
        let entries: Vec<_> = r
            .entries
            .unwrap()
            .into_iter()
            .map(|e| (e.path, e.entry_type))
            .collect();
        assert_eq!(
            entries,
            [
                ("/w/ws/src/a.ts".to_owned(), EntryType::File),
                ("/w/ws/src/sub".to_owned(), EntryType::Directory)
            ]
        );
    }

    #[test]
    fn matches_are_read_in_two_levels_and_files_relative_to_the_search() {
        let p = profile();
        let c = ctx(
            &p,
            Tool::Grep,
            &params(json!({"pattern": "h", "dir_path": "src"})),
        );
        let r = read(
            &c,
            "/w/ws/src/a.ts\n  1:1: hello\n  3:2:  h i\nnoise",
            false,
        );
        let m = r.matches.unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(
            (m[1].path.as_str(), m[1].line, m[1].text.as_str()),
            ("/w/ws/src/a.ts", 3, " h i")
        );
        assert!(r.derived.contains(&"notes".to_owned()));
        let none = read(&c, "No matches found", true);
        assert_eq!(none.outcome, Some(Outcome::Ok), "a success flagged isError");
        assert_eq!(none.matches, Some(vec![]));
        let c = ctx(
            &p,
            Tool::Glob,
            &params(json!({"pattern": "*.ts", "dir_path": "src"})),
        );
        let r = read(&c, "a.ts\n/w/x/b.ts", false);
        assert_eq!(r.files.unwrap(), ["/w/ws/src/a.ts", "/w/x/b.ts"]);
    }

    #[test]
    fn error_codes_name_their_rule_and_only_a_default_is_derived() {
        let p = profile();
        let c = ctx(&p, Tool::Grep, &params(json!({"pattern": "("})));
        let r = read(&c, "bad regex: (", true);
        let e = r.error.as_ref().unwrap();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert_eq!(
            e.rule.as_deref(),
            Some("tools.grep.errors.codes[0]: message /^bad regex/")
        );
        assert!(r.derived.is_empty());
        let r = read(
            &c,
            "ENOENT: no such file or directory, stat '/w/ws/x'",
            true,
        );
        assert_eq!(r.error.as_ref().unwrap().code, ErrorCode::NotFound);
        assert_eq!(
            r.error.unwrap().rule.as_deref(),
            Some("errors.codes[1]: errno ENOENT")
        );
        let r = read(&c, "something odd", true);
        assert_eq!(
            r.error.as_ref().unwrap().rule.as_deref(),
            Some("errors.default")
        );
        assert_eq!(r.derived, ["error.code"]);
        let r = read(&c, "[NOT_FOUND] /w/ws/x", false);
        assert_eq!(
            r.outcome,
            Some(Outcome::Error),
            "a failure reported as success text"
        );
    }
}
