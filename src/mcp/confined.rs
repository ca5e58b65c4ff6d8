//! The files a profile names for the harness itself to read or write
//! (`version.package_json` in the profile's directory, `roots.config.file`
//! in the server's private `HOME`), opened strictly inside their
//! directory.
//!
//! The harness runs as root in CI, and both directories are within a
//! subject's reach: the server writes its `HOME`, and as the harness's
//! user it may write the profile's directory too. So a path is opened
//! below its directory's descriptor with no link followed on the way
//! (`openat2`, `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`), never blocking (a
//! FIFO put in place of `package.json` hung a run), read only if it is a
//! regular file and only up to a cap (`/dev/zero` exhausted memory), and
//! written as a fresh file renamed into place, so a link planted at its
//! name is replaced, never written through (issue 30, items 4 and 6).
//! The profile's check ([`super::profile::is_confined`]) already refused
//! an absolute path or a `..`; the kernel enforces it again here.

use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Component, Path};

use rustix::fs::{CWD, Mode, OFlags, ResolveFlags, fstat, mkdirat, openat, openat2, renameat};
use rustix::io::Errno;

/// The most a `package.json` may hold for its version to be read.
pub const MAX_READ_BYTES: usize = 1 << 20;

const BENEATH: ResolveFlags = ResolveFlags::BENEATH.union(ResolveFlags::NO_SYMLINKS);

fn directory(dir: &Path) -> io::Result<OwnedFd> {
    Ok(openat(
        CWD,
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    )?)
}

/// The bytes of `file` (relative to `dir`), a regular file of at most
/// `cap` bytes.
pub fn read(dir: &Path, file: &Path, cap: usize) -> io::Result<Vec<u8>> {
    let dir = directory(dir)?;
    let fd = openat2(
        &dir,
        file,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY | OFlags::CLOEXEC,
        Mode::empty(),
        BENEATH,
    )
    .map_err(refused)?;
    let stat = fstat(&fd)?;
    if stat.st_mode & 0o170000 != 0o100000 {
        return Err(io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::from(fd)
        .take(cap as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > cap {
        return Err(io::Error::other(format!("larger than {cap} bytes")));
    }
    Ok(bytes)
}

/// Writes `bytes` as `file` (relative to `dir`, itself opened without
/// following a link at its name: it is the server's `HOME`): the
/// directories on the way are made where missing and entered without
/// following a link; the file is created fresh beside its name and renamed
/// onto it. What is made is given to `owner` when given (a server run as
/// another user reads and may rewrite its config).
pub fn write(dir: &Path, file: &Path, bytes: &[u8], owner: Option<(u32, u32)>) -> io::Result<()> {
    let mut at = openat(
        CWD,
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::empty(),
    )?;
    let mut names: Vec<&std::ffi::OsStr> = Vec::new();
    for component in file.components() {
        match component {
            Component::Normal(name) => names.push(name),
            _ => return Err(io::Error::other("not a path inside its directory")),
        }
    }
    let Some((name, parents)) = names.split_last() else {
        return Err(io::Error::other("an empty path"));
    };
    for parent in parents {
        let made = match mkdirat(&at, *parent, Mode::from_raw_mode(0o755)) {
            Ok(()) => true,
            Err(Errno::EXIST) => false,
            Err(e) => return Err(e.into()),
        };
        at = openat2(
            &at,
            *parent,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
            BENEATH,
        )
        .map_err(refused)?;
        if let (true, Some(owner)) = (made, owner) {
            crate::sys::fchown(&at, owner)?;
        }
    }
    let mut fresh = std::ffi::OsString::from(".toolpath-");
    fresh.push(name);
    match rustix::fs::unlinkat(&at, &fresh, rustix::fs::AtFlags::empty()) {
        Ok(()) | Err(Errno::NOENT) => {}
        Err(e) => return Err(e.into()),
    }
    let fd = openat(
        &at,
        &fresh,
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o644),
    )?;
    if let Some(owner) = owner {
        crate::sys::fchown(&fd, owner)?;
    }
    std::fs::File::from(fd).write_all(bytes)?;
    Ok(renameat(&at, &fresh, &at, *name)?)
}

/// A link on the way (`ELOOP`) or a way out (`EXDEV`) said as such.
fn refused(e: Errno) -> io::Error {
    match e {
        Errno::LOOP | Errno::XDEV => io::Error::other("a symbolic link or `..` on the way"),
        e => e.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_inside_its_directory_only_and_up_to_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("p.json"), "{}").unwrap();
        assert_eq!(read(d, Path::new("p.json"), 2).unwrap(), b"{}");
        let err = read(d, Path::new("p.json"), 1).unwrap_err();
        assert!(err.to_string().contains("larger than 1 bytes"), "{err}");
        std::os::unix::fs::symlink("p.json", d.join("link.json")).unwrap();
        std::os::unix::fs::symlink("/dev/zero", d.join("zero")).unwrap();
        for refused in ["link.json", "zero", "../x", "/dev/zero"] {
            assert!(read(d, Path::new(refused), 10).is_err(), "{refused}");
        }
        crate::sys::mkfifo(&d.join("fifo"), 0o600).unwrap();
        let err = read(d, Path::new("fifo"), 10).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[test]
    fn a_file_is_written_fresh_inside_its_directory_never_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        std::fs::create_dir(&home).unwrap();
        let outside = dir.path().join("outside");
        std::fs::write(&outside, "mine").unwrap();
        write(&home, Path::new(".config/app/c.json"), b"one", None).unwrap();
        assert_eq!(
            std::fs::read(home.join(".config/app/c.json")).unwrap(),
            b"one"
        );
        // A link at the name is replaced; the file it names is untouched.
        std::os::unix::fs::symlink(&outside, home.join("c.json")).unwrap();
        write(&home, Path::new("c.json"), b"two", None).unwrap();
        assert_eq!(std::fs::read(&outside).unwrap(), b"mine");
        assert_eq!(std::fs::read(home.join("c.json")).unwrap(), b"two");
        assert!(!home.join("c.json").is_symlink());
        // A link on the way is not entered.
        std::os::unix::fs::symlink(dir.path(), home.join("up")).unwrap();
        assert!(write(&home, Path::new("up/outside"), b"three", None).is_err());
        assert!(write(&home, Path::new("../outside"), b"three", None).is_err());
        assert_eq!(std::fs::read(&outside).unwrap(), b"mine");
    }
}
