#!/usr/bin/env python3
"""toolpath adapter over strands-agents-tools' file_read, file_write,
editor and shell (the versions pinned in requirements.txt).

    toolpath run --adapter 'runners/strands-agents-tools/venv/bin/python runners/strands-agents-tools/adapter.py'

Speaks spec/protocol.md on stdin/stdout. The tools are registered as an
Agent registers them (`ToolRegistry().process_tools([...modules])`) and
each call streams the registered tool with a ToolUse (`{toolUseId, name,
input}`), as the agent loop's executor does: the last event is the
ToolResult (`status`, `content`), and an exception the tool raises becomes
the executor's `Error: ...` result. The tools have no workspace: a
relative path is the process's working directory's, so every call runs
in the case's target directory, as an agent started in its project.
See README.md for the mapping and what the answers cannot show.
"""

import asyncio
import json
import os
import re
import sys
from importlib.metadata import version

# The package's own switches for an agent that runs unattended: no consent
# prompt before a write, an edit or a command (BYPASS_TOOL_CONSENT), and a
# shell that neither prompts nor forwards this process's standard input
# (the protocol's) to the command (STRANDS_NON_INTERACTIVE). A command's
# own time limit (SHELL_DEFAULT_TIMEOUT, 900 s by default) is lowered to
# 5 s: the shell's forked child never exits when it cannot enter the
# directory it was given, and the tool answers only when this bound kills
# it (README.md). `pwd` and `ls` take milliseconds.
os.environ["BYPASS_TOOL_CONSENT"] = "true"
os.environ["STRANDS_NON_INTERACTIVE"] = "true"
os.environ["SHELL_DEFAULT_TIMEOUT"] = "5"

# The tools and their logs print to stdout: everything but protocol lines
# goes to stderr, the protocol keeps the original stream.
PROTOCOL_OUT = sys.stdout.buffer
sys.stdout = sys.stderr

from strands.tools.registry import ToolRegistry  # noqa: E402
from strands_tools import editor, file_read, file_write, shell  # noqa: E402

PACKAGE = "strands-agents-tools"

# Suite tool -> (the package's tool, suite parameter -> tool parameter, the
# arguments that choose the tool's operation, as a model sends them). A key
# not mapped is passed through unchanged (spec ERR-8): file_read and
# file_write read only their keys, and editor's and shell's validation
# drops the others.
TOOLS = {
    "grep": ("file_read", {"dir_path": "path", "pattern": "search_pattern"}, {"mode": "search"}),
    "glob": ("file_read", {}, {"mode": "find"}),
    "read_file": ("file_read", {"file_path": "path", "absolute_path": "path"}, {"mode": "view"}),
    "write_file": ("file_write", {"file_path": "path", "absolute_path": "path"}, {}),
    "edit": (
        "editor",
        {"file_path": "path", "absolute_path": "path", "old_string": "old_str", "new_string": "new_str"},
        {"command": "str_replace"},
    ),
    "shell": ("shell", {"dir_path": "work_dir", "directory": "work_dir"}, {}),
}

# The codes read from an error's text (spec ERR-1), first match wins: the
# tools' own texts, then Python's OSError texts passed on.
CODES = [
    # file_read, every mode: no file matched the path taken as a pattern.
    ("no files found", re.compile(r"^No files found matching pattern\(s\): "), "not_found"),
    (
        "missing parameter",
        re.compile(
            r"^Error: (path parameter is required|mode parameter is required|'(path|content)'$"
            r"|Validation failed for input parameters|Both old_str and new_str are required|Search pattern cannot be empty)"
        ),
        "invalid_params",
    ),
    ("search: empty pattern", re.compile(r"Search pattern cannot be empty"), "invalid_params"),
    ("edit: not found", re.compile(r"^Note: old_str not found in "), "invalid_params"),
    ("not a file", re.compile(r": Path is not a file: "), "unsupported_file_type"),
    ("ENOENT", re.compile(r"No such file or directory|\[Errno 2\] |File not found: "), "not_found"),
    ("ENOTDIR", re.compile(r"\[Errno 20\] "), "not_found"),
    ("ELOOP", re.compile(r"Too many levels of symbolic links|\[Errno 40\] "), "not_found"),
    ("EACCES", re.compile(r"Permission denied|\[Errno 13\] "), "permission_denied"),
    ("EISDIR", re.compile(r"Is a directory|\[Errno 21\] "), "unsupported_file_type"),
    ("ENXIO", re.compile(r"No such device or address|\[Errno 6\] "), "unsupported_file_type"),
    ("ENAMETOOLONG", re.compile(r"File name too long|\[Errno 36\] "), "invalid_params"),
    ("NUL", re.compile(r"embedded null (byte|character)"), "invalid_params"),
]

# file_read's texts for one file it could not read, which it answers with
# the status `success` (each file of a call gets its own).
PER_FILE_ERROR = re.compile(r"^Error (reading file|processing file) ")

REGISTRY = ToolRegistry()
REGISTRY.process_tools([file_read, file_write, editor, shell])


def renamed(params, names):
    """The suite's parameters under the tool's names. A second suite name
    for a parameter already filled (the path and its alias both given)
    keeps its suite name, as a model sending both would."""
    out = {}
    for key in params:
        name = names.get(key, key)
        out[key if name in out else name] = params[key]
    return out


def glob_input(params):
    """file_read's `find` takes one path, a glob: the suite's directory and
    pattern joined by `/` as a model would write them (the pattern alone
    when the directory is missing or empty, relative to the working
    directory: never `/PATTERN`). A
    value that is not a string is passed alone, for the tool to refuse.
    Given both the directory and its alias, the alias is dropped: its name
    is the joined path's, and a second key would not reach the tool
    anyway (file_read reads no key it does not know)."""
    directory = params.get("dir_path", params.get("path"))
    pattern = params.get("pattern")
    rest = {k: v for k, v in params.items() if k not in ("dir_path", "path", "pattern")}
    if directory is None or directory == "":
        joined = pattern
    elif isinstance(directory, str) and isinstance(pattern, str):
        joined = directory + pattern if directory.endswith("/") else f"{directory}/{pattern}"
    else:
        joined = directory if not isinstance(directory, str) else pattern
    return {**rest, **({} if joined is None else {"path": joined})}


def schema(tool, names):
    """The tool's parameter schema as a model sees it (its spec's
    `inputSchema.json`), under the suite's names."""
    suite = {}
    for suite_name, tool_name in names.items():
        suite.setdefault(tool_name, suite_name)
    copy = json.loads(json.dumps(REGISTRY.registry[tool].tool_spec["inputSchema"]["json"]))
    copy["properties"] = {suite.get(k, k): v for k, v in copy.get("properties", {}).items()}
    if "required" in copy:
        copy["required"] = [suite.get(k, k) for k in copy["required"]]
    return copy


def hello():
    schemas = {suite: schema(tool, names) for suite, (tool, names, _) in TOOLS.items()}
    # glob's one path is the directory and the pattern joined.
    schemas["glob"]["properties"]["dir_path"] = schemas["glob"]["properties"].pop("path")
    return {
        "implementation": {"name": PACKAGE, "version": version(PACKAGE), "language": "python"},
        "tools": list(TOOLS),
        # FIFOs are declared: the tools open them, and the harness releases
        # a call blocked on one (spec/protocol.md), failing that case.
        "features": ["symlinks", "fifos", "sockets", "devices"],
        # No tool ever names a parent directory.
        "unobservable": ["parent"],
        # What each answer cannot show (README.md):
        # - grep (file_read `search`): one text per matching line, its
        #   number and text, never the file it is in, nor what was searched;
        # - glob (file_read `find`): the paths glob gave, relative to the
        #   working directory (which it never names) when the pattern was;
        #   nothing searched named;
        # - shell: the command's output, never where it ran.
        "unobservable_by_tool": {
            "grep": ["kind", "path", "matches"],
            "glob": ["kind", "path", "files.path"],
            "shell": ["cwd"],
        },
        "schemas": schemas,
    }


async def stream(tool, tool_use):
    """The registered tool's ToolResult: the last event of its stream, or
    the executor's error result for an exception it raises (strands'
    tools/executors/_executor.py `_run_tool`)."""
    result = None
    try:
        async for event in REGISTRY.registry[tool].stream(tool_use, {}):
            result = event
    except Exception as e:  # noqa: BLE001 - as the executor converts it
        return {"toolUseId": tool_use["toolUseId"], "status": "error", "content": [{"text": f"Error: {e}"}]}
    return result.tool_result


def error(text):
    for rule, pattern, code in CODES:
        if pattern.search(text):
            return {"outcome": "error", "error": {"code": code, "message": text, "rule": rule}}
    # An error the texts above do not classify (the shell's `Command timed
    # out after 5 seconds`, a file that is not UTF-8): the closest code,
    # chosen here rather than read.
    return {
        "outcome": "error",
        "error": {"code": "invalid_params", "message": text, "rule": "default"},
        "derived": ["error.code"],
    }


def unmarked(text, pattern):
    """A matched line without the markup file_read puts around the first
    occurrence of the pattern (case folded): `[bold yellow]` before it and
    `[/bold yellow]` after. The first such span is the inserted one (an
    earlier one would hold an earlier occurrence)."""
    size = len(pattern)
    at = 0
    while True:
        at = text.find("[bold yellow]", at)
        if at < 0:
            raise ValueError(f"search line not marked as documented: {text!r}")
        inner = text[at + 13 : at + 13 + size]
        if inner.lower() == pattern.lower() and text.startswith("[/bold yellow]", at + 13 + size):
            return text[:at] + inner + text[at + 13 + size + 14 :]
        at += 1


def grep_matches(texts, pattern):
    """Each text is one match with its context: `→ N: line` for the match,
    `  N: line` around it (file_read `search`, two lines by default)."""
    matches = []
    for text in texts:
        marked = [line for line in text.split("\n") if line.startswith("→ ")]
        if len(marked) != 1:
            raise ValueError(f"search result not as documented: {text!r}")
        row = re.fullmatch(r"→ (\d+): (.*)", marked[0], re.S)
        if not row:
            raise ValueError(f"search line not as documented: {marked[0]!r}")
        matches.append({"path": "", "line": int(row.group(1)), "text": unmarked(row.group(2), pattern)})
    return matches


def shell_output(texts):
    """The command's output from its block, `Command: C\\nStatus: S\\nExit
    Code: N\\nOutput: O\\nError: E`, with the terminal's framing taken off:
    the shell runs commands on a pseudo-terminal, which writes every `\\n`
    as `\\r\\n` (so `\\r\\n` back to `\\n` is exact)."""
    if len(texts) != 2:
        raise ValueError(f"shell answered {len(texts)} blocks, not a summary and one command")
    row = re.fullmatch(r"Command: .*?\nStatus: \w+\nExit Code: -?\d+\nOutput: (.*)\nError: (.*)", texts[1], re.S)
    if not row:
        raise ValueError(f"shell block not as documented: {texts[1]!r}")
    return row.group(1).replace("\r\n", "\n")


def answer(call):
    suite = call["tool"]
    if suite not in TOOLS:
        return {"outcome": "unsupported", "reason": f"{PACKAGE} has no {suite} tool"}
    tool, names, fixed = TOOLS[suite]
    params = call["params"]
    tool_input = glob_input(params) if suite == "glob" else renamed(params, names)
    # The editor keeps what it read and wrote in a cache for the process's
    # life, keyed by the path as given (`src/a.ts`): a new agent starts
    # with it empty, and so does every call here (another case's file of
    # that name is not this one's).
    editor.CONTENT_HISTORY.clear()
    os.chdir(call["workspace"]["target"])
    result = asyncio.run(stream(tool, {"toolUseId": "toolpath", "name": tool, "input": {**fixed, **tool_input}}))
    blocks = result.get("content", [])
    texts = [block["text"] for block in blocks if "text" in block]
    if len(texts) != len(blocks):
        raise TypeError(f"{tool} answered a block that is not text: {blocks!r}")
    text = "\n".join(texts)
    if result["status"] != "success":
        return error(text)
    if texts and all(PER_FILE_ERROR.match(t) for t in texts):
        # Every file the call named failed: the answer is its error texts,
        # under the status `success`.
        return error(text)
    out = {"outcome": "ok", "model_text": text}
    if suite == "grep":
        pattern = params.get("pattern")
        found = [t for t in texts if not PER_FILE_ERROR.match(t)]
        out.update(matches=grep_matches(found, pattern) if isinstance(pattern, str) else [], notes=[])
    elif suite == "glob":
        found = re.fullmatch(r"Found \d+ files:\n(.*)", text, re.S)
        if not found:
            raise ValueError(f"find answer not as documented: {text!r}")
        out.update(files=found.group(1).split("\n"), notes=[])
    elif suite == "read_file":
        one = re.fullmatch(r"Content of (.*?):\n(.*)", text, re.S)
        # One file read: its text after the header that names it as
        # matched. Several (a directory, a pattern, a comma in the path):
        # no one file's content to report.
        if len(texts) == 1 and one:
            out.update(kind="file", path=one.group(1), content=one.group(2), notes=[])
        else:
            out.update(notes=[])
    elif suite == "write_file":
        wrote = re.fullmatch(r"File write success: File written successfully to (.*)", text, re.S)
        if wrote:
            out.update(kind="file", path=wrote.group(1))
    elif suite == "edit":
        # `File: PATH` after its first line, PATH as given (a newline in
        # it included).
        edited = re.match(r"[^\n]*\nFile: (.*?)\nReplaced \d+ occurrences?\nOld string: ", text, re.S)
        if edited:
            out.update(kind="file", path=edited.group(1))
    elif suite == "shell":
        out.update(output=shell_output(texts))
    return out


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
            # An exception here (an answer shaped otherwise than
            # documented) ends the process with its traceback on stderr:
            # the case fails as an adapter error and the harness restarts us.
            send({"type": "result", "seq": message["seq"], **answer(message)})
        else:  # bye
            return


if __name__ == "__main__":
    main()
