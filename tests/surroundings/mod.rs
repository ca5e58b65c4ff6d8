//! A snapshot of a run's surroundings, for tests of hostile adapters and
//! machines (issue 21: "nothing outside the run directory changes, checked
//! with a snapshot of the surroundings, not by reading the code").
//!
//! [`Surroundings::of`] names what a run could touch besides its own fixture
//! directory: the `HOME` and `TMPDIR` the test gives it (private
//! directories of its scene), `/dev/shm`, the working directory (the
//! repository, without `target/`) and the test's scratch directory (the
//! scene, without the fixture directory and the files the test expects to
//! be written). [`Surroundings::snapshot`] records the type, mode, owner
//! and size of everything under them, links never followed, and of each
//! file and link its inode and its modification and status-change times (a
//! link its target too); [`Surroundings::assert_unchanged`] fails with
//! every difference.
//!
//! A file's status-change time (ctime) is what proves it untouched: every
//! write, truncation, chmod, chown, rename or link count change sets it to
//! the clock's now, and no call sets it to anything else (`utimensat` moves
//! mtime and sets ctime to now), so only moving the system clock could hide
//! a change. Hashing the content instead read the whole working directory,
//! installed runners included (about 1 GB, 70,000 files), twice per test:
//! with the debug build's SHA-256, `tests/hostile.rs` took over ten
//! minutes of CI.
//!
//! `/dev/shm` is shared with every other process of the machine, and other
//! toolpath runs (other tests, other developers) come and go there: its
//! top-level `toolpath-run-*` and `toolpath-starting-*` directories are
//! left out. A test that uses the snapshot gives its run a `--fixture-dir`
//! of its own, so none of them is its run's.
//!
//! Left out too, at any depth, what a setup installs or an interpreter
//! caches ([`toolpath::session::run_against::INSTALLED`], what a runner's
//! digest leaves out): `__pycache__`, which any Python adapter of any test
//! running meanwhile may write beside the modules it imports (in a fresh
//! checkout, `tests/adapters/` and `runners/python/`), and `node_modules`
//! and `venv`, which scripts/setup writes while the first test binaries
//! run (scripts/test). Git ignores them all, and nothing in them can
//! change a verdict. The installed ones hold about 195,000 of the
//! checkout's 200,000 entries once the runners are set up: walking them
//! cost about a CPU second per snapshot, two snapshots a test, most of
//! tests/hostile.rs's time (measured 2026-12-06: a test of one watched
//! run, 2.3 CPU seconds with them, 0.1 without). A subject of a root
//! harness cannot write them: they are root's, and it runs as a user of
//! its own.

#![allow(dead_code)] // each test file uses what it needs

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// What is recorded of one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    kind: &'static str,
    mode: u32,
    owner: (u32, u32),
    /// Files and links only: a directory's size follows its entries.
    size: Option<u64>,
    /// Files and links only: inode, mtime and ctime (seconds and
    /// nanoseconds). A directory's times follow its entries, which are
    /// recorded themselves.
    stamp: Option<Stamp>,
    /// A link's target.
    target: Option<PathBuf>,
}

/// What proves a file or link untouched: its inode and its modification
/// and status-change times (seconds, nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    inode: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// Every entry under the watched roots, sorted by path (as bytes).
///
/// A sorted list rather than a map keyed by `PathBuf`: the checkout holds
/// about 190,000 entries with the runners installed, and a `PathBuf` is
/// ordered component by component, which the unoptimised test build made
/// most of a snapshot's cost (each taken twice by every watched test).
/// Bytes compare as bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot(Vec<(Vec<u8>, Entry)>);

impl Snapshot {
    fn get(&self, path: &[u8]) -> Option<&Entry> {
        let at = self
            .0
            .binary_search_by(|(p, _)| p.as_slice().cmp(path))
            .ok()?;
        Some(&self.0[at].1)
    }
}

/// The places a run could touch besides its fixture directory.
pub struct Surroundings {
    roots: Vec<PathBuf>,
    skipped: Vec<PathBuf>,
}

/// Top-level names in `/dev/shm` that belong to toolpath runs of other
/// processes.
fn others_run(path: &Path) -> bool {
    path.parent() == Some(Path::new("/dev/shm"))
        && path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("toolpath-run-") || n.starts_with("toolpath-starting-"))
}

impl Surroundings {
    /// The surroundings of a run whose scene (scratch directory, holding
    /// its `home` and `tmp`) is `scene`; `skipped` are the fixture
    /// directory and the files the test expects to change (reports, an
    /// attacker's log).
    pub fn of(scene: &Path, skipped: &[&Path]) -> Surroundings {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut skipped: Vec<PathBuf> = skipped.iter().map(|p| p.to_path_buf()).collect();
        skipped.push(manifest.join("target"));
        skipped.push(manifest.join(".git"));
        Surroundings {
            roots: vec![
                scene.join("home"),
                scene.join("tmp"),
                PathBuf::from("/dev/shm"),
                manifest.to_path_buf(),
                scene.to_path_buf(),
            ],
            skipped,
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        let mut entries = Vec::new();
        for root in &self.roots {
            let meta = std::fs::symlink_metadata(root);
            self.walk(root.clone(), meta, &mut entries);
        }
        // A root inside another (home inside the scene) was walked twice,
        // the same entries both times.
        entries.sort_unstable_by(|(a, _), (b, _)| a.cmp(b));
        entries.dedup_by(|(a, _), (b, _)| a == b);
        Snapshot(entries)
    }

    /// Records `path`, examined as `meta`, and everything below it. A
    /// directory's entries are examined through their `DirEntry` (a
    /// `fstatat` relative to the open directory, not a walk of the whole
    /// path again).
    fn walk(
        &self,
        path: PathBuf,
        meta: std::io::Result<std::fs::Metadata>,
        entries: &mut Vec<(Vec<u8>, Entry)>,
    ) {
        use std::os::unix::ffi::OsStringExt;
        let installed = path.file_name().is_some_and(|n| {
            toolpath::session::run_against::INSTALLED
                .iter()
                .any(|i| n == *i)
        });
        if installed || self.skipped.contains(&path) || others_run(&path) {
            return;
        }
        let Ok(meta) = meta else {
            entries.push((path.into_os_string().into_vec(), gone()));
            return;
        };
        let kind = meta.file_type();
        let stamp = || Stamp {
            inode: meta.ino(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        };
        let (kind_name, size, stamp, target) = if kind.is_symlink() {
            let target = std::fs::read_link(&path).unwrap_or_default();
            ("link", Some(meta.len()), Some(stamp()), Some(target))
        } else if kind.is_file() {
            ("file", Some(meta.len()), Some(stamp()), None)
        } else if kind.is_dir() {
            ("dir", None, None, None)
        } else {
            ("other", None, None, None)
        };
        let entry = Entry {
            kind: kind_name,
            mode: meta.mode(),
            owner: (meta.uid(), meta.gid()),
            size,
            stamp,
            target,
        };
        let children = kind.is_dir().then(|| std::fs::read_dir(&path));
        entries.push((path.into_os_string().into_vec(), entry));
        if let Some(Ok(children)) = children {
            for child in children.flatten() {
                self.walk(child.path(), child.metadata(), entries);
            }
        }
    }

    /// Every path whose entry differs between `before` and now: added,
    /// removed or changed, with both entries.
    pub fn changes(&self, before: &Snapshot) -> Vec<String> {
        let after = self.snapshot();
        let shown = |path: &[u8]| String::from_utf8_lossy(path).into_owned();
        let mut changes = Vec::new();
        for (path, old) in &before.0 {
            match after.get(path) {
                None => changes.push(format!("removed {}: {old:?}", shown(path))),
                Some(new) if new != old => {
                    changes.push(format!("changed {}: {old:?} -> {new:?}", shown(path)))
                }
                Some(_) => {}
            }
        }
        for (path, new) in &after.0 {
            if before.get(path).is_none() {
                changes.push(format!("added {}: {new:?}", shown(path)));
            }
        }
        changes
    }

    /// Fails, listing every difference, when anything changed since `before`.
    pub fn assert_unchanged(&self, before: &Snapshot) {
        let changes = self.changes(before);
        assert!(
            changes.is_empty(),
            "the run changed its surroundings:\n{}",
            changes.join("\n")
        );
    }
}

fn gone() -> Entry {
    Entry {
        kind: "gone",
        mode: 0,
        owner: (0, 0),
        size: None,
        stamp: None,
        target: None,
    }
}
