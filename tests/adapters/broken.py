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
  silent-after-crash  the first start (the first pid in BROKEN_PIDS)
                      answers `hello` and exits 3 on its first matching
                      call; every later start never answers anything
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
  report-env          answers, after writing its environment, its working
                      directory, its own path and what
                      `git config --list --show-origin` says, as JSON, to
                      the file BROKEN_ENV names
  hang-term           stops answering; on SIGTERM says so on stderr and exits
  hang-ignore-term    stops answering and ignores SIGTERM
  flood-matches       answers a search with a line of about FLOOD_MB
                      (default 15) MiB of matches
modes for `hello`:
  deaf                answers `hello`, then never reads its input again
  huge-hello          answers `hello` with a line of 16 MiB minus a byte:
                      about 4.2 million features
  many-features       answers `hello` with 1000 features (a short line)
  typo-features       answers `hello` declaring the feature `fifo`
  typo-unobservable   answers `hello` with `parnet` in `unobservable`
  typo-by-tool        answers `hello` with `entries.paht` in
                      `unobservable_by_tool` for `ls`
  typo-by-tool-name   answers `hello` with `unobservable_by_tool` for the
                      tool `read-file`
mode on a matching call:
  typo-derived        answers, naming `error.cod` in the result's `derived`
"""

import fnmatch
import json
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutant import Reference, send  # noqa: E402


def host_pid(pid):
    """The pid the harness (and the test) sees for `pid`, a pid of this
    process's own PID namespace: the harness gives each adapter one
    (issue 30), and /proc is the harness's, so a process of that namespace
    is found there by the last field of its `NSpid`."""
    mine = os.readlink("/proc/self/ns/pid")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/ns/pid") != mine:
                continue
            with open(f"/proc/{entry}/status") as status:
                for line in status:
                    if line.startswith("NSpid:") and line.split()[-1] == str(pid):
                        return int(entry)
        except OSError:
            continue
    return pid


def record_pid(pid, grandchild=False):
    pid = host_pid(pid)
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
    if mode == "silent-after-crash":
        with open(os.environ["BROKEN_PIDS"]) as pids:
            if len(pids.read().split()) > 1:
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
    if mode == "silent-after-crash":
        os._exit(3)
    elif mode == "close-stdout":
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
    elif mode == "report-env":
        git = subprocess.run(["git", "config", "--list", "--show-origin"],
                             capture_output=True, text=True)
        with open(os.environ["BROKEN_ENV"], "w") as f:
            json.dump({"env": dict(os.environ), "git_config": git.stdout,
                       "git_status": git.returncode, "cwd": os.getcwd(),
                       "file": os.path.abspath(__file__)}, f)
    elif mode in ("hang-term", "hang-ignore-term"):
        if mode == "hang-term":
            def on_term(signum, frame):
                print("broken.py: got SIGTERM, exiting", file=sys.stderr, flush=True)
                os._exit(0)
            signal.signal(signal.SIGTERM, on_term)
        else:
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        ready()
        forever()
    elif mode == "flood-matches":
        path = result.get("path") or call_root(message)
        match = {"path": path, "line": 1, "text": "x"}
        size = int(os.environ.get("FLOOD_MB", "15")) << 20
        count = size // len(json.dumps(match))
        send({"type": "result", "seq": result["seq"], "outcome": "ok",
              "kind": result.get("kind", "file"), "path": path,
              "matches": [match] * count, "notes": [], "model_text": path})
        return False
    elif mode == "typo-derived":
        result["derived"] = ["error.cod"]
    elif mode == "report-uid":
        uid = os.getuid()
        print(f"broken.py: answering as uid {uid}", file=sys.stderr, flush=True)
        send({"type": "result", "seq": result["seq"], "outcome": "error",
              "error": {"code": "invalid_params",
                        "message": f"uid {uid}, scratch {os.environ['TMPDIR']}/x"}})
        return False
    return True


def call_root(message):
    return message["workspace"]["roots"][0]


def typo(mode, answer):
    """Misspells one name of `hello`'s typed lists, as the mode says."""
    if mode == "typo-features":
        answer["features"] = ["symlinks", "fifo"]
    elif mode == "typo-unobservable":
        answer["unobservable"] = ["parnet"]
    elif mode == "typo-by-tool":
        answer["unobservable_by_tool"] = {"ls": ["entries.paht"]}
    elif mode == "typo-by-tool-name":
        answer["unobservable_by_tool"] = {"read-file": ["content"]}


def huge_hello(answer, mode):
    """Writes the `hello` line of a huge-hello or many-features mode. The
    huge one is written in pieces, so this script stays small itself."""
    if mode == "many-features":
        # Known names, so it is the count that is refused.
        answer["features"] = ["symlinks"] * 1000
        send(answer)
        return
    # `"",` per feature: 3 bytes, so a line of 16 MiB less a byte holds
    # about 5.6 million of them.
    answer.pop("features", None)
    head = json.dumps(answer)[:-1] + ', "features": ['
    tail = '""]}\n'
    n = ((16 << 20) - 1 - len(head) - len(tail) + 1) // 3
    out = sys.stdout
    out.write(head)
    piece = '"",' * 65536
    left = n
    try:
        while left >= 65536:
            out.write(piece)
            left -= 65536
        out.write('"",' * left + tail)
        out.flush()
    except BrokenPipeError:
        os._exit(0)


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
            typo(mode, answer)
            if mode in ("huge-hello", "many-features"):
                huge_hello(answer, mode)
                continue
            send(answer)
            if mode == "deaf":
                ready()
                forever()
            continue
        if not fnmatch.fnmatchcase(message["case"], pattern) or misbehave(mode, message, answer):
            send(answer)


if __name__ == "__main__":
    main()
