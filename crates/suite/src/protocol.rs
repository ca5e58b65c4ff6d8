//! Messages of the adapter protocol (`spec/protocol.md`), version 1.
//!
//! These types are shared by everything that produces or consumes a tool
//! result: the in-process reference, the stdio adapter client, `toolpath
//! serve`, and the comparison. Keeping one definition means the in-process
//! run and the stdio run cannot drift apart.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use strum::VariantArray;

/// The protocol version this build speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// A tool an implementation may provide.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Tool {
    Resolve,
    Grep,
    Ripgrep,
    Shell,
    Glob,
    Ls,
    // The file tools (spec FILE) carry the names the published agent tools
    // give them, underscores and all, rather than the kebab-case of the
    // others: a model and an adapter author know them by those names. (A
    // plain comment: a doc comment here would split the schema's enum.)
    #[serde(rename = "read_file")]
    #[strum(serialize = "read_file")]
    #[cfg_attr(feature = "clap", value(name = "read_file"))]
    ReadFile,
    #[serde(rename = "write_file")]
    #[strum(serialize = "write_file")]
    #[cfg_attr(feature = "clap", value(name = "write_file"))]
    WriteFile,
    Edit,
}

impl Tool {
    /// Every tool, in the order reports list them: the order the enum
    /// declares them in, through strum (one list). An array rather than
    /// strum's slice, so per-tool tables can be sized by it. `Glob` and `Ls`
    /// came after suite 0.1.0 as an additive change: the protocol version
    /// did not move (`spec/protocol.md`, Versions).
    pub const ALL: [Tool; Tool::VARIANTS.len()] = crate::variant_array(Tool::VARIANTS);

    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }

    /// A file tool (spec FILE): it takes one file by its absolute path.
    pub fn is_file_tool(self) -> bool {
        matches!(self, Tool::ReadFile | Tool::WriteFile | Tool::Edit)
    }

    /// Whether a successful call of this tool changes the fixture (FILE-8,
    /// FILE-10): every other tool must leave it as it was (SEC-11).
    pub fn writes(self) -> bool {
        matches!(self, Tool::WriteFile | Tool::Edit)
    }

    /// Where this tool is in [`Tool::ALL`]: an index for per-tool tables.
    pub fn index(self) -> usize {
        Tool::ALL
            .iter()
            .position(|&t| t == self)
            .expect("Tool::ALL lists every tool")
    }
}

impl std::fmt::Display for Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The closed list of `notes` a result may carry (spec OUT-3): one
/// spelling for the reference, the judge and the docs.
pub mod notes {
    /// `include` given with a file target, and ignored (SEARCH-6).
    pub const INCLUDE_IGNORED: &str = "include_ignored";
    /// A file that was not searched or read as text because it is binary
    /// (SEARCH-8, FILE-5).
    pub const BINARY: &str = "binary";
    /// A search, glob or listing that stopped early, past 100 results
    /// (OUT-6).
    pub const TRUNCATED: &str = "truncated";
    /// Every note, in the order OUT-3 lists them.
    pub const ALL: [&str; 3] = [INCLUDE_IGNORED, BINARY, TRUNCATED];
}

/// Something a case needs that not every adapter or machine has.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Deserialize,
    Serialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Feature {
    /// Symbolic links in the fixture (adapter feature).
    Symlinks,
    /// Named pipes in the fixture (adapter feature).
    Fifos,
    /// Unix sockets in the fixture (adapter feature).
    Sockets,
    /// Character devices in the fixture (adapter feature; creating them needs root).
    Devices,
    /// Permission bits that deny access; root ignores them, so such cases
    /// cannot be observed when the harness runs as root.
    Permissions,
    /// Parameter schemas published in the adapter's `hello` (Change C).
    Schemas,
    /// Roots that are git repositories (`fixture.git`); needs `git` on the
    /// harness's PATH, so such cases are skipped, with the reason, without it.
    Git,
}

impl Feature {
    /// The features an adapter declares in its `hello` (and an MCP profile
    /// in `features`): what its tools can face. The others are the
    /// harness's or the machine's to have.
    pub const DECLARED: [Feature; 4] = [
        Feature::Symlinks,
        Feature::Fifos,
        Feature::Sockets,
        Feature::Devices,
    ];

    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }
}

/// What a search target resolved to (spec RES-7, SEARCH-3).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Kind {
    File,
    Directory,
    AllWorkspaces,
}

impl Kind {
    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }
}

/// The closed set of error codes (spec ERR-1).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum ErrorCode {
    InvalidParams,
    OutsideWorkspace,
    NotFound,
    PermissionDenied,
    NotADirectory,
    UnsupportedFileType,
    AmbiguousName,
}

impl ErrorCode {
    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }
}

/// How a call ended, as the implementation reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Ok,
    Error,
    Unsupported,
}

/// The workspace of one call: absolute roots in order and the target directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Workspace {
    pub roots: Vec<String>,
    pub target: String,
}

/// Who is answering; shown in every report.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
pub struct Implementation {
    pub name: String,
    pub version: String,
    pub language: String,
}

/// The harness's greeting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HarnessHello {
    pub protocol: u32,
    pub suite: String,
}

/// The adapter's answer to `hello`: who it is and what it can do.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct AdapterHello {
    pub protocol: u32,
    pub implementation: Implementation,
    pub tools: Vec<Tool>,
    /// The fixture features its tools can face ([`Feature::DECLARED`]).
    #[serde(default)]
    pub features: Vec<Feature>,
    /// Result fields the implementation cannot observe, for every tool
    /// (the names of spec/protocol.md, "What is observed": [`Field`]);
    /// never counted as passed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unobservable: Vec<Field>,
    /// Tool name to the fields the implementation cannot observe for that
    /// tool alone, on top of `unobservable` (an adapter whose `ls` cannot
    /// see what its `grep` can). Added in suite 0.x without a new protocol
    /// version: an adapter that does not send it means what it meant before.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unobservable_by_tool: BTreeMap<Tool, Vec<Field>>,
    /// Tool name to that tool's parameter JSON Schema, as a model sees it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub schemas: BTreeMap<String, Value>,
    /// The file names of the ignore files its tools (or the agent they come
    /// from) know as their own (`.geminiignore`): FILE-17's cases put one
    /// under each name where a fixture's `own_ignore_files` says, so an
    /// ignore file no case names is tested too. Without it those cases are
    /// skipped: there is no name to put them under.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore_files: Vec<String>,
}

/// A result field, or the part of one the judge compares apart: the names
/// `unobservable`, `unobservable_by_tool`, a result's `derived`, an MCP
/// profile's `unobservable` and a report's `unchecked` use, and what the
/// judge compares when one is not observed (spec/protocol.md, "What is
/// observed"). The one list of them: the wire name, the tools whose answer
/// carries the field and the rule a check of it enforces all live here.
/// `error.code` is meant for `derived`: a code the adapter chose by a
/// default rule rather than read from the tool.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::EnumString,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Field {
    Outcome,
    Kind,
    Path,
    Parent,
    Cwd,
    Output,
    Matches,
    /// Where each matched file is: without it a match is compared by its
    /// file's base name and its line.
    #[serde(rename = "matches.path")]
    #[strum(serialize = "matches.path")]
    MatchesPath,
    /// What each matched line says.
    #[serde(rename = "matches.text")]
    #[strum(serialize = "matches.text")]
    MatchesText,
    Notes,
    Files,
    /// Where each found file is: without it a file is compared by its
    /// base name.
    #[serde(rename = "files.path")]
    #[strum(serialize = "files.path")]
    FilesPath,
    Entries,
    /// Where each listed entry is: without it an entry is compared by its
    /// base name and its type.
    #[serde(rename = "entries.path")]
    #[strum(serialize = "entries.path")]
    EntriesPath,
    Content,
    ModelText,
    #[serde(rename = "error.code")]
    #[strum(serialize = "error.code")]
    ErrorCode,
    #[serde(rename = "error.message")]
    #[strum(serialize = "error.message")]
    ErrorMessage,
}

impl Field {
    /// Every field, in the order spec/protocol.md's table names them.
    pub const ALL: [Field; Field::VARIANTS.len()] = crate::variant_array(Field::VARIANTS);

    /// The wire name (`matches.path`, `model_text`).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The field a wire name names, if any: for every reader of a name an
    /// adapter, a profile or a report wrote.
    pub fn from_wire(name: &str) -> Option<Field> {
        name.parse().ok()
    }

    /// The tools whose answer carries this field, so a case may expect it
    /// of them: a matrix's expectation, written once for all its tools,
    /// keeps in each cell the fields that cell's tool answers with
    /// (`Expect::for_tools`). `notes` are expected of the searches and
    /// `read_file` (SEARCH-6, SEARCH-8, FILE-5); a cut listing's `truncated`
    /// is OUT-6's to judge, not an expected note.
    pub fn answered_by(self) -> &'static [Tool] {
        use Tool::*;
        const ALL: &[Tool] = &Tool::ALL;
        const ECHOING: &[Tool] = &[Resolve, Grep, Ripgrep, Glob, Ls, ReadFile, WriteFile, Edit];
        const SEARCHES: &[Tool] = &[Grep, Ripgrep];
        match self {
            Field::Outcome | Field::ErrorCode | Field::ErrorMessage => ALL,
            Field::Kind | Field::Path => ECHOING,
            Field::Parent => &[Resolve, Grep, Ripgrep, Glob, Ls],
            Field::Cwd | Field::Output => &[Shell],
            Field::Matches | Field::MatchesPath | Field::MatchesText => SEARCHES,
            Field::Notes => &[Grep, Ripgrep, ReadFile],
            Field::Files | Field::FilesPath => &[Glob],
            Field::Entries | Field::EntriesPath => &[Ls],
            Field::Content => &[ReadFile],
            Field::ModelText => &[Grep, Ripgrep, Shell, Glob, Ls, ReadFile, WriteFile, Edit],
        }
    }

    /// Whether any of `tools` answers with this field.
    pub fn answered_by_any(self, tools: &[Tool]) -> bool {
        tools.iter().any(|t| self.answered_by().contains(t))
    }

    /// The rule a check of this field enforces on every case of a tool
    /// that answers with it, whatever the case cites (`pwd` must print
    /// the directory, SHELL-6; a matched line says what the file says,
    /// SEARCH-10; the model is shown the resolved path, OUT-5; a read
    /// answers the text exactly, FILE-5): a failure there is attributed
    /// to it. `None` for a field judged under the rules its case cites.
    pub fn rule(self) -> Option<&'static str> {
        match self {
            Field::Output => Some("SHELL-6"),
            Field::MatchesText => Some("SEARCH-10"),
            Field::ModelText => Some("OUT-5"),
            Field::Content => Some("FILE-5"),
            _ => None,
        }
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl AdapterHello {
    /// The fields not observed for `tool`: `unobservable`, then that
    /// tool's `unobservable_by_tool`.
    pub fn unobservable_for(&self, tool: Tool) -> Vec<Field> {
        let mut fields = self.unobservable.clone();
        for &field in self.unobservable_by_tool.get(&tool).into_iter().flatten() {
            if !fields.contains(&field) {
                fields.push(field);
            }
        }
        fields
    }

    /// Whether it declares `feature` ([`Feature::DECLARED`]).
    pub fn declares(&self, feature: Feature) -> bool {
        self.features.contains(&feature)
    }
}

/// One tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Call {
    pub seq: u64,
    /// The case instance id, for the adapter's logs.
    pub case: String,
    pub workspace: Workspace,
    pub tool: Tool,
    pub params: Map<String, Value>,
}

/// One line of a search result.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Match {
    pub path: String,
    pub line: u64,
    pub text: String,
}

/// What an `ls` entry is, found without following links (spec LS-5).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum EntryType {
    File,
    Directory,
    /// Any symbolic link, whatever it points to: a listing never follows one.
    Symlink,
    /// A FIFO, socket or device; listed, never opened.
    Other,
}

impl EntryType {
    pub fn name(self) -> &'static str {
        // The wire name, from the serde attribute's twin: one spelling, no list.
        self.into()
    }
}

/// One entry of an `ls` result: its absolute lexical path and its type.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Entry {
    pub path: String,
    #[serde(rename = "type")]
    pub entry_type: EntryType,
}

/// An error the tool reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
    /// Which of the adapter's classification rules gave `code`, when it
    /// read the code from text (an MCP profile's rule, `errno ENOENT`,
    /// `default`): shown beside the code in reports, so a wrong code points
    /// at the rule to fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// What the implementation answered to one call. Fields it leaves out are
/// `None`; the comparison decides what that means for each expectation.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct ToolResult {
    #[serde(default)]
    pub seq: u64,
    pub outcome: Option<Outcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<Kind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matches: Option<Vec<Match>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<String>>,
    /// The text the tool gives the model, as the implementation returns it
    /// (OUT-5: it names the resolved path that was used).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_text: Option<String>,
    /// `glob`: the absolute lexical path of every matching file (GLOB-8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    /// `ls`: every entry listed (LS-5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries: Option<Vec<Entry>>,
    /// `read_file`: the file's text, byte for byte (FILE-5); absent for a
    /// binary file, which carries the note `binary` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorBody>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Fields of this answer the adapter composed rather than read from the
    /// tool (names as in `unobservable`: an entry path built from the
    /// request's path, a `cwd` copied from the request, an `error.code`
    /// chosen by a default rule). They count as not observed for this
    /// answer: never a pass.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub derived: Vec<Field>,
}

impl ToolResult {
    /// An error result with the given code and message.
    pub fn error(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolResult {
            outcome: Some(Outcome::Error),
            error: Some(ErrorBody {
                code,
                message: message.into(),
                rule: None,
            }),
            ..ToolResult::default()
        }
    }
}

/// Messages the harness sends, one JSON object per line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum HarnessMessage {
    Hello(HarnessHello),
    Call(Call),
    Bye,
}

/// Messages an adapter sends, one JSON object per line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AdapterMessage {
    Hello(AdapterHello),
    Result(ToolResult),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `name()` comes from strum's attribute, the wire from serde's: the
    /// two must spell every variant alike.
    fn agree<T: serde::Serialize + std::fmt::Debug>(all: &[T], name: impl Fn(&T) -> &'static str) {
        for v in all {
            assert_eq!(serde_json::to_value(v).unwrap(), name(v), "{v:?}");
        }
    }

    #[test]
    fn unobservable_is_every_tool_and_by_tool_adds_to_one() {
        let hello: AdapterHello = serde_json::from_str(
            r#"{"protocol":1,"implementation":{"name":"x","version":"1","language":"py"},
                "tools":["grep","ls"],"unobservable":["model_text"],
                "unobservable_by_tool":{"ls":["entries.path","model_text"]}}"#,
        )
        .unwrap();
        assert_eq!(hello.unobservable_for(Tool::Grep), [Field::ModelText]);
        assert_eq!(
            hello.unobservable_for(Tool::Ls),
            [Field::ModelText, Field::EntriesPath],
            "added once, after the list for every tool"
        );
        // An adapter that sends neither, or a result without `derived`,
        // reads as before.
        let old: AdapterHello = serde_json::from_str(
            r#"{"protocol":1,"implementation":{"name":"x","version":"1","language":"py"},"tools":[]}"#,
        )
        .unwrap();
        assert!(old.unobservable_for(Tool::Ls).is_empty());
        let result: ToolResult =
            serde_json::from_str(r#"{"seq":1,"outcome":"ok","derived":["error.code"]}"#).unwrap();
        assert_eq!(result.derived, [Field::ErrorCode]);
        assert!(
            !serde_json::to_string(&ToolResult::default())
                .unwrap()
                .contains("derived"),
            "absent when empty"
        );
    }

    /// The fields are the names spec/protocol.md's "What is observed"
    /// table gives, every one and no other, and each reads back from its
    /// wire name.
    #[test]
    fn fields_are_the_protocol_s_table() {
        let doc = include_str!("../../../spec/protocol.md");
        let table = doc
            .split("## What is observed")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .expect("spec/protocol.md has the section");
        let mut named: Vec<&str> = table
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .flat_map(|l| l.split(" |").next())
            .flat_map(|cell| cell.split(", "))
            .map(|name| name.trim_matches('`'))
            .collect();
        named.sort_unstable();
        let mut ours: Vec<&str> = Field::ALL.iter().map(|f| f.name()).collect();
        ours.sort_unstable();
        assert_eq!(ours, named);
        for field in Field::ALL {
            assert_eq!(Field::from_wire(field.name()), Some(field));
            assert!(!field.answered_by().is_empty(), "{field}");
        }
        assert_eq!(Field::from_wire("entries.path"), Some(Field::EntriesPath));
        assert_eq!(Field::from_wire("model_text"), Some(Field::ModelText));
        assert_eq!(Field::from_wire("colour"), None);
        assert_eq!(Field::from_wire("matches_path"), None, "one spelling");
    }

    /// A misspelt name in `hello` is refused with the names it could have
    /// been (issue 46), where it was once silently ignored.
    #[test]
    fn a_misspelt_name_in_hello_is_refused_with_the_known_ones() {
        let hello = |lists: &str| {
            serde_json::from_str::<AdapterHello>(&format!(
                r#"{{"protocol": 1, "implementation": {{"name": "a", "version": "1", "language": "x"}},
                    "tools": ["ls"], {lists}}}"#
            ))
        };
        let fine = hello(
            r#""features": ["fifos"], "unobservable": ["parent"], "unobservable_by_tool": {"ls": ["entries.path"]}"#,
        )
        .unwrap();
        assert_eq!(
            fine.unobservable_for(Tool::Ls),
            [Field::Parent, Field::EntriesPath]
        );
        assert!(fine.declares(Feature::Fifos));
        for (lists, typo, known) in [
            (r#""features": ["fifo"]"#, "`fifo`", "`fifos`"),
            (r#""unobservable": ["parnet"]"#, "`parnet`", "`parent`"),
            (
                r#""unobservable_by_tool": {"ls": ["entries.paht"]}"#,
                "`entries.paht`",
                "`entries.path`",
            ),
            (
                r#""unobservable_by_tool": {"read-file": []}"#,
                "`read-file`",
                "`read_file`",
            ),
        ] {
            let e = hello(lists).unwrap_err().to_string();
            assert!(e.contains(typo) && e.contains(known), "{lists}: {e}");
        }
        let e =
            serde_json::from_str::<ToolResult>(r#"{"outcome": "ok", "derived": ["error.cod"]}"#)
                .unwrap_err()
                .to_string();
        assert!(
            e.contains("`error.cod`") && e.contains("`error.code`"),
            "{e}"
        );
    }

    #[test]
    fn names_are_the_wire_names() {
        agree(Tool::VARIANTS, |v| v.name());
        agree(Kind::VARIANTS, |v| v.name());
        agree(EntryType::VARIANTS, |v| v.name());
        agree(ErrorCode::VARIANTS, |v| v.name());
        agree(Field::VARIANTS, |v| v.name());
        agree(Feature::VARIANTS, |v| v.name());
        assert_eq!(Tool::ALL, Tool::VARIANTS);
        for (i, tool) in Tool::ALL.into_iter().enumerate() {
            assert_eq!(tool.index(), i);
        }
    }
}
