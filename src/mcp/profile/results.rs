//! How a server tool's answer is read back into a result: the rules of a
//! `result` map, line by line or from `structuredContent`, and a search
//! session polled to its end.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use super::*;
use toolpath_suite::protocol::{EntryType, Kind};

/// How a tool's text answer is read. Every text block of the answer and
/// the text of every embedded text resource, joined with newlines, is the
/// `model_text` (OUT-5) and what these rules read, line by line (or, with
/// `structured`, a value of its `structuredContent`).
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
    /// `glob`: a line pattern with a `path` group, one file per line, or
    /// `{json: {items: POINTER, path: POINTER}}` for an answer in JSON.
    #[serde(default)]
    pub files: Option<FilesRule>,
    /// `grep`: matches on one line, or a file line then its match lines.
    #[serde(default)]
    pub matches: Option<MatchesRule>,
    /// `shell`: the command's output is the whole text (`text`), and its
    /// directory the request's (`request`, composed).
    #[serde(default)]
    pub output: Option<WholeText>,
    /// `read_file`: the file's content is the whole text (`text`) or a
    /// string of it parsed as JSON (`{json: POINTER}`), exactly as the
    /// server answered it; the suite's note `binary` has no counterpart in
    /// a server's text, so `notes` is composed (`[]`).
    #[serde(default)]
    pub content: Option<At<ContentRule>>,
    /// Where in a successful answer's `structuredContent` the text these
    /// rules read is: a JSON Pointer (RFC 6901, `/report`); a string is
    /// read as it is, another value as its JSON. The model is still shown
    /// the content's text (OUT-5). Without it the rules read the content.
    #[serde(default, deserialize_with = "json_pointer")]
    #[schemars(regex(pattern = "^(/.*)?$"))]
    pub structured: Option<String>,
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

/// A JSON Pointer: empty (the whole value) or `/`-led segments.
fn json_pointer<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    required_pointer(d).map(Some)
}

/// [`json_pointer`], for a key that must be given.
fn required_pointer<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let pointer = String::deserialize(d)?;
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return Err(serde::de::Error::custom(format!(
            "`{pointer}` is no JSON Pointer (RFC 6901): it starts with `/`, as `/{pointer}`"
        )));
    }
    Ok(pointer)
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

/// How the echoed path is found: `request` (composed), `{line: '…'}` or
/// `{json: POINTER}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PathRule {
    Request,
    /// A line pattern with a `path` group.
    Line(Pattern),
    /// The string at this JSON Pointer of the text parsed as JSON, for a
    /// server that answers a document (`/file/filePath`).
    Json(
        #[serde(deserialize_with = "required_pointer")]
        #[schemars(regex(pattern = "^(/.*)?$"))]
        String,
    ),
}

/// How `read_file`'s content is read: the whole text (`text`), or the
/// string at a JSON Pointer of the text parsed as JSON (`{json:
/// /file/content}`), for a read tool that answers its file inside a
/// document with the path and line counts beside it. Either way the
/// content is taken exactly as the server gave it.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ContentRule {
    Text,
    Json(
        #[serde(deserialize_with = "required_pointer")]
        #[schemars(regex(pattern = "^(/.*)?$"))]
        String,
    ),
}

/// The word `text`.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WholeText {
    Text,
}

/// `ls` entries: from lines (`line`) or from a JSON answer (`json`), one
/// of the two.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EntriesRule {
    /// A line pattern with a `name` group (joined onto the listed
    /// directory) or a `path` group, and a `type` group.
    #[serde(default)]
    pub line: Option<Pattern>,
    /// The text parsed as JSON: the entries are the items of the list at
    /// `items`, each with its `name` (or `path`) and `type` at their
    /// pointers.
    #[serde(default)]
    pub json: Option<At<JsonItems>>,
    /// The server's word for each entry type (`FILE: file`, `DIR:
    /// directory`); a JSON value that is not a string is looked up as its
    /// JSON text (`"true": directory`).
    #[serde(default)]
    pub types: BTreeMap<String, EntryType>,
}

/// Where the fields of a JSON answer are: the list of items (`items`, a
/// JSON Pointer into the text parsed as JSON), and each field in an item
/// (a pointer into the item; `""` is the item itself, as for a list of
/// path strings). A rule gives the fields its tool's results have:
/// `entries` a `name` or `path` and a `type`, `files` a `path`, `matches`
/// a `path`, a `line` and a `text`. Fields read together from one item
/// are what a line pattern cannot join when a server answers in JSON (an
/// entry's name with its type, a line number with its text).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JsonItems {
    #[serde(deserialize_with = "required_pointer")]
    #[schemars(regex(pattern = "^(/.*)?$"))]
    pub items: String,
    #[serde(default, deserialize_with = "json_pointer")]
    #[schemars(regex(pattern = "^(/.*)?$"))]
    pub path: Option<String>,
    #[serde(default, deserialize_with = "json_pointer")]
    #[schemars(regex(pattern = "^(/.*)?$"))]
    pub name: Option<String>,
    #[serde(default, rename = "type", deserialize_with = "json_pointer")]
    #[schemars(regex(pattern = "^(/.*)?$"))]
    pub entry_type: Option<String>,
    #[serde(default, deserialize_with = "json_pointer")]
    #[schemars(regex(pattern = "^(/.*)?$"))]
    pub line: Option<String>,
    #[serde(default, deserialize_with = "json_pointer")]
    #[schemars(regex(pattern = "^(/.*)?$"))]
    pub text: Option<String>,
}

impl JsonItems {
    /// The pointers given, by key, in the order the keys are documented.
    pub fn given(&self) -> Vec<(&'static str, &str)> {
        [
            ("path", &self.path),
            ("name", &self.name),
            ("type", &self.entry_type),
            ("line", &self.line),
            ("text", &self.text),
        ]
        .into_iter()
        .filter_map(|(key, pointer)| Some((key, pointer.as_deref()?)))
        .collect()
    }
}

/// `glob` files: a line pattern with a `path` group, or the items of a
/// JSON answer (`{json: {items: /files, path: /path}}`).
#[derive(Debug, Clone)]
pub enum FilesRule {
    Line(Pattern),
    Json(At<JsonItems>),
}

/// Either form, told apart by its shape: a string is a pattern, a mapping
/// holds `json`. Read as one value first, so each form's own mistake is
/// reported, not "matched no alternative".
impl<'de> Deserialize<'de> for FilesRule {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let raw = At::<Value>::deserialize(deserializer)?;
        match raw.value {
            Value::String(text) => regex::Regex::new(&text)
                .map(|regex| FilesRule::Line(Pattern(regex, raw.place)))
                .map_err(|e| D::Error::custom(format!("not a regular expression: {e}"))),
            Value::Object(mut object) => {
                let json = object.remove("json");
                if let Some(key) = object.keys().next() {
                    return Err(D::Error::custom(format!(
                        "unknown key `{key}`: `files` is a line pattern or `{{json: {{items: POINTER, path: POINTER}}}}`"
                    )));
                }
                let json = json.ok_or_else(|| {
                    D::Error::custom("`files` as a mapping needs `json` (`{json: {items: POINTER, path: POINTER}}`)")
                })?;
                let items = JsonItems::deserialize(json).map_err(D::Error::custom)?;
                Ok(FilesRule::Json(At {
                    value: items,
                    place: raw.place,
                }))
            }
            _ => Err(D::Error::custom(
                "`files` is a line pattern or `{json: {items: POINTER, path: POINTER}}`",
            )),
        }
    }
}

impl JsonSchema for FilesRule {
    fn schema_name() -> Cow<'static, str> {
        "FilesRule".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let items = generator.subschema_for::<JsonItems>();
        schemars::json_schema!({
            "description": "A line pattern with a `path` group, or the items of a JSON answer.",
            "oneOf": [
                {"type": "string", "format": "regex"},
                {
                    "type": "object",
                    "additionalProperties": false,
                    "required": ["json"],
                    "properties": {"json": items}
                }
            ]
        })
    }
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
    #[serde(default)]
    pub line: Option<Pattern>,
    /// The text parsed as JSON: the matches are the items of the list at
    /// `items`, each with its `path`, `line` and `text` at their pointers
    /// (instead of `file`, `line` and `requested_file`).
    #[serde(default)]
    pub json: Option<At<JsonItems>>,
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
