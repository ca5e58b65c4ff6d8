#!/usr/bin/env python3
"""Adapters that break the protocol or the process rules, one way per mode,
for toolpath's own tests of how the harness supervises adapters.

Calls are answered by the reference (`$TOOLPATH_BIN serve`, through
mutant.py's Reference) unless the mode says otherwise. The misbehaviour
applies to calls whose case id matches CASE-GLOB (default: all).

If BROKEN_PIDS names a file, every process this script starts (itself, and
any grandchild) appends its pid there, so a test can check none outlives
the run. If BROKEN_READY names a FIFO, the script writes one line to it when
it starts misbehaving, so a test can act at that moment without sleeping.

usage: broken.py MODE [CASE-GLOB]

modes, before `hello`:
  exit-before-hello   writes to stderr and exits 5 without answering
  protocol-2          answers `hello` with protocol 2
  silent              never answers anything
modes, on a matching call:
  close-stdout        closes standard output and keeps running
  extra-result        answers, then at once sends a second `result`
                      carrying the next seq
  long-line           writes a line of LONG_LINE_MB (default 500) MiB,
                      without a newline, 1 MiB at a time
  grandchild          answers, after starting a grandchild that leaves the
                      process group (setsid) and sleeps
  hang                stops answering (sleeps), with a child in its process
                      group that sleeps too
  report-uid          answers with an error whose message names its uid
                      and TMPDIR, and says its uid on stderr
"""

import fnmatch
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutant import Reference, send  # noqa: E402


def record_pid(pid, grandchild=False):
    path = os.environ.get("BROKEN_PIDS")
    if path:
        for name in [path, path + ".grandchildren"] if grandchild else [path]:
            with open(name, "a") as f:
                f.write(f"{pid}\n")


def ready():
    path = os.environ.get("BROKEN_READY")
    if path:
        with open(path, "w") as f:
            f.write("ready\n")


def forever():
    while True:
        time.sleep(3600)


def before_hello(mode):
    if mode == "exit-before-hello":
        print("broken.py: exiting before hello", file=sys.stderr, flush=True)
        sys.exit(5)
    if mode == "silent":
        ready()
        forever()


def long_line():
    ready()
    chunk = b"x" * (1 << 20)
    try:
        for _ in range(int(os.environ.get("LONG_LINE_MB", "500"))):
            sys.stdout.buffer.write(chunk)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        os._exit(0)
    forever()


def misbehave(mode, message, result):
    """Acts on a matching call; returns normally to answer `result`."""
    if mode == "close-stdout":
        sys.stdout.close()
        os.close(1)
        ready()
        forever()
    elif mode == "extra-result":
        extra = dict(result, seq=result["seq"] + 1)
        # One write: both lines reach the pipe together.
        sys.stdout.write(json.dumps(result) + "\n" + json.dumps(extra) + "\n")
        sys.stdout.flush()
        return False
    elif mode == "long-line":
        long_line()
    elif mode == "grandchild":
        child = subprocess.Popen(["sleep", "600"], start_new_session=True)
        record_pid(child.pid, grandchild=True)
    elif mode == "hang":
        # Stays in the adapter's process group: only a group kill (or, after
        # a SIGKILLed harness, `toolpath clean`) ends it.
        child = subprocess.Popen(["sleep", "600"])
        record_pid(child.pid)
        ready()
        forever()
    elif mode == "report-uid":
        uid = os.getuid()
        print(f"broken.py: answering as uid {uid}", file=sys.stderr, flush=True)
        send({"type": "result", "seq": result["seq"], "outcome": "error",
              "error": {"code": "invalid_params",
                        "message": f"uid {uid}, scratch {os.environ['TMPDIR']}/x"}})
        return False
    return True


def main():
    mode = sys.argv[1]
    pattern = sys.argv[2] if len(sys.argv) > 2 else "*"
    record_pid(os.getpid())
    before_hello(mode)
    ref = Reference()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        answer = ref.ask(message)
        if message["type"] == "hello":
            if mode == "protocol-2":
                answer["protocol"] = 2
            send(answer)
            continue
        if not fnmatch.fnmatchcase(message["case"], pattern) or misbehave(mode, message, answer):
            send(answer)


if __name__ == "__main__":
    main()
