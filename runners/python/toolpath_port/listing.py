"""The ``glob`` and ``ls`` tools (spec GLOB, LS): both take their path
through the shared resolver, so a file is accepted as well as a directory.
"""

import os
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional, Tuple

from . import params as P
from .errors import invalid
from .path_pattern import compile_pattern
from .resolve import ALL_WORKSPACES, DIRECTORY, FILE, Workspace, basename, error_for_os_error, join, resolve_target
from .search import walk_files


@dataclass
class Listing:
    kind: str
    path: Optional[str]
    files: List[str] = field(default_factory=list)
    entries: List[Tuple[str, str]] = field(default_factory=list)
    description: str = ""


def glob(workspace: Workspace, params: Mapping[str, Any]) -> Listing:
    """GLOB: every parameter is checked before the file system is touched
    (ERR-2); a file is matched alone against its base name (GLOB-4); the
    walk neither follows nor reports links (GLOB-7)."""
    P.only(params, ("pattern", "dir_path", "path"))
    text = P.required_string(params, "pattern")
    if "\0" in text:
        # ERR-7: no file name can hold a NUL byte.
        raise invalid("parameter 'pattern' contains a NUL byte, which no file name can contain")
    given = P.one_path(params, "dir_path", "path")
    matches = compile_pattern(text)
    target = resolve_target(workspace, given)
    if target.kind == FILE:
        files = [target.path] if matches(basename(target.path)) else []
        return Listing(FILE, target.path, files, description=f"'{text}' in file {target.path}")
    tops = [target.path] if target.kind == DIRECTORY else list(workspace.roots)
    found = set()
    # GLOB-8: a file reached from two roots (nested, or one directory through
    # a link) is reported once, under the first root in the workspace's order.
    reached = set()
    for top in tops:
        strict = target.kind == DIRECTORY  # GLOB-9: only a directory asked for must be listable
        for path, _name in walk_files(top, strict_top=strict):
            relative = path[len(top):].lstrip("/")
            real = os.path.realpath(path)
            if matches(relative) and real not in reached:
                reached.add(real)
                found.add(path)
    where = target.path if target.kind == DIRECTORY else "all workspace directories"
    return Listing(target.kind, target.path, sorted(found), description=f"'{text}' in {where}")


def _entry_type(entry: "os.DirEntry[str]") -> str:
    """LS-5: the type without following links (``lstat``)."""
    if entry.is_symlink():
        return "symlink"
    if entry.is_dir(follow_symlinks=False):
        return "directory"
    if entry.is_file(follow_symlinks=False):
        return "file"
    return "other"


def _list(directory: str) -> List[Tuple[str, str]]:
    """One level of ``directory`` under its lexical path; raises OSError if
    it cannot be listed. An entry whose type cannot be read is left out."""
    out = []
    with os.scandir(directory) as it:
        for entry in it:
            try:
                out.append((join(directory, entry.name), _entry_type(entry)))
            except OSError:
                continue
    return out


def ls(workspace: Workspace, params: Mapping[str, Any]) -> Listing:
    """LS: a directory lists one level, a file is its single entry (LS-4),
    no path lists every root (LS-2)."""
    P.only(params, ("dir_path", "path"))
    given = P.one_path(params, "dir_path", "path")
    target = resolve_target(workspace, given)
    if target.kind == FILE:
        return Listing(FILE, target.path, entries=[(target.path, "file")], description=f"list {target.path}")
    if target.kind == DIRECTORY:
        try:
            entries = _list(target.path)
        except OSError as err:
            raise error_for_os_error(err, target.path, action="list") from None
        return Listing(DIRECTORY, target.path, entries=sorted(set(entries)), description=f"list {target.path}")
    entries = []
    for root in workspace.roots:
        try:
            entries.extend(_list(root))
        except OSError:
            continue  # LS-7: an unlistable root is skipped in all-workspaces mode
    return Listing(ALL_WORKSPACES, None, entries=sorted(set(entries)), description="list all workspace directories")
