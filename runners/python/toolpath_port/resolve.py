"""The shared resolver: lexical paths (RES), containment (SEC) and classification.

The pipeline for a path parameter is

1. ``lexical(target, given)``: join onto the target directory unless absolute
   and normalise without touching the file system (RES-2, RES-3, RES-6);
2. ``Workspace.check_inside(lexical)``: containment on real paths, by whole
   components, before anything is said about existence (SEC-1..3);
3. ``examine(lexical)``: ``stat`` (following links) and map the outcome to a
   kind or an error code (RES-7..10, ERR-5).

The lexical path is what gets reported and used (RES-4, SEC-8); the real path
only ever serves the containment decision.
"""

import errno
import os
import stat
from dataclasses import dataclass
from typing import List, Optional, Sequence, Union

from .errors import (
    NOT_FOUND,
    OUTSIDE_WORKSPACE,
    PERMISSION_DENIED,
    UNSUPPORTED_FILE_TYPE,
    ToolError,
    invalid,
)

# Linux gives ELOOP after 40 link traversals in one lookup; do the same.
MAX_SYMLINKS = 40

# Kinds an existing path can have.
DIRECTORY = "directory"
FILE = "file"
OTHER = "other"  # FIFO, socket, device: never opened
ALL_WORKSPACES = "all-workspaces"

_PERMISSION_ERRNOS = {errno.EACCES, errno.EPERM}


# ---------------------------------------------------------------------------
# Lexical paths (RES-2, RES-3, RES-6)
# ---------------------------------------------------------------------------

def normalise(path: str) -> str:
    """Normalise an absolute path lexically (RES-3).

    Repeated ``/`` collapse (including a leading ``//``, which
    ``os.path.normpath`` keeps), ``.`` is dropped, ``..`` removes the segment
    before it and stays at ``/``, and a trailing ``/`` is dropped. Only ``/``
    separates; ``\\`` and names such as ``..foo`` are ordinary (RES-6).
    """
    stack: List[str] = []
    for segment in path.split("/"):
        if segment == "" or segment == ".":
            continue
        if segment == "..":
            if stack:
                stack.pop()
            continue
        stack.append(segment)
    return "/" + "/".join(stack)


def lexical(target: str, given: str) -> str:
    """The lexical absolute path of ``given`` (RES-2): absolute paths as they
    are, anything else joined onto the target directory; then normalised."""
    if given.startswith("/"):
        return normalise(given)
    return normalise(target + "/" + given)


NAME_MAX = 255
PATH_MAX = 4095


def refuse_uri(given: str) -> None:
    """RES-16: a ``file:`` URI (the scheme in any letter case, then ``/``) is
    not a path. It is never decoded into the path it stands for (RES-15),
    and taken as a relative name it would look for a directory called
    ``file:``; the refusal says what it is."""
    if given[:5].lower() == "file:" and given[5:6] == "/":
        raise invalid(
            f"{given!r} is a file: URI, not a path; URIs are not decoded: give the path "
            f"itself, with any %XX written as the character it stands for"
        )


def checked_lexical(target: str, given: str, tilde: bool = True) -> str:
    """``lexical``, after the checks that read the text alone (ERR-2):
    RES-16, a ``file:`` URI is refused (``refuse_uri``); RES-12, a leading
    ``~`` is refused, never expanded nor taken as a name (``tilde=False``
    for a file tool, which refuses every relative path itself, FILE-3);
    RES-13, a resolved path no file system can hold (a
    name over NAME_MAX bytes, a path over PATH_MAX) is refused."""
    refuse_uri(given)
    if tilde and given.startswith("~"):
        raise invalid(
            f"{given!r} begins with '~', which is not expanded: give an absolute path "
            f"or one relative to the target directory {target}"
        )
    path = lexical(target, given)
    encoded = path.encode("utf-8", "surrogateescape")
    longest = max((len(n) for n in encoded.split(b"/")), default=0)
    if longest > NAME_MAX:
        raise invalid(f"{path} has a name of {longest} bytes; a name is at most {NAME_MAX}")
    if len(encoded) > PATH_MAX:
        raise invalid(f"the path is {len(encoded)} bytes long; a path is at most {PATH_MAX}: {path}")
    return path


def join(base: str, name: str) -> str:
    """Append one name to a normalised absolute path."""
    return base + name if base == "/" else base + "/" + name


def parent(path: str) -> str:
    """The lexical parent of a normalised absolute path (RES-11)."""
    head = path.rsplit("/", 1)[0]
    return head or "/"


def basename(path: str) -> str:
    return path.rsplit("/", 1)[1]


# ---------------------------------------------------------------------------
# Real paths (SEC-1)
# ---------------------------------------------------------------------------

class _LinkLoop(Exception):
    """Resolution met more symbolic links than a lookup may follow."""

    def __init__(self, links: List[str]):
        super().__init__(links)
        self.links = links


class LinkLoop:
    """The outcome of resolving a path that runs into a symbolic link loop:
    there is no real path, only the locations of the links met on the way
    (each the real path of its directory plus its name), sorted (SEC-1)."""

    def __init__(self, links: List[str]):
        self.links: List[str] = sorted(set(links))

    def __eq__(self, other):
        return isinstance(other, LinkLoop) and other.links == self.links

    def __repr__(self):
        return f"LinkLoop({self.links!r})"


def _resolve(path: str) -> str:
    """Resolve every symbolic link in a normalised absolute path, component by
    component. A dangling link is still followed; the first missing (or
    unexaminable) component and the rest are appended lexically. Raises
    ``_LinkLoop`` when the links do not end."""
    pending: List[str] = [s for s in path.split("/") if s]
    pending.reverse()  # a stack: the next segment is at the end
    resolved = "/"
    met: List[str] = []
    while pending:
        segment = pending.pop()
        if segment == "" or segment == ".":
            continue
        if segment == "..":
            resolved = parent(resolved)
            continue
        candidate = join(resolved, segment)
        try:
            info = os.lstat(candidate)
        except (OSError, ValueError):
            # ENOENT, ENOTDIR (through a file), EACCES, ...: the existing part
            # ends here; the rest is appended unchanged and normalised.
            rest = "/".join(reversed(pending))
            return normalise(candidate + "/" + rest)
        if stat.S_ISLNK(info.st_mode):
            met.append(candidate)
            if len(met) > MAX_SYMLINKS:
                raise _LinkLoop(met)
            try:
                link = os.readlink(candidate)
            except OSError:
                rest = "/".join(reversed(pending))
                return normalise(candidate + "/" + rest)
            if link.startswith("/"):
                resolved = "/"
            pending.extend(reversed([s for s in link.split("/") if s]))
            continue
        resolved = candidate
    return resolved


def real_path(path: str) -> Union[str, LinkLoop]:
    """The real path of an absolute path (SEC-1), or a ``LinkLoop`` when a
    symbolic link loop stops resolution."""
    try:
        return _resolve(normalise(path))
    except _LinkLoop as loop:
        return LinkLoop(loop.links)


def is_inside(real: str, root_real: str) -> bool:
    """Whole-component containment (SEC-2)."""
    if root_real == "/":
        return True
    return real == root_real or real.startswith(root_real + "/")


# ---------------------------------------------------------------------------
# The workspace
# ---------------------------------------------------------------------------

class Workspace:
    """Roots (absolute, in order) and the target directory of one call."""

    def __init__(self, roots: Sequence[str], target: str):
        if not roots:
            raise ValueError("a workspace has at least one root")
        self.roots_given: List[str] = list(roots)
        self.roots: List[str] = [normalise(r) for r in roots]
        self.target: str = normalise(target)
        self._root_reals: Optional[List[str]] = None

    def root_reals(self) -> List[str]:
        if self._root_reals is None:
            reals = [real_path(r) for r in self.roots]
            # A root is a directory the harness built; a looping one contains
            # nothing but itself.
            self._root_reals = [r if isinstance(r, str) else root for r, root in zip(reals, self.roots)]
        return self._root_reals

    def contains(self, lexical_path: str) -> bool:
        real = real_path(lexical_path)

        def inside(path: str) -> bool:
            return any(is_inside(path, root) for root in self.root_reals())

        if isinstance(real, LinkLoop):
            # No real path: inside only if every link met on the way is.
            return all(inside(link) for link in real.links)
        return inside(real)

    def check_inside(self, lexical_path: str) -> None:
        """Raise ``outside_workspace`` unless the path's real path is inside a
        root (SEC-1..6, SEC-9). The message names the path and every root
        (ERR-4)."""
        if not self.contains(lexical_path):
            roots = ", ".join(self.roots_given)
            raise ToolError(
                OUTSIDE_WORKSPACE,
                f"path is outside the workspace: {lexical_path} "
                f"(workspace roots: {roots})",
            )


# ---------------------------------------------------------------------------
# Classification (RES-7..10)
# ---------------------------------------------------------------------------

def error_for_os_error(err: OSError, lexical_path: str, action: str = "examine") -> ToolError:
    """Map an OSError on the lexical path to ``not_found`` or
    ``permission_denied`` (RES-8, RES-9, ERR-3, ERR-5)."""
    reason = os.strerror(err.errno) if err.errno else str(err)
    if err.errno in _PERMISSION_ERRNOS:
        return ToolError(PERMISSION_DENIED, f"permission denied: cannot {action} {lexical_path} ({reason})")
    return ToolError(NOT_FOUND, f"path does not exist: {lexical_path} ({reason})")


def examine(lexical_path: str) -> str:
    """``stat`` the path, following links, and return DIRECTORY, FILE or OTHER.

    Never opens anything, so a FIFO cannot block (RES-10)."""
    try:
        info = os.stat(lexical_path)
    except OSError as err:
        raise error_for_os_error(err, lexical_path) from None
    except ValueError as err:  # cannot happen after ERR-7 validation
        raise ToolError(NOT_FOUND, f"path does not exist: {lexical_path} ({err})") from None
    if stat.S_ISDIR(info.st_mode):
        return DIRECTORY
    if stat.S_ISREG(info.st_mode):
        return FILE
    return OTHER


def validate(workspace: Workspace, lexical_path: str) -> str:
    """Containment first (SEC-3), then existence and type."""
    workspace.check_inside(lexical_path)
    return examine(lexical_path)


@dataclass(frozen=True)
class Target:
    """What a text search target resolved to (RES-1, RES-7, RES-11)."""

    kind: str  # FILE, DIRECTORY or ALL_WORKSPACES
    path: Optional[str] = None
    parent: Optional[str] = None


def resolve_target(workspace: Workspace, given: Optional[str]) -> Target:
    """The shared text-search target resolver.

    ``given`` is an already validated path parameter: None when no path was
    given (RES-1)."""
    if given is None:
        return Target(ALL_WORKSPACES)
    path = checked_lexical(workspace.target, given)
    kind = validate(workspace, path)
    if kind == DIRECTORY:
        return Target(DIRECTORY, path)
    if kind == FILE:
        return Target(FILE, path, parent(path))
    raise ToolError(
        UNSUPPORTED_FILE_TYPE,
        f"path is neither a directory nor a regular file: {lexical_path_type(path)}",
    )


def lexical_path_type(path: str) -> str:
    """The path followed by what it is, for messages."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return path
    for test, name in (
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ):
        if test(mode):
            return f"{path} (a {name})"
    return path
