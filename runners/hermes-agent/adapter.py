#!/usr/bin/env python3
"""toolpath adapter over hermes-agent's tools (NousResearch, the version
pinned in requirements.txt).

    toolpath run --adapter 'runners/hermes-agent/venv/bin/python runners/hermes-agent/adapter.py'

Speaks spec/protocol.md on stdin/stdout. Every call goes through hermes's
own tool registry as its gateways drive it for a workspace: a fresh task
id whose working directory is the case's target
(`register_task_env_overrides`), `registry.dispatch(name, arguments)`, and
the task's state cleared afterwards. The answer is read from the one JSON
string the tool gives the model. See README.md for the mapping and what
the answers cannot show.
"""

import json
import os
import re
import shutil
import sys
import tempfile
import uuid
from importlib.metadata import version

# hermes prints banners and notices to stdout on import and on first use:
# everything but protocol lines goes to stderr, the protocol keeps the
# original stream.
PROTOCOL_OUT = sys.stdout.buffer
sys.stdout = sys.stderr

# Before import: hermes reads its home (config, state.db, logs, caches it
# creates at once) from HERMES_HOME, by default ~/.hermes. A private one
# under this process's TMPDIR (the harness's, fresh per process) keeps
# everything it writes there. The local backend runs commands on this
# machine, as an agent on a developer's machine does.
HERMES_HOME = tempfile.mkdtemp(prefix="hermes-home-")
os.environ["HERMES_HOME"] = HERMES_HOME
os.environ["TERMINAL_ENV"] = "local"

import tools.file_tools as file_tools  # noqa: E402  (registers the file tools)
import tools.terminal_tool as terminal_tool  # noqa: E402  (registers terminal)
from tools.registry import registry  # noqa: E402

PACKAGE = "hermes-agent"

# Suite tool -> (hermes tool, suite parameter -> hermes parameter, the
# arguments that choose the tool's mode). Aliases map onto the tool's one
# path parameter; a key not mapped is passed through unchanged for the tool
# to take or ignore (hermes ignores unknown keys: spec ERR-8 then fails,
# as it should).
TOOLS = {
    "grep": (
        "search_files",
        {"dir_path": "path", "path": "path", "include": "file_glob"},
        {"target": "content"},
    ),
    "glob": ("search_files", {"dir_path": "path", "path": "path"}, {"target": "files"}),
    "shell": ("terminal", {"dir_path": "workdir", "directory": "workdir"}, {}),
    "read_file": ("read_file", {"file_path": "path", "absolute_path": "path"}, {}),
    "write_file": ("write_file", {"file_path": "path", "absolute_path": "path"}, {}),
    "edit": ("patch", {"file_path": "path", "absolute_path": "path"}, {"mode": "replace"}),
}

# The codes read from a failure's text (spec ERR-1), first match wins. The
# tools' own refusals first, then what the shell commands and rg they run
# said (passed on in the text).
CODES = [
    ("safe-root", re.compile(r"denied: '.*' is outside HERMES_WRITE_SAFE_ROOT"), "outside_workspace"),
    ("protected-path", re.compile(r"denied: '.*' is a protected system/credential file"), "permission_denied"),
    ("sensitive-path", re.compile(r"Refusing to write to sensitive system path: "), "permission_denied"),
    (
        "read-block",
        re.compile(r"Access denied: .* is (an internal Hermes|a Hermes|the Hermes|a secret-bearing)"),
        "permission_denied",
    ),
    ("device", re.compile(r"Cannot read '.*': this is a device file"), "unsupported_file_type"),
    ("symlink-loop", re.compile(r"Symlink loop from "), "not_found"),
    ("file-not-found", re.compile(r"File not found: "), "not_found"),
    ("path-not-found", re.compile(r"Path not found: "), "not_found"),
    (
        "missing-param",
        re.compile(r"missing required field 'path'|path required|old_string and new_string required"),
        "invalid_params",
    ),
    ("content-type", re.compile(r"'content' must be a string|missing required field 'content'"), "invalid_params"),
    ("workdir-chars", re.compile(r"Blocked: workdir contains disallowed character"), "invalid_params"),
    ("nul", re.compile(r"embedded null (byte|character)"), "invalid_params"),
    ("regex", re.compile(r"Search failed: (regex parse error|error parsing glob)"), "invalid_params"),
    (
        "occurrences",
        re.compile(
            r"Could not find (a )?match for old_string|Found \d+ matches for old_string"
            r"|old_string cannot be empty|old_string and new_string are identical"
        ),
        "invalid_params",
    ),
    ("syntax-gate", re.compile(r"Refusing to write '.*': candidate content fails"), "invalid_params"),
    # What a shell command or rg printed (merged into the tool's text).
    ("ENAMETOOLONG", re.compile(r"File name too long"), "invalid_params"),
    ("ENOENT", re.compile(r"No such file or directory"), "not_found"),
    ("ENOTDIR", re.compile(r"Not a directory"), "not_found"),
    ("ELOOP", re.compile(r"Too many levels of symbolic links"), "not_found"),
    ("EACCES", re.compile(r"Permission denied"), "permission_denied"),
    ("EISDIR", re.compile(r"Is a directory"), "unsupported_file_type"),
    # A socket or a device without a driver, opened by rg or a command.
    ("ENXIO", re.compile(r"No such device or address"), "unsupported_file_type"),
]

# The shell: `cd WORKDIR` failing before the command runs (its exit code is
# not 0 and bash names the `cd`), by what bash said.
CD_FAILURES = [
    ("cd: ENOENT", re.compile(r"\bcd: .*: No such file or directory"), "not_found"),
    ("cd: ENOTDIR", re.compile(r"\bcd: .*: Not a directory"), "not_a_directory"),
    ("cd: EACCES", re.compile(r"\bcd: .*: Permission denied"), "permission_denied"),
    ("cd: ELOOP", re.compile(r"\bcd: .*: Too many levels of symbolic links"), "not_found"),
]

# read_file numbers every line `N|text` (no option turns it off): the one
# framing taken off (spec/protocol.md, `content`).
NUMBERED_LINE = re.compile(r"(\d+)\|(.*)", re.S)


def renamed(params, names):
    """The suite's parameters under the tool's names. A second suite name
    for a parameter already filled (the path and its alias both given)
    keeps its suite name, as a model sending both would; a suite name that
    is the tool's own (search_files' `path`) fills it first."""
    out = {}
    for key in sorted(params, key=lambda key: names.get(key, key) != key):
        name = names.get(key, key)
        out[key if name in out else name] = params[key]
    return out


def schema(tool, names):
    """The tool's parameter schema as the model sees it, under the suite's names."""
    suite = {}
    for suite_name, tool_name in names.items():
        suite.setdefault(tool_name, suite_name)
    copy = json.loads(json.dumps(registry.get_schema(tool)["parameters"]))
    copy["properties"] = {suite.get(k, k): v for k, v in copy.get("properties", {}).items()}
    if "required" in copy:
        copy["required"] = [suite.get(k, k) for k in copy["required"]]
    return copy


def hello():
    return {
        "implementation": {"name": PACKAGE, "version": version(PACKAGE), "language": "python"},
        "tools": list(TOOLS),
        # FIFOs are declared: hermes opens them (`wc -c <` a FIFO blocks
        # until its own three-minute command timeout), which the call
        # timeout turns into a failure of that case, as it should.
        "features": ["symlinks", "fifos", "sockets", "devices"],
        # No tool ever names a parent directory.
        "unobservable": ["parent"],
        # What each tool's JSON answer cannot show (README.md):
        # - grep, glob: matches and files, never what was searched nor its kind;
        # - shell: the command's output and exit code, never where it ran;
        # - read_file: the numbered text, never the file's path.
        "unobservable_by_tool": {
            "grep": ["kind", "path"],
            "glob": ["kind", "path"],
            "shell": ["cwd"],
            "read_file": ["kind", "path"],
        },
        "schemas": {suite: schema(tool, names) for suite, (tool, names, _) in TOOLS.items()},
    }


def dispatch(tool, arguments, target):
    """One tool call as hermes's gateway makes it for a workspace at `target`."""
    task = f"toolpath-{uuid.uuid4().hex}"
    terminal_tool.register_task_env_overrides(task, {"cwd": target})
    try:
        return registry.dispatch(tool, arguments, task_id=task, session_id=task)
    finally:
        terminal_tool.cleanup_vm(task, force_remove=True)
        terminal_tool.clear_task_env_overrides(task)
        file_tools.clear_file_ops_cache(task)


def code_of(failure, rules=CODES):
    """(rule, code) of the first of `rules` that reads `failure`, else None."""
    for rule, pattern, code in rules:
        if pattern.search(failure):
            return rule, code
    return None


def error(text, failure, rules=CODES):
    """An error answer: its code read from `failure` (the tool's error
    text) by `rules`, its message `text` (all the tool said)."""
    read = code_of(failure, rules)
    if read:
        rule, code = read
        return {"outcome": "error", "error": {"code": code, "message": text, "rule": rule}}
    # A failure the texts above do not classify: the closest code, chosen
    # here rather than read.
    return {
        "outcome": "error",
        "error": {"code": "invalid_params", "message": text, "rule": "default"},
        "derived": ["error.code"],
    }


def unnumbered(numbered):
    """read_file's text without its `N|` line numbers, which count from 1."""
    lines = []
    for expected, line in enumerate(numbered.split("\n"), start=1):
        framed = NUMBERED_LINE.fullmatch(line)
        if not framed or int(framed.group(1)) != expected:
            raise ValueError(f"read_file line {expected} is not numbered as documented: {line!r}")
        lines.append(framed.group(2))
    return "\n".join(lines)


def dense_matches(block):
    """The matches of search_files' `matches_text` (five or more): a path
    line, then `  LINE: text` per match in that file."""
    matches, path = [], None
    for line in block.split("\n"):
        row = re.fullmatch(r"  (\d+): (.*)", line, re.S)
        if row and path is not None:
            matches.append({"path": path, "line": int(row.group(1)), "text": row.group(2)})
        else:
            path = line
    return matches


def with_paths(result, field, paths, key=None):
    """Puts the found paths in `field`, as the tool gave them. rg names a
    file relative to the searched directory's path as given, so a relative
    search answers relative paths, relative to a directory the answer does
    not name: such an answer's paths are not full paths read from the tool,
    and are named in `derived` (compared by base name)."""
    if any(not (p[key] if key else p).startswith("/") for p in paths):
        result.setdefault("derived", []).append(f"{field}.path")
    result[field] = paths


def answer(call):
    suite = call["tool"]
    if suite not in TOOLS:
        return {"outcome": "unsupported", "reason": f"{PACKAGE} has no {suite} tool"}
    tool, names, mode = TOOLS[suite]
    text = dispatch(tool, {**renamed(call["params"], names), **mode}, call["workspace"]["target"])
    # A search may append a hint after the JSON: the first value is the answer.
    body, _ = json.JSONDecoder().raw_decode(text)
    if suite == "shell":
        if body.get("error"):
            return error(text, body["error"])
        output = body.get("output") or ""
        if body.get("exit_code") != 0 and code_of(output, CD_FAILURES):
            return error(text, output, CD_FAILURES)
        # The command ran (whatever its exit code): its output is the answer.
        return {"outcome": "ok", "output": body.get("output"), "model_text": text}
    if body.get("error"):
        return error(text, str(body["error"]))
    result = {"outcome": "ok", "model_text": text}
    notes = ["truncated"] if body.get("truncated") else []
    if suite == "grep":
        if "matches_text" in body:
            matches = dense_matches(body["matches_text"])
        else:
            matches = [
                {"path": m["path"], "line": m["line"], "text": m["content"]}
                for m in body.get("matches", [])
            ]
        with_paths(result, "matches", matches, "path")
        result["notes"] = notes
    elif suite == "glob":
        with_paths(result, "files", body.get("files", []))
        result["notes"] = notes
    elif suite == "read_file":
        if body.get("is_binary"):
            result["notes"] = ["binary", *notes]
        else:
            result.update(content=unnumbered(body["content"]), notes=notes)
    elif "resolved_path" in body:
        # write_file, patch: the absolute path the tool wrote, as it resolved it.
        result.update(kind="file", path=body["resolved_path"])
    return result


def send(message):
    # Non-UTF-8 names reach Python as lone surrogates, which UTF-8 cannot
    # carry: they become U+FFFD.
    line = json.dumps(message, ensure_ascii=False).encode("utf-8", "replace")
    PROTOCOL_OUT.write(line + b"\n")
    PROTOCOL_OUT.flush()


def main():
    try:
        for raw in sys.stdin.buffer:
            message = json.loads(raw.decode("utf-8", "surrogateescape"))
            if message["type"] == "hello":
                send({"type": "hello", "protocol": 1, **hello()})
            elif message["type"] == "call":
                # An exception here (an answer shaped otherwise than
                # documented) ends the process with its traceback on
                # stderr: the case fails as an adapter error and the
                # harness restarts us.
                send({"type": "result", "seq": message["seq"], **answer(message)})
            else:  # bye
                return
    finally:
        shutil.rmtree(HERMES_HOME, ignore_errors=True)


if __name__ == "__main__":
    main()
