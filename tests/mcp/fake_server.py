#!/usr/bin/env python3
"""A fake MCP file server for toolpath's tests: no SDK, stdio JSON-RPC.

It answers right by default, so a profile that reads it right passes, and
misbehaves on request so every verdict an MCP run adds has something that
must trip it. `FAKE_MODES` (comma-separated) selects the misbehaviour:

  noise         writes a line that is not JSON-RPC before each tool answer
  hang          never answers an `info` call whose path contains `hang`
  linger        does not exit when its standard input closes
  text-errors   reports failures as `[NOT_FOUND] ...` text, not `isError`
  vague         error texts that no errno or message rule names
  async-roots   takes new MCP roots only after three more `allowed` calls
  paged         lists its tools in two pages
  ping          asks the client `ping` and an unknown method first, and
                exits (status 3) unless they are answered as MCP says
  bad-protocol  answers `initialize` with a protocol revision nobody speaks
  follow-dangling  `write` checks only the lexical path of a file that does
                not exist, so a dangling link inside leads the write outside
  crlf          `read` answers `\r\n` line endings as `\n`

Roots come from `--root DIR` arguments, or over MCP when the client offers
the `roots` capability. Relative paths are joined onto the first root.
Tools: `info {path}` (stat, following links: `path:`, `isDirectory:`,
`isFile:` lines), `list {path}` (`[FILE] name` / `[DIR] name` / `[OTHER]
name`, links not followed), `allowed {}` (one root per line), and the file
tools: `read {path}` (the text, nothing else), `write {path, content}`
(`Wrote PATH`) and `edit {path, edits: [{old, new}]}` (`Edited PATH`; the
arguments nest, as server-filesystem's `edit_file` does). A write or edit
is contained on the real path (a dangling link counts as its target).
"""

import json
import os
import signal
import stat
import sys

MODES = set(filter(None, os.environ.get("FAKE_MODES", "").split(",")))
roots = []
argv = sys.argv[1:]
while argv:
    flag = argv.pop(0)
    if flag == "--root" and argv:
        roots.append(argv.pop(0))

pending_roots = None  # (roots, allowed calls still to wait)
next_id = 1000
waiting = {}  # id of our request -> what it was for


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def request(method, params=None, purpose=None):
    global next_id
    next_id += 1
    message = {"jsonrpc": "2.0", "id": next_id, "method": method}
    if params is not None:
        message["params"] = params
    waiting[next_id] = purpose or method
    send(message)


def lexical(path):
    base = roots[0] if roots else "/"
    joined = path if path.startswith("/") else base + "/" + path
    out = []
    for part in joined.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if out:
                out.pop()
        else:
            out.append(part)
    return "/" + "/".join(out)


def inside(path):
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def text(body, error=False):
    result = {"content": [{"type": "text", "text": body}]}
    if error:
        if "text-errors" in MODES:
            return {"content": [{"type": "text", "text": "[NOT_FOUND] " + body}]}
        result["isError"] = True
    return result


def failure(path, err):
    if "vague" in MODES:
        return text("something went wrong with " + path, error=True)
    name = {2: "ENOENT", 13: "EACCES", 20: "ENOTDIR", 40: "ELOOP"}.get(err.errno, "EIO")
    return text(f"{name}: {err.strerror}, stat '{path}'", error=True)


def call(name, args):
    if name == "allowed":
        global pending_roots
        if pending_roots is not None:
            new, left = pending_roots
            if left <= 0:
                roots[:] = new
                pending_roots = None
            else:
                pending_roots = (new, left - 1)
        return text("Allowed directories:\n" + "\n".join(roots))
    path = args.get("path")
    if not isinstance(path, str) or not path:
        return text("Invalid arguments: path must be a non-empty string", error=True)
    unknown = set(args) - KEYS.get(name, {"path"})
    if unknown:
        return text("Invalid arguments: unknown key " + sorted(unknown)[0], error=True)
    full = lexical(path)
    if not inside(full):
        return text(f"Access denied - path outside allowed directories: {full}", error=True)
    if name in ("read", "write", "edit"):
        return file_tool(name, args, full)
    if name == "info":
        try:
            st = os.stat(full)
        except OSError as err:
            return failure(full, err)
        is_dir = stat.S_ISDIR(st.st_mode)
        is_file = stat.S_ISREG(st.st_mode)
        return text(f"path: {full}\nisDirectory: {str(is_dir).lower()}\nisFile: {str(is_file).lower()}")
    if name == "list":
        try:
            names = sorted(os.listdir(full))
        except OSError as err:
            return failure(full, err)
        lines = [f"Contents of {full}:"]
        for entry in names:
            mode = os.lstat(os.path.join(full, entry)).st_mode
            kind = "DIR" if stat.S_ISDIR(mode) else "FILE" if stat.S_ISREG(mode) else "OTHER"
            lines.append(f"[{kind}] {entry}")
        return text("\n".join(lines))
    return None


KEYS = {"write": {"path", "content"}, "edit": {"path", "edits"}}


def file_tool(name, args, full):
    """The file tools, on the lexical path `full` (already inside)."""
    real = os.path.realpath(full)  # a dangling link: its target
    lexical_only = "follow-dangling" in MODES and not os.path.exists(full)
    if not lexical_only and not inside(real):
        return text(f"Access denied - path outside allowed directories: {full}", error=True)
    if name == "read":
        try:
            with open(full, "rb") as f:
                body = f.read().decode("utf-8", "replace")
        except OSError as err:
            return failure(full, err)
        if "crlf" in MODES:
            body = body.replace("\r\n", "\n")
        return text(body)
    if name == "write":
        content = args.get("content")
        if not isinstance(content, str):
            return text("Invalid arguments: content must be a string", error=True)
        try:
            with open(full, "w", encoding="utf-8", newline="") as f:
                f.write(content)
        except OSError as err:
            return failure(full, err)
        return text(f"Wrote {full}")
    edits = args.get("edits")
    if not isinstance(edits, list) or len(edits) != 1 or not isinstance(edits[0], dict):
        return text("Invalid arguments: edits must be a list of one {old, new}", error=True)
    old, new = edits[0].get("old"), edits[0].get("new")
    if not isinstance(old, str) or not old or not isinstance(new, str):
        return text("Invalid arguments: old must be a non-empty string and new a string", error=True)
    try:
        with open(full, "r", encoding="utf-8", newline="") as f:
            body = f.read()
        if body.count(old) != 1:
            return text(f"Invalid arguments: {old!r} occurs {body.count(old)} times in {full}", error=True)
        with open(full, "w", encoding="utf-8", newline="") as f:
            f.write(body.replace(old, new))
    except OSError as err:
        return failure(full, err)
    return text(f"Edited {full}")


TOOLS = [
    {"name": "info", "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "A file or directory, relative to the first allowed directory"}}, "required": ["path"]}},
    {"name": "list", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "allowed", "inputSchema": {"type": "object", "properties": {}}},
    {"name": "read", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "write", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}},
    {"name": "edit", "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "The absolute path of the file to edit"}, "edits": {"type": "array"}}, "required": ["path", "edits"]}},
]


def handle(message):
    global pending_roots
    method = message.get("method")
    mid = message.get("id")
    if method is None:
        # A response to one of our requests.
        purpose = waiting.pop(mid, None)
        if purpose == "roots":
            new = [r["uri"][len("file://"):] for r in message["result"]["roots"]]
            if "async-roots" in MODES and roots:
                pending_roots = (new, 3)
            else:
                roots[:] = new
        elif purpose == "ping":
            if message.get("result") != {}:
                sys.exit(3)
        elif purpose == "unknown":
            if message.get("error", {}).get("code") != -32601:
                sys.exit(3)
        return
    if method == "initialize":
        offered = "roots" in message["params"].get("capabilities", {})
        global use_mcp_roots
        use_mcp_roots = offered
        version = "1999-01-01" if "bad-protocol" in MODES else "2025-06-18"
        send({"jsonrpc": "2.0", "id": mid, "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": {"name": "fake", "version": "0.0.1"}}})
        return
    if method == "notifications/initialized":
        if "ping" in MODES:
            request("ping", purpose="ping")
            request("sampling/createMessage", {}, purpose="unknown")
        if use_mcp_roots:
            request("roots/list", purpose="roots")
        return
    if method == "notifications/roots/list_changed":
        request("roots/list", purpose="roots")
        return
    if method == "tools/list":
        cursor = (message.get("params") or {}).get("cursor")
        if "paged" in MODES and cursor is None:
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS[:1], "nextCursor": "page-2"}})
        elif "paged" in MODES:
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS[1:]}})
        else:
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
        return
    if method == "tools/call":
        params = message.get("params") or {}
        name = params.get("name")
        args = params.get("arguments") or {}
        if "hang" in MODES and name == "info" and "hang" in str(args.get("path", "")):
            return  # never answered
        result = call(name, args)
        if "noise" in MODES:
            sys.stdout.write(f"checking {args.get('path')}\n")
        if result is None:
            send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32602, "message": f"Unknown tool: {name}"}})
        else:
            send({"jsonrpc": "2.0", "id": mid, "result": result})
        return
    if mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "method not found"}})


use_mcp_roots = False
for line in sys.stdin:
    if line.strip():
        handle(json.loads(line))
if "linger" in MODES:
    signal.pause()
