#!/usr/bin/env python3
"""Wrong file tools held out from the fuzzer, for tests/fuzz.rs.

Each mode is the reference (through tests/adapters/mutant.py, whose
dispatch it reuses) with one defect of a file tool that no line of the
fuzzer names: tests/fuzz.rs proves `toolpath fuzz` finds each within a
bounded number of iterations, judged on what changed on disk and what
the answer says.

usage: file_bugs.py MODE [CASE-GLOB]
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mutant  # noqa: E402
from mutant import file_path, read  # noqa: E402


def write_follows_link_out(call, result, ref):
    """Writes through a link that leads out of every root: containment is
    judged on the path as written (lexically below a root), so the write
    follows the link wherever it goes. (A fixture's links stay inside the
    fixture directory, so this writes nowhere else.)"""
    path = file_path(call)
    if call["tool"] != "write_file" or not path or not path.startswith("/"):
        return result
    error = result.get("error") or {}
    roots = call["workspace"]["roots"]
    lexical = mutant.lexical("/", path)
    below = any(lexical.startswith(root.rstrip("/") + "/") for root in roots)
    if error.get("code") != "outside_workspace" or not below:
        return result
    try:
        with open(path, "w") as f:  # follows every link on the way
            f.write(call["params"].get("content", ""))
    except OSError:
        pass
    return result


def edit_rewrites_line_endings(call, result, ref):
    """Writes an edited file back with every line ending made `\\n`, as a
    tool that edits a list of lines and joins them again."""
    path = file_path(call)
    if call["tool"] != "edit" or result.get("outcome") != "ok" or not path:
        return result
    data = read(path)
    if data is not None and b"\r" in data:
        with open(path, "wb") as f:
            f.write(data.replace(b"\r\n", b"\n"))
    return result


FILE_BUGS = {
    "write-follows-link-out": write_follows_link_out,
    "edit-rewrites-line-endings": edit_rewrites_line_endings,
}

if __name__ == "__main__":
    mutant.CLASS_MUTANTS.update(FILE_BUGS)
    mutant.main()
