"""FILE: the three file tools, ``read_file``, ``write_file`` and ``edit``.

A file tool names one file by its absolute path (FILE-3): a relative path
is refused before anything is looked at, and the refusal shows the
absolute path it would have meant, so that a model retries once. An
absolute path then goes through the same containment check as every other
tool's (``Workspace.check_inside``, SEC-1..6) before the file system says
anything about it (SEC-3), and is used as the lexical path it normalises
to (RES-4, SEC-8).

Writes decide containment on the real path of the whole path before
anything is created: a missing part keeps its place and a dangling link
leads to its target, so no directory and no file appears outside (FILE-9).
Opens never block: a FIFO is refused by type first, and every open carries
``O_NONBLOCK`` in case one was swapped in since (FILE-6).
"""

import errno
import os
import stat
from dataclasses import dataclass, field
from typing import Any, List, Mapping, Optional

from .errors import INVALID_PARAMS, UNSUPPORTED_FILE_TYPE, ToolError, invalid
from .params import one_path, only, required_string
from .resolve import (Workspace, checked_lexical, error_for_os_error, lexical, lexical_path_type,
                      parent, refuse_uri)

PATH = "file_path"
ALIAS = "absolute_path"
READ_KEYS = (PATH, ALIAS)
WRITE_KEYS = (PATH, ALIAS, "content")
EDIT_KEYS = (PATH, ALIAS, "old_string", "new_string")

BINARY = "binary"

_OPEN_FLAGS = os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC


@dataclass
class FileResult:
    """What a file tool did: the lexical path, and for a read its text (or
    None for a binary file) and notes."""

    path: str
    model_text: str
    description: str
    content: Optional[str] = None
    notes: List[str] = field(default_factory=list)


def absolute_path(workspace: Workspace, params: Mapping[str, Any]) -> str:
    """FILE-1..3: the one path given, as a normalised absolute path."""
    given = one_path(params, PATH, ALIAS)
    if given is None:
        raise invalid(f"parameter '{PATH}' is required: the absolute path of one file")
    refuse_uri(given)
    if not given.startswith("/"):
        meant = lexical(workspace.target, given)
        raise invalid(
            f"'{PATH}' must be an absolute path, but {given!r} is relative. "
            f"Relative to the target directory it would be {meant}; "
            f"pass that absolute path if it is the file you mean."
        )
    return checked_lexical("/", given, tilde=False)


def _string(params: Mapping[str, Any], name: str) -> str:
    """A required string that may be empty (``content``, ``new_string``)."""
    value = params.get(name)
    if value is None:
        raise invalid(f"parameter '{name}' is required (a string, which may be empty)")
    if not isinstance(value, str):
        raise invalid(f"parameter '{name}' must be a string, got {type(value).__name__}")
    return value


def _kind(workspace: Workspace, path: str) -> Optional[int]:
    """Containment, then ``stat`` following links: the mode of a regular
    file, or None when nothing is there (ENOENT). A directory, FIFO,
    socket or device is ``unsupported_file_type`` (FILE-6)."""
    workspace.check_inside(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise error_for_os_error(err, path) from None
    if stat.S_ISDIR(info.st_mode):
        raise ToolError(
            UNSUPPORTED_FILE_TYPE,
            f"{path} is a directory, not a file; file tools read and write single files "
            f"(use ls to list a directory)",
        )
    if not stat.S_ISREG(info.st_mode):
        raise ToolError(UNSUPPORTED_FILE_TYPE, f"not a regular file, never opened: {lexical_path_type(path)}")
    return info.st_mode


def _existing(workspace: Workspace, path: str) -> None:
    if _kind(workspace, path) is None:
        raise error_for_os_error(OSError(errno.ENOENT, os.strerror(errno.ENOENT)), path)


def _open(path: str, flags: int, action: str) -> int:
    try:
        fd = os.open(path, flags | _OPEN_FLAGS, 0o666)
    except OSError as err:
        raise error_for_os_error(err, path, action) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise ToolError(UNSUPPORTED_FILE_TYPE, f"not a regular file, never read or written: {path}")
    return fd


def _read_bytes(path: str) -> bytes:
    fd = _open(path, os.O_RDONLY, "read")
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except OSError as err:
        raise error_for_os_error(err, path, "read") from None
    finally:
        os.close(fd)


def _write_bytes(path: str, data: bytes, create: bool) -> None:
    flags = os.O_WRONLY | os.O_TRUNC | (os.O_CREAT if create else 0)
    fd = _open(path, flags, "write")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as err:
        raise error_for_os_error(err, path, "write") from None
    finally:
        os.close(fd)


def text_of(data: bytes) -> Optional[str]:
    """FILE-5: the text of a file, or None when it is binary (a NUL byte
    anywhere, or not UTF-8)."""
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def read_file(workspace: Workspace, params: Mapping[str, Any]) -> FileResult:
    only(params, READ_KEYS)
    path = absolute_path(workspace, params)
    _existing(workspace, path)
    data = _read_bytes(path)
    text = text_of(data)
    if text is None:
        return FileResult(path, f"{path}: binary file of {len(data)} bytes, not shown", f"read {path}",
                          None, [BINARY])
    return FileResult(path, f"{path} ({len(data)} bytes):\n{text}", f"read {path}", text, [])


def write_file(workspace: Workspace, params: Mapping[str, Any]) -> FileResult:
    only(params, WRITE_KEYS)
    path = absolute_path(workspace, params)
    content = _string(params, "content")
    create = _kind(workspace, path) is None
    if create:
        try:
            os.makedirs(parent(path), exist_ok=True)
        except OSError as err:
            raise error_for_os_error(err, path, "create the directories of") from None
    _write_bytes(path, content.encode("utf-8"), create)
    verb = "created" if create else "wrote"
    return FileResult(path, f"{verb} {path} ({len(content.encode('utf-8'))} bytes)", f"write {path}")


def occurrences(haystack: bytes, needle: bytes) -> int:
    """How many times ``needle`` starts in ``haystack``, overlaps counted."""
    count, start = 0, haystack.find(needle)
    while start != -1:
        count += 1
        start = haystack.find(needle, start + 1)
    return count


def edit(workspace: Workspace, params: Mapping[str, Any]) -> FileResult:
    only(params, EDIT_KEYS)
    path = absolute_path(workspace, params)
    old = required_string(params, "old_string")
    new = _string(params, "new_string")
    _existing(workspace, path)
    data = _read_bytes(path)
    old_bytes = old.encode("utf-8")
    count = occurrences(data, old_bytes)
    if count != 1:
        raise ToolError(
            INVALID_PARAMS,
            f"old_string must occur exactly once in {path}, but it occurs {count} times; "
            f"include more of the surrounding text",
        )
    at = data.find(old_bytes)
    _write_bytes(path, data[:at] + new.encode("utf-8") + data[at + len(old_bytes):], False)
    return FileResult(path, f"edited {path}: 1 replacement", f"edit {path}")
