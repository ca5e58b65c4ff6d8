//! A run's own directory: created, locked, and used through its open
//! descriptor, never by a path a link could redirect.
//!
//! Everything a run puts on disk (fixtures, each adapter's `TMPDIR`, the
//! reference's scratch directory, the event spool) lives under one
//! directory, `toolpath-run-XXXXXXXXXXXX`, in its [`Place`], holding
//! `owner.lock`: a file the run keeps locked (`flock`) for as long as it
//! lives. The kernel drops the lock when the process dies, however it dies,
//! so a directory whose lock can be taken belongs to a dead run, and one
//! whose lock cannot be taken to a live one (see [`super::clean`]). A pid
//! file would not do: pids are reused.
//!
//! Creation: the directory is made as `toolpath-starting-X` (mode 0700), its
//! lock file created and locked through the directory's descriptor, and
//! only then renamed to `toolpath-run-X`; a cleaner never takes the lock of
//! a `toolpath-starting-*` directory (it removes one only once it is old),
//! so it can neither see a run directory without its held lock nor take
//! the lock of a directory being born. After the rename the directory is
//! checked to be the one created (same device and inode), and every later
//! step (the lock, subdirectories and their modes, the spool) goes through
//! descriptors (`openat`, `mkdirat`, `fchmod`). Nothing in it belongs to
//! another user but what a subject run as that user is given: its scratch
//! directories and each fixture, handed to it one by one, inside
//! directories of root's that it cannot rename entries in.
//!
//! The run's id is the directory's base name; adapters get it as
//! `TOOLPATH_RUN` ([`ENV`]), so `toolpath clean` can find the processes a
//! killed run left, without being told where the run's files are.

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, Mode, OFlags, RenameFlags};
use rustix::io::Errno;

use crate::session::place::Place;

/// The prefix of live (and dead) run directories.
pub const PREFIX: &str = "toolpath-run-";
/// The prefix of a run directory being created.
pub const STARTING: &str = "toolpath-starting-";
/// The lock file in a run directory.
pub const LOCK: &str = "owner.lock";
/// The environment variable carrying the run's id, for adapters (and so
/// for their descendants, which `toolpath clean` kills after a SIGKILL).
pub const ENV: &str = crate::subject::adapter::RUN_ID_ENV;

/// How a directory is opened: never through a link, never inherited (the
/// fixture walker's flags, `case::tree`).
const DIR: OFlags = crate::case::tree::DIR_FLAGS;

/// A live run's directory; removed when dropped.
pub struct RunDir {
    path: PathBuf,
    id: String,
    parent: OwnedFd,
    dir: OwnedFd,
    /// Held for the run's whole life; released after the removal (fields
    /// drop after [`Drop::drop`]).
    _lock: OwnedFd,
}

/// Opens `name` in `dir` as a directory, without following a link.
pub(crate) fn open_dir(dir: impl AsFd, name: &OsStr) -> io::Result<OwnedFd> {
    Ok(rustix::fs::openat(dir, name, DIR, Mode::empty())?)
}

/// Twelve random characters from `[a-z0-9]`.
fn random_suffix() -> io::Result<String> {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut bytes = [0u8; 12];
    crate::sys::random_bytes(&mut bytes)?;
    Ok(bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect())
}

impl RunDir {
    /// Creates and locks a run directory in `place`.
    pub fn create(place: &Place) -> io::Result<RunDir> {
        let parent = rustix::fs::open(place.path(), DIR, Mode::empty())?;
        let (suffix, dir) = make_starting(&parent)?;
        let starting = format!("{STARTING}{suffix}");
        let id = format!("{PREFIX}{suffix}");
        let stat = rustix::fs::fstat(&dir)?;
        if stat.st_uid != crate::sys::geteuid() {
            return Err(io::Error::other(format!(
                "{} is not the directory this run created",
                place.path().join(&starting).display()
            )));
        }
        let lock = rustix::fs::openat(
            &dir,
            LOCK,
            OFlags::CREATE | OFlags::EXCL | OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?;
        if !crate::sys::try_lock_exclusive(&lock)? {
            return Err(io::Error::other("cannot lock the run directory"));
        }
        rustix::fs::renameat_with(&parent, &starting, &parent, &id, RenameFlags::NOREPLACE)?;
        let named = rustix::fs::statat(&parent, &id, AtFlags::SYMLINK_NOFOLLOW)?;
        if (named.st_dev, named.st_ino) != (stat.st_dev, stat.st_ino) {
            return Err(io::Error::other(format!(
                "{} was replaced while the run created it",
                place.path().join(&id).display()
            )));
        }
        // Others may pass through (the unprivileged runner reaches its own
        // directories inside), never list.
        rustix::fs::fchmod(&dir, Mode::from_raw_mode(0o711))?;
        Ok(RunDir {
            path: place.path().join(&id),
            id,
            parent,
            dir,
            _lock: lock,
        })
    }

    /// Where the directory is (its place is canonical, so this is a real path).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The run's id: the directory's base name, as adapters get it in [`ENV`].
    pub fn id(&self) -> &str {
        &self.id
    }

    /// A subdirectory (created if missing), mode 0711; its path.
    pub fn subdir(&self, name: &str) -> io::Result<PathBuf> {
        self.open_subdir(name)?;
        Ok(self.path.join(name))
    }

    fn open_subdir(&self, name: &str) -> io::Result<OwnedFd> {
        match rustix::fs::mkdirat(&self.dir, name, Mode::from_raw_mode(0o700)) {
            Ok(()) | Err(Errno::EXIST) => {}
            Err(e) => return Err(e.into()),
        }
        let dir = open_dir(&self.dir, OsStr::new(name))?;
        rustix::fs::fchmod(&dir, Mode::from_raw_mode(0o711))?;
        Ok(dir)
    }

    /// Creates the file `name` in the directory (it must not exist), open
    /// for reading and appending, readable by the owner only.
    pub fn create_file(&self, name: &str) -> io::Result<File> {
        let fd = rustix::fs::openat(
            &self.dir,
            name,
            OFlags::CREATE
                | OFlags::EXCL
                | OFlags::RDWR
                | OFlags::APPEND
                | OFlags::NOFOLLOW
                | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        )?;
        Ok(File::from(fd))
    }
}

/// Makes a fresh `toolpath-starting-*` directory in `parent`; its suffix
/// and an open handle on it.
fn make_starting(parent: &OwnedFd) -> io::Result<(String, OwnedFd)> {
    for _ in 0..64 {
        let suffix = random_suffix()?;
        let name = format!("{STARTING}{suffix}");
        match rustix::fs::mkdirat(parent, name.as_str(), Mode::from_raw_mode(0o700)) {
            Ok(()) => return Ok((suffix, open_dir(parent, OsStr::new(&name))?)),
            Err(Errno::EXIST) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(io::Error::other("no free name for a run directory"))
}

impl Drop for RunDir {
    fn drop(&mut self) {
        // Through the parent's handle: the name is looked up there, and
        // nothing below it is followed if it is a link.
        let name =
            std::ffi::CString::new(OsStr::new(&self.id).as_bytes()).expect("a run id has no NUL");
        let parent = rustix::io::dup(&self.parent).map(crate::case::tree::DirHandle::from);
        if let Ok(parent) = parent {
            let _ = parent.remove(&name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    pub(crate) fn place(dir: &Path) -> Place {
        Place::resolve(Some(dir)).unwrap()
    }

    #[test]
    fn a_run_directory_is_locked_private_and_removed_when_dropped() {
        let parent = tempfile::tempdir().unwrap();
        let run = RunDir::create(&place(parent.path())).unwrap();
        assert!(run.id().starts_with(PREFIX), "{}", run.id());
        assert_eq!(run.path().file_name().unwrap(), OsStr::new(run.id()));
        let mode = std::fs::metadata(run.path()).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o711);
        // The lock is held: another open file description cannot take it.
        let lock = File::open(run.path().join(LOCK)).unwrap();
        assert!(!crate::sys::try_lock_exclusive(&lock).unwrap());
        let sub = run.subdir("fixtures").unwrap();
        std::fs::write(sub.join("x"), "x").unwrap();
        let mut spool = run.create_file("events.jsonl").unwrap();
        std::io::Write::write_all(&mut spool, b"line\n").unwrap();
        assert!(run.create_file("events.jsonl").is_err(), "created twice");
        let path = run.path().to_owned();
        drop(run);
        assert!(!path.exists(), "a run removes its own directory");
        // A process another test thread is starting holds a copy of every
        // descriptor from its fork to its exec (close-on-exec closes them
        // there), the lock's included: the lock is free once such a
        // window ends, which takes far less than this bound.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !crate::sys::try_lock_exclusive(&lock).unwrap() {
            assert!(
                std::time::Instant::now() < deadline,
                "the lock is released with the run"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// Everything after the creation goes through the directory's
    /// descriptor: with the run directory's name swapped for a link to a
    /// victim (what another user could do in a place they can write to,
    /// which [`Place`] refuses), subdirectories, their modes, the spool and
    /// the removal still reach the run's own directory, never the victim.
    #[test]
    fn a_run_directory_swapped_for_a_link_is_never_followed() {
        let parent = tempfile::tempdir().unwrap();
        let victim = parent.path().join("victim");
        std::fs::create_dir(&victim).unwrap();
        std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o700)).unwrap();
        let run = RunDir::create(&place(parent.path())).unwrap();
        let moved = parent.path().join("moved");
        std::fs::rename(run.path(), &moved).unwrap();
        std::os::unix::fs::symlink(&victim, run.path()).unwrap();
        run.subdir("fixtures").unwrap();
        run.subdir("unprivileged").unwrap();
        run.create_file("events.jsonl").unwrap();
        let names = |dir: &Path| {
            let mut names: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        assert_eq!(
            names(&victim),
            Vec::<String>::new(),
            "the link was followed"
        );
        assert_eq!(
            names(&moved),
            ["events.jsonl", "fixtures", LOCK, "unprivileged"]
        );
        let mode = std::fs::metadata(&victim).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o700, "the victim's mode was changed");
        let link = run.path().to_owned();
        drop(run);
        // The removal took the link itself, not what it points to.
        assert!(std::fs::symlink_metadata(&link).is_err());
        assert!(victim.is_dir());
    }
}
