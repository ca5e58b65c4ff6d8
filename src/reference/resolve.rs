//! The shared resolver (spec RES and SEC): from a path parameter to a
//! validated lexical path and what it names.
//!
//! Three paths are involved and kept apart on purpose:
//!
//! - the *lexical* path ([`lexical_resolve`]): computed from text alone; it is
//!   what the tools report and what they use for execution (RES-4, SEC-8);
//! - the *real* path ([`real_path`]): every symbolic link resolved; used only
//!   to decide containment (SEC-1, SEC-2);
//! - the file the lexical path names, examined with `stat` (following links)
//!   only once containment has been established (SEC-3, RES-7).

use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use super::ToolError;
use toolpath_suite::protocol::{ErrorCode, Workspace};

/// Most symbolic links followed while computing one real path before it
/// counts as a loop; the same limit as Linux's `MAXSYMLINKS`, so [`real_path`]
/// gives up where `stat` would report `ELOOP`.
const MAX_LINKS: usize = 40;

/// Joins `path` onto `base` unless it is absolute, then normalises the result
/// lexically, without touching the file system (RES-2, RES-3, RES-6).
///
/// - A `path` starting with `/` is used as given; anything else, including a
///   name made only of whitespace (RES-5), is relative to `base`.
/// - Repeated `/` collapse, `.` segments vanish, `..` removes the segment
///   before it and stays at `/` at the top, a trailing `/` is dropped.
/// - `/` is the only separator: `a\b` is one name and `..foo` is a name, not a
///   parent reference.
///
/// `base` is expected to be absolute; the result always is. An empty `path`
/// gives `base`, normalised.
pub fn lexical_resolve(base: &str, path: &str) -> String {
    let joined = if path.starts_with('/') {
        path.to_owned()
    } else {
        format!("{base}/{path}")
    };
    let mut segments: Vec<&str> = Vec::new();
    for segment in joined.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop();
            }
            name => segments.push(name),
        }
    }
    format!("/{}", segments.join("/"))
}

/// The longest name a file system the suite runs on holds (Linux's
/// `NAME_MAX`), and the longest path a system call takes, without its NUL
/// (`PATH_MAX` less one): RES-13.
pub const NAME_MAX: usize = 255;
pub const PATH_MAX: usize = 4095;

/// Refuses a `file:` URI given as a path (RES-16): `file:` in any letter
/// case, then `/`. A URI is never decoded into the path it stands for (a
/// path is never decoded, RES-15), and taken as a relative name it would
/// look for a directory called `file:`, which tells a model nothing; the
/// message says what it is. Text alone, so every tool checks it first,
/// the file tools before they refuse a relative path (FILE-3).
pub fn refuse_uri(path: &str) -> Result<(), ToolError> {
    let scheme = path
        .get(..5)
        .is_some_and(|s| s.eq_ignore_ascii_case("file:"));
    if scheme && path[5..].starts_with('/') {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "{path:?} is a `file:` URI, not a path: URIs are not decoded; give the path \
                 itself, with any `%XX` written as the character it stands for"
            ),
        ));
    }
    Ok(())
}

/// A path given, read as text alone, before any file system access
/// (ERR-2): refused when it is a `file:` URI ([`refuse_uri`]) or begins
/// with `~` (RES-12: never expanded, and a model that meant its home
/// directory must learn so rather than find no directory named `~`),
/// joined and normalised (RES-3), and refused when the result could name
/// no file (RES-13: a name longer than [`NAME_MAX`] or a path longer than
/// [`PATH_MAX`]).
pub fn lexical_checked(workspace: &Workspace, path: &str) -> Result<String, ToolError> {
    refuse_uri(path)?;
    if path.starts_with('~') {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "{path:?} begins with `~`, which is not expanded: give an absolute path, or one \
                 relative to the target directory {} (`./{path}` for a name beginning with `~`)",
                workspace.target
            ),
        ));
    }
    let lexical = lexical_resolve(&workspace.target, path);
    if let Some(name) = lexical.split('/').find(|n| n.len() > NAME_MAX) {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "{lexical} has a name of {} bytes, and no name can be longer than {NAME_MAX} bytes",
                name.len()
            ),
        ));
    }
    if lexical.len() > PATH_MAX {
        return Err(ToolError::new(
            ErrorCode::InvalidParams,
            format!(
                "the path is {} bytes long, and no path can be longer than {PATH_MAX} bytes: {lexical}",
                lexical.len()
            ),
        ));
    }
    Ok(lexical)
}

/// The lexical parent of a lexical absolute path (RES-11): `/a/b` gives `/a`,
/// `/a` and `/` give `/`.
pub fn lexical_parent(path: &str) -> String {
    match path.rfind('/') {
        Some(0) | None => "/".to_owned(),
        Some(i) => path[..i].to_owned(),
    }
}

/// Appends `name` to a lexical absolute directory path without doubling the
/// `/` when the directory is `/` itself.
pub fn join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// The real path of `p`: the executable definition of spec SEC-1.
///
/// `p` is first normalised lexically (RES-3; a relative `p` is taken from
/// `/`), then walked one component at a time from `/`, resolving every
/// symbolic link met on the way, including those inside link targets. A link
/// target's `..` is applied to the real directory the link sits in, as the
/// kernel does. Two things end the walk early, and neither is an error,
/// because containment must be decidable for paths that do not resolve:
///
/// - **A missing component** (`ENOENT`), or one that cannot be looked up for
///   another reason (`ENOTDIR` below a regular file, `EACCES` below an
///   unsearchable directory): that component and everything after it are
///   appended to the real path of the part that exists, and the whole is
///   normalised lexically. So a dangling link still leads to its target: a
///   link `ws/out -> ../outside/x` with no `outside` has the real path
///   `{tmp}/outside/x`, which is outside the workspace (SEC-6).
/// - **A loop**: once more than 40 links have been followed (where `stat`
///   gives `ELOOP`), there is no real path. The result is
///   [`RealPath::Loop`] with the location of every link met on the way (the
///   real path of the directory holding it, plus its name), and the path is
///   inside only if all of them are ([`RealPath::is_inside`]). So
///   `ws/loop -> loop` is inside and then `not_found` (RES-8), while a link
///   into a loop outside the workspace is `outside_workspace`, like any other
///   link that leads out (SEC-5), and reveals nothing about what is there.
///
/// Every other component is an existing entry that is not a link and is
/// simply appended.
/// A resolved result is absolute and contains no `.`, `..` or symbolic link
/// in the part that exists. For an existing path without loops it equals
/// `realpath(3)`.
pub fn real_path(p: &Path) -> RealPath {
    let mut components: Vec<OsString> = Vec::new();
    for c in p.components() {
        match c {
            Component::Normal(name) => components.push(name.to_owned()),
            Component::ParentDir => {
                components.pop();
            }
            _ => {}
        }
    }

    let mut real = PathBuf::from("/");
    let mut links_met: Vec<PathBuf> = Vec::new();
    for (i, name) in components.iter().enumerate() {
        // Resolve this one component, expanding links as they come.
        let mut pending: Vec<OsString> = vec![name.clone()]; // a stack, next on top
        let mut here = real.clone();
        while let Some(next) = pending.pop() {
            if next == ".." {
                here.pop();
                continue;
            }
            let candidate = here.join(&next);
            match fs::symlink_metadata(&candidate) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    links_met.push(candidate.clone());
                    if links_met.len() > MAX_LINKS {
                        links_met.sort();
                        links_met.dedup();
                        return RealPath::Loop { links: links_met };
                    }
                    let Ok(target) = fs::read_link(&candidate) else {
                        // The link vanished meanwhile: as if it were missing.
                        let rest = std::iter::once(&next)
                            .chain(pending.iter().rev())
                            .chain(components[i + 1..].iter());
                        return RealPath::Resolved(normalise(here, rest));
                    };
                    if target.is_absolute() {
                        here = PathBuf::from("/");
                    }
                    let mut parts: Vec<OsString> =
                        target.components().filter_map(link_part).collect();
                    parts.reverse();
                    pending.extend(parts);
                }
                Ok(_) => here = candidate,
                // Missing, through a non-directory, or not searchable: the
                // rest cannot be resolved, so it is kept as written.
                Err(_) => {
                    let rest = std::iter::once(&next)
                        .chain(pending.iter().rev())
                        .chain(components[i + 1..].iter());
                    return RealPath::Resolved(normalise(here, rest));
                }
            }
        }
        real = here;
    }
    RealPath::Resolved(real)
}

/// What [`real_path`] found (spec SEC-1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RealPath {
    /// The real path.
    Resolved(PathBuf),
    /// Resolution ran into a symbolic link loop; these are the locations of
    /// the links met on the way, sorted.
    Loop { links: Vec<PathBuf> },
}

impl RealPath {
    /// Containment (SEC-2): a resolved path must lie in a root; a loop is
    /// inside only if every link it passed through lies in a root.
    pub fn is_inside(&self, real_roots: &[PathBuf]) -> bool {
        match self {
            RealPath::Resolved(real) => is_inside(real, real_roots),
            RealPath::Loop { links } => links.iter().all(|link| is_inside(link, real_roots)),
        }
    }
}

/// A link target's component: names and `..` matter, `/` and `.` do not.
fn link_part(c: Component<'_>) -> Option<OsString> {
    match c {
        Component::Normal(name) => Some(name.to_owned()),
        Component::ParentDir => Some("..".into()),
        _ => None,
    }
}

/// `base` followed by `rest`, normalised lexically (`..` removes the segment
/// before it, even one inside `base`).
fn normalise<'a>(mut base: PathBuf, rest: impl Iterator<Item = &'a OsString>) -> PathBuf {
    for name in rest {
        if name == ".." {
            base.pop();
        } else {
            base.push(name);
        }
    }
    base
}

/// Whether a real path is inside one of the roots' real paths (SEC-2).
///
/// Containment is by whole components: the path equals a root or continues it
/// after a `/`, so `/w/ws-evil` is not inside `/w/ws` but `/w/ws` is inside
/// itself. `Path::starts_with` compares components, which is exactly that.
/// Both sides are expected to come from [`real_path`].
pub fn is_inside(real: &Path, real_roots: &[PathBuf]) -> bool {
    real_roots.iter().any(|root| real.starts_with(root))
}

/// What a search path resolved to (RES-1, RES-7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// No path given: every root is searched (SEARCH-3).
    AllWorkspaces,
    /// A directory, by its lexical path.
    Directory(String),
    /// A regular file, by its lexical path, with its lexical parent (RES-11).
    File { path: String, parent: String },
}

/// What `stat` found at a contained lexical path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    Directory,
    File,
    /// A FIFO, socket or device; never opened (RES-10).
    Other,
}

/// How a result names where it looked, for the model (OUT-5): the resolved
/// path, or every root when no path was given.
pub fn place(workspace: &Workspace, echoed: Option<&str>) -> String {
    match echoed {
        Some(path) => path.to_owned(),
        None => format!("all workspace directories ({})", workspace.roots.join(", ")),
    }
}

/// Resolves a search or `resolve` path parameter (RES, SEC).
///
/// `path` is `None` when no path was given (RES-1: the caller maps absent and
/// empty to `None`). A FIFO, socket or device gives `unsupported_file_type`
/// (RES-10).
pub fn resolve_target(workspace: &Workspace, path: Option<&str>) -> Result<Target, ToolError> {
    let Some(path) = path else {
        return Ok(Target::AllWorkspaces);
    };
    let lexical = lexical_checked(workspace, path)?;
    match locate(workspace, &lexical)? {
        Found::Directory => Ok(Target::Directory(lexical)),
        Found::File => Ok(Target::File {
            parent: lexical_parent(&lexical),
            path: lexical,
        }),
        Found::Other => Err(ToolError::new(
            ErrorCode::UnsupportedFileType,
            format!("{lexical} is neither a directory nor a regular file"),
        )),
    }
}

/// Checks a lexical absolute path against the workspace, then examines it.
///
/// The order is the one ERR-2 and SEC-3 prescribe: containment on real paths
/// first, so nothing about the file system outside the workspace leaks
/// (whether the path exists, what it is); then `stat`, following links.
///
/// Messages name the lexical path (ERR-3) and, for `outside_workspace`, every
/// root as given (ERR-4). They never show the real path: it could reveal
/// where links outside the workspace point.
pub fn locate(workspace: &Workspace, lexical: &str) -> Result<Found, ToolError> {
    contain(workspace, lexical)?;
    match fs::metadata(lexical) {
        Ok(meta) if meta.is_dir() => Ok(Found::Directory),
        Ok(meta) if meta.is_file() => Ok(Found::File),
        Ok(_) => Ok(Found::Other),
        Err(err) => Err(io_error(lexical, &err)),
    }
}

/// Containment alone (SEC-1, SEC-2): `outside_workspace` unless the real
/// path of the lexical absolute path is inside a root. Nothing is
/// examined beyond what resolving links needs, so a tool that must tell a
/// missing file from others (a write creates it) examines it itself,
/// afterwards.
pub fn contain(workspace: &Workspace, lexical: &str) -> Result<(), ToolError> {
    let real_roots: Vec<PathBuf> = workspace
        .roots
        .iter()
        .map(|r| match real_path(Path::new(r)) {
            RealPath::Resolved(real) => real,
            // A root is a directory the harness built; a looping one
            // contains nothing but itself.
            RealPath::Loop { .. } => PathBuf::from(r),
        })
        .collect();
    if !real_path(Path::new(lexical)).is_inside(&real_roots) {
        return Err(ToolError::new(
            ErrorCode::OutsideWorkspace,
            format!(
                "{lexical} is outside the workspace (roots: {})",
                workspace.roots.join(", ")
            ),
        ));
    }
    Ok(())
}

/// Maps an error from examining or opening `lexical` to a spec code (ERR-1,
/// ERR-5): lack of permission is `permission_denied`, everything that means
/// "there is nothing there" (`ENOENT`, `ENOTDIR`, `ELOOP`, a name too long) is
/// `not_found`. Other errors are rare (`EIO`); they too become `not_found`,
/// the closest fit, with the system's text kept in the message.
pub fn io_error(lexical: &str, err: &io::Error) -> ToolError {
    let code = match crate::sys::is_permission_error(err) {
        true => ErrorCode::PermissionDenied,
        false => ErrorCode::NotFound,
    };
    let what = match code {
        ErrorCode::PermissionDenied => "permission denied",
        _ => "does not exist",
    };
    ToolError::new(code, format!("{lexical}: {what} ({err})"))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn lexical_normalisation() {
        let t = "/w/ws";
        assert_eq!(lexical_resolve(t, "src//x"), "/w/ws/src/x");
        assert_eq!(lexical_resolve(t, "./src/x/"), "/w/ws/src/x");
        assert_eq!(lexical_resolve(t, "src/./x"), "/w/ws/src/x");
        assert_eq!(lexical_resolve(t, "src/x/."), "/w/ws/src/x");
        assert_eq!(lexical_resolve(t, "./"), "/w/ws");
        assert_eq!(lexical_resolve(t, "."), "/w/ws");
        assert_eq!(lexical_resolve(t, ""), "/w/ws");
        assert_eq!(lexical_resolve(t, "src/../lib"), "/w/ws/lib");
        assert_eq!(lexical_resolve(t, "../../../.."), "/");
        assert_eq!(lexical_resolve(t, "/../etc"), "/etc");
        assert_eq!(lexical_resolve(t, "/"), "/");
        assert_eq!(lexical_resolve(t, "//a//"), "/a");
        assert_eq!(lexical_resolve(t, "/x/y"), "/x/y");
    }

    #[test]
    fn lexical_ordinary_names() {
        let t = "/w/ws";
        assert_eq!(lexical_resolve(t, "..foo"), "/w/ws/..foo");
        assert_eq!(lexical_resolve(t, "..."), "/w/ws/...");
        assert_eq!(lexical_resolve(t, "a\\b"), "/w/ws/a\\b");
        assert_eq!(lexical_resolve(t, "a\\..\\b"), "/w/ws/a\\..\\b");
        assert_eq!(lexical_resolve(t, " "), "/w/ws/ ");
        assert_eq!(lexical_resolve(t, " /x"), "/w/ws/ /x");
        assert_eq!(lexical_resolve(t, "~"), "/w/ws/~");
        // Trailing slash on the base does not double.
        assert_eq!(lexical_resolve("/w/ws/", "a"), "/w/ws/a");
    }

    /// RES-16: a `file:` URI is refused with the text as given, whatever
    /// the letter case of its scheme; a name that only looks like one
    /// further in, or without the `/`, is an ordinary name (RES-6).
    #[test]
    fn a_file_uri_is_refused_never_decoded() {
        let ws = Workspace {
            roots: vec!["/w/ws".into()],
            target: "/w/ws".into(),
        };
        for uri in [
            "file:///w/ws/a%20b.txt",
            "FILE://localhost/w/ws",
            "File:/w/ws",
        ] {
            let err = lexical_checked(&ws, uri).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{uri}");
            assert!(err.message.contains(uri), "{uri}: {}", err.message);
        }
        for name in [
            "./file:/x",
            "file:",
            "file:x",
            "files/x",
            "a/file:/x",
            "fil",
        ] {
            assert!(lexical_checked(&ws, name).is_ok(), "{name}");
        }
    }

    #[test]
    fn parents_and_joins() {
        assert_eq!(lexical_parent("/w/ws/a.ts"), "/w/ws");
        assert_eq!(lexical_parent("/a"), "/");
        assert_eq!(lexical_parent("/"), "/");
        assert_eq!(join("/w", "a"), "/w/a");
        assert_eq!(join("/", "a"), "/a");
    }

    #[test]
    fn containment_is_by_component() {
        let roots = [PathBuf::from("/w/ws")];
        assert!(is_inside(Path::new("/w/ws"), &roots));
        assert!(is_inside(Path::new("/w/ws/a"), &roots));
        assert!(!is_inside(Path::new("/w/ws-evil"), &roots));
        assert!(!is_inside(Path::new("/w/wsx/a"), &roots));
        assert!(!is_inside(Path::new("/w"), &roots));
        assert!(!is_inside(Path::new("/"), &roots));
        let nested = [PathBuf::from("/w/ws/sub"), PathBuf::from("/w/ws")];
        assert!(is_inside(Path::new("/w/ws/a"), &nested));
        assert!(is_inside(Path::new("/w/ws/sub/a"), &nested));
        assert!(!is_inside(Path::new("/w/ws"), &[]));
        // SEC-2: a root of `/` holds every absolute path (no case can make
        // `/` a root, so this test is where it is pinned; issue 45 item 11).
        let slash = [PathBuf::from("/")];
        for path in ["/", "/etc", "/w/ws/a", "/w/ws-evil"] {
            assert!(is_inside(Path::new(path), &slash), "{path}");
        }
    }

    /// A fixture: `{tmp}/ws` with `src/a.ts`, `{tmp}/outside/secret`, and the
    /// real path of `{tmp}` (the temporary directory may sit behind a link).
    fn fixture() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let tmp = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir_all(tmp.join("ws/src")).unwrap();
        fs::write(tmp.join("ws/src/a.ts"), "hello\n").unwrap();
        fs::create_dir_all(tmp.join("outside")).unwrap();
        fs::write(tmp.join("outside/secret"), "hello\n").unwrap();
        (dir, tmp)
    }

    /// The resolved real path, for paths that do not loop.
    fn real(p: &Path) -> PathBuf {
        match real_path(p) {
            RealPath::Resolved(real) => real,
            other => panic!("{}: {other:?}", p.display()),
        }
    }

    #[test]
    fn real_path_of_existing_paths_matches_canonicalize() {
        let (_d, tmp) = fixture();
        symlink("src", tmp.join("ws/s")).unwrap();
        symlink(tmp.join("ws/src/a.ts"), tmp.join("ws/abs")).unwrap();
        for p in ["ws", "ws/src/a.ts", "ws/s", "ws/s/a.ts", "ws/abs"] {
            let p = tmp.join(p);
            assert_eq!(real(&p), fs::canonicalize(&p).unwrap(), "{}", p.display());
        }
        assert_eq!(real(Path::new("/")), PathBuf::from("/"));
    }

    #[test]
    fn real_path_of_missing_and_odd_paths() {
        let (_d, tmp) = fixture();
        // Missing components are appended as written.
        assert_eq!(real(&tmp.join("ws/nope/x")), tmp.join("ws/nope/x"));
        // Through a regular file (ENOTDIR) behaves like missing.
        assert_eq!(real(&tmp.join("ws/src/a.ts/x")), tmp.join("ws/src/a.ts/x"));
        // The input is normalised lexically first.
        assert_eq!(
            real(&tmp.join("ws/src/../src/./a.ts")),
            tmp.join("ws/src/a.ts")
        );
    }

    #[test]
    fn real_path_follows_links_out() {
        let (_d, tmp) = fixture();
        symlink("../outside", tmp.join("ws/out")).unwrap();
        symlink("../outside/secret", tmp.join("ws/secret")).unwrap();
        assert_eq!(real(&tmp.join("ws/out")), tmp.join("outside"));
        assert_eq!(real(&tmp.join("ws/out/secret")), tmp.join("outside/secret"));
        assert_eq!(real(&tmp.join("ws/secret")), tmp.join("outside/secret"));
        // In a link target, `..` after a link applies to that link's real
        // target, as the kernel does; the input itself is lexical (RES-3).
        symlink("out/../ws/src", tmp.join("ws/up")).unwrap();
        assert_eq!(real(&tmp.join("ws/up")), tmp.join("ws/src"));
        assert_eq!(
            real(&tmp.join("ws/up")),
            fs::canonicalize(tmp.join("ws/up")).unwrap()
        );
        assert_eq!(real(&tmp.join("ws/out/../ws")), tmp.join("ws/ws"));
    }

    #[test]
    fn real_path_follows_dangling_links() {
        let (_d, tmp) = fixture();
        symlink("../nowhere/x", tmp.join("ws/dangling-out")).unwrap();
        symlink("missing", tmp.join("ws/dangling-in")).unwrap();
        symlink("/nonexistent-toolpath/abs", tmp.join("ws/dangling-abs")).unwrap();
        symlink("missing/../../../escape", tmp.join("ws/dotdot")).unwrap();
        assert_eq!(real(&tmp.join("ws/dangling-out")), tmp.join("nowhere/x"));
        assert_eq!(
            real(&tmp.join("ws/dangling-out/more")),
            tmp.join("nowhere/x/more")
        );
        assert_eq!(real(&tmp.join("ws/dangling-in")), tmp.join("ws/missing"));
        assert_eq!(
            real(&tmp.join("ws/dangling-abs")),
            PathBuf::from("/nonexistent-toolpath/abs")
        );
        // After a missing component, `..` is lexical and may climb into the real part.
        assert_eq!(
            real(&tmp.join("ws/dotdot")),
            tmp.parent().unwrap().join("escape")
        );
    }

    #[test]
    fn real_path_of_chains_and_loops() {
        let (_d, tmp) = fixture();
        let resolved = |p: &str| match real_path(&tmp.join(p)) {
            RealPath::Resolved(real) => real,
            other => panic!("{p}: {other:?}"),
        };
        let loop_links = |p: &str| match real_path(&tmp.join(p)) {
            RealPath::Loop { links } => links,
            other => panic!("{p}: {other:?}"),
        };
        symlink("b", tmp.join("ws/a")).unwrap();
        symlink("src", tmp.join("ws/b")).unwrap();
        assert_eq!(resolved("ws/a/a.ts"), tmp.join("ws/src/a.ts"));

        symlink("loop", tmp.join("ws/loop")).unwrap();
        assert_eq!(loop_links("ws/loop"), [tmp.join("ws/loop")]);
        assert_eq!(loop_links("ws/loop/x"), [tmp.join("ws/loop")]);

        symlink("p2", tmp.join("ws/p1")).unwrap();
        symlink("p1", tmp.join("ws/p2")).unwrap();
        assert_eq!(loop_links("ws/p1"), [tmp.join("ws/p1"), tmp.join("ws/p2")]);

        // A link into a loop outside: the loop's links are outside too.
        symlink(tmp.join("outside/loop2"), tmp.join("outside/loop1")).unwrap();
        symlink(tmp.join("outside/loop1"), tmp.join("outside/loop2")).unwrap();
        symlink("../outside/loop1", tmp.join("ws/outloop")).unwrap();
        let links = loop_links("ws/outloop");
        assert_eq!(
            links,
            [
                tmp.join("outside/loop1"),
                tmp.join("outside/loop2"),
                tmp.join("ws/outloop")
            ]
        );
        let roots = [tmp.join("ws")];
        assert!(!real_path(&tmp.join("ws/outloop")).is_inside(&roots));
        assert!(real_path(&tmp.join("ws/p1")).is_inside(&roots));
    }

    fn workspace(tmp: &Path) -> Workspace {
        Workspace {
            roots: vec![tmp.join("ws").display().to_string()],
            target: tmp.join("ws").display().to_string(),
        }
    }

    fn code(r: Result<Target, ToolError>) -> ErrorCode {
        r.unwrap_err().code
    }

    #[test]
    fn targets() {
        let (_d, tmp) = fixture();
        let ws = workspace(&tmp);
        let w = &ws.target;
        assert_eq!(resolve_target(&ws, None), Ok(Target::AllWorkspaces));
        assert_eq!(
            resolve_target(&ws, Some("src")),
            Ok(Target::Directory(format!("{w}/src")))
        );
        assert_eq!(
            resolve_target(&ws, Some("./")),
            Ok(Target::Directory(w.clone()))
        );
        assert_eq!(
            resolve_target(&ws, Some("src/a.ts")),
            Ok(Target::File {
                path: format!("{w}/src/a.ts"),
                parent: format!("{w}/src")
            })
        );
        // A link is reported by its lexical path, not its target (RES-4).
        symlink("src/a.ts", tmp.join("ws/link.ts")).unwrap();
        assert_eq!(
            resolve_target(&ws, Some("link.ts")),
            Ok(Target::File {
                path: format!("{w}/link.ts"),
                parent: w.clone()
            })
        );
    }

    #[test]
    fn error_precedence() {
        let (_d, tmp) = fixture();
        let ws = workspace(&tmp);
        symlink("../outside", tmp.join("ws/out")).unwrap();
        symlink("../nowhere", tmp.join("ws/dangling-out")).unwrap();
        symlink("nowhere", tmp.join("ws/dangling-in")).unwrap();
        symlink("loop", tmp.join("ws/loop")).unwrap();
        let out = |p: &str| code(resolve_target(&ws, Some(p)));
        // Outside wins over existence and type (SEC-3..6, SEC-9).
        assert_eq!(out("../outside/secret"), ErrorCode::OutsideWorkspace);
        assert_eq!(out("../outside/missing"), ErrorCode::OutsideWorkspace);
        assert_eq!(out("out/secret"), ErrorCode::OutsideWorkspace);
        assert_eq!(out("out"), ErrorCode::OutsideWorkspace);
        assert_eq!(out("dangling-out"), ErrorCode::OutsideWorkspace);
        assert_eq!(out("/"), ErrorCode::OutsideWorkspace);
        assert_eq!(out(tmp.to_str().unwrap()), ErrorCode::OutsideWorkspace);
        assert_eq!(out("../ws-evil"), ErrorCode::OutsideWorkspace);
        // Inside but not there (RES-8).
        assert_eq!(out("missing"), ErrorCode::NotFound);
        assert_eq!(out("dangling-in"), ErrorCode::NotFound);
        assert_eq!(out("src/a.ts/x"), ErrorCode::NotFound);
        assert_eq!(out("loop"), ErrorCode::NotFound);
        assert_eq!(out(" "), ErrorCode::NotFound);
    }

    #[test]
    fn messages_name_the_path_and_roots() {
        let (_d, tmp) = fixture();
        let ws = workspace(&tmp);
        let err = resolve_target(&ws, Some("../outside/secret")).unwrap_err();
        assert!(
            err.message
                .contains(&format!("{}/outside/secret", tmp.display())),
            "{}",
            err.message
        );
        assert!(err.message.contains(&ws.roots[0]), "{}", err.message);
        let err = resolve_target(&ws, Some("src/nope")).unwrap_err();
        assert!(
            err.message.contains(&format!("{}/src/nope", ws.target)),
            "{}",
            err.message
        );
    }

    #[test]
    fn special_files_are_unsupported_and_never_opened() {
        let (_d, tmp) = fixture();
        let ws = workspace(&tmp);
        crate::sys::mkfifo(&tmp.join("ws/pipe"), 0o644).unwrap();
        assert_eq!(
            code(resolve_target(&ws, Some("pipe"))),
            ErrorCode::UnsupportedFileType
        );
        let err = resolve_target(&ws, Some("pipe")).unwrap_err();
        assert!(err.message.contains(&format!("{}/pipe", ws.target)));
        let _socket = std::os::unix::net::UnixListener::bind(tmp.join("ws/sock")).unwrap();
        assert_eq!(
            code(resolve_target(&ws, Some("sock"))),
            ErrorCode::UnsupportedFileType
        );
    }

    #[test]
    fn root_behind_a_link() {
        let (_d, tmp) = fixture();
        symlink("ws", tmp.join("ws-link")).unwrap();
        let link = tmp.join("ws-link").display().to_string();
        let ws = Workspace {
            roots: vec![link.clone()],
            target: link.clone(),
        };
        assert_eq!(
            resolve_target(&ws, Some("src")),
            Ok(Target::Directory(format!("{link}/src")))
        );
        // The real path of the root is used: reaching it directly is inside too.
        let direct = tmp.join("ws/src").display().to_string();
        assert_eq!(
            resolve_target(&ws, Some(&direct)),
            Ok(Target::Directory(direct.clone()))
        );
    }

    #[test]
    fn io_errors_keep_enoent_and_eacces_apart() {
        use rustix::io::Errno;
        let os = |errno: Errno| io::Error::from_raw_os_error(errno.raw_os_error());
        let denied = os(Errno::ACCESS);
        let missing = os(Errno::NOENT);
        let notdir = os(Errno::NOTDIR);
        let looped = os(Errno::LOOP);
        assert_eq!(io_error("/x", &denied).code, ErrorCode::PermissionDenied);
        assert_eq!(io_error("/x", &missing).code, ErrorCode::NotFound);
        assert_eq!(io_error("/x", &notdir).code, ErrorCode::NotFound);
        assert_eq!(io_error("/x", &looped).code, ErrorCode::NotFound);
        assert!(io_error("/x", &denied).message.contains("/x"));
    }
}
