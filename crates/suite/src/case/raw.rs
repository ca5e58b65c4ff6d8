//! The case file as written on disk: raw YAML types, nothing validated yet.
//!
//! These types mirror the file exactly (`deny_unknown_fields`, no `flatten`,
//! no `untagged`), so serde-saphyr can report the line and column of any bad
//! field. Values that later checks may reject carry their location in a
//! [`Spanned`]. [`crate::case::validate`] turns a [`RawCase`] into a
//! validated [`crate::case::Case`].

use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use serde_saphyr::Spanned;

use crate::case::error::quote;
use crate::case::shape::Form;
use crate::protocol::{EntryType, ErrorCode, Kind, Tool};

/// The features a case `requires` are the protocol's: one list for both.
pub use crate::protocol::Feature;

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
    "files",
];

/// One case file.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "toolpath case")]
pub struct RawCase {
    /// Stable, unique, never renumbered: dotted lower-case words (`search.file.relative`).
    #[schemars(schema_with = "id_schema")]
    pub id: Spanned<String>,
    /// One sentence: what the case shows.
    pub summary: String,
    /// Requirement IDs from `spec/README.md` that this case pins; at least one.
    #[schemars(schema_with = "spec_schema")]
    pub spec: Vec<Spanned<String>>,
    /// Labels from the closed list in `cases/README.md`.
    #[serde(default)]
    #[schemars(schema_with = "tags_schema")]
    pub tags: Vec<Spanned<String>>,
    /// Capabilities the case needs from the adapter or the machine.
    #[serde(default)]
    #[schemars(with = "Vec<Feature>")]
    pub requires: Vec<Spanned<Feature>>,
    pub fixture: RawFixture,
    /// The one call the case makes; a case has `call` or `matrix`, not both.
    #[serde(default)]
    #[schemars(with = "Option<RawCall>")]
    pub call: Option<Spanned<RawCall>>,
    /// One path sent to several tools, in several forms, from several roots:
    /// a rule stated once and pinned for each (`cases/README.md`, "Matrix
    /// cases"). A case has `call` or `matrix`, not both.
    #[serde(default)]
    #[schemars(with = "Option<RawMatrix>")]
    pub matrix: Option<Spanned<RawMatrix>>,
    #[schemars(with = "RawExpect")]
    pub expect: Spanned<RawExpect>,
}

// The editor schema carries what lint checks, so an editor flags an unknown
// requirement ID, tag or a malformed id as it is typed: the lists come from
// the embedded spec and the one list of tags, so they cannot drift.

/// Dotted lower-case words, as `validate::header` accepts them.
pub const ID_PATTERN: &str = r"^[a-z0-9_][a-z0-9_-]*(\.[a-z0-9_][a-z0-9_-]*)+$";

fn id_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "pattern": ID_PATTERN})
}

fn spec_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let ids: Vec<String> = crate::spec::requirements()
        .iter()
        .map(|r| r.id.clone())
        .collect();
    schemars::json_schema!({
        "type": "array",
        "minItems": 1,
        "items": {"type": "string", "enum": ids},
    })
}

fn tags_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "array",
        "items": {"type": "string", "enum": KNOWN_TAGS},
    })
}

/// The workspace to build on disk, relative to a fresh temporary directory.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFixture {
    /// Workspace roots, in order, relative to the fixture directory; created if absent.
    #[schemars(with = "Vec<String>")]
    pub roots: Vec<Spanned<String>>,
    /// The tool's target directory; defaults to the first root.
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub target: Option<Spanned<String>>,
    /// File path to content: a string (UTF-8) or `{base64: ...}`.
    #[serde(default)]
    pub files: SpannedMap<FileContent>,
    /// Empty directories.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub dirs: Vec<Spanned<String>>,
    /// Link path to link target, written into the link as given.
    #[serde(default)]
    pub symlinks: SpannedMap<String>,
    /// Named pipes.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub fifos: Vec<Spanned<String>>,
    /// Unix domain sockets (left bound to nothing).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub sockets: Vec<Spanned<String>>,
    /// Character devices, each a copy of `/dev/null` (major 1, minor 3).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub devices: Vec<Spanned<String>>,
    /// Octal permission bits (`"0000"`), applied after everything else exists.
    #[serde(default)]
    pub modes: SpannedMap<String>,
    /// Directories to make git repositories once every entry exists (each a
    /// root, or a directory holding roots): `git init`, then one commit of
    /// everything (a `.gitignore` among `files` applies).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub git: Vec<Spanned<String>>,
    /// Files (of `files`) inside a `git` directory that its commit leaves
    /// out: there but not tracked, as a file made since the last commit.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub untracked: Vec<Spanned<String>>,
    /// Directory to text: in each, one file under every name the subject
    /// announces as its own ignore file (`hello`'s `ignore_files`), each
    /// holding the text. A subject that announces none skips the case.
    #[serde(default)]
    pub own_ignore_files: SpannedMap<String>,
}

/// A file's content.
///
/// Written by hand rather than as an untagged enum so that a bad value keeps
/// its location.
#[derive(Debug, Clone, PartialEq, Eq, JsonSchema)]
#[schemars(untagged)]
pub enum FileContent {
    /// UTF-8 text, written as is.
    Text(String),
    /// Arbitrary bytes, base64-encoded (standard alphabet, padding optional).
    Base64 { base64: String },
    /// Content generated when the fixture is built, for a file larger than a
    /// case file may hold (`cases/README.md`, "Generated content").
    Generate { generate: RawGenerate },
}

/// A generated file: `fill` repeated to `size` bytes, then each `at` run
/// written over it at its offset. Sizes and offsets are bytes, or a number
/// with `KiB` or `MiB` (`2MiB`, `1MiB+1`). A file is at most 8 MiB, the
/// generated files of one fixture at most 16 MiB together.
// Each value keeps its location, so that a size or run validation refuses
// is reported where it stands.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGenerate {
    /// The file's size: `1048577`, `2MiB`, `1MiB+1`; at most 8 MiB.
    #[schemars(schema_with = "size_schema")]
    pub size: Spanned<SizeText>,
    /// The text repeated to fill the file (cut at `size`); not empty.
    #[schemars(schema_with = "fill_schema")]
    pub fill: Spanned<String>,
    /// Offset (a size, `1MiB`) to the text written there, over the fill;
    /// each run ends within the file, and no two overlap.
    #[serde(default)]
    #[schemars(schema_with = "at_schema")]
    pub at: AtRuns,
}

fn size_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    use crate::case::generate::SIZE_PATTERN;
    use crate::case::limits::MAX_GENERATED_BYTES;
    schemars::json_schema!({"anyOf": [
        {"type": "integer", "minimum": 0, "maximum": MAX_GENERATED_BYTES},
        {"type": "string", "pattern": SIZE_PATTERN},
    ]})
}

fn fill_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({"type": "string", "minLength": 1})
}

fn at_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    use crate::case::generate::SIZE_PATTERN;
    // JSON object keys are strings; YAML's integer keys read as such.
    schemars::json_schema!({
        "type": "object",
        "propertyNames": {"pattern": SIZE_PATTERN},
        "additionalProperties": {"type": "string"},
    })
}

/// The `at` map of a generated file, in the order written; its keys may be
/// YAML integers (`1048577:`) or sizes (`1MiB:`), each with its location.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AtRuns(pub Vec<(Spanned<SizeText>, String)>);

impl<'de> Deserialize<'de> for AtRuns {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RunsVisitor;
        impl<'de> Visitor<'de> for RunsVisitor {
            type Value = AtRuns;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping of offsets to text")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AtRuns, A::Error> {
                let mut runs = Vec::new();
                while let Some(key) = map.next_key::<Spanned<SizeText>>()? {
                    runs.push((key, map.next_value::<String>()?));
                }
                Ok(AtRuns(runs))
            }
        }
        deserializer.deserialize_map(RunsVisitor)
    }
}

/// A size or offset as written: a YAML integer or a string such as `2MiB`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SizeText {
    Bytes(u64),
    Text(String),
}

impl SizeText {
    /// The text a size parser reads.
    pub fn text(&self) -> String {
        match self {
            SizeText::Bytes(n) => n.to_string(),
            SizeText::Text(t) => t.clone(),
        }
    }
}

impl<'de> Deserialize<'de> for SizeText {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct SizeVisitor;
        impl Visitor<'_> for SizeVisitor {
            type Value = SizeText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number of bytes or a size such as `2MiB`")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<SizeText, E> {
                Ok(SizeText::Bytes(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<SizeText, E> {
                u64::try_from(v)
                    .map(SizeText::Bytes)
                    .map_err(|_| E::custom(format!("a size cannot be negative: {v}")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<SizeText, E> {
                // YAML reads an integer too large for 64 bits as a float.
                Err(E::custom(format!(
                    "`{v}` is not a size: write a whole number of bytes, at most {}",
                    crate::case::limits::MAX_GENERATED_BYTES
                )))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<SizeText, E> {
                Ok(SizeText::Text(v.to_owned()))
            }
        }
        deserializer.deserialize_any(SizeVisitor)
    }
}

impl<'de> Deserialize<'de> for FileContent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ContentVisitor;
        impl<'de> Visitor<'de> for ContentVisitor {
            type Value = FileContent;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string, a map {base64: ...} or a map {generate: ...}")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<FileContent, E> {
                Ok(FileContent::Text(v.to_owned()))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<FileContent, E> {
                Err(E::custom(format!(
                    "a file's content is text, but this was read as the boolean {v} (a YAML 1.1 word such as `y`, `yes` or `off`); quote it"
                )))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<FileContent, A::Error> {
                const FIELDS: &[&str] = &["base64", "generate"];
                let mut content = None;
                while let Some(key) = map.next_key::<String>()? {
                    let value = match key.as_str() {
                        "base64" => FileContent::Base64 {
                            base64: map.next_value::<String>()?,
                        },
                        "generate" => FileContent::Generate {
                            generate: map.next_value::<RawGenerate>()?,
                        },
                        _ => return Err(de::Error::unknown_field(&key, FIELDS)),
                    };
                    if content.is_some() {
                        return Err(de::Error::custom(
                            "a file's content is one of `base64` or `generate`, given once",
                        ));
                    }
                    content = Some(value);
                }
                content.ok_or_else(|| de::Error::missing_field("base64"))
            }
        }
        deserializer.deserialize_any(ContentVisitor)
    }
}

impl FileContent {
    /// The bytes it stands for; an error says why base64 does not decode.
    /// Generated content has no bytes here: it is made when a fixture is
    /// built (`validate::fixture`), and is refused anywhere else (an
    /// expected write holds what a call's parameters, in the case file,
    /// can carry).
    pub fn into_bytes(self) -> Result<Vec<u8>, String> {
        use base64::Engine;
        match self {
            FileContent::Text(text) => Ok(text.into_bytes()),
            FileContent::Base64 { base64 } => base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(base64.trim_end_matches('='))
                .map_err(|e| format!("bad base64: {e}")),
            FileContent::Generate { .. } => {
                Err("`generate` describes fixture files only; give the text or `base64`".to_owned())
            }
        }
    }
}

/// A YAML mapping whose keys keep their locations and their order.
#[derive(Debug)]
pub struct SpannedMap<V>(pub Vec<(Spanned<String>, V)>);

impl<V> Default for SpannedMap<V> {
    fn default() -> Self {
        SpannedMap(Vec::new())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for SpannedMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = SpannedMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SpannedMap<V>, A::Error> {
                let mut entries: Vec<(Spanned<String>, V)> = Vec::new();
                // A set beside the list keeps duplicate detection linear: a
                // scan of the list per key made an 80k-entry map quadratic.
                let mut seen: HashSet<String> = HashSet::new();
                while let Some(key) = map.next_key::<Spanned<String>>()? {
                    if !seen.insert(key.value.clone()) {
                        return Err(de::Error::custom(format!(
                            "duplicate key `{}`",
                            quote(&key.value)
                        )));
                    }
                    let value = map.next_value()?;
                    entries.push((key, value));
                }
                Ok(SpannedMap(entries))
            }
        }
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

impl<V: JsonSchema> JsonSchema for SpannedMap<V> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Map_of_{}", V::schema_name()).into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let value = generator.subschema_for::<V>();
        schemars::json_schema!({"type": "object", "additionalProperties": value})
    }
}

/// Which tool a case calls. `search` stands for both `grep` and `ripgrep`:
/// the case runs against each, as two instances (`ID@grep`, `ID@ripgrep`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Deserialize,
    JsonSchema,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ToolSelector {
    Resolve,
    Grep,
    Ripgrep,
    Search,
    Shell,
    Glob,
    Ls,
    #[serde(rename = "read_file")]
    #[strum(serialize = "read_file")]
    ReadFile,
    #[serde(rename = "write_file")]
    #[strum(serialize = "write_file")]
    WriteFile,
    Edit,
}

impl ToolSelector {
    /// The tools it stands for.
    pub fn tools(self) -> Vec<Tool> {
        match self {
            ToolSelector::Resolve => vec![Tool::Resolve],
            ToolSelector::Grep => vec![Tool::Grep],
            ToolSelector::Ripgrep => vec![Tool::Ripgrep],
            ToolSelector::Search => vec![Tool::Grep, Tool::Ripgrep],
            ToolSelector::Shell => vec![Tool::Shell],
            ToolSelector::Glob => vec![Tool::Glob],
            ToolSelector::Ls => vec![Tool::Ls],
            ToolSelector::ReadFile => vec![Tool::ReadFile],
            ToolSelector::WriteFile => vec![Tool::WriteFile],
            ToolSelector::Edit => vec![Tool::Edit],
        }
    }

    /// Its name in a case file (`search`, `read_file`): the serde
    /// attribute's twin.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// The tool call.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCall {
    pub tool: ToolSelector,
    /// Parameters as sent to the tool, with placeholders expanded in strings.
    /// For `shell` the harness adds `command: pwd` unless given.
    /// Each value keeps its location, so that lint can point at a YAML 1.1
    /// word (`yes`, `off`) that the parser read as a boolean.
    #[serde(default)]
    #[schemars(with = "Map<String, Value>")]
    pub params: SpannedMap<Spanned<Value>>,
    /// Instead of calling the tool, check the description of this parameter
    /// in the tool's published schema (spec DESC).
    #[serde(default)]
    pub describe: Option<String>,
}

/// How a matrix case sends its path (`cases/README.md`, "Matrix cases").
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMatrix {
    /// The tools to call, each once per form and root (`search` is `grep`
    /// and `ripgrep`).
    #[schemars(with = "Vec<ToolSelector>")]
    pub tools: Vec<Spanned<ToolSelector>>,
    /// How the path is sent: `absolute` (`{target}/PATH`) and `relative`
    /// (`PATH`); both when left out. A file tool takes the absolute form
    /// only (a relative path is FILE-3's refusal, pinned on its own).
    #[serde(default)]
    #[schemars(with = "Vec<Form>")]
    pub forms: Vec<Spanned<Form>>,
    /// The roots (fixture paths, as `fixture.roots` names them) to take in
    /// turn as the target directory; every root when left out.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub roots: Vec<Spanned<String>>,
    /// The path, relative to the target directory, as the caller writes it
    /// (`lnk/../x`, `../outside`): never normalised by the harness.
    #[schemars(with = "String")]
    pub path: Spanned<String>,
    /// Other parameters per tool (`search: {pattern: secret}`); a tool
    /// left out gets the defaults `cases/README.md` lists.
    #[serde(default)]
    #[schemars(with = "std::collections::BTreeMap<String, Map<String, Value>>")]
    pub params: SpannedMap<SpannedMap<Spanned<Value>>>,
}

/// `ok` or `error`: what the case expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExpectedOutcome {
    Ok,
    Error,
}

/// What the call must answer. A field left out is not checked.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawExpect {
    pub outcome: ExpectedOutcome,
    #[serde(default)]
    pub kind: Option<Kind>,
    /// The lexical absolute path echoed back.
    #[serde(default)]
    pub path: Option<String>,
    /// For kind `file`: the file's parent directory.
    #[serde(default)]
    pub parent: Option<String>,
    /// For `shell`: the directory the command ran in.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Exact set of matches, each `PATH:LINE`; `[]` means none.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub matches: Option<Vec<Spanned<String>>>,
    /// Exact set of notes; `[]` means none.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub notes: Option<Vec<Spanned<String>>>,
    /// For `glob`: exact set of matching files by absolute path; `[]` means none.
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub files: Option<Vec<Spanned<String>>>,
    /// For `ls`: exact set of entries, absolute path to type; `{}` means none.
    #[serde(default)]
    #[schemars(with = "Option<std::collections::BTreeMap<String, EntryType>>")]
    pub entries: Option<SpannedMap<EntryType>>,
    #[serde(default)]
    pub error: Option<RawErrorExpect>,
    /// For `write_file` and `edit`: the file a successful call writes,
    /// fixture path (`ws/a.txt`) to the content it then holds. Nothing
    /// else in the fixture may change (FILE-11).
    #[serde(default)]
    #[schemars(with = "Option<std::collections::BTreeMap<String, FileContent>>")]
    pub writes: Option<SpannedMap<FileContent>>,
    /// For `describe`: words the description must contain (case-insensitive).
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub mentions: Option<Vec<Spanned<String>>>,
    /// For `describe`: phrases the description must not contain (case-insensitive).
    #[serde(default)]
    #[schemars(with = "Option<Vec<String>>")]
    pub excludes: Option<Vec<Spanned<String>>>,
}

/// The expected error.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawErrorExpect {
    pub code: ErrorCode,
    /// Substrings the message must contain, after placeholder expansion.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub message_contains: Vec<Spanned<String>>,
}

#[cfg(test)]
mod tests {
    use strum::VariantArray;

    use super::*;

    #[test]
    fn feature_names_are_the_wire_names() {
        for feature in Feature::VARIANTS {
            assert_eq!(serde_json::to_value(feature).unwrap(), feature.name());
        }
    }

    #[test]
    fn duplicate_keys_are_refused_with_the_key() {
        let err = serde_saphyr::from_str::<SpannedMap<String>>("a: x\nb: y\na: z\n").unwrap_err();
        assert!(
            err.to_string().contains("duplicate mapping key: a"),
            "{err}"
        );
    }
}
