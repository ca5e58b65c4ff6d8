//! What an answer carried out of the workspace (SEC-12), whatever the case
//! expected and whatever the adapter chose to report: judged on the
//! fixture as built, read before the call, never on what the subject
//! left on disk afterwards.
//!
//! - **read**: an outside file's canary (the fixture builder's line,
//!   [`crate::case::fixture::canary`]) anywhere in the answer's text
//!   (`content`, match text, `model_text`, `output`, an error message), or
//!   a line of `content` or a match text that only outside files hold;
//! - **list**: a reported path (`path`, `parent`, `cwd`, a match's, a
//!   glob file, an `ls` entry) whose walk from its root passes through a
//!   link leading outside every root, or whose directory is outside every
//!   root; the last component is the entry itself (`{ws}/lnk`, a link
//!   LS-5 reports as one), never a walk through it; of `resolve`, whose
//!   paths are the one it resolved, not names it listed, **resolve**;
//! - **read** and **write**, again: the path a tool read, searched,
//!   edited or wrote (a match's path, the `path` of `read_file`, `grep`,
//!   `ripgrep`, `write_file` and `edit`), last component included, since
//!   that is where the data came from or went: a match reported at
//!   `{ws}/src/leak.txt`, a link to a file outside, came from outside
//!   whatever its line says (read), an edit answered at such a path went
//!   there (write);
//! - **exec**: a shell command that saw a directory outside: `pwd`
//!   printed a path whose real path is outside every root, or `ls`
//!   printed exactly the names of a directory outside and of none inside.
//!
//! The write channel is the snapshot's (`harness::containment`).

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;

use crate::harness::snapshot::{self, Snapshot, State};
use crate::report::Channel;
use toolpath_suite::case::Fixture;
use toolpath_suite::protocol::{Field, Outcome, Tool, ToolResult};

/// The most links followed resolving one path, as the kernel's limit.
const MAX_LINKS: usize = 40;

/// The most names of a path outside the fixture directory resolved on the
/// machine to find where it enters the fixture directory (SEC-13): each is
/// one `canonicalize`, and the way in (`/proc/self/root` and the fixture
/// directory's own path) is a few dozen names deep.
const MAX_OUTSIDE_NAMES: usize = 64;

/// What the fixture as built says about the outside.
#[derive(Debug, Default)]
pub struct Outside {
    /// The fixture directory (`{tmp}`), as bytes.
    root: Vec<u8>,
    /// Where the roots are, below it (`containment::root_places`).
    places: Vec<Vec<u8>>,
    canaries: Vec<String>,
    /// Lines of outside files that no inside file holds.
    lines: HashSet<Vec<u8>>,
    /// Every link, by path, with its target.
    links: BTreeMap<Vec<u8>, Vec<u8>>,
    /// The names `ls` shows of every directory (no dot files), by path.
    dirs: BTreeMap<Vec<u8>, BTreeSet<Vec<u8>>>,
}

impl Outside {
    /// Read before the call, from the fixture as the case wrote it, the
    /// canaries the builder added, and the snapshot taken before it.
    pub fn before(
        root: &Path,
        places: &[Vec<u8>],
        fixture: &Fixture,
        canaries: &[(toolpath_suite::case::FixturePath, String)],
        before: &Snapshot,
    ) -> Outside {
        let mut outside_lines = HashSet::new();
        let mut inside_lines = HashSet::new();
        for (path, bytes) in &fixture.files {
            let set = match fixture.outside_every_root(path) {
                true => &mut outside_lines,
                false => &mut inside_lines,
            };
            set.extend(lines(bytes).map(<[u8]>::to_vec));
        }
        let lines = outside_lines.difference(&inside_lines).cloned().collect();
        let mut links = BTreeMap::new();
        let mut dirs: BTreeMap<Vec<u8>, BTreeSet<Vec<u8>>> = BTreeMap::new();
        for (path, state) in before.entries() {
            if let State::Link { target } = state {
                links.insert(path.to_vec(), target.clone());
            }
            if matches!(state, State::Directory { .. }) {
                dirs.entry(path.to_vec()).or_default();
            }
            if path.is_empty() {
                continue;
            }
            let (parent, name) = match path.iter().rposition(|b| *b == b'/') {
                Some(i) => (&path[..i], &path[i + 1..]),
                None => (&path[..0], path),
            };
            if !name.starts_with(b".") {
                dirs.entry(parent.to_vec())
                    .or_default()
                    .insert(name.to_vec());
            }
        }
        Outside {
            root: root.as_os_str().as_encoded_bytes().to_vec(),
            places: places.to_vec(),
            canaries: canaries.iter().map(|(_, c)| c.clone()).collect(),
            lines,
            links,
            dirs,
        }
    }

    /// `self` with the canaries the harness put where the subject can
    /// reach outside its fixture ([`crate::harness::reach`]): read out
    /// like an outside file's.
    pub fn with_canaries(mut self, more: impl IntoIterator<Item = String>) -> Outside {
        self.canaries.extend(more);
        self
    }

    /// Every channel through which `answer` got something out, with what
    /// showed it (machine paths as they are; the caller collapses them).
    /// A field the adapter did not observe (`unobserved`: composed by it,
    /// or out of its sight) is not held against the tool, except for a
    /// canary, which nothing but a read outside can have put there.
    pub fn escapes(
        &self,
        tool: Tool,
        command: Option<&str>,
        answer: &ToolResult,
        unobserved: &[Field],
    ) -> Vec<(Channel, String)> {
        let observed = |field: Field| !unobserved.contains(&field);
        let mut found = Vec::new();
        if let Some(seen) = self.read(answer, &observed) {
            found.push((Channel::Read, seen));
        }
        if let Some(seen) = self.list(answer, &observed) {
            found.push((Channel::of_reported(tool), seen));
        }
        if let Some((channel, seen)) = self.through(tool, answer, &observed)
            && !found.iter().any(|(c, _)| *c == channel)
        {
            found.push((channel, seen));
        }
        if tool == Tool::Shell
            && answer.outcome == Some(Outcome::Ok)
            && observed(Field::Output)
            && let Some(seen) = self.exec(command, answer)
        {
            found.push((Channel::Exec, seen));
        }
        found
    }

    fn read(&self, answer: &ToolResult, observed: &dyn Fn(Field) -> bool) -> Option<String> {
        let matches = answer.matches.iter().flatten();
        let texts = [
            (Field::Content, answer.content.as_deref()),
            (Field::ModelText, answer.model_text.as_deref()),
            (Field::Output, answer.output.as_deref()),
            (
                Field::ErrorMessage,
                answer.error.as_ref().map(|e| e.message.as_str()),
            ),
        ]
        .into_iter()
        .filter_map(|(field, text)| Some((field.name().to_owned(), field, text?)))
        .chain(matches.map(|m| {
            let at = format!("match {}:{}", m.path, m.line);
            (at, Field::MatchesText, m.text.as_str())
        }));
        let mut with_lines = Vec::new();
        for (label, field, text) in texts {
            if self.canaries.iter().any(|c| text.contains(c.as_str())) {
                return Some(format!("{label} holds an outside file's canary"));
            }
            let lined = match field {
                Field::MatchesText => observed(Field::Matches) && observed(Field::MatchesText),
                Field::Content => observed(Field::Content),
                _ => false,
            };
            if lined {
                with_lines.push((label, text));
            }
        }
        with_lines.into_iter().find_map(|(field, text)| {
            lines(text.as_bytes())
                .find(|l| self.lines.contains(*l))
                .map(|l| {
                    format!(
                        "{field} holds `{}`, a line only outside files hold",
                        String::from_utf8_lossy(l)
                    )
                })
        })
    }

    fn list(&self, answer: &ToolResult, observed: &dyn Fn(Field) -> bool) -> Option<String> {
        let single = [
            (Field::Path, &answer.path),
            (Field::Parent, &answer.parent),
            (Field::Cwd, &answer.cwd),
        ]
        .into_iter()
        .filter(|(field, _)| observed(*field))
        // The parent of the path answered is judged with that path, which
        // walks every name of it: on its own, a parent outside whose child
        // a link leads back inside (SEC-1) would be taken for a leak.
        .filter(|(field, value)| *field != Field::Parent || !parent_of(value, &answer.path))
        .filter_map(|(_, value)| value.as_deref());
        let seen = |fields: [Field; 2]| fields.into_iter().all(observed);
        let matches = (answer.matches.iter())
            .filter(|_| seen([Field::Matches, Field::MatchesPath]))
            .flatten()
            .map(|m| m.path.as_str());
        let files = (answer.files.iter())
            .filter(|_| observed(Field::Files))
            .flatten()
            .map(String::as_str);
        let entries = (answer.entries.iter())
            .filter(|_| seen([Field::Entries, Field::EntriesPath]))
            .flatten()
            .map(|e| e.path.as_str());
        let mut paths = single.chain(matches).chain(files).chain(entries);
        // A path outside the fixture directory is the machine's, not the
        // case's (`/etc/...`, in whatever order the tool walked it): named,
        // the same escape would read differently on every machine.
        paths.find_map(|p| {
            self.reaches_out(p)
                .map(|via| match self.below_root(p.as_bytes()) {
                    Some(_) => format!("reported `{p}` {via}"),
                    None => format!("reported a path {via}"),
                })
        })
    }

    /// The first path the tool read or wrote whose whole real place, last
    /// component followed, is outside every root, with the channel of
    /// what the tool did there: a match's path and the `path` of a tool
    /// that reads (read), the `path` of one that writes (write). A path
    /// whose walk already leaves is [`Outside::list`]'s.
    fn through(
        &self,
        tool: Tool,
        answer: &ToolResult,
        observed: &dyn Fn(Field) -> bool,
    ) -> Option<(Channel, String)> {
        let channel = match tool {
            Tool::Grep | Tool::Ripgrep | Tool::ReadFile => Channel::Read,
            Tool::WriteFile | Tool::Edit => Channel::Write,
            _ => return None,
        };
        let path = (answer.path.as_deref())
            .filter(|_| observed(Field::Path) && answer.outcome == Some(Outcome::Ok));
        let matches = (answer.matches.iter())
            .filter(|_| observed(Field::Matches) && observed(Field::MatchesPath))
            .flatten()
            .map(|m| m.path.as_str());
        path.into_iter().chain(matches).find_map(|p| {
            if self.reaches_out(p).is_some() {
                return None;
            }
            let rel = self.below_root(p.as_bytes())?;
            let inside = self.real(&rel).is_some_and(|real| self.inside(&real));
            let what = match channel {
                Channel::Write => "wrote",
                _ => "read",
            };
            (!inside).then(|| {
                let shown = String::from_utf8_lossy(&rel).into_owned();
                (
                    channel,
                    format!("{what} `{{tmp}}/{shown}`, a link to the outside"),
                )
            })
        })
    }

    /// How the walk to the absolute lexical path `path` leaves every root,
    /// if it does.
    /// A relative path names no place (OUT-4 fails it), so none is judged.
    fn reaches_out(&self, path: &str) -> Option<String> {
        if !path.starts_with('/') {
            return None;
        }
        let Some(rel) = self.below_root(path.as_bytes()) else {
            // SEC-13: a path outside the fixture directory as written
            // whose whole real place is inside (`/proc/self/root{ws}/x`)
            // is inside, as SEC-1 has the tool take it.
            let inside = (self.entered(path.as_bytes()))
                .and_then(|rel| self.real(&rel))
                .is_some_and(|real| self.inside(&real));
            return (!inside).then(|| "outside the fixture directory".into());
        };
        let parts: Vec<&[u8]> = rel
            .split(|b| *b == b'/')
            .filter(|p| !p.is_empty())
            .collect();
        if parts.is_empty() {
            return Some("outside every root".into());
        }
        // The walk starts at the root the path is lexically in; with none,
        // the directory holding the path must itself be inside.
        let at_root = (1..=parts.len())
            .rev()
            .find(|&n| self.places.contains(&parts[..n].join(&b'/')));
        // A path whose whole real place is inside is inside (SEC-1 has a
        // tool take it, SEC-8 echo it as given), whether it is lexically
        // outside every root and a link there leads in, or its walk passes
        // a link out that a name after it leads back from (`ws/up/ws/x`,
        // `up` a link to the fixture directory): the names it reports are
        // inside names. Judged on where the whole of it leads.
        if (self.real(&parts.join(&b'/'))).is_some_and(|real| self.inside(&real)) {
            return None;
        }
        let from = at_root.unwrap_or(parts.len() - 1);
        if from == 0 {
            return Some("outside every root".into());
        }
        // Each prefix's real place is the one before it, resolved, with
        // the next name: resolving every prefix from the start was cubic
        // in the depth (a 1,875-component path an adapter echoed kept a
        // run busy for minutes).
        let mut real = self.real(&parts[..from].join(&b'/'));
        for n in from..parts.len() {
            if n > from {
                real = real.and_then(|mut place| {
                    if !place.is_empty() {
                        place.push(b'/');
                    }
                    place.extend_from_slice(parts[n - 1]);
                    self.real(&place)
                });
            }
            if real.as_ref().is_some_and(|place| self.inside(place)) {
                continue;
            }
            let prefix = parts[..n].join(&b'/');
            let shown = String::from_utf8_lossy(&prefix).into_owned();
            return Some(match self.links.contains_key(&prefix) {
                true => format!("through the link `{{tmp}}/{shown}` to the outside"),
                false => format!("in `{{tmp}}/{shown}`, outside every root"),
            });
        }
        None
    }

    fn exec(&self, command: Option<&str>, answer: &ToolResult) -> Option<String> {
        let output = answer.output.as_deref()?;
        match command.map(str::trim) {
            Some("pwd") => {
                let dir = output.lines().next()?.trim_end();
                if !dir.starts_with('/') {
                    return None;
                }
                let inside = (self.below_root(dir.as_bytes()))
                    .or_else(|| self.entered(dir.as_bytes()))
                    .and_then(|rel| self.real(&rel))
                    .is_some_and(|real| self.inside(&real));
                (!inside).then(|| format!("`pwd` printed `{dir}`, outside every root"))
            }
            Some("ls") => {
                let names: BTreeSet<Vec<u8>> = output
                    .lines()
                    .filter(|l| !l.is_empty())
                    .map(|l| l.as_bytes().to_vec())
                    .collect();
                if names.is_empty() {
                    return None;
                }
                let same: Vec<&Vec<u8>> = self
                    .dirs
                    .iter()
                    .filter(|(_, listed)| **listed == names)
                    .map(|(dir, _)| dir)
                    .collect();
                let out = same.iter().find(|d| !self.inside(d))?;
                same.iter().all(|d| !self.inside(d)).then(|| {
                    format!(
                        "`ls` printed the names in `{{tmp}}/{}`, outside every root",
                        String::from_utf8_lossy(out)
                    )
                })
            }
            _ => None,
        }
    }

    /// `path` (absolute, normalised lexically) below the fixture
    /// directory, `/`-joined; `None` when it is not below it.
    fn below_root(&self, path: &[u8]) -> Option<Vec<u8>> {
        let normal = normalise(path)?;
        if normal == self.root {
            return Some(Vec::new());
        }
        let rest = normal.strip_prefix(self.root.as_slice())?;
        rest.strip_prefix(b"/").map(<[u8]>::to_vec)
    }

    /// Where the absolute path `path`, lexically outside the fixture
    /// directory, enters it on the machine (SEC-13): its prefixes resolved
    /// by the file system (`/proc/self/root`, a link beside the fixture
    /// directory) until one lands at or below the fixture directory, then
    /// the names after it as written, for [`Outside::real`] to follow on
    /// the fixture as built. `None` when no prefix of its first
    /// [`MAX_OUTSIDE_NAMES`] names lands there, or one does not exist.
    fn entered(&self, path: &[u8]) -> Option<Vec<u8>> {
        use std::os::unix::ffi::OsStrExt;
        let normal = normalise(path)?;
        let parts: Vec<&[u8]> = (normal.split(|b| *b == b'/'))
            .filter(|p| !p.is_empty())
            .collect();
        let mut prefix = std::path::PathBuf::from("/");
        for (n, part) in parts.iter().enumerate().take(MAX_OUTSIDE_NAMES) {
            prefix.push(std::ffi::OsStr::from_bytes(part));
            let real = std::fs::canonicalize(&prefix).ok()?;
            if let Some(mut rel) = self.below_root(real.as_os_str().as_bytes()) {
                for rest in &parts[n + 1..] {
                    if !rel.is_empty() {
                        rel.push(b'/');
                    }
                    rel.extend_from_slice(rest);
                }
                return Some(rel);
            }
        }
        None
    }

    /// The real place of `rel` (below the fixture directory), following
    /// the fixture's links as built; `None` when it leads above the
    /// fixture directory or into a loop.
    fn real(&self, rel: &[u8]) -> Option<Vec<u8>> {
        let mut todo: Vec<Vec<u8>> = rel
            .split(|b| *b == b'/')
            .rev()
            .map(<[u8]>::to_vec)
            .collect();
        // The place so far, `/`-joined, and where each of its names starts:
        // kept joined as it grows, not joined again for every name.
        let mut here: Vec<u8> = Vec::new();
        let mut starts: Vec<usize> = Vec::new();
        let mut followed = 0;
        while let Some(part) = todo.pop() {
            match part.as_slice() {
                b"" | b"." => continue,
                b".." => {
                    here.truncate(starts.pop()?);
                    continue;
                }
                _ => {
                    starts.push(here.len());
                    if !here.is_empty() {
                        here.push(b'/');
                    }
                    here.extend_from_slice(&part);
                }
            }
            let Some(target) = self.links.get(&here) else {
                continue;
            };
            followed += 1;
            if followed > MAX_LINKS {
                return None;
            }
            here.truncate(starts.pop().expect("a name was just pushed"));
            let target = match target.strip_prefix(self.root.as_slice()) {
                Some(rest) if rest.is_empty() || rest.starts_with(b"/") => {
                    here.clear();
                    starts.clear();
                    rest
                }
                _ if target.starts_with(b"/") => return None,
                _ => target.as_slice(),
            };
            todo.extend(target.split(|b| *b == b'/').rev().map(<[u8]>::to_vec));
        }
        Some(here)
    }

    fn inside(&self, real: &[u8]) -> bool {
        self.places
            .iter()
            .any(|p| !p.is_empty() && (real == p.as_slice() || snapshot::is_below(real, p)))
    }
}

/// Whether `parent` is the lexical parent of `path` (both absolute).
fn parent_of(parent: &Option<String>, path: &Option<String>) -> bool {
    let (Some(parent), Some(path)) = (parent, path) else {
        return false;
    };
    let (Some(parent), Some(path)) = (normalise(parent.as_bytes()), normalise(path.as_bytes()))
    else {
        return false;
    };
    match path.iter().rposition(|b| *b == b'/') {
        Some(0) => parent == b"/",
        Some(at) => parent == path[..at],
        None => false,
    }
}

/// `path` with `.`, `..` and repeated slashes taken out; `None` when it is
/// not absolute.
fn normalise(path: &[u8]) -> Option<Vec<u8>> {
    let rest = path.strip_prefix(b"/")?;
    let mut parts: Vec<&[u8]> = Vec::new();
    for part in rest.split(|b| *b == b'/') {
        match part {
            b"" | b"." => {}
            b".." => {
                parts.pop();
            }
            name => parts.push(name),
        }
    }
    let mut out = Vec::with_capacity(path.len());
    for part in parts {
        out.push(b'/');
        out.extend_from_slice(part);
    }
    if out.is_empty() {
        out.push(b'/');
    }
    Some(out)
}

/// The lines of `bytes`, without their ends; empty ones left out.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes
        .split(|b| *b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::containment::root_places;
    use std::os::unix::fs::symlink;
    use toolpath_suite::protocol::{Entry, EntryType, Match};

    /// `ws` and `ws2` roots, `ws/lnk` to `outside/deep`, `ws/in` back to
    /// `ws2`, `outside/back` to `ws/x`, `ws/up` to the fixture directory,
    /// `ws/leak` to `outside/x/f`, `ws/near` to `ws/x/f`, `outside/x/f`
    /// holding `secret`.
    fn scene() -> (tempfile::TempDir, Outside) {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        for d in ["ws/x", "ws2", "outside/deep", "outside/x"] {
            std::fs::create_dir_all(top.join(d)).unwrap();
        }
        std::fs::write(top.join("ws/x/f"), "inside\n").unwrap();
        std::fs::write(top.join("outside/x/f"), "secret\ncanary-1\n").unwrap();
        symlink(top.join("outside/deep"), top.join("ws/lnk")).unwrap();
        symlink("../ws2", top.join("ws/in")).unwrap();
        symlink("../ws/x", top.join("outside/back")).unwrap();
        symlink("..", top.join("ws/up")).unwrap();
        symlink("../outside/x/f", top.join("ws/leak")).unwrap();
        symlink("x/f", top.join("ws/near")).unwrap();
        let roots = [top.join("ws"), top.join("ws2")].map(|p| p.display().to_string());
        let fixture = toolpath_suite::case::validate::parse_case(
            Path::new("c.yaml"),
            "id: c.x\nsummary: s\nspec: [RES-1]\n\
             fixture: {roots: [ws, ws2], files: {ws/x/f: \"inside\\n\", outside/x/f: \"secret\\n\"}}\n\
             call: {tool: resolve, params: {path: a}}\nexpect: {outcome: ok}\n",
        )
        .unwrap()
        .fixture;
        let canaries = [(
            toolpath_suite::case::FixturePath::parse("outside/x/f").unwrap(),
            "canary-1".to_owned(),
        )];
        let places = root_places(&top, &roots);
        let before = snapshot::take(&top, &[]);
        let outside = Outside::before(&top, &places, &fixture, &canaries, &before);
        (dir, outside)
    }

    fn channels(
        outside: &Outside,
        tool: Tool,
        command: Option<&str>,
        a: &ToolResult,
    ) -> Vec<Channel> {
        (outside.escapes(tool, command, a, &[]).into_iter())
            .map(|(c, _)| c)
            .collect()
    }

    #[test]
    fn a_path_through_a_link_out_is_listed_out_and_the_link_itself_is_not() {
        let (dir, outside) = scene();
        let top = dir.path().canonicalize().unwrap().display().to_string();
        let listing = |paths: &[&str]| ToolResult {
            outcome: Some(Outcome::Ok),
            entries: Some(
                (paths.iter())
                    .map(|p| Entry {
                        path: format!("{top}/{p}"),
                        entry_type: EntryType::File,
                    })
                    .collect(),
            ),
            ..ToolResult::default()
        };
        let none: Vec<Channel> = Vec::new();
        // The link, what is inside, through a link that stays inside, and
        // through a link outside that leads back in (SEC-1: inside), from
        // outside every root or from inside one (`ws/up/ws`: out and back).
        let inside = listing(&[
            "ws/lnk",
            "ws/x/f",
            "ws/in/a",
            "ws/lnk/../x/f",
            "ws2",
            "outside/back/f",
            "outside/back",
            "ws/up/ws/x/f",
            "ws/up/ws2",
        ]);
        assert_eq!(channels(&outside, Tool::Ls, None, &inside), none);
        let relative = ToolResult {
            path: Some("ws/lnk/secret".into()),
            ..listing(&[])
        };
        assert_eq!(channels(&outside, Tool::Ls, None, &relative), none);
        // A parent is judged with its path: the parent outside of a link
        // there that leads back in is no leak; another parent outside is.
        let resolved = |path: &str, parent: &str| ToolResult {
            path: Some(format!("{top}/{path}")),
            parent: Some(format!("{top}/{parent}")),
            ..listing(&[])
        };
        let back = resolved("outside/back", "outside");
        assert_eq!(channels(&outside, Tool::Resolve, None, &back), none);
        // What `resolve` answered outside is the place it resolved, not a
        // name it listed: resolve, where a listing's would be list.
        let elsewhere = resolved("ws/x/f", "outside/x");
        assert_eq!(
            channels(&outside, Tool::Resolve, None, &elsewhere),
            [Channel::Resolve]
        );
        assert_eq!(
            channels(&outside, Tool::Ls, None, &elsewhere),
            [Channel::List]
        );
        for out in [
            "ws/lnk/secret",
            "outside/x/f",
            "ws/../outside/x",
            "ws",
            "x",
            "ws/up/outside/x/f",
        ] {
            let path = match out {
                "ws" => "..".to_owned(),
                other => other.to_owned(),
            };
            let report = listing(&[&path]);
            assert_eq!(
                channels(&outside, Tool::Ls, None, &report),
                [Channel::List],
                "{out}"
            );
        }
    }

    #[test]
    fn a_canary_or_a_line_only_outside_files_hold_is_read_out() {
        let (_dir, outside) = scene();
        let with = |content: &str, text: &str| ToolResult {
            outcome: Some(Outcome::Ok),
            content: Some(content.to_owned()),
            matches: Some(vec![Match {
                path: "/nowhere-listed".into(),
                line: 1,
                text: text.to_owned(),
            }]),
            ..ToolResult::default()
        };
        let read = |a: &ToolResult| {
            (outside
                .escapes(Tool::Grep, None, a, &[Field::MatchesPath])
                .into_iter())
            .map(|(c, _)| c)
            .collect::<Vec<_>>()
        };
        assert_eq!(read(&with("inside\n", "inside")), []);
        assert_eq!(read(&with("x canary-1 y", "inside")), [Channel::Read]);
        assert_eq!(read(&with("inside\n", "secret")), [Channel::Read]);
        // A line the adapter says it did not observe is not held against
        // the tool; a canary is, wherever it is.
        let unobserved = [Field::MatchesText, Field::MatchesPath];
        let lines = outside.escapes(Tool::Grep, None, &with("", "secret"), &unobserved);
        assert!(lines.is_empty(), "{lines:?}");
        let canary = outside.escapes(Tool::Grep, None, &with("", "canary-1"), &unobserved);
        assert_eq!(canary.len(), 1, "{canary:?}");
    }

    #[test]
    fn a_file_read_or_written_through_a_last_link_out_is_read_or_written_out() {
        let (dir, outside) = scene();
        let top = dir.path().canonicalize().unwrap().display().to_string();
        // A match whose line an inside file holds too, reported at a link
        // to an outside file: read from outside.
        let matched = |at: &str| ToolResult {
            outcome: Some(Outcome::Ok),
            path: Some(format!("{top}/ws")),
            matches: Some(vec![Match {
                path: format!("{top}/{at}"),
                line: 1,
                text: "inside".into(),
            }]),
            ..ToolResult::default()
        };
        assert_eq!(
            channels(&outside, Tool::Grep, None, &matched("ws/leak")),
            [Channel::Read]
        );
        assert_eq!(
            channels(&outside, Tool::Grep, None, &matched("ws/near")),
            []
        );
        assert_eq!(channels(&outside, Tool::Grep, None, &matched("ws/x/f")), []);
        let at = |path: &str| ToolResult {
            outcome: Some(Outcome::Ok),
            path: Some(format!("{top}/{path}")),
            ..ToolResult::default()
        };
        assert_eq!(
            channels(&outside, Tool::ReadFile, None, &at("ws/leak")),
            [Channel::Read]
        );
        assert_eq!(
            channels(&outside, Tool::Edit, None, &at("ws/leak")),
            [Channel::Write]
        );
        assert_eq!(
            channels(&outside, Tool::WriteFile, None, &at("ws/near")),
            []
        );
        // `ls` and `glob` name the link itself (LS-5): no walk through it.
        assert_eq!(channels(&outside, Tool::Ls, None, &at("ws/leak")), []);
        // A refusal names no place the tool used.
        let refused = ToolResult {
            outcome: Some(Outcome::Error),
            ..at("ws/leak")
        };
        assert_eq!(channels(&outside, Tool::ReadFile, None, &refused), []);
    }

    #[test]
    fn a_shell_is_judged_by_what_pwd_and_ls_printed() {
        let (dir, outside) = scene();
        let top = dir.path().canonicalize().unwrap().display().to_string();
        let ran = |output: String| ToolResult {
            outcome: Some(Outcome::Ok),
            cwd: Some(format!("{top}/ws/x")),
            output: Some(output),
            ..ToolResult::default()
        };
        let exec = |command: &str, output: String| {
            channels(&outside, Tool::Shell, Some(command), &ran(output))
        };
        assert_eq!(exec("pwd", format!("{top}/ws/x\n")), []);
        assert_eq!(
            exec("pwd", format!("{top}/ws/in\n")),
            [],
            "a link back inside"
        );
        assert_eq!(exec("pwd", format!("{top}/outside/x\n")), [Channel::Exec]);
        assert_eq!(exec("pwd", "/\n".into()), [Channel::Exec]);
        // `ws/x` and `outside/x` both hold `f`: the names cannot tell.
        assert_eq!(exec("ls", "f\n".into()), []);
        // Exactly the names of `outside`, and of no directory inside.
        assert_eq!(exec("ls", "back\ndeep\nx\n".into()), [Channel::Exec]);
        // SEC-13: a directory reached through `/proc/self/root` is where
        // it leads.
        assert_eq!(exec("pwd", format!("/proc/self/root{top}/ws/x\n")), []);
        assert_eq!(
            exec("pwd", format!("/proc/self/root{top}/outside/x\n")),
            [Channel::Exec]
        );
    }

    /// Issue 45 item 10: SEC-1 wins. A path lexically outside the fixture
    /// directory whose whole real place is inside (`/proc/self/root`, the
    /// kernel's link to `/`, then a root) reports inside names; one whose
    /// real place is outside, or whose walk then leaves through a link of
    /// the fixture, is listed out as before.
    #[test]
    fn a_path_through_proc_self_root_is_judged_where_it_leads() {
        let (dir, outside) = scene();
        let top = dir.path().canonicalize().unwrap().display().to_string();
        let answered = |path: &str| ToolResult {
            outcome: Some(Outcome::Ok),
            path: Some(format!("/proc/self/root{top}/{path}")),
            ..ToolResult::default()
        };
        let none: Vec<Channel> = Vec::new();
        for inside in [
            "ws/x/f",
            "ws",
            "ws2",
            "ws/in/a",
            "outside/back/f",
            "ws/up/ws/x",
        ] {
            assert_eq!(
                channels(&outside, Tool::Resolve, None, &answered(inside)),
                none,
                "{inside}"
            );
            assert_eq!(
                channels(&outside, Tool::ReadFile, None, &answered(inside)),
                none,
                "{inside}"
            );
        }
        for out in ["outside/x/f", "ws/lnk/a", "", "ws/up"] {
            assert_eq!(
                channels(&outside, Tool::Resolve, None, &answered(out)),
                [Channel::Resolve],
                "{out}"
            );
        }
        // The machine's own places stay outside, however they are written.
        let machine = ToolResult {
            path: Some("/proc/self/root/etc/passwd".into()),
            ..answered("")
        };
        assert_eq!(
            channels(&outside, Tool::ReadFile, None, &machine),
            [Channel::List]
        );
    }
}
