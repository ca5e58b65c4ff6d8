//! Where runs put their directories (the fixture directory), resolved once
//! and checked before anything is created in it.
//!
//! The place comes from `--fixture-dir`, else [`FIXTURE_DIR_ENV`], else a
//! writable tmpfs ([`SHM`]), else the system temporary directory: on a disk
//! file system building and removing fixtures is most of a run's time, on a
//! tmpfs a fraction of it. It is canonicalised once ([`Place::resolve`]), so
//! a symbolic link given as `--fixture-dir` names the directory it points
//! to for the whole run, and everything the run does there (creating its
//! directory, removing it, cleaning dead runs) uses that one real path.
//!
//! A place another user can rename entries in is refused, as ssh's
//! `StrictModes` refuses such a home directory: when the harness runs as
//! root, a user who could swap `toolpath-run-*` for a link between its
//! creation and its use would make root chown, chmod and write where that
//! user chooses. So the directory and every ancestor must be owned by the
//! user running toolpath or by root, and be writable by no one else unless
//! it has the sticky bit (`/tmp`, `/dev/shm`: there others may create
//! entries but not rename or remove ours).

use std::fmt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The environment variable that says where runs put their directory (and
/// so their fixtures) when `--fixture-dir` is not given: for CI.
pub const FIXTURE_DIR_ENV: &str = "TOOLPATH_FIXTURE_DIR";
/// Where Linux usually mounts a tmpfs every user may write to.
pub const SHM: &str = "/dev/shm";

/// A directory runs may put their run directories in: canonical, and
/// trusted (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    path: PathBuf,
}

/// Why a place cannot hold runs.
#[derive(Debug)]
pub enum PlaceError {
    /// The directory cannot be resolved (it does not exist, a link in it
    /// dangles, it cannot be searched).
    Unresolved {
        given: PathBuf,
        error: std::io::Error,
    },
    /// The directory or an ancestor lets another user replace what a run
    /// creates in it.
    Untrusted {
        given: PathBuf,
        ancestor: PathBuf,
        why: String,
    },
}

impl fmt::Display for PlaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlaceError::Unresolved { given, error } => write!(
                f,
                "cannot create the run directory in {} (--fixture-dir, {FIXTURE_DIR_ENV}): {error}",
                given.display()
            ),
            PlaceError::Untrusted {
                given,
                ancestor,
                why,
            } => write!(
                f,
                "refusing the fixture directory {} (--fixture-dir, {FIXTURE_DIR_ENV}): {} {why}, \
                 so another user could replace the run's directory with a link; use a directory \
                 that only you or root can write to, or one with the sticky bit such as /tmp",
                given.display(),
                ancestor.display()
            ),
        }
    }
}

impl std::error::Error for PlaceError {}

impl Place {
    /// The place for `explicit` (`--fixture-dir`), or the default one,
    /// resolved and checked.
    pub fn resolve(explicit: Option<&Path>) -> Result<Place, PlaceError> {
        let given = choose(explicit);
        let path = given
            .canonicalize()
            .map_err(|error| PlaceError::Unresolved {
                given: given.clone(),
                error,
            })?;
        if !path.is_dir() {
            return Err(PlaceError::Unresolved {
                given,
                error: std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory"),
            });
        }
        let me = crate::sys::geteuid();
        for ancestor in path.ancestors() {
            let meta = std::fs::metadata(ancestor).map_err(|error| PlaceError::Unresolved {
                given: given.clone(),
                error,
            })?;
            if let Some(why) = untrusted(meta.uid(), meta.mode(), me) {
                return Err(PlaceError::Untrusted {
                    given,
                    ancestor: ancestor.to_owned(),
                    why,
                });
            }
        }
        Ok(Place { path })
    }

    /// The canonical directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The directory and its kind of file system, for the report header
    /// (`/dev/shm (tmpfs)`).
    pub fn describe(&self) -> String {
        let kind = if writable_tmpfs(&self.path) {
            "tmpfs"
        } else {
            "not tmpfs"
        };
        format!("{} ({kind})", self.path.display())
    }
}

/// Why a directory owned by `uid` with `mode` cannot be trusted by the user
/// `me`, if it cannot.
fn untrusted(uid: u32, mode: u32, me: u32) -> Option<String> {
    const STICKY: u32 = 0o1000;
    if uid != me && uid != 0 {
        return Some(format!("is owned by another user (uid {uid})"));
    }
    if mode & 0o022 != 0 && mode & STICKY == 0 {
        return Some(format!(
            "is writable by {} and has no sticky bit (mode {:04o})",
            if mode & 0o002 != 0 {
                "every user"
            } else {
                "its group"
            },
            mode & 0o7777
        ));
    }
    None
}

/// The place before it is resolved: `explicit`, else [`FIXTURE_DIR_ENV`],
/// else a writable tmpfs, else the system temporary directory.
fn choose(explicit: Option<&Path>) -> PathBuf {
    choose_from(
        explicit,
        std::env::var_os(FIXTURE_DIR_ENV),
        writable_tmpfs(Path::new(SHM)),
        std::env::temp_dir(),
    )
}

/// [`choose`]'s rule, with what it reads from the system passed in.
fn choose_from(
    explicit: Option<&Path>,
    env: Option<std::ffi::OsString>,
    shm_usable: bool,
    temp: PathBuf,
) -> PathBuf {
    if let Some(dir) = explicit {
        return dir.to_owned();
    }
    match env.filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None if shm_usable => PathBuf::from(SHM),
        None => temp,
    }
}

/// Whether `dir` is a tmpfs this process may create entries in.
fn writable_tmpfs(dir: &Path) -> bool {
    crate::sys::is_tmpfs(dir).unwrap_or(false) && crate::sys::can_write_and_search(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_comes_first_then_the_environment_then_tmpfs_then_temp() {
        let temp = PathBuf::from("/var/tmp-x");
        let opt = Path::new("/opt-dir");
        let env = Some(std::ffi::OsString::from("/env-dir"));
        let choose = |e: Option<std::ffi::OsString>, x, shm| choose_from(x, e, shm, temp.clone());
        assert_eq!(choose(env.clone(), Some(opt), true), opt);
        assert_eq!(choose(env.clone(), None, true), Path::new("/env-dir"));
        assert_eq!(choose(Some("".into()), None, true), Path::new(SHM));
        assert_eq!(choose(None, None, true), Path::new(SHM));
        assert_eq!(choose(None, None, false), temp);
    }

    #[test]
    fn only_directories_no_other_user_can_rename_entries_in_are_trusted() {
        let me = 1000;
        // Mine or root's, writable by the owner alone: trusted.
        assert_eq!(untrusted(me, 0o700, me), None);
        assert_eq!(untrusted(0, 0o755, me), None);
        // World- or group-writable with the sticky bit (/tmp): trusted.
        assert_eq!(untrusted(0, 0o1777, me), None);
        assert_eq!(untrusted(me, 0o1770, me), None);
        // Writable by others without the sticky bit: refused.
        let world = untrusted(me, 0o777, me).unwrap();
        assert!(
            world.contains("every user") && world.contains("0777"),
            "{world}"
        );
        let group = untrusted(0, 0o775, me).unwrap();
        assert!(group.contains("its group"), "{group}");
        // Another user's, even sticky and private: refused (the owner may
        // rename anything in it).
        let other = untrusted(1001, 0o1700, me).unwrap();
        assert!(other.contains("uid 1001"), "{other}");
    }

    #[test]
    fn a_link_resolves_to_the_directory_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let place = Place::resolve(Some(&link)).unwrap();
        assert_eq!(place.path(), real.canonicalize().unwrap());
    }

    #[test]
    fn a_missing_directory_is_named() {
        let e = Place::resolve(Some(Path::new("/nonexistent/toolpath"))).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("cannot create the run directory in /nonexistent/toolpath"),
            "{e}"
        );
    }
}
