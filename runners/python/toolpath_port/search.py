"""Text search: the ``grep`` and ``ripgrep`` contract (spec SEARCH, OUT).

Both tool names run this one implementation; the spec gives them one
contract.
"""

import os
import re
import stat
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, List, Mapping, Optional, Tuple

from . import glob as globmod
from . import params as P
from .errors import ToolError, invalid
from .resolve import (
    ALL_WORKSPACES,
    DIRECTORY,
    FILE,
    Target,
    Workspace,
    error_for_os_error,
    join,
    resolve_target,
)

INCLUDE_IGNORED = "include_ignored"
BINARY = "binary"


@dataclass(frozen=True, order=True)
class Match:
    path: str
    line: int
    text: str


@dataclass
class SearchResult:
    kind: str
    path: Optional[str]
    matches: List[Match] = field(default_factory=list)
    notes: List[str] = field(default_factory=list)
    description: str = ""


@dataclass(frozen=True)
class SearchParams:
    pattern: "re.Pattern[str]"
    pattern_text: str
    path: Optional[str]
    include: Optional[str]


def parse_params(params: Mapping[str, Any]) -> SearchParams:
    """Validate everything before touching the file system (SEARCH-1,
    SEARCH-7, ERR-2, ERR-7)."""
    P.only(params, ("pattern", "dir_path", "path", "include"))
    pattern_text = P.required_string(params, "pattern")
    path = P.one_path(params, "dir_path", "path")
    include = P.optional_string(params, "include")
    # ERR-7: no searched line and no file name can hold a NUL byte.
    for name, value in (("pattern", pattern_text), ("include", include)):
        if value is not None and "\0" in value:
            raise invalid(f"parameter '{name}' contains a NUL byte, which no line or file name can contain")
    try:
        pattern = re.compile(pattern_text)
    except (re.error, RecursionError, OverflowError, ValueError) as err:
        raise invalid(f"pattern {pattern_text!r} is not a valid regular expression: {err}") from None
    return SearchParams(pattern, pattern_text, path, include)


# ---------------------------------------------------------------------------
# Reading and matching one file
# ---------------------------------------------------------------------------

def _read_regular(path: str, follow: bool) -> bytes:
    """Read a regular file. Opened non-blocking (a FIFO swapped in after the
    check must not hang us) and re-checked with ``fstat``."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise IsADirectoryError(f"not a regular file: {path}")
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def is_binary(data: bytes) -> bool:
    """SEARCH-8: a file is binary when it contains a NUL byte."""
    return b"\0" in data


def split_lines(data: bytes) -> List[str]:
    """SEARCH-10: lines are split on ``\\n``; the terminator is not part of
    the text, and a final ``\\n`` does not start another line."""
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def match_data(pattern: "re.Pattern[str]", path: str, data: bytes) -> List[Match]:
    if is_binary(data):
        return []
    return [
        Match(path, number, line)
        for number, line in enumerate(split_lines(data), start=1)
        if pattern.search(line) is not None
    ]


# ---------------------------------------------------------------------------
# Walking a directory (SEARCH-4, SEC-7, SEARCH-11)
# ---------------------------------------------------------------------------

def walk_files(top: str, strict_top: bool) -> Iterator[Tuple[str, str]]:
    """Every regular file below ``top`` as (absolute lexical path, base name).

    ``top`` itself is opened normally (it may be a link to a directory inside
    the workspace); nothing below it is reached through a symbolic link.
    Unreadable directories below ``top`` are skipped silently; ``top`` itself
    too unless ``strict_top``, in which case its error is raised as a
    ToolError (SEARCH-11)."""
    stack = [top]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError as err:
            if strict_top and directory == top:
                raise error_for_os_error(err, top, action="list") from None
            continue
        subdirs = []
        for entry in entries:
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    subdirs.append(join(directory, entry.name))
                elif entry.is_file(follow_symlinks=False):
                    yield join(directory, entry.name), entry.name
            except OSError:
                continue
        stack.extend(reversed(subdirs))


def search_directory(
    top: str,
    pattern: "re.Pattern[str]",
    include: Optional[Callable[[str], bool]],
    strict_top: bool = True,
) -> List[Match]:
    """A directory target: a top directory that cannot be listed is
    ``permission_denied`` (SEARCH-11), unless ``strict_top`` is false (a root
    in all-workspaces mode), when it is skipped like everything below."""
    found: List[Match] = []
    for path, name in walk_files(top, strict_top):
        if include is not None and not include(name):
            continue
        try:
            data = _read_regular(path, follow=False)
        except OSError:
            continue  # unreadable (or changed under us): skipped silently
        found.extend(match_data(pattern, path, data))
    return found


def file_is_binary(path: str) -> bool:
    """Whether the file target holds a NUL byte (SEARCH-8)."""
    try:
        return is_binary(_read_regular(path, follow=True))
    except OSError:
        return False


def search_file(path: str, pattern: "re.Pattern[str]") -> List[Match]:
    """SEARCH-5: the file alone, never its directory. SEARCH-11: a file that
    cannot be opened is ``permission_denied`` (or ``not_found``)."""
    try:
        data = _read_regular(path, follow=True)
    except OSError as err:
        raise error_for_os_error(err, path, action="read") from None
    return match_data(pattern, path, data)


# ---------------------------------------------------------------------------
# The tool
# ---------------------------------------------------------------------------

def run(workspace: Workspace, params: Mapping[str, Any]) -> SearchResult:
    """Run grep/ripgrep. Raises ToolError for error results."""
    p = parse_params(params)
    target: Target = resolve_target(workspace, p.path)
    include = globmod.compile_glob(p.include) if p.include is not None else None
    if target.kind == FILE:
        notes = [INCLUDE_IGNORED] if p.include is not None else []
        matches = search_file(target.path, p.pattern)
        if file_is_binary(target.path):
            notes.append(BINARY)  # SEARCH-8: not searched, and said so
        desc = f"'{p.pattern_text}' in file {target.path}"
        return SearchResult(FILE, target.path, sorted(set(matches)), notes, desc)
    if target.kind == DIRECTORY:
        matches = search_directory(target.path, p.pattern, include)
        desc = f"'{p.pattern_text}' in {target.path}"
        return SearchResult(DIRECTORY, target.path, sorted(set(matches)), [], desc)
    # all-workspaces: every root, as if given as a directory (SEARCH-3). With
    # nested roots a line could be found twice; it is reported once.
    # Roots that are one directory through a link reach a file under several
    # lexical paths: it is reported once, under the first root (SEARCH-10).
    matches = []
    for root in workspace.roots:
        matches.extend(search_directory(root, p.pattern, include, strict_top=False))
    seen = set()
    once = []
    for m in matches:
        key = (os.path.realpath(m.path), m.line)
        if key not in seen:
            seen.add(key)
            once.append(m)
    matches = once
    desc = f"'{p.pattern_text}' in all workspace directories"
    return SearchResult(ALL_WORKSPACES, None, sorted(set(matches)), [], desc)
