"""The shell tool's working directory (spec SHELL, COMPAT-2, SEC-8, OUT-2)."""

import os
import subprocess
import sys
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional

from . import params as P
from .errors import (
    AMBIGUOUS_NAME,
    NOT_A_DIRECTORY,
    NOT_FOUND,
    ToolError,
    invalid,
)
from .resolve import (
    DIRECTORY,
    FILE,
    Workspace,
    basename,
    error_for_os_error,
    checked_lexical,
    lexical,
    lexical_path_type,
    validate,
)

# The harness waits 10 s per call by default; stop well before that.
COMMAND_TIMEOUT_SECONDS = 8.0


@dataclass
class ShellResult:
    cwd: str
    output: str
    exit_code: Optional[int]
    description: str = ""


def _validate_directory(workspace: Workspace, path: str) -> str:
    """SHELL-3: containment, then existence, then directory (SHELL-7)."""
    kind = validate(workspace, path)
    if kind != DIRECTORY:
        what = f"{path} (a regular file)" if kind == FILE else lexical_path_type(path)
        raise ToolError(NOT_A_DIRECTORY, f"not a directory: {what}")
    return path


def _matching_roots(workspace: Workspace, name: str) -> List[int]:
    """Indices of the roots whose base name is ``name``, one per distinct
    root path."""
    seen = set()
    found = []
    for index, root in enumerate(workspace.roots):
        if root != "/" and basename(root) == name and root not in seen:
            seen.add(root)
            found.append(index)
    return found


def working_directory(workspace: Workspace, given: Optional[str]) -> str:
    """The validated lexical directory the command runs in."""
    if given is None:
        return workspace.target  # SHELL-2
    candidate = checked_lexical(workspace.target, given)
    if given.startswith("/") or "/" in given:
        return _validate_directory(workspace, candidate)  # SHELL-3, SHELL-4
    # SHELL-5: one segment. A directory below the target wins; otherwise the
    # root base names; otherwise the resolution's own error.
    try:
        return _validate_directory(workspace, candidate)
    except ToolError as first_error:
        matching = _matching_roots(workspace, given)
        if len(matching) == 1:
            return _validate_directory(workspace, workspace.roots[matching[0]])
        if len(matching) > 1:
            names = ", ".join(workspace.roots_given[i] for i in matching)
            raise ToolError(
                AMBIGUOUS_NAME,
                f"'{given}' is the name of several workspace roots: {names}",
            ) from None
        raise first_error


def parse_params(params: Mapping[str, Any]):
    P.only(params, ("command", "dir_path", "directory"))
    command = P.required_string(params, "command")
    if "\0" in command:
        raise invalid("parameter 'command' contains a NUL byte")
    directory = P.one_path(params, "dir_path", "directory")
    return command, directory


def run(workspace: Workspace, params: Mapping[str, Any]) -> ShellResult:
    command, given = parse_params(params)
    cwd = working_directory(workspace, given)
    env = dict(os.environ)
    env["PWD"] = cwd  # so `pwd` reports the lexical directory
    shell = "/bin/sh" if os.path.exists("/bin/sh") else "sh"
    try:
        completed = subprocess.run(
            [shell, "-c", command],
            cwd=cwd,  # the validated lexical path itself (SHELL-6, SEC-8)
            env=env,
            stdin=subprocess.DEVNULL,  # never the protocol stream
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            timeout=COMMAND_TIMEOUT_SECONDS,
        )
    except subprocess.TimeoutExpired as err:
        out = err.stdout or b""
        sys.stderr.write(f"shell: command timed out after {COMMAND_TIMEOUT_SECONDS}s\n")
        return ShellResult(cwd, out.decode("utf-8", "replace"), None, f"{command} (timed out)")
    except OSError as err:
        # chdir failed between validation and use (or the directory cannot
        # be entered): report it on the validated path.
        if err.errno is None:
            raise ToolError(NOT_FOUND, f"cannot run in {cwd}: {err}") from None
        raise error_for_os_error(err, cwd, action="enter") from None
    if completed.stderr:
        sys.stderr.write(completed.stderr.decode("utf-8", "replace"))
        sys.stderr.flush()
    return ShellResult(
        cwd,
        completed.stdout.decode("utf-8", "replace"),
        completed.returncode,
        f"{command} [in {cwd}]",
    )
