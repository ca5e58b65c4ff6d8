#!/usr/bin/env python3
"""toolpath adapter over crewai-tools' file tools (crewai-tools, the version
pinned in requirements.txt).

    toolpath run --adapter 'runners/crewai-tools/venv/bin/python runners/crewai-tools/adapter.py'

Speaks spec/protocol.md on stdin/stdout. Every call runs in the case's
target directory (the tools' default sandbox is the process's working
directory, and `DirectoryReadTool` has no other), builds the tool with its
defaults, as a crew is given it (`FileReadTool()`, `FileWriterTool()`,
`DirectoryReadTool()`), and calls it the way crewAI's agent executor calls
a native tool call: the callable `convert_tools_to_openai_schema` hands
it (the tool's `run`, which validates the arguments against its
`args_schema`), an exception becoming the `Error executing tool: ...` text
the model is shown, and the result made into the model's text by
`format_native_tool_output_for_agent`. See README.md for the mapping and
what the strings cannot show.
"""

import json
import os
import re
import sys
from importlib.metadata import version

# crewAI's telemetry would export spans over the network: off, as its own
# switches turn it off. The path checks' bypass is crewai-tools' escape
# hatch, never the default a crew runs with: it is taken out of the
# environment so the row certifies the default.
os.environ["CREWAI_DISABLE_TELEMETRY"] = "true"
os.environ["CREWAI_DISABLE_TRACKING"] = "true"
os.environ["OTEL_SDK_DISABLED"] = "true"
os.environ.pop("CREWAI_TOOLS_ALLOW_UNSAFE_PATHS", None)

# crewAI prints through rich: everything but protocol lines goes to
# stderr, the protocol keeps the original stream.
PROTOCOL_OUT = sys.stdout.buffer
sys.stdout = sys.stderr

from crewai.utilities.agent_utils import (  # noqa: E402
    convert_tools_to_openai_schema,
    format_native_tool_output_for_agent,
)
from crewai_tools import DirectoryReadTool, FileReadTool, FileWriterTool  # noqa: E402

PACKAGE = "crewai-tools"

# Suite tool -> (tool class, suite parameter -> tool parameter, parameters
# the adapter adds). A key not mapped is passed through unchanged: the
# tool's `args_schema` decides what it does with a key it lacks (spec ERR-8).
TOOLS = {
    "ls": (DirectoryReadTool, {"dir_path": "directory", "path": "directory"}, {}),
    "read_file": (FileReadTool, {"file_path": "file_path", "absolute_path": "file_path"}, {}),
    # The suite's write replaces a file that exists: the tool refuses to
    # unless asked (`overwrite`, false by default), so it is asked.
    "write_file": (FileWriterTool, {"file_path": "filename", "absolute_path": "filename"}, {"overwrite": True}),
}

# The codes read from an error's text (spec ERR-1), first match wins: the
# tools' own texts, then the operating system's error texts they pass on
# (`strerror`, which names no path).
CODES = [
    ("NUL", re.compile(r"embedded null (byte|character)"), "invalid_params"),
    ("containment", re.compile(r"Path '.*' is outside the allowed directory", re.S), "outside_workspace"),
    ("containment", re.compile(r"^Error: Invalid file path — the filename must not escape the target directory"), "outside_workspace"),
    ("validation", re.compile(r"^Error executing tool: Tool '.*' arguments validation failed: ", re.S), "invalid_params"),
    ("not-found", re.compile(r"^Error: File not found at path: "), "not_found"),
    ("permission", re.compile(r"^Error: Permission denied when trying to read file: "), "permission_denied"),
    ("file where a directory is needed", re.compile(r"^Error: Cannot write to .* because a file already exists where a directory is needed", re.S), "not_found"),
    ("ENOENT", re.compile(r"No such file or directory"), "not_found"),
    ("ENOTDIR", re.compile(r"Not a directory$"), "not_found"),
    ("ELOOP", re.compile(r"Too many levels of symbolic links"), "not_found"),
    ("EACCES", re.compile(r"Permission denied"), "permission_denied"),
    ("EISDIR", re.compile(r"Is a directory"), "unsupported_file_type"),
    ("ENXIO", re.compile(r"No such device or address"), "unsupported_file_type"),
    ("ENAMETOOLONG", re.compile(r"File name too long"), "invalid_params"),
]

# The texts that are a failure: the file tools answer `Error: ...`, the
# writer also `An error occurred while writing to the file: ...` and
# `File X already exists ...`; an exception (DirectoryReadTool raises its
# refusals) is the executor's `Error executing tool: ...`.
FAILURE = re.compile(
    r"^(Error: |Error executing tool: |An error occurred while writing to the file: |File .* already exists and overwrite option was not passed\.$)",
    re.S,
)

# DirectoryReadTool's answer: `File paths: \n-` and the paths joined by
# `\n- ` (the first one has no space after its dash).
LISTING = "File paths: \n-"


def renamed(params, names, added):
    """The suite's parameters under the tool's names, and the ones the
    adapter adds. A second suite name for a parameter already filled (a
    path and its alias both given) keeps its suite name, as a model
    sending both would; a suite name that is the tool's own fills it
    first."""
    out = {}
    for key in sorted(params, key=lambda key: names.get(key, key) != key):
        name = names.get(key, key)
        out[key if name in out else name] = params[key]
    for key, value in added.items():
        out.setdefault(key, value)
    return out


def native(tool):
    """The tool as crewAI's agent executor sees it: its OpenAI function
    schema and the callable a native tool call runs."""
    schemas, functions, _ = convert_tools_to_openai_schema([tool])
    name = schemas[0]["function"]["name"]
    return schemas[0]["function"]["parameters"], functions[name]


def schema(cls, names, added):
    """The tool's parameter schema as a model sees it, under the suite's
    names; the parameters the adapter fills itself are left out."""
    suite = {}
    for suite_name, tool_name in names.items():
        suite.setdefault(tool_name, suite_name)
    copy = json.loads(json.dumps(native(cls())[0]))
    copy["properties"] = {suite.get(k, k): v for k, v in copy.get("properties", {}).items() if k not in added}
    if "required" in copy:
        copy["required"] = [suite.get(k, k) for k in copy["required"] if k not in added]
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
        # What each tool's one string cannot show (README.md):
        # - ls: the files under the directory, at every depth, by real
        #   path, never the directory itself nor its kind;
        # - read_file: the file's text alone, no path and no kind.
        "unobservable_by_tool": {
            "ls": ["kind", "path"],
            "read_file": ["kind", "path"],
        },
        "schemas": {suite: schema(cls, names, added) for suite, (cls, names, added) in TOOLS.items()},
    }


def error(text):
    for rule, pattern, code in CODES:
        if pattern.search(text):
            return {"outcome": "error", "error": {"code": code, "message": text, "rule": rule}}
    # A text the rules above do not classify (DirectoryReadTool's `Path 'X'
    # is not a directory.`, said alike of a file and of a missing path;
    # FileReadTool's `Failed to decode file`): the closest code, chosen
    # here rather than read.
    return {
        "outcome": "error",
        "error": {"code": "not_found" if "is not a directory" in text else "unsupported_file_type", "message": text, "rule": "default"},
        "derived": ["error.code"],
    }


def answer(call):
    suite = call["tool"]
    if suite not in TOOLS:
        return {"outcome": "unsupported", "reason": f"{PACKAGE} has no file tool for {suite}"}
    cls, names, added = TOOLS[suite]
    # The tools' sandbox is the working directory when the tool is built
    # and called, as for a crew run in its project.
    os.chdir(call["workspace"]["target"])
    tool = cls()
    _, run = native(tool)
    try:
        raw = run(**renamed(call["params"], names, added))
    except Exception as e:  # noqa: BLE001: the executor's own handling
        raw = f"Error executing tool: {e}"
    text = format_native_tool_output_for_agent(tool, raw)
    if FAILURE.match(text):
        return error(text)
    result = {"outcome": "ok", "model_text": text}
    if suite == "ls":
        if not text.startswith(LISTING):
            raise ValueError(f"DirectoryReadTool answered otherwise than documented: {text[:200]!r}")
        rest = text[len(LISTING) :]
        # Every path it gives is a file's (os.walk's files: whatever is not
        # a directory), as its `File paths:` says.
        paths = rest.split("\n- ") if rest else []
        result.update(entries=[{"path": p, "type": "file"} for p in paths], notes=[])
    elif suite == "read_file":
        result.update(content=text, notes=[])
    elif suite == "write_file":
        # `Content successfully written to PATH`, PATH relative to the
        # working directory (the tool's real path of it).
        wrote = re.fullmatch(r"Content successfully written to (.*)", text, re.S)
        if not wrote:
            raise ValueError(f"FileWriterTool answered otherwise than documented: {text[:200]!r}")
        result.update(kind="file", path=wrote.group(1))
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
