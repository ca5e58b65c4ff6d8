//! Validated cases: what the rest of toolpath works with.
//!
//! [`load_case`] parses a case file into the raw types of [`crate::case`] and
//! checks everything a schema cannot: requirement IDs exist, fixture paths
//! stay inside the fixture directory, features match the fixture, and
//! expectations are consistent. Every error names the file, line and column.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

pub mod compact;
pub mod load;
pub mod raw;
pub mod yaml;

use base64::Engine;
use serde_json::{Map, Value};
use serde_saphyr::{Location, Spanned};

use crate::case::raw::{
    ExpectedOutcome, Feature, FileContent, RawCase, RawExpect, SpannedMap, ToolSelector,
};
use crate::protocol::{EntryType, ErrorCode, Kind, Tool};

/// The tags a case may carry (documented in `cases/README.md`).
pub const KNOWN_TAGS: &[&str] = &[
    "change-a",
    "change-b",
    "change-c",
    "change-d",
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
    /// Control characters in the file name or message are escaped here, on
    /// the way out, so no text from a case file can start a line of its own
    /// (an id holding `\nother.yaml:1:1: ...` would forge another error).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = escape_controls(&self.file.to_string_lossy());
        let message = escape_controls(&self.message);
        if self.line == 0 {
            write!(f, "{file}: {message}")
        } else {
            write!(f, "{file}:{}:{}: {message}", self.line, self.column)
        }
    }
}

/// The most characters of one value from a case file that a message quotes.
pub const QUOTE_LIMIT: usize = 200;

/// The largest case file loaded, in bytes. The largest case in `cases/` is
/// under 1 KiB; 256 KiB leaves room for base64 file contents while keeping a
/// hostile file from costing seconds. Checked before any parsing.
pub const MAX_CASE_BYTES: usize = 256 * 1024;

/// The most YAML nodes (scalars, sequences, mappings) in one case file,
/// enforced by the parser as it goes, before any validation.
pub const MAX_CASE_NODES: usize = 20_000;

/// A value from a case file as a message quotes it: control characters
/// escaped, and cut at [`QUOTE_LIMIT`] characters with the full length, so a
/// 16 MiB value costs a line, not 16 MiB of terminal.
pub fn quote(text: &str) -> String {
    let total = text.chars().count();
    if total <= QUOTE_LIMIT {
        return escape_controls(text);
    }
    let head: String = text.chars().take(QUOTE_LIMIT).collect();
    format!("{}… ({total} characters)", escape_controls(&head))
}

/// Escapes control characters (`\n`, `\u{1b}`) and the invisible
/// characters that reorder or break lines on a terminal.
pub fn escape_controls(text: &str) -> String {
    let hostile = |c: char| {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if !text.chars().any(hostile) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hostile(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Cuts every backtick-quoted span of a message written by someone else
/// (the YAML parser quotes input) to [`QUOTE_LIMIT`], and the whole to a
/// few times that.
fn cap_quoted(message: &str) -> String {
    let mut out = String::new();
    for (i, part) in message.split('`').enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 {
            out.push_str(&quote(part));
        } else {
            out.push_str(part);
        }
    }
    let limit = 4 * QUOTE_LIMIT;
    let total = out.chars().count();
    if total > limit {
        out = format!(
            "{}… ({total} characters)",
            out.chars().take(limit).collect::<String>()
        );
    }
    out
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
        CaseError {
            file: file.to_owned(),
            line,
            column,
            message: explain_budget(cap_quoted(
                strip_position(first).trim_end_matches(SAPHYR_DUPLICATE_HINT),
            )),
        }
    }

    /// Bytes that are not UTF-8, located at the first bad byte.
    fn not_utf8(file: &Path, bytes: &[u8], error: std::str::Utf8Error) -> CaseError {
        // The prefix before the first bad byte is valid UTF-8.
        let good = std::str::from_utf8(&bytes[..error.valid_up_to()]).unwrap_or_default();
        let lines: Vec<&str> = yaml_lines(good).collect();
        let line = lines.len().max(1) as u64;
        // Columns count characters, as the parser's do.
        let column = 1 + lines.last().map_or(0, |l| l.chars().count());
        CaseError {
            file: file.to_owned(),
            line,
            column: column as u64,
            message: format!(
                "not UTF-8: byte 0x{:02x} cannot start or continue a character here",
                bytes[error.valid_up_to()]
            ),
        }
    }
}

/// The lines of `text` as YAML counts them (and so the parser's locations):
/// a line ends at CR LF, CR or LF. A lone CR ends a line too, which
/// `str::lines` would not count.
pub fn yaml_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.find(['\r', '\n']) {
            Some(i) => {
                let skip = if current[i..].starts_with("\r\n") {
                    2
                } else {
                    1
                };
                rest = Some(&current[i + skip..]);
                Some(&current[..i])
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// What serde-saphyr adds to a duplicate key error: advice for programmers
/// using the library, not for case authors.
const SAPHYR_DUPLICATE_HINT: &str = ", set DuplicateKeyPolicy in Options if acceptable";

/// The parser's budget messages name an internal counter; say what the
/// limit is and that nothing beyond it was read.
fn explain_budget(message: String) -> String {
    if message.starts_with("budget breached") {
        format!(
            "the file is too large to be a case: {message} (at most {MAX_CASE_NODES} YAML nodes; parsing stopped here)"
        )
    } else {
        message
    }
}

/// Drops the parser's own trailing " at line X, column Y" (our prefix says
/// it), and only that: "(used at line 3, column 7)" in the middle of a
/// budget message stays whole.
fn strip_position(message: &str) -> &str {
    let Some(cut) = message.rfind(" at line ") else {
        return message;
    };
    let tail = &message[cut + " at line ".len()..];
    let is_position = tail.split_once(", column ").is_some_and(|(l, c)| {
        !l.is_empty() && !c.is_empty() && l.bytes().chain(c.bytes()).all(|b| b.is_ascii_digit())
    });
    if is_position {
        &message[..cut]
    } else {
        message
    }
}

/// A path inside the fixture directory: relative, `/`-separated, and free of
/// `.`, `..` and empty segments, so joining it can never leave the directory.
// Deserialize trusts its input: it is only ever given the embedded suite,
// which the build validated (see `case::embedded`); text goes through `parse`.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
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
            return Err(format!("`{}` contains a NUL byte", quote(text)));
        }
        for segment in text.split('/') {
            match segment {
                "" => return Err(format!("`{}` has an empty segment", quote(text))),
                "." => return Err(format!("`{}` has a `.` segment", quote(text))),
                ".." => {
                    return Err(format!(
                        "`{}` escapes the fixture directory with `..`",
                        quote(text)
                    ));
                }
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
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Fixture {
    pub roots: Vec<FixturePath>,
    pub target: FixturePath,
    #[serde(with = "crate::case::compact::files")]
    pub files: Vec<(FixturePath, Vec<u8>)>,
    pub dirs: Vec<FixturePath>,
    pub symlinks: Vec<(FixturePath, String)>,
    pub fifos: Vec<FixturePath>,
    pub sockets: Vec<FixturePath>,
    pub devices: Vec<FixturePath>,
    pub modes: Vec<(FixturePath, u32)>,
    /// Roots made git repositories (a real `git init` and one commit).
    pub git: Vec<FixturePath>,
}

impl Default for FixturePath {
    fn default() -> Self {
        FixturePath("ws".into())
    }
}

/// What the case does with the tool.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// Call the tool with these parameters (placeholders not yet expanded).
    Invoke(#[serde(with = "crate::case::compact::json_text")] Map<String, Value>),
    /// Check the description of this parameter in the tool's published schema.
    Describe(String),
}

/// An expected match: a file and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct ExpectedMatch {
    pub path: String,
    pub line: u64,
}

/// The expected error.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ErrorExpect {
    pub code: ErrorCode,
    pub message_contains: Vec<String>,
}

/// What the case expects; `None` fields are not checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Expect {
    pub outcome: ExpectedOutcome,
    pub kind: Option<Kind>,
    pub path: Option<String>,
    pub parent: Option<String>,
    pub cwd: Option<String>,
    pub matches: Option<Vec<ExpectedMatch>>,
    pub notes: Option<Vec<String>>,
    /// `glob`'s files, absolute paths with placeholders.
    pub files: Option<Vec<String>>,
    /// `ls`'s entries: absolute path (with placeholders) and type.
    pub entries: Option<Vec<(String, EntryType)>>,
    pub error: Option<ErrorExpect>,
    pub mentions: Option<Vec<String>>,
    pub excludes: Option<Vec<String>>,
}

/// A valid case. Serialisable for the pre-validated embedded suite only
/// (see `case::embedded`): a case read from text is always validated.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
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
    let bytes = read_bounded(file)?;
    parse_case_bytes(file, &bytes)
}

/// Reads at most one byte more than [`MAX_CASE_BYTES`], so a huge file is
/// refused without being read whole.
fn read_bounded(file: &Path) -> Result<Vec<u8>, CaseError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_CASE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| CaseError::unreadable(file, &e))?;
    Ok(bytes)
}

/// Validates case bytes: size, then UTF-8 (located), then YAML and meaning.
pub fn parse_case_bytes(file: &Path, bytes: &[u8]) -> Result<Case, CaseError> {
    check_size(file, bytes.len())?;
    let text = std::str::from_utf8(bytes).map_err(|e| CaseError::not_utf8(file, bytes, e))?;
    parse_case(file, text)
}

fn check_size(file: &Path, len: usize) -> Result<(), CaseError> {
    if len <= MAX_CASE_BYTES {
        return Ok(());
    }
    Err(CaseError {
        file: file.to_owned(),
        line: 1,
        column: 1,
        message: format!(
            "the file is larger than {MAX_CASE_BYTES} bytes, the most a case file may be; nothing was parsed"
        ),
    })
}

/// How case files are parsed: a node budget far above any real case, so a
/// hostile file stops early, and every other default of serde-saphyr.
fn yaml_options() -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = MAX_CASE_NODES;
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options
}

/// Validates case text; `file` is used in error messages only.
pub fn parse_case(file: &Path, text: &str) -> Result<Case, CaseError> {
    check_size(file, text.len())?;
    let raw: RawCase = crate::case::yaml::parse(file, text, yaml_options())?;
    Validator {
        file,
        text,
        spans: Default::default(),
    }
    .case(raw)
}

struct Validator<'a> {
    file: &'a Path,
    /// The file's text, to read how a value was spelt (`yes` or `true`).
    text: &'a str,
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
                    format!("spec: unknown requirement ID `{}`", quote(&req.value)),
                ));
            }
        }
        for tag in &raw.tags {
            if !KNOWN_TAGS.contains(&tag.value.as_str()) {
                return Err(self.error(
                    tag.referenced,
                    format!(
                        "tags: unknown tag `{}` (known: {})",
                        quote(&tag.value),
                        KNOWN_TAGS.join(", ")
                    ),
                ));
            }
        }
        let fixture = self.fixture(raw.fixture, id_at)?;
        let (tools, action) = self.call(raw.call, id_at)?;
        let expect = self.expect(raw.expect, &action, &tools)?;
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
            .find(|r| crate::placeholders::RESERVED.contains(&r.value.as_str()))
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
                        format!(
                            "fixture.target: `{}` is not a root or below one",
                            quote(target.as_str())
                        ),
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
                            format!("fixture.files: `{}`: bad base64: {e}", quote(path.as_str())),
                        )
                    })?,
            };
            files.push((path, bytes));
        }
        let symlinks = self.map("fixture.symlinks", raw.symlinks, |_, target| Ok(target))?;
        let modes = self.map("fixture.modes", raw.modes, |at, mode| self.mode(at, &mode))?;
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
            git: self.paths("fixture.git", &raw.git)?,
        };
        self.check_entries(&fixture, id_at)?;
        self.check_git(&fixture, &raw.git, id_at)?;
        Ok(fixture)
    }

    /// An octal mode of permission bits only. Setuid, setgid and sticky are
    /// refused: no path-handling case needs them, and a setuid-root file in
    /// a fixture built by root would hand root to whoever runs it.
    fn mode(&self, at: Location, mode: &str) -> Result<u32, CaseError> {
        let bits = u32::from_str_radix(mode, 8)
            .ok()
            .filter(|m| *m <= 0o7777 && !mode.is_empty())
            .ok_or_else(|| {
                self.error(
                    at,
                    format!(
                        "fixture.modes: `{}` is not an octal mode like \"0755\"",
                        quote(mode)
                    ),
                )
            })?;
        let special: Vec<&str> = [(0o4000, "setuid"), (0o2000, "setgid"), (0o1000, "sticky")]
            .into_iter()
            .filter(|(bit, _)| bits & bit != 0)
            .map(|(_, name)| name)
            .collect();
        if !special.is_empty() {
            return Err(self.error(
                at,
                format!(
                    "fixture.modes: `{}` sets the {} bit; only permission bits (at most 0777) are allowed",
                    quote(mode),
                    special.join(" and ")
                ),
            ));
        }
        Ok(bits)
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
                    format!("fixture: `{}` is created twice", quote(path.as_str())),
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
                            "fixture: `{}` would be written through the symbolic link `{}`",
                            quote(path.as_str()),
                            quote(link.as_str())
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
                format!("fixture: a mode on the symbolic link `{}` would change its target (chmod follows links)", quote(link.as_str())),
            ));
        }
        self.check_buildable(f, id_at)?;
        let links: BTreeSet<&str> = f.symlinks.iter().map(|(l, _)| l.as_str()).collect();
        for (link, target) in &f.symlinks {
            check_link_target(link, target, &links).map_err(|m| {
                self.error(
                    self.span_of(link, id_at),
                    format!("fixture.symlinks: `{}`: {m}", quote(link.as_str())),
                )
            })?;
        }
        Ok(())
    }

    /// Refuses fixtures that cannot be built: an entry that is not a
    /// directory (a file, pipe, socket or device) but is also a root, the
    /// target, or the parent of another entry; and a mode on a path the
    /// fixture does not create.
    fn check_buildable(&self, f: &Fixture, id_at: Location) -> Result<(), CaseError> {
        let all = f
            .roots
            .iter()
            .chain(std::iter::once(&f.target))
            .chain(f.files.iter().map(|(p, _)| p))
            .chain(&f.dirs)
            .chain(f.symlinks.iter().map(|(p, _)| p))
            .chain(&f.fifos)
            .chain(&f.sockets)
            .chain(&f.devices)
            .chain(f.modes.iter().map(|(p, _)| p));
        // Every proper ancestor, with the first entry that needs it.
        let mut parents: std::collections::BTreeMap<&str, &FixturePath> = Default::default();
        for path in all {
            let text = path.as_str();
            for (cut, _) in text.match_indices('/') {
                parents.entry(&text[..cut]).or_insert(path);
            }
        }
        let workspace = f.roots.iter().chain(std::iter::once(&f.target));
        let workspace: BTreeSet<&str> = workspace.map(FixturePath::as_str).collect();
        let not_dirs = f
            .files
            .iter()
            .map(|(p, _)| p)
            .chain(&f.fifos)
            .chain(&f.sockets)
            .chain(&f.devices);
        for entry in not_dirs {
            let why = if workspace.contains(entry.as_str()) {
                "a workspace root or the target, which is a directory".to_owned()
            } else if let Some(child) = parents.get(entry.as_str()) {
                format!("the parent directory of `{}`", quote(child.as_str()))
            } else {
                continue;
            };
            return Err(self.error(
                self.span_of(entry, id_at),
                format!("fixture: `{}` is not a directory but is also {why}; the fixture cannot be built", quote(entry.as_str())),
            ));
        }
        let created: BTreeSet<&str> = f
            .files
            .iter()
            .map(|(p, _)| p)
            .chain(&f.dirs)
            .chain(f.symlinks.iter().map(|(p, _)| p))
            .chain(&f.fifos)
            .chain(&f.sockets)
            .chain(&f.devices)
            .map(FixturePath::as_str)
            .chain(workspace.iter().copied())
            .collect();
        for (path, _) in &f.modes {
            if !created.contains(path.as_str()) && !parents.contains_key(path.as_str()) {
                return Err(self.error(
                    self.span_of(path, id_at),
                    format!(
                        "fixture.modes: `{}` is not created by the fixture",
                        quote(path.as_str())
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A git directory must be a root or hold one (roots inside a repository
    /// whose `.git` lies outside every root), and no entry may be written into a `.git`
    /// directory: a case file could otherwise plant a hook or a config that
    /// `git commit` would run on this machine.
    fn check_git(
        &self,
        f: &Fixture,
        raw: &[Spanned<String>],
        id_at: Location,
    ) -> Result<(), CaseError> {
        for (path, spanned) in f.git.iter().zip(raw) {
            if !f.roots.iter().any(|root| root.is_within(path)) {
                return Err(self.error(
                    spanned.referenced,
                    format!("fixture.git: `{path}` is neither a root nor holds one"),
                ));
            }
        }
        if f.git.is_empty() {
            return Ok(());
        }
        let entries = (f.files.iter().map(|(p, _)| p))
            .chain(&f.dirs)
            .chain(f.symlinks.iter().map(|(p, _)| p))
            .chain(&f.fifos)
            .chain(&f.sockets)
            .chain(&f.devices)
            .chain(f.modes.iter().map(|(p, _)| p))
            .chain(&f.roots);
        for path in entries {
            if path.as_str().split('/').any(|s| s == ".git") {
                return Err(self.error(
                    self.span_of(path, id_at),
                    format!(
                        "fixture: `{path}` is inside a `.git` directory, which git itself writes"
                    ),
                ));
            }
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
            ToolSelector::Glob => vec![Tool::Glob],
            ToolSelector::Ls => vec![Tool::Ls],
        };
        let params = self.params(raw.params)?;
        let action = match raw.describe {
            Some(param) => {
                if !params.is_empty() {
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
                    check_command(&params).map_err(|m| self.error(at, m))?;
                }
                Action::Invoke(params)
            }
        };
        let _ = id_at;
        Ok((tools, action))
    }

    /// The parameters as sent, refusing a boolean spelt as a YAML 1.1 word.
    ///
    /// YAML 1.1 reads `yes`, `no`, `on`, `off` (and more) as booleans, YAML
    /// 1.2 as strings; a case author may mean either. Lint refuses the
    /// ambiguity outright (an error, not a warning: a warning is easy to miss
    /// and the fix is one word): write `true`/`false` for a boolean, or quote
    /// the word for a string.
    fn params(&self, raw: SpannedMap<Spanned<Value>>) -> Result<Map<String, Value>, CaseError> {
        let mut params = Map::new();
        for (key, value) in raw.0 {
            if value.value.is_boolean() {
                let spelt = self.scalar_at(value.referenced);
                if !spelt.eq_ignore_ascii_case("true") && !spelt.eq_ignore_ascii_case("false") {
                    return Err(self.error(
                        value.referenced,
                        format!(
                            "call.params.{}: `{}` is a YAML 1.1 word read as the boolean {}; write `{}` for a boolean or quote it for a string",
                            quote(&key.value),
                            quote(&spelt),
                            value.value,
                            value.value
                        ),
                    ));
                }
            }
            params.insert(key.value, value.value);
        }
        Ok(params)
    }

    /// The plain scalar written at `at` (up to the next delimiter).
    fn scalar_at(&self, at: Location) -> String {
        let line = yaml_lines(self.text)
            .nth((at.line() as usize).saturating_sub(1))
            .unwrap_or("");
        line.chars()
            .skip((at.column() as usize).saturating_sub(1))
            .take_while(|c| !matches!(c, ',' | '}' | ']' | '#') && !c.is_whitespace())
            .collect()
    }

    fn expect(
        &self,
        raw: Spanned<RawExpect>,
        action: &Action,
        tools: &[Tool],
    ) -> Result<Expect, CaseError> {
        let at = raw.referenced;
        let raw = raw.value;
        let describing = matches!(action, Action::Describe(_));
        let has_result_fields = raw.kind.is_some()
            || raw.path.is_some()
            || raw.parent.is_some()
            || raw.cwd.is_some()
            || raw.matches.is_some()
            || raw.notes.is_some()
            || raw.files.is_some()
            || raw.entries.is_some();
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
                    "expect: an error result has no kind, path, parent, cwd, matches, notes, files or entries",
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
        if let Some(error) = &raw.error
            && let Some(twice) = first_repeated(&error.message_contains)
        {
            return Err(self.error(
                at,
                format!("expect.error.message_contains: `{twice}` is given twice; each needle should check something"),
            ));
        }

        self.tool_fields(&raw, tools, at)?;
        let matches = match raw.matches {
            None => None,
            Some(list) => Some(
                list.iter()
                    .map(|m| {
                        parse_match(&m.value).ok_or_else(|| {
                            self.error(
                                m.referenced,
                                format!("expect.matches: `{}` is not PATH:LINE", quote(&m.value)),
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
            files: raw.files,
            entries: raw
                .entries
                .map(|map| map.0.into_iter().map(|(k, t)| (k.value, t)).collect()),
            error: raw.error.map(|e| ErrorExpect {
                code: e.code,
                message_contains: e.message_contains,
            }),
            mentions: raw.mentions,
            excludes: raw.excludes,
        })
    }

    /// `files` belongs to `glob` and `entries` to `ls`: on any other tool the
    /// expectation could never be met, so it is a mistake in the case.
    fn tool_fields(&self, raw: &RawExpect, tools: &[Tool], at: Location) -> Result<(), CaseError> {
        for (field, given, tool) in [
            ("files", raw.files.is_some(), Tool::Glob),
            ("entries", raw.entries.is_some(), Tool::Ls),
        ] {
            if given && tools != [tool] {
                return Err(self.error(
                    at,
                    format!("expect.{field}: only a `{tool}` call has {field}"),
                ));
            }
        }
        Ok(())
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
            (Feature::Git, !fixture.git.is_empty()),
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

/// A link target must lead to a place inside the fixture directory, decided
/// on the text alone (lexically), so that no case can make the harness, which
/// may be root, read `/etc` or `/proc` through a link.
///
/// Allowed: a relative target whose `..` segments never climb above the
/// fixture directory (`../outside` from `ws/x`), and an absolute target
/// written `{tmp}/...` (the builder puts the fixture directory there). A
/// `..` after a segment that is itself one of the fixture's links is refused:
/// the kernel would climb from wherever that link leads, not from where it
/// is written, so lexical containment would no longer hold.
pub fn check_link_target(
    link: &FixturePath,
    target: &str,
    links: &BTreeSet<&str>,
) -> Result<(), String> {
    if target.is_empty() {
        return Err("the target is empty".into());
    }
    if target.contains('\0') {
        return Err(format!(
            "the target `{}` contains a NUL byte",
            quote(target)
        ));
    }
    let (start, rest) = if let Some(rest) = target.strip_prefix("{tmp}") {
        if !(rest.is_empty() || rest.starts_with('/')) {
            return Err(format!(
                "the target `{}`: `{{tmp}}` must be followed by `/` or nothing",
                quote(target)
            ));
        }
        ("", rest)
    } else if target.starts_with('/') {
        return Err(format!(
            "the target `{}` is outside the fixture directory; an absolute target is written `{{tmp}}/...`",
            quote(target)
        ));
    } else {
        (
            link.as_str().rsplit_once('/').map_or("", |(p, _)| p),
            target,
        )
    };
    // Where the walk is, as a fixture path, with the length before each
    // segment so `..` is a truncation (linear in the target's length).
    let mut at = String::from(start);
    let mut lengths: Vec<usize> = start.match_indices('/').map(|(i, _)| i).collect();
    if !start.is_empty() {
        lengths.insert(0, 0);
    }
    let mut through: Option<String> = None;
    for segment in rest.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                if let Some(other) = &through {
                    return Err(format!(
                        "the target `{}` climbs with `..` after the fixture's link `{other}`, from wherever that leads",
                        quote(target)
                    ));
                }
                let Some(len) = lengths.pop() else {
                    return Err(format!(
                        "the target `{}` climbs out of the fixture directory",
                        quote(target)
                    ));
                };
                at.truncate(len);
            }
            name => {
                lengths.push(at.len());
                if !at.is_empty() {
                    at.push('/');
                }
                at.push_str(name);
                if through.is_none() && links.contains(at.as_str()) {
                    through = Some(at.clone());
                }
            }
        }
    }
    Ok(())
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
                quote(c)
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
            "`{}` is not dotted lower-case words like `search.file.relative`",
            quote(id)
        ));
    }
    Ok(())
}

/// The first item that occurs twice in `items`.
fn first_repeated(items: &[String]) -> Option<&str> {
    let mut seen = BTreeSet::new();
    items
        .iter()
        .find(|item| !seen.insert(item.as_str()))
        .map(String::as_str)
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

    #[test]
    fn the_editor_schema_knows_the_ids_tags_and_requirements_lint_knows() {
        let schema = schemars::generate::SchemaSettings::draft07()
            .into_generator()
            .into_root_schema_for::<RawCase>();
        let schema: Value = serde_json::to_value(&schema).unwrap();
        let props = &schema["properties"];
        let known: Vec<String> = crate::spec::requirements()
            .iter()
            .map(|r| r.id.clone())
            .collect();
        assert_eq!(props["spec"]["items"]["enum"], serde_json::json!(known));
        assert_eq!(
            props["tags"]["items"]["enum"],
            serde_json::json!(KNOWN_TAGS)
        );
        let pattern = regex::Regex::new(props["id"]["pattern"].as_str().unwrap()).unwrap();
        for id in [
            "search.file.relative",
            "a.b",
            "x.tmp-root",
            "a_b.c9",
            "search",
            "Search.file",
            "a..b",
            "a.-b",
            "a.b.",
            ".a.b",
            "a.b c",
        ] {
            assert_eq!(pattern.is_match(id), check_id(id).is_ok(), "{id}");
        }
    }

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
        for name in crate::placeholders::RESERVED {
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

    fn with_fixture(fixture: &str) -> String {
        format!(
            "id: t.t\nsummary: s\nspec: [RES-1]\n{fixture}call: {{tool: resolve}}\nexpect: {{outcome: ok}}\n"
        )
    }

    #[test]
    fn setuid_setgid_and_sticky_modes_are_refused_with_their_location() {
        for (mode, bit) in [
            ("4755", "setuid"),
            ("2755", "setgid"),
            ("1777", "sticky"),
            ("6755", "setuid and setgid"),
        ] {
            let text = with_fixture(&format!(
                "requires: [permissions]\nfixture:\n  roots: [ws]\n  files: {{ws/sh: x}}\n  modes: {{ws/sh: \"{mode}\"}}\n"
            ));
            let err = error_of(&text);
            assert!(
                err.starts_with(&format!(
                    "cases/x.yaml:8:11: fixture.modes: `{mode}` sets the {bit} bit"
                )),
                "{mode}: {err}"
            );
        }
        let ok = with_fixture(
            "requires: [permissions]\nfixture:\n  roots: [ws]\n  files: {ws/sh: x}\n  modes: {ws/sh: \"0777\"}\n",
        );
        assert_eq!(parse(&ok).unwrap().fixture.modes[0].1, 0o777);
    }

    fn link_case(links: &str) -> String {
        with_fixture(&format!(
            "requires: [symlinks]\nfixture:\n  roots: [ws]\n  dirs: [outside]\n  symlinks: {{{links}}}\n"
        ))
    }

    #[test]
    fn link_targets_must_stay_inside_the_fixture_directory() {
        for (links, why) in [
            ("ws/etc: /etc", "`/etc` is outside the fixture directory"),
            ("ws/r: /", "`/` is outside the fixture directory"),
            ("ws: /proc/kmsg", "`/proc/kmsg` is outside"),
            (
                "ws/up: ../../etc",
                "`../../etc` climbs out of the fixture directory",
            ),
            ("ws/up: a/../../..", "climbs out"),
            ("ws/t: \"{tmp}/..\"", "climbs out"),
            ("ws/t: \"{tmp}x\"", "must be followed by `/`"),
            ("ws/t: \"\"", "the target is empty"),
            // `ws/x` leads to the fixture directory; `..` after it would
            // climb from there, out of the fixture.
            ("ws/x: .., ws/y: x/../..", "after the fixture's link `ws/x`"),
        ] {
            let err = error_of(&link_case(links));
            assert!(err.starts_with("cases/x.yaml:8:"), "{links}: {err}");
            assert!(err.contains("fixture.symlinks: `"), "{links}: {err}");
            assert!(err.contains(why), "{links}: {err}");
        }
        for links in [
            "ws/out: ../outside",
            "ws/a/b: ../../outside",
            "ws/t: \"{tmp}/outside\"",
            "ws/t: \"{tmp}\"",
            "ws/gone: missing/../../nowhere",
            "ws/loop: loop",
            "ws/x: .., ws/y: x/outside",
        ] {
            parse(&link_case(links)).unwrap_or_else(|e| panic!("{links}: {e}"));
        }
    }

    #[test]
    fn fixtures_that_cannot_be_built_are_refused_with_their_location() {
        for (fixture, at, why) in [
            (
                "fixture:\n  roots: [ws]\n  files: {ws: x}\n",
                "6:11",
                "`ws` is not a directory but is also a workspace root",
            ),
            (
                "fixture:\n  roots: [ws]\n  files: {ws/a: x, ws/a/b: z}\n",
                "6:11",
                "`ws/a` is not a directory but is also the parent directory of `ws/a/b`",
            ),
            (
                "fixture:\n  roots: [ws]\n  target: ws/f\n  files: {ws/f: x}\n",
                "7:11",
                "`ws/f` is not a directory but is also a workspace root or the target",
            ),
            (
                "requires: [fifos]\nfixture:\n  roots: [ws]\n  fifos: [ws/p]\n  dirs: [ws/p/d]\n",
                "7:11",
                "`ws/p` is not a directory",
            ),
            (
                "requires: [permissions]\nfixture:\n  roots: [ws]\n  modes: {ws/nothing: \"0000\"}\n",
                "7:11",
                "fixture.modes: `ws/nothing` is not created by the fixture",
            ),
        ] {
            let err = error_of(&with_fixture(fixture));
            assert!(err.starts_with(&format!("cases/x.yaml:{at}: ")), "{err}");
            assert!(err.contains(why), "{err}");
        }
    }

    #[test]
    fn invalid_utf8_is_located_at_the_first_bad_byte() {
        let mut bytes = GOOD.as_bytes().to_vec();
        let at = GOOD.find("summary: s").unwrap() + "summary: ".len();
        bytes[at] = 0xff;
        let err = parse_case_bytes(Path::new("cases/x.yaml"), &bytes)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("cases/x.yaml:2:10: not UTF-8: byte 0xff"),
            "{err}"
        );
        // Lines end where YAML ends them, so the parser's locations and
        // ours agree: a lone CR ends a line too.
        let crlf = b"id: a.b\r\nsummary: s\rspec: \xff";
        let err = parse_case_bytes(Path::new("x.yaml"), crlf).unwrap_err();
        assert_eq!((err.line, err.column), (3, 7), "{err}");
        let lines: Vec<&str> = yaml_lines("a\r\nb\rc\nd").collect();
        assert_eq!(lines, ["a", "b", "c", "d"]);
    }

    #[test]
    fn control_characters_never_reach_a_message_raw() {
        let text = GOOD.replace(
            "id: search.file.relative",
            "id: \"a.b\\nother.yaml:1:1: forged\\u001b[2J\"",
        );
        let err = error_of(&text);
        assert!(!err.contains('\n') && !err.contains('\u{1b}'), "{err}");
        assert!(
            err.contains("a.b\\nother.yaml:1:1: forged\\u{1b}[2J"),
            "{err}"
        );
        // Also in a file name and in the parser's own messages.
        let e = CaseError {
            file: PathBuf::from("x\ny.yaml"),
            line: 1,
            column: 1,
            message: "bad\r".into(),
        };
        assert_eq!(e.to_string(), "x\\ny.yaml:1:1: bad\\r");
        let yaml = error_of(&GOOD.replace("  kind: file", "  \"k\\tnd\": file"));
        assert!(yaml.contains("k\\tnd") && !yaml.contains('\t'), "{yaml}");
    }

    #[test]
    fn quoted_values_are_capped_with_their_length() {
        let long = "x".repeat(100_000);
        let text = GOOD.replace("tool: search", "tool: shell").replace(
            "{pattern: hello, dir_path: a.ts}",
            &format!("{{command: {long}}}"),
        );
        let err = error_of(&text);
        assert!(err.len() < 1000, "{} bytes", err.len());
        assert!(
            err.contains(&format!(
                "`{}… (100000 characters)`",
                "x".repeat(QUOTE_LIMIT)
            )),
            "{err}"
        );
        let field = error_of(&GOOD.replace("  kind: file", &format!("  {long}: file")));
        assert!(
            field.len() < 1200,
            "{} bytes: {}",
            field.len(),
            &field[..300]
        );
    }

    #[test]
    fn size_limits_refuse_before_parsing_with_a_whole_message() {
        let big = format!("{GOOD}# {}\n", "x".repeat(MAX_CASE_BYTES));
        let err = error_of(&big);
        assert!(
            err.ends_with(&format!(
                "the file is larger than {MAX_CASE_BYTES} bytes, the most a case file may be; nothing was parsed"
            )),
            "{err}"
        );
        let entries: String = (0..MAX_CASE_NODES / 2 + 1)
            .map(|i| format!("    ws/f{i}: x\n"))
            .collect();
        let many = GOOD.replace(
            "  files: {ws/a.ts: \"hello\\n\"}\n",
            &format!("  files:\n{entries}"),
        );
        assert!(many.len() < MAX_CASE_BYTES);
        let err = error_of(&many);
        assert!(
            err.contains("budget breached") && err.ends_with("parsing stopped here)"),
            "{err}"
        );
        // A position inside the message is kept; only a trailing one goes.
        assert_eq!(
            strip_position("x (used at line 3, column 7) y"),
            "x (used at line 3, column 7) y"
        );
        assert_eq!(strip_position("bad at line 3, column 7"), "bad");
    }

    #[test]
    fn yaml_1_1_booleans_in_params_are_refused_where_written() {
        for word in ["yes", "No", "on", "OFF", "y", "n"] {
            let text = GOOD.replace(
                "dir_path: a.ts}",
                &format!("dir_path: a.ts, case_sensitive: {word}}}"),
            );
            match parse(&text) {
                Err(e) => {
                    let e = e.to_string();
                    assert!(e.starts_with("cases/x.yaml:9:"), "{word}: {e}");
                    assert!(
                        e.contains(&format!("`{word}` is a YAML 1.1 word")),
                        "{word}: {e}"
                    );
                }
                Ok(case) => {
                    // Read as a string, it is sent as written: no surprise.
                    let Action::Invoke(params) = &case.action else {
                        panic!()
                    };
                    assert_eq!(
                        params["case_sensitive"],
                        Value::String(word.into()),
                        "{word}"
                    );
                }
            }
        }
        for ok in ["true", "False", "\"yes\""] {
            let text = GOOD.replace(
                "dir_path: a.ts}",
                &format!("dir_path: a.ts, case_sensitive: {ok}}}"),
            );
            parse(&text).unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
    }

    #[test]
    fn a_repeated_needle_is_refused() {
        let text = GOOD.replace("outcome: ok", "outcome: error").replace(
            "  kind: file\n  path: \"{ws}/a.ts\"\n  matches: [\"{ws}/a.ts:1\"]\n  notes: []\n",
            "  error: {code: not_found, message_contains: [\"{ws}\", \"{ws}\"]}\n",
        );
        let err = error_of(&text);
        assert!(err.contains("`{ws}` is given twice"), "{err}");
    }

    #[test]
    fn git_roots_must_be_roots_and_nothing_is_written_into_dot_git() {
        let git = GOOD.replace("fixture:", "requires: [git]\nfixture:");
        let not_root = git.replace("  roots: [ws]", "  roots: [ws]\n  git: [ws/sub]");
        assert!(
            error_of(&not_root).contains("fixture.git: `ws/sub` is neither a root nor holds one")
        );
        let above = git.replace("  roots: [ws]", "  roots: [ws]\n  git: [ws]");
        assert!(parse(&above).is_ok());
        let hook = git
            .replace("  roots: [ws]", "  roots: [ws]\n  git: [ws]")
            .replace("ws/a.ts: ", "ws/.git/hooks/pre-commit: ");
        let err = error_of(&hook);
        assert!(err.starts_with("cases/x.yaml:8:"), "{err}");
        assert!(err.contains("inside a `.git` directory"), "{err}");
        let undeclared = GOOD.replace("  roots: [ws]", "  roots: [ws]\n  git: [ws]");
        assert!(error_of(&undeclared).contains("uses `git` but does not declare it"));
    }
}
