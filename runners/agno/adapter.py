#!/usr/bin/env python3
"""toolpath adapter over agno's CodingTools toolkit (agno, the version
pinned in requirements.txt).

    toolpath run --adapter 'runners/agno/venv/bin/python runners/agno/adapter.py'

Speaks spec/protocol.md on stdin/stdout. Every call builds the toolkit as
an agent's tools are built, `CodingTools(base_dir=TARGET, all=True)` with
its defaults (`restrict_to_base_dir=True`), and calls the tool's Function
the way an agent's run does (`FunctionCall(function, arguments).execute()`,
which validates the arguments against the tool's signature); the answer
is read from the one string the tool returns. See README.md for the
mapping and what the strings cannot show.
"""

import json
import re
import sys
from importlib.metadata import version

# agno logs to stdout through rich: everything but protocol lines goes to
# stderr, the protocol keeps the original stream.
PROTOCOL_OUT = sys.stdout.buffer
sys.stdout = sys.stderr

from agno.tools.coding import CodingTools  # noqa: E402
from agno.tools.function import FunctionCall  # noqa: E402

PACKAGE = "agno"

# Suite tool -> (CodingTools tool, suite parameter -> tool parameter). A
# key not mapped is passed through unchanged: the Function's validation
# refuses a keyword its signature lacks (spec ERR-8).
TOOLS = {
    "grep": ("grep", {"dir_path": "path"}),
    "glob": ("find", {"dir_path": "path"}),
    "ls": ("ls", {"dir_path": "path"}),
    "read_file": ("read_file", {"absolute_path": "file_path"}),
    "write_file": ("write_file", {"absolute_path": "file_path", "content": "contents"}),
    "edit": ("edit_file", {"absolute_path": "file_path", "old_string": "old_text", "new_string": "new_text"}),
}

# The codes read from an answer that starts `Error` (spec ERR-1), first
# match wins: the toolkit's own refusal and texts, then what `grep` said
# on its standard error, then Python's OSError texts passed on.
CODES = [
    ("containment", re.compile(r"^Error: Path '.*' is outside the allowed base directory", re.S), "outside_workspace"),
    ("not-found", re.compile(r"^Error: (File|Path) not found: "), "not_found"),
    ("permission", re.compile(r"^Error: Permission denied: "), "permission_denied"),
    ("not-a-file", re.compile(r"^Error: Not a file: "), "unsupported_file_type"),
    (
        "invalid",
        re.compile(r"^Error: (Pattern cannot be empty|old_text cannot be empty|old_text not found in |old_text matches \d+ locations)"),
        "invalid_params",
    ),
    ("grep: regex", re.compile(r"grep: (Unmatched|Invalid|Trailing backslash)"), "invalid_params"),
    ("ENOENT", re.compile(r"No such file or directory|\[Errno 2\] "), "not_found"),
    ("ENOTDIR", re.compile(r"\[Errno 20\] "), "not_found"),
    ("ELOOP", re.compile(r"Too many levels of symbolic links|\[Errno 40\] |Symlink loop"), "not_found"),
    ("EACCES", re.compile(r"Permission denied|\[Errno 13\] "), "permission_denied"),
    ("EISDIR", re.compile(r"Is a directory|\[Errno 21\] "), "unsupported_file_type"),
    ("ENXIO", re.compile(r"No such device or address|\[Errno 6\] "), "unsupported_file_type"),
    ("ENAMETOOLONG", re.compile(r"File name too long|\[Errno 36\] "), "invalid_params"),
    ("NUL", re.compile(r"embedded null (byte|character)"), "invalid_params"),
]

# read_file numbers every line `{n:>W} | ` (W the width of the last
# number, at least 4), and adds a `[Showing lines ...]` footer when it
# stopped early: the one framing taken off (spec/protocol.md, `content`).
FOOTER = re.compile(r"\n\[Showing lines \d+-(\d+) of \d+ total\]$")


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


def function(toolkit, name):
    """The tool's Function as an agent's run prepares it (its parameters
    read from the method's signature and docstring)."""
    f = toolkit.functions[name]
    f.process_entrypoint()
    return f


def schema(toolkit, name, names):
    """The tool's parameter schema as a model sees it, under the suite's names."""
    suite = {}
    for suite_name, tool_name in names.items():
        suite.setdefault(tool_name, suite_name)
    copy = json.loads(json.dumps(function(toolkit, name).parameters))
    copy["properties"] = {suite.get(k, k): v for k, v in copy.get("properties", {}).items()}
    if "required" in copy:
        copy["required"] = [suite.get(k, k) for k in copy["required"]]
    return copy


def hello():
    toolkit = CodingTools(base_dir="/", all=True)
    return {
        "implementation": {"name": PACKAGE, "version": version(PACKAGE), "language": "python"},
        "tools": list(TOOLS),
        # FIFOs are declared: the tools open them, and the harness releases
        # a call blocked on one (spec/protocol.md), failing that case.
        "features": ["symlinks", "fifos", "sockets", "devices"],
        # No tool ever names a parent directory.
        "unobservable": ["parent"],
        # What each tool's one string cannot show (README.md):
        # - grep: `PATH:LINE:text` with PATH relative to the toolkit's
        #   base directory, which it never names (a file searched alone:
        #   no PATH at all), and neither what was searched nor its kind;
        # - glob: paths relative to that base directory; nothing searched named;
        # - ls: bare names, `/` after a directory's: no path and no kind;
        # - read_file: the numbered text, never the file's path.
        "unobservable_by_tool": {
            "grep": ["kind", "path", "matches.path"],
            "glob": ["kind", "path", "files.path"],
            "ls": ["kind", "path", "entries.path"],
            "read_file": ["kind", "path"],
        },
        "schemas": {suite: schema(toolkit, name, names) for suite, (name, names) in TOOLS.items()},
    }


def error(text):
    for rule, pattern, code in CODES:
        if pattern.search(text):
            return {"outcome": "error", "error": {"code": code, "message": text, "rule": rule}}
    # An error the texts above do not classify (`Not a directory: X`, said
    # by find and ls of a file; `Binary file detected`): the closest code,
    # chosen here rather than read.
    return {
        "outcome": "error",
        "error": {"code": "invalid_params", "message": text, "rule": "default"},
        "derived": ["error.code"],
    }


def unnumbered(text):
    """read_file's text without its line numbers and footer. The numbers'
    width is that of the last line selected: the footer's second number
    when there is one (the text may then have been cut, by whole lines, to
    none at all), else the count of lines shown."""
    footer = FOOTER.search(text)
    body = text[: footer.start()] if footer else text
    lines = body.split("\n")
    if footer and body == "":
        return "", True
    width = max(len(str(int(footer.group(1)) if footer else len(lines))), 4)
    out = []
    for expected, line in enumerate(lines, start=1):
        prefix = f"{expected:>{width}} | "
        if not line.startswith(prefix):
            raise ValueError(f"read_file line {expected} is not numbered as documented: {line!r}")
        out.append(line[len(prefix) :])
    return "\n".join(out), footer is not None


def grep_matches(text):
    """`grep -rn`'s lines: `PATH:LINE:text`, or `LINE:text` for a file
    searched alone; a footer line in brackets when cut."""
    matches, truncated = [], False
    for line in text.removesuffix("\n").split("\n"):
        if re.fullmatch(r"\[(Results limited to \d+ matches|Output truncated: \d+ lines total)\]", line):
            truncated = True
            continue
        row = re.fullmatch(r"(?:(.*?):)?(\d+):(.*)", line, re.S)
        if not row:
            raise ValueError(f"grep line not as documented: {line!r}")
        matches.append({"path": row.group(1) or "", "line": int(row.group(2)), "text": row.group(3)})
    return matches, truncated


def answer(call):
    suite = call["tool"]
    if suite not in TOOLS:
        return {"outcome": "unsupported", "reason": f"{PACKAGE}'s CodingTools has no {suite} tool"}
    name, names = TOOLS[suite]
    toolkit = CodingTools(base_dir=call["workspace"]["target"], all=True)
    executed = FunctionCall(function=function(toolkit, name), arguments=renamed(call["params"], names)).execute()
    if executed.status != "success":
        # The Function's validation refused the arguments (or the call
        # raised): agno hands the model this text.
        return {
            "outcome": "error",
            "error": {"code": "invalid_params", "message": str(executed.error), "rule": "FunctionCall failure"},
        }
    text = executed.result
    if not isinstance(text, str):
        raise TypeError(f"{name} answered {type(text).__name__}, not a string")
    if text.startswith("Error"):
        return error(text)
    result = {"outcome": "ok", "model_text": text}
    if suite == "grep":
        if text.startswith("No matches found for pattern: "):
            result.update(matches=[], notes=[])
        else:
            matches, truncated = grep_matches(text)
            result.update(matches=matches, notes=["truncated"] if truncated else [])
    elif suite == "glob":
        if text.startswith("No files found matching pattern: "):
            result.update(files=[], notes=[])
        else:
            lines = text.split("\n")
            truncated = lines[-1].startswith("[Results limited to ")
            # A directory that matched ends with `/`: not a file.
            files = [line for line in lines[: -1 if truncated else None] if not line.endswith("/")]
            result.update(files=files, notes=["truncated"] if truncated else [])
    elif suite == "ls":
        if text.startswith("Directory is empty: "):
            result.update(entries=[], notes=[])
        else:
            lines = text.split("\n")
            truncated = lines[-1].startswith("[Listing limited to ")
            result.update(
                entries=[
                    {"path": line.rstrip("/"), "type": "directory" if line.endswith("/") else "file"}
                    for line in lines[: -1 if truncated else None]
                ],
                notes=["truncated"] if truncated else [],
            )
    elif suite == "read_file":
        if text.startswith("File is empty: "):
            result.update(content="", notes=[])
        else:
            content, truncated = unnumbered(text)
            result.update(content=content, notes=["truncated"] if truncated else [])
    elif suite == "write_file":
        # `Wrote N lines to PATH`: PATH as the call gave it.
        wrote = re.fullmatch(r"Wrote \d+ lines to (.*)", text, re.S)
        if wrote:
            result.update(kind="file", path=wrote.group(1))
    elif suite == "edit":
        # A unified diff whose `+++ b/PATH` names the file as the call gave it.
        edited = re.search(r"^\+\+\+ b/(.*)$", text, re.M)
        if edited:
            result.update(kind="file", path=edited.group(1))
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
            # An exception here (an answer shaped otherwise than
            # documented) ends the process with its traceback on stderr:
            # the case fails as an adapter error and the harness restarts us.
            send({"type": "result", "seq": message["seq"], **answer(message)})
        else:  # bye
            return


if __name__ == "__main__":
    main()
