#!/usr/bin/env python3
"""Another user on the machine, racing the harness in a shared directory.

Run as an unprivileged user (the test starts it as `nobody`). It watches
PLACE and, whenever a directory a run created appears there
(`toolpath-run-*` or `toolpath-starting-*`), moves it aside and puts a
symbolic link to VICTIM in its place: a harness that then used the path
would chown, chmod and write into VICTIM, a directory of the attacker's
choosing, as root.

It stops when STOP exists, or after ROUNDS scans of PLACE (bounded: no
sleeping, no clock). It prints the number of swaps it made.

usage: swap_run_dir.py PLACE VICTIM STOP ROUNDS
"""

import os
import sys


def main():
    place, victim, stop, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    swaps = 0
    for _ in range(rounds):
        if os.path.exists(stop):
            break
        try:
            names = os.listdir(place)
        except OSError:
            continue
        for name in names:
            if not name.startswith(("toolpath-run-", "toolpath-starting-")):
                continue
            path = os.path.join(place, name)
            if os.path.islink(path):
                continue
            try:
                os.rename(path, os.path.join(place, "moved-" + name))
                os.symlink(victim, path)
                swaps += 1
            except OSError:
                pass
    print(swaps)


if __name__ == "__main__":
    main()
