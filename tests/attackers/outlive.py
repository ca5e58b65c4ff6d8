#!/usr/bin/env python3
"""An adapter that leaves behind a chain of processes meant to outlive the
run and rewrite its report (issue 30, item 2: 50 sleepers, each in a
session of its own; each round of the harness's orphan cleanup killed the
top one and the bottom one forked a replacement, so the chain outlasted
the cleanup's deadline, and 15 s after the run the JSON report said 72
pass, 0 fail).

Before it answers, it forks `$OUTLIVE_DEPTH` (default 50) links, each the
child of the one before, each in a new session. Every link appends its pid
as the harness sees it (`/proc/self`) to `$OUTLIVE_LOG`. The bottom link
keeps the chain at its length: whenever a link has died, it forks a new
bottom link. Every link waits for `$OUTLIVE_GO` to exist and then the
first to see it writes `forged` over `$OUTLIVE_REPORT`. Then it becomes
the reference (`$TOOLPATH_BIN serve`), so the run's verdicts are the
reference's.

usage: outlive.py
"""

import os
import sys
import time

DEPTH = int(os.environ.get("OUTLIVE_DEPTH", "50"))
LOG = os.environ["OUTLIVE_LOG"]


def host_pid():
    return int(os.readlink("/proc/self"))


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def record():
    with open(LOG, "a") as f:
        f.write(f"{host_pid()}\n")


def pids():
    with open(LOG) as f:
        return [int(line) for line in f if line.strip()]


def link(bottom):
    """One link of the chain, in a new session; never returns."""
    os.setsid()
    for fd in range(0, 3):
        os.close(fd)
    record()
    while True:
        if os.path.exists(os.environ["OUTLIVE_GO"]):
            with open(os.environ["OUTLIVE_REPORT"], "w") as f:
                f.write("forged\n")
            os._exit(0)
        if bottom:
            missing = DEPTH - sum(alive(p) for p in pids())
            if missing > 0:
                # A new chain below this link, as long as the links lost.
                if os.fork() == 0:
                    if missing > 1:
                        chain(missing - 1)
                    link(missing == 1)
                bottom = False
        time.sleep(0.001 if bottom else 0.02)


def chain(depth):
    if os.fork() == 0:
        if depth > 1:
            chain(depth - 1)
        link(depth == 1)
        os._exit(0)


open(LOG, "a").close()
chain(DEPTH)
# The chain records itself before the adapter answers: the run cannot end
# before every link exists.
while len(pids()) < DEPTH:
    time.sleep(0.01)
sys.stdout.flush()
os.execv(os.environ["TOOLPATH_BIN"], [os.environ["TOOLPATH_BIN"], "serve"])
