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

use std::collections::BTreeMap;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::mcp::template::Template;
use toolpath_suite::protocol::{ErrorCode, Feature, Field, Tool};

/// The smallest valid profile, for the unit tests of the profile's
/// checks and of the server over a fake transport: one tool (`resolve`,
/// as `get_file_info`, its kind read from its text), every other declared
/// absent, the server started as `python3 fake.py`.
#[cfg(test)]
pub(crate) const MINIMAL_PROFILE: &str = r#"
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

mod check;
mod located;
mod results;

pub use check::{Loaded, is_confined};
pub use located::{At, Pattern, Position};
pub use results::{
    ContentRule, EntriesRule, FilesRule, JsonItems, KindLine, KindRule, MatchesRule, PathRule,
    Poll, PollAnswers, RelativeNames, ResultMap, WholeText,
};

/// The profile format this build reads.
pub const PROFILE_VERSION: u32 = 1;

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
    pub unobservable: Vec<Field>,
    pub result: ResultMap,
    pub errors: Errors,
}

/// The fields `list` names, without their places: every name was
/// checked when the profile was loaded ([`check`]).
pub fn fields(list: &[At<String>]) -> Vec<Field> {
    list.iter().filter_map(|f| Field::from_wire(f)).collect()
}

/// The features `list` declares, without their places (checked when the
/// profile was loaded, as [`fields`] are).
pub fn features(list: &[At<String>]) -> Vec<Feature> {
    Feature::DECLARED
        .into_iter()
        .filter(|d| list.iter().any(|f| d.name() == f.as_str()))
        .collect()
}

impl ToolEntry {
    /// The mapping this entry (at `place`) says, or what is wrong with
    /// it, where.
    fn checked(self, tool: Tool, place: Position) -> Result<ToolMap, (Position, String)> {
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
                unobservable: fields(&self.unobservable),
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
