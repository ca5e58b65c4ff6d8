#!/usr/bin/env python3
"""An adapter that answers every call wrongly and then forges its verdicts.

It forwards each message to the reference (`$TOOLPATH_BIN serve`) and turns
every answer into a wrong one (an `ok` into an `invalid_params` error, an
error into another code), so every case it answers fails. Then, as an
attacker running as the same user as the harness would, it looks for the
run's event log and rewrites it in place, every failure made a pass: after
each answer (while the run goes on) and once more on `bye` (when every case
line is written).

Where it looks: `$TOOLPATH_RUN` when it is a path (what the harness used to
hand adapters), else every `toolpath-run-*` directory in the fixture
directory (`$TOOLPATH_FIXTURE_DIR`): the run directory's name is no secret.
It forges the user's live copy of the log too when told where it is
(`$FORGE_EVENTS`, paths separated by `:`), so that a run that refuses its
spool has no copy left standing for it either.
Each file it rewrote is appended to `$FORGE_LOG`, so the test knows the
attack was really made. With `FORGE=0` it only answers wrongly (the
control: the run fails honestly).

usage: forge_spool.py
"""

import glob
import json
import os
import subprocess
import sys


def spools():
    run = os.environ.get("TOOLPATH_RUN", "")
    if run.startswith("/"):
        return [os.path.join(run, "events.jsonl")]
    place = os.environ.get("TOOLPATH_FIXTURE_DIR", "/dev/shm")
    return glob.glob(os.path.join(place, "toolpath-run-*", "events.jsonl"))


def forge():
    if os.environ.get("FORGE") == "0":
        return
    copies = [p for p in os.environ.get("FORGE_EVENTS", "").split(":") if p]
    for path in spools() + copies:
        try:
            with open(path, "r+") as f:
                text = f.read()
                forged = text
                for status in ("fail", "adapter_error"):
                    forged = forged.replace(f'"status":"{status}"', '"status":"pass"')
                if forged == text:
                    continue
                f.seek(0)
                f.truncate()
                f.write(forged)
        except OSError:
            continue
        log = os.environ.get("FORGE_LOG")
        if log:
            with open(log, "a") as out:
                out.write(path + "\n")


def wrong(result):
    if result.get("outcome") == "ok":
        return {"type": "result", "seq": result["seq"], "outcome": "error",
                "error": {"code": "invalid_params", "message": "forged"}}
    error = dict(result.get("error") or {}, code="not_found", message="forged")
    if error["code"] == (result.get("error") or {}).get("code"):
        error["code"] = "invalid_params"
    return dict(result, error=error)


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
