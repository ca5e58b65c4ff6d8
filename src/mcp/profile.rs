//! The MCP profile: everything toolpath needs to certify an MCP server
//! without adapter code, as one YAML file (`toolpath run --mcp FILE`).
//!
//! The file mirrors these types exactly (unknown keys are errors, every
//! error has its line and column); its JSON Schema, generated from them,
//! is `spec/schemas/mcp-profile.schema.json`. `docs/mcp.md` is the guide.
//!
//! A profile says how to start the server, how to hand it the case's
//! roots (argv, a flag per root, a config file in a private `HOME`, or MCP
//! roots), where it resolves relative paths, which server tool stands for
//! each suite tool (or why none fits), how to rename the suite's
//! arguments, how to read the text it answers with, and how to classify
//! its errors. Regular expressions are checked when the file is loaded,
//! so a typo is found before the first case runs.
//!
//! What the types cannot say is checked after reading (`check`), and every
//! mistake found is reported, each at the line and column of the value it
//! is about: the values those checks read are kept with their place
//! ([`At`], from serde-saphyr's spans, as the suite's case files are).
//! Every suite tool needs an entry, a server tool or `none` with the
//! reason, so a profile written before a tool joined the suite says which
//! ones it has not considered instead of leaving them unsupported unsaid.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::mcp::template::Template;
use toolpath_suite::case::{CaseError, CaseErrors};
use toolpath_suite::protocol::{EntryType, ErrorCode, Field, Kind, Tool};

/// The profile format this build reads.
pub const PROFILE_VERSION: u32 = 1;

/// Where a value stands in the profile: 1-based line and column.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Place {
    pub line: u64,
    pub column: u64,
}

/// A value and where it stands, so a check made after reading can name
/// the place of what it found wrong. Reads and describes itself (JSON
/// Schema) exactly as `T` does.
#[derive(Debug, Clone)]
pub struct At<T> {
    pub value: T,
    pub place: Place,
}

impl<T> std::ops::Deref for At<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for At<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = serde_saphyr::Spanned::<T>::deserialize(deserializer)?;
        Ok(At {
            place: Place {
                line: spanned.referenced.line(),
                column: spanned.referenced.column(),
            },
            value: spanned.value,
        })
    }
}

/// Written as the value alone (the schema's defaults are written so).
impl<T: serde::Serialize> serde::Serialize for At<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(serializer)
    }
}

impl<T: JsonSchema> JsonSchema for At<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// A regular expression, compiled when the profile is read, and where it
/// stands.
#[derive(Debug, Clone)]
pub struct Pattern(pub regex::Regex, pub Place);

impl<'de> Deserialize<'de> for Pattern {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = At::<String>::deserialize(deserializer)?;
        regex::Regex::new(&text)
            .map(|regex| Pattern(regex, text.place))
            .map_err(|e| serde::de::Error::custom(format!("not a regular expression: {e}")))
    }
}

impl JsonSchema for Pattern {
    fn schema_name() -> Cow<'static, str> {
        "Pattern".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "regex",
            "description": "A regular expression (Rust `regex` syntax), matched against one line of the server's text unless said otherwise."
        })
    }
}

impl Pattern {
    pub fn is_match(&self, text: &str) -> bool {
        self.0.is_match(text)
    }

    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

/// A profile file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "toolpath MCP profile")]
pub struct Profile {
    /// The profile format: `1`.
    pub profile: At<u32>,
    pub implementation: ProfileImplementation,
    pub server: Server,
    pub roots: Roots,
    /// What a relative path argument is resolved against by this server:
    /// its process's working directory (`cwd`; the server is then started
    /// in the case's target directory) or its first allowed directory
    /// (`roots`).
    pub relative_paths: RelativeTo,
    /// Fixture features the server's tools can face: `symlinks`, `fifos`,
    /// `sockets`, `devices`. Cases needing others are unsupported (leave
    /// out `fifos` for a server that opens them and blocks).
    #[serde(default)]
    pub features: Vec<At<String>>,
    /// Result fields no tool of this server can show (protocol
    /// `unobservable`).
    #[serde(default)]
    pub unobservable: Vec<At<String>>,
    /// How errors are told from successes, and their codes; a tool's own
    /// `errors` are tried first.
    #[serde(default)]
    pub errors: Errors,
    /// Each suite tool (every one: `resolve`, `grep`, `ripgrep`, `glob`,
    /// `ls`, `shell`, `read_file`, `write_file`, `edit`): the server tool
    /// that stands for it, or why none does.
    #[serde(rename = "tools")]
    pub tool_entries: At<BTreeMap<Tool, At<ToolEntry>>>,
    /// `tool_entries`, checked (filled at load).
    #[serde(skip)]
    #[schemars(skip)]
    pub tools: BTreeMap<Tool, ToolMap>,
}

/// Who the server is, for every report.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileImplementation {
    pub name: String,
    pub language: String,
    /// Where the version comes from. Never the server's own `serverInfo`:
    /// two releases of server-filesystem both call themselves 0.2.0, and a
    /// Python server reports its SDK's version.
    pub version: VersionSource,
}

/// Where a server's version is read.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum VersionSource {
    /// The `version` of this `package.json`, a relative path inside the
    /// profile's directory (no `..`, no link followed), read with a size cap.
    PackageJson(At<PathBuf>),
    /// The first line this command prints (words as in `server.command`),
    /// trimmed; a leading word that is not a version (`mcp-server-git
    /// 2025.1.1`) is dropped: the last white-space separated word is taken.
    Command(Vec<String>),
    /// Given as it is.
    Text(String),
}

/// How to start the server.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Server {
    /// Program and arguments; `{profile}` is the profile's directory,
    /// `{home}` the server's private `HOME`.
    pub command: At<Vec<String>>,
    /// Environment variables set for the server (placeholders as in
    /// `command`), on top of the adapter environment (`LC_ALL=C`, `TZ=UTC`,
    /// a private `TMPDIR`, git isolated).
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// What is done to each root before calls: `git_init` makes each root
    /// that is not yet a git repository one (for servers that refuse
    /// anything else); the report's findings say the fixture was changed.
    #[serde(default)]
    pub prepare: Vec<Prepare>,
    /// How long the server may take to answer `initialize` and `tools/list`
    /// (default: `--hello-timeout-ms`).
    #[serde(default)]
    pub start_timeout_ms: Option<u64>,
}

/// A change made to the fixture before calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Prepare {
    GitInit,
}

/// How the case's roots become the server's allowed directories.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Roots {
    pub via: At<RootsVia>,
    /// `via: flag`: the flag written before each root (`--repository`).
    #[serde(default)]
    pub flag: Option<String>,
    /// `via: config` (or `tool`): the file, relative to the private
    /// `HOME`, and the key of the JSON object that lists the roots.
    #[serde(default)]
    pub config: Option<RootsConfig>,
    /// The most roots the server takes; a case with more is unsupported,
    /// with this as the reason.
    #[serde(default)]
    pub max: Option<At<usize>>,
    /// `via: tool`: the server tool that sets the allowed directories
    /// while the server runs.
    #[serde(default)]
    pub tool: Option<At<RootsTool>>,
    /// `via: mcp` or `tool`: a server that takes new directories in
    /// asynchronously is polled with this tool until its text names every
    /// new root.
    #[serde(default)]
    pub ready: Option<At<Ready>>,
}

/// A server tool that sets the allowed directories.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RootsTool {
    pub name: String,
    /// Its arguments, an argument template in which `{roots}` is the list
    /// of the case's roots (`{key: allowedDirectories, value: "{roots}"}`).
    pub arguments: Template,
}

/// Where the allowed directories go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RootsVia {
    /// Appended to the command, one argument per root. The server is
    /// started again for every new set of roots.
    Argv,
    /// Appended as `FLAG ROOT` per root. Started again per set of roots.
    Flag,
    /// Written into a JSON file in the private `HOME` before the server
    /// starts. Started again per set of roots.
    Config,
    /// Set by calling a server tool (`roots.tool`) after the server starts
    /// and whenever a case brings new ones, for a server that takes its
    /// directories from a tool: one server process serves many cases.
    /// `roots.config`, if given, is written before each start with the
    /// roots it starts with (and the file's other settings).
    Tool,
    /// MCP roots: the client offers the `roots` capability, answers
    /// `roots/list`, and says `notifications/roots/list_changed` when a
    /// case brings new roots; one server process serves many cases.
    Mcp,
    /// The server has no allowed directories (a shell server, a ripgrep
    /// server): it is given none, one process serves many cases, and every
    /// path it takes outside the case's roots is what the report shows
    /// getting out. A profile says so rather than leaving `roots` out.
    None,
}

/// A config file that lists the allowed directories.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RootsConfig {
    /// A relative path inside the private `HOME` (no `..`, no link
    /// followed): the harness writes it before the server starts.
    pub file: At<PathBuf>,
    /// The key whose value becomes the list of roots.
    pub key: String,
    /// Other keys of the file, written as given.
    #[serde(default)]
    pub with: serde_json::Map<String, Value>,
}

/// How to know that new MCP roots are in force.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ready {
    pub tool: String,
    #[serde(default)]
    pub arguments: serde_json::Map<String, Value>,
    /// Polls at most this many times (default: as many as one call
    /// timeout holds, with a doubling pause between them); the case then
    /// fails as never answered.
    #[serde(default)]
    pub max_polls: Option<usize>,
}

/// What a relative path is resolved against by the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RelativeTo {
    Cwd,
    Roots,
}

/// One suite tool's mapping: `none` with the reason no server tool fits,
/// or `tool` with how to call it and read it. Read as one record (checked
/// afterwards) rather than as alternatives, so a mistake inside is
/// reported at its line, not as "matched no alternative".
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolEntry {
    /// Why no server tool fits (`search_files` matches a substring of
    /// names, not a glob); shown for every case of the tool. Nothing else
    /// may be given with it.
    #[serde(default)]
    pub none: Option<At<String>>,
    /// The server's tool name.
    #[serde(default)]
    pub tool: Option<At<String>>,
    #[serde(default)]
    #[schemars(with = "Arguments")]
    pub arguments: Option<At<Arguments>>,
    /// Result fields this tool cannot show (on top of the profile's).
    #[serde(default)]
    pub unobservable: Vec<At<String>>,
    #[serde(default)]
    pub result: Option<At<ResultMap>>,
    /// Error rules tried before the profile's.
    #[serde(default)]
    #[schemars(with = "Errors")]
    pub errors: Option<At<Errors>>,
}

/// A suite tool's mapping, checked.
#[derive(Debug, Clone)]
pub enum ToolMap {
    /// No server tool fits, for this reason.
    None(String),
    Tool(Box<ServerTool>),
}

/// The server tool that stands for a suite tool.
#[derive(Debug, Clone)]
pub struct ServerTool {
    pub tool: String,
    pub arguments: Arguments,
    pub unobservable: Vec<String>,
    pub result: ResultMap,
    pub errors: Errors,
}

/// The words of `list`, without their places.
pub fn names(list: &[At<String>]) -> Vec<String> {
    list.iter().map(|f| f.value.clone()).collect()
}

impl ToolEntry {
    /// The mapping this entry (at `place`) says, or what is wrong with
    /// it, where.
    fn checked(self, tool: Tool, place: Place) -> Result<ToolMap, (Place, String)> {
        if let Some(reason) = &self.none {
            if self.only_none() {
                return Ok(ToolMap::None(reason.value.clone()));
            }
            let (key, at) = [
                self.tool.as_ref().map(|t| ("tool", t.place)),
                self.result.as_ref().map(|r| ("result", r.place)),
                self.arguments.as_ref().map(|a| ("arguments", a.place)),
                self.errors.as_ref().map(|e| ("errors", e.place)),
                self.unobservable.first().map(|u| ("unobservable", u.place)),
            ]
            .into_iter()
            .flatten()
            .next()
            .expect("something besides `none`");
            return Err((
                at,
                format!(
                    "`tools.{tool}`: `none` says no tool fits; `{key}` cannot be given with it"
                ),
            ));
        }
        match (self.tool, self.result) {
            (Some(name), Some(result)) => Ok(ToolMap::Tool(Box::new(ServerTool {
                tool: name.value,
                arguments: self.arguments.map(|a| a.value).unwrap_or_default(),
                unobservable: names(&self.unobservable),
                result: result.value,
                errors: self.errors.map(|e| e.value).unwrap_or_default(),
            }))),
            (None, _) => Err((
                place,
                format!(
                    "`tools.{tool}` needs `tool` (the server's tool) or `none` (why none fits)"
                ),
            )),
            (Some(name), None) => Err((name.place, format!("`tools.{tool}` needs `result`"))),
        }
    }

    /// Whether nothing but `none` is given (the only valid entry with it).
    fn only_none(&self) -> bool {
        self.tool.is_none()
            && self.result.is_none()
            && self.arguments.is_none()
            && self.errors.is_none()
            && self.unobservable.is_empty()
    }
}

/// How the suite's arguments become the server tool's.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Arguments {
    /// Suite name to server name, all at once (so `{pattern: query,
    /// include: pattern}` swaps). A renamed value that lands on a name the
    /// call already fills keeps its suite name, as a model sending both
    /// would. Keys not renamed pass through untouched (spec ERR-8).
    #[serde(default)]
    pub rename: BTreeMap<String, String>,
    /// Arguments always set, whatever the suite sends (semantics the suite
    /// assumes: `is_regex: true`, `ignoreCase: false`).
    #[serde(default)]
    pub constant: serde_json::Map<String, Value>,
    /// Arguments set only when the suite leaves that parameter out (by its
    /// suite name); `null` and `""` sent by a case are kept as they are.
    #[serde(default)]
    pub default: serde_json::Map<String, Value>,
    /// The server's arguments as a shape to fill, for a tool that nests
    /// what the suite sends flat (`{path: "{file_path|absolute_path}",
    /// edits: [{oldText: "{old_string}", newText: "{new_string}"}]}`):
    /// each string that is wholly `{name}` becomes that suite parameter's
    /// value, as a JSON value (see [`crate::mcp::template`]). Instead of
    /// `rename`; `default` fills the suite's parameters before, `constant`
    /// is set after.
    #[serde(default)]
    pub template: Option<At<Template>>,
}

impl Arguments {
    /// The suite parameter a server argument stands for, if the mapping
    /// names one (the schema a model reads is shown under suite names).
    pub fn suite_name_of<'a>(&'a self, server: &'a str) -> &'a str {
        if let Some(template) = &self.template {
            return template.value.suite_name_of(server).unwrap_or(server);
        }
        self.rename
            .iter()
            .find(|(_, to)| *to == server)
            .map_or(server, |(suite, _)| suite.as_str())
    }
}

/// How a tool's text answer is read. Every text block of the answer,
/// joined with newlines, is the `model_text` (OUT-5) and what these rules
/// read, line by line.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ResultMap {
    /// The answer's kind: rules tried on each line, or one kind the
    /// profile assumes from success (`always`; a composed field, counted
    /// unobserved).
    #[serde(default)]
    pub kind: Option<KindRule>,
    /// The echoed path: a line pattern with a `path` group, or `request`
    /// for the path the call asked for, resolved lexically (composed).
    #[serde(default)]
    pub path: Option<PathRule>,
    /// `ls`: entries from lines with `name` (or `path`) and `type` groups.
    #[serde(default)]
    pub entries: Option<EntriesRule>,
    /// `glob`: a line pattern with a `path` group, one file per line.
    #[serde(default)]
    pub files: Option<Pattern>,
    /// `grep`: matches on one line, or a file line then its match lines.
    #[serde(default)]
    pub matches: Option<MatchesRule>,
    /// `shell`: the command's output is the whole text (`text`), and its
    /// directory the request's (`request`, composed).
    #[serde(default)]
    pub output: Option<WholeText>,
    /// `read_file`: the file's content is the whole text (`text`),
    /// exactly as the server answered it; the suite's note `binary` has
    /// no counterpart in a server's text, so `notes` is composed (`[]`).
    #[serde(default)]
    pub content: Option<At<WholeText>>,
    /// The whole text (trimmed) that means "nothing found": an ok answer
    /// with empty lists, even if the server flagged it `isError`.
    #[serde(default)]
    pub empty: Option<Pattern>,
    /// A search that answers with a session to poll until it is done.
    #[serde(default)]
    pub poll: Option<Poll>,
    /// What a relative path in the text (`entries`, `files`, `matches`)
    /// is relative to: the directory searched or listed (`searched`, the
    /// default), or what `relative_paths` names (`base`), for a server
    /// that prints each path as its walk met it from the path it was
    /// given (ripgrep: `src/a.ts` for a search of `src`).
    #[serde(default)]
    pub relative_to: RelativeNames,
}

/// What a relative path in a server's text is relative to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RelativeNames {
    /// The directory the call searched or listed.
    #[default]
    Searched,
    /// What the server resolves relative paths against (`relative_paths`).
    Base,
}

/// How a kind is found.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum KindRule {
    /// Assumed from success (`{always: directory}`): composed.
    Always(Kind),
    /// The first rule whose pattern matches a line gives the kind.
    Lines(Vec<KindLine>),
}

#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KindLine {
    pub line: Pattern,
    pub kind: Kind,
}

/// How the echoed path is found: `request` (composed) or `{line: '…'}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathRule {
    Request,
    /// A line pattern with a `path` group.
    Line(Pattern),
}

/// The word `text`.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WholeText {
    Text,
}

/// `ls` entries.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntriesRule {
    /// A line pattern with a `name` group (joined onto the listed
    /// directory) or a `path` group, and optionally a `type` group.
    pub line: Pattern,
    /// The server's word for each entry type (`FILE: file`, `DIR: directory`).
    #[serde(default)]
    pub types: BTreeMap<String, EntryType>,
}

/// Search matches.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchesRule {
    /// A line with a `path` group that names the file of the match lines
    /// after it (two levels); without it every match line names its file.
    #[serde(default)]
    pub file: Option<Pattern>,
    /// A match: `line` (number) and `text` groups, and `path` unless
    /// `file` gives it.
    pub line: Pattern,
    /// A search whose request named a regular file (as the fixture holds
    /// it before the call) is read with this pattern instead, its `line`
    /// and `text` groups, and every match is in the requested file: for a
    /// server that names no file when it searched one (ripgrep prints
    /// `LINE:TEXT`). That path is composed, so `matches.path` is then
    /// judged as not observable.
    #[serde(default)]
    pub requested_file: Option<Pattern>,
}

/// A search session, polled until done.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Poll {
    /// Finds the session id in a line of the first answer: a `session` group.
    pub session: Pattern,
    /// The tool asked for more, with `{session}` in its arguments.
    pub tool: String,
    #[serde(default)]
    pub arguments: serde_json::Map<String, Value>,
    /// A line that says the session is complete.
    pub done: Pattern,
    /// At most this many polls (default 50).
    #[serde(default)]
    pub max_polls: Option<usize>,
    /// What the polls answer: `new` (default), what was found since the
    /// last one, every answer read, joined; or `all`, the whole session
    /// from its start each time, so only the last answer (the one that
    /// says it is done) is read, and it is asked for at least once (the
    /// first answer may be done but show only part).
    #[serde(default)]
    pub answers: PollAnswers,
}

/// What each poll of a session answers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PollAnswers {
    #[default]
    New,
    All,
}

/// How errors are read.
#[derive(Debug, Clone, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Errors {
    /// Texts of answers *not* flagged `isError` that are failures all the
    /// same (`^\[NOT_FOUND\]`): matched against the first line.
    #[serde(default)]
    pub texts: Vec<Pattern>,
    /// Rules from an error's text to a spec code, tried in order; every
    /// code records the rule that gave it.
    #[serde(default)]
    pub codes: Vec<At<CodeRule>>,
    /// The code when no rule matched. A code only this gave is not an
    /// observation: `error.code` is then unobserved for that answer.
    #[serde(default)]
    pub default: Option<ErrorCode>,
}

/// One classification rule: `message` or `errno`, and the `code`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeRule {
    /// The error text matches this pattern (anywhere in it).
    #[serde(default)]
    pub message: Option<Pattern>,
    /// The error names this errno: its symbol (`ENOENT`), its C message
    /// (`No such file or directory`), `os error N` or `[Errno N]`.
    #[serde(default)]
    pub errno: Option<Errno>,
    pub code: ErrorCode,
}

/// The errnos a rule may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, strum::IntoStaticStr)]
pub enum Errno {
    ENOENT,
    EACCES,
    EPERM,
    ENOTDIR,
    EISDIR,
    ELOOP,
    ENAMETOOLONG,
    EINVAL,
    EEXIST,
}

impl Errno {
    /// The symbol, the C library's message and the number, as error texts
    /// show them (Node says the symbol, Python and Rust the message, Rust
    /// adds `os error N`).
    pub fn spellings(self) -> (&'static str, &'static str, i32) {
        match self {
            Errno::ENOENT => ("ENOENT", "No such file or directory", 2),
            Errno::EACCES => ("EACCES", "Permission denied", 13),
            Errno::EPERM => ("EPERM", "Operation not permitted", 1),
            Errno::ENOTDIR => ("ENOTDIR", "Not a directory", 20),
            Errno::EISDIR => ("EISDIR", "Is a directory", 21),
            Errno::ELOOP => ("ELOOP", "Too many levels of symbolic links", 40),
            Errno::ENAMETOOLONG => ("ENAMETOOLONG", "File name too long", 36),
            Errno::EINVAL => ("EINVAL", "Invalid argument", 22),
            Errno::EEXIST => ("EEXIST", "File exists", 17),
        }
    }

    /// Whether `text` names this errno in any of its spellings.
    pub fn named_in(self, text: &str) -> bool {
        let (symbol, message, number) = self.spellings();
        let word = |w: &str| {
            text.match_indices(w).any(|(at, _)| {
                let before = text[..at].chars().next_back();
                let after = text[at + w.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        };
        word(symbol)
            || text.to_lowercase().contains(&message.to_lowercase())
            || text.contains(&format!("os error {number})"))
            || text.contains(&format!("[Errno {number}]"))
    }
}

/// Fixture features a profile may declare.
const FEATURES: &[&str] = &["symlinks", "fifos", "sockets", "devices"];

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
fn check(profile: &Profile, found: &mut Vec<(Place, String)>) {
    let mut error = |place: Place, message: String| found.push((place, message));
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
    let roots = &profile.roots;
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
    check_codes(&profile.errors, "errors", &mut error);
    for feature in &profile.features {
        if !FEATURES.contains(&feature.as_str()) {
            error(
                feature.place,
                format!(
                    "`features`: unknown feature `{}` (known: {})",
                    feature.value,
                    FEATURES.join(", ")
                ),
            );
        }
    }
    unknown_fields(&profile.unobservable, "unobservable", &mut error);
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
    if let Some(config) = &roots.config
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
fn check_codes(errors: &Errors, place: &str, error: &mut impl FnMut(Place, String)) {
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
fn unknown_fields(list: &[At<String>], place: &str, error: &mut impl FnMut(Place, String)) {
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
    found: &mut Vec<(Place, String)>,
) {
    let mut error = |place: Place, message: String| found.push((place, message));
    unknown_fields(
        &entry.unobservable,
        &format!("tools.{tool}.unobservable"),
        &mut error,
    );
    if let Some(errors) = &entry.errors {
        check_codes(errors, &format!("tools.{tool}.errors"), &mut error);
    }
    let (Some(name), Some(result)) = (&entry.tool, &entry.result) else {
        return;
    };
    let needs = match tool {
        Tool::Ls => result.entries.is_some(),
        Tool::Glob => result.files.is_some(),
        Tool::Grep | Tool::Ripgrep => result.matches.is_some(),
        Tool::Shell => result.output.is_some(),
        Tool::Resolve => result.kind.is_some(),
        // Every successful read is judged on its content (FILE-5): a rule
        // reads it, or the profile says the tool cannot show it, so a
        // forgotten rule is not mistaken for "unobservable".
        Tool::ReadFile => {
            result.content.is_some()
                || (entry.unobservable.iter().chain(&profile.unobservable))
                    .any(|f| Field::from_wire(f) == Some(Field::Content))
        }
        // Judged on the fixture (what was written) and on the answer's
        // outcome, kind and path: no part of the text is required.
        Tool::WriteFile | Tool::Edit => true,
    };
    if !needs {
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
    // Every successful answer but the shell's (whose directory `output`
    // composes) is judged on its kind and path: a mapping that gives no
    // rule for one, and does not call it unobservable, fails every such
    // case on `(missing)` (issue 34: the guide's own grep example did,
    // 132 instances of one server).
    let unobservable = |field: Field| {
        (entry.unobservable.iter().chain(&profile.unobservable))
            .any(|f| Field::from_wire(f) == Some(field))
    };
    let missing: Vec<String> = [
        (Field::Kind, result.kind.is_some()),
        (Field::Path, result.path.is_some()),
    ]
    .into_iter()
    .filter(|&(field, given)| tool != Tool::Shell && !given && !unobservable(field))
    .map(|(field, _)| format!("`{field}`"))
    .collect();
    if !missing.is_empty() {
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
    if let Some(matches) = &result.matches
        && let Some(requested) = &matches.requested_file
        && !has_group(requested, "line")
    {
        error(
            requested.1,
            format!("`tools.{tool}.result.matches.requested_file` needs a `line` group"),
        );
    }
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
    for (pattern, group) in [
        (result.files.as_ref(), "path"),
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
    if let Some(entries) = &result.entries
        && !(has_group(&entries.line, "name") || has_group(&entries.line, "path"))
    {
        error(
            entries.line.1,
            format!("`tools.{tool}.result.entries.line` needs a `name` or a `path` group"),
        );
    }
    if let Some(matches) = &result.matches {
        let path_given = matches.file.as_ref().is_some_and(|f| has_group(f, "path"))
            || has_group(&matches.line, "path");
        if !(path_given && has_group(&matches.line, "line")) {
            error(
                matches.line.1,
                format!(
                    "`tools.{tool}.result.matches` needs `path` (in `file` or `line`) and `line` groups"
                ),
            );
        }
    }
    let _ = name;
}

fn has_group(pattern: &Pattern, name: &str) -> bool {
    pattern.0.capture_names().flatten().any(|n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"
profile: 1
implementation: {name: fake, language: python, version: {text: "1.0"}}
server: {command: [python3, fake.py]}
roots: {via: mcp}
relative_paths: roots
tools:
  resolve:
    tool: get_file_info
    arguments: {rename: {path: path}}
    result: {path: request,
      kind: {lines: [{line: '^isDirectory: true$', kind: directory}, {line: '^isFile: true$', kind: file}]}}
  grep: {none: "no content search"}
  ripgrep: {none: "no content search"}
  glob: {none: "no search by name"}
  ls: {none: "no listing"}
  shell: {none: "no commands"}
  read_file: {none: "no reads"}
  write_file: {none: "no writes"}
  edit: {none: "no edits"}
"#;

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
            Some(WholeText::Text)
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
