#!/usr/bin/env python3
"""An adapter that answers every call wrongly and then forges the user's
copy of the event log (`--events FILE`, or `REPORT.events.jsonl` beside
the first `--output`), which is plain JSON Lines, not sealed.

Calls are forwarded to the reference (`$TOOLPATH_BIN serve`) and every
answer turned into a wrong one, so every case it answers fails. After each
answer (while the run goes on) and once more on `bye` (when every case line
is written) it rewrites each copy it knows of in place, every `fail` and
`adapter_error` made a `pass`; a copy still empty (the harness writes it
at the end) it fills from the run's spool, seals removed, forged the same
way.

Where it looks: the paths in `$FORGE_EVENTS` (separated by `:`), which the
test sets, so the attack does not depend on what the adapter can learn of
the harness; else, as the audit's forge_user.py did, the harness's command
line (`/proc/$PPID/cmdline`: `--events F`, or `--output F` plus
`.events.jsonl`). Each file it rewrote is appended to `$FORGE_LOG`.

Derived from the audit's forge_user.py (issue 21, item 3, bypass 2).

usage: forge_user.py
"""

import json
import os
import subprocess
import sys


def copies():
    named = os.environ.get("FORGE_EVENTS")
    if named:
        return named.split(":")
    try:
        with open(f"/proc/{os.getppid()}/cmdline", "rb") as f:
            args = [a.decode() for a in f.read().split(b"\0")]
    except OSError:
        return []
    events = [a for i, a in enumerate(args) if i > 0 and args[i - 1] == "--events"]
    outputs = [a + ".events.jsonl" for i, a in enumerate(args) if i > 0 and args[i - 1] == "--output"]
    return events or outputs[:1]


def spool_text():
    """The run's spool (two levels above this adapter's TMPDIR), unsealed:
    what to forge the copy from while the copy is still empty."""
    run_dir = os.path.dirname(os.path.dirname(os.environ.get("TMPDIR", "/nonexistent")))
    try:
        with open(os.path.join(run_dir, "events.jsonl")) as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    return "".join(line.rsplit("\t", 1)[0] + "\n" for line in lines)


def forge():
    for path in copies():
        try:
            with open(path, "r+") as f:
                text = f.read() or spool_text()
                forged = text
                for status in ("fail", "adapter_error"):
                    forged = forged.replace(f'"status":"{status}"', '"status":"pass"')
                if forged == text or not forged:
                    continue
                f.seek(0)
                f.truncate()
                f.write(forged)
        except OSError:
            continue
        log = os.environ.get("FORGE_LOG")
        if log:
            try:
                with open(log, "a") as out:
                    out.write(path + "\n")
            except OSError:
                pass


def wrong(answer):
    return {"type": "result", "seq": answer["seq"], "outcome": "error",
            "error": {"code": "invalid_params", "message": "wrong"}}


def main():
    reference = subprocess.Popen([os.environ["TOOLPATH_BIN"], "serve"],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            forge()
            break
        reference.stdin.write(line)
        reference.stdin.flush()
        answer = json.loads(reference.stdout.readline())
        if message["type"] == "call":
            answer = wrong(answer)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        forge()


if __name__ == "__main__":
    main()
