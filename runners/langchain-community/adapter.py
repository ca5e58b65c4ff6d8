#!/usr/bin/env python3
"""toolpath adapter over LangChain's file management toolkit
(langchain-community, the version pinned in requirements.txt).

    toolpath run --adapter 'runners/langchain-community/venv/bin/python runners/langchain-community/adapter.py'

Speaks spec/protocol.md on stdin/stdout. Every call builds the toolkit as an
agent would, `FileManagementToolkit(root_dir=TARGET)`, and invokes the
tool by its registered name with the suite's parameters under the tool's
names; the answer is read from the one string the tool returns. See
README.md for the mapping and what the strings cannot show.
"""

import json
import re
import sys
import traceback
import warnings
from importlib.metadata import version

# The package warns on import that it is being sunset; warnings go to
# stderr, and only protocol lines may reach stdout.
warnings.simplefilter("ignore")

from langchain_community.agent_toolkits import FileManagementToolkit  # noqa: E402
from pydantic import ValidationError  # noqa: E402

PACKAGE = "langchain-community"

# Suite tool -> (toolkit tool name, suite parameter -> tool parameter).
# A suite alias is mapped onto the tool's one path parameter; any key not
# mapped is passed through unchanged, for the tool to take or ignore
# (pydantic drops unknown keys: spec ERR-8 then fails, as it should).
TOOLS = {
    "ls": ("list_directory", {"dir_path": "dir_path", "path": "dir_path"}),
    "glob": ("file_search", {"dir_path": "dir_path", "path": "dir_path"}),
    "read_file": ("read_file", {"file_path": "file_path", "absolute_path": "file_path"}),
    "write_file": (
        "write_file",
        {"file_path": "file_path", "absolute_path": "file_path", "content": "text"},
    ),
}

# The codes read from the tools' texts (spec ERR-1), first match wins.
# The tools' own refusal comes first; the rest are the `[Errno N]` texts of
# Python's OSError that the tools return as `Error: ` + str(e).
CODES = [
    ("containment", re.compile(r"^Error: Access denied to (dir_path|file_path): "), "outside_workspace"),
    ("missing", re.compile(r"^Error: no such file or directory: "), "not_found"),
    ("ENOENT", re.compile(r"^Error: \[Errno 2\] "), "not_found"),
    ("ENOTDIR", re.compile(r"^Error: \[Errno 20\] "), "not_found"),
    ("ELOOP", re.compile(r"^Error: \[Errno 40\] "), "not_found"),
    ("EACCES", re.compile(r"^Error: \[Errno 13\] "), "permission_denied"),
    ("EISDIR", re.compile(r"^Error: \[Errno 21\] "), "unsupported_file_type"),
]


def renamed(params, names):
    """The suite's parameters under the tool's names. A second suite name
    for a parameter already filled (the path and its alias both given)
    keeps its suite name, as a model sending both would."""
    out = {}
    for key, value in params.items():
        name = names.get(key, key)
        out[key if name in out else name] = value
    return out


def schema(tool, names):
    """The tool's parameter schema as a model sees it, under the suite's names."""
    suite = {}
    for suite_name, tool_name in names.items():
        suite.setdefault(tool_name, suite_name)
    copy = tool.args_schema.model_json_schema()
    copy["properties"] = {suite.get(k, k): v for k, v in copy.get("properties", {}).items()}
    if "required" in copy:
        copy["required"] = [suite.get(k, k) for k in copy["required"]]
    return copy


def toolkit(root):
    names = [name for name, _ in TOOLS.values()]
    tools = FileManagementToolkit(root_dir=root, selected_tools=names).get_tools()
    return {tool.name: tool for tool in tools}


def hello():
    tools = toolkit("/")
    return {
        "implementation": {"name": PACKAGE, "version": version(PACKAGE), "language": "python"},
        "tools": list(TOOLS),
        # Reading or writing a FIFO blocks the tools until the call times
        # out (10 s a case, and a restart): FIFO cases are left unsupported.
        "features": ["symlinks", "sockets", "devices"],
        # No tool ever names a parent directory.
        "unobservable": ["parent"],
        # What each tool's one string cannot show (README.md):
        # - ls: bare names, one per line: neither the listed directory, nor
        #   whether it is one, nor any entry's type;
        # - glob: paths relative to the searched directory, which it never
        #   names (reported as it gives them, judged by base name), and no
        #   kind;
        # - read_file: the file's text alone, no path and no kind.
        "unobservable_by_tool": {
            "ls": ["kind", "path", "entries"],
            "glob": ["kind", "path", "files.path"],
            "read_file": ["kind", "path"],
        },
        "schemas": {suite: schema(tools[name], names) for suite, (name, names) in TOOLS.items()},
    }


def error(text, rule, code):
    return {"outcome": "error", "error": {"code": code, "message": text, "rule": rule}}


def answer(call):
    suite = call["tool"]
    if suite not in TOOLS:
        return {"outcome": "unsupported", "reason": f"{PACKAGE} has no {suite} tool"}
    name, names = TOOLS[suite]
    tool = toolkit(call["workspace"]["target"])[name]
    try:
        text = tool.invoke(renamed(call["params"], names))
    except ValidationError as invalid:
        # The tool's own schema refused the arguments before running.
        return error(str(invalid), "pydantic ValidationError", "invalid_params")
    if text.startswith("Error: "):
        for rule, pattern, code in CODES:
            if pattern.search(text):
                return error(text, rule, code)
        # An error the texts above do not classify: the closest code, chosen
        # here rather than read.
        result = error(text, "default", "invalid_params")
        result["derived"] = ["error.code"]
        return result
    result = {"outcome": "ok", "model_text": text}
    if suite == "glob":
        # One path a line, relative to the searched directory; or a
        # sentence saying nothing was found.
        found = not text.startswith("No files found for pattern ")
        result["files"] = text.split("\n") if found else []
    elif suite == "read_file":
        result.update(content=text, notes=[])
    elif suite == "write_file":
        # `File written successfully to PATH.`: PATH as the call gave it.
        written = re.fullmatch(r"File written successfully to (.*)\.", text, re.S)
        if written:
            result.update(kind="file", path=written.group(1))
    return result


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            reply = {"type": "hello", "protocol": 1, **hello()}
        elif message["type"] == "call":
            try:
                reply = {"type": "result", "seq": message["seq"], **answer(message)}
            except Exception:
                # An exception the tool did not catch (a symbolic link loop,
                # a NUL in a path): the tool crashed. Said on stderr; the
                # case fails as an adapter error and the harness restarts us.
                traceback.print_exc(file=sys.stderr)
                sys.exit(1)
        else:  # bye
            return
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
