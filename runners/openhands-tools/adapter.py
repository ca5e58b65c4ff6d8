#!/usr/bin/env python3
"""toolpath adapter over OpenHands' tools (openhands-tools and
openhands-sdk, the versions pinned in requirements.txt).

    toolpath run --adapter 'runners/openhands-tools/venv/bin/python runners/openhands-tools/adapter.py'

Speaks spec/protocol.md on stdin/stdout. Every call builds the tool's
executor as the tool's own `create` does for a conversation whose
workspace is the case's target (`GrepExecutor(working_dir=TARGET)`, the
gemini file tools' `workspace_root=TARGET`), validates the arguments into
the tool's own pydantic Action and runs the executor on it; the answer is
read from the Observation it returns. See README.md for the mapping and
what the observations cannot show.
"""

import json
import os
import re
import sys
from importlib.metadata import version

# The SDK prints a banner and logs to stdout: everything but protocol lines
# goes to stderr, the protocol keeps the original stream.
PROTOCOL_OUT = sys.stdout.buffer
sys.stdout = sys.stderr

# Before import: litellm fetches a model price map over the network unless
# told to use its local copy; the SDK's banner and logging are quietened.
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
os.environ["LOG_LEVEL"] = "ERROR"
os.environ["OPENHANDS_SUPPRESS_BANNER"] = "1"

from openhands.sdk.llm import TextContent  # noqa: E402
from openhands.tools.gemini.edit.definition import EditAction  # noqa: E402
from openhands.tools.gemini.edit.impl import EditExecutor  # noqa: E402
from openhands.tools.gemini.list_directory.definition import ListDirectoryAction  # noqa: E402
from openhands.tools.gemini.list_directory.impl import ListDirectoryExecutor  # noqa: E402
from openhands.tools.gemini.read_file.definition import ReadFileAction  # noqa: E402
from openhands.tools.gemini.read_file.impl import ReadFileExecutor  # noqa: E402
from openhands.tools.gemini.write_file.definition import WriteFileAction  # noqa: E402
from openhands.tools.gemini.write_file.impl import WriteFileExecutor  # noqa: E402
from openhands.tools.glob.definition import GlobAction  # noqa: E402
from openhands.tools.glob.impl import GlobExecutor  # noqa: E402
from openhands.tools.grep.definition import GrepAction  # noqa: E402
from openhands.tools.grep.impl import GrepExecutor  # noqa: E402
from pydantic import ValidationError  # noqa: E402

PACKAGE = "openhands-tools"

# grep and glob resolve a relative `path` against the process's working
# directory, not their `working_dir` (README.md). The process runs in its
# own TMPDIR (fresh per process, outside every root): what a relative path
# reaches there is what it reaches in an agent started elsewhere than its
# workspace, and never the harness's checkout.
os.chdir(os.environ.get("TMPDIR") or "/tmp")

# Suite tool -> (Action, executor built for the target, suite parameter ->
# tool parameter). Aliases map onto the tool's one path parameter; a key
# not mapped is passed through unchanged (the Actions forbid unknown keys:
# pydantic refuses them, as spec ERR-8 asks).
TOOLS = {
    "grep": (GrepAction, lambda t: GrepExecutor(working_dir=t), {"dir_path": "path"}),
    "glob": (GlobAction, lambda t: GlobExecutor(working_dir=t), {"dir_path": "path"}),
    "ls": (
        ListDirectoryAction,
        lambda t: ListDirectoryExecutor(workspace_root=t),
        {"path": "dir_path"},
    ),
    "read_file": (
        ReadFileAction,
        lambda t: ReadFileExecutor(workspace_root=t),
        {"absolute_path": "file_path"},
    ),
    "write_file": (
        WriteFileAction,
        lambda t: WriteFileExecutor(workspace_root=t),
        {"absolute_path": "file_path"},
    ),
    "edit": (EditAction, lambda t: EditExecutor(workspace_root=t), {"absolute_path": "file_path"}),
}

# The codes read from an error observation's text (spec ERR-1), first
# match wins: the tools' own texts, then Python's OSError texts they pass
# on (`[Errno N] ...`).
CODES = [
    ("not-found", re.compile(r"^Error: (File|Directory) not found: "), "not_found"),
    ("permission", re.compile(r"^Error: Permission denied: "), "permission_denied"),
    ("is-directory", re.compile(r"^Error: Path is a directory, not a file: "), "unsupported_file_type"),
    ("not-directory", re.compile(r"^Error: Path is not a directory: "), "unsupported_file_type"),
    ("not-text", re.compile(r"^Error: File is not a text file: "), "unsupported_file_type"),
    ("regex", re.compile(r"^Invalid regex pattern: "), "invalid_params"),
    (
        "occurrences",
        re.compile(
            r"^Error: (Could not find the string to replace|Expected \d+ occurrences? but found"
            r"|No changes to apply|Cannot create file that already exists)"
        ),
        "invalid_params",
    ),
    ("ENOENT", re.compile(r"\[Errno 2\] "), "not_found"),
    ("ENOTDIR", re.compile(r"\[Errno 20\] "), "not_found"),
    ("ELOOP", re.compile(r"\[Errno 40\] |Symlink loop"), "not_found"),
    ("EACCES", re.compile(r"\[Errno 13\] "), "permission_denied"),
    ("EISDIR", re.compile(r"\[Errno 21\] "), "unsupported_file_type"),
    ("ENXIO", re.compile(r"\[Errno 6\] "), "unsupported_file_type"),
    ("ENAMETOOLONG", re.compile(r"\[Errno 36\] "), "invalid_params"),
    ("NUL", re.compile(r"embedded null (byte|character)"), "invalid_params"),
]

# read_file numbers every line `%6d` and two spaces (no option turns it
# off): the one framing taken off (spec/protocol.md, `content`).
NUMBERED = re.compile(r" *(\d+)  (.*)", re.S)


def renamed(params, names):
    """The suite's parameters under the tool's names. A second suite name
    for a parameter already filled (the path and its alias both given)
    keeps its suite name, as a model sending both would; a suite name that
    is the tool's own fills it first."""
    out = {}
    for key in sorted(params, key=lambda key: names.get(key, key) != key):
        name = names.get(key, key)
        out[key if name in out else name] = params[key]
    return out


def schema(action, names):
    """The Action's parameter schema as a model sees it, under the suite's names."""
    suite = {}
    for suite_name, tool_name in names.items():
        suite.setdefault(tool_name, suite_name)
    copy = action.model_json_schema()
    copy["properties"] = {suite.get(k, k): v for k, v in copy.get("properties", {}).items()}
    if "required" in copy:
        copy["required"] = [suite.get(k, k) for k in copy["required"]]
    return copy


def hello():
    return {
        "implementation": {"name": PACKAGE, "version": version(PACKAGE), "language": "python"},
        "tools": list(TOOLS),
        # FIFOs are declared: the tools open them, and the harness releases
        # a call blocked on one (spec/protocol.md), failing that case.
        "features": ["symlinks", "fifos", "sockets", "devices"],
        # No tool ever names a parent directory.
        "unobservable": ["parent"],
        # What each observation cannot show (README.md):
        # - grep: the files that matched (rg -l -i), never a line or its
        #   text, and never the kind of what was searched;
        # - glob, ls: what was searched, never its kind.
        "unobservable_by_tool": {
            "grep": ["kind", "matches"],
            "glob": ["kind"],
            "ls": ["kind"],
        },
        "schemas": {suite: schema(action, names) for suite, (action, _, names) in TOOLS.items()},
    }


def text_of(observation):
    """What the model is given: the observation's LLM content, its text parts."""
    return "".join(c.text for c in observation.to_llm_content if isinstance(c, TextContent))


def error(message, text):
    """An error answer: its code read from `text` (the observation's own
    text), its message what the model is given."""
    for rule, pattern, code in CODES:
        if pattern.search(text):
            return {"outcome": "error", "error": {"code": code, "message": message, "rule": rule}}
    # A failure the texts above do not classify (grep and glob's "is not a
    # valid directory", said of a missing path and of a file alike): the
    # closest code, chosen here rather than read.
    return {
        "outcome": "error",
        "error": {"code": "invalid_params", "message": message, "rule": "default"},
        "derived": ["error.code"],
    }


def unnumbered(numbered):
    """read_file's text without its `%6d  ` line numbers, which count from 1."""
    if numbered == "":
        return ""
    lines = numbered.split("\n")
    last = lines.pop() if numbered.endswith("\n") else None
    if last not in (None, ""):
        raise ValueError(f"read_file text ends oddly: {numbered[-80:]!r}")
    out = []
    for expected, line in enumerate(lines, start=1):
        framed = NUMBERED.fullmatch(line)
        if not framed or line[:8] != f"{expected:6d}  ":
            raise ValueError(f"read_file line {expected} is not numbered as documented: {line!r}")
        out.append(framed.group(2))
    return "\n".join(out) + ("\n" if last is not None else "")


def answer(call):
    suite = call["tool"]
    if suite not in TOOLS:
        return {"outcome": "unsupported", "reason": f"{PACKAGE} has no {suite} tool"}
    action_type, executor, names = TOOLS[suite]
    try:
        action = action_type(**renamed(call["params"], names))
    except ValidationError as invalid:
        # The tool's own Action refused the arguments before running.
        return {
            "outcome": "error",
            "error": {"code": "invalid_params", "message": str(invalid), "rule": "pydantic ValidationError"},
        }
    observation = executor(call["workspace"]["target"])(action)
    model_text = text_of(observation)
    if observation.is_error:
        return error(model_text, observation.text)
    result = {"outcome": "ok", "model_text": model_text}
    if suite == "grep":
        # The files with a match, as rg listed them (links resolved), and
        # the directory searched.
        result.update(path=observation.search_path, notes=["truncated"] if observation.truncated else [])
    elif suite == "glob":
        result.update(
            path=observation.search_path,
            files=list(observation.files),
            notes=["truncated"] if observation.truncated else [],
        )
    elif suite == "ls":
        result.update(
            path=observation.dir_path,
            entries=[
                {"path": e.path, "type": "directory" if e.is_directory else "file"}
                for e in observation.entries
            ],
            notes=["truncated"] if observation.is_truncated else [],
        )
    elif suite == "read_file":
        notes = ["truncated"] if observation.is_truncated else []
        result.update(
            kind="file",
            path=observation.file_path,
            content=unnumbered(observation.file_content),
            notes=notes,
        )
    elif observation.file_path:
        # write_file, edit: the path the tool wrote, as it names it.
        result.update(kind="file", path=observation.file_path)
    return result


def send(message):
    # Non-UTF-8 names reach Python as lone surrogates, which UTF-8 cannot
    # carry: they become U+FFFD.
    line = json.dumps(message, ensure_ascii=False).encode("utf-8", "replace")
    PROTOCOL_OUT.write(line + b"\n")
    PROTOCOL_OUT.flush()


def main():
    for raw in sys.stdin.buffer:
        message = json.loads(raw.decode("utf-8", "surrogateescape"))
        if message["type"] == "hello":
            send({"type": "hello", "protocol": 1, **hello()})
        elif message["type"] == "call":
            # An exception here (one the tool did not catch, or an answer
            # shaped otherwise than documented) ends the process with its
            # traceback on stderr: the case fails as an adapter error and
            # the harness restarts us.
            send({"type": "result", "seq": message["seq"], **answer(message)})
        else:  # bye
            return


if __name__ == "__main__":
    main()
