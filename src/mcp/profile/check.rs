//! Loading a profile and what its types cannot say, checked after
//! reading: a supported format, the fields each `via` needs, known field
//! and feature names, and a result rule for what each tool's cases judge.
//! Every mistake is reported at the line and column of the value it is
//! about.

use std::path::{Path, PathBuf};

use toolpath_suite::case::{CaseError, CaseErrors};
use toolpath_suite::protocol::{Feature, Field, Tool};

use super::*;

/// A loaded profile and where it is (its directory is `{profile}`).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub profile: Profile,
    pub file: PathBuf,
    pub dir: PathBuf,
}

impl Loaded {
    /// Reads and checks the profile at `file`; every error with its line.
    pub fn load(file: &Path) -> Result<Loaded, CaseErrors> {
        let one = |e: CaseError| CaseErrors::new(vec![e]).expect("one error");
        let text =
            std::fs::read_to_string(file).map_err(|e| one(CaseError::unreadable(file, &e)))?;
        let profile = Loaded::parse(file, &text)?;
        let absolute =
            std::path::absolute(file).map_err(|e| one(CaseError::unreadable(file, &e)))?;
        let dir = absolute
            .parent()
            .map_or_else(|| PathBuf::from("/"), Path::to_owned);
        Ok(Loaded {
            profile,
            file: file.to_owned(),
            dir,
        })
    }

    /// Parses and checks a profile's text (`file` only names it): the
    /// first error that stops reading, or every mistake the checks find.
    pub fn parse(file: &Path, text: &str) -> Result<Profile, CaseErrors> {
        let mut profile: Profile =
            toolpath_suite::case::yaml::parse(file, text, serde_saphyr::Options::default())
                .map_err(|e| CaseErrors::new(vec![e]).expect("one error"))?;
        let mut found = Vec::new();
        check(&profile, &mut found);
        let entries = std::mem::take(&mut profile.tool_entries.value);
        let missing: Vec<String> = Tool::ALL
            .iter()
            .filter(|t| !entries.contains_key(t))
            .map(|t| format!("`{t}`"))
            .collect();
        if !missing.is_empty() {
            found.push((
                profile.tool_entries.place,
                format!(
                    "`tools` has no entry for {}: give each the server tool that stands for it, or `none` with the reason no tool fits",
                    missing.join(", ")
                ),
            ));
        }
        for (tool, entry) in entries {
            check_tool(&profile, tool, &entry, &mut found);
            match entry.value.checked(tool, entry.place) {
                Ok(map) => {
                    profile.tools.insert(tool, map);
                }
                Err(at) => found.push(at),
            }
        }
        let errors = found
            .into_iter()
            .map(|(place, message)| CaseError {
                file: file.to_owned(),
                line: place.line,
                column: place.column,
                message,
            })
            .collect();
        match CaseErrors::new(errors) {
            Some(errors) => Err(errors),
            None => Ok(profile),
        }
    }
}

/// What the types cannot say: a supported format, the fields a `via`
/// needs, known field and feature names, and a result rule for what each
/// tool's cases judge. Every mistake is added to `found`, at its place.
fn check(profile: &Profile, found: &mut Vec<(Position, String)>) {
    let mut error = |place: Position, message: String| found.push((place, message));
    if *profile.profile != PROFILE_VERSION {
        error(
            profile.profile.place,
            format!(
                "`profile: {}`: this build reads profile format {PROFILE_VERSION}",
                *profile.profile
            ),
        );
    }
    if profile.server.command.is_empty() {
        error(
            profile.server.command.place,
            "`server.command` is empty".into(),
        );
    }
    check_roots(&profile.roots, &mut error);
    check_codes(&profile.errors, "errors", &mut error);
    let known = Feature::DECLARED.map(Feature::name);
    for feature in &profile.features {
        if !known.contains(&feature.as_str()) {
            error(
                feature.place,
                format!(
                    "`features`: unknown feature `{}` (known: {})",
                    feature.value,
                    known.join(", ")
                ),
            );
        }
    }
    unknown_fields(&profile.unobservable, "unobservable", &mut error);
    check_confined(profile, &mut error);
}

/// `roots`: each `via` has the field that says how roots are handed over,
/// and no field another `via` alone reads (a `roots.tool` under `via:
/// argv` would be silently ignored, and the profile's author would believe
/// it used).
fn check_roots(roots: &Roots, error: &mut impl FnMut(Position, String)) {
    match *roots.via {
        RootsVia::Flag if roots.flag.is_none() => {
            error(
                roots.via.place,
                "`roots.via: flag` needs `roots.flag`".into(),
            );
        }
        RootsVia::Config if roots.config.is_none() => {
            error(
                roots.via.place,
                "`roots.via: config` needs `roots.config`".into(),
            );
        }
        _ => {}
    }
    if *roots.via == RootsVia::Tool && roots.tool.is_none() {
        error(
            roots.via.place,
            "`roots.via: tool` needs `roots.tool`".into(),
        );
    }
    if let Some(tool) = &roots.tool {
        if *roots.via != RootsVia::Tool {
            error(
                tool.place,
                "`roots.tool` is for `roots.via: tool` only".into(),
            );
        }
        if !tool.arguments.names().contains("roots") {
            error(
                tool.place,
                "`roots.tool.arguments` never places `{roots}`: the tool would not be given the roots".into(),
            );
        }
    }
    if let Some(ready) = &roots.ready
        && !matches!(*roots.via, RootsVia::Mcp | RootsVia::Tool)
    {
        error(
            ready.place,
            "`roots.ready` is for `roots.via: mcp` and `tool` only".into(),
        );
    }
    if let Some(max) = &roots.max
        && **max == 0
    {
        error(max.place, "`roots.max` must be at least 1".into());
    }
}

/// The two files the harness itself touches for a profile, the version's
/// `package.json` (read) and the roots' config file (written, as root),
/// stay inside their directories ([`is_confined`]).
fn check_confined(profile: &Profile, error: &mut impl FnMut(Position, String)) {
    if let VersionSource::PackageJson(file) = &profile.implementation.version
        && !is_confined(file)
    {
        error(
            file.place,
            format!(
                "`version.package_json: {}` must be a relative path inside the profile's directory, without `..` (it is read by the harness)",
                file.display()
            ),
        );
    }
    if let Some(config) = &profile.roots.config
        && !is_confined(&config.file)
    {
        error(
            config.file.place,
            format!(
                "`roots.config.file: {}` must be a relative path inside the server's private HOME, without `..` (the harness writes it)",
                config.file.display()
            ),
        );
    }
}

/// Whether `path` names something strictly inside the directory it is
/// relative to: not empty, not absolute, no `..` or `.` (issue 30 item 4:
/// `roots.config.file: ../../etc/x` had the harness write there as root).
/// Links on the way are refused where the path is opened.
pub fn is_confined(path: &Path) -> bool {
    use std::path::Component;
    path.components().next().is_some()
        && path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// `errors.codes`: each rule gives exactly one of `message` and `errno`.
fn check_codes(errors: &Errors, place: &str, error: &mut impl FnMut(Position, String)) {
    for (i, rule) in errors.codes.iter().enumerate() {
        if rule.message.is_some() == rule.errno.is_some() {
            error(
                rule.place,
                format!("`{place}.codes[{i}]` needs exactly one of `message` and `errno`"),
            );
        }
    }
}

/// Every field of `list` is one the protocol knows: a profile may call
/// unobservable whatever an adapter may (`entries.path`, `matches.path`).
fn unknown_fields(list: &[At<String>], place: &str, error: &mut impl FnMut(Position, String)) {
    for field in list.iter().filter(|f| Field::from_wire(f).is_none()) {
        let known: Vec<&str> = Field::ALL.iter().map(|f| f.name()).collect();
        error(
            field.place,
            format!(
                "`{place}`: unknown field `{}` (known: {})",
                field.value,
                known.join(", ")
            ),
        );
    }
}

/// A server tool's entry: its names, error rules, and the result rule
/// each of the suite tool's cases is judged on, each mistake at its place.
fn check_tool(
    profile: &Profile,
    tool: Tool,
    entry: &At<ToolEntry>,
    found: &mut Vec<(Position, String)>,
) {
    let mut error = |place: Position, message: String| found.push((place, message));
    unknown_fields(
        &entry.unobservable,
        &format!("tools.{tool}.unobservable"),
        &mut error,
    );
    if let Some(errors) = &entry.errors {
        check_codes(errors, &format!("tools.{tool}.errors"), &mut error);
    }
    let (Some(_), Some(result)) = (&entry.tool, &entry.result) else {
        return;
    };
    let unobservable = |field: Field| {
        (entry.unobservable.iter().chain(&profile.unobservable))
            .any(|f| Field::from_wire(f) == Some(field))
    };
    check_judged_field(tool, result, &unobservable, &mut error);
    check_kind_and_path(tool, result, &unobservable, &mut error);
    check_rule_places(tool, entry, result, &mut error);
    check_groups(tool, result, &mut error);
    if let Some(entries) = &result.entries {
        check_entries(tool, entries, result.place, &unobservable, &mut error);
    }
    if let Some(matches) = &result.matches {
        check_matches(tool, matches, result.place, &unobservable, &mut error);
    }
    if let Some(FilesRule::Json(json)) = &result.files {
        check_json(tool, "files", json, &["path"], &[], &mut error);
    }
}

/// The field every case of `tool` is judged on has a rule that reads it:
/// without one, every case of the tool would fail on `(missing)` for a
/// mistake of the profile's, not of the server's.
fn check_judged_field(
    tool: Tool,
    result: &At<ResultMap>,
    unobservable: &impl Fn(Field) -> bool,
    error: &mut impl FnMut(Position, String),
) {
    let needs = match tool {
        Tool::Ls => result.entries.is_some(),
        Tool::Glob => result.files.is_some(),
        Tool::Grep | Tool::Ripgrep => result.matches.is_some(),
        Tool::Shell => result.output.is_some(),
        Tool::Resolve => result.kind.is_some(),
        // Every successful read is judged on its content (FILE-5): a rule
        // reads it, or the profile says the tool cannot show it, so a
        // forgotten rule is not mistaken for "unobservable".
        Tool::ReadFile => result.content.is_some() || unobservable(Field::Content),
        // Judged on the fixture (what was written) and on the answer's
        // outcome, kind and path: no part of the text is required.
        Tool::WriteFile | Tool::Edit => true,
    };
    if needs {
        return;
    }
    let message = match tool {
        Tool::ReadFile => format!(
            "`tools.{tool}.result` needs `content` (`content: text`), or `content` in `tools.{tool}.unobservable`: every successful read is judged on it"
        ),
        _ => {
            // The result rule named after the field it reads.
            let rule = match tool {
                Tool::Ls => Field::Entries,
                Tool::Glob => Field::Files,
                Tool::Grep | Tool::Ripgrep => Field::Matches,
                Tool::Shell => Field::Output,
                _ => Field::Kind,
            };
            format!("`tools.{tool}.result` needs `{rule}`: every {tool} case is judged on it")
        }
    };
    error(result.place, message);
}

/// Every successful answer but the shell's (whose directory `output`
/// composes) is judged on its kind and path: a mapping that gives no
/// rule for one, and does not call it unobservable, fails every such
/// case on `(missing)` (issue 34: the guide's own grep example did, 132
/// instances of one server). The message says the three ways out.
fn check_kind_and_path(
    tool: Tool,
    result: &At<ResultMap>,
    unobservable: &impl Fn(Field) -> bool,
    error: &mut impl FnMut(Position, String),
) {
    let missing: Vec<String> = [
        (Field::Kind, result.kind.is_some()),
        (Field::Path, result.path.is_some()),
    ]
    .into_iter()
    .filter(|&(field, given)| tool != Tool::Shell && !given && !unobservable(field))
    .map(|(field, _)| format!("`{field}`"))
    .collect();
    if missing.is_empty() {
        return;
    }
    let always = match tool {
        Tool::ReadFile | Tool::WriteFile | Tool::Edit => "file",
        _ => "directory",
    };
    let composed: Vec<String> = missing
        .iter()
        .map(|field| match field.as_str() {
            "`kind`" => format!("`kind: {{always: {always}}}`"),
            _ => "`path: request`".to_owned(),
        })
        .collect();
    let it = if missing.len() == 1 { "it" } else { "them" };
    error(
        result.place,
        format!(
            "`tools.{tool}.result` reads no {}: every successful {tool} case is judged on {it}. Read {it} from the text, compose {it} ({}, judged as not observable), or name {it} in `tools.{tool}.unobservable`",
            missing.join(" or "),
            composed.join(" and ")
        ),
    );
}

/// Rules given where they are never read: `content` on another tool than
/// `read_file`, and a template beside renames (the template places every
/// parameter it names, so the renames would be silently dropped).
fn check_rule_places(
    tool: Tool,
    entry: &ToolEntry,
    result: &ResultMap,
    error: &mut impl FnMut(Position, String),
) {
    if let Some(content) = &result.content
        && tool != Tool::ReadFile
    {
        error(
            content.place,
            format!("`tools.{tool}.result.content` is for `read_file` only"),
        );
    }
    if let Some(arguments) = &entry.arguments
        && let Some(template) = &arguments.template
        && !arguments.rename.is_empty()
    {
        error(
            template.place,
            format!(
                "`tools.{tool}.arguments`: give `template` or `rename`, not both (a template places every parameter it names)"
            ),
        );
    }
}

/// Each line pattern has the named group its value is read from (a
/// requested file's `line`, a file's `path`, a session's `session`):
/// without it the rule would match and read nothing.
fn check_groups(tool: Tool, result: &ResultMap, error: &mut impl FnMut(Position, String)) {
    if let Some(matches) = &result.matches
        && let Some(requested) = &matches.requested_file
        && !has_group(requested, "line")
    {
        error(
            requested.1,
            format!("`tools.{tool}.result.matches.requested_file` needs a `line` group"),
        );
    }
    let files_line = match &result.files {
        Some(FilesRule::Line(line)) => Some(line),
        _ => None,
    };
    for (pattern, group) in [
        (files_line, "path"),
        (result.poll.as_ref().map(|p| &p.session), "session"),
    ] {
        if let Some(p) = pattern
            && !has_group(p, group)
        {
            error(
                p.1,
                format!(
                    "`tools.{tool}.result`: `{}` has no `(?P<{group}>…)` group",
                    p.as_str()
                ),
            );
        }
    }
}

/// `entries`: lines or JSON, one of the two, that read a name (or path)
/// and a type. A rule with no type would read every entry as a file, so
/// it is refused unless the profile says the entries cannot be observed.
fn check_entries(
    tool: Tool,
    entries: &EntriesRule,
    place: Position,
    unobservable: &impl Fn(Field) -> bool,
    error: &mut impl FnMut(Position, String),
) {
    let typeless = "reads no entry type: every entry would be judged a file. Read the type, or name `entries` in `tools.{tool}.unobservable`";
    match (&entries.line, &entries.json) {
        (Some(line), None) => {
            if !(has_group(line, "name") || has_group(line, "path")) {
                error(
                    line.1,
                    format!("`tools.{tool}.result.entries.line` needs a `name` or a `path` group"),
                );
            }
            if !has_group(line, "type") && !unobservable(Field::Entries) {
                let why = typeless.replace("{tool}", tool.name());
                error(
                    line.1,
                    format!("`tools.{tool}.result.entries.line` has no `type` group: it {why}"),
                );
            }
        }
        (None, Some(json)) => {
            check_json(tool, "entries", json, &[], &["line", "text"], error);
            if json.name.is_none() && json.path.is_none() {
                error(
                    json.place,
                    format!("`tools.{tool}.result.entries.json` needs `name` or `path`"),
                );
            }
            if json.entry_type.is_none() && !unobservable(Field::Entries) {
                let why = typeless.replace("{tool}", tool.name());
                error(
                    json.place,
                    format!("`tools.{tool}.result.entries.json` has no `type`: it {why}"),
                );
            }
        }
        _ => error(
            place,
            format!("`tools.{tool}.result.entries` needs exactly one of `line` and `json`"),
        ),
    }
}

/// `matches`: lines (one level or two, and a pattern for a search of one
/// file) or JSON, that read a path, a line number and its text. A rule
/// with no text would read every match's text as empty, so it is refused
/// unless the profile says the text cannot be observed.
fn check_matches(
    tool: Tool,
    matches: &MatchesRule,
    place: Position,
    unobservable: &impl Fn(Field) -> bool,
    error: &mut impl FnMut(Position, String),
) {
    let textless = !(unobservable(Field::MatchesText) || unobservable(Field::Matches));
    let why = format!(
        "every match's text would be judged empty. Read the text, or name `matches.text` in `tools.{tool}.unobservable`"
    );
    match (&matches.line, &matches.json) {
        (Some(line), None) => {
            let path_given = matches.file.as_ref().is_some_and(|f| has_group(f, "path"))
                || has_group(line, "path");
            if !(path_given && has_group(line, "line")) {
                error(
                    line.1,
                    format!(
                        "`tools.{tool}.result.matches` needs `path` (in `file` or `line`) and `line` groups"
                    ),
                );
            }
            let patterns = [
                Some(("line", line)),
                matches
                    .requested_file
                    .as_ref()
                    .map(|r| ("requested_file", r)),
            ];
            for (key, pattern) in patterns.into_iter().flatten() {
                if textless && !has_group(pattern, "text") {
                    error(
                        pattern.1,
                        format!("`tools.{tool}.result.matches.{key}` has no `text` group: {why}"),
                    );
                }
            }
        }
        (None, Some(json)) => {
            check_json(
                tool,
                "matches",
                json,
                &["path", "line"],
                &["name", "type"],
                error,
            );
            let also = [
                matches.file.as_ref().map(|p| ("file", p.1)),
                matches
                    .requested_file
                    .as_ref()
                    .map(|p| ("requested_file", p.1)),
            ];
            for (key, at) in also.into_iter().flatten() {
                error(
                    at,
                    format!("`tools.{tool}.result.matches.{key}` is for line patterns, not `json`"),
                );
            }
            if json.text.is_none() && textless {
                error(
                    json.place,
                    format!("`tools.{tool}.result.matches.json` has no `text`: {why}"),
                );
            }
        }
        _ => error(
            place,
            format!("`tools.{tool}.result.matches` needs exactly one of `line` and `json`"),
        ),
    }
}

/// A JSON rule of `rule` (`entries`, `files`, `matches`): the pointers it
/// needs given, and none of those its tool's results do not have.
fn check_json(
    tool: Tool,
    rule: &str,
    json: &At<JsonItems>,
    needs: &[&str],
    foreign: &[&str],
    error: &mut impl FnMut(Position, String),
) {
    let given = json.given();
    for key in needs {
        if !given.iter().any(|(k, _)| k == key) {
            error(
                json.place,
                format!(
                    "`tools.{tool}.result.{rule}.json` needs `{key}` (a JSON Pointer into each item)"
                ),
            );
        }
    }
    let foreign: Vec<String> = (given.iter())
        .filter(|(key, _)| foreign.contains(key) || (rule == "files" && *key != "path"))
        .map(|(key, _)| format!("`{key}`"))
        .collect();
    if !foreign.is_empty() {
        error(
            json.place,
            format!(
                "`tools.{tool}.result.{rule}.json`: {} name no field of `{rule}`",
                foreign.join(", ")
            ),
        );
    }
}

fn has_group(pattern: &Pattern, name: &str) -> bool {
    pattern.0.capture_names().flatten().any(|n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A profile for one tool (`resolve`), its server started as `python3
    /// fake.py`: [`MINIMAL_PROFILE`].
    const MINIMAL: &str = super::MINIMAL_PROFILE;

    fn parse(text: &str) -> Result<Profile, CaseErrors> {
        Loaded::parse(Path::new("p.yaml"), text)
    }

    /// Every error of `text`, as `line:column: message`.
    fn errors(text: &str) -> Vec<String> {
        parse(text)
            .unwrap_err()
            .iter()
            .map(|e| format!("{}:{}: {}", e.line, e.column, e.message))
            .collect()
    }

    /// `MINIMAL` with the line `grep: ...` replaced by `with`.
    fn grep(with: &str) -> String {
        MINIMAL.replace("  grep: {none: \"no content search\"}", with)
    }

    #[test]
    fn a_minimal_profile_reads() {
        let p = parse(MINIMAL).unwrap();
        assert_eq!(*p.roots.via, RootsVia::Mcp);
        assert!(matches!(p.tools[&Tool::Grep], ToolMap::None(_)));
        let ToolMap::Tool(resolve) = &p.tools[&Tool::Resolve] else {
            panic!("a tool")
        };
        assert_eq!(resolve.tool, "get_file_info");
        assert_eq!(p.tools.len(), Tool::ALL.len());
    }

    #[test]
    fn mistakes_are_found_at_load_with_their_place() {
        let bad_regex = MINIMAL.replace("'^isFile: true$'", "'(unclosed'");
        let e = parse(&bad_regex).unwrap_err();
        assert!(
            e.first().message.contains("not a regular expression"),
            "{e}"
        );
        assert!(e.first().line > 1, "{e}");
        let unknown_key =
            MINIMAL.replace("relative_paths: roots", "relative_paths: roots\nextra: 1");
        assert!(
            parse(&unknown_key)
                .unwrap_err()
                .first()
                .message
                .contains("extra")
        );
        let no_rule = MINIMAL.replace(
            "  ls: {none: \"no listing\"}",
            "  ls: {tool: list, result: {kind: {always: directory}, path: request}}",
        );
        assert_eq!(
            errors(&no_rule),
            ["16:28: `tools.ls.result` needs `entries`: every ls case is judged on it"]
        );
        let field = MINIMAL.replace(
            "relative_paths: roots",
            "relative_paths: roots\nunobservable: [colour]",
        );
        assert_eq!(
            errors(&field),
            [
                "7:16: `unobservable`: unknown field `colour` (known: outcome, kind, path, parent, cwd, output, matches, matches.path, matches.text, notes, files, files.path, entries, entries.path, content, model_text, error.code, error.message)"
            ]
        );
        // A profile names the fields an adapter's `hello` may: a listing
        // that never names the directory it listed, a search that names
        // files but not where they are.
        let paths = MINIMAL.replace(
            "relative_paths: roots",
            "relative_paths: roots\nunobservable: [entries.path, matches.path]",
        );
        assert_eq!(parse(&paths).unwrap().unobservable.len(), 2);
        let version = MINIMAL.replace("profile: 1", "profile: 2");
        assert_eq!(
            errors(&version),
            ["2:10: `profile: 2`: this build reads profile format 1"]
        );
    }

    /// The semantic checks name the line and column of what they are
    /// about, not the top of the file, and every mistake is listed.
    #[test]
    fn every_semantic_mistake_is_named_at_its_key() {
        let no_flag = MINIMAL.replace("{via: mcp}", "{via: flag}");
        assert_eq!(
            errors(&no_flag),
            ["5:14: `roots.via: flag` needs `roots.flag`"]
        );
        let both = MINIMAL.replace(
            "relative_paths: roots",
            "relative_paths: roots\nerrors:\n  codes:\n    - {errno: ENOENT, code: not_found}\n    - {message: x, errno: ENOENT, code: not_found}",
        );
        assert_eq!(
            errors(&both),
            ["10:7: `errors.codes[1]` needs exactly one of `message` and `errno`"]
        );
        let feature = MINIMAL.replace(
            "relative_paths: roots",
            "relative_paths: roots\nfeatures: [symlinks, fifo]",
        );
        assert_eq!(
            errors(&feature),
            ["7:22: `features`: unknown feature `fifo` (known: symlinks, fifos, sockets, devices)"]
        );
        let unnamed = MINIMAL.replace(
            "  ls: {none: \"no listing\"}",
            "  ls:\n    tool: list\n    result:\n      entries: {line: '^\\[(?P<type>FILE|DIR)\\] (.*)$'}\n      kind: {always: directory}\n      path: request",
        );
        assert_eq!(
            errors(&unnamed),
            ["19:23: `tools.ls.result.entries.line` needs a `name` or a `path` group"]
        );
        let none_and_tool = grep("  grep: {none: \"no content search\", tool: search_files}");
        assert_eq!(
            errors(&none_and_tool),
            ["13:43: `tools.grep`: `none` says no tool fits; `tool` cannot be given with it"]
        );
        let no_tool = MINIMAL.replace("{via: mcp}", "{via: tool}");
        assert_eq!(
            errors(&no_tool),
            ["5:14: `roots.via: tool` needs `roots.tool`"]
        );
        let unplaced = MINIMAL.replace(
            "{via: mcp}",
            "{via: tool, tool: {name: set, arguments: {dirs: \"{root}\"}}}",
        );
        assert_eq!(
            errors(&unplaced),
            [
                "5:26: `roots.tool.arguments` never places `{roots}`: the tool would not be given the roots"
            ]
        );
        // All at once, in the file's order.
        let all = no_flag.replace(
            "relative_paths: roots",
            "relative_paths: roots\nfeatures: [fifo]",
        );
        assert_eq!(
            errors(&all),
            [
                "5:14: `roots.via: flag` needs `roots.flag`",
                "7:12: `features`: unknown feature `fifo` (known: symlinks, fifos, sockets, devices)",
            ]
        );
    }

    /// A profile that leaves a suite tool out says which ones: each needs
    /// a server tool or `none` with the reason.
    #[test]
    fn a_profile_that_leaves_tools_out_names_them() {
        let partial = MINIMAL
            .replace("  shell: {none: \"no commands\"}\n", "")
            .replace("  edit: {none: \"no edits\"}\n", "");
        assert_eq!(
            errors(&partial),
            [
                "8:3: `tools` has no entry for `shell`, `edit`: give each the server tool that stands for it, or `none` with the reason no tool fits"
            ]
        );
    }

    #[test]
    fn a_read_needs_its_content_rule_and_a_template_is_checked_at_load() {
        let read = |entry: &str| MINIMAL.replace("  read_file: {none: \"no reads\"}", entry);
        let e = errors(&read(
            "  read_file: {tool: read, result: {kind: {always: file}, path: request}}",
        ));
        assert_eq!(
            e,
            [
                "18:35: `tools.read_file.result` needs `content` (`content: text`), or `content` in `tools.read_file.unobservable`: every successful read is judged on it"
            ]
        );
        let p = parse(&read(
            "  read_file: {tool: read, result: {kind: {always: file}, path: request, content: text}}",
        ))
        .unwrap();
        let ToolMap::Tool(reading) = &p.tools[&Tool::ReadFile] else {
            panic!("a tool")
        };
        assert!(matches!(
            reading.result.content.as_deref(),
            Some(ContentRule::Text)
        ));
        parse(&read(
            "  read_file: {tool: read, unobservable: [content, kind, path], result: {}}",
        ))
        .expect("content declared unobservable");
        let write = MINIMAL.replace(
            "  write_file: {none: \"no writes\"}",
            "  write_file: {tool: write, result: {content: text, kind: {always: file}, path: request}}",
        );
        assert_eq!(
            errors(&write),
            ["19:47: `tools.write_file.result.content` is for `read_file` only"]
        );
        let edit = |entry: &str| MINIMAL.replace("  edit: {none: \"no edits\"}", entry);
        let both = "  edit: {tool: e, arguments: {rename: {file_path: path}, template: {path: \"{file_path}\"}}, result: {kind: {always: file}, path: request}}";
        assert_eq!(
            errors(&edit(both)),
            [
                "20:68: `tools.edit.arguments`: give `template` or `rename`, not both (a template places every parameter it names)"
            ]
        );
        let spliced = "  edit:\n    tool: e\n    arguments: {template: {path: \"/w/{file_path}\"}}\n    result: {}";
        let e = parse(&edit(spliced)).unwrap_err();
        assert!(
            e.first().message.contains("must be the whole string"),
            "{e}"
        );
        assert!(e.first().line > 1, "the template's line: {e}");
        let nested = "  edit:\n    tool: e\n    arguments: {template: {path: \"{file_path|absolute_path}\", edits: [{oldText: \"{old_string}\"}]}}\n    result: {kind: {always: file}, path: request}";
        let p = parse(&edit(nested)).unwrap();
        let ToolMap::Tool(editing) = &p.tools[&Tool::Edit] else {
            panic!("a tool")
        };
        assert_eq!(editing.arguments.suite_name_of("path"), "file_path");
        assert_eq!(editing.arguments.suite_name_of("edits"), "edits");
    }

    /// Issue 34 item 3: the guide's own grep example read no `kind` and no
    /// `path`, lint took it, and 132 instances of one server failed on
    /// `kind: (missing)`. Every tool but the shell is judged on both: a
    /// mapping reads them, composes them, or calls them unobservable; and
    /// a match rule for a search of one file needs its `line` group.
    #[test]
    fn a_mapping_that_reads_no_kind_or_path_is_refused_at_load() {
        let guide = "  grep:\n    tool: search_files_content\n    result:\n      matches: {file: '^(?P<path>/.*)$', line: '^  (?P<line>\\d+):\\d+: (?P<text>.*)$'}\n      empty: '^No matches found$'";
        assert_eq!(
            errors(&grep(guide)),
            [
                "16:7: `tools.grep.result` reads no `kind` or `path`: every successful grep case is judged on them. Read them from the text, compose them (`kind: {always: directory}` and `path: request`, judged as not observable), or name them in `tools.grep.unobservable`"
            ]
        );
        let composed = guide.replace(
            "    result:\n",
            "    result:\n      kind: {always: directory}\n      path: request\n",
        );
        parse(&grep(&composed)).expect("composed");
        let unobservable = guide.replace(
            "    result:\n",
            "    unobservable: [kind]\n    result:\n      path: request\n",
        );
        parse(&grep(&unobservable)).expect("kind unobservable, path composed");
        let kind_only = guide.replace(
            "    result:\n",
            "    result:\n      kind: {always: directory}\n",
        );
        assert!(
            errors(&grep(&kind_only))[0]
                .contains("reads no `path`: every successful grep case is judged on it"),
            "{:?}",
            errors(&grep(&kind_only))
        );
        let shell = MINIMAL.replace(
            "  shell: {none: \"no commands\"}",
            "  shell: {tool: run, result: {output: text}}",
        );
        parse(&shell).expect("the shell's directory is composed by `output`");
        let one_file = composed
            .replace("      empty:", "      relative_to: base\n      empty:")
            .replace(
                "(?P<text>.*)$'}",
                "(?P<text>.*)$', requested_file: '^(?P<text>.*)$'}",
            );
        let found = errors(&grep(&one_file));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].ends_with("`tools.grep.result.matches.requested_file` needs a `line` group"),
            "{found:?}"
        );
        parse(&grep(&one_file.replace(
            "'^(?P<text>.*)$'}",
            "'^(?P<line>\\d+):(?P<text>.*)$'}",
        )))
        .expect("a line group");
    }

    /// Issue 44: a `matches` rule with no text and an `entries` rule with
    /// no type were accepted, and the run judged every match's text as
    /// `""` (every entry a file). Refused at load, at the rule's line,
    /// unless the profile names the field it cannot observe.
    #[test]
    fn a_rule_that_cannot_observe_what_it_claims_is_refused_at_load() {
        let search = |matches: &str, unobservable: &str| {
            grep(&format!(
                "  grep:\n    tool: s\n    unobservable: [kind, path{unobservable}]\n    result:\n      matches: {matches}"
            ))
        };
        let textless = "{line: '^(?P<path>/[^:]*):(?P<line>\\d+)$'}";
        assert_eq!(
            errors(&search(textless, "")),
            [
                "17:23: `tools.grep.result.matches.line` has no `text` group: every match's text would be judged empty. Read the text, or name `matches.text` in `tools.grep.unobservable`"
            ]
        );
        parse(&search(textless, ", matches.text")).expect("its text said unobservable");
        let one_file = "{line: '^(?P<path>/[^:]*):(?P<line>\\d+):(?P<text>.*)$', requested_file: '^(?P<line>\\d+)$'}";
        let found = errors(&search(one_file, ""));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains("`tools.grep.result.matches.requested_file` has no `text` group"),
            "{found:?}"
        );
        let list = |entries: &str, unobservable: &str| {
            MINIMAL.replace(
                "  ls: {none: \"no listing\"}",
                &format!("  ls:\n    tool: list\n    unobservable: [kind, path{unobservable}]\n    result:\n      entries: {entries}"),
            )
        };
        let typeless = "{line: '^(?P<name>.*)$'}";
        assert_eq!(
            errors(&list(typeless, "")),
            [
                "20:23: `tools.ls.result.entries.line` has no `type` group: it reads no entry type: every entry would be judged a file. Read the type, or name `entries` in `tools.ls.unobservable`"
            ]
        );
        parse(&list(typeless, ", entries")).expect("its entries said unobservable");
        let json = "{json: {items: /entries, name: /name}}";
        let found = errors(&list(json, ""));
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].starts_with("20:23: `tools.ls.result.entries.json` has no `type`"),
            "{found:?}"
        );
    }

    /// The JSON form of `entries`, `files` and `matches`: pointers per
    /// field of each item, each rule with the fields its results have.
    #[test]
    fn json_rules_read_pointers_per_field_and_are_checked_at_load() {
        let list = |entries: &str| {
            MINIMAL.replace(
                "  ls: {none: \"no listing\"}",
                &format!("  ls:\n    tool: list\n    unobservable: [kind, path]\n    result:\n      entries: {entries}"),
            )
        };
        let p = parse(&list(
            "{json: {items: /entries, name: /name, type: /isDirectory}, types: {'true': directory, 'false': file}}",
        ))
        .unwrap();
        let ToolMap::Tool(ls) = &p.tools[&Tool::Ls] else {
            panic!("a tool")
        };
        let json = ls.result.entries.as_ref().unwrap().json.as_ref().unwrap();
        assert_eq!(json.items, "/entries");
        assert_eq!(json.given(), [("name", "/name"), ("type", "/isDirectory")]);
        let both = "{line: '^(?P<type>.) (?P<name>.*)$', json: {items: '', name: /n, type: /t}}";
        assert_eq!(
            errors(&list(both)),
            ["20:7: `tools.ls.result.entries` needs exactly one of `line` and `json`"]
        );
        let foreign = "{json: {items: '', name: /n, type: /t, text: /x}}";
        assert_eq!(
            errors(&list(foreign)),
            ["20:23: `tools.ls.result.entries.json`: `text` name no field of `entries`"]
        );
        let no_pointer = "{json: {items: entries, name: /n, type: /t}}";
        let e = parse(&list(no_pointer)).unwrap_err();
        assert!(e.first().message.contains("no JSON Pointer"), "{e}");
        let search = |matches: &str| {
            grep(&format!(
                "  grep:\n    tool: s\n    unobservable: [kind, path]\n    result:\n      matches: {matches}"
            ))
        };
        parse(&search(
            "{json: {items: /hits, path: /file, line: /line, text: /text}}",
        ))
        .expect("a JSON search");
        let found = errors(&search(
            "{json: {items: /hits, line: /line}, requested_file: '^(?P<line>\\d+):(?P<text>.*)$'}",
        ));
        assert_eq!(found.len(), 3, "{found:?}");
        assert!(
            found[0].ends_with(
                "`tools.grep.result.matches.json` needs `path` (a JSON Pointer into each item)"
            ),
            "{found:?}"
        );
        assert!(
            found[1].contains("`tools.grep.result.matches.json` has no `text`"),
            "{found:?}"
        );
        assert!(
            found[2].ends_with(
                "`tools.grep.result.matches.requested_file` is for line patterns, not `json`"
            ),
            "{found:?}"
        );
        let glob = |files: &str| {
            MINIMAL.replace(
                "  glob: {none: \"no search by name\"}",
                &format!("  glob:\n    tool: find\n    unobservable: [kind, path]\n    result:\n      files: {files}"),
            )
        };
        let p = parse(&glob("{json: {items: /files, path: ''}}")).unwrap();
        let ToolMap::Tool(find) = &p.tools[&Tool::Glob] else {
            panic!("a tool")
        };
        assert!(
            matches!(&find.result.files, Some(FilesRule::Json(j)) if j.path.as_deref() == Some(""))
        );
        assert!(matches!(
            &parse(&glob("'^(?P<path>.*)$'")).unwrap().tools[&Tool::Glob],
            ToolMap::Tool(t) if matches!(t.result.files, Some(FilesRule::Line(_)))
        ));
        let found = errors(&glob("{json: {items: /files, name: /n}}"));
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(
            found[0].ends_with(
                "`tools.glob.result.files.json` needs `path` (a JSON Pointer into each item)"
            ),
            "{found:?}"
        );
        let e = parse(&glob("{jsn: {items: /files, path: ''}}")).unwrap_err();
        assert!(e.first().message.contains("unknown key `jsn`"), "{e}");
        assert!(e.first().line > 1, "{e}");
        let e = parse(&glob("'(unclosed'")).unwrap_err();
        assert!(
            e.first().message.contains("not a regular expression"),
            "{e}"
        );
    }

    #[test]
    fn errnos_are_named_in_any_spelling_but_not_inside_words() {
        assert!(Errno::ENOENT.named_in("ENOENT: no such file or directory, stat '/x'"));
        assert!(Errno::ENOENT.named_in("No such file or directory (os error 2)"));
        assert!(Errno::ENOENT.named_in("[Errno 2] No such file"));
        assert!(Errno::EACCES.named_in("permission denied"));
        assert!(!Errno::ENOENT.named_in("XENOENTX"));
        assert!(!Errno::ENOTDIR.named_in("a directory"));
    }

    /// Issue 30 item 4: the paths a profile names for the harness to read
    /// or write stay inside their directory; lint says so at the key.
    #[test]
    fn profile_paths_outside_their_directory_are_refused_at_their_line() {
        let config = |file: &str| {
            MINIMAL.replace(
                "roots: {via: mcp}",
                &format!("roots:\n  via: config\n  config:\n    file: {file}\n    key: dirs"),
            )
        };
        for bad in ["/etc/cron.d/x", "../../x", "a/../../x", "./x", "''"] {
            let found = errors(&config(bad));
            assert_eq!(found.len(), 1, "{bad}: {found:?}");
            assert!(
                found[0].starts_with("8:11: `roots.config.file: "),
                "{found:?}"
            );
            assert!(
                found[0].contains("inside the server's private HOME"),
                "{found:?}"
            );
        }
        assert!(parse(&config(".config/app/config.json")).is_ok());
        let version = |file: &str| {
            MINIMAL.replace(
                r#"version: {text: "1.0"}"#,
                &format!("version: {{package_json: {file}}}"),
            )
        };
        for bad in ["/dev/zero", "../package.json", "''"] {
            let found = errors(&version(bad));
            assert_eq!(found.len(), 1, "{bad}: {found:?}");
            assert!(found[0].starts_with("3:"), "{found:?}");
            assert!(
                found[0].contains("inside the profile's directory"),
                "{found:?}"
            );
        }
        assert!(parse(&version("node_modules/x/package.json")).is_ok());
    }
}
