//! The state of a built fixture, taken before and after a call, and what
//! changed between the two (SEC-11: a tool must not create, remove or
//! change anything in or outside the workspace).
//!
//! A snapshot walks the whole fixture directory (`{tmp}`: every root and
//! the area outside them) by directory handles, never following a link
//! (`openat` with `O_NOFOLLOW`, `fstatat` with `AT_SYMLINK_NOFOLLOW`), since
//! the subject may have swapped anything for a link to anywhere. Per entry
//! it records the type, the permission bits, a link's target and a regular
//! file's content as a keyed hash: SipHash with a key drawn once per
//! process ([`std::hash::RandomState`]), which the adapter never sees, so
//! it cannot make changed content hash alike. Owners, the modification
//! and change times and the extended attributes (as a keyed hash of every
//! name and value) are recorded apart, as an entry's [`Marks`]: an entry
//! that only changed hands, was touched, or had an attribute set is a
//! change of its own, which [`ChangeKind::is_metadata`] tells apart (the
//! times of an entry inside a root change with every write there, and are
//! the harness's to look at outside them only). The access time is not
//! recorded: reading a file changes it. Neither are the times of the
//! directories whose contents are not looked at (below): what changes
//! inside them changes their times.
//!
//! Git's own bookkeeping is left out: `git grep` or `git status` in a
//! repository the harness made may refresh its index, so below a `.git`
//! directory the harness made, nothing is looked at (the directory itself
//! is, so replacing it shows).
//!
//! A snapshot is bounded, whatever the subject wrote: at most
//! [`MAX_ENTRIES`] entries, [`MAX_DEPTH`] levels, [`MAX_FILE_BYTES`] hashed
//! per file (a larger file is compared by size) and [`MAX_HASHED_BYTES`] in
//! all. Past a bound it stops and says so ([`Snapshot::overflow`]); the
//! fixture as built is far within them, so an overflow after a call is
//! itself a change.
//!
//! [`diff`] takes the writes a call is expected to make, for the tools
//! that write (`write_file`, `edit`): the file must then hold exactly the
//! expected bytes (hashed with the same key, so compared like any other
//! content), the directories the write had to create may appear, a write
//! that did not happen or wrote something else is reported, and nothing
//! else may differ. Whether a change is outside every root (an escape) is
//! `harness::containment`'s to say.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::CStr;
use std::hash::{BuildHasher, Hasher};
use std::io::Read;
use std::path::Path;
use std::sync::OnceLock;

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

use crate::case::tree::DirHandle;

/// The most entries a snapshot records.
pub const MAX_ENTRIES: usize = 100_000;
/// The deepest directory a snapshot descends into (the fixture directory
/// is 0); lint holds fixtures within it.
pub const MAX_DEPTH: usize = toolpath_suite::case::limits::SNAPSHOT_DEPTH;
/// The largest file whose content is hashed; a larger one is compared by size.
pub const MAX_FILE_BYTES: u64 = 16 << 20;
/// The most file content a snapshot reads in all.
pub const MAX_HASHED_BYTES: u64 = 64 << 20;

/// What one entry is, as far as a call could change it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum State {
    File {
        mode: u32,
        content: Content,
    },
    /// `listed` is false when it could not be opened (its entries unknown).
    Directory {
        mode: u32,
        listed: bool,
    },
    Link {
        target: Vec<u8>,
    },
    /// A FIFO, socket or device: its type (with a device's number) and bits.
    Special {
        kind: &'static str,
        mode: u32,
        device: u64,
    },
    /// It could not be examined at all.
    Unreadable {
        error: String,
    },
}

/// A regular file's content, as far as it was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    Hashed {
        size: u64,
        hash: u64,
    },
    /// Larger than [`MAX_FILE_BYTES`], or past [`MAX_HASHED_BYTES`].
    NotHashed {
        size: u64,
    },
    Unreadable {
        error: String,
    },
}

impl State {
    /// The entry's type, as shown in a change.
    pub fn kind(&self) -> &'static str {
        match self {
            State::File { .. } => "file",
            State::Directory { .. } => "directory",
            State::Link { .. } => "link",
            State::Special { kind, .. } => kind,
            State::Unreadable { .. } => "unreadable entry",
        }
    }
}

/// A fixture's entries by path below the fixture directory (`""` is the
/// directory itself; components joined with `/`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Snapshot {
    entries: BTreeMap<Vec<u8>, State>,
    /// Each entry's metadata, apart from its state: a change of it alone
    /// is a change of its own (SEC-12, write).
    marks: BTreeMap<Vec<u8>, Marks>,
    /// Why the walk stopped early, if it did.
    pub overflow: Option<String>,
}

impl Snapshot {
    /// Every entry recorded, by path, in path order.
    pub fn entries(&self) -> impl Iterator<Item = (&[u8], &State)> {
        self.entries.iter().map(|(p, s)| (p.as_slice(), s))
    }
}

/// What an entry carries besides its [`State`], recorded apart from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    /// User and group.
    owner: (u32, u32),
    /// The modification and change times (seconds, nanoseconds); none for
    /// a directory whose contents are not looked at.
    times: Option<[(i64, i64); 2]>,
    /// The keyed hash of every extended attribute's name and value, none
    /// when it has none or they could not be read.
    xattrs: Option<u64>,
}

/// One difference between two snapshots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Below the fixture directory, components joined with `/`.
    pub path: Vec<u8>,
    pub kind: ChangeKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    Added(State),
    Removed(State),
    Changed {
        before: State,
        after: State,
    },
    /// An expected write that did not happen: the entry is as it was.
    Missing,
    /// An expected write that left something other than the expected
    /// file: other bytes, another type, changed permission bits, or
    /// nothing (`None`).
    NotWritten(Option<State>),
    /// The walk after the call stopped at a bound the fixture as built was
    /// within: something grew.
    Overflow(String),
    /// The same entry, another owner (user, group).
    Owner {
        before: (u32, u32),
        after: (u32, u32),
    },
    /// The same entry and owner, other extended attributes.
    Xattrs,
    /// The same entry, owner and attributes, touched: which of its
    /// modification and change times moved.
    Times {
        modified: bool,
        changed: bool,
    },
}

impl ChangeKind {
    /// Whether only an entry's times or extended attributes changed: a
    /// write outside every root, and nothing to judge inside one, where
    /// every write moves its directory's times.
    pub fn is_metadata(&self) -> bool {
        matches!(self, ChangeKind::Xattrs | ChangeKind::Times { .. })
    }
}

/// A write a call is expected to make (FILE-8, FILE-10): afterwards
/// `path` is a regular file holding exactly `content`, with the permission
/// bits it had if it was a file before. If nothing was there, the parent
/// directories the write had to create may appear too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpectedWrite {
    /// Below the fixture directory, components joined with `/`.
    pub path: Vec<u8>,
    pub content: Vec<u8>,
}

/// How much of a file is hashed at a time: the expected content is hashed
/// in the same pieces as a file read from disk.
const CHUNK: usize = 64 * 1024;

/// The keyed hash of `bytes`, as [`take`] records a file holding them.
fn hash_of(bytes: &[u8]) -> u64 {
    let mut hasher = key().build_hasher();
    for piece in bytes.chunks(CHUNK) {
        hasher.write(piece);
    }
    hasher.finish()
}

/// The key every content hash of this process uses, drawn once.
fn key() -> &'static std::hash::RandomState {
    static KEY: OnceLock<std::hash::RandomState> = OnceLock::new();
    KEY.get_or_init(std::hash::RandomState::new)
}

/// The state of the fixture directory `root`. `skip` names directories
/// (below `root`, `/`-joined) whose contents are not looked at: the `.git`
/// directories of repositories the harness made.
pub fn take(root: &Path, skip: &[Vec<u8>]) -> Snapshot {
    let mut walk = Walk {
        snapshot: Snapshot::default(),
        skip,
        hashed: 0,
    };
    match DirHandle::open(root) {
        Ok(fd) => {
            let state = match rustix::fs::fstat(&fd) {
                Ok(stat) => {
                    let marks = Marks {
                        owner: (stat.st_uid, stat.st_gid),
                        times: Some(times(&stat)),
                        xattrs: xattrs(&fd, c"."),
                    };
                    walk.snapshot.marks.insert(Vec::new(), marks);
                    State::Directory {
                        mode: stat.st_mode & 0o7777,
                        listed: true,
                    }
                }
                Err(e) => unreadable(e),
            };
            walk.snapshot.entries.insert(Vec::new(), state);
            walk.directory(&fd, &[], 0);
        }
        Err(e) => {
            walk.snapshot.entries.insert(Vec::new(), unreadable(e));
        }
    }
    walk.snapshot
}

/// The modification and change times of `stat`.
// `st_mtime_nsec` and the like are not `i64` on every target.
#[allow(clippy::unnecessary_cast)]
fn times(stat: &rustix::fs::Stat) -> [(i64, i64); 2] {
    [
        (stat.st_mtime as i64, stat.st_mtime_nsec as i64),
        (stat.st_ctime as i64, stat.st_ctime_nsec as i64),
    ]
}

/// The marks of `name` in `dir`, examined as `stat`; its times only if
/// `with_times` (not for a directory whose contents are not looked at:
/// what changes inside it moves them).
fn marks(dir: &DirHandle, name: &CStr, stat: &rustix::fs::Stat, with_times: bool) -> Marks {
    Marks {
        owner: (stat.st_uid, stat.st_gid),
        times: with_times.then(|| times(stat)),
        xattrs: xattrs(dir, name),
    }
}

/// What changed in an entry's marks alone, the first that applies: its
/// owner, its extended attributes, then, when `with_times`, its
/// modification and change times (when both sides recorded them).
fn marks_changed(was: &Marks, now: &Marks, with_times: bool) -> Option<ChangeKind> {
    if now.owner != was.owner {
        return Some(ChangeKind::Owner {
            before: was.owner,
            after: now.owner,
        });
    }
    if now.xattrs != was.xattrs {
        return Some(ChangeKind::Xattrs);
    }
    match (was.times, now.times) {
        (Some([m0, c0]), Some([m1, c1])) if with_times && (m0, c0) != (m1, c1) => {
            Some(ChangeKind::Times {
                modified: m0 != m1,
                changed: c0 != c1,
            })
        }
        _ => None,
    }
}

/// The keyed hash of the extended attributes of `name` in `dir`; none
/// when it has none or they cannot be read.
fn xattrs(dir: &impl std::os::fd::AsFd, name: &CStr) -> Option<u64> {
    let mut hasher = key().build_hasher();
    let mut any = false;
    crate::sys::each_xattr(dir, name, |attr, value| {
        any = true;
        hasher.write(attr);
        hasher.write_u8(0);
        hasher.write_usize(value.len());
        hasher.write(value);
    })
    .ok()?;
    any.then(|| hasher.finish())
}

fn unreadable(e: impl Into<std::io::Error>) -> State {
    State::Unreadable {
        error: e.into().to_string(),
    }
}

struct Walk<'a> {
    snapshot: Snapshot,
    skip: &'a [Vec<u8>],
    hashed: u64,
}

impl Walk<'_> {
    fn full(&mut self) -> bool {
        if self.snapshot.overflow.is_none() && self.snapshot.entries.len() >= MAX_ENTRIES {
            self.snapshot.overflow = Some(format!("more than {MAX_ENTRIES} entries"));
        }
        self.snapshot.overflow.is_some()
    }

    /// Records every entry of the open directory `dir` (at `path`), and
    /// below it.
    fn directory(&mut self, dir: &DirHandle, path: &[u8], depth: usize) {
        if self.skip.iter().any(|s| s == path) {
            return;
        }
        let names = match dir.names() {
            Ok(names) => names,
            Err(e) => {
                self.snapshot.entries.insert(path.to_vec(), unreadable(e));
                return;
            }
        };
        for name in names {
            if self.full() {
                return;
            }
            let mut child = path.to_vec();
            if !child.is_empty() {
                child.push(b'/');
            }
            child.extend_from_slice(name.to_bytes());
            let state = self.entry(dir, &name, &child, depth + 1);
            self.snapshot.entries.insert(child, state);
        }
    }

    /// The state of `name` in `dir`; a directory is descended into.
    fn entry(&mut self, dir: &DirHandle, name: &CStr, path: &[u8], depth: usize) -> State {
        let stat = match rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => stat,
            Err(e) => return unreadable(e),
        };
        let looked_into = !self.skip.iter().any(|s| s == path);
        let marks = marks(dir, name, &stat, looked_into);
        self.snapshot.marks.insert(path.to_vec(), marks);
        if FileType::from_raw_mode(stat.st_mode) != FileType::Directory {
            return self.state(dir, name, &stat);
        }
        let mode = stat.st_mode & 0o7777;
        let opened = dir.child_dir(name, false);
        let listed = matches!(opened, Ok(Some(_)));
        if let Ok(Some(child)) = opened {
            if depth >= MAX_DEPTH {
                self.snapshot.overflow = Some(format!("deeper than {MAX_DEPTH} levels"));
            } else {
                self.directory(&child, path, depth);
            }
        }
        State::Directory { mode, listed }
    }

    /// The state of `name` in `dir`, examined as `stat`; a directory is
    /// not looked into.
    // `st_size` and `st_rdev` are not `u64` on every target.
    #[allow(clippy::unnecessary_cast)]
    fn state(&mut self, dir: &DirHandle, name: &CStr, stat: &rustix::fs::Stat) -> State {
        let mode = stat.st_mode & 0o7777;
        match FileType::from_raw_mode(stat.st_mode) {
            FileType::Directory => State::Directory {
                mode,
                listed: matches!(dir.child_dir(name, false), Ok(Some(_))),
            },
            FileType::Symlink => match rustix::fs::readlinkat(dir, name, Vec::new()) {
                Ok(target) => State::Link {
                    target: target.into_bytes(),
                },
                Err(e) => unreadable(e),
            },
            FileType::RegularFile => State::File {
                mode,
                content: self.content(dir, name, stat.st_size as u64),
            },
            other => State::Special {
                kind: match other {
                    FileType::Fifo => "fifo",
                    FileType::Socket => "socket",
                    FileType::CharacterDevice => "character device",
                    FileType::BlockDevice => "block device",
                    _ => "unknown",
                },
                mode,
                device: stat.st_rdev as u64,
            },
        }
    }

    /// A regular file's content, hashed within the bounds. Opened without
    /// following a link and without waiting (`O_NONBLOCK`), and read only if
    /// what was opened is still a regular file: the subject may have
    /// swapped it for a FIFO since it was examined.
    fn content(&mut self, dir: &DirHandle, name: &CStr, size: u64) -> Content {
        if size > MAX_FILE_BYTES || self.hashed + size > MAX_HASHED_BYTES {
            return Content::NotHashed { size };
        }
        let flags =
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC;
        let failed = |e: std::io::Error| Content::Unreadable {
            error: e.to_string(),
        };
        let fd = match rustix::fs::openat(dir, name, flags, Mode::empty()) {
            Ok(fd) => fd,
            Err(e) => return failed(e.into()),
        };
        match rustix::fs::fstat(&fd) {
            Ok(stat) if FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile => {}
            Ok(_) => return Content::NotHashed { size },
            Err(e) => return failed(e.into()),
        }
        let mut hasher = key().build_hasher();
        // Never more than the bound, even if the file grows while read.
        let mut file = std::fs::File::from(fd).take(MAX_FILE_BYTES + 1);
        let mut buf = [0u8; CHUNK];
        let mut read = 0u64;
        loop {
            match file.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    hasher.write(&buf[..n]);
                    read += n as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return failed(e),
            }
        }
        self.hashed += read;
        Content::Hashed {
            size: read,
            hash: hasher.finish(),
        }
    }
}

/// One entry outside the fixture directory, as [`entry_at`] found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathState {
    pub state: State,
    /// None when it could not be examined.
    marks: Option<Marks>,
}

impl PathState {
    /// What changed from `self` to `now`, as [`diff`] says it of an entry
    /// outside every root: its state, else its owner, its extended
    /// attributes or its times (a directory's never: see [`entry_at`]).
    pub fn change_to(&self, now: PathState) -> Option<ChangeKind> {
        if self.state != now.state {
            return Some(ChangeKind::Changed {
                before: self.state.clone(),
                after: now.state,
            });
        }
        marks_changed(self.marks.as_ref()?, now.marks.as_ref()?, true)
    }
}

/// The one entry at `path`, as [`take`] records it (its last component
/// not followed, a directory not looked into, and so not its times
/// either), or `None` when nothing is there. For paths outside the
/// fixture directory that a call names (`harness::watch`).
pub fn entry_at(path: &Path) -> Option<PathState> {
    use std::os::unix::ffi::OsStrExt;
    let (parent, name) = (path.parent()?, path.file_name()?);
    let missing =
        |e: rustix::io::Errno| e == rustix::io::Errno::NOENT || e == rustix::io::Errno::NOTDIR;
    let unexamined = |e| {
        Some(PathState {
            state: unreadable(e),
            marks: None,
        })
    };
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
    let dir = match rustix::fs::open(parent, flags, Mode::empty()) {
        Ok(dir) => DirHandle::from(dir),
        Err(e) if missing(e) => return None,
        Err(e) => return unexamined(e),
    };
    let name = std::ffi::CString::new(name.as_bytes()).ok()?;
    let stat = match rustix::fs::statat(&dir, &name, AtFlags::SYMLINK_NOFOLLOW) {
        Ok(stat) => stat,
        Err(e) if missing(e) => return None,
        Err(e) => return unexamined(e),
    };
    let mut walk = Walk {
        snapshot: Snapshot::default(),
        skip: &[],
        hashed: 0,
    };
    let state = walk.state(&dir, &name, &stat);
    let is_dir = matches!(state, State::Directory { .. });
    Some(PathState {
        marks: Some(marks(&dir, &name, &stat, !is_dir)),
        state,
    })
}

/// What differs between `before` and `after`, except the `expected`
/// writes (see [`ExpectedWrite`]); an expected write that did not happen
/// is reported as [`ChangeKind::Missing`], one that left something else
/// as [`ChangeKind::NotWritten`]. A `before` that overflowed cannot be
/// compared (nothing is reported): the harness built it, and no case
/// comes near the bounds.
pub fn diff(before: &Snapshot, after: &Snapshot, expected: &[ExpectedWrite]) -> Vec<Change> {
    if before.overflow.is_some() {
        return Vec::new();
    }
    let (mut changes, allowed) = writes_made(before, after, expected);
    let mut note = |path: &[u8], kind: ChangeKind| {
        if !allowed.contains(&path) {
            changes.push(Change {
                path: path.to_vec(),
                kind,
            });
        }
    };
    states_changed(before, after, &mut note);
    marks_alone(before, after, &mut note);
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    if let Some(why) = &after.overflow {
        changes.push(Change {
            path: Vec::new(),
            kind: ChangeKind::Overflow(why.clone()),
        });
    }
    changes
}

/// Each expected write against the snapshots: a change for each that did
/// not happen ([`ChangeKind::Missing`]) or left something else
/// ([`ChangeKind::NotWritten`]), and the paths the writes allow to differ
/// (the files, and the directories made on the way): no other change there.
fn writes_made<'w>(
    before: &Snapshot,
    after: &Snapshot,
    expected: &'w [ExpectedWrite],
) -> (Vec<Change>, Vec<&'w [u8]>) {
    let mut changes = Vec::new();
    let mut allowed: Vec<&[u8]> = Vec::new();
    for write in expected {
        allowed.push(&write.path);
        let was = before.entries.get(&write.path);
        let now = after.entries.get(&write.path);
        if was.is_none() {
            // Directories the write created on its way: absent before,
            // directories after.
            allowed.extend(ancestors(&write.path).filter(|dir| {
                !before.entries.contains_key(*dir)
                    && matches!(after.entries.get(*dir), Some(State::Directory { .. }))
            }));
        }
        let kept_mode = |mode: u32| match was {
            Some(State::File { mode: before, .. }) => *before == mode,
            _ => true,
        };
        let written = matches!(
            now,
            Some(State::File { mode, content: Content::Hashed { size, hash } })
                if kept_mode(*mode)
                    && *size == write.content.len() as u64
                    && *hash == hash_of(&write.content)
        );
        if !written {
            let kind = match (was, now) {
                (Some(was), Some(now)) if was == now => ChangeKind::Missing,
                (None, None) => ChangeKind::Missing,
                _ => ChangeKind::NotWritten(now.cloned()),
            };
            changes.push(Change {
                path: write.path.clone(),
                kind,
            });
        }
    }
    (changes, allowed)
}

/// Every entry changed, removed or added between the snapshots, through
/// `note`, in path order (removals and changes, then additions).
fn states_changed(before: &Snapshot, after: &Snapshot, note: &mut impl FnMut(&[u8], ChangeKind)) {
    for (path, was) in &before.entries {
        match after.entries.get(path) {
            Some(now) if now == was => {}
            Some(now) => note(
                path,
                ChangeKind::Changed {
                    before: was.clone(),
                    after: now.clone(),
                },
            ),
            // An overflowing walk stopped early: what it did not reach is
            // unknown, not removed.
            None if after.overflow.is_some() => {}
            None => note(path, ChangeKind::Removed(was.clone())),
        }
    }
    for (path, now) in &after.entries {
        if !before.entries.contains_key(path) {
            note(path, ChangeKind::Added(now.clone()));
        }
    }
}

/// Every entry as it was but with other marks (owner, attributes, times),
/// through `note`: one change each, the first that applies. A directory's
/// times move with every name added to it, taken from it or replaced in
/// it, each a change of its own already: those are not looked at.
fn marks_alone(before: &Snapshot, after: &Snapshot, note: &mut impl FnMut(&[u8], ChangeKind)) {
    let renamed = names_changed_in(before, after);
    for (path, was) in &before.marks {
        let same_entry = after.entries.get(path) == before.entries.get(path);
        let Some(now) = after.marks.get(path).filter(|_| same_entry) else {
            continue;
        };
        if let Some(kind) = marks_changed(was, now, !renamed.contains(path)) {
            note(path, kind);
        }
    }
}

/// The directories a name was added to, taken from or replaced in between
/// the snapshots: the parent of every entry changed, removed or added.
fn names_changed_in(before: &Snapshot, after: &Snapshot) -> BTreeSet<Vec<u8>> {
    let parent = |p: &[u8]| p[..p.iter().rposition(|b| *b == b'/').unwrap_or(0)].to_vec();
    (before.entries.iter())
        .filter(|(p, was)| after.entries.get(*p) != Some(*was))
        .map(|(p, _)| p)
        .chain((after.entries.keys()).filter(|p| !before.entries.contains_key(*p)))
        .filter(|p| !p.is_empty())
        .map(|p| parent(p))
        .collect()
}

/// The proper ancestors of a `/`-joined path below the fixture directory,
/// the fixture directory itself (`""`) excluded.
fn ancestors(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    path.iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'/')
        .map(move |(i, _)| &path[..i])
}

impl Change {
    /// One line for a report: `+` added, `-` removed, `~` changed (and
    /// how), `!` an expected change missing; the path below `root` (the
    /// fixture directory), as `show` displays a machine path.
    pub fn describe(&self, root: &Path, show: impl Fn(&str) -> String) -> String {
        let mut full = root.as_os_str().as_encoded_bytes().to_vec();
        if !self.path.is_empty() {
            if !full.ends_with(b"/") {
                full.push(b'/');
            }
            full.extend_from_slice(&self.path);
        }
        let path = show(&String::from_utf8_lossy(&full));
        match &self.kind {
            ChangeKind::Added(now) => format!("+ {path} ({})", now.kind()),
            ChangeKind::Removed(was) => format!("- {path} ({})", was.kind()),
            ChangeKind::Changed { before, after } => {
                format!("~ {path} ({})", how_changed(before, after))
            }
            ChangeKind::Missing => format!("! {path} (expected to be written; was not)"),
            ChangeKind::NotWritten(now) => format!(
                "! {path} (expected to hold the written content; {})",
                match now {
                    Some(State::File { .. }) => "holds other bytes or other bits".to_owned(),
                    Some(other) => format!("is a {}", other.kind()),
                    None => "is not there".to_owned(),
                }
            ),
            ChangeKind::Overflow(why) => {
                format!("+ {path} (grew past the snapshot's bound: {why})")
            }
            ChangeKind::Owner { before, after } => format!(
                "~ {path} (owner {}:{} -> {}:{})",
                before.0, before.1, after.0, after.1
            ),
            ChangeKind::Xattrs => format!("~ {path} (extended attributes)"),
            ChangeKind::Times { modified, changed } => format!(
                "~ {path} ({} time)",
                match (modified, changed) {
                    (true, true) => "modification and change",
                    (true, false) => "modification",
                    _ => "change",
                }
            ),
        }
    }
}

/// Whether snapshot path `path` lies strictly below `dir` (both
/// `/`-joined and relative to the fixture directory).
pub fn is_below(path: &[u8], dir: &[u8]) -> bool {
    path.len() > dir.len() && path.starts_with(dir) && path[dir.len()] == b'/'
}

/// The changes worth listing in a report: an entry added below a
/// directory that was added too is left out, the directory standing for
/// its whole new subtree. A tool that built a deep tree in the wrong place
/// then shows where it began, and the list does not depend on where the
/// machine keeps its fixtures (a path taken relative to the target
/// repeats the fixture directory's own ancestors below it). `changes` are
/// in [`diff`]'s order, each directory before what is below it.
pub fn topmost<'c>(changes: &[&'c Change]) -> Vec<&'c Change> {
    let mut kept: Vec<&Change> = Vec::new();
    for &change in changes {
        let below_a_new_directory = kept.iter().any(|k| {
            matches!(k.kind, ChangeKind::Added(State::Directory { .. }))
                && is_below(&change.path, &k.path)
        });
        if !below_a_new_directory {
            kept.push(change);
        }
    }
    kept
}

fn how_changed(before: &State, after: &State) -> String {
    match (before, after) {
        (
            State::File {
                mode: a,
                content: x,
            },
            State::File {
                mode: b,
                content: y,
            },
        ) => {
            let mut what = Vec::new();
            if x != y {
                what.push("content".to_owned());
            }
            if a != b {
                what.push(format!("mode {a:04o} -> {b:04o}"));
            }
            what.join(", ")
        }
        (State::Directory { mode: a, .. }, State::Directory { mode: b, .. }) if a != b => {
            format!("mode {a:04o} -> {b:04o}")
        }
        (State::Link { target: a }, State::Link { target: b }) if a != b => format!(
            "link target {:?} -> {:?}",
            String::from_utf8_lossy(a),
            String::from_utf8_lossy(b)
        ),
        _ if before.kind() != after.kind() => format!("{} -> {}", before.kind(), after.kind()),
        _ => "changed".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::{PermissionsExt, symlink};

    use super::*;

    fn fixture() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("ws/src")).unwrap();
        fs::write(root.join("ws/src/a.ts"), "hello\n").unwrap();
        fs::write(root.join("outside.txt"), "secret\n").unwrap();
        symlink("../outside.txt", root.join("ws/out")).unwrap();
        crate::sys::mkfifo(&root.join("ws/pipe"), 0o644).unwrap();
        fs::create_dir_all(root.join("ws/.git/objects")).unwrap();
        fs::write(root.join("ws/.git/index"), "v1").unwrap();
        dir
    }

    fn changes(root: &Path, before: &Snapshot) -> Vec<String> {
        let after = take(root, &[b"ws/.git".to_vec()]);
        diff(before, &after, &[])
            .iter()
            .map(|c| c.describe(root, |p| p.replace(&*root.to_string_lossy(), "{tmp}")))
            .collect()
    }

    #[test]
    fn an_untouched_fixture_has_no_changes_and_a_fifo_is_never_opened() {
        let dir = fixture();
        let before = take(dir.path(), &[b"ws/.git".to_vec()]);
        assert_eq!(before.overflow, None);
        assert_eq!(
            before.entries.get(b"ws/pipe".as_slice()).map(State::kind),
            Some("fifo")
        );
        assert_eq!(changes(dir.path(), &before), Vec::<String>::new());
    }

    #[test]
    fn an_entry_that_only_changed_hands_is_a_change() {
        if !crate::test_support::root_or_skip("changing an owner") {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("a"), "x").unwrap();
        symlink("a", root.join("l")).unwrap();
        let before = take(root, &[]);
        std::os::unix::fs::lchown(root.join("a"), Some(65534), None).unwrap();
        std::os::unix::fs::lchown(root.join("l"), None, Some(65534)).unwrap();
        let shown: Vec<String> = diff(&before, &take(root, &[]), &[])
            .iter()
            .map(|c| c.describe(Path::new("/w"), str::to_owned))
            .collect();
        assert_eq!(
            shown,
            [
                "~ /w/a (owner 0:0 -> 65534:0)",
                "~ /w/l (owner 0:0 -> 0:65534)"
            ]
        );
    }

    #[test]
    fn a_touched_entry_or_one_given_an_attribute_is_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir(root.join("d")).unwrap();
        fs::write(root.join("a"), "x").unwrap();
        fs::write(root.join("b"), "x").unwrap();
        let before = take(root, &[]);
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1 << 30);
        let a = fs::File::options()
            .write(true)
            .open(root.join("a"))
            .unwrap();
        a.set_modified(old).unwrap();
        let d = fs::File::open(root.join("d")).unwrap();
        let flags = rustix::fs::XattrFlags::empty();
        rustix::fs::fsetxattr(&d, "user.toolpath", b"v", flags).unwrap();
        // The same bytes written again: only its times moved.
        fs::write(root.join("b"), "x").unwrap();
        let shown: Vec<String> = diff(&before, &take(root, &[]), &[])
            .iter()
            .map(|c| c.describe(Path::new("/w"), str::to_owned))
            .collect();
        assert_eq!(
            shown,
            [
                "~ /w/a (modification and change time)",
                "~ /w/b (modification and change time)",
                "~ /w/d (extended attributes)",
            ]
        );
        assert!(
            diff(&before, &take(root, &[]), &[])
                .iter()
                .all(|c| c.kind.is_metadata())
        );
        // A directory's times moved by a name added to it are that name's.
        let before = take(root, &[]);
        fs::write(root.join("d/new"), "x").unwrap();
        let after = take(root, &[]);
        assert_eq!(paths(&diff(&before, &after, &[])), [b"d/new".as_slice()]);
        // Below a directory whose contents are not looked at (a `.git`),
        // nothing is, and its own times neither.
        let before = take(root, &[b"d".to_vec()]);
        fs::write(root.join("d/index"), "x").unwrap();
        assert_eq!(diff(&before, &take(root, &[b"d".to_vec()]), &[]), []);
    }

    #[test]
    fn every_kind_of_change_is_found_and_named() {
        let dir = fixture();
        let root = dir.path();
        let before = take(root, &[b"ws/.git".to_vec()]);
        fs::write(root.join("ws/src/a.ts"), "hellO\n").unwrap();
        fs::write(root.join("outside.txt.new"), "x").unwrap();
        fs::remove_file(root.join("ws/out")).unwrap();
        symlink("/etc", root.join("ws/out")).unwrap();
        fs::set_permissions(root.join("ws/src"), fs::Permissions::from_mode(0o700)).unwrap();
        fs::remove_file(root.join("ws/pipe")).unwrap();
        fs::write(root.join("ws/pipe"), "").unwrap();
        // Git's bookkeeping below the harness's `.git` is not a change.
        fs::write(root.join("ws/.git/index"), "v2").unwrap();
        fs::write(root.join("ws/.git/index.lock"), "").unwrap();
        assert_eq!(
            changes(root, &before),
            [
                "+ {tmp}/outside.txt.new (file)",
                "~ {tmp}/ws/out (link target \"../outside.txt\" -> \"/etc\")",
                "~ {tmp}/ws/pipe (fifo -> file)",
                "~ {tmp}/ws/src (mode 0755 -> 0700)",
                "~ {tmp}/ws/src/a.ts (content)",
            ]
        );
        fs::remove_dir_all(root.join("ws/.git")).unwrap();
        let gone = changes(root, &before);
        assert!(
            gone.contains(&"- {tmp}/ws/.git (directory)".to_owned()),
            "{gone:?}"
        );
    }

    #[test]
    fn the_same_size_and_a_different_byte_is_a_change() {
        let dir = fixture();
        let before = take(dir.path(), &[]);
        fs::write(dir.path().join("ws/src/a.ts"), "hellp\n").unwrap();
        let after = take(dir.path(), &[]);
        let found = diff(&before, &after, &[]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].path, b"ws/src/a.ts");
    }

    #[test]
    fn a_directory_swapped_for_a_link_is_a_change_and_is_not_followed() {
        let dir = fixture();
        let root = dir.path();
        let before = take(root, &[]);
        fs::rename(root.join("ws/src"), root.join("ws/src.moved")).unwrap();
        symlink("/", root.join("ws/src")).unwrap();
        let after = take(root, &[]);
        assert!(
            !after.entries.keys().any(|k| k.starts_with(b"ws/src/etc")),
            "the link was followed"
        );
        let found: Vec<String> = diff(&before, &after, &[])
            .iter()
            .map(|c| c.describe(Path::new("{tmp}"), str::to_owned))
            .collect();
        assert!(
            found.contains(&"~ {tmp}/ws/src (directory -> link)".to_owned()),
            "{found:?}"
        );
        assert!(
            found.contains(&"- {tmp}/ws/src/a.ts (file)".to_owned()),
            "{found:?}"
        );
        assert!(
            found.contains(&"+ {tmp}/ws/src.moved/a.ts (file)".to_owned()),
            "{found:?}"
        );
    }

    fn write(path: &str, content: &str) -> ExpectedWrite {
        ExpectedWrite {
            path: path.as_bytes().to_vec(),
            content: content.as_bytes().to_vec(),
        }
    }

    fn paths(changes: &[Change]) -> Vec<&[u8]> {
        changes.iter().map(|c| c.path.as_slice()).collect()
    }

    #[test]
    fn an_expected_write_and_the_directories_it_made_are_allowed() {
        let dir = fixture();
        let root = dir.path();
        let before = take(root, &[]);
        fs::create_dir_all(root.join("ws/made/deeper")).unwrap();
        fs::write(root.join("ws/made/deeper/new.txt"), "new\n").unwrap();
        fs::write(root.join("ws/src/a.ts"), "edited\n").unwrap();
        let after = take(root, &[]);
        let found = diff(&before, &after, &[write("ws/made/deeper/new.txt", "new\n")]);
        assert_eq!(paths(&found), [b"ws/src/a.ts".as_slice()], "{found:?}");
        let both = [
            write("ws/made/deeper/new.txt", "new\n"),
            write("ws/src/a.ts", "edited\n"),
        ];
        assert_eq!(diff(&before, &after, &both), []);
        // A directory made beside the written file is not on its way.
        fs::create_dir(root.join("ws/made/beside")).unwrap();
        let after = take(root, &[]);
        assert_eq!(
            paths(&diff(&before, &after, &both)),
            [b"ws/made/beside".as_slice()]
        );
    }

    #[test]
    fn a_write_of_other_bytes_other_bits_or_nothing_is_reported() {
        let dir = fixture();
        let root = dir.path();
        let before = take(root, &[]);
        let describe = |changes: Vec<Change>| -> Vec<String> {
            changes
                .iter()
                .map(|c| c.describe(Path::new("{tmp}"), str::to_owned))
                .collect()
        };
        // Nothing happened.
        assert_eq!(
            describe(diff(&before, &before, &[write("ws/src/a.ts", "x\n")])),
            ["! {tmp}/ws/src/a.ts (expected to be written; was not)"]
        );
        assert_eq!(
            describe(diff(&before, &before, &[write("ws/new.txt", "x\n")])),
            ["! {tmp}/ws/new.txt (expected to be written; was not)"]
        );
        // Other bytes of the same length.
        fs::write(root.join("ws/src/a.ts"), "x\ny\n").unwrap();
        let after = take(root, &[]);
        assert_eq!(
            describe(diff(&before, &after, &[write("ws/src/a.ts", "x\nz\n")])),
            [
                "! {tmp}/ws/src/a.ts (expected to hold the written content; holds other bytes or other bits)"
            ]
        );
        // The right bytes, but the permission bits changed.
        fs::set_permissions(root.join("ws/src/a.ts"), fs::Permissions::from_mode(0o600)).unwrap();
        let after = take(root, &[]);
        assert_eq!(
            diff(&before, &after, &[write("ws/src/a.ts", "x\ny\n")]).len(),
            1
        );
        // A directory where the file should be.
        fs::create_dir(root.join("ws/dir.txt")).unwrap();
        let after = take(root, &[]);
        let found = describe(diff(&before, &after, &[write("ws/dir.txt", "x")]));
        assert!(
            found.contains(
                &"! {tmp}/ws/dir.txt (expected to hold the written content; is a directory)"
                    .to_owned()
            ),
            "{found:?}"
        );
    }

    #[test]
    fn a_write_through_a_link_leaves_the_link_and_outside_changes_are_escapes() {
        let dir = fixture();
        let root = dir.path();
        let before = take(root, &[]);
        // `ws/out` leads to `outside.txt`, beside the root: writing through
        // it changes a file outside, which no expectation can allow.
        fs::write(root.join("ws/out"), "changed\n").unwrap();
        let after = take(root, &[]);
        let found = diff(&before, &after, &[write("ws/out", "changed\n")]);
        assert_eq!(paths(&found), [b"outside.txt".as_slice(), b"ws/out"]);
        let roots = [b"ws".to_vec()];
        let outside: Vec<bool> = (found.iter())
            .map(|c| crate::harness::containment::is_outside(c, &roots))
            .collect();
        assert_eq!(outside, [true, false]);
    }

    #[test]
    fn a_new_tree_is_listed_by_its_top_directory() {
        let dir = fixture();
        let root = dir.path();
        let before = take(root, &[]);
        fs::create_dir_all(root.join("ws/ /dev/shm/run")).unwrap();
        fs::write(root.join("ws/ /dev/shm/run/a.txt"), "x").unwrap();
        fs::write(root.join("ws/new.txt"), "x").unwrap();
        let after = take(root, &[]);
        let found = diff(&before, &after, &[]);
        assert_eq!(found.len(), 6);
        let all: Vec<&Change> = found.iter().collect();
        assert_eq!(
            paths(&topmost(&all).into_iter().cloned().collect::<Vec<_>>()),
            [b"ws/ ".as_slice(), b"ws/new.txt"]
        );
    }

    #[test]
    fn a_walk_past_its_bounds_stops_and_that_is_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let before = take(dir.path(), &[]);
        let mut deep = dir.path().to_path_buf();
        for _ in 0..=MAX_DEPTH {
            deep.push("d");
        }
        fs::create_dir_all(&deep).unwrap();
        let after = take(dir.path(), &[]);
        assert_eq!(after.overflow.as_deref(), Some("deeper than 64 levels"));
        let found = diff(&before, &after, &[]);
        assert!(
            found
                .iter()
                .any(|c| matches!(c.kind, ChangeKind::Overflow(_))),
            "{found:?}"
        );
    }
}
