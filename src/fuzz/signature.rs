//! What a generated input is made of, as a set of features: the tool, the
//! layout of the roots, which kinds of entries the fixture holds, the
//! shapes of its links, the odd names and contents in it, the forms of the
//! parameters and what their patterns use. Findings are told apart by the
//! features of their *shrunk* input and the check that failed: two inputs
//! that shrink to the same shape and fail the same check are one finding,
//! and an implementation with several bugs on one field (glob `files`)
//! gets one finding per bug, since each bug needs its own shape (a link
//! below, a name with `:`, a pattern beginning with `!`, more than 50
//! files) to show.
//!
//! Every feature says that something is *there*: the simplest form of each
//! part (one root, a relative path, the first pattern of the pool, plain
//! names and `hello` as content) has none. Shrinking only removes parts
//! or moves them toward their simplest form, so a shrunk input's features
//! are, as a rule, a subset of the input it came from; that is what lets a
//! new divergence whose input has every feature of a known finding be taken
//! for that finding without shrinking it (see [`Signature::explains`]).

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

use crate::fuzz::pools::{DRAWN_NAMES, EXCLUDED_NAMES, LONG_LINE_PIECE, NAMES, PAD_PIECE, PIECES};
use crate::fuzz::sample::{EntryKind, Layout, Rendered, Sample};
use crate::reference::resolve::lexical_resolve;
use toolpath_suite::params;
use toolpath_suite::protocol::Tool;

/// The features of one input.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Signature {
    features: BTreeSet<String>,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.features.is_empty() {
            return f.write_str("the simplest input");
        }
        let all: Vec<&str> = self.features.iter().map(String::as_str).collect();
        f.write_str(&all.join(", "))
    }
}

impl Signature {
    /// Whether every feature of `self` is also in `other`: a divergence
    /// of `other`'s input on the same check is taken for the finding whose
    /// shrunk input `self` describes.
    pub fn explains(&self, other: &Signature) -> bool {
        self.features.is_subset(&other.features)
    }

    /// Eight hex digits naming the set (64-bit FNV-1a of the sorted
    /// features, folded): stable across runs, machines and releases that
    /// keep the feature names, so a finding keeps its case id.
    pub fn short(&self) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for feature in &self.features {
            for byte in feature.bytes().chain([b'\n']) {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        format!("{:08x}", (hash >> 32) ^ (hash & 0xffff_ffff))
    }

    /// The same features but the tool: an adapter that crashes or hangs
    /// on every call is one finding, not one per tool; a failure that only
    /// some input brings about keeps the features of that input.
    pub fn without_tool(mut self) -> Signature {
        self.features.retain(|f| !f.starts_with("tool:"));
        self
    }

    pub fn features(&self) -> impl Iterator<Item = &str> {
        self.features.iter().map(String::as_str)
    }

    /// The signature of `sample`, rendered as `rendered`.
    pub fn of(sample: &Sample, rendered: &Rendered) -> Signature {
        let mut s = Features::default();
        s.add(format!("tool:{}", rendered.tool.name()));
        if sample.layout != Layout::Single {
            s.add(format!("roots:{}", layout_name(sample.layout)));
        }
        if sample.target_below.is_some() {
            s.add("target:below");
        }
        if sample.git {
            // A repository is files in directories below a name with a dot
            // (`.git/HEAD`), whatever else it is for.
            for feature in ["git", "entry:file", "entry:dir", "entry:nested", "name:dot"] {
                s.add(feature);
            }
        }
        if sample.outside {
            s.add("outside:dir");
        }
        if sample.linked_root && sample.layout == Layout::Single {
            s.add("roots:linked");
        }
        if !rendered.fixture.modes.is_empty() {
            s.add("entry:unreadable");
        }
        for (path, entry) in sample.kept_entries() {
            let kind = match &entry.kind {
                EntryKind::File(pieces) => {
                    content(&mut s, pieces);
                    "entry:file"
                }
                EntryKind::Dir => "entry:dir",
                EntryKind::Link(_) => "entry:link",
                EntryKind::Fifo => "entry:fifo",
                EntryKind::Socket => "entry:socket",
                EntryKind::Bulk(count) => {
                    // Files in a directory, first of all; then more of
                    // them than the limits tools commonly stop at.
                    for feature in ["entry:dir", "entry:file", "entry:nested"] {
                        s.add(feature);
                    }
                    for limit in [50, 100] {
                        if *count > limit {
                            s.add(format!("bulk:over-{limit}"));
                        }
                    }
                    "entry:bulk"
                }
            };
            s.add(kind);
            if !entry.dirs.is_empty() {
                s.add("entry:nested");
            }
            match entry.base {
                crate::fuzz::sample::Base::Outside => s.add("entry:outside"),
                crate::fuzz::sample::Base::Second if sample.layout.has_second_base() => {
                    s.add("entry:second-root")
                }
                _ => {}
            }
            for name in path.split('/').skip(1) {
                names(&mut s, name);
            }
        }
        // Two names of one directory that differ only in case.
        let mut folded = BTreeSet::new();
        for (path, _) in sample.kept_entries() {
            if !folded.insert(path.to_lowercase()) {
                s.add("entry:case-siblings");
            }
        }
        links(&mut s, rendered);
        params(&mut s, rendered, sample);
        Signature {
            features: s.0.into_iter().collect(),
        }
    }
}

#[derive(Default)]
struct Features(BTreeSet<String>);

impl Features {
    fn add(&mut self, feature: impl Into<String>) {
        self.0.insert(feature.into());
    }
}

fn layout_name(layout: Layout) -> &'static str {
    match layout {
        Layout::Single => "single",
        Layout::Siblings => "siblings",
        Layout::PrefixSharing => "prefix-sharing",
        Layout::Nested => "nested",
        Layout::NestedReversed => "nested-reversed",
        Layout::Aliased => "aliased",
        Layout::SameBase => "same-base",
    }
}

/// The odd characters of one name, by what they mean to some layer.
fn names(s: &mut Features, name: &str) {
    if NAMES[EXCLUDED_NAMES..DRAWN_NAMES].contains(&name) {
        s.add("name:commonly-excluded");
    }
    let checks: [(&str, bool); 18] = [
        // Issue 45's: a combining mark (a name stored decomposed), a
        // newline, a route group or an extended glob, a `%`-escape of a
        // space.
        (
            "name:decomposed",
            name.chars().any(|c| ('\u{300}'..='\u{36f}').contains(&c)),
        ),
        ("name:newline", name.contains('\n')),
        ("name:group", name.contains('(')),
        ("name:percent-space", name.contains("%20")),
        ("name:dot", name.starts_with('.')),
        ("name:colon", name.contains(':')),
        ("name:bang", name.starts_with('!')),
        ("name:hash", name.contains('#')),
        ("name:tilde", name.starts_with('~')),
        ("name:dollar", name.contains('$')),
        ("name:quote", name.contains('\'') || name.contains('"')),
        ("name:percent", name.contains('%')),
        ("name:space", name.contains(' ')),
        ("name:backslash", name.contains('\\')),
        ("name:dash", name.starts_with('-')),
        ("name:non-ascii", !name.is_ascii()),
        ("name:glob-syntax", name.contains(['*', '?', '[', '{'])),
        ("name:long", name.len() > 64),
    ];
    for (feature, present) in checks {
        if present {
            s.add(feature);
        }
    }
}

/// What a file's content holds besides plain lines.
fn content(s: &mut Features, pieces: &[usize]) {
    for &p in pieces {
        match p {
            PAD_PIECE => s.add("content:past-8k"),
            LONG_LINE_PIECE => s.add("content:long-line"),
            _ => match PIECES.get(p).copied() {
                Some("\0") => s.add("content:nul"),
                Some("\r\n") => s.add("content:crlf"),
                Some("\r") => s.add("content:cr"),
                Some("Hello" | "HELLO world") => s.add("content:other-case"),
                _ => {}
            },
        }
    }
}

/// Each link's shape: where its target is written from, and what it
/// finally leads to, followed through the fixture as written (the root
/// link of [`Layout::Aliased`] is the layout's, not an entry's).
fn links(s: &mut Features, rendered: &Rendered) {
    let f = &rendered.fixture;
    let roots: Vec<&str> = f.roots.iter().map(|r| r.as_str()).collect();
    let kind_at = |path: &str| -> Option<&'static str> {
        let path = path.trim_start_matches('/');
        if f.files.iter().any(|(p, _)| p.as_str() == path) {
            Some("file")
        } else if f.symlinks.iter().any(|(p, _)| p.as_str() == path) {
            Some("link")
        } else if f.fifos.iter().chain(&f.sockets).any(|p| p.as_str() == path) {
            Some("special")
        } else if path.is_empty()
            || f.dirs
                .iter()
                .chain(&f.roots)
                .any(|d| d.as_str() == path || d.as_str().starts_with(&format!("{path}/")))
            || f.files
                .iter()
                .any(|(p, _)| p.as_str().starts_with(&format!("{path}/")))
        {
            Some("dir")
        } else {
            None
        }
    };
    let target_of = |link: &str| -> Option<String> {
        let (_, text) = f.symlinks.iter().find(|(p, _)| p.as_str() == link)?;
        let dir = link.rsplit_once('/').map_or("", |(d, _)| d);
        Some(match text.strip_prefix("{tmp}") {
            Some(rest) => lexical_resolve("/", &format!("/{rest}")),
            None => lexical_resolve(&format!("/{dir}"), text),
        })
    };
    let inside = |path: &str| {
        let path = path.trim_start_matches('/');
        roots
            .iter()
            .any(|r| path == *r || path.starts_with(&format!("{r}/")))
    };
    for (at, text) in &f.symlinks {
        if roots.contains(&at.as_str()) {
            continue;
        }
        if text.starts_with("{tmp}") {
            s.add("link:absolute");
        }
        let mut hops = 0;
        let mut to = target_of(at.as_str());
        while let Some(path) = to.clone() {
            match kind_at(&path) {
                Some("link") if hops < 8 => {
                    hops += 1;
                    s.add("link:chain");
                    to = target_of(path.trim_start_matches('/'));
                }
                Some("link") => {
                    s.add("link:loop");
                    break;
                }
                Some(kind) => {
                    s.add(format!("link:to-{kind}"));
                    break;
                }
                None => {
                    s.add("link:dangling");
                    break;
                }
            }
        }
        if let Some(end) = to
            && !inside(&end)
        {
            s.add("link:leads-out");
        }
    }
}

/// The parameters' forms: which are given, how each path is written, and
/// what the patterns use.
fn params(s: &mut Features, rendered: &Rendered, sample: &Sample) {
    let p = &rendered.params;
    let form = |v: &Value| -> Option<&'static str> {
        match v {
            Value::String(t) if t.is_empty() => Some("empty"),
            Value::String(t) if t.contains('\0') => Some("nul"),
            Value::String(_) => None,
            _ => Some("wrong-type"),
        }
    };
    let table = params::of(rendered.tool);
    for param in table {
        let key = param.name;
        let Some(value) = p.get(key) else {
            if key == PATTERN {
                s.add(format!("{key}:missing"));
            }
            continue;
        };
        if let Some(form) = form(value) {
            s.add(format!("{key}:{form}"));
            continue;
        }
        let text = value.as_str().unwrap_or_default();
        if param.is_path {
            // The path itself; the alias names a form of its own.
            s.add(match param.alias_of {
                Some(_) => "path:by-alias",
                None => "path:given",
            });
            path_text(s, text, &rendered.fixture.roots);
            continue;
        }
        // What the text means is the tool's: a command (only ever `pwd`),
        // a pattern, an `include` glob, or text written to a file.
        match (key, rendered.tool) {
            (COMMAND, _) => {}
            (PATTERN, Tool::Glob) => glob_pattern(s, text),
            (PATTERN, _) => regex(s, text),
            (INCLUDE, _) => include(s, text),
            (key, _) => written_text(s, key, text),
        }
    }
    let unknown = p.keys().any(|k| table.iter().all(|t| t.name != k.as_str()));
    if sample.extra.is_some() && unknown {
        s.add("param:unknown-key");
    }
}

/// The parameters whose text is not a path nor written to a file, by
/// their names in the tool table ([`params::of`]).
const COMMAND: &str = "command";
const PATTERN: &str = "pattern";
const INCLUDE: &str = "include";

/// What a write's or an edit's text holds that a tool may rewrite on the
/// way (FILE-14, FILE-15): line endings, a missing final newline, an
/// escape written as two characters, characters outside the Basic
/// Multilingual Plane, other non-ASCII text, trailing spaces.
fn written_text(s: &mut Features, key: &str, text: &str) {
    for (hit, feature) in [
        (text.contains("\r\n"), "crlf"),
        (
            text.contains('\n') && !text.ends_with('\n'),
            "inner-newline",
        ),
        (
            key == "content" && !text.is_empty() && !text.ends_with('\n'),
            "no-final-newline",
        ),
        (text.contains('\\'), "backslash"),
        (text.chars().any(|c| c as u32 > 0xffff), "astral"),
        (
            text.chars().any(|c| !c.is_ascii() && (c as u32) <= 0xffff),
            "non-ascii",
        ),
        (text.contains(" \n"), "trailing-space"),
        (text.starts_with(' '), "leading-space"),
        (text.chars().any(char::is_uppercase), "upper-case"),
    ] {
        if hit {
            s.add(format!("{key}:{feature}"));
        }
    }
}

fn path_text(s: &mut Features, text: &str, roots: &[toolpath_suite::case::FixturePath]) {
    for (prefix, feature) in [
        ("{adapter-tmp}", "path:adapter-tmp"),
        ("{tmp}", "path:from-fixture-dir"),
        ("{target}", "path:from-target"),
        ("{ws}", "path:from-root"),
        ("/", "path:from-slash"),
    ] {
        if text.starts_with(prefix) {
            s.add(feature);
            break;
        }
    }
    let segments: Vec<&str> = text.split('/').collect();
    if text.ends_with('/') && text.len() > 1 {
        s.add("path:trailing-slash");
    }
    if segments.iter().skip(1).any(|seg| seg.is_empty()) && !text.ends_with('/') {
        s.add("path:double-slash");
    }
    if segments.contains(&"..") {
        s.add("path:dotdot");
    }
    if segments.contains(&".") {
        s.add("path:dot");
    }
    let base = |r: &toolpath_suite::case::FixturePath| r.name().to_owned();
    if !text.contains('/') && roots.iter().any(|r| base(r) == text) {
        s.add("path:root-name");
    }
    for seg in segments {
        if !seg.starts_with('{') && !matches!(seg, "" | "." | "..") {
            names(s, seg);
        }
    }
}

/// `glob` pattern syntax (GLOB-5, GLOB-6); `*` and `**` alone are the
/// simplest patterns and have none.
fn glob_pattern(s: &mut Features, p: &str) {
    let segments: Vec<&str> = p.split('/').collect();
    let checks: [(&str, bool); 10] = [
        ("pattern:bang", p.starts_with('!')),
        ("pattern:absolute", p.starts_with('/')),
        ("pattern:dotdot", segments.contains(&"..")),
        ("pattern:brace", p.contains('{')),
        ("pattern:negated-class", p.contains("[!")),
        ("pattern:class", p.contains('[') && !p.contains("[!")),
        ("pattern:question", p.contains('?')),
        (
            "pattern:segments",
            segments.iter().filter(|s| **s != "**").count() > 1,
        ),
        ("pattern:globstar", p.contains("**") && p != "**"),
        (
            "pattern:literal",
            !p.is_empty() && !p.contains(['*', '?', '[', '{']),
        ),
    ];
    for (feature, present) in checks {
        if present {
            s.add(feature);
        }
    }
    if p.contains('*') && p.contains('.') {
        s.add("pattern:suffix");
    }
}

/// Regular-expression syntax of a search pattern (SEARCH-7).
fn regex(s: &mut Features, p: &str) {
    if p == "(" {
        s.add("pattern:invalid");
        return;
    }
    let checks: [(&str, bool); 8] = [
        ("pattern:anchor", p.contains(['^', '$'])),
        ("pattern:class", p.contains('[')),
        ("pattern:alternation", p.contains('|')),
        ("pattern:group", p.contains('(')),
        ("pattern:repeat", p.contains(['+', '*', '{'])),
        ("pattern:any", p.replace("\\.", "").contains('.')),
        ("pattern:escape", p.contains('\\')),
        ("pattern:non-ascii", !p.is_ascii()),
    ];
    for (feature, present) in checks {
        if present {
            s.add(feature);
        }
    }
}

/// `include` glob syntax (SEARCH-9).
fn include(s: &mut Features, p: &str) {
    s.add("include");
    let closed_brace = p.find('{').is_some_and(|i| p[i..].contains('}'));
    if closed_brace {
        s.add("include:brace");
    } else if p.contains(['{', '}', ',']) {
        s.add("include:stray-brace");
    }
    if !p.contains(['*', '?', '{']) {
        s.add("include:literal");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fuzz::pools::GLOB_PATTERNS;
    use crate::fuzz::sample::{Arg, Base, CallSpec, LinkTarget, PathText, SampleEntry};

    fn glob(pattern: &str, entries: Vec<SampleEntry>) -> Sample {
        Sample {
            layout: Layout::Single,
            outside: false,
            target_below: None,
            entries,
            git: false,
            call: CallSpec::Glob {
                pattern: Arg::Given(GLOB_PATTERNS.iter().position(|p| p == pattern).unwrap()),
                dir_path: Arg::Absent,
                path: Arg::Absent,
            },
            linked_root: false,
            extra: None,
        }
    }

    fn entry(name: &str, dirs: &[&str], kind: EntryKind) -> SampleEntry {
        let at = |n: &str| NAMES.iter().position(|x| *x == n).unwrap();
        SampleEntry {
            base: Base::First,
            dirs: dirs.iter().map(|d| at(d)).collect(),
            name: at(name),
            kind,
            locked: false,
        }
    }

    fn features(sample: &Sample) -> Vec<String> {
        let s = Signature::of(sample, &sample.render(false));
        s.features().map(str::to_owned).collect()
    }

    /// The four shapes of the glob bugs the multi-bug adapter has
    /// (tests/adapters/glob_bugs.py) each have a feature of their own.
    #[test]
    fn each_bug_shape_has_its_own_feature() {
        let plain = glob("**", vec![entry("a", &[], EntryKind::File(vec![0]))]);
        assert_eq!(features(&plain), ["entry:file", "tool:glob"]);
        let colon = glob("**", vec![entry("a:b", &[], EntryKind::File(vec![0]))]);
        assert!(features(&colon).contains(&"name:colon".into()));
        let bang = glob("!a*", vec![entry("a", &[], EntryKind::File(vec![0]))]);
        assert!(features(&bang).contains(&"pattern:bang".into()));
        let link = glob(
            "**",
            vec![
                entry("src", &[], EntryKind::Dir),
                entry("a", &["src"], EntryKind::File(vec![0])),
                entry(
                    "b",
                    &[],
                    EntryKind::Link(LinkTarget::Relative {
                        up: 0,
                        names: vec![2],
                    }),
                ),
            ],
        );
        let f = features(&link);
        assert!(f.contains(&"link:to-dir".into()), "{f:?}");
        assert!(!f.contains(&"link:leads-out".into()), "{f:?}");
        let many = glob("**", vec![entry("a", &[], EntryKind::Bulk(51))]);
        assert!(features(&many).contains(&"bulk:over-50".into()));
    }

    #[test]
    fn a_simpler_input_has_fewer_features_and_the_short_name_is_stable() {
        let path = |text: &str| CallSpec::Ls {
            dir_path: Arg::Given(PathText::Literal(text.into())),
            path: Arg::Absent,
        };
        let mut sample = glob("**", vec![entry("a", &[], EntryKind::File(vec![0]))]);
        sample.call = path("{ws}/./a/");
        let decorated = Signature::of(&sample, &sample.render(false));
        sample.call = path("a");
        let plain = Signature::of(&sample, &sample.render(false));
        assert!(plain.explains(&decorated) && !decorated.explains(&plain));
        assert_eq!(
            plain.to_string(),
            "entry:file, path:given, tool:ls",
            "{plain}"
        );
        // Pinned: a case id made from it must not change between releases.
        assert_eq!(plain.short(), "3ef010f8");
    }
}
