//! A user of its own for each run's subjects (issue 41), and everything
//! that user made removed when the run ends.
//!
//! When every run's subject was `nobody`, one run's subject could read
//! and rewrite another run's subject memory (`/proc/PID/mem`), signal it,
//! and leave files and IPC objects for the next run to meet. A root
//! harness now claims a user id no one else holds for as long as it
//! lives ([`RunUser::claim`]): its adapters, MCP servers and their
//! unprivileged copies run as that user, which owns nothing outside the
//! run's fixtures and scratch directories, and whose process limit
//! (`crate::sys::LIMITS`) is the run's alone.
//!
//! The ids are taken from [`IDS`], just below the range systemd gives its
//! dynamic users (61184–65519), inside the block Debian leaves for
//! allocation by the distribution, which it has hardly used: an id that
//! `/etc/passwd` or `/etc/group` names is skipped, so a machine that
//! gave one to a real account keeps it. A claim is a lock (`flock`) on
//! `/run/toolpath/<uid>.lock`, in a directory only root may write: the
//! kernel drops it when the harness dies, however it dies, so an id is
//! never held by a dead run. Ids stay below 65536, the most a container's
//! user namespace commonly maps.
//!
//! At the claim and at the end ([`RunUser::sweep`]) whatever the user
//! left is removed: every process of the user (a killed run's orphans
//! included) is killed from a process of that user, its SysV IPC objects
//! removed (only those of the harness's IPC namespace exist: a boxed
//! subject has one of its own, gone with it), and every file or
//! directory it owns in the places any user may create in (`/tmp`,
//! `/var/tmp`, `/dev/shm`, `/dev/mqueue`, and the world-writable
//! directories within them) is removed, without following a link.

use std::io;
use std::os::fd::OwnedFd;
use std::path::Path;

use rustix::fs::{AtFlags, Mode, OFlags};

use crate::case::tree::{DIR_FLAGS, DirHandle};
use crate::sys::SysvObject;

/// The user ids runs claim, first to last.
pub const IDS: std::ops::RangeInclusive<u32> = 60_900..=61_183;
/// Where the claims are held, one lock file an id.
pub const CLAIMS: &str = "/run/toolpath";
/// The places any user may create files in, swept of the run user's.
pub const SHARED_PLACES: [&str; 4] = ["/tmp", "/var/tmp", "/dev/shm", "/dev/mqueue"];
/// How deep the sweep goes through world-writable directories, and how
/// many entries it looks at in all: a subject cannot make the end of its
/// run unbounded.
const SWEEP_DEPTH: usize = 4;
const SWEEP_ENTRIES: usize = 200_000;

/// A user id this run holds for its subjects.
#[derive(Debug)]
pub struct RunUser {
    uid: u32,
    /// The claim, held until the run ends.
    _lock: OwnedFd,
}

impl RunUser {
    /// Claims the first id of [`IDS`] that no account names and no live
    /// run holds, and removes whatever a dead run that held it left.
    pub fn claim() -> io::Result<RunUser> {
        let claims = claims_dir()?;
        let taken = accounts();
        for uid in IDS.filter(|uid| !taken.contains(uid)) {
            let lock = rustix::fs::openat(
                &claims,
                format!("{uid}.lock"),
                OFlags::CREATE | OFlags::RDWR | OFlags::NOFOLLOW | OFlags::CLOEXEC,
                Mode::from_raw_mode(0o600),
            )?;
            if crate::sys::try_lock_exclusive(&lock)? {
                let user = RunUser { uid, _lock: lock };
                user.sweep()?;
                return Ok(user);
            }
        }
        Err(io::Error::other(format!(
            "every user id from {} to {} is held by a live run",
            IDS.start(),
            IDS.end()
        )))
    }

    /// The user and group ids (the same number) subjects run as.
    pub fn ids(&self) -> (u32, u32) {
        (self.uid, self.uid)
    }

    /// Ends every process of the user, removes its SysV IPC objects and
    /// every entry it owns in [`SHARED_PLACES`]. Processes first, so that
    /// nothing of the user's is left to make more.
    pub fn sweep(&self) -> io::Result<()> {
        crate::sys::end_user(self.ids(), &[])?;
        crate::sys::end_user(self.ids(), &sysv_objects_of(self.uid))?;
        let mut budget = SWEEP_ENTRIES;
        for place in SHARED_PLACES {
            if let Ok(dir) = DirHandle::open(Path::new(place)) {
                remove_owned(&dir, self.uid, SWEEP_DEPTH, &mut budget);
            }
        }
        Ok(())
    }
}

/// `/run/toolpath`, made for root alone if missing; refused unless it is
/// a directory (not a link) that root owns and only root may write.
fn claims_dir() -> io::Result<OwnedFd> {
    match rustix::fs::mkdir(CLAIMS, Mode::from_raw_mode(0o700)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(e) => return Err(io::Error::other(format!("cannot create {CLAIMS}: {e}"))),
    }
    let dir = rustix::fs::open(CLAIMS, DIR_FLAGS, Mode::empty())?;
    let stat = rustix::fs::fstat(&dir)?;
    if stat.st_uid != 0 || stat.st_mode & 0o022 != 0 {
        return Err(io::Error::other(format!(
            "{CLAIMS} must be root's and writable by root alone"
        )));
    }
    Ok(dir)
}

/// Every id `/etc/passwd` and `/etc/group` name (their third field).
fn accounts() -> Vec<u32> {
    ["/etc/passwd", "/etc/group"]
        .iter()
        .filter_map(|file| std::fs::read_to_string(file).ok())
        .flat_map(|text| {
            text.lines()
                .filter_map(|line| line.split(':').nth(2)?.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// The SysV IPC objects `uid` owns in this IPC namespace, from
/// `/proc/sysvipc` (whose tables put the owner in different columns).
fn sysv_objects_of(uid: u32) -> Vec<SysvObject> {
    /// A table's name, the column of its owner, and its kind.
    type Table = (&'static str, usize, fn(i32) -> SysvObject);
    let tables: [Table; 3] = [
        ("shm", 7, SysvObject::SharedMemory),
        ("msg", 7, SysvObject::MessageQueue),
        ("sem", 4, SysvObject::Semaphores),
    ];
    let mut objects = Vec::new();
    for (table, owner, kind) in tables {
        let Ok(text) = std::fs::read_to_string(format!("/proc/sysvipc/{table}")) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let (Some(id), Some(owned_by)) = (fields.get(1), fields.get(owner)) else {
                continue;
            };
            if let (Ok(id), Ok(owned_by)) = (id.parse(), owned_by.parse::<u32>())
                && owned_by == uid
            {
                objects.push(kind(id));
            }
        }
    }
    objects
}

/// Removes every entry of `dir` that `uid` owns (a directory with all it
/// holds), and looks for more in the world-writable directories below,
/// `depth` levels at most, `budget` entries in all. Best effort: what
/// cannot be removed is left.
fn remove_owned(dir: &DirHandle, uid: u32, depth: usize, budget: &mut usize) {
    let Ok(names) = dir.names() else { return };
    for name in names {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let Ok(stat) = rustix::fs::statat(dir, name.as_c_str(), AtFlags::SYMLINK_NOFOLLOW) else {
            continue;
        };
        if stat.st_uid == uid {
            let _ = dir.remove(&name);
            continue;
        }
        let is_dir = rustix::fs::FileType::from_raw_mode(stat.st_mode).is_dir();
        if is_dir
            && stat.st_mode & 0o002 != 0
            && depth > 0
            && let Ok(Some(child)) = dir.child_dir(&name, false)
        {
            remove_owned(&child, uid, depth - 1, budget);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_run_user_owns_in_a_shared_place_goes_and_nothing_else() {
        if !crate::sys::is_root() {
            return;
        }
        use std::os::unix::fs::PermissionsExt;
        let place = tempfile::tempdir().unwrap();
        let open = place.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let closed = place.path().join("closed");
        std::fs::create_dir(&closed).unwrap();
        let uid = *IDS.end();
        let owned = |path: &Path| {
            std::fs::write(path, "x").unwrap();
            crate::sys::chown(path, (uid, uid)).unwrap();
        };
        owned(&place.path().join("top"));
        owned(&open.join("deeper"));
        owned(&closed.join("kept"));
        let theirs = place.path().join("dir");
        std::fs::create_dir(&theirs).unwrap();
        std::fs::write(theirs.join("inside"), "y").unwrap();
        crate::sys::chown(&theirs, (uid, uid)).unwrap();
        std::fs::write(place.path().join("roots"), "r").unwrap();
        let mut budget = SWEEP_ENTRIES;
        let dir = DirHandle::open(place.path()).unwrap();
        remove_owned(&dir, uid, SWEEP_DEPTH, &mut budget);
        assert!(!place.path().join("top").exists());
        assert!(!open.join("deeper").exists(), "world-writable: looked into");
        assert!(closed.join("kept").exists(), "not world-writable: left");
        assert!(!theirs.exists(), "a directory of theirs goes whole");
        assert!(place.path().join("roots").exists());
    }
}
