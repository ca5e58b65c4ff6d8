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
//!
//! Every rule tried on an answer is recorded in the call's [`Context`]
//! ([`Trial`]), matched or not, so a run can say how often each rule of
//! the profile matched and warn on one that never did
//! ([`crate::report::profile_rules`]); [`rules`] lists them all, named as
//! the trials name them.

mod json;

use serde_json::{Map, Value};

use crate::mcp::profile::{
    CodeRule, ContentRule, Errors, FilesRule, JsonItems, KindRule, MatchesRule, PathRule, Pattern,
    Profile, RelativeNames, ResultMap, ServerTool, ToolMap,
};
use crate::reference::resolve::{lexical_parent, lexical_resolve};
use crate::report::profile_rules::RuleUse;
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
    /// Whether the call asked for a path that was a regular file before
    /// it was sent (set by the caller, who sees the fixture): a search
    /// then reads `matches.requested_file`, when the profile gives it.
    pub requested_file: bool,
    /// The rules tried on the answer so far, in the order tried.
    pub tried: Vec<Trial>,
}

/// One rule of the profile tried on one answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trial {
    /// Where it stands (`errors.codes[2]`), as [`rules`] names it.
    pub rule: String,
    pub matched: bool,
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
            requested_file: false,
            tried: Vec::new(),
        }
    }

    fn tried(&mut self, rule: String, matched: bool) {
        self.tried.push(Trial { rule, matched });
    }

    /// A relative path the server's text names, made absolute as the
    /// profile says (`relative_to`): onto the searched directory, or onto
    /// the server's base.
    fn named(&self, path: &str) -> String {
        match self.map.result.relative_to {
            RelativeNames::Searched => absolute(&self.requested, path),
            RelativeNames::Base => absolute(self.base, path),
        }
    }
}

/// Where a tool's result rule stands in the profile (`tools.grep.result.empty`).
fn result_rule(tool: Tool, what: &str) -> String {
    format!("tools.{tool}.result.{what}")
}

/// What a pattern matches, for a reader.
fn pattern(p: &Pattern) -> String {
    format!("/{}/", p.as_str())
}

/// What a code rule matches (`message /^Access/`, `errno ENOENT`).
fn code_rule(rule: &CodeRule) -> String {
    match (&rule.message, rule.errno) {
        (Some(message), _) => format!("message {}", pattern(message)),
        (None, Some(errno)) => {
            let name: &'static str = errno.into();
            format!("errno {name}")
        }
        (None, None) => unreachable!("checked at load: one of the two"),
    }
}

/// Every rule of `profile` that reads an answer, in the profile's order
/// (its own error rules, then each mapped tool's), none applied yet: what
/// a run counts per rule. Composed readings (`always`, `request`, `text`)
/// always give their value and are not listed.
pub fn rules(profile: &Profile) -> Vec<RuleUse> {
    let mut all = Vec::new();
    error_rules(&mut all, &profile.errors, "errors");
    for (tool, map) in &profile.tools {
        let ToolMap::Tool(map) = map else { continue };
        error_rules(&mut all, &map.errors, &format!("tools.{tool}.errors"));
        let mut rule = |what: &str, reads: String| {
            all.push(RuleUse::new(result_rule(*tool, what), reads, false));
        };
        let result = &map.result;
        if let Some(KindRule::Lines(lines)) = &result.kind {
            for (i, line) in lines.iter().enumerate() {
                let reads = format!("line {} → {}", pattern(&line.line), line.kind.name());
                rule(&format!("kind.lines[{i}]"), reads);
            }
        }
        match &result.path {
            Some(PathRule::Line(line)) => rule("path", format!("line {}", pattern(line))),
            Some(PathRule::Json(pointer)) => {
                rule("path.json", format!("JSON string at `{pointer}`"))
            }
            Some(PathRule::Request) | None => {}
        }
        if let Some(ContentRule::Json(pointer)) = result.content.as_deref() {
            rule("content.json", format!("JSON string at `{pointer}`"));
        }
        if let Some(entries) = &result.entries {
            match (&entries.line, &entries.json) {
                (Some(line), _) => rule("entries", format!("line {}", pattern(line))),
                (None, Some(json)) => rule("entries.json", json_rule(json)),
                (None, None) => {}
            }
        }
        match &result.files {
            Some(FilesRule::Line(files)) => rule("files", format!("line {}", pattern(files))),
            Some(FilesRule::Json(json)) => rule("files.json", json_rule(json)),
            None => {}
        }
        if let Some(matches) = &result.matches {
            if let Some(file) = &matches.file {
                rule("matches.file", format!("line {}", pattern(file)));
            }
            if let Some(line) = &matches.line {
                rule("matches.line", format!("line {}", pattern(line)));
            }
            if let Some(json) = &matches.json {
                rule("matches.json", json_rule(json));
            }
            if let Some(requested) = &matches.requested_file {
                let reads = format!("line {}, in the requested file", pattern(requested));
                rule("matches.requested_file", reads);
            }
        }
        if let Some(empty) = &result.empty {
            rule("empty", format!("whole text {}", pattern(empty)));
        }
    }
    all
}

/// What a JSON rule reads, for a reader (`JSON items at /entries: name
/// /name, type /type`).
fn json_rule(json: &JsonItems) -> String {
    let fields: Vec<String> = (json.given().into_iter())
        .map(|(key, pointer)| format!("{key} `{pointer}`"))
        .collect();
    format!("JSON items at `{}`: {}", json.items, fields.join(", "))
}

/// Whether a rule of `result` reads the text as JSON (the server bounds
/// such a text's values before it is read).
pub fn reads_json(result: &ResultMap) -> bool {
    result.entries.as_ref().is_some_and(|e| e.json.is_some())
        || matches!(result.files, Some(FilesRule::Json(_)))
        || result.matches.as_ref().is_some_and(|m| m.json.is_some())
        || matches!(result.path, Some(PathRule::Json(_)))
        || matches!(result.content.as_deref(), Some(ContentRule::Json(_)))
}

/// The rules of one `errors` list at `place`, as [`rules`] lists them.
fn error_rules(all: &mut Vec<RuleUse>, errors: &Errors, place: &str) {
    for (i, p) in errors.texts.iter().enumerate() {
        let what = format!("first line {}", pattern(p));
        all.push(RuleUse::new(format!("{place}.texts[{i}]"), what, false));
    }
    for (i, rule) in errors.codes.iter().enumerate() {
        let what = format!("{} → {}", code_rule(rule), rule.code.name());
        all.push(RuleUse::new(format!("{place}.codes[{i}]"), what, false));
    }
    if let Some(code) = errors.default {
        let what = code.name().to_owned();
        all.push(RuleUse::new(format!("{place}.default"), what, true));
    }
}

/// An answer from `text` with the server's `is_error` flag; every rule
/// tried on it is recorded in `ctx.tried`.
pub fn read(ctx: &mut Context, text: &str, is_error: bool) -> ToolResult {
    let map = ctx.map;
    let result = &map.result;
    let empty = result
        .empty
        .as_ref()
        .is_some_and(|p| p.is_match(text.trim()));
    if result.empty.is_some() {
        ctx.tried(result_rule(ctx.tool, "empty"), empty);
    }
    let error_text = !is_error && reads_as_error(ctx, text);
    if (is_error && !empty) || error_text {
        return error(ctx, text);
    }
    let mut answer = ToolResult {
        outcome: Some(Outcome::Ok),
        model_text: Some(text.to_owned()),
        ..ToolResult::default()
    };
    // "Nothing found" has no lines for the rules below to read, so they
    // are not tried on it.
    if empty {
        if result.entries.is_some() {
            answer.entries = Some(Vec::new());
        }
        if result.files.is_some() {
            answer.files = Some(Vec::new());
        }
    }
    let lines: Vec<&str> = if empty {
        Vec::new()
    } else {
        text.lines().collect()
    };
    let document = match reads_json(result) && !empty {
        true => json::parse(text),
        false => None,
    };
    read_kind(&mut answer, ctx, &lines, !empty);
    read_path(&mut answer, ctx, &lines, document.as_ref(), !empty);
    if !empty {
        read_entries(&mut answer, ctx, &lines, document.as_ref());
        read_files(&mut answer, ctx, &lines, document.as_ref());
    }
    read_search(&mut answer, ctx, &lines, document.as_ref(), empty);
    read_content(&mut answer, ctx, text, document.as_ref());
    if result.output.is_some() {
        answer.output = Some(text.to_owned());
        answer.cwd = Some(ctx.requested.clone());
        answer.derived.push(Field::Cwd);
    }
    answer
}

/// Whether a success answer's first line is one of the profile's error
/// texts (the tool's own, then the profile's): a server that reports a
/// failure as ordinary text. Every text is tried on every such answer, so
/// each one's use is counted, and the first to match decides.
fn reads_as_error(ctx: &mut Context, text: &str) -> bool {
    let first = text.lines().next().unwrap_or_default();
    let map = ctx.map;
    let lists = [
        (&map.errors, format!("{}.errors", ctx.place)),
        (ctx.errors, "errors".to_owned()),
    ];
    let mut error_text = false;
    for (errors, place) in lists {
        for (i, p) in errors.texts.iter().enumerate() {
            let matched = !error_text && p.is_match(first);
            error_text |= matched;
            ctx.tried(format!("{place}.texts[{i}]"), matched);
        }
    }
    error_text
}

/// A listing's entries, from the JSON items the profile points at or one
/// line each; an entry whose type the answer did not say is a file by
/// assumption, and `entries` is then derived, never observed.
fn read_entries(
    answer: &mut ToolResult,
    ctx: &mut Context,
    lines: &[&str],
    document: Option<&Value>,
) {
    let map = ctx.map;
    let Some(rule) = map.result.entries.as_ref() else {
        return;
    };
    if let Some(json) = &rule.json {
        let read = json::entries(ctx, json, &rule.types, document);
        let found = read
            .as_ref()
            .is_some_and(|(entries, _)| !entries.is_empty());
        ctx.tried(result_rule(ctx.tool, "entries.json"), found);
        if let Some((entries, typed)) = read {
            if !typed {
                answer.derived.push(Field::Entries);
            }
            answer.entries = Some(entries);
        }
        return;
    }
    let Some(line_rule) = &rule.line else {
        return;
    };
    let mut entries = Vec::new();
    let mut typed = true;
    for line in lines {
        let Some(c) = line_rule.0.captures(line) else {
            continue;
        };
        let path = match (c.name("path"), c.name("name")) {
            (Some(p), _) => ctx.named(p.as_str()),
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
        answer.derived.push(Field::Entries);
    }
    ctx.tried(result_rule(ctx.tool, "entries"), !entries.is_empty());
    answer.entries = Some(entries);
}

/// A glob's files, one line each or from the JSON the profile points at.
fn read_files(
    answer: &mut ToolResult,
    ctx: &mut Context,
    lines: &[&str],
    document: Option<&Value>,
) {
    let map = ctx.map;
    match map.result.files.as_ref() {
        Some(FilesRule::Line(files)) => {
            let found: Vec<String> = lines
                .iter()
                .filter_map(|l| files.0.captures(l))
                .filter_map(|c| Some(ctx.named(c.name("path")?.as_str())))
                .collect();
            ctx.tried(result_rule(ctx.tool, "files"), !found.is_empty());
            answer.files = Some(found);
        }
        Some(FilesRule::Json(rule)) => {
            let found = json::files(ctx, rule, document);
            let matched = found.as_ref().is_some_and(|f| !f.is_empty());
            ctx.tried(result_rule(ctx.tool, "files.json"), matched);
            answer.files = found;
        }
        None => {}
    }
}

/// A search's matches (none when the answer said "nothing found"), and
/// its notes: the suite's only one (SEARCH-6) has no counterpart in a
/// server's text, so `notes` is never observed.
fn read_search(
    answer: &mut ToolResult,
    ctx: &mut Context,
    lines: &[&str],
    document: Option<&Value>,
    empty: bool,
) {
    let map = ctx.map;
    let Some(rule) = &map.result.matches else {
        return;
    };
    answer.matches = match (&rule.json, empty) {
        (_, true) => Some(Vec::new()),
        (Some(json), false) => {
            let found = json::matches(ctx, json, document, &mut answer.derived);
            let matched = found.as_ref().is_some_and(|m| !m.is_empty());
            ctx.tried(result_rule(ctx.tool, "matches.json"), matched);
            found
        }
        (None, false) => Some(read_matches(rule, ctx, lines, &mut answer.derived)),
    };
    answer.notes = Some(Vec::new());
    answer.derived.push(Field::Notes);
}

/// A read's content: the whole text (or the string at the pointer),
/// exactly, so a server that rewrites line endings, numbers lines or adds
/// a header fails FILE-5. FILE-5's note `binary` has no counterpart in a
/// server's text: `notes` is never observed.
fn read_content(answer: &mut ToolResult, ctx: &mut Context, text: &str, document: Option<&Value>) {
    let map = ctx.map;
    let Some(rule) = map.result.content.as_deref() else {
        return;
    };
    answer.content = match rule {
        ContentRule::Text => Some(text.to_owned()),
        ContentRule::Json(pointer) => {
            let found = json::string(document, pointer);
            ctx.tried(result_rule(ctx.tool, "content.json"), found.is_some());
            found
        }
    };
    answer.notes = Some(Vec::new());
    answer.derived.push(Field::Notes);
}

/// The kind, read from the first rule that matches a line (each rule
/// tried until one does, on an answer with lines to read: `tried`), or
/// assumed.
fn read_kind(answer: &mut ToolResult, ctx: &mut Context, lines: &[&str], tried: bool) {
    let map = ctx.map;
    match &map.result.kind {
        Some(KindRule::Always(always)) => {
            answer.kind = Some(*always);
            answer.derived.push(Field::Kind);
        }
        Some(KindRule::Lines(rules)) => {
            for (i, r) in rules.iter().enumerate() {
                let matched = answer.kind.is_none() && lines.iter().any(|l| r.line.is_match(l));
                if matched {
                    answer.kind = Some(r.kind);
                }
                if tried {
                    ctx.tried(result_rule(ctx.tool, &format!("kind.lines[{i}]")), matched);
                }
            }
        }
        None => {}
    }
}

fn read_path(
    answer: &mut ToolResult,
    ctx: &mut Context,
    lines: &[&str],
    document: Option<&Value>,
    tried: bool,
) {
    let map = ctx.map;
    let (path, composed) = match &map.result.path {
        Some(PathRule::Request) => (Some(ctx.requested.clone()), true),
        Some(PathRule::Json(pointer)) => {
            let found = json::string(document, pointer).map(|p| absolute(ctx.base, &p));
            if tried {
                ctx.tried(result_rule(ctx.tool, "path.json"), found.is_some());
            }
            (found, false)
        }
        Some(PathRule::Line(line)) => {
            let found = lines
                .iter()
                .find_map(|l| line.0.captures(l)?.name("path").map(|p| p.as_str()))
                .map(|p| absolute(ctx.base, p));
            if tried {
                ctx.tried(result_rule(ctx.tool, "path"), found.is_some());
            }
            (found, false)
        }
        None => (None, false),
    };
    if answer.kind == Some(Kind::AllWorkspaces) {
        return;
    }
    if let Some(path) = path {
        if answer.kind == Some(Kind::File) {
            answer.parent = Some(lexical_parent(&path));
            if composed {
                answer.derived.push(Field::Parent);
            }
        }
        answer.path = Some(path);
        if composed {
            answer.derived.push(Field::Path);
        }
    }
}

/// Matches on one line each, or under the file line before them; or, for
/// a request that named a file and a profile that says how such a search
/// answers (`requested_file`), in that file, its path composed.
fn read_matches(
    rule: &MatchesRule,
    ctx: &mut Context,
    lines: &[&str],
    derived: &mut Vec<Field>,
) -> Vec<Match> {
    let mut matches = Vec::new();
    if let Some(requested) = rule.requested_file.as_ref().filter(|_| ctx.requested_file) {
        let mut texts = true;
        for c in lines.iter().filter_map(|l| requested.0.captures(l)) {
            let Some(number) = c.name("line").and_then(|n| n.as_str().parse().ok()) else {
                continue;
            };
            texts &= c.name("text").is_some();
            let text = c.name("text").map_or("", |t| t.as_str()).to_owned();
            matches.push(Match {
                path: ctx.requested.clone(),
                line: number,
                text,
            });
        }
        if !matches.is_empty() {
            derived.push(Field::MatchesPath);
        }
        if !texts {
            derived.push(Field::MatchesText);
        }
        let rule = result_rule(ctx.tool, "matches.requested_file");
        ctx.tried(rule, !matches.is_empty());
        return matches;
    }
    let Some(line_rule) = &rule.line else {
        unreachable!("checked at load: `line` or `json`")
    };
    let mut file: Option<String> = None;
    let mut files_named = false;
    let mut texts = true;
    for line in lines {
        if let Some(f) = &rule.file
            && let Some(c) = f.0.captures(line)
            && let Some(p) = c.name("path")
        {
            file = Some(ctx.named(p.as_str()));
            files_named = true;
            continue;
        }
        let Some(c) = line_rule.0.captures(line) else {
            continue;
        };
        let path = match c.name("path") {
            Some(p) => ctx.named(p.as_str()),
            None => match &file {
                Some(f) => f.clone(),
                None => continue,
            },
        };
        let Some(number) = c.name("line").and_then(|n| n.as_str().parse().ok()) else {
            continue;
        };
        // A text group that took no part (`(?P<text>.*)?`) read nothing:
        // the text is unobserved, not empty.
        texts &= c.name("text").is_some();
        let text = c.name("text").map_or("", |t| t.as_str()).to_owned();
        matches.push(Match {
            path,
            line: number,
            text,
        });
    }
    if !texts {
        derived.push(Field::MatchesText);
    }
    if rule.file.is_some() {
        ctx.tried(result_rule(ctx.tool, "matches.file"), files_named);
    }
    ctx.tried(result_rule(ctx.tool, "matches.line"), !matches.is_empty());
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
pub fn error(ctx: &mut Context, text: &str) -> ToolResult {
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
            vec![Field::ErrorCode]
        } else {
            Vec::new()
        },
        ..ToolResult::default()
    }
}

/// The code for an error text, the rule that gave it (as the profile
/// places it), and whether only a default gave it. Every code rule and
/// default applies to every error answer; the one that gave the code
/// matched.
fn classify(ctx: &mut Context, text: &str) -> (ErrorCode, String, bool) {
    let (map, profile_errors) = (ctx.map, ctx.errors);
    let lists = [
        (&map.errors, format!("{}.errors", ctx.place)),
        (profile_errors, "errors".to_owned()),
    ];
    let mut given: Option<(ErrorCode, String, bool)> = None;
    for (errors, place) in &lists {
        for (i, rule) in errors.codes.iter().enumerate() {
            let hit = given.is_none()
                && match (&rule.message, rule.errno) {
                    (Some(message), _) => message.is_match(text),
                    (None, Some(errno)) => errno.named_in(text),
                    (None, None) => unreachable!("checked at load: one of the two"),
                };
            let at = format!("{place}.codes[{i}]");
            if hit {
                given = Some((rule.code, format!("{at}: {}", code_rule(rule)), false));
            }
            ctx.tried(at, hit);
        }
    }
    for (errors, place) in &lists {
        if let Some(code) = errors.default {
            let hit = given.is_none();
            let at = format!("{place}.default");
            if hit {
                given = Some((code, at.clone(), true));
            }
            ctx.tried(at, hit);
        }
    }
    given.unwrap_or_else(|| {
        (
            ErrorCode::InvalidParams,
            "no rule matched (toolpath's default)".into(),
            true,
        )
    })
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
      path: request
      entries: {line: '^\[(?P<type>FILE|DIR)\] (?P<name>.*)$', types: {FILE: file, DIR: directory}}
  grep:
    tool: search
    arguments:
      rename: {pattern: query, include: pattern, dir_path: path}
      default: {include: "*"}
      constant: {is_regex: true}
    errors:
      codes: [{message: '^bad regex', code: invalid_params}]
    unobservable: [kind, path]
    result:
      empty: '^No matches found$'
      matches: {file: '^(?P<path>/.*)$', line: '^  (?P<line>\d+):\d+: (?P<text>.*)$'}
  glob:
    tool: find
    result:
      kind: {always: directory}
      path: request
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
        let mut c = ctx(
            &p,
            Tool::ReadFile,
            &params(json!({"file_path": "/w/ws/a.txt"})),
        );
        let text = "one\r\ntwo\tthree é\n\nlast";
        let r = read(&mut c, text, false);
        assert_eq!(r.content.as_deref(), Some(text));
        assert_eq!(r.notes, Some(vec![]));
        assert_eq!(r.kind, Some(Kind::File));
        assert_eq!(
            r.derived,
            [Field::Kind, Field::Parent, Field::Path, Field::Notes]
        );
        let r = read(
            &mut c,
            "ENOENT: no such file or directory, open '/w/ws/a.txt'",
            true,
        );
        assert_eq!(r.content, None, "an error has no content");
        assert_eq!(r.error.unwrap().code, ErrorCode::NotFound);
        let mut edit = ctx(&p, Tool::Edit, &params(json!({"file_path": "/w/ws/a.txt"})));
        let r = read(&mut edit, "```diff\nIndex: /w/real/a.txt\n===\n", false);
        assert_eq!(
            r.path.as_deref(),
            Some("/w/real/a.txt"),
            "read, not composed"
        );
        assert_eq!(r.content, None, "only a content rule gives content");
        assert_eq!(r.derived, [Field::Kind]);
    }

    fn ctx<'a>(p: &'a Profile, t: Tool, params: &Map<String, Value>) -> Context<'a> {
        Context::new(t, tool(p, t), &p.errors, "/w/ws", params)
    }

    #[test]
    fn kinds_are_read_or_assumed_and_composed_fields_are_derived() {
        let p = profile();
        let mut c = ctx(&p, Tool::Resolve, &params(json!({"path": "src/../a.ts"})));
        let r = read(&mut c, "size: 1\nisDirectory: false\nisFile: true", false);
        assert_eq!(r.kind, Some(Kind::File));
        assert_eq!(r.path.as_deref(), Some("/w/ws/a.ts"));
        assert_eq!(r.parent.as_deref(), Some("/w/ws"));
        assert_eq!(r.derived, [Field::Parent, Field::Path]);
        assert_eq!(
            r.model_text.as_deref(),
            Some("size: 1\nisDirectory: false\nisFile: true")
        );
        let mut c = ctx(&p, Tool::Ls, &params(json!({"dir_path": "/w/ws/src"})));
        let r = read(&mut c, "[FILE] a.ts\n[DIR] sub\n[LINK] odd", false);
        assert_eq!(r.kind, Some(Kind::Directory));
        assert_eq!(r.derived, [Field::Kind, Field::Path]);
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

    /// Issue 44: a server answering in JSON text is read field by field,
    /// each item's fields together (a name with its type, a line number
    /// with its text); an item without a needed field is skipped, a text
    /// or type some item lacks is unobserved, and a text that is not JSON
    /// (or has no list there) leaves the field missing, its rule unmatched.
    #[test]
    fn json_answers_are_read_by_pointer_per_field_of_each_item() {
        let text = PROFILE
            .replace(
                r#"entries: {line: '^\[(?P<type>FILE|DIR)\] (?P<name>.*)$', types: {FILE: file, DIR: directory}}"#,
                "entries: {json: {items: /entries, name: /name, type: /isDir}, types: {'true': directory, 'false': file}}",
            )
            .replace(
                r#"matches: {file: '^(?P<path>/.*)$', line: '^  (?P<line>\d+):\d+: (?P<text>.*)$'}"#,
                "matches: {json: {items: /hits, path: /file, line: /at/line, text: /at/text}}",
            )
            .replace(
                "files: '^(?P<path>.+)$'",
                "files: {json: {items: '', path: ''}}",
            );
        let p = Loaded::parse(std::path::Path::new("p.yaml"), &text).unwrap();
        let mut c = ctx(&p, Tool::Ls, &params(json!({"dir_path": "/w/ws/src"})));
        let listing = json!({"entries": [
            {"name": "a.ts", "isDir": false},
            {"name": "sub", "isDir": true},
            {"isDir": true},
        ]});
        let r = read(&mut c, &listing.to_string(), false);
        let entries: Vec<_> = (r.entries.unwrap().into_iter())
            .map(|e| (e.path, e.entry_type))
            .collect();
        assert_eq!(
            entries,
            [
                ("/w/ws/src/a.ts".to_owned(), EntryType::File),
                ("/w/ws/src/sub".to_owned(), EntryType::Directory)
            ]
        );
        assert_eq!(r.derived, [Field::Kind, Field::Path], "every type read");
        let untyped = json!({"entries": [{"name": "a.ts", "isDir": false}, {"name": "b"}]});
        let r = read(&mut c, &untyped.to_string(), false);
        assert!(r.derived.contains(&Field::Entries), "{:?}", r.derived);
        let r = read(&mut c, "[FILE] a.ts", false);
        assert_eq!(r.entries, None, "not JSON: nothing read");
        assert_eq!(
            c.tried.last().unwrap(),
            &Trial {
                rule: "tools.ls.result.entries.json".into(),
                matched: false
            }
        );
        let mut c = ctx(&p, Tool::Grep, &params(json!({"pattern": "x"})));
        let hits = json!({"hits": [
            {"file": "/w/ws/a.ts", "at": {"line": 3, "text": "x = 1"}},
            {"file": "b.ts", "at": {"line": "7", "text": "  x"}},
            {"file": "/w/ws/c.ts", "at": {"text": "no line"}},
        ]});
        let r = read(&mut c, &hits.to_string(), false);
        let found: Vec<_> = (r.matches.as_ref().unwrap().iter())
            .map(|m| (m.path.as_str(), m.line, m.text.as_str()))
            .collect();
        assert_eq!(
            found,
            [("/w/ws/a.ts", 3, "x = 1"), ("/w/ws/b.ts", 7, "  x")]
        );
        assert!(!r.derived.contains(&Field::MatchesText));
        let textless = json!({"hits": [{"file": "/w/ws/a.ts", "at": {"line": 3}}]});
        let r = read(&mut c, &textless.to_string(), false);
        assert_eq!(r.matches.as_ref().unwrap()[0].text, "");
        assert!(
            r.derived.contains(&Field::MatchesText),
            "a text not there is unobserved, not empty: {:?}",
            r.derived
        );
        let r = read(&mut c, "No matches found", false);
        assert_eq!(r.matches, Some(vec![]), "`empty` still applies");
        let mut c = ctx(
            &p,
            Tool::Glob,
            &params(json!({"pattern": "*.ts", "dir_path": "/w/ws/src"})),
        );
        let r = read(&mut c, r#"["a.ts", "/w/x/b.ts", 3]"#, false);
        assert_eq!(
            r.files.unwrap(),
            ["/w/ws/src/a.ts", "/w/x/b.ts", "/w/ws/src/3"]
        );
    }

    /// A read tool that answers its file as a JSON document (Claude
    /// Code's `Read`: `{"file": {"filePath": …, "content": …}}`) is read
    /// by pointer: the content exactly as the string at `content.json`,
    /// the path at `path.json`; a text that is not JSON, or has no string
    /// there, leaves each missing and its rule unmatched.
    #[test]
    fn a_read_answered_in_json_gives_its_content_and_path_by_pointer() {
        let text = PROFILE.replace(
            "result: {kind: {always: file}, path: request, content: text}",
            "result: {kind: {always: file}, path: {json: /file/filePath}, content: {json: /file/content}}",
        );
        let p = Loaded::parse(std::path::Path::new("p.yaml"), &text).unwrap();
        let mut c = ctx(&p, Tool::ReadFile, &params(json!({"file_path": "a.txt"})));
        let answer = json!({"type": "text", "file": {"filePath": "a.txt", "content": "one\r\ntwo\n", "numLines": 3}});
        let r = read(&mut c, &answer.to_string(), false);
        assert_eq!(r.content.as_deref(), Some("one\r\ntwo\n"));
        assert_eq!(
            r.path.as_deref(),
            Some("/w/ws/a.txt"),
            "relative to the base"
        );
        assert_eq!(r.parent.as_deref(), Some("/w/ws"));
        assert_eq!(
            r.derived,
            [Field::Kind, Field::Notes],
            "the path and its parent were read"
        );
        assert_eq!(r.model_text.as_deref(), Some(answer.to_string().as_str()));
        let rules: Vec<_> = rules(&p).into_iter().map(|r| r.rule).collect();
        for rule in [
            "tools.read_file.result.path.json",
            "tools.read_file.result.content.json",
        ] {
            assert!(rules.contains(&rule.to_owned()), "{rules:?}");
            assert!(
                c.tried.contains(&Trial {
                    rule: rule.into(),
                    matched: true
                }),
                "{:?}",
                c.tried
            );
        }
        for other in ["hi", r#"{"file": {"filePath": 3, "content": ["x"]}}"#] {
            let mut c = ctx(&p, Tool::ReadFile, &params(json!({"file_path": "a.txt"})));
            let r = read(&mut c, other, false);
            assert_eq!((r.content, r.path), (None, None), "{other}");
            assert!(
                c.tried.contains(&Trial {
                    rule: "tools.read_file.result.content.json".into(),
                    matched: false
                }),
                "{:?}",
                c.tried
            );
        }
        assert!(reads_json(&tool(&p, Tool::ReadFile).result));
    }

    /// A line rule whose text group took no part in a match read no
    /// text: unobserved, not the empty text.
    #[test]
    fn a_text_group_that_took_no_part_is_unobserved() {
        let text = PROFILE.replace(
            r#"(?P<line>\d+):\d+: (?P<text>.*)$'"#,
            r#"(?P<line>\d+):\d+(: (?P<text>.*))?$'"#,
        );
        let p = Loaded::parse(std::path::Path::new("p.yaml"), &text).unwrap();
        let mut c = ctx(&p, Tool::Grep, &params(json!({"pattern": "x"})));
        let r = read(&mut c, "/w/ws/a.ts\n  3:1: x = 1", false);
        assert!(!r.derived.contains(&Field::MatchesText));
        let r = read(&mut c, "/w/ws/a.ts\n  3:1: x = 1\n  4:1", false);
        assert_eq!(r.matches.as_ref().unwrap().len(), 2);
        assert!(r.derived.contains(&Field::MatchesText), "{:?}", r.derived);
    }

    #[test]
    fn matches_are_read_in_two_levels_and_files_relative_to_the_search() {
        let p = profile();
        let mut c = ctx(
            &p,
            Tool::Grep,
            &params(json!({"pattern": "h", "dir_path": "src"})),
        );
        let r = read(
            &mut c,
            "/w/ws/src/a.ts\n  1:1: hello\n  3:2:  h i\nnoise",
            false,
        );
        let m = r.matches.unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(
            (m[1].path.as_str(), m[1].line, m[1].text.as_str()),
            ("/w/ws/src/a.ts", 3, " h i")
        );
        assert!(r.derived.contains(&Field::Notes));
        let none = read(&mut c, "No matches found", true);
        assert_eq!(none.outcome, Some(Outcome::Ok), "a success flagged isError");
        assert_eq!(none.matches, Some(vec![]));
        let mut c = ctx(
            &p,
            Tool::Glob,
            &params(json!({"pattern": "*.ts", "dir_path": "src"})),
        );
        let r = read(&mut c, "a.ts\n/w/x/b.ts", false);
        assert_eq!(r.files.unwrap(), ["/w/ws/src/a.ts", "/w/x/b.ts"]);
    }

    #[test]
    fn error_codes_name_their_rule_and_only_a_default_is_derived() {
        let p = profile();
        let mut c = ctx(&p, Tool::Grep, &params(json!({"pattern": "("})));
        let r = read(&mut c, "bad regex: (", true);
        let e = r.error.as_ref().unwrap();
        assert_eq!(e.code, ErrorCode::InvalidParams);
        assert_eq!(
            e.rule.as_deref(),
            Some("tools.grep.errors.codes[0]: message /^bad regex/")
        );
        assert!(r.derived.is_empty());
        let r = read(
            &mut c,
            "ENOENT: no such file or directory, stat '/w/ws/x'",
            true,
        );
        assert_eq!(r.error.as_ref().unwrap().code, ErrorCode::NotFound);
        assert_eq!(
            r.error.unwrap().rule.as_deref(),
            Some("errors.codes[1]: errno ENOENT")
        );
        let r = read(&mut c, "something odd", true);
        assert_eq!(
            r.error.as_ref().unwrap().rule.as_deref(),
            Some("errors.default")
        );
        assert_eq!(r.derived, [Field::ErrorCode]);
        let r = read(&mut c, "[NOT_FOUND] /w/ws/x", false);
        assert_eq!(
            r.outcome,
            Some(Outcome::Error),
            "a failure reported as success text"
        );
    }

    /// A profile of a ripgrep-like search: paths as its walk met them
    /// from the path it was given, and no path at all for one file.
    const RIPGREP: &str = r#"
profile: 1
implementation: {name: fake, language: python, version: {text: "1"}}
server: {command: [x]}
roots: {via: none}
relative_paths: cwd
tools:
  grep:
    tool: search
    result:
      kind: {always: directory}
      path: request
      matches:
        line: '^(?P<path>[^:]*):(?P<line>\d+):(?P<text>.*)$'
        requested_file: '^(?P<line>\d+):(?P<text>.*)$'
      relative_to: base
      empty: '^No matches found$'
  ripgrep: {none: "grep stands for it"}
  resolve: {none: x}
  ls: {none: x}
  glob: {none: x}
  shell: {none: x}
  read_file: {none: x}
  write_file: {none: x}
  edit: {none: x}
"#;

    /// Issue 34 item 3: a search of one file that names no file (`LINE:TEXT`)
    /// is in the requested file, composed (`matches.path` derived, so the
    /// judge compares by base name and leaves the path unchecked); with
    /// `relative_to: base` a relative path in the text is joined onto the
    /// server's base, not onto the searched directory (rg prints `src/a.ts`
    /// for a search of `src`).
    #[test]
    fn a_search_of_one_file_is_in_the_requested_file_and_relative_names_follow_the_profile() {
        let p = Loaded::parse(std::path::Path::new("p.yaml"), RIPGREP).unwrap();
        let grep = tool(&p, Tool::Grep);
        let one_file = params(json!({"pattern": "h", "dir_path": "src/a.ts"}));
        let mut c = Context::new(Tool::Grep, grep, &p.errors, "/w/ws", &one_file);
        c.requested_file = true;
        let r = read(&mut c, "1:hello\n3:  h i", false);
        let m = r.matches.unwrap();
        let found: Vec<_> = m
            .iter()
            .map(|m| (m.path.as_str(), m.line, m.text.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("/w/ws/src/a.ts", 1, "hello"),
                ("/w/ws/src/a.ts", 3, "  h i")
            ]
        );
        assert!(r.derived.contains(&Field::MatchesPath), "{:?}", r.derived);
        // Not a file before the call: the same lines name no file.
        let mut c = Context::new(Tool::Grep, grep, &p.errors, "/w/ws", &one_file);
        let r = read(&mut c, "1:hello", false);
        assert_eq!(r.matches.unwrap(), []);
        assert!(!r.derived.contains(&Field::MatchesPath));
        let dir = params(json!({"pattern": "h", "dir_path": "src"}));
        let mut c = Context::new(Tool::Grep, grep, &p.errors, "/w/ws", &dir);
        let r = read(&mut c, "src/a.ts:1:hello\n/w/x/b.ts:2:h", false);
        let paths: Vec<String> = r.matches.unwrap().into_iter().map(|m| m.path).collect();
        assert_eq!(
            paths,
            ["/w/ws/src/a.ts", "/w/x/b.ts"],
            "onto the base, not /w/ws/src"
        );
        assert!(!r.derived.contains(&Field::MatchesPath));
    }

    /// Issue 34 item 2: every rule tried on an answer is recorded, matched
    /// or not, under the name `rules` lists it by; a code rule matches
    /// when it gave the code, the default when nothing else did.
    #[test]
    fn every_rule_tried_is_recorded_under_the_name_rules_lists() {
        let p = profile();
        let listed: Vec<String> = rules(&p).into_iter().map(|r| r.rule).collect();
        let trials = |t: Tool, args: Value, text: &str, is_error: bool| {
            let mut c = ctx(&p, t, &params(args));
            read(&mut c, text, is_error);
            for trial in &c.tried {
                assert!(listed.contains(&trial.rule), "{} not listed", trial.rule);
            }
            c.tried
                .into_iter()
                .map(|t| (t.rule, t.matched))
                .collect::<Vec<_>>()
        };
        let tried = |v: &[(&str, bool)]| -> Vec<(String, bool)> {
            v.iter().map(|(r, m)| (r.to_string(), *m)).collect()
        };
        assert_eq!(
            trials(
                Tool::Grep,
                json!({"pattern": "h"}),
                "ENOENT: no such file",
                true
            ),
            tried(&[
                ("tools.grep.result.empty", false),
                ("tools.grep.errors.codes[0]", false),
                ("errors.codes[0]", false),
                ("errors.codes[1]", true),
                ("errors.default", false),
            ])
        );
        assert_eq!(
            trials(Tool::Resolve, json!({"path": "a"}), "isFile: true", false),
            tried(&[
                ("errors.texts[0]", false),
                ("tools.resolve.result.kind.lines[0]", false),
                ("tools.resolve.result.kind.lines[1]", true),
            ])
        );
        assert_eq!(
            trials(
                Tool::Glob,
                json!({"pattern": "*"}),
                "No matches found",
                false
            ),
            tried(&[
                ("tools.glob.result.empty", true),
                ("errors.texts[0]", false)
            ]),
            "nothing found: the line rules are not tried"
        );
        assert_eq!(
            trials(Tool::Resolve, json!({"path": "a"}), "odd", true),
            tried(&[
                ("errors.codes[0]", false),
                ("errors.codes[1]", false),
                ("errors.default", true),
            ])
        );
        let fallback: Vec<String> = rules(&p)
            .into_iter()
            .filter(|r| r.fallback)
            .map(|r| r.rule)
            .collect();
        assert_eq!(fallback, ["errors.default"]);
    }
}
