//! Validated cases: what the rest of toolpath works with.
//!
//! [`load_case`] parses a case file into the raw types of [`crate::case`] and
//! checks everything a schema cannot: requirement IDs exist, fixture paths
//! stay inside the fixture directory, features match the fixture, and
//! expectations are consistent. Every error names the file, line and column.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use base64::Engine;
use serde_json::{Map, Value};
use serde_saphyr::{Location, Spanned};

use crate::case::raw::{
    ExpectedOutcome, Feature, FileContent, RawCase, RawExpect, SpannedMap, ToolSelector,
};
use crate::protocol::{ErrorCode, Kind, Tool};

/// The tags a case may carry (documented in `cases/README.md`).
pub const KNOWN_TAGS: &[&str] = &[
    "change-a",
    "change-b",
    "change-c",
    "compat",
    "security",
    "errors",
    "edge",
    "multi-root",
];

/// A case file that could not be read or is not a valid case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseError {
    pub file: PathBuf,
    /// 1-based; 0 when the problem has no position (an unreadable file).
    pub line: u64,
    pub column: u64,
    pub message: String,
}

impl fmt::Display for CaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file.display(), self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file.display(),
                self.line,
                self.column,
                self.message
            )
        }
    }
}

impl std::error::Error for CaseError {}

impl CaseError {
    /// A file that could not be read at all (no position).
    pub fn unreadable(file: &Path, error: &std::io::Error) -> CaseError {
        CaseError {
            file: file.to_owned(),
            line: 0,
            column: 0,
            message: format!("cannot read: {error}"),
        }
    }

    /// A YAML or schema error, at the position serde-saphyr reports, in its
    /// own words without the source snippet (our prefix names the place).
    pub fn from_yaml(file: &Path, error: &serde_saphyr::Error) -> CaseError {
        let (line, column) = error.location().map_or((1, 1), |l| (l.line(), l.column()));
        let rendered = error.without_snippet().to_string();
        let first = rendered.lines().next().unwrap_or("invalid YAML").trim();
        // Drop a trailing " at line X, column Y": the prefix says it already.
        let message = first
            .rfind(" at line ")
            .map_or(first, |cut| &first[..cut])
            .to_owned();
        CaseError {
            file: file.to_owned(),
            line,
            column,
            message,
        }
    }
}

/// A path inside the fixture directory: relative, `/`-separated, and free of
/// `.`, `..` and empty segments, so joining it can never leave the directory.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FixturePath(String);

impl FixturePath {
    pub fn parse(text: &str) -> Result<FixturePath, String> {
        if text.is_empty() {
            return Err("empty path".into());
        }
        if text.starts_with('/') {
            return Err(format!(
                "`{text}` is absolute; fixture paths are relative to the fixture directory"
            ));
        }
        if text.contains('\0') {
            return Err(format!("`{}` contains a NUL byte", text.escape_debug()));
        }
        for segment in text.split('/') {
            match segment {
                "" => return Err(format!("`{text}` has an empty segment")),
                "." => return Err(format!("`{text}` has a `.` segment")),
                ".." => return Err(format!("`{text}` escapes the fixture directory with `..`")),
                _ => {}
            }
        }
        Ok(FixturePath(text.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `self` is `other` or lies below it.
    pub fn is_within(&self, other: &FixturePath) -> bool {
        self.0 == other.0
            || self
                .0
                .strip_prefix(&other.0)
                .is_some_and(|rest| rest.starts_with('/'))
    }
}

impl fmt::Display for FixturePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The workspace a case builds on disk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fixture {
    pub roots: Vec<FixturePath>,
    pub target: FixturePath,
    pub files: Vec<(FixturePath, Vec<u8>)>,
    pub dirs: Vec<FixturePath>,
    pub symlinks: Vec<(FixturePath, String)>,
    pub fifos: Vec<FixturePath>,
    pub sockets: Vec<FixturePath>,
    pub devices: Vec<FixturePath>,
    pub modes: Vec<(FixturePath, u32)>,
}

impl Default for FixturePath {
    fn default() -> Self {
        FixturePath("ws".into())
    }
}

/// What the case does with the tool.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Call the tool with these parameters (placeholders not yet expanded).
    Invoke(Map<String, Value>),
    /// Check the description of this parameter in the tool's published schema.
    Describe(String),
}

/// An expected match: a file and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ExpectedMatch {
    pub path: String,
    pub line: u64,
}

/// The expected error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorExpect {
    pub code: ErrorCode,
    pub message_contains: Vec<String>,
}

/// What the case expects; `None` fields are not checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expect {
    pub outcome: ExpectedOutcome,
    pub kind: Option<Kind>,
    pub path: Option<String>,
    pub parent: Option<String>,
    pub cwd: Option<String>,
    pub matches: Option<Vec<ExpectedMatch>>,
    pub notes: Option<Vec<String>>,
    pub error: Option<ErrorExpect>,
    pub mentions: Option<Vec<String>>,
    pub excludes: Option<Vec<String>>,
}

/// A valid case.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub id: String,
    pub file: PathBuf,
    /// Line of the `id:` field, for reports that point into the file.
    pub line: u64,
    pub summary: String,
    pub spec: Vec<String>,
    pub tags: Vec<String>,
    pub requires: BTreeSet<Feature>,
    pub fixture: Fixture,
    pub tools: Vec<Tool>,
    pub action: Action,
    pub expect: Expect,
}

/// One case run against one tool: what reports and expectations files name.
#[derive(Debug, Clone, Copy)]
pub struct Instance<'a> {
    pub case: &'a Case,
    pub tool: Tool,
}

impl Instance<'_> {
    /// `ID` for single-tool cases, `ID@TOOL` for cases that run against several.
    pub fn id(&self) -> String {
        if self.case.tools.len() > 1 {
            format!("{}@{}", self.case.id, self.tool)
        } else {
            self.case.id.clone()
        }
    }
}

impl Case {
    pub fn instances(&self) -> impl Iterator<Item = Instance<'_>> {
        self.tools
            .iter()
            .map(move |&tool| Instance { case: self, tool })
    }
}

/// Reads and validates the case file at `file`.
pub fn load_case(file: &Path) -> Result<Case, CaseError> {
    let text = std::fs::read_to_string(file).map_err(|e| CaseError::unreadable(file, &e))?;
    parse_case(file, &text)
}

/// Validates case text; `file` is used in error messages only.
pub fn parse_case(file: &Path, text: &str) -> Result<Case, CaseError> {
    let raw: RawCase = serde_saphyr::from_str(text).map_err(|e| CaseError::from_yaml(file, &e))?;
    Validator {
        file,
        spans: Default::default(),
    }
    .case(raw)
}

struct Validator<'a> {
    file: &'a Path,
    /// Where each fixture path was written, for errors found after parsing.
    spans: std::cell::RefCell<Vec<(FixturePath, Location)>>,
}

impl Validator<'_> {
    fn error(&self, at: Location, message: impl Into<String>) -> CaseError {
        CaseError {
            file: self.file.to_owned(),
            line: at.line(),
            column: at.column(),
            message: message.into(),
        }
    }

    fn case(&self, raw: RawCase) -> Result<Case, CaseError> {
        let id_at = raw.id.referenced;
        check_id(&raw.id.value).map_err(|m| self.error(id_at, format!("id: {m}")))?;
        if raw.spec.is_empty() {
            return Err(self.error(id_at, "spec: a case must cite at least one requirement ID"));
        }
        for req in &raw.spec {
            if !crate::spec::is_known(&req.value) {
                return Err(self.error(
                    req.referenced,
                    format!("spec: unknown requirement ID `{}`", req.value),
                ));
            }
        }
        for tag in &raw.tags {
            if !KNOWN_TAGS.contains(&tag.value.as_str()) {
                return Err(self.error(
                    tag.referenced,
                    format!(
                        "tags: unknown tag `{}` (known: {})",
                        tag.value,
                        KNOWN_TAGS.join(", ")
                    ),
                ));
            }
        }
        let fixture = self.fixture(raw.fixture, id_at)?;
        let (tools, action) = self.call(raw.call, id_at)?;
        let expect = self.expect(raw.expect, &action, id_at)?;
        let requires = self.requires(&raw.requires, &fixture, &action, id_at)?;
        Ok(Case {
            id: raw.id.value,
            file: self.file.to_owned(),
            line: id_at.line(),
            summary: raw.summary,
            spec: raw.spec.into_iter().map(|s| s.value).collect(),
            tags: raw.tags.into_iter().map(|s| s.value).collect(),
            requires,
            fixture,
            tools,
            action,
            expect,
        })
    }

    fn path(&self, field: &str, spanned: &Spanned<String>) -> Result<FixturePath, CaseError> {
        let path = FixturePath::parse(&spanned.value)
            .map_err(|m| self.error(spanned.referenced, format!("{field}: {m}")))?;
        self.spans
            .borrow_mut()
            .push((path.clone(), spanned.referenced));
        Ok(path)
    }

    /// Where `path` was last written in the file (the case's `id` if nowhere).
    fn span_of(&self, path: &FixturePath, fallback: Location) -> Location {
        let spans = self.spans.borrow();
        spans
            .iter()
            .rev()
            .find(|(p, _)| p == path)
            .map_or(fallback, |(_, at)| *at)
    }

    fn paths(&self, field: &str, list: &[Spanned<String>]) -> Result<Vec<FixturePath>, CaseError> {
        list.iter().map(|p| self.path(field, p)).collect()
    }

    fn fixture(
        &self,
        raw: crate::case::raw::RawFixture,
        id_at: Location,
    ) -> Result<Fixture, CaseError> {
        let roots = self.paths("fixture.roots", &raw.roots)?;
        if let Some(clash) = raw
            .roots
            .iter()
            .find(|r| crate::case::placeholders::RESERVED.contains(&r.value.as_str()))
        {
            return Err(self.error(
                clash.referenced,
                format!(
                    "fixture.roots: a root named `{}` would make the placeholder `{{{}}}` mean two directories; rename the root",
                    clash.value, clash.value
                ),
            ));
        }
        let Some(first) = roots.first().cloned() else {
            return Err(self.error(id_at, "fixture.roots: a workspace needs at least one root"));
        };
        let target = match &raw.target {
            Some(t) => {
                let target = self.path("fixture.target", t)?;
                if !roots.iter().any(|r| target.is_within(r)) {
                    return Err(self.error(
                        t.referenced,
                        format!("fixture.target: `{target}` is not a root or below one"),
                    ));
                }
                target
            }
            None => first,
        };
        let mut files = Vec::new();
        for (key, content) in raw.files.0 {
            let path = self.path("fixture.files", &key)?;
            let bytes = match content {
                FileContent::Text(text) => text.into_bytes(),
                FileContent::Base64 { base64 } => base64::engine::general_purpose::STANDARD_NO_PAD
                    .decode(base64.trim_end_matches('='))
                    .map_err(|e| {
                        self.error(
                            key.referenced,
                            format!("fixture.files: `{path}`: bad base64: {e}"),
                        )
                    })?,
            };
            files.push((path, bytes));
        }
        let symlinks = self.map("fixture.symlinks", raw.symlinks, |_, target| Ok(target))?;
        let modes = self.map("fixture.modes", raw.modes, |at, mode| {
            u32::from_str_radix(&mode, 8)
                .ok()
                .filter(|m| *m <= 0o7777 && !mode.is_empty())
                .ok_or_else(|| {
                    self.error(
                        at,
                        format!("fixture.modes: `{mode}` is not an octal mode like \"0755\""),
                    )
                })
        })?;
        let fixture = Fixture {
            roots,
            target,
            files,
            dirs: self.paths("fixture.dirs", &raw.dirs)?,
            symlinks,
            fifos: self.paths("fixture.fifos", &raw.fifos)?,
            sockets: self.paths("fixture.sockets", &raw.sockets)?,
            devices: self.paths("fixture.devices", &raw.devices)?,
            modes,
        };
        self.check_entries(&fixture, id_at)?;
        Ok(fixture)
    }

    fn map<V, T>(
        &self,
        field: &str,
        map: SpannedMap<V>,
        convert: impl Fn(Location, V) -> Result<T, CaseError>,
    ) -> Result<Vec<(FixturePath, T)>, CaseError> {
        map.0
            .into_iter()
            .map(|(key, value)| Ok((self.path(field, &key)?, convert(key.referenced, value)?)))
            .collect()
    }

    /// Two entries that create the same path would make the fixture depend on
    /// creation order, and an entry at or below one of the fixture's own
    /// symbolic links would be written through it: reject both up front.
    fn check_entries(&self, f: &Fixture, id_at: Location) -> Result<(), CaseError> {
        let created = f
            .files
            .iter()
            .map(|(p, _)| p)
            .chain(&f.dirs)
            .chain(f.symlinks.iter().map(|(p, _)| p))
            .chain(&f.fifos)
            .chain(&f.sockets)
            .chain(&f.devices);
        let mut seen = BTreeSet::new();
        for path in created {
            if !seen.insert(path) {
                return Err(self.error(
                    self.span_of(path, id_at),
                    format!("fixture: `{path}` is created twice"),
                ));
            }
        }
        let everything = f
            .roots
            .iter()
            .chain(std::iter::once(&f.target))
            .chain(seen.iter().copied())
            .chain(f.modes.iter().map(|(p, _)| p));
        for path in everything {
            for (link, _) in &f.symlinks {
                if path != link && path.is_within(link) {
                    return Err(self.error(
                        self.span_of(path, id_at),
                        format!(
                            "fixture: `{path}` would be written through the symbolic link `{link}`"
                        ),
                    ));
                }
            }
        }
        if let Some((link, _)) = f
            .symlinks
            .iter()
            .find(|(l, _)| f.modes.iter().any(|(m, _)| m == l))
        {
            return Err(self.error(
                self.span_of(link, id_at),
                format!("fixture: a mode on the symbolic link `{link}` would change its target (chmod follows links)"),
            ));
        }
        Ok(())
    }

    fn call(
        &self,
        raw: Spanned<crate::case::raw::RawCall>,
        id_at: Location,
    ) -> Result<(Vec<Tool>, Action), CaseError> {
        let at = raw.referenced;
        let raw = raw.value;
        let tools = match raw.tool {
            ToolSelector::Resolve => vec![Tool::Resolve],
            ToolSelector::Grep => vec![Tool::Grep],
            ToolSelector::Ripgrep => vec![Tool::Ripgrep],
            ToolSelector::Search => vec![Tool::Grep, Tool::Ripgrep],
            ToolSelector::Shell => vec![Tool::Shell],
        };
        let action = match raw.describe {
            Some(param) => {
                if !raw.params.is_empty() {
                    return Err(self.error(at, "call: `describe` and `params` exclude each other"));
                }
                if tools == [Tool::Resolve] {
                    return Err(self.error(
                        at,
                        "call.describe: `resolve` is not shown to models and has no schema",
                    ));
                }
                Action::Describe(param)
            }
            None => {
                if tools == [Tool::Shell] {
                    check_command(&raw.params).map_err(|m| self.error(at, m))?;
                }
                Action::Invoke(raw.params)
            }
        };
        let _ = id_at;
        Ok((tools, action))
    }

    fn expect(
        &self,
        raw: Spanned<RawExpect>,
        action: &Action,
        _id_at: Location,
    ) -> Result<Expect, CaseError> {
        let at = raw.referenced;
        let raw = raw.value;
        let describing = matches!(action, Action::Describe(_));
        let has_result_fields = raw.kind.is_some()
            || raw.path.is_some()
            || raw.parent.is_some()
            || raw.cwd.is_some()
            || raw.matches.is_some()
            || raw.notes.is_some();
        let has_describe_fields = raw.mentions.is_some() || raw.excludes.is_some();
        match raw.outcome {
            ExpectedOutcome::Ok if raw.error.is_some() => {
                return Err(self.error(at, "expect: `error` goes with `outcome: error`"));
            }
            ExpectedOutcome::Error if raw.error.is_none() => {
                return Err(self.error(at, "expect: `outcome: error` needs `error: {code: ...}`"));
            }
            ExpectedOutcome::Error if has_result_fields => {
                return Err(self.error(
                    at,
                    "expect: an error result has no kind, path, parent, cwd, matches or notes",
                ));
            }
            _ => {}
        }
        if describing
            && (has_result_fields || !has_describe_fields || raw.outcome != ExpectedOutcome::Ok)
        {
            return Err(self.error(at, "expect: a `describe` case expects `outcome: ok` with `mentions` or `excludes` only"));
        }
        if !describing && has_describe_fields {
            return Err(self.error(
                at,
                "expect: `mentions` and `excludes` go with `call.describe`",
            ));
        }
        let matches = match raw.matches {
            None => None,
            Some(list) => Some(
                list.iter()
                    .map(|m| {
                        parse_match(&m.value).ok_or_else(|| {
                            self.error(
                                m.referenced,
                                format!("expect.matches: `{}` is not PATH:LINE", m.value),
                            )
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(Expect {
            outcome: raw.outcome,
            kind: raw.kind,
            path: raw.path,
            parent: raw.parent,
            cwd: raw.cwd,
            matches,
            notes: raw.notes,
            error: raw.error.map(|e| ErrorExpect {
                code: e.code,
                message_contains: e.message_contains,
            }),
            mentions: raw.mentions,
            excludes: raw.excludes,
        })
    }

    /// The declared features must be exactly those the fixture and call use,
    /// so adapters are never sent a case they cannot build and `--tag`-style
    /// selection by feature is trustworthy.
    fn requires(
        &self,
        declared: &[Spanned<Feature>],
        fixture: &Fixture,
        action: &Action,
        id_at: Location,
    ) -> Result<BTreeSet<Feature>, CaseError> {
        let declared_set: BTreeSet<Feature> = declared.iter().map(|f| f.value).collect();
        let mut used = BTreeSet::new();
        for (feature, present) in [
            (Feature::Symlinks, !fixture.symlinks.is_empty()),
            (Feature::Fifos, !fixture.fifos.is_empty()),
            (Feature::Sockets, !fixture.sockets.is_empty()),
            (Feature::Devices, !fixture.devices.is_empty()),
            (Feature::Permissions, !fixture.modes.is_empty()),
            (Feature::Schemas, matches!(action, Action::Describe(_))),
        ] {
            if present {
                used.insert(feature);
            }
        }
        if let Some(missing) = used.difference(&declared_set).next() {
            return Err(self.error(
                id_at,
                format!(
                    "requires: the case uses `{}` but does not declare it",
                    missing.name()
                ),
            ));
        }
        if let Some(extra) = declared.iter().find(|f| !used.contains(&f.value)) {
            return Err(self.error(
                extra.referenced,
                format!(
                    "requires: `{}` is declared but the case does not use it",
                    extra.value.name()
                ),
            ));
        }
        Ok(used)
    }
}

/// The harness only ever runs `pwd` (SHELL-6 is about where, not what), so a
/// case file from a stranger cannot run anything else on the machine. A case
/// may still give a command the tool must refuse before running anything:
/// one that is empty, not a string, or contains a NUL byte.
fn check_command(params: &Map<String, Value>) -> Result<(), String> {
    match params.get("command") {
        Some(Value::String(c)) if !(c.is_empty() || c.contains('\0') || c == "pwd") => {
            Err(format!(
                "call.params.command: `{}` would run on this machine; the harness only runs `pwd` \
             (a case may give an empty command, a non-string or one with a NUL byte)",
                c.escape_debug()
            ))
        }
        _ => Ok(()),
    }
}

/// Ids are dotted lower-case words (`search.file.relative`), so they sort,
/// glob and survive as file names.
fn check_id(id: &str) -> Result<(), String> {
    let words: Vec<&str> = id.split('.').collect();
    let word_ok = |w: &&str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
            && !w.starts_with('-')
    };
    if words.len() < 2 || !words.iter().all(word_ok) {
        return Err(format!(
            "`{id}` is not dotted lower-case words like `search.file.relative`"
        ));
    }
    Ok(())
}

/// `PATH:LINE`, split at the last colon so paths may contain colons.
fn parse_match(text: &str) -> Option<ExpectedMatch> {
    let (path, line) = text.rsplit_once(':')?;
    let line: u64 = line.parse().ok().filter(|&l| l > 0)?;
    (!path.is_empty()).then(|| ExpectedMatch {
        path: path.to_owned(),
        line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "\
id: search.file.relative
summary: s
spec: [SEARCH-5]
fixture:
  roots: [ws]
  files: {ws/a.ts: \"hello\\n\"}
call:
  tool: search
  params: {pattern: hello, dir_path: a.ts}
expect:
  outcome: ok
  kind: file
  path: \"{ws}/a.ts\"
  matches: [\"{ws}/a.ts:1\"]
  notes: []
";

    fn parse(text: &str) -> Result<Case, CaseError> {
        parse_case(Path::new("cases/x.yaml"), text)
    }

    fn error_of(text: &str) -> String {
        parse(text)
            .expect_err("case should be rejected")
            .to_string()
    }

    #[test]
    fn a_good_case_expands_to_one_instance_per_search_tool() {
        let case = parse(GOOD).unwrap();
        let ids: Vec<_> = case.instances().map(|i| i.id()).collect();
        assert_eq!(
            ids,
            ["search.file.relative@grep", "search.file.relative@ripgrep"]
        );
        assert_eq!(case.fixture.target.as_str(), "ws");
        assert_eq!(
            case.expect.matches.as_ref().unwrap()[0],
            ExpectedMatch {
                path: "{ws}/a.ts".into(),
                line: 1
            }
        );
    }

    #[test]
    fn unknown_field_names_file_line_and_column() {
        let text = GOOD.replace("  kind: file", "  knd: file");
        let err = error_of(&text);
        assert!(err.starts_with("cases/x.yaml:12:3: "), "{err}");
        assert!(err.contains("knd"), "{err}");
    }

    #[test]
    fn unknown_requirement_id_is_located() {
        let err = error_of(&GOOD.replace("[SEARCH-5]", "[SEARCH-5, NOPE-1]"));
        assert!(
            err.starts_with("cases/x.yaml:3:18: spec: unknown requirement ID `NOPE-1`"),
            "{err}"
        );
    }

    #[test]
    fn hostile_fixture_paths_are_refused_with_their_location() {
        for (bad, why) in [
            ("/etc/passwd", "absolute"),
            ("../escape", "escapes the fixture directory"),
            ("ws/../../escape", "escapes"),
            ("ws//a", "empty segment"),
            ("ws/./a", "`.` segment"),
        ] {
            let err = error_of(&GOOD.replace("ws/a.ts: ", &format!("{bad}: ")));
            assert!(err.starts_with("cases/x.yaml:6:"), "{bad}: {err}");
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn features_must_match_the_fixture() {
        let with_link = GOOD.replace("  files:", "  symlinks: {ws/l: a.ts}\n  files:");
        assert!(error_of(&with_link).contains("uses `symlinks` but does not declare it"));
        let declared = GOOD.replace("fixture:", "requires: [fifos]\nfixture:");
        assert!(error_of(&declared).contains("`fifos` is declared but the case does not use it"));
    }

    #[test]
    fn inconsistent_expectations_are_refused() {
        let err = error_of(&GOOD.replace("outcome: ok", "outcome: error"));
        assert!(err.contains("needs `error"), "{err}");
        let bad_match = GOOD.replace("{ws}/a.ts:1\"", "{ws}/a.ts\"");
        assert!(error_of(&bad_match).contains("is not PATH:LINE"));
        assert!(error_of(&GOOD.replace("search.file.relative", "Search.File")).contains("id:"));
    }

    #[test]
    fn entries_through_the_fixtures_own_links_are_refused() {
        let through = GOOD
            .replace("fixture:", "requires: [symlinks]\nfixture:")
            .replace("ws/a.ts: ", "ws/out/passwd: ")
            .replace("  files:", "  symlinks: {ws/out: /etc}\n  files:");
        let err = error_of(&through);
        assert!(
            err.contains("`ws/out/passwd` would be written through the symbolic link `ws/out`"),
            "{err}"
        );
        let mode = GOOD
            .replace("fixture:", "requires: [symlinks, permissions]\nfixture:")
            .replace(
                "  files:",
                "  symlinks: {ws/l: /etc/passwd}\n  modes: {ws/l: \"0777\"}\n  files:",
            );
        assert!(error_of(&mode).contains("a mode on the symbolic link `ws/l`"));
    }

    #[test]
    fn roots_named_like_a_placeholder_are_refused() {
        for name in crate::case::placeholders::RESERVED {
            let err = error_of(&GOOD.replace("roots: [ws]", &format!("roots: [ws, {name}]")));
            assert!(
                err.starts_with("cases/x.yaml:5:") && err.contains(&format!("`{{{name}}}`")),
                "{name}: {err}"
            );
        }
    }

    #[test]
    fn target_must_lie_in_a_root() {
        let err = error_of(&GOOD.replace("  roots: [ws]", "  roots: [ws]\n  target: elsewhere"));
        assert!(
            err.contains("fixture.target: `elsewhere` is not a root or below one"),
            "{err}"
        );
    }

    #[test]
    fn fixture_path_containment_is_by_component() {
        let ws = FixturePath::parse("ws").unwrap();
        assert!(FixturePath::parse("ws/a").unwrap().is_within(&ws));
        assert!(ws.is_within(&ws));
        assert!(!FixturePath::parse("ws-evil").unwrap().is_within(&ws));
    }
}
