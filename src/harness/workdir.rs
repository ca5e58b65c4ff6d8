//! The run's own temporary directory, and removing what dead runs left.
//!
//! Everything a run puts on disk (fixtures, each adapter's `TMPDIR`) lives
//! under one directory, `toolpath-run-XXXXXX`, in the directory
//! [`fixture_parent`] chooses (a tmpfs when there is one), holding `owner.lock`: a file the run keeps locked (`flock`)
//! for as long as it lives. The kernel drops the lock when the process dies,
//! however it dies, so a directory whose lock can be taken belongs to a dead
//! run, and one whose lock cannot be taken to a live one: [`clean`] removes
//! only the former. A pid file would not do: pids are reused.
//!
//! The directory is created as `toolpath-starting-XXXXXX`, locked, and only
//! then renamed, so [`clean`] never sees a run directory without its lock.
//!
//! Removal never follows a symbolic link (a leftover adapter may have put
//! one anywhere), gives directories whose mode a case took away their access
//! back first (by directory handles, [`crate::case::tree`]), and removes only
//! directories owned by the user who runs it. Processes a dead run left
//! (adapters carry `TOOLPATH_RUN` in their environment, and so do their
//! descendants unless they clear it) are killed first.

use std::ffi::CString;
use std::fs::{self, File};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The prefix of run directories in their parent ([`fixture_parent`]).
const PREFIX: &str = "toolpath-run-";
const STARTING: &str = "toolpath-starting-";
const LOCK: &str = "owner.lock";
/// The environment variable naming the run directory, for adapters.
pub const ENV: &str = "TOOLPATH_RUN";
/// The environment variable that says where runs put their directory (and
/// so their fixtures) when `--fixture-dir` is not given: for CI.
pub const FIXTURE_DIR_ENV: &str = "TOOLPATH_FIXTURE_DIR";
/// Where Linux usually mounts a tmpfs every user may write to.
const SHM: &str = "/dev/shm";

/// Where a run puts its directory: `explicit` (`--fixture-dir`), else
/// [`FIXTURE_DIR_ENV`], else a writable tmpfs ([`SHM`]), else the system
/// temporary directory. On a disk filesystem, building and removing
/// fixtures is most of a run's time; on a tmpfs it is a fraction.
pub fn fixture_parent(explicit: Option<&Path>) -> PathBuf {
    choose_parent(
        explicit,
        std::env::var_os(FIXTURE_DIR_ENV),
        writable_tmpfs(Path::new(SHM)),
        std::env::temp_dir(),
    )
}

/// [`fixture_parent`]'s rule, with what it reads from the system passed in.
fn choose_parent(
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

/// Every place a run directory may be ([`fixture_parent`]'s candidates),
/// without repeats: where [`clean`] looks.
pub fn run_parents(explicit: Option<&Path>) -> Vec<PathBuf> {
    let mut out = vec![fixture_parent(explicit)];
    for dir in [PathBuf::from(SHM), std::env::temp_dir()] {
        if dir.is_dir() && !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

/// Whether `dir` is a tmpfs this process may create entries in.
fn writable_tmpfs(dir: &Path) -> bool {
    let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid C string; statfs only writes into the struct we pass.
    let mut fs: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(c.as_ptr(), &mut fs) } != 0 {
        return false;
    }
    #[cfg(target_os = "linux")]
    let tmpfs = fs.f_type == libc::TMPFS_MAGIC;
    #[cfg(not(target_os = "linux"))]
    let tmpfs = false;
    // SAFETY: a valid C string.
    tmpfs && unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0
}

/// A filesystem's name for the report header (`tmpfs`, `disk`).
pub fn describe(dir: &Path) -> String {
    let kind = if writable_tmpfs(dir) {
        "tmpfs"
    } else {
        "not tmpfs"
    };
    format!("{} ({kind})", dir.display())
}

/// A live run's directory; removed when dropped.
pub struct RunDir {
    path: PathBuf,
    _lock: File,
}

fn try_lock(file: &File) -> bool {
    // SAFETY: flock on a descriptor we own.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

impl RunDir {
    /// Creates and locks a run directory in `parent`.
    pub fn create(parent: &Path) -> io::Result<RunDir> {
        let starting = tempfile::Builder::new()
            .prefix(STARTING)
            .tempdir_in(parent)?
            .keep();
        let lock = File::create(starting.join(LOCK))?;
        if !try_lock(&lock) {
            return Err(io::Error::other("cannot lock the run directory"));
        }
        let name = starting.file_name().expect("named").to_string_lossy();
        let path = parent.join(name.replacen(STARTING, PREFIX, 1));
        fs::rename(&starting, &path)?;
        // Others may pass through (the unprivileged runner reaches its own
        // directories inside), never list.
        fs::set_permissions(&path, fs::Permissions::from_mode(0o711))?;
        Ok(RunDir { path, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A subdirectory, created with mode 0711.
    pub fn subdir(&self, name: &str) -> io::Result<PathBuf> {
        let dir = self.path.join(name);
        fs::create_dir_all(&dir)?;
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o711))?;
        Ok(dir)
    }
}

impl Drop for RunDir {
    fn drop(&mut self) {
        // The lock is released after the removal (fields drop after this).
        let _ = remove_tree(&self.path);
    }
}

/// Removes `path` and everything under it without following symbolic
/// links, restoring access to directories a case made unreadable: the
/// handle-based walk fixtures use ([`crate::case::tree`]), one home for it.
pub fn remove_tree(path: &Path) -> io::Result<()> {
    crate::case::tree::remove_tree(path)
}

/// What [`clean`] did.
#[derive(Debug, Default)]
pub struct Cleaned {
    pub removed: Vec<PathBuf>,
    pub processes: usize,
    /// Directories of live runs, left alone.
    pub live: usize,
    pub errors: Vec<String>,
}

/// Removes the directories (and kills the processes) of dead runs in `parent`.
pub fn clean(parent: &Path) -> Cleaned {
    let mut cleaned = Cleaned::default();
    let Ok(entries) = fs::read_dir(parent) else {
        return cleaned;
    };
    // SAFETY: geteuid cannot fail.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !name.starts_with(PREFIX) && !name.starts_with(STARTING) {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = fs::symlink_metadata(&path) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        let lock = fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(path.join(LOCK));
        match lock {
            Ok(file) if try_lock(&file) => {
                cleaned.processes += kill_processes_of(&path);
                match remove_tree(&path) {
                    Ok(()) => cleaned.removed.push(path),
                    Err(e) => cleaned.errors.push(format!("{}: {e}", path.display())),
                }
            }
            Ok(_) => cleaned.live += 1,
            // No lock file: a run that died while creating its directory
            // (a minute after it started; a live one takes microseconds).
            Err(_) if name.starts_with(STARTING) && older_than_a_minute(&meta) => {
                match remove_tree(&path) {
                    Ok(()) => cleaned.removed.push(path),
                    Err(e) => cleaned.errors.push(format!("{}: {e}", path.display())),
                }
            }
            Err(_) => {}
        }
    }
    cleaned
}

fn older_than_a_minute(meta: &fs::Metadata) -> bool {
    meta.modified()
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() > 60)
}

/// Kills every process whose environment names `dir` as its run directory.
fn kill_processes_of(dir: &Path) -> usize {
    let wanted = [ENV.as_bytes(), b"=", dir.as_os_str().as_bytes()].concat();
    let Ok(entries) = fs::read_dir("/proc") else {
        return 0;
    };
    let mut killed = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(environ) = fs::read(entry.path().join("environ")) else {
            continue;
        };
        if environ
            .split(|&b| b == 0)
            .any(|var| var == wanted.as_slice())
        {
            // SAFETY: kill(2) on a process of the dead run.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
            killed += 1;
        }
    }
    killed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_parent_prefers_option_then_environment_then_tmpfs_then_temp() {
        let temp = PathBuf::from("/var/tmp-x");
        let opt = Path::new("/opt-dir");
        let env = Some(std::ffi::OsString::from("/env-dir"));
        let choose = |e: Option<std::ffi::OsString>, x, shm| choose_parent(x, e, shm, temp.clone());
        assert_eq!(choose(env.clone(), Some(opt), true), opt);
        assert_eq!(choose(env.clone(), None, true), Path::new("/env-dir"));
        assert_eq!(choose(Some("".into()), None, true), Path::new(SHM));
        assert_eq!(choose(None, None, true), Path::new(SHM));
        assert_eq!(choose(None, None, false), temp);
    }

    #[test]
    fn removal_restores_access_and_never_follows_a_link() {
        let parent = tempfile::tempdir().unwrap();
        let outside = parent.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("keep.txt"), "x").unwrap();
        fs::set_permissions(&outside, fs::Permissions::from_mode(0o755)).unwrap();
        let tree = parent.path().join("tree");
        fs::create_dir_all(tree.join("locked/deeper")).unwrap();
        fs::write(tree.join("locked/deeper/a.txt"), "x").unwrap();
        std::os::unix::fs::symlink(&outside, tree.join("link")).unwrap();
        std::os::unix::fs::symlink(&outside, tree.join("locked/link")).unwrap();
        fs::set_permissions(tree.join("locked"), fs::Permissions::from_mode(0o000)).unwrap();
        remove_tree(&tree).unwrap();
        assert!(!tree.exists());
        assert!(outside.join("keep.txt").exists());
        let mode = fs::metadata(&outside).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode, 0o755, "a link was followed");
    }

    #[test]
    fn clean_removes_dead_runs_and_never_a_live_one() {
        let parent = tempfile::tempdir().unwrap();
        let live = RunDir::create(parent.path()).unwrap();
        fs::write(live.path().join("x"), "x").unwrap();
        // A dead run: its lock file is there, and nobody holds it.
        let dead = parent.path().join(format!("{PREFIX}dead"));
        fs::create_dir(&dead).unwrap();
        File::create(dead.join(LOCK)).unwrap();
        // Not a run directory at all: left alone.
        let other = parent.path().join("toolpath-other");
        fs::create_dir(&other).unwrap();
        let cleaned = clean(parent.path());
        assert_eq!(cleaned.removed, vec![dead.clone()]);
        assert_eq!(cleaned.live, 1);
        assert!(live.path().join("x").exists());
        assert!(other.exists());
        let path = live.path().to_owned();
        drop(live);
        assert!(!path.exists(), "a run removes its own directory");
    }
}
