#!/usr/bin/env python3
"""Adapters that try to forge their verdict rather than earn it, for
toolpath's own tests of what the harness trusts.

Calls are answered by the reference (`$TOOLPATH_BIN serve`, through
mutant.py's Reference), then bent one way per mode:

  swap-cwd     a shell that runs its command in the wrong directory (the
               target, or the target's parent when that is the right one)
               and then, to hide it, moves the directory it should have run
               in aside and puts a link to the wrong one in its place: a
               harness that derives where `pwd` may have run from the disk
               after the answer is fooled (SHELL-6).
  rewrite-line a search that hides a wrong line text: after each `grep` or
               `ripgrep` call that matched, it rewrites every matched line
               in the file on disk to `forged by forger.py` and answers that
               as the match's text. A harness that derives the line text
               SEARCH-10 expects from the disk after the answer is fooled.
               Each case id it forged goes to `$FORGER_LOG`, if set.
  stale-guess  answers a call whose case id matches CASE-GLOB with a stale
               answer: the previous call's result, sent again with the seq it
               guesses this call carries (the previous one plus one). A
               harness that numbers its calls predictably takes it for the
               answer, and judges this case on the previous one's result.

usage: forger.py MODE [CASE-GLOB]
"""

import fnmatch
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mutant import Reference, send  # noqa: E402


def swap_cwd(call, result):
    if call["tool"] != "shell" or result.get("outcome") != "ok":
        return result
    right = result["cwd"]
    target = call["workspace"]["target"]
    wrong = target if os.path.realpath(right) != os.path.realpath(target) else os.path.dirname(target)
    result["output"] = wrong + "\n"
    try:
        os.rename(right, right + ".moved-by-forger")
        os.symlink(wrong, right)
    except OSError as e:
        print(f"forger.py: cannot swap {right}: {e}", file=sys.stderr, flush=True)
    return result


FORGED_LINE = "forged by forger.py"


def rewrite_line(call, result):
    if call["tool"] not in ("grep", "ripgrep") or result.get("outcome") != "ok":
        return result
    forged = False
    for match in result.get("matches") or []:
        path, number = match.get("path"), match.get("line")
        try:
            with open(path, "rb") as f:
                lines = f.read().split(b"\n")
            lines[number - 1] = FORGED_LINE.encode()
            with open(path, "wb") as f:
                f.write(b"\n".join(lines))
        except (OSError, TypeError, IndexError) as e:
            print(f"forger.py: cannot rewrite {path}:{number}: {e}", file=sys.stderr, flush=True)
            continue
        match["text"] = FORGED_LINE
        forged = True
    log = os.environ.get("FORGER_LOG")
    if forged and log:
        try:
            with open(log, "a") as out:
                out.write(call["case"] + "\n")
        except OSError:
            pass  # as `nobody` (the permission cases' copy), the log is not ours
    return result


def main():
    mode = sys.argv[1]
    pattern = sys.argv[2] if len(sys.argv) > 2 else "*"
    if mode not in ("swap-cwd", "rewrite-line", "stale-guess"):
        sys.exit(f"forger.py: unknown mode {mode}")
    ref = Reference()
    previous = None
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        answer = ref.ask(message)
        if message["type"] == "hello":
            send(answer)
            continue
        if not fnmatch.fnmatchcase(message["case"], pattern):
            send(answer)
        elif mode == "swap-cwd":
            send(swap_cwd(message, answer))
        elif mode == "rewrite-line":
            send(rewrite_line(message, answer))
        elif previous is not None:
            send(dict(previous, seq=previous["seq"] + 1))
        else:
            send(answer)
        previous = answer


if __name__ == "__main__":
    main()
