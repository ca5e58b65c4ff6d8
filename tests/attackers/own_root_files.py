#!/usr/bin/env python3
"""An adapter that uses what a root process holds with no capability at
all: it owns every root-owned file (issue 30's design, "as an unprivileged
user by default"). Before it answers anything it tries, for each WHAT on
its command line:

  overwrite  overwrite $OWN_TARGET, a root-owned file outside the run
             (mode 0644, in the test's own directory);
  append     append a forged line to the run's own event log (the run
             directory is two levels above its TMPDIR).

Each attempt and its outcome is appended to `$OWN_LOG` as `WHAT: done` or
`WHAT: denied (ERROR)`; then it becomes the reference
(`$TOOLPATH_BIN serve`), so the run's verdicts are the reference's.

usage: own_root_files.py WHAT...
"""

import os
import sys


def log(line):
    with open(os.environ["OWN_LOG"], "a") as out:
        out.write(line + "\n")


def overwrite():
    with open(os.environ["OWN_TARGET"], "w") as target:
        target.write("owned by the subject\n")


def append():
    run_dir = os.path.dirname(os.path.dirname(os.environ["TMPDIR"]))
    with open(os.path.join(run_dir, "events.jsonl"), "a") as spool:
        spool.write('{"forged": true}\n')


ATTACKS = {"overwrite": overwrite, "append": append}

for what in sys.argv[1:]:
    try:
        ATTACKS[what]()
        log(f"{what}: done")
    except OSError as e:
        log(f"{what}: denied ({e.strerror})")

binary = os.environ["TOOLPATH_BIN"]
os.execv(binary, [binary, "serve"])
