#!/usr/bin/env python3
"""toolpath adapter (protocol version 1, spec/protocol.md) for the Python port.

Reads one JSON object per line on standard input and answers ``hello`` and
``call`` with one JSON object per line on standard output, flushed after each
line. ``bye`` (or end of input) ends the process. Standard output carries
nothing but protocol lines; diagnostics go to standard error.

Run it under the harness with:

    toolpath run --adapter 'python3 runners/python/adapter.py'
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from toolpath_port import __version__  # noqa: E402
from toolpath_port import tools  # noqa: E402

PROTOCOL_VERSION = 1
FEATURES = ["symlinks", "fifos", "sockets", "devices"]
# The port consults no ignore file at all (FILE-17). It announces one as its
# own so that the cases of an implementation's own ignore file run against
# it, as every case must: without a name they would be skipped.
IGNORE_FILES = [".toolpathignore"]


def _clean(value):
    """Make every string encodable as UTF-8: file names and file contents
    that are not UTF-8 reach us with surrogate escapes, which JSON cannot
    carry; they become U+FFFD."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            try:
                raw = value.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                raw = value.encode("utf-8", "replace")
            return raw.decode("utf-8", "replace")
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean(v) for v in value]
    return value


def send(out, message) -> None:
    line = json.dumps(_clean(message), ensure_ascii=False, separators=(",", ":"))
    out.write(line.encode("utf-8") + b"\n")
    out.flush()


def hello() -> dict:
    return {
        "type": "hello",
        "protocol": PROTOCOL_VERSION,
        "implementation": {
            "name": "toolpath-python-port",
            "version": __version__,
            "language": "python",
        },
        "tools": list(tools.TOOLS),
        "features": list(FEATURES),
        "schemas": tools.SCHEMAS,
        "ignore_files": list(IGNORE_FILES),
    }


def answer(message: dict) -> dict:
    seq = message.get("seq")
    # A bug in the port is not `unsupported` (which the harness does not
    # count): let the exception end the process with its traceback on
    # standard error, so the harness reports this case as an adapter error
    # and restarts the adapter for the next one.
    body = tools.call(message.get("tool"), message.get("workspace") or {}, message.get("params", {}))
    return {"type": "result", "seq": seq, **body}


def main() -> int:
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        raw = raw.strip()
        if not raw:
            continue
        try:
            message = json.loads(raw.decode("utf-8", "surrogateescape"))
        except ValueError as err:
            print(f"adapter: ignoring a line that is not JSON: {err}", file=sys.stderr)
            continue
        if not isinstance(message, dict):
            print("adapter: ignoring a line that is not a JSON object", file=sys.stderr)
            continue
        kind = message.get("type")
        if kind == "hello":
            send(out, hello())
        elif kind == "call":
            send(out, answer(message))
        elif kind == "bye":
            break
        else:
            print(f"adapter: ignoring message of type {kind!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
