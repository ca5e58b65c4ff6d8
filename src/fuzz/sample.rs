//! One generated input: a workspace, a tool and its parameters, in a form
//! that shrinks well (indices into the fixed [`pools`](crate::fuzz::pools),
//! lists of entries), and its
//! rendering into the case model's [`Fixture`] and call parameters.
//!
//! Rendering is where the case rules are enforced: every entry lies below
//! the fixture directory by construction (names never contain `/`, `.` or
//! `..` as a segment), entries that would collide or be written through a
//! symbolic link are dropped, and the shell only ever gets `pwd` (or a
//! command it must refuse before running anything). So whatever the
//! generator or the shrinker produces is a valid case fixture.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::fuzz::pools::{
    ABSOLUTE_TARGETS, GLOB_PATTERNS, INCLUDES, NAMES, NEW_STRINGS, OLD_STRINGS, PATTERNS,
    UNKNOWN_KEYS, WRITE_CONTENTS, piece,
};
use toolpath_suite::case::{Fixture, FixturePath};
use toolpath_suite::protocol::Tool;

/// How the workspace roots are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Single,
    /// `ws` and `other`.
    Siblings,
    /// `ws` and `ws-evil`: containment by component (SEC-2).
    PrefixSharing,
    /// `ws` and `ws/sub`.
    Nested,
    /// `ws/sub` first, then `ws`.
    NestedReversed,
    /// `ws` and `alias`, a symbolic link to `ws` (a root reached through a link).
    Aliased,
    /// `ws` and `x/ws`: two roots with one base name (`ambiguous_name`).
    SameBase,
}

/// Where an entry lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    First,
    /// The second root (the first when there is only one, or it is a link).
    Second,
    /// `outside`, a sibling of the roots.
    Outside,
}

/// A symbolic link's target text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkTarget {
    /// `../` `up` times (at most the link's depth), then names.
    Relative { up: usize, names: Vec<usize> },
    /// One of [`ABSOLUTE_TARGETS`].
    Absolute(usize),
    /// Where entry `k` of [`Sample::entries`] (modulo their count) is
    /// written, relative to the link's directory: a link that leads to a
    /// file, a directory, another link or itself, inside a root or out of
    /// it (or that dangles, if that entry was dropped).
    Entry(usize),
    /// Text fixed by [`Sample::pin`], so that removing entries while
    /// shrinking cannot change where the link leads.
    Literal(String),
}

/// What an entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    File(Vec<usize>),
    Dir,
    Link(LinkTarget),
    Fifo,
    Socket,
    /// A directory of this many files (`n0.ts`, `n1.ts`, ...; each
    /// `hello\n`): more than the 50 or 100 results some tools stop at.
    Bulk(usize),
}

/// The fewest files a [`EntryKind::Bulk`] directory holds; shrinking
/// moves toward it.
pub const BULK_MIN: usize = 40;

/// One fixture entry below a base: parent names, its name, what it is, and
/// whether its permission bits deny everyone (only used when not root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleEntry {
    pub base: Base,
    pub dirs: Vec<usize>,
    pub name: usize,
    pub kind: EntryKind,
    pub locked: bool,
}

/// How a path parameter's text is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathText {
    /// The path of fixture entry `k` (modulo the entry count), decorated.
    Entry {
        k: usize,
        absolute: bool,
        decoration: Decoration,
    },
    /// Text fixed by [`Sample::pin`], so that removing entries while
    /// shrinking cannot change what the path names.
    Literal(String),
    /// The base name of root `i` (modulo the root count): the shell's
    /// fall-back to root names (SHELL-5), ambiguous with same-named roots.
    RootName(usize),
    /// Free segments after an anchor.
    Free {
        anchor: Anchor,
        segs: Vec<Seg>,
        trailing_slash: bool,
    },
}

/// Textual variations that must not change what a path means (RES-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoration {
    None,
    /// The entry's parent directory instead (a directory with content).
    Parent,
    TrailingSlash,
    DotPrefix,
    DoubleSlash,
    DotSuffix,
    UpAndBack,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Relative,
    Tmp,
    Ws,
    Target,
    Slash,
    /// `{adapter-tmp}`: the implementation's own temporary directory,
    /// outside every root however close it feels (SEC-9).
    AdapterTmp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seg {
    Name(usize),
    Dot,
    DotDot,
    Empty,
}

/// A parameter value: absent, a string of some shape, or something that
/// is not a valid value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg<T> {
    Absent,
    Given(T),
    Empty,
    /// A string with a NUL byte (ERR-7).
    Nul,
    /// Not a string: `0` a number, `1` null, `2` a boolean, `3` an array.
    WrongType(usize),
}

/// The call: which tool, and its parameters by the suite's names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallSpec {
    Resolve {
        path: Arg<PathText>,
    },
    Search {
        ripgrep: bool,
        pattern: Arg<usize>,
        dir_path: Arg<PathText>,
        path: Arg<PathText>,
        include: Arg<usize>,
    },
    Shell {
        command: Arg<()>,
        dir_path: Arg<PathText>,
        directory: Arg<PathText>,
    },
    Glob {
        pattern: Arg<usize>,
        dir_path: Arg<PathText>,
        path: Arg<PathText>,
    },
    Ls {
        dir_path: Arg<PathText>,
        path: Arg<PathText>,
    },
    /// The file tools: `file_path` and its alias `absolute_path` (FILE-1).
    ReadFile {
        file_path: Arg<PathText>,
        absolute_path: Arg<PathText>,
    },
    /// `content` from [`WRITE_CONTENTS`].
    WriteFile {
        file_path: Arg<PathText>,
        absolute_path: Arg<PathText>,
        content: Arg<usize>,
    },
    /// `old_string` from [`OLD_STRINGS`], `new_string` from [`NEW_STRINGS`].
    Edit {
        file_path: Arg<PathText>,
        absolute_path: Arg<PathText>,
        old_string: Arg<usize>,
        new_string: Arg<usize>,
    },
}

/// One generated input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    pub layout: Layout,
    /// Whether `outside`, a sibling of the roots, exists as a directory.
    pub outside: bool,
    /// The target is the first root, or a directory of this name below it.
    pub target_below: Option<usize>,
    pub entries: Vec<SampleEntry>,
    /// Whether the first root is a git repository (`fixture.git`), so a
    /// backend that searches with `git grep` there is exercised.
    pub git: bool,
    pub call: CallSpec,
    /// Whether the root of a [`Layout::Single`] workspace is a link to a
    /// directory beside it (`ws` -> `ws.real`), with the target at the
    /// root: the workspace as a user's symlinked checkout gives it.
    pub linked_root: bool,
    /// A key the tool does not take (ERR-8), from [`UNKNOWN_KEYS`], and its
    /// value: a misspelt or borrowed parameter must be refused, not dropped.
    pub extra: Option<(usize, Arg<PathText>)>,
}

/// A sample made concrete: a valid fixture, the tool, and parameters with
/// placeholders (`{tmp}`, `{ws}`, `{target}`) still in them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub fixture: Fixture,
    pub tool: Tool,
    pub params: Map<String, Value>,
}

fn fp(text: &str) -> FixturePath {
    FixturePath::parse(text).expect("generated fixture paths are valid by construction")
}

impl Layout {
    /// The roots as fixture paths, and the links that make some of them.
    fn roots(self) -> (Vec<&'static str>, Option<(&'static str, &'static str)>) {
        match self {
            Layout::Single => (vec!["ws"], None),
            Layout::Siblings => (vec!["ws", "other"], None),
            Layout::PrefixSharing => (vec!["ws", "ws-evil"], None),
            Layout::Nested => (vec!["ws", "ws/sub"], None),
            Layout::NestedReversed => (vec!["ws/sub", "ws"], None),
            Layout::Aliased => (vec!["ws", "alias"], Some(("alias", "ws"))),
            Layout::SameBase => (vec!["ws", "x/ws"], None),
        }
    }

    /// Whether [`Base::Second`] is a root of its own (not the first root
    /// again, nor a root made by a link).
    pub fn has_second_base(self) -> bool {
        let (roots, link) = self.roots();
        roots.len() > 1 && link.is_none()
    }

    /// Where entries of a base go. A root made by a link gets nothing
    /// written through it.
    fn base_dir(self, base: Base) -> &'static str {
        let (roots, link) = self.roots();
        match base {
            Base::Outside => "outside",
            Base::Second if roots.len() > 1 && link.is_none() => roots[1],
            _ => roots[0],
        }
    }
}

impl Sample {
    /// The fixture path of the tool's target directory.
    pub fn target(&self) -> String {
        let first = self.layout.roots().0[0];
        match self.target_below {
            Some(name) => format!("{first}/{}", NAMES[name]),
            None => first.to_owned(),
        }
    }

    /// The fixture path an entry is written at, if it survives.
    fn entry_path(&self, entry: &SampleEntry) -> String {
        let mut path = self.layout.base_dir(entry.base).to_owned();
        for &d in &entry.dirs {
            path = format!("{path}/{}", NAMES[d]);
        }
        path = format!("{path}/{}", NAMES[entry.name]);
        if entry.kind == EntryKind::Socket && path.len() > 24 {
            // A socket's whole path must fit in `sun_path` (108 bytes).
            path = format!("{}/sock", self.layout.base_dir(entry.base));
        }
        path
    }

    /// The fixture paths of the entries that survive [`Sample::render`].
    pub(crate) fn kept_entries(&self) -> Vec<(String, &SampleEntry)> {
        let (roots, _) = self.layout.roots();
        let mut dirs: BTreeSet<String> = BTreeSet::new();
        for dir in roots.iter().map(|r| r.to_string()).chain([self.target()]) {
            add_with_ancestors(&mut dirs, &dir);
        }
        add_with_ancestors(&mut dirs, "outside");
        let mut leaves: BTreeSet<String> = BTreeSet::new();
        if let Some((link, _)) = self.layout.roots().1 {
            leaves.insert(link.to_owned());
        }
        let mut kept = Vec::new();
        for entry in &self.entries {
            let path = self.entry_path(entry);
            let parent = path.rsplit_once('/').map_or("", |(p, _)| p);
            let blocked = dirs.contains(&path)
                || leaves.contains(&path)
                || ancestors(parent).any(|a| leaves.contains(a));
            if blocked {
                continue;
            }
            add_with_ancestors(&mut dirs, parent);
            if matches!(entry.kind, EntryKind::Dir | EntryKind::Bulk(_)) {
                dirs.insert(path.clone());
            } else {
                leaves.insert(path.clone());
            }
            kept.push((path, entry));
        }
        kept
    }

    /// The valid fixture and call this sample stands for. `permissions`
    /// says whether restrictive modes may be used (they cannot be observed
    /// as root).
    pub fn render(&self, permissions: bool) -> Rendered {
        let (roots, root_link) = self.layout.roots();
        let kept = self.kept_entries();
        let mut fixture = Fixture {
            roots: roots.iter().map(|r| fp(r)).collect(),
            target: fp(&self.target()),
            ..Fixture::default()
        };
        if self.outside && !kept.iter().any(|(p, _)| p.starts_with("outside/")) {
            fixture.dirs.push(fp("outside"));
        }
        if let Some((link, to)) = root_link {
            fixture.symlinks.push((fp(link), to.to_owned()));
        }
        if self.git {
            fixture.git.push(fp(roots[0]));
        }
        let paths: Vec<String> = self.entries.iter().map(|e| self.entry_path(e)).collect();
        for (path, entry) in &kept {
            let at = fp(path);
            match &entry.kind {
                EntryKind::File(pieces) => {
                    let bytes: Vec<u8> = pieces.iter().flat_map(|&p| piece(p)).copied().collect();
                    fixture.files.push((at.clone(), bytes));
                }
                EntryKind::Dir => fixture.dirs.push(at.clone()),
                EntryKind::Bulk(count) => {
                    fixture.dirs.push(at.clone());
                    for i in 0..*count {
                        let file = fp(&format!("{path}/n{i}.ts"));
                        fixture.files.push((file, b"hello\n".to_vec()));
                    }
                }
                EntryKind::Link(target) => {
                    fixture
                        .symlinks
                        .push((at.clone(), target.text(path, &paths)));
                }
                EntryKind::Fifo => fixture.fifos.push(at.clone()),
                EntryKind::Socket => fixture.sockets.push(at.clone()),
            }
            let lockable = matches!(entry.kind, EntryKind::File(_) | EntryKind::Dir);
            if permissions && entry.locked && lockable {
                fixture.modes.push((at, 0o000));
            }
        }
        let ctx = PathContext {
            target: self.target(),
            roots,
            entries: kept.iter().map(|(p, _)| p.as_str()).collect(),
        };
        let (tool, mut params) = self.call.render(&ctx);
        if let Some((key, value)) = &self.extra {
            let key = UNKNOWN_KEYS[*key];
            let known = crate::reference::keys(tool).contains(&key);
            if let (false, Some(v)) = (known, value.render(|p| p.render(&ctx))) {
                params.insert(key.to_owned(), v);
            }
        }
        if self.linked_root && self.layout == Layout::Single && self.target_below.is_none() {
            link_root(&mut fixture);
        }
        Rendered {
            fixture,
            tool,
            params,
        }
    }
}

/// Where a linked root's link leads ([`Sample::linked_root`]).
const LINKED_ROOT: &str = "ws.real";

/// `fixture`'s one root `ws` made a link to [`LINKED_ROOT`], where
/// everything below it is written instead: the call's paths still name
/// `ws`, the root as the workspace gives it.
fn link_root(fixture: &mut Fixture) {
    let moved = |p: &FixturePath| match p.as_str().strip_prefix("ws/") {
        Some(rest) => fp(&format!("{LINKED_ROOT}/{rest}")),
        None if p.as_str() == "ws" => fp(LINKED_ROOT),
        None => p.clone(),
    };
    let f = fixture;
    f.files = (f.files.iter())
        .map(|(p, c)| (moved(p), c.clone()))
        .collect();
    f.dirs = f.dirs.iter().map(moved).collect();
    f.symlinks = (f.symlinks.iter())
        .map(|(p, t)| (moved(p), t.clone()))
        .collect();
    f.fifos = f.fifos.iter().map(moved).collect();
    f.sockets = f.sockets.iter().map(moved).collect();
    f.modes = f.modes.iter().map(|(p, m)| (moved(p), *m)).collect();
    f.git = f.git.iter().map(moved).collect();
    f.dirs.push(fp(LINKED_ROOT));
    f.symlinks.push((fp("ws"), LINKED_ROOT.to_owned()));
}

fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    let mut cuts: Vec<&str> = path.match_indices('/').map(|(i, _)| &path[..i]).collect();
    if !path.is_empty() {
        cuts.push(path);
    }
    cuts.into_iter()
}

fn add_with_ancestors(set: &mut BTreeSet<String>, path: &str) {
    for a in ancestors(path) {
        set.insert(a.to_owned());
    }
}

impl Sample {
    /// The same sample with every link target fixed as the text it has
    /// now, so entries can be removed without moving where a link leads.
    pub fn pin_links(&self) -> Sample {
        let kept = self.kept_entries();
        let paths: Vec<String> = self.entries.iter().map(|e| self.entry_path(e)).collect();
        let mut pinned = self.clone();
        for (j, entry) in self.entries.iter().enumerate() {
            let EntryKind::Link(target) = &entry.kind else {
                continue;
            };
            if let Some((at, _)) = kept.iter().find(|(_, e)| std::ptr::eq(*e, entry)) {
                pinned.entries[j].kind =
                    EntryKind::Link(LinkTarget::Literal(target.text(at, &paths)));
            }
        }
        pinned
    }
}

impl LinkTarget {
    /// The text of the link at fixture path `at`, among the fixture's
    /// `entries`. A relative target never climbs out of the fixture
    /// directory (that would make the case depend on the machine's
    /// temporary directory).
    pub fn text(&self, at: &str, entries: &[String]) -> String {
        let depth = at.matches('/').count();
        let dir = at.rsplit_once('/').map_or("", |(d, _)| d);
        match self {
            LinkTarget::Absolute(i) => ABSOLUTE_TARGETS[*i].to_owned(),
            LinkTarget::Literal(text) => text.clone(),
            LinkTarget::Entry(k) => relative(dir, &entries[k % entries.len().max(1)]),
            LinkTarget::Relative { up, names } => {
                let mut segs: Vec<&str> = vec![".."; (*up).min(depth)];
                segs.extend(names.iter().map(|&n| NAMES[n]));
                if segs.is_empty() {
                    // A link to itself's directory: `.`
                    ".".to_owned()
                } else {
                    segs.join("/")
                }
            }
        }
    }
}

/// What a path text needs to know about the rendered fixture.
struct PathContext<'a> {
    target: String,
    roots: Vec<&'static str>,
    entries: Vec<&'a str>,
}

impl PathContext<'_> {
    /// `to` relative to the target directory (both fixture paths).
    fn relative(&self, to: &str) -> String {
        relative(&self.target, to)
    }
}

/// Fixture path `to` relative to fixture directory `from` (`""`: the
/// fixture directory itself).
fn relative(from: &str, to: &str) -> String {
    let from: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let to: Vec<&str> = to.split('/').collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut segs: Vec<&str> = vec![".."; from.len() - common];
    segs.extend(&to[common..]);
    if segs.is_empty() {
        ".".to_owned()
    } else {
        segs.join("/")
    }
}

impl PathText {
    fn render(&self, ctx: &PathContext) -> String {
        match self {
            PathText::Literal(text) => text.clone(),
            PathText::RootName(i) => {
                let root = ctx.roots[i % ctx.roots.len()];
                root.rsplit('/').next().unwrap_or(root).to_owned()
            }
            PathText::Entry {
                k,
                absolute,
                decoration,
            } => {
                let Some(entry) = ctx.entries.get(k % ctx.entries.len().max(1)) else {
                    return ".".to_owned();
                };
                let entry = match decoration {
                    Decoration::Parent => entry.rsplit_once('/').map_or(*entry, |(dir, _)| dir),
                    _ => entry,
                };
                let text = if *absolute {
                    format!("{{tmp}}/{entry}")
                } else {
                    ctx.relative(entry)
                };
                decoration.apply(&text)
            }
            PathText::Free {
                anchor,
                segs,
                trailing_slash,
            } => {
                let body: Vec<&str> = segs
                    .iter()
                    .map(|s| match s {
                        Seg::Name(n) => NAMES[*n],
                        Seg::Dot => ".",
                        Seg::DotDot => "..",
                        Seg::Empty => "",
                    })
                    .collect();
                let body = body.join("/");
                let mut text = match anchor {
                    Anchor::Relative => body,
                    Anchor::Tmp => format!("{{tmp}}/{body}"),
                    Anchor::Ws => format!("{{ws}}/{body}"),
                    Anchor::Target => format!("{{target}}/{body}"),
                    Anchor::Slash => format!("/{body}"),
                    Anchor::AdapterTmp => format!("{{adapter-tmp}}/{body}"),
                };
                if *trailing_slash && !text.ends_with('/') {
                    text.push('/');
                }
                text
            }
        }
    }
}

impl Decoration {
    fn apply(self, text: &str) -> String {
        match self {
            Decoration::None | Decoration::Parent => text.to_owned(),
            Decoration::TrailingSlash => format!("{text}/"),
            Decoration::DotPrefix if !text.starts_with('{') => format!("./{text}"),
            Decoration::DotPrefix => text.to_owned(),
            Decoration::DoubleSlash => match text.rfind('/') {
                Some(i) => format!("{}/{}", &text[..i], &text[i..]),
                None => format!("{text}//"),
            },
            Decoration::DotSuffix => format!("{text}/."),
            Decoration::UpAndBack => match text.rsplit_once('/') {
                Some((dir, name)) => format!("{dir}/x/../{name}"),
                None => format!("x/../{text}"),
            },
        }
    }
}

impl<T> Arg<T> {
    fn render(&self, given: impl Fn(&T) -> String) -> Option<Value> {
        match self {
            Arg::Absent => None,
            Arg::Given(t) => Some(Value::String(given(t))),
            Arg::Empty => Some(Value::String(String::new())),
            Arg::Nul => Some(Value::String("a\0b".to_owned())),
            Arg::WrongType(i) => Some(match i % 4 {
                0 => json!(1),
                1 => Value::Null,
                2 => json!(true),
                _ => json!(["a"]),
            }),
        }
    }
}

/// The path parameters of `$spec` (a `&CallSpec` or a `&mut CallSpec`),
/// by their names on the wire, borrowed as `$spec` is: one list for
/// [`CallSpec::paths`] and [`CallSpec::paths_mut`].
macro_rules! path_params {
    ($spec:expr) => {
        match $spec {
            CallSpec::Resolve { path } => vec![("path", path)],
            CallSpec::Search { dir_path, path, .. }
            | CallSpec::Glob { dir_path, path, .. }
            | CallSpec::Ls { dir_path, path } => vec![("dir_path", dir_path), ("path", path)],
            CallSpec::Shell {
                dir_path,
                directory,
                ..
            } => vec![("dir_path", dir_path), ("directory", directory)],
            CallSpec::ReadFile {
                file_path,
                absolute_path,
            }
            | CallSpec::WriteFile {
                file_path,
                absolute_path,
                ..
            }
            | CallSpec::Edit {
                file_path,
                absolute_path,
                ..
            } => vec![("file_path", file_path), ("absolute_path", absolute_path)],
        }
    };
}

impl CallSpec {
    /// The call's tool and parameters, its paths rendered against `ctx`;
    /// an absent parameter is left out.
    fn render(&self, ctx: &PathContext) -> (Tool, Map<String, Value>) {
        let paths = (self.paths().into_iter()).map(|(name, p)| (name, p.render(|p| p.render(ctx))));
        let params = (paths.chain(self.values()))
            .filter_map(|(name, value)| Some((name.to_owned(), value?)))
            .collect();
        (self.tool(), params)
    }

    /// The tool the call is made to.
    fn tool(&self) -> Tool {
        match self {
            CallSpec::Resolve { .. } => Tool::Resolve,
            CallSpec::Search { ripgrep: true, .. } => Tool::Ripgrep,
            CallSpec::Search { ripgrep: false, .. } => Tool::Grep,
            CallSpec::Shell { .. } => Tool::Shell,
            CallSpec::Glob { .. } => Tool::Glob,
            CallSpec::Ls { .. } => Tool::Ls,
            CallSpec::ReadFile { .. } => Tool::ReadFile,
            CallSpec::WriteFile { .. } => Tool::WriteFile,
            CallSpec::Edit { .. } => Tool::Edit,
        }
    }

    /// The parameters that name a path, by their names on the wire: each
    /// a [`PathText`], rendered against the fixture.
    fn paths(&self) -> Vec<(&'static str, &Arg<PathText>)> {
        path_params!(self)
    }

    /// [`CallSpec::paths`], to change: [`Sample::pin`] fixes each as the
    /// text it rendered to.
    pub(crate) fn paths_mut(&mut self) -> Vec<(&'static str, &mut Arg<PathText>)> {
        path_params!(self)
    }

    /// The other parameters, rendered from their pools (`None`: absent).
    fn values(&self) -> Vec<(&'static str, Option<Value>)> {
        match self {
            CallSpec::Search {
                pattern, include, ..
            } => vec![
                ("pattern", pattern.render(|&i| PATTERNS[i].to_owned())),
                ("include", include.render(|&i| INCLUDES[i].to_owned())),
            ],
            // Only `pwd` is ever run; the other shapes are refused
            // before anything runs (SHELL-1), as the case rules allow.
            CallSpec::Shell { command, .. } => {
                vec![("command", command.render(|_| "pwd".to_owned()))]
            }
            CallSpec::Glob { pattern, .. } => {
                vec![("pattern", pattern.render(|&i| GLOB_PATTERNS[i].to_owned()))]
            }
            CallSpec::WriteFile { content, .. } => {
                vec![("content", content.render(|&i| WRITE_CONTENTS[i].to_owned()))]
            }
            CallSpec::Edit {
                old_string,
                new_string,
                ..
            } => vec![
                (
                    "old_string",
                    old_string.render(|&i| OLD_STRINGS[i].to_owned()),
                ),
                (
                    "new_string",
                    new_string.render(|&i| NEW_STRINGS[i].to_owned()),
                ),
            ],
            CallSpec::Resolve { .. } | CallSpec::Ls { .. } | CallSpec::ReadFile { .. } => {
                Vec::new()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(base: Base, dirs: &[usize], name: usize) -> SampleEntry {
        SampleEntry {
            base,
            dirs: dirs.to_vec(),
            name,
            kind: EntryKind::File(vec![0, 1]),
            locked: false,
        }
    }

    fn resolve(path: PathText) -> CallSpec {
        CallSpec::Resolve {
            path: Arg::Given(path),
        }
    }

    #[test]
    fn entries_that_collide_or_pass_through_a_link_are_dropped() {
        let link = SampleEntry {
            kind: EntryKind::Link(LinkTarget::Relative {
                up: 9,
                names: vec![8],
            }),
            ..file(Base::First, &[], 0)
        };
        let sample = Sample {
            layout: Layout::Aliased,
            outside: true,
            target_below: None,
            git: false,
            linked_root: false,
            extra: None,
            entries: vec![
                link,
                file(Base::First, &[0], 1), // ws/a/b: through the link ws/a
                file(Base::First, &[], 0),  // ws/a again
                file(Base::Second, &[], 1), // alias is a link: goes to ws/b
                file(Base::First, &[1], 0), // ws/b/a: below the file ws/b
                file(Base::Outside, &[], 0), // outside/a
            ],
            call: resolve(PathText::Entry {
                k: 1,
                absolute: false,
                decoration: Decoration::None,
            }),
        };
        let r = sample.render(false);
        let files: Vec<&str> = r.fixture.files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(files, ["ws/b", "outside/a"]);
        // The link climbs at most its own depth (1): `../outside`.
        assert_eq!(r.fixture.symlinks[1].1, "../outside");
        assert_eq!(r.params["path"], "b");
    }

    #[test]
    fn paths_are_rendered_relative_to_the_target_with_decorations() {
        let sample = Sample {
            layout: Layout::Siblings,
            outside: true,
            target_below: Some(2),
            git: false,
            linked_root: false,
            extra: None,
            entries: vec![file(Base::Second, &[0], 1)],
            call: resolve(PathText::Entry {
                k: 0,
                absolute: false,
                decoration: Decoration::UpAndBack,
            }),
        };
        let r = sample.render(false);
        assert_eq!(r.fixture.target.as_str(), "ws/src");
        assert_eq!(r.params["path"], "../../other/a/x/../b");
    }
}
