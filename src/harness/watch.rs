//! The paths a call names in the subject's own scratch directory
//! (`{adapter-tmp}`, SEC-9), or anywhere else outside the fixture
//! directory (`{ws}/../../x`, SEC-12), looked at before and after the call.
//!
//! The fixture's snapshot ([`snapshot`]) covers the fixture directory
//! only, and the scratch directory is not in it: it is the subject's, who
//! may keep caches there (SEC-11 sends them there). So a tool that refused
//! `{adapter-tmp}/x/y` as outside the workspace and wrote it all the same
//! would change nothing the snapshot sees. What the case itself names is
//! known, though: every string parameter that lies below the scratch
//! directory, once joined onto the target directory and folded lexically
//! (RES-2, RES-3), is recorded before the call, with each of its
//! ancestors below the scratch directory that does not exist yet. After
//! the call, any of them created, removed or changed is a change outside
//! every root: an escape, whatever the answer. Changed is what it is
//! beside the roots ([`snapshot::diff`]): its type, permission bits,
//! content or link target, and its owner, extended attributes and
//! modification and change times (a `chown`, a `setxattr`, a `touch`).
//!
//! Nothing else in the scratch directory is looked at, and a directory is
//! not looked into: what the subject keeps there is its own business.
//! At most [`MAX_WATCHED`] paths are recorded per call.
//!
//! What is noise and what is not is decided by what moves a mark without
//! anyone writing the entry: a named directory's times move with every
//! name made or removed inside it (the subject's caches in its own
//! `TMPDIR`), so they are not compared, as they are not for a directory
//! the fixture's snapshot does not look into; access times move with
//! every read, so they are never recorded; and a file's change time moves
//! only with its content, bits, owner, links or attributes, which no read
//! touches. What the harness itself does to a named path, the canaries it
//! makes anew before each call ([`crate::harness::reach`]), is done
//! before the paths are recorded.
//!
//! [`snapshot`]: crate::harness::snapshot

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::harness::snapshot::{self, Change, ChangeKind, PathState};
use crate::reference::resolve::lexical_resolve;
use toolpath_suite::protocol::Call;

/// The most paths recorded for one call: a case names a few.
pub const MAX_WATCHED: usize = 64;

/// What the named paths held before the call.
#[derive(Debug, Default)]
pub struct Watched {
    scratch: PathBuf,
    /// Each path, relative to `scratch` (`/`-joined), and what was there.
    before: Vec<(PathBuf, Option<PathState>)>,
}

impl Watched {
    /// Records the paths `call` names below `scratch` (nothing without one).
    pub fn before(call: &Call, scratch: Option<&Path>) -> Watched {
        match scratch {
            Some(scratch) => Watched::named(call, scratch, &[]),
            None => Watched::default(),
        }
    }

    /// Records the paths `call` names outside the fixture directory
    /// `fixture` and the subject's scratch directory, wherever they are:
    /// `{ws}/../../x` above the fixture directory, `/etc/x`. SEC-12: a
    /// write there is as much an escape as one beside the roots, and no
    /// snapshot of the fixture sees it. Changes are relative to `/`.
    pub fn beyond(call: &Call, fixture: &Path, scratch: Option<&Path>) -> Watched {
        let skip: Vec<&Path> = std::iter::once(fixture).chain(scratch).collect();
        Watched::named(call, Path::new("/"), &skip)
    }

    /// Records the paths `call` names below `scratch`, except those at or
    /// below a directory of `skip`.
    fn named(call: &Call, scratch: &Path, skip: &[&Path]) -> Watched {
        let mut named = Vec::new();
        for text in strings(&Value::Object(call.params.clone())) {
            if text.contains('\0') {
                continue; // no path holds one (ERR-7)
            }
            let path = PathBuf::from(lexical_resolve(&call.workspace.target, text));
            if skip.iter().any(|s| path.starts_with(s)) {
                continue;
            }
            let Ok(below) = path.strip_prefix(scratch) else {
                continue;
            };
            if below.as_os_str().is_empty() {
                continue; // the scratch directory itself is the subject's
            }
            // SEC-13: a path that leads into the fixture directory from
            // outside it (`/proc/self/root{ws}/a.txt`) is the fixture's,
            // whose snapshot judges a write there where it lands.
            if !skip.is_empty()
                && real_place(&path).is_some_and(|r| skip.iter().any(|s| r.starts_with(s)))
            {
                continue;
            }
            named.push(below.to_path_buf());
        }
        let mut before: Vec<(PathBuf, Option<PathState>)> = Vec::new();
        for below in named {
            let mut first = true;
            for place in below.ancestors().filter(|p| !p.as_os_str().is_empty()) {
                if before.len() >= MAX_WATCHED {
                    break;
                }
                let full = scratch.join(place);
                if skip
                    .iter()
                    .any(|s| full.starts_with(s) || s.starts_with(&full))
                {
                    break; // the fixture's, or an ancestor the run made
                }
                let entry = snapshot::entry_at(&full);
                // The named path whatever it is; an ancestor only if missing.
                if (first || entry.is_none()) && !before.iter().any(|(p, _)| p == place) {
                    before.push((place.to_path_buf(), entry));
                }
                first = false;
            }
        }
        Watched {
            scratch: scratch.to_path_buf(),
            before,
        }
    }

    /// The scratch directory the changes are below.
    pub fn scratch(&self) -> &Path {
        &self.scratch
    }

    /// What changed since [`Watched::before`], each relative to the
    /// scratch directory, in path order.
    pub fn changes(&self) -> Vec<Change> {
        let mut changes: Vec<Change> = self
            .before
            .iter()
            .filter_map(|(place, was)| {
                let now = snapshot::entry_at(&self.scratch.join(place));
                let kind = match (was, now) {
                    (None, None) => return None,
                    (None, Some(now)) => ChangeKind::Added(now.state),
                    (Some(was), None) => ChangeKind::Removed(was.state.clone()),
                    (Some(was), Some(now)) => was.change_to(now)?,
                };
                Some(Change {
                    path: place.as_os_str().as_encoded_bytes().to_vec(),
                    kind,
                })
            })
            .collect();
        changes.sort_by(|a, b| a.path.cmp(&b.path));
        changes
    }
}

/// Where `path` (absolute, normalised) really is: its nearest existing
/// ancestor's real path with the names below it as written (SEC-1).
/// `None` for a text no system call takes (over `PATH_MAX`), which names
/// nothing, and past [`MAX_ANCESTORS`] missing ancestors.
fn real_place(path: &Path) -> Option<PathBuf> {
    if path.as_os_str().len() >= 4096 {
        return None;
    }
    for ancestor in path.ancestors().take(MAX_ANCESTORS) {
        if let Ok(real) = std::fs::canonicalize(ancestor) {
            let below = path.strip_prefix(ancestor).unwrap_or(Path::new(""));
            return Some(real.join(below));
        }
    }
    None
}

/// The most ancestors of one named path looked up for its real place: a
/// parameter that is not a path (a `content` with many `/`) is given up
/// on, and stays watched where it is written.
const MAX_ANCESTORS: usize = 64;

/// Every string in `value`, depth first.
fn strings(value: &Value) -> Vec<&str> {
    match value {
        Value::String(s) => vec![s.as_str()],
        Value::Array(items) => items.iter().flat_map(strings).collect(),
        Value::Object(map) => map.values().flat_map(strings).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolpath_suite::protocol::{Tool, Workspace};

    fn call(target: &Path, params: Value) -> Call {
        Call {
            seq: 0,
            case: "c".into(),
            workspace: Workspace {
                roots: vec![target.display().to_string()],
                target: target.display().to_string(),
            },
            tool: Tool::WriteFile,
            params: match params {
                Value::Object(map) => map,
                _ => unreachable!(),
            },
        }
    }

    fn described(w: &Watched) -> Vec<String> {
        w.changes()
            .iter()
            .map(|c| {
                c.describe(w.scratch(), |p| {
                    p.replace(&w.scratch().display().to_string(), "{adapter-tmp}")
                })
            })
            .collect()
    }

    #[test]
    fn a_named_path_and_its_missing_ancestors_are_watched() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = dir.path().join("tmp");
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(scratch.join("cache")).unwrap();
        std::fs::create_dir_all(&ws).unwrap();
        let deep = format!("{}/x/y", scratch.display());
        // Relative, climbing into the scratch directory from the target.
        let climbing = "../tmp/cache/z.txt";
        let c = call(
            &ws,
            serde_json::json!({"file_path": deep, "n": [climbing], "content": "ws/a"}),
        );
        let w = Watched::before(&c, Some(&scratch));
        let watched: Vec<&Path> = w.before.iter().map(|(p, _)| p.as_path()).collect();
        assert_eq!(
            watched,
            [Path::new("x/y"), Path::new("x"), Path::new("cache/z.txt")],
            "an existing ancestor (cache) is not watched"
        );
        assert!(described(&w).is_empty(), "nothing changed yet");
        // The subject writes what it refused, and its own cache beside.
        std::fs::create_dir_all(scratch.join("x")).unwrap();
        std::fs::write(scratch.join("x/y"), "new\n").unwrap();
        std::fs::write(scratch.join("cache/other"), "mine").unwrap();
        assert_eq!(
            described(&w),
            [
                "+ {adapter-tmp}/x (directory)",
                "+ {adapter-tmp}/x/y (file)"
            ]
        );
        // The scratch directory itself is never watched, and without one
        // nothing is.
        let own = call(
            &ws,
            serde_json::json!({"dir_path": scratch.display().to_string()}),
        );
        assert!(Watched::before(&own, Some(&scratch)).before.is_empty());
        assert!(Watched::before(&c, None).changes().is_empty());
    }

    #[test]
    fn a_named_file_that_changes_or_goes_is_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = dir.path().to_path_buf();
        std::fs::write(scratch.join("a"), "one").unwrap();
        std::fs::write(scratch.join("b"), "two").unwrap();
        let c = call(
            &scratch,
            serde_json::json!({"p": format!("{}/a", scratch.display()), "q": format!("{}/b", scratch.display())}),
        );
        let w = Watched::before(&c, Some(&scratch));
        std::fs::write(scratch.join("a"), "ONE").unwrap();
        std::fs::remove_file(scratch.join("b")).unwrap();
        assert_eq!(
            described(&w),
            ["~ {adapter-tmp}/a (content)", "- {adapter-tmp}/b (file)"]
        );
    }

    /// Outside the fixture directory as beside the roots: a named file
    /// touched, given an attribute or handed to another owner is a change;
    /// a named directory's times, moved by what is made inside it (the
    /// subject's own, not looked into), are not, nor is a read.
    #[test]
    fn a_named_entry_touched_marked_or_handed_over_is_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = dir.path().to_path_buf();
        for name in ["t", "x", "o", "r"] {
            std::fs::write(scratch.join(name), "one").unwrap();
        }
        std::fs::create_dir(scratch.join("d")).unwrap();
        let named = |name: &str| format!("{}/{name}", scratch.display());
        let c = call(
            &scratch,
            serde_json::json!({"t": named("t"), "x": named("x"), "o": named("o"),
                "r": named("r"), "d": named("d")}),
        );
        let w = Watched::before(&c, Some(&scratch));
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1 << 30);
        let t = std::fs::File::options()
            .write(true)
            .open(scratch.join("t"))
            .unwrap();
        t.set_modified(old).unwrap();
        let x = std::fs::File::open(scratch.join("x")).unwrap();
        rustix::fs::fsetxattr(&x, "user.toolpath", b"v", rustix::fs::XattrFlags::empty()).unwrap();
        let root = crate::sys::is_root();
        if root {
            std::os::unix::fs::lchown(scratch.join("o"), Some(65534), None).unwrap();
        }
        std::fs::read(scratch.join("r")).unwrap();
        std::fs::write(scratch.join("d/cache"), "mine").unwrap();
        let mut expected = vec![
            "~ {adapter-tmp}/t (modification and change time)",
            "~ {adapter-tmp}/x (extended attributes)",
        ];
        if root {
            expected.insert(0, "~ {adapter-tmp}/o (owner 0:0 -> 65534:0)");
        }
        assert_eq!(described(&w), expected);
    }

    #[test]
    fn what_is_watched_is_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = dir.path().to_path_buf();
        let deep = format!("{}/{}", scratch.display(), vec!["d"; 200].join("/"));
        let c = call(&scratch, serde_json::json!({ "p": deep }));
        assert_eq!(
            Watched::before(&c, Some(&scratch)).before.len(),
            MAX_WATCHED
        );
    }

    /// Issue 45 item 10: a write through `/proc/self/root` into the
    /// fixture lands in it, where its snapshot judges it (SEC-13); the
    /// same path outside the fixture is watched as before.
    #[test]
    fn a_path_that_leads_into_the_fixture_is_left_to_its_snapshot() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        let fixture = top.join("fixture");
        let ws = fixture.join("ws");
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::write(ws.join("a.txt"), "x").unwrap();
        std::fs::write(top.join("b.txt"), "x").unwrap();
        let through = |p: &Path| format!("/proc/self/root{}", p.display());
        let c = call(
            &ws,
            serde_json::json!({"file_path": through(&ws.join("a.txt")), "n": through(&top.join("b.txt"))}),
        );
        let w = Watched::beyond(&c, &fixture, None);
        let watched: Vec<&Path> = w.before.iter().map(|(p, _)| p.as_path()).collect();
        let outside = through(&top.join("b.txt"));
        assert_eq!(watched, [Path::new(&outside[1..])]);
    }
}
