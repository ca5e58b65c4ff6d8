//! Builds a case's workspace on disk, in a fresh temporary directory.
//!
//! Case files come from strangers, so the builder trusts nothing: every path
//! was already checked to be relative and free of `..` ([`FixturePath`]),
//! and every entry is created relative to its parent's open handle, each
//! directory on the way opened with `O_NOFOLLOW` beneath the fixture
//! directory ([`Tree`]), so the kernel itself refuses to write through a
//! symbolic link: there is no check by path that could be raced. Each
//! directory is opened once per fixture, which is also cheaper than an
//! `lstat` of every ancestor of every entry. Symbolic links are created
//! after all other entries, and `modes` last of all; a mode on a symbolic
//! link is refused (chmod would follow it).
//!
//! The fixture directory is mode `0700` from the moment it exists (created
//! so, not changed afterwards), so no other user can reach into it while it
//! is built or afterwards; for `permissions` cases the harness hands the
//! complete tree to the unprivileged runner ([`BuiltFixture::chown_all`]),
//! the directory itself last. Once built, the tree belongs to the subject
//! under test, which may replace any entry with a link: everything done to
//! it afterwards goes through [`crate::case::tree`], which never follows one.

use std::collections::HashMap;
use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use crate::case::model::{Fixture, FixturePath, check_link_target, escape_controls, quote};
use crate::case::placeholders::Placeholders;
use crate::case::tree::{DIR_FLAGS, DirHandle, remove_tree};
use crate::protocol::Workspace;

/// Why a fixture could not be built. Names the entry; the caller adds the case file.
#[derive(Debug)]
pub struct FixtureError {
    pub entry: String,
    pub message: String,
}

impl std::fmt::Display for FixtureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "fixture entry `{}`: {}",
            quote(&self.entry),
            escape_controls(&self.message)
        )
    }
}

impl std::error::Error for FixtureError {}

fn fail(entry: &FixturePath, message: impl std::fmt::Display) -> FixtureError {
    FixtureError {
        entry: entry.to_string(),
        message: message.to_string(),
    }
}

/// A built fixture. Dropping it removes the directory (also during a panic),
/// without following any link the subject may have put in it.
#[derive(Debug)]
pub struct BuiltFixture {
    /// Whether dropping removes the directory (not after [`Self::keep`]).
    remove_on_drop: bool,
    /// The fixture directory, canonical (`{tmp}`).
    pub root: PathBuf,
    pub workspace: Workspace,
    pub vars: Placeholders,
}

impl BuiltFixture {
    /// Keeps the directory on disk (for `--keep-fixtures`) and returns its
    /// path, every directory in it open to its owner again.
    pub fn keep(mut self) -> PathBuf {
        self.remove_on_drop = false;
        let _ = DirHandle::open(&self.root).and_then(|d| d.unlock_all());
        self.root.clone()
    }

    /// Hands the whole tree to another user, so an unprivileged process can
    /// observe the permission bits that root would ignore. The fixture
    /// directory itself changes owner last, so the other user can reach
    /// nothing before everything is theirs.
    pub fn chown_all(&self, uid: u32, gid: u32) -> io::Result<()> {
        DirHandle::open(&self.root)?.chown_all(uid, gid)
    }
}

impl Drop for BuiltFixture {
    fn drop(&mut self) {
        if self.remove_on_drop {
            let _ = remove_tree(&self.root);
        }
    }
}

/// Builds `fixture` in a new temporary directory under `parent` (the system
/// temporary directory when `None`).
pub fn build(fixture: &Fixture, parent: Option<&Path>) -> Result<BuiltFixture, FixtureError> {
    let whole = FixturePath::parse("fixture").expect("static path");
    let mut builder = tempfile::Builder::new();
    // Created 0700 by mkdir itself: never reachable by others, not even
    // for the instant before a chmod.
    builder
        .prefix("toolpath-")
        .permissions(fs::Permissions::from_mode(0o700));
    let dir = match parent {
        Some(p) => builder.tempdir_in(p),
        None => builder.tempdir(),
    }
    .map_err(|e| fail(&whole, format!("cannot create a temporary directory: {e}")))?;
    // Canonical, so lexical paths under it are also real paths (`{tmp}`).
    let root = dir.path().canonicalize().map_err(|e| fail(&whole, e))?;
    // From here on the fixture removes itself, never through a link.
    let _ = dir.keep();
    let mut built = BuiltFixture {
        remove_on_drop: true,
        root: root.clone(),
        workspace: Workspace {
            roots: Vec::new(),
            target: String::new(),
        },
        vars: Placeholders::default(),
    };
    let at = |p: &FixturePath| root.join(p.as_str());
    let mut tree = Tree::open(&root).map_err(|e| fail(&whole, e))?;

    // A root or target that is one of the fixture's symbolic links (a root
    // reached through a link, SEC-1) is created by that link, later.
    let is_link = |path: &FixturePath| fixture.symlinks.iter().any(|(link, _)| link == path);
    let workspace_dirs = fixture.roots.iter().chain(std::iter::once(&fixture.target));
    for path in workspace_dirs.filter(|p| !is_link(p)).chain(&fixture.dirs) {
        tree.dir(path, path.as_str(), true)?;
    }
    for (path, bytes) in &fixture.files {
        let (dir, name) = tree.place(path)?;
        let flags =
            OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        rustix::fs::openat(dir, &name, flags, Mode::from_raw_mode(0o666))
            .map_err(|e| exists_or(path, e))
            .and_then(|fd| {
                io::Write::write_all(&mut fs::File::from(fd), bytes).map_err(|e| fail(path, e))
            })?;
    }
    let nodes = (fixture.fifos.iter().map(|p| (p, FileType::Fifo, 0o644, 0))).chain(
        fixture.devices.iter().map(|p| {
            (
                p,
                FileType::CharacterDevice,
                0o666,
                rustix::fs::makedev(1, 3),
            )
        }),
    );
    for (path, kind, mode, dev) in nodes {
        let (dir, name) = tree.place(path)?;
        rustix::fs::mknodat(dir, &name, kind, Mode::from_raw_mode(mode), dev)
            .map_err(|e| exists_or(path, e))?;
    }
    for path in &fixture.sockets {
        // Binding takes a path: the parent is made through the tree first.
        // The socket file stays after the listener closes.
        tree.place(path)?;
        std::os::unix::net::UnixListener::bind(at(path)).map_err(|e| fail(path, e))?;
    }
    let links: std::collections::BTreeSet<&str> =
        fixture.symlinks.iter().map(|(l, _)| l.as_str()).collect();
    for (path, target) in &fixture.symlinks {
        // Lint refused these already; the builder holds the line on its own
        // for fixtures made in code (`toolpath fuzz`).
        check_link_target(path, target, &links).map_err(|m| fail(path, m))?;
        let (dir, name) = tree.place(path)?;
        rustix::fs::symlinkat(link_target(target, &root).as_path(), dir, &name)
            .map_err(|e| exists_or(path, e))?;
    }
    for repo in &fixture.git {
        init_git(&at(repo)).map_err(|e| fail(repo, e))?;
    }
    for (path, mode) in &fixture.modes {
        let (parent, name) = split(path);
        let dir = tree.dir(path, parent, false)?;
        let meta = rustix::fs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
            .map_err(|e| fail(path, format!("cannot set a mode: {}", io::Error::from(e))))?;
        if FileType::from_raw_mode(meta.st_mode) == FileType::Symlink {
            return Err(fail(
                path,
                "a mode cannot be set on a symbolic link (chmod would follow it)",
            ));
        }
        rustix::fs::chmodat(dir, name, Mode::from_raw_mode(*mode), AtFlags::empty())
            .map_err(|e| fail(path, io::Error::from(e)))?;
    }

    let roots: Vec<(String, String)> = fixture
        .roots
        .iter()
        .map(|r| (r.to_string(), at(r).to_string_lossy().into_owned()))
        .collect();
    let target = at(&fixture.target).to_string_lossy().into_owned();
    built.vars = Placeholders::new(&root.to_string_lossy(), &target, &roots);
    built.workspace = Workspace {
        roots: roots.into_iter().map(|(_, p)| p).collect(),
        target,
    };
    Ok(built)
}

/// A link's target as written into the link: `{tmp}` at its start (an
/// absolute target inside the fixture, checked by lint) becomes the fixture
/// directory; anything else is written as given.
fn link_target(target: &str, root: &Path) -> PathBuf {
    match target.strip_prefix("{tmp}") {
        Some(rest) => PathBuf::from(format!("{}{rest}", root.display())),
        None => PathBuf::from(target),
    }
}

/// Makes `dir` (a root, or a directory holding roots) a git repository
/// holding one commit of everything in it, so
/// implementations that search with `git grep` inside a repository run that
/// code path (spec SEARCH-4, SEARCH-7). A `.gitignore` written by the case
/// applies; modes come after, so git can read every file.
///
/// Case files come from strangers, so git must not run anything they chose:
/// no `.git` entry can be written by the fixture (the validator refuses
/// one), the user's and the system's git configuration are not read (they
/// could name hooks or filters), hooks are disabled and the identity is fixed.
pub fn init_git(dir: &Path) -> Result<(), String> {
    let git = |args: &[&str]| -> Result<(), String> {
        let out = std::process::Command::new("git")
            .args([
                "-c",
                "core.hooksPath=/nonexistent/toolpath-no-hooks",
                "-c",
                "init.defaultBranch=main",
                "-c",
                "user.name=toolpath",
                "-c",
                "user.email=toolpath@invalid",
                "-c",
                "commit.gpgSign=false",
            ])
            .args(args)
            .current_dir(dir)
            // A path that does not exist reads as an empty configuration
            // (`/dev/null` would do too, unless something has clobbered it).
            .env("GIT_CONFIG_GLOBAL", "/nonexistent/toolpath-no-gitconfig")
            // Fixed dates make every object, and so the repository, the
            // same from run to run.
            .env("GIT_AUTHOR_DATE", "2000-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2000-01-01T00:00:00Z")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("cannot run git (the `git` feature needs it on PATH): {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "git {} failed: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    };
    // No template: no sample hooks or other text inside `.git`.
    git(&["init", "-q", "--template="])?;
    git(&["add", "-A"])?;
    git(&[
        "commit",
        "-q",
        "--no-verify",
        "--allow-empty",
        "-m",
        "toolpath fixture",
    ])
}

/// Whether `git` can be run, for cases that need the `git` feature.
pub fn git_available() -> bool {
    std::process::Command::new("git")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The fixture directory being built, through directory handles: each
/// directory is opened (or made) once, beneath the fixture directory, one
/// segment at a time with `O_NOFOLLOW`, and every entry is created relative
/// to its parent's handle.
struct Tree {
    root: DirHandle,
    /// Directories opened so far, by their path in the fixture.
    open: HashMap<String, DirHandle>,
}

impl Tree {
    fn open(root: &Path) -> io::Result<Tree> {
        Ok(Tree {
            root: DirHandle::open(root)?,
            open: HashMap::new(),
        })
    }

    /// The directory `path` of the fixture (`""` for the fixture directory
    /// itself), each missing segment made (`0755`) when `create`. A segment
    /// that is a link or not a directory is an error of `entry`.
    fn dir(
        &mut self,
        entry: &FixturePath,
        path: &str,
        create: bool,
    ) -> Result<&DirHandle, FixtureError> {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        for end in 1..=segments.len() {
            let prefix = segments[..end].join("/");
            if self.open.contains_key(&prefix) {
                continue;
            }
            let parent = match end {
                1 => &self.root,
                _ => &self.open[&segments[..end - 1].join("/")],
            };
            let name = segments[end - 1];
            let opened = match rustix::fs::openat(parent, name, DIR_FLAGS, Mode::empty()) {
                Err(Errno::NOENT) if create => {
                    rustix::fs::mkdirat(parent, name, Mode::from_raw_mode(0o755))
                        .and_then(|()| rustix::fs::openat(parent, name, DIR_FLAGS, Mode::empty()))
                }
                other => other,
            };
            let fd = match opened {
                Ok(fd) => fd,
                Err(Errno::LOOP) | Err(Errno::NOTDIR) => {
                    let is_link = rustix::fs::statat(parent, name, AtFlags::SYMLINK_NOFOLLOW)
                        .is_ok_and(|m| FileType::from_raw_mode(m.st_mode) == FileType::Symlink);
                    return Err(fail(
                        entry,
                        if is_link {
                            format!(
                                "`{prefix}` is a symbolic link of the fixture; nothing is written through one"
                            )
                        } else {
                            format!("`{prefix}` exists and is not a directory")
                        },
                    ));
                }
                Err(e) => return Err(fail(entry, io::Error::from(e))),
            };
            self.open.insert(prefix, DirHandle::from(fd));
        }
        Ok(match segments.is_empty() {
            true => &self.root,
            false => &self.open[path],
        })
    }

    /// Where the entry `path` goes: its parent (made if missing) and its name.
    fn place(&mut self, path: &FixturePath) -> Result<(&DirHandle, CString), FixtureError> {
        let (parent, name) = split(path);
        let name = CString::new(name).map_err(|e| fail(path, e))?;
        Ok((self.dir(path, parent, true)?, name))
    }
}

/// A path's parent (`""` at the top) and last segment.
fn split(path: &FixturePath) -> (&str, &str) {
    path.as_str()
        .rsplit_once('/')
        .unwrap_or(("", path.as_str()))
}

/// An entry that could not be created: already there (another entry made
/// it), or the system's reason.
fn exists_or(path: &FixturePath, error: Errno) -> FixtureError {
    match error {
        Errno::EXIST => fail(path, "already exists (created by another entry)"),
        e => fail(path, io::Error::from(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::model::parse_case;

    fn fixture_of(yaml_fixture: &str) -> Fixture {
        let text = format!(
            "id: t.t\nsummary: s\nspec: [RES-1]\n{yaml_fixture}call: {{tool: resolve}}\nexpect: {{outcome: ok}}\n"
        );
        parse_case(Path::new("t.yaml"), &text)
            .expect("valid case")
            .fixture
    }

    fn path(p: &str) -> FixturePath {
        FixturePath::parse(p).unwrap()
    }

    /// A fixture the model would refuse, built directly: the builder must
    /// hold the line on its own too.
    fn unchecked(symlinks: &[(&str, String)], files: &[&str], modes: &[&str]) -> Fixture {
        Fixture {
            roots: vec![path("ws")],
            target: path("ws"),
            symlinks: symlinks.iter().map(|(l, t)| (path(l), t.clone())).collect(),
            files: files.iter().map(|f| (path(f), b"x".to_vec())).collect(),
            modes: modes.iter().map(|m| (path(m), 0)).collect(),
            ..Fixture::default()
        }
    }

    #[test]
    fn builds_roots_files_links_and_placeholders() {
        let f = fixture_of(
            "requires: [symlinks]\nfixture:\n  roots: [ws, other]\n  target: ws/src\n  files: {ws/src/a.ts: hi, ws/b.bin: {base64: AAE}}\n  symlinks: {ws/l: src}\n",
        );
        let built = build(&f, None).unwrap();
        let ws = built.root.join("ws");
        assert_eq!(fs::read(ws.join("src/a.ts")).unwrap(), b"hi");
        assert_eq!(fs::read(ws.join("b.bin")).unwrap(), [0, 1]);
        assert_eq!(fs::read_link(ws.join("l")).unwrap(), Path::new("src"));
        assert_eq!(
            built.workspace.target,
            format!("{}/ws/src", built.root.display())
        );
        assert_eq!(
            built.vars.expand("{ws}/x {other} {target} *.{ts,md}"),
            format!(
                "{0}/ws/x {0}/other {0}/ws/src *.{{ts,md}}",
                built.root.display()
            )
        );
        assert_eq!(
            built
                .vars
                .collapse(&format!("{}/ws/x", built.root.display())),
            "{ws}/x"
        );
        let dir = built.root.clone();
        drop(built);
        assert!(!dir.exists(), "the fixture directory is removed on drop");
    }

    #[test]
    fn refuses_to_write_through_an_earlier_symlink() {
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().to_string_lossy().into_owned();
        // Links are created after files, so the file entry makes a real
        // directory first and the link then collides with it.
        let err = build(
            &unchecked(&[("ws/out", target)], &["ws/out/pwned"], &[]),
            None,
        )
        .unwrap_err();
        assert_eq!(err.entry, "ws/out");
        assert_eq!(
            fs::read_dir(outside.path()).unwrap().count(),
            0,
            "nothing written outside"
        );
    }

    #[test]
    fn refuses_a_mode_on_a_symlink_and_leaves_the_target_alone() {
        let f = unchecked(&[("ws/l", "victim".into())], &["ws/victim"], &["ws/l"]);
        let err = build(&f, None).unwrap_err();
        assert!(err.message.contains("symbolic link"), "{err}");
    }

    #[test]
    fn refuses_modes_below_a_symlink() {
        let f = unchecked(
            &[("ws/out", "{tmp}/elsewhere".into())],
            &["elsewhere/victim"],
            &["ws/out/victim"],
        );
        let err = build(&f, None).unwrap_err();
        assert!(
            err.message.contains("symbolic link of the fixture"),
            "{err}"
        );
    }

    #[test]
    fn refuses_link_targets_outside_on_its_own_too() {
        for target in ["/etc", "../../..", "{tmp}/.."] {
            let err = build(&unchecked(&[("ws/l", target.into())], &[], &[]), None).unwrap_err();
            assert_eq!(err.entry, "ws/l");
            assert!(err.message.contains("target"), "{target}: {err}");
        }
    }

    #[test]
    fn special_files_are_created() {
        let f = fixture_of(
            "requires: [fifos, sockets]\nfixture:\n  roots: [ws]\n  fifos: [ws/p]\n  sockets: [ws/s]\n",
        );
        let built = build(&f, None).unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(
            fs::symlink_metadata(built.root.join("ws/p"))
                .unwrap()
                .file_type()
                .is_fifo()
        );
        assert!(
            fs::symlink_metadata(built.root.join("ws/s"))
                .unwrap()
                .file_type()
                .is_socket()
        );
    }

    #[test]
    fn restrictive_modes_do_not_prevent_cleanup() {
        let f = fixture_of(
            "requires: [permissions]\nfixture:\n  roots: [ws]\n  files: {ws/d/f: x}\n  modes: {ws/d: \"0000\"}\n",
        );
        let built = build(&f, None).unwrap();
        let dir = built.root.clone();
        drop(built);
        assert!(!dir.exists());
    }

    fn mode_of(path: &Path) -> u32 {
        fs::symlink_metadata(path).unwrap().permissions().mode() & 0o7777
    }

    /// What the subject under test may do after the build: swap an entry
    /// for a link to something outside.
    fn replace_with_link(entry: &Path, target: &Path) {
        if fs::symlink_metadata(entry).unwrap().is_dir() {
            fs::set_permissions(entry, fs::Permissions::from_mode(0o700)).unwrap();
            fs::remove_dir_all(entry).unwrap();
        } else {
            fs::remove_file(entry).unwrap();
        }
        std::os::unix::fs::symlink(target, entry).unwrap();
    }

    #[test]
    fn removing_a_fixture_never_follows_a_link_put_in_its_place() {
        for keep in [false, true] {
            let outside = tempfile::tempdir().unwrap();
            let victim = outside.path().join("victim");
            fs::write(&victim, "x").unwrap();
            fs::set_permissions(&victim, fs::Permissions::from_mode(0o644)).unwrap();
            fs::create_dir(outside.path().join("dir")).unwrap();
            fs::write(outside.path().join("dir/inner"), "x").unwrap();
            let f = fixture_of(
                "requires: [permissions]\nfixture:\n  roots: [ws]\n  files: {ws/d/f: x, ws/e/f: x, ws/g: x}\n  modes: {ws/d: \"0500\", ws/e: \"0000\", ws/g: \"0000\"}\n",
            );
            let built = build(&f, None).unwrap();
            let root = built.root.clone();
            replace_with_link(&root.join("ws/d"), &victim);
            replace_with_link(&root.join("ws/e"), &outside.path().join("dir"));
            replace_with_link(&root.join("ws/g"), &victim);
            if keep {
                let kept = built.keep();
                remove_tree(&kept).unwrap();
            } else {
                drop(built);
            }
            assert!(!root.exists(), "the fixture is gone");
            assert_eq!(mode_of(&victim), 0o644, "the outside file kept its mode");
            assert_eq!(mode_of(&outside.path().join("dir")), 0o755 & !umask());
            assert!(
                outside.path().join("dir/inner").exists(),
                "nothing outside removed"
            );
        }
    }

    fn umask() -> u32 {
        let probe = tempfile::tempdir().unwrap();
        let dir = probe.path().join("d");
        fs::create_dir(&dir).unwrap();
        0o777 & !mode_of(&dir)
    }

    #[test]
    fn a_locked_directory_is_removed_by_its_owner() {
        let f = fixture_of(
            "requires: [permissions]\nfixture:\n  roots: [ws]\n  files: {ws/d/e/f: x}\n  modes: {ws/d: \"0000\", ws/d/e: \"0000\"}\n",
        );
        let built = build(&f, None).unwrap();
        let root = built.root.clone();
        drop(built);
        assert!(!root.exists());
    }

    #[test]
    fn the_fixture_directory_is_the_harness_alone_until_handed_over() {
        let f = fixture_of("fixture:\n  roots: [ws]\n  files: {ws/a.txt: secret}\n");
        let built = build(&f, None).unwrap();
        assert_eq!(mode_of(&built.root), 0o700, "created 0700, never wider");
        let me = fs::metadata(&built.root).unwrap();
        assert_eq!(std::os::unix::fs::MetadataExt::uid(&me), unsafe {
            libc::geteuid()
        });
        if unsafe { libc::geteuid() } != 0 {
            eprintln!("not root: cannot run a process as another user; checked modes only");
            return;
        }
        let (uid, gid) = crate::harness::run::UNPRIVILEGED_USER;
        let file = built.root.join("ws/a.txt");
        let read_as_nobody = || {
            std::process::Command::new("cat")
                .arg(&file)
                .uid(uid)
                .gid(gid)
                .output()
                .unwrap()
        };
        use std::os::unix::process::CommandExt;
        let denied = read_as_nobody();
        assert!(
            !denied.status.success(),
            "another user read into the fixture"
        );
        assert!(String::from_utf8_lossy(&denied.stderr).contains("Permission denied"));
        built.chown_all(uid, gid).unwrap();
        let allowed = read_as_nobody();
        assert_eq!(allowed.stdout, b"secret", "{allowed:?}");
    }

    #[test]
    fn handing_over_never_follows_a_link() {
        let outside = tempfile::NamedTempFile::new().unwrap();
        let before = fs::metadata(outside.path()).unwrap();
        let f = fixture_of("fixture:\n  roots: [ws]\n  files: {ws/a: x}\n");
        let built = build(&f, None).unwrap();
        replace_with_link(&built.root.join("ws/a"), outside.path());
        if unsafe { libc::geteuid() } == 0 {
            built.chown_all(65534, 65534).unwrap();
        }
        let after = fs::metadata(outside.path()).unwrap();
        use std::os::unix::fs::MetadataExt;
        assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
    }

    #[test]
    fn absolute_link_targets_start_at_the_fixture_directory() {
        let f = fixture_of(
            "requires: [symlinks]\nfixture:\n  roots: [ws]\n  dirs: [outside]\n  symlinks: {ws/o: \"{tmp}/outside\", ws/top: \"{tmp}\"}\n",
        );
        let built = build(&f, None).unwrap();
        assert_eq!(
            fs::read_link(built.root.join("ws/o")).unwrap(),
            built.root.join("outside")
        );
        assert_eq!(
            fs::read_link(built.root.join("ws/top")).unwrap(),
            built.root
        );
    }

    #[test]
    fn git_roots_are_repositories_with_one_commit_honouring_gitignore() {
        let f = fixture_of(
            "requires: [git]\nfixture:\n  roots: [ws, plain]\n  git: [ws]\n  files: {ws/a.ts: hi, ws/build.log: x, ws/.gitignore: \"*.log\\n\"}\n",
        );
        let built = build(&f, None).unwrap();
        let git = |args: &[&str]| {
            let out = std::process::Command::new("git")
                .args(args)
                .current_dir(built.root.join("ws"))
                .output()
                .unwrap();
            String::from_utf8(out.stdout).unwrap()
        };
        assert_eq!(git(&["ls-files"]), ".gitignore\na.ts\n");
        assert_eq!(git(&["rev-list", "--count", "HEAD"]), "1\n");
        assert!(!built.root.join("plain/.git").exists());
    }
}
