#!/usr/bin/env python3
"""Wrong subjects for the fuzzer's generated dimensions of issue 45, for
tests/fuzz.rs.

Each mode is the reference (`$TOOLPATH_BIN serve`, through
tests/adapters/mutant.py's wrapper) with the obvious bug of a tool that
meets one dimension: names stored decomposed, names that differ only in
case, odd characters in names and directory paths, the workspace root
as a link, a glob pattern with an empty segment. Some bugs change the call before the reference answers it
(the tool looked somewhere else), the others the answer.
tests/fuzz.rs proves `toolpath fuzz` finds each within a bounded number
of iterations.

usage: dimensions.py MODE
"""

import json
import os
import sys
import unicodedata
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mutant  # noqa: E402
from mutant import file_path, path_param  # noqa: E402

FILE_TOOLS = ("read_file", "write_file", "edit")
PATH_NAMES = ("dir_path", "path", "directory", "file_path", "absolute_path")


def composes_names(call, result):
    """Reports every path composed (NFC), as a tool that normalises the
    names it reads: a file stored decomposed is named by a path that is
    not on the disk."""
    nfc = lambda text: unicodedata.normalize("NFC", text)
    for key in ("path", "parent", "cwd"):
        if isinstance(result.get(key), str):
            result[key] = nfc(result[key])
    if "files" in result:
        result["files"] = [nfc(f) for f in result["files"]]
    for key in ("entries", "matches"):
        for item in result.get(key) or []:
            item["path"] = nfc(item["path"])
    return result


def folds_case(call):
    """A file tool that looks a name up without case, taking the first
    name of the directory that folds to it: `readme.md` beside
    `README.md` reads, writes or edits `README.md`."""
    path = file_path(call)
    if call["tool"] not in FILE_TOOLS or not path or not path.startswith("/"):
        return call
    directory, name = os.path.split(path)
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return call
    folded = [n for n in names if n.lower() == name.lower()]
    if not folded or folded[0] == name:
        return call
    params = {k: (os.path.join(directory, folded[0]) if v == path else v)
              for k, v in call["params"].items()}
    return {**call, "params": params}


def names_split_at_newlines(call, result):
    """Names read back from line-oriented output (`find`, `ls -1`): a
    name with a newline comes back as two."""
    if result.get("outcome") != "ok":
        return result
    if "files" in result:
        result["files"] = [part for f in result["files"] for part in f.split("\n")]
    if "entries" in result:
        result["entries"] = [{**e, "path": part} for e in result["entries"]
                             for part in e["path"].split("\n")]
    # `PATH:LINE:TEXT` lines: a path cut at its newline.
    for m in result.get("matches") or []:
        m["path"] = m["path"].split("\n")[0]
    return result


def directory_as_pattern(call, result):
    """A glob that builds its pattern from the directory it searches and
    the pattern given: a directory named with glob syntax (`(dashboard)`,
    `{a,b}`, `@(a|b)`, `!a`) matches other names, or none, and nothing
    below it is found."""
    given = path_param(call["params"])
    if call["tool"] != "glob" or result.get("outcome") != "ok" or not given:
        return result
    searched = mutant.lexical(call["workspace"]["target"], given)
    if any(c in searched for c in "(){}!@[]*?"):
        result["files"] = []
    return result


def percent_decoded(call):
    """Paths read as URLs: `%20` (and any `%XX`) decoded before the path
    is used, so `a%20b` names `a b`."""
    params = {k: (urllib.parse.unquote(v) if k in PATH_NAMES and isinstance(v, str) else v)
              for k, v in call["params"].items()}
    return {**call, "params": params}


def collapses_empty_segments(call):
    """A glob that tidies its pattern as a path (`src//*.ts` as
    `src/*.ts`, `src/` as `src`) where GLOB-11 refuses it: a pattern with
    an empty segment matches nothing, and the tool answers as if the
    caller had written another."""
    pattern = call["params"].get("pattern")
    if call["tool"] != "glob" or not isinstance(pattern, str) or pattern.startswith("/"):
        return call
    tidy = pattern
    while "//" in tidy:
        tidy = tidy.replace("//", "/")
    tidy = tidy.rstrip("/") or tidy
    return {**call, "params": {**call["params"], "pattern": tidy}}


def root_link_refused(call, result):
    """A file tool that resolves the file's real path and compares it
    with the roots as given: under a root that is a link, every file is
    refused as outside."""
    path = file_path(call)
    if call["tool"] not in FILE_TOOLS or result.get("outcome") != "ok" or not path:
        return result
    real = os.path.realpath(path)
    roots = [r.rstrip("/") for r in call["workspace"]["roots"]]
    if any(real == r or real.startswith(r + "/") for r in roots):
        return result
    return {"type": "result", "seq": result["seq"], "outcome": "error",
            "error": {"code": "outside_workspace",
                      "message": f"{path} is outside the workspace ({', '.join(roots)})"}}


# Mode: (what the call becomes before the reference answers it, what the
# answer becomes).
MODES = {
    "composes-names": (None, composes_names),
    "folds-case": (folds_case, None),
    "names-split-at-newlines": (None, names_split_at_newlines),
    "directory-as-pattern": (None, directory_as_pattern),
    "percent-decoded": (percent_decoded, None),
    "root-link-refused": (None, root_link_refused),
    "collapses-empty-segments": (collapses_empty_segments, None),
}


def main():
    mode = sys.argv[1]
    if mode == "--list":
        print("\n".join(MODES))
        return
    if mode not in MODES:
        sys.exit(f"dimensions.py: unknown mode {mode}")
    before, after = MODES[mode]
    ref = mutant.Reference()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        if message["type"] == "hello":
            mutant.send(ref.ask(message))
            continue
        result = ref.ask(before(message) if before else message)
        mutant.send(after(message, result) if after else result)


if __name__ == "__main__":
    main()
