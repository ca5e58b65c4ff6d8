//! Removing what dead runs left in a [`Place`]: their directories and the
//! processes that carry their id.
//!
//! Only the place given is looked at (a run cleans the place it uses,
//! `toolpath clean` the place its `--fixture-dir` names), and in it only
//! directories named like a run's and owned by the user who cleans.
//!
//! The protocol with live runs (see [`super::run_dir`]):
//! - `toolpath-run-*`: its lock is tried; a lock that can be taken is a
//!   dead run's, and only then is the directory removed. The lock file is
//!   checked to still be the directory's after it was taken, so a run that
//!   removed itself meanwhile is not "removed" twice.
//! - `toolpath-starting-*`: a run being born. Its lock is never tried while
//!   the directory is young (a cleaner that took it between the creator's
//!   `open` and `flock` made the creator fail); one older than
//!   [`STARTING_AGE`] whose lock is free (or that has none) is a run that
//!   died while creating its directory.
//!
//! Removal never follows a symbolic link (a leftover adapter may have put
//! one anywhere) and gives directories whose mode a case took away their
//! access back first ([`crate::case::tree`]). Processes a dead run left are
//! killed first: adapters carry `TOOLPATH_RUN` in their environment, and so
//! do their descendants unless they clear it.

use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::time::Duration;

use rustix::fs::{AtFlags, Mode, OFlags};

use crate::case::tree::DirHandle;
use crate::session::place::Place;
use crate::session::run_dir::{ENV, LOCK, PREFIX, STARTING, open_dir};

/// How old a `toolpath-starting-*` directory must be before a cleaner
/// looks at it: creating one takes microseconds.
pub const STARTING_AGE: Duration = Duration::from_secs(60);

/// What [`clean`] did.
#[derive(Debug, Default)]
pub struct Cleaned {
    pub removed: Vec<PathBuf>,
    pub processes: usize,
    /// Directories of live runs, left alone.
    pub live: usize,
    pub errors: Vec<String>,
}

/// What a cleaner makes of one entry of the place.
enum Found {
    /// A dead run's directory, with its lock held by the cleaner.
    Dead(Option<OwnedFd>),
    Live,
    /// Not a run directory of this user, or gone meanwhile.
    Other,
}

/// Cleans `place` ([`clean`]) and says on stderr what was removed (always
/// with `verbose`, else only when something was found). Returns whether
/// everything could be removed.
pub fn clean_and_say(place: &Place, verbose: bool) -> bool {
    let cleaned = clean(place);
    for dir in &cleaned.removed {
        eprintln!(
            "toolpath: removed {}, left by a run that died",
            dir.display()
        );
    }
    if cleaned.processes > 0 {
        eprintln!(
            "toolpath: killed {} process(es) left by runs that died",
            cleaned.processes
        );
    }
    for error in &cleaned.errors {
        eprintln!("toolpath: cannot remove {error}");
    }
    if verbose {
        eprintln!(
            "toolpath: {} director(ies) removed in {}, {} live run(s) left alone",
            cleaned.removed.len(),
            place.path().display(),
            cleaned.live
        );
    }
    cleaned.errors.is_empty()
}

/// Removes the directories (and kills the processes) of dead runs in `place`.
pub fn clean(place: &Place) -> Cleaned {
    let mut cleaned = Cleaned::default();
    let Ok(parent) = rustix::fs::open(
        place.path(),
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return cleaned;
    };
    let parent = DirHandle::from(parent);
    let Ok(names) = parent.names() else {
        return cleaned;
    };
    for name in names {
        let text = OsStr::from_bytes(name.as_bytes());
        let found = examine(&parent, &name);
        let path = place.path().join(text);
        match found {
            Found::Other => {}
            Found::Live => cleaned.live += 1,
            Found::Dead(_lock) => {
                if let Some(id) = text.to_str().filter(|n| n.starts_with(PREFIX)) {
                    cleaned.processes += kill_processes_of(id);
                }
                match parent.remove(&name) {
                    Ok(()) => cleaned.removed.push(path),
                    // Another cleaner removed it first.
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                    Err(e) => cleaned.errors.push(format!("{}: {e}", path.display())),
                }
            }
        }
    }
    cleaned
}

/// Whether the entry `name` of `parent` is a live run, a dead one, or neither.
fn examine(parent: &DirHandle, name: &CString) -> Found {
    let bytes = name.as_bytes();
    let starting = bytes.starts_with(STARTING.as_bytes());
    if !starting && !bytes.starts_with(PREFIX.as_bytes()) {
        return Found::Other;
    }
    let Ok(stat) = rustix::fs::statat(parent, name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW) else {
        return Found::Other;
    };
    let is_dir =
        rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::Directory;
    if !is_dir || stat.st_uid != crate::sys::geteuid() {
        return Found::Other;
    }
    if starting && !older_than(stat.st_mtime, STARTING_AGE) {
        return Found::Live;
    }
    let Ok(dir) = open_dir(parent, OsStr::from_bytes(bytes)) else {
        return Found::Other;
    };
    let lock = rustix::fs::openat(
        &dir,
        LOCK,
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    );
    match lock {
        // An error taking it (none is expected) counts as held: a live run.
        Ok(lock) if crate::sys::try_lock_exclusive(&lock).unwrap_or(false) => {
            // Still this directory's lock file, and the directory still
            // named so: not a run that removed itself meanwhile.
            let held = rustix::fs::fstat(&lock).ok();
            let named = rustix::fs::statat(&dir, LOCK, AtFlags::SYMLINK_NOFOLLOW).ok();
            let same = |a: &rustix::fs::Stat, b: &rustix::fs::Stat| {
                (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
            };
            let dir_now =
                rustix::fs::statat(parent, name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW).ok();
            match (held, named, dir_now) {
                (Some(h), Some(n), Some(d)) if same(&h, &n) && same(&d, &stat) => {
                    Found::Dead(Some(lock))
                }
                _ => Found::Other,
            }
        }
        Ok(_) => Found::Live,
        // No lock file: a run that died while creating its directory (an
        // old `starting` one); a run directory always has one, unless it
        // is being removed right now.
        Err(_) if starting => Found::Dead(None),
        Err(_) => Found::Other,
    }
}

/// Whether a modification time (seconds since the epoch) is more than `age` ago.
fn older_than(mtime: i64, age: Duration) -> bool {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    now - mtime > age.as_secs() as i64
}

/// The longest a cleaner waits for the processes it killed to be gone.
/// SIGKILL cannot be caught, but a loaded machine takes its time to
/// deliver it; a process stuck in the kernel (an NFS read) is left to it.
pub const KILL_WAIT: Duration = Duration::from_secs(5);

/// Kills every process whose environment carries the run id `id` in
/// [`ENV`], then waits (at most [`KILL_WAIT`]) until each is gone, so that
/// none still writes into the run's directory while it is removed, and a
/// cleaner that returns leaves nothing running ([`crate::sys::kill_and_wait`],
/// through pidfds: a pid reused between the read of `/proc` and the kill is
/// never signalled).
fn kill_processes_of(id: &str) -> usize {
    let wanted = [ENV.as_bytes(), b"=", id.as_bytes()].concat();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let carriers: Vec<i32> = entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<i32>().ok()?;
            let environ = std::fs::read(entry.path().join("environ")).ok()?;
            environ
                .split(|&b| b == 0)
                .any(|var| var == wanted.as_slice())
                .then_some(pid)
        })
        .collect();
    crate::sys::kill_and_wait(&carriers, KILL_WAIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::run_dir::RunDir;
    use std::fs::{self, File};
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    fn place(dir: &Path) -> Place {
        Place::resolve(Some(dir)).unwrap()
    }

    #[test]
    fn removal_restores_access_and_never_follows_a_link() {
        let parent = tempfile::tempdir().unwrap();
        let outside = parent.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("keep.txt"), "x").unwrap();
        fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
        let tree = parent.path().join(format!("{PREFIX}dead"));
        fs::create_dir_all(tree.join("locked/deeper")).unwrap();
        File::create(tree.join(LOCK)).unwrap();
        fs::write(tree.join("locked/deeper/a.txt"), "x").unwrap();
        std::os::unix::fs::symlink(&outside, tree.join("link")).unwrap();
        std::os::unix::fs::symlink(&outside, tree.join("locked/link")).unwrap();
        fs::set_permissions(tree.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
        let cleaned = clean(&place(parent.path()));
        assert_eq!(cleaned.errors, Vec::<String>::new());
        assert!(!tree.exists());
        assert!(outside.join("keep.txt").exists());
        let mode = fs::metadata(&outside).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o755, "a link was followed");
    }

    #[test]
    fn clean_removes_dead_runs_and_never_a_live_one() {
        let parent = tempfile::tempdir().unwrap();
        let place = place(parent.path());
        let live = RunDir::create(&place).unwrap();
        fs::write(live.path().join("x"), "x").unwrap();
        // A dead run: its lock file is there, and nobody holds it.
        let dead = place.path().join(format!("{PREFIX}dead"));
        fs::create_dir(&dead).unwrap();
        File::create(dead.join(LOCK)).unwrap();
        // A run being born (young, lock free): left alone.
        let born = place.path().join(format!("{STARTING}born"));
        fs::create_dir(&born).unwrap();
        File::create(born.join(LOCK)).unwrap();
        // Not a run directory at all, and a link named like one: left alone.
        let other = place.path().join("toolpath-other");
        fs::create_dir(&other).unwrap();
        std::os::unix::fs::symlink(&other, place.path().join(format!("{PREFIX}link"))).unwrap();
        let cleaned = clean(&place);
        assert_eq!(cleaned.removed, vec![dead.clone()]);
        assert_eq!(cleaned.live, 2, "the live run and the one being born");
        assert!(live.path().join("x").exists());
        assert!(born.exists() && other.exists());
        let path = live.path().to_owned();
        drop(live);
        assert!(!path.exists(), "a run removes its own directory");
    }

    /// Item 8 of issue 21: two runs sharing a place failed at random with
    /// "cannot lock the run directory" when the clean-up at the start of
    /// one took the lock of the other's directory between its creation and
    /// its `flock`. Creators and cleaners race here in threads (flock locks
    /// belong to open file descriptions, so threads contend like
    /// processes), bounded by iterations: every creation must succeed, and
    /// no cleaner may remove or count as dead a directory that is live.
    #[test]
    fn creators_and_cleaners_racing_never_fail_or_remove_a_live_run() {
        const CREATORS: usize = 4;
        const CLEANERS: usize = 2;
        const ROUNDS: usize = 300;
        let parent = tempfile::tempdir().unwrap();
        let place = place(parent.path());
        /// Counts a creator as done however it ends (a panic too), so the
        /// cleaners always stop.
        struct Done<'a>(&'a std::sync::atomic::AtomicUsize);
        impl Drop for Done<'_> {
            fn drop(&mut self) {
                self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let done = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let creators: Vec<_> = (0..CREATORS)
                .map(|_| {
                    scope.spawn(|| {
                        let _done = Done(&done);
                        for round in 0..ROUNDS {
                            let run = RunDir::create(&place)
                                .unwrap_or_else(|e| panic!("round {round}: {e}"));
                            let mine = run.subdir("fixtures").unwrap().join("mine");
                            fs::write(&mine, "x").unwrap();
                            assert!(mine.exists(), "round {round}: a cleaner removed a live run");
                            drop(run);
                        }
                    })
                })
                .collect();
            for _ in 0..CLEANERS {
                scope.spawn(|| {
                    while done.load(std::sync::atomic::Ordering::SeqCst) < CREATORS {
                        let cleaned = clean(&place);
                        assert_eq!(
                            cleaned.removed,
                            Vec::<PathBuf>::new(),
                            "only live runs here"
                        );
                        assert_eq!(cleaned.errors, Vec::<String>::new());
                    }
                });
            }
            for creator in creators {
                creator.join().unwrap();
            }
        });
        let left: Vec<_> = fs::read_dir(place.path()).unwrap().flatten().collect();
        assert!(left.is_empty(), "{left:?}");
    }
}
