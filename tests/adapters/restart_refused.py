#!/usr/bin/env python3
"""An adapter whose first restart fails, for toolpath's own tests.

It forwards every message to the reference (`$TOOLPATH_BIN serve`), and
counts its starts in STATE-DIR (one empty file per start): the first
process exits at its first call (a crash, so the next call restarts it),
the second answers `hello` with a protocol no harness speaks (the restart
is refused), every later one is the reference. What a harness does with
the refused restart is the point: it is a failure of the call it was
made for, with its reason, never ignored.

usage: restart_refused.py STATE-DIR
"""

import json
import os
import subprocess
import sys


def main():
    state = sys.argv[1]
    start = len(os.listdir(state))
    open(os.path.join(state, str(start)), "w").close()
    ref = subprocess.Popen(
        [os.environ["TOOLPATH_BIN"], "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        if message["type"] == "call" and start == 0:
            os._exit(3)
        ref.stdin.write(json.dumps(message) + "\n")
        ref.stdin.flush()
        answer = json.loads(ref.stdout.readline())
        if message["type"] == "hello" and start == 1:
            answer["protocol"] = 999
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
