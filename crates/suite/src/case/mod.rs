//! Cases: from the bytes of a case file to the validated [`Case`] the rest
//! of toolpath works with.
//!
//! The way through, one module each:
//!
//! - [`raw`]: the file exactly as written ([`raw::RawCase`], what the
//!   editor schema describes), nothing validated;
//! - [`yaml`]: parsing, with errors that name the field and the place;
//! - [`validate`]: every check a schema cannot make, one module per
//!   concern, every error of a file collected ([`CaseErrors`]);
//! - this module: the validated [`Case`] and its parts;
//! - [`load`]: case folders, file names and ids;
//! - [`compact`]: how the embedded form writes a case's parameters and files.
//!
//! Beside them: [`error`] (an error and how it quotes a case file),
//! [`path`] ([`FixturePath`]), [`generate`] (file content made at build
//! time) and [`limits`] (every size a case is held to).
//! May import [`crate::protocol`], [`crate::spec`], [`crate::placeholders`]
//! and [`crate::sanitize`]; nothing here imports the wildcard matcher.
//! Within it (`ARCHITECTURE.md`, the suite crate's floors), [`validate`]
//! builds on the types of this module and [`load`] on [`validate`]: this
//! module and the ones beside it import neither (use
//! `case::validate::parse_case`, not a re-export here).

pub mod compact;
pub mod error;
pub mod generate;
pub mod limits;
pub mod load;
pub mod path;
pub mod raw;
pub mod shape;
pub mod validate;
pub mod yaml;

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_json::{Map, Value};

pub use crate::case::error::{CaseError, CaseErrors, QUOTE_LIMIT, quote};
pub use crate::case::generate::Generated;
pub use crate::case::limits::{MAX_CASE_BYTES, MAX_CASE_NODES};
pub use crate::case::path::FixturePath;
pub use crate::case::raw::KNOWN_TAGS;
use crate::case::raw::{ExpectedOutcome, Feature};
pub use crate::case::shape::{Form, RootPlace, Shape};
pub use crate::case::yaml::yaml_lines;
use crate::protocol::{EntryType, ErrorCode, Field, Kind, Tool};

/// The workspace a case builds on disk.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Fixture {
    pub roots: Vec<FixturePath>,
    pub target: FixturePath,
    #[serde(with = "crate::case::compact::files")]
    pub files: Vec<(FixturePath, Vec<u8>)>,
    /// Files whose content is generated when the fixture is built
    /// (`files: {PATH: {generate: ...}}`): described, never stored.
    pub generated: Vec<(FixturePath, Generated)>,
    pub dirs: Vec<FixturePath>,
    pub symlinks: Vec<(FixturePath, String)>,
    pub fifos: Vec<FixturePath>,
    pub sockets: Vec<FixturePath>,
    pub devices: Vec<FixturePath>,
    pub modes: Vec<(FixturePath, u32)>,
    /// Roots made git repositories (a real `git init` and one commit).
    pub git: Vec<FixturePath>,
    /// Files of `files` that the commit of the repository holding them
    /// leaves out (untracked, not ignored).
    pub untracked: Vec<FixturePath>,
    /// Directories to put the subject's own ignore files in, each with
    /// their text: one file per name its `hello` announces
    /// (`ignore_files`), added by [`Fixture::with_own_ignore_files`]
    /// before the fixture is built.
    pub own_ignore_files: Vec<(FixturePath, String)>,
}

impl Fixture {
    /// Whether `path` lies outside every root (SEC-12): neither at or
    /// below a root as the case writes it, nor at or below the place a
    /// root that is one of the fixture's links leads to (a root reached
    /// through a link, SEC-1). Decided on the case's text alone: link
    /// targets are lexical and stay in the fixture directory
    /// ([`validate::links`]).
    pub fn outside_every_root(&self, path: &FixturePath) -> bool {
        let within = |place: &str| {
            place.is_empty()
                || path.as_str() == place
                || path
                    .as_str()
                    .strip_prefix(place)
                    .is_some_and(|rest| rest.starts_with('/'))
        };
        !self.roots.iter().any(|root| {
            let mut place = root.as_str().to_owned();
            // A root that is a link (or a chain of them) leads somewhere
            // inside the fixture directory; both places are the root's.
            for _ in 0..40 {
                if within(&place) {
                    return true;
                }
                let Some((_, target)) = self.symlinks.iter().find(|(l, _)| l.as_str() == place)
                else {
                    return false;
                };
                place = match lead(&place, target) {
                    Some(next) => next,
                    None => return false,
                };
            }
            false
        })
    }
}

/// Where a link at `link` with `target` leads, lexically, below the
/// fixture directory (`""` for the directory itself); `None` above it.
fn lead(link: &str, target: &str) -> Option<String> {
    let (mut parts, rest): (Vec<&str>, &str) = match target.strip_prefix("{tmp}") {
        Some(rest) => (Vec::new(), rest),
        None => (
            link.rsplit_once('/')
                .map_or(Vec::new(), |(dir, _)| dir.split('/').collect()),
            target,
        ),
    };
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            name => parts.push(name),
        }
    }
    Some(parts.join("/"))
}

impl Fixture {
    /// The fixture a subject whose `hello` announces the ignore files
    /// `names` gets: in each directory of `own_ignore_files`, one file of
    /// its text under each name, as if the case had listed them in
    /// `files`. One place does it before anything is built, so the build,
    /// the snapshot, the twin and every check after the call see an
    /// ordinary fixture. Borrowed when the case has none; refused, with
    /// the reason, when a file would stand where the case already makes
    /// something, or above it (the names come from the subject, which the
    /// case's author could not know).
    pub fn with_own_ignore_files(&self, names: &[String]) -> Result<Cow<'_, Fixture>, String> {
        if self.own_ignore_files.is_empty() {
            return Ok(Cow::Borrowed(self));
        }
        let mut fixture = self.clone();
        let own = std::mem::take(&mut fixture.own_ignore_files);
        for (dir, text) in &own {
            for name in names {
                let file = FixturePath::parse(name)
                    .and_then(|name| dir.join(&name))
                    .map_err(|e| format!("the announced ignore file `{}`: {e}", quote(name)))?;
                let taken = (fixture.roots.iter())
                    .chain(std::iter::once(&fixture.target))
                    .chain(fixture.created())
                    .chain(fixture.modes.iter().map(|(p, _)| p))
                    .chain(&fixture.git)
                    .find(|p| p.is_within(&file));
                if let Some(taken) = taken {
                    return Err(format!(
                        "the announced ignore file `{}` would be `{}`, where the fixture already makes `{}`",
                        quote(name),
                        quote(file.as_str()),
                        quote(taken.as_str())
                    ));
                }
                fixture.files.push((file, text.clone().into_bytes()));
            }
        }
        Ok(Cow::Owned(fixture))
    }

    /// Every path an entry of the fixture creates: files, directories,
    /// links, pipes, sockets and devices (not the roots, the target or the
    /// paths `modes` names).
    pub fn created(&self) -> impl Iterator<Item = &FixturePath> {
        self.files
            .iter()
            .map(|(p, _)| p)
            .chain(self.generated.iter().map(|(p, _)| p))
            .chain(&self.dirs)
            .chain(self.symlinks.iter().map(|(p, _)| p))
            .chain(&self.fifos)
            .chain(&self.sockets)
            .chain(&self.devices)
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
    /// What a successful `write_file` or `edit` writes: a fixture file and
    /// the bytes it then holds. Empty for every other call: nothing may
    /// change (SEC-11, FILE-11).
    #[serde(with = "crate::case::compact::files")]
    pub writes: Vec<(FixturePath, Vec<u8>)>,
}

impl Expect {
    /// The expectation as one cell of a matrix sees it: the fields `tools`
    /// answer with, the others left unchecked.
    pub fn for_tools(&self, tools: &[Tool]) -> Expect {
        let keep = |field: Field| field.answered_by_any(tools);
        let mut out = self.clone();
        if !keep(Field::Kind) {
            out.kind = None;
        }
        if !keep(Field::Path) {
            out.path = None;
        }
        if !keep(Field::Parent) {
            out.parent = None;
        }
        if !keep(Field::Cwd) {
            out.cwd = None;
        }
        if !keep(Field::Matches) {
            out.matches = None;
        }
        if !keep(Field::Notes) {
            out.notes = None;
        }
        if !keep(Field::Files) {
            out.files = None;
        }
        if !keep(Field::Entries) {
            out.entries = None;
        }
        if !tools.iter().any(|t| t.writes()) {
            out.writes.clear();
        }
        out
    }
}

/// A valid case. Serialisable for the pre-validated embedded suite only
/// (see `case::embedded`): a case read from text is always validated.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Case {
    pub id: String,
    /// The id written in the file when this case is one cell of a matrix
    /// (`cases/README.md`, "Matrix cases"): the file is named after it,
    /// and filters may name it to select every cell.
    pub matrix: Option<String>,
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
    /// The form and root of the path the call sends, for coverage.
    pub shape: Shape,
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
        instance_id(&self.case.id, &self.case.tools, self.tool)
    }
}

/// The id of case `id`'s instance for `tool`, the case answering `tools`.
fn instance_id(id: &str, tools: &[Tool], tool: Tool) -> String {
    if tools.len() > 1 {
        format!("{id}@{tool}")
    } else {
        id.to_owned()
    }
}

/// What names, lists and selects a case, without its fixture, call and
/// expectation: the embedded suite carries one a case beside the cases,
/// so `toolpath list` decodes these alone (the whole cases were most of
/// its time, and it grew with every case).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CaseHead {
    pub id: String,
    pub matrix: Option<String>,
    pub file: PathBuf,
    pub line: u64,
    pub summary: String,
    pub spec: Vec<String>,
    pub tags: Vec<String>,
    pub tools: Vec<Tool>,
}

impl CaseHead {
    /// The id of its instance for `tool` (as [`Instance::id`]).
    pub fn instance_id(&self, tool: Tool) -> String {
        instance_id(&self.id, &self.tools, tool)
    }
}

impl From<&Case> for CaseHead {
    fn from(case: &Case) -> CaseHead {
        CaseHead {
            id: case.id.clone(),
            matrix: case.matrix.clone(),
            file: case.file.clone(),
            line: case.line,
            summary: case.summary.clone(),
            spec: case.spec.clone(),
            tags: case.tags.clone(),
            tools: case.tools.clone(),
        }
    }
}

impl Case {
    /// The id the case file is named after: the matrix's, or the case's own.
    pub fn file_id(&self) -> &str {
        self.matrix.as_deref().unwrap_or(&self.id)
    }

    pub fn instances(&self) -> impl Iterator<Item = Instance<'_>> {
        self.tools
            .iter()
            .map(move |&tool| Instance { case: self, tool })
    }
}
