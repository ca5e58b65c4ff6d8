//! Walks a built fixture by directory handles, never following a link.
//!
//! After a fixture is built, the subject under test may rename, remove or
//! replace anything in it, for example swap a directory for a symbolic link
//! to `/etc`. Anything the harness does to the tree afterwards (hand it to
//! the unprivileged user, give restricted directories back their access,
//! remove it) must therefore never resolve a path: every operation here is
//! relative to an open directory (`openat`, `unlinkat`, `fchownat`) on one
//! entry name, with `O_NOFOLLOW`/`AT_SYMLINK_NOFOLLOW`, and modes are changed
//! on an open handle (`fchmod`), so a link met on the way is removed or
//! skipped as the link it is, and its target is never touched.
//!
//! Built on `rustix` (safe, maintained bindings to the `*at` calls and
//! directory streams) rather than raw `libc`, so no `unsafe` is needed here.
//! [`DirHandle`] is also what the fixture builder creates entries through,
//! what a snapshot (`harness::snapshot`) walks a fixture by and what a run
//! directory (`session::run_dir`) is opened and removed by: the one
//! never-following walk of the crate. No crate does this: `walkdir` (even
//! with `follow_links(false)` and `same_file_system`) walks by path, so a
//! directory swapped for a link between listing and descending is
//! followed, and it can neither unlock a directory its owner locked nor
//! act on an entry through its parent's handle; `cap-std`'s `Dir` could,
//! but would put a second file-system layer beside the `rustix` calls the
//! fixture builder is written in.

use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags};
use rustix::io::Errno;

/// An open directory of a fixture tree.
#[derive(Debug)]
pub struct DirHandle {
    fd: OwnedFd,
}

impl From<OwnedFd> for DirHandle {
    /// A handle the caller opened as a directory, without following a link.
    fn from(fd: OwnedFd) -> DirHandle {
        DirHandle { fd }
    }
}

impl AsFd for DirHandle {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

/// Opens a directory for reading, refusing to follow a link in its last component.
pub const DIR_FLAGS: OFlags = OFlags::RDONLY
    .union(OFlags::DIRECTORY)
    .union(OFlags::NOFOLLOW)
    .union(OFlags::CLOEXEC);

impl DirHandle {
    /// Opens the fixture directory itself. Its own path was made by the
    /// harness (a fresh temporary directory); only its last component is
    /// guarded against being a link.
    pub fn open(path: &Path) -> io::Result<DirHandle> {
        let fd = rustix::fs::open(path, DIR_FLAGS, Mode::empty())?;
        Ok(DirHandle { fd })
    }

    /// Opens the entry `name` if it is a real directory: `Ok(None)` when it
    /// is anything else, a symbolic link included. With `unlock`, a
    /// directory the owner cannot read, search or write is first given
    /// `u+rwx` (on a handle), so the walk can go on below it.
    pub fn child_dir(&self, name: &CStr, unlock: bool) -> io::Result<Option<DirHandle>> {
        match rustix::fs::openat(&self.fd, name, DIR_FLAGS, Mode::empty()) {
            Ok(fd) => {
                let dir = DirHandle { fd };
                if unlock {
                    dir.give_owner_access()?;
                }
                Ok(Some(dir))
            }
            Err(Errno::NOTDIR) | Err(Errno::LOOP) => Ok(None),
            Err(Errno::ACCESS) if unlock => {
                self.unlock_unreadable(name)?;
                self.child_dir(name, false)
                    .and_then(|d| d.map(|d| d.give_owner_access().map(|()| d)).transpose())
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Adds `u+rwx` to this directory's mode, keeping the other bits.
    fn give_owner_access(&self) -> io::Result<()> {
        let mode = rustix::fs::fstat(&self.fd)?.st_mode & 0o7777;
        if mode & 0o700 != 0o700 {
            rustix::fs::fchmod(&self.fd, Mode::from_raw_mode(mode | 0o700))?;
        }
        Ok(())
    }

    /// A directory that cannot even be opened for reading (mode `0000` and
    /// not root): open it as a bare handle (`O_PATH`, which needs no access
    /// and still refuses a link) and change the mode of exactly that inode
    /// through `/proc/self/fd`, which Linux resolves to the handle's object.
    fn unlock_unreadable(&self, name: &CStr) -> io::Result<()> {
        let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::empty())?;
        let mode = rustix::fs::fstat(&fd)?.st_mode & 0o7777;
        let by_handle = format!("/proc/self/fd/{}", fd.as_raw_fd());
        rustix::fs::chmod(by_handle.as_str(), Mode::from_raw_mode(mode | 0o700))?;
        Ok(())
    }

    /// The names in this directory, without `.` and `..`.
    ///
    /// Read on this handle itself, rewound to its start: a stream of its
    /// own (`rustix::fs::Dir::read_from`) opens `.` again, three more
    /// system calls for each directory of every walk, and a fixture is
    /// walked several times an instance. The handle's position is all this
    /// changes, and nothing else reads from it.
    pub fn names(&self) -> io::Result<Vec<CString>> {
        rustix::fs::seek(&self.fd, rustix::fs::SeekFrom::Start(0))?;
        // On the heap: walks recurse as deep as a fixture goes. An entry's
        // record is at most a few hundred bytes (a name is at most 255).
        let mut buf = Vec::with_capacity(8192);
        let mut dir = rustix::fs::RawDir::new(&self.fd, buf.spare_capacity_mut());
        let mut names = Vec::new();
        while let Some(entry) = dir.next() {
            let entry = entry?;
            let name = entry.file_name();
            if name.to_bytes() != b"." && name.to_bytes() != b".." {
                names.push(name.to_owned());
            }
        }
        Ok(names)
    }

    /// Removes the entry `name` and, for a directory, everything below it.
    /// Goes on past an entry it cannot remove, so as much as possible goes,
    /// and returns the first error.
    pub fn remove(&self, name: &CStr) -> io::Result<()> {
        match self.child_dir(name, true)? {
            Some(dir) => {
                let mut first_error = None;
                for child in dir.names()? {
                    if let Err(e) = dir.remove(&child) {
                        first_error.get_or_insert(e);
                    }
                }
                if let Some(e) = first_error {
                    return Err(e);
                }
                rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR)?;
            }
            // A link is removed itself, never its target.
            None => rustix::fs::unlinkat(&self.fd, name, AtFlags::empty())?,
        }
        Ok(())
    }

    /// Gives everything below this directory, then the directory itself, to
    /// `uid:gid`. Links are changed themselves (`AT_SYMLINK_NOFOLLOW`).
    pub fn chown_all(&self, uid: u32, gid: u32) -> io::Result<()> {
        let owner = Some(rustix::fs::Uid::from_raw_unchecked(uid));
        let group = Some(rustix::fs::Gid::from_raw_unchecked(gid));
        for name in self.names()? {
            match self.child_dir(&name, false)? {
                Some(dir) => dir.chown_all(uid, gid)?,
                None => {
                    rustix::fs::chownat(&self.fd, &name, owner, group, AtFlags::SYMLINK_NOFOLLOW)?
                }
            }
        }
        rustix::fs::fchown(&self.fd, owner, group)?;
        Ok(())
    }

    /// Gives every directory of the tree `u+rwx`, so its owner can look
    /// inside and remove it (a kept fixture).
    pub fn unlock_all(&self) -> io::Result<()> {
        self.give_owner_access()?;
        for name in self.names()? {
            if let Some(dir) = self.child_dir(&name, true)? {
                dir.unlock_all()?;
            }
        }
        Ok(())
    }
}

/// Removes the directory `path` and everything in it without following any
/// link inside it.
pub fn remove_tree(path: &Path) -> io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("/"));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no directory name"))?;
    let name = CString::new(std::os::unix::ffi::OsStrExt::as_bytes(name))?;
    DirHandle::open(parent)?.remove(&name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    const INNER: &str = "case::tree::tests::a_locked_tree_is_removed_by_its_owner";

    /// Directories their owner locked (no read, no search, no write) are
    /// opened by handle, unlocked and removed; a link inside is removed,
    /// not followed. Root ignores modes, so as root this runs again as
    /// `nobody` (below), where the `O_PATH` route is the only way in.
    #[test]
    #[ignore = "run by `locked_trees_are_removed_without_root` as an unprivileged user"]
    fn a_locked_tree_is_removed_by_its_owner() {
        let top = tempfile::tempdir().unwrap().keep();
        let outside = tempfile::NamedTempFile::new().unwrap();
        fs::create_dir_all(top.join("a/b/c")).unwrap();
        fs::write(top.join("a/b/c/f"), "x").unwrap();
        fs::create_dir(top.join("a/x")).unwrap();
        std::os::unix::fs::symlink(outside.path(), top.join("a/x/l")).unwrap();
        for (dir, mode) in [
            ("a/b/c", 0o000),
            ("a/b", 0o000),
            ("a/x", 0o500),
            ("a", 0o100),
        ] {
            fs::set_permissions(top.join(dir), fs::Permissions::from_mode(mode)).unwrap();
        }
        remove_tree(&top).unwrap();
        assert!(!top.exists(), "removed");
        assert!(outside.path().exists(), "the link's target is untouched");
    }

    #[test]
    fn locked_trees_are_removed_without_root() {
        if !crate::sys::is_root() {
            return a_locked_tree_is_removed_by_its_owner();
        }
        use std::os::unix::process::CommandExt;
        let (uid, gid) = crate::sys::UNPRIVILEGED_USER;
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", INNER, "--ignored", "--test-threads", "1"])
            .env("TMPDIR", "/tmp")
            .uid(uid)
            .gid(gid)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("1 passed"),
            "{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
