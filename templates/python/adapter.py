#!/usr/bin/env python3
"""A toolpath adapter skeleton (protocol 1), written by `toolpath new-adapter`.

Run the suite against it at once:

    toolpath run --adapter 'python3 adapter.py'

It declares one tool, `resolve`, wired to a first, naive version (it folds
the path but checks nothing), so some of its cases pass and the rest fail
with a diff that shows what is missing; the other tools' cases are reported
"unsupported" until you move each from NOT_YET_IMPLEMENTED to TOOLS. Replace
each TODO with a call into your own tool, then keep `expectations.yaml` for
what still fails:

    toolpath run --adapter 'python3 adapter.py' --write-expectations expectations.yaml

The protocol and the spec come with toolpath: `toolpath export DIR` writes
them (spec/protocol.md, spec/README.md). stdout carries protocol lines only;
log to stderr.
"""

import json
import os
import sys
import traceback

# TODO: name your implementation.
IMPLEMENTATION = {"name": "my-agent-tools", "version": "0.0.0", "language": "python"}
# The tools this adapter implements: only these are declared in `hello`, and
# cases for any other tool are reported "unsupported", never sent.
TOOLS = ["resolve"]
# The tools of the protocol with a stub below, not declared until written (a
# declared stub would fail every case of its tool with the same TODO).
NOT_YET_IMPLEMENTED = ["grep", "ripgrep", "shell", "glob", "ls", "read_file", "write_file", "edit"]
# Fixture features your implementation can handle (symlinks, fifos, sockets, devices).
FEATURES = ["symlinks"]
# Result fields your tools never show, for every tool, and per tool (for an
# `ls` that prints bare names: {"ls": ["entries.path"]}). An expectation on
# such a field is "not checked", and the case is reported "unobserved",
# never passed. Names: spec/protocol.md, "What is observed".
UNOBSERVABLE = []
UNOBSERVABLE_BY_TOOL = {}
# Never fill a field your tool did not give you: an entry path composed from
# the request's path, a `cwd` copied from the request, an error code chosen
# by a default rule are not observations. If an answer needs one, name it in
# that result's "derived" list (e.g. {"derived": ["error.code"]}): it then
# counts as not observed for that answer.


def lexical(base, path):
    """Joins `path` onto `base` and folds `.`, `..` and `//` textually (spec RES-2, RES-3)."""
    parts = []
    for segment in (path if path.startswith("/") else base + "/" + path).split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if parts:
                parts.pop()
        else:
            parts.append(segment)
    return "/" + "/".join(parts)


def resolve(workspace, params):
    """The shared resolver. TODO: call your own; this one checks nothing
    but its parameters (ERR-2: a key it does not take is refused)."""
    unknown = sorted(set(params) - {"path"})
    if unknown:
        message = f"resolve takes no parameter {', '.join(unknown)}"
        return {"outcome": "error", "error": {"code": "invalid_params", "message": message}}
    path = params.get("path")
    if not path:
        return {"outcome": "ok", "kind": "all-workspaces"}
    resolved = lexical(workspace["target"], path)
    # TODO: containment on real paths (SEC-1..3), then not_found /
    # permission_denied (RES-8, RES-9) and unsupported_file_type (RES-10).
    kind = "directory" if os.path.isdir(resolved) else "file"
    return {"outcome": "ok", "kind": kind, "path": resolved}


def grep(workspace, params):
    # TODO: run your grep tool on params["pattern"], params.get("dir_path"),
    # params.get("include") and translate: kind, path, matches
    # [{"path", "line", "text"}], notes (["include_ignored"] or []).
    raise NotImplementedError("grep")


def shell(workspace, params):
    # TODO: run your shell tool with params["command"] (the suite sends "pwd" or "ls")
    # in params.get("dir_path"); answer {"outcome": "ok", "cwd": ...}.
    raise NotImplementedError("shell")


def glob(workspace, params):
    # TODO: run your glob tool on params["pattern"] and params.get("dir_path")
    # (alias "path"; a file is matched alone by its name, spec GLOB-4) and
    # translate: kind, path, files (absolute paths of the matching files).
    raise NotImplementedError("glob")


def ls(workspace, params):
    # TODO: run your ls tool on params.get("dir_path") (alias "path"; a file
    # is its own single entry, spec LS-4) and translate: kind, path, entries
    # [{"path", "type"}] with type file, directory, symlink or other. A tool
    # that prints bare names does not tell you the directory: declare
    # "entries.path" unobservable for ls, or mark the answer "derived".
    raise NotImplementedError("ls")


def read_file(workspace, params):
    # TODO: run your read tool on params["file_path"] (alias "absolute_path";
    # it must be absolute, spec FILE-3) and translate: kind "file", path,
    # content (the file's text), notes ([] or ["binary"], spec FILE-5).
    raise NotImplementedError("read_file")


def write_file(workspace, params):
    # TODO: run your write tool on params["file_path"] and params["content"]
    # and translate: kind "file", path. toolpath checks the disk itself.
    raise NotImplementedError("write_file")


def edit(workspace, params):
    # TODO: run your edit tool on params["file_path"], params["old_string"]
    # and params["new_string"] and translate: kind "file", path.
    raise NotImplementedError("edit")


HANDLERS = {"resolve": resolve, "grep": grep, "ripgrep": grep, "shell": shell, "glob": glob, "ls": ls,
            "read_file": read_file, "write_file": write_file, "edit": edit}


def answer(call):
    try:
        return HANDLERS[call["tool"]](call["workspace"], call["params"])
    except NotImplementedError as missing:
        # Honest: a tool moved to TOOLS before it is written fails its cases.
        message = f"TODO: {missing} is not implemented"
    except Exception as bug:  # keep the loop alive; the case fails and says why
        traceback.print_exc(file=sys.stderr)
        message = f"adapter bug: {bug!r}"
    return {"outcome": "error", "error": {"code": "invalid_params", "message": message}}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            reply = {"type": "hello", "protocol": 1, "implementation": IMPLEMENTATION,
                     "tools": TOOLS, "features": FEATURES, "unobservable": UNOBSERVABLE,
                     "unobservable_by_tool": UNOBSERVABLE_BY_TOOL}
        elif message["type"] == "call":
            reply = {"type": "result", "seq": message["seq"], **answer(message)}
        else:  # bye
            return
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
