#!/usr/bin/env python3
"""Wrong subjects for the names the field writes (issue 45, items 1-5), for
tests/field_names.rs.

Each mode is the reference (`$TOOLPATH_BIN serve`, through mutant.py's
Reference) with one defect a published agent tool had with the names
people give files: a glob that cuts the searched directory off by bytes,
a path handed to a glob library, a name folded to another normal form or
letter case, a path decoded, split or expanded, a result list read one
line a name. Every mode answers as the reference does for every name
without the trait it trips on, so it passes the suite without the cases
of its class (tests/field_names.rs runs the cases around them too).

Unlike mutant.py's modes, these decide before the reference is asked: a
defect that writes another file must not also write the right one.

usage: field_names.py MODE
"""

import json
import os
import re
import sys
import unicodedata
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mutant  # noqa: E402
from mutant import FILE_TOOLS, given_path, lexical, rewrite_paths  # noqa: E402
from mutant import port_pattern  # noqa: E402  (the port's GLOB-5 matcher)


def ask(ref, call, params=None):
    return ref.ask({**call, "params": call["params"] if params is None else params})


def error(call, code, message):
    return {"type": "result", "seq": call["seq"], "outcome": "error",
            "error": {"code": code, "message": message}}


def path_changed(change, tools=None):
    """A mode that uses the path `change(given, call)` gives instead of the
    one given (None: unchanged), and echoes the path as given, as a tool
    that checked one text and used another does."""
    def mode(call, ref):
        key, given = given_path(call["params"])
        if not given or (tools and call["tool"] not in tools):
            return ask(ref, call)
        used = change(given, call)
        if used is None or used == given:
            return ask(ref, call)
        answer = ask(ref, call, {**call["params"], key: used})
        target = call["workspace"]["target"]
        return rewrite_paths(answer, lexical(target, used), lexical(target, given))
    return mode


def answer_changed(change):
    """A mode that rewrites each path the answer reports as a result (a
    match's, a glob file, an ls entry) through `change`."""
    def mode(call, ref):
        answer = ask(ref, call)
        for m in answer.get("matches") or []:
            m["path"] = change(m["path"])
        if isinstance(answer.get("files"), list):
            answer["files"] = [change(f) for f in answer["files"]]
        for e in answer.get("entries") or []:
            e["path"] = change(e["path"])
        return answer
    return mode


# Item 1: a non-ASCII searched directory.

def glob_cuts_bytes(call, ref):
    """Takes each file's path below the searched directory by cutting off as
    many characters as the directory's path has bytes (JavaScript's
    `file.slice(Buffer.byteLength(dir) + 1)`): below a non-ASCII directory
    a pattern with a directory segment meets the wrong text and drops the
    file; `*.ts` alone is matched against the base name and still works."""
    answer = ask(ref, call)
    pattern = call["params"].get("pattern")
    if call["tool"] != "glob" or not isinstance(answer.get("files"), list) \
            or not isinstance(pattern, str) or "/" not in pattern:
        return answer
    if answer.get("kind") == "directory":
        tops = [answer["path"]]
    elif answer.get("kind") == "all-workspaces":
        tops = call["workspace"]["roots"]
    else:
        return answer
    matches = port_pattern.compile_pattern(pattern)
    kept = []
    for f in answer["files"]:
        top = max((t for t in tops if f.startswith(t.rstrip("/") + "/")), key=len, default=None)
        if top is None or matches(f[len(top.rstrip("/").encode()) + 1:]):
            kept.append(f)
    answer["files"] = kept
    return answer


# Item 2: glob characters in directory names.

def as_extglob(given, call):
    """What a glob library (micromatch, fast-glob) makes of a path handed to
    it as a pattern: `(x)` and `@(x)` match `x`, `{a,b}` matches `a` first,
    and a leading `!` negates (here: the name without it)."""
    segments = []
    for segment in given.split("/"):
        segment = re.sub(r"@?\(([^()/]*)\)", r"\1", segment)
        segment = re.sub(r"\{([^{},/]*),[^{}/]*\}", r"\1", segment)
        segments.append(segment[1:] if segment.startswith("!") else segment)
    return "/".join(segments)


# Item 3: Unicode normal forms.

def folds(form, patterns):
    """Normalises the path (and, with `patterns`, the pattern and the
    include) to `form` before using them: a tool that normalises its
    parameters (NFC, as `String.normalize()` is called), or looks paths up
    in NFD, as HFS+ stores them. (Folding a pattern to NFD alone breaks the
    older `glob.pattern.non-ascii-*` cases, written in NFC, already.)"""
    def mode(call, ref):
        params = dict(call["params"])
        for name in ("pattern", "include") if patterns else ():
            if isinstance(params.get(name), str):
                params[name] = unicodedata.normalize(form, params[name])
        key, given = given_path(params)
        if given:
            params[key] = unicodedata.normalize(form, given)
        if params == call["params"]:
            return ask(ref, call)
        answer = ask(ref, call, params)
        if given and params[key] != given:
            target = call["workspace"]["target"]
            answer = rewrite_paths(answer, lexical(target, params[key]), lexical(target, given))
        return answer
    return mode


# Item 4: names that differ only in case.

def case_insensitive(given, call):
    """Looks each name below the root up without regard to case, taking the
    first that matches in sorted order (a lookup through a lower-cased
    index): `readme.md` finds `README.md` when both are there."""
    if "\0" in given:
        return None
    path = lexical(call["workspace"]["target"], given)
    root = max((r for r in call["workspace"]["roots"] if path == r or path.startswith(r + "/")),
               key=len, default=None)
    if root is None or path == root:
        return None
    here = root
    for segment in path[len(root) + 1:].split("/"):
        try:
            names = sorted(os.listdir(here))
        except OSError:
            names = []
        found = next((n for n in names if n.lower() == segment.lower()), segment)
        here = here + "/" + found
    return here if here != path else None


# Item 5: spaces, newlines, backslashes, %20, ~, file: URIs.

def file_uri_taken(given, call):
    """Takes a `file:` URI for the path it stands for, decoded."""
    if given[:5].lower() != "file:" or given[5:6] != "/":
        return None
    return urllib.parse.unquote(urllib.parse.urlparse(given).path)


def percent_decoded(given, call):
    """URL-decodes every path (`a%20b.txt` is read as `a b.txt`)."""
    return urllib.parse.unquote(given) if "%" in given else None


def backslash_separator(given, call):
    """Takes `\\` for a separator in a file tool's path, as on Windows."""
    return given.replace("\\", "/") if "\\" in given else None


def space_cut(given, call):
    """Hands a file tool's absolute path to a shell command unquoted: the
    command gets the text before the first space."""
    return given.split(" ")[0] if given.startswith("/") and " " in given else None


def tilde_expanded(given, call):
    """Expands a `~` segment anywhere in a file tool's path to the home
    directory (`{ws}/~/a.txt` becomes `{ws}/root/a.txt`)."""
    home = os.environ.get("HOME", "/root").rstrip("/") or "/root"
    used = re.sub(r"(?<=/)~(?=/|$)", home.lstrip("/"), given)
    return used if used != given else None


def newline_refused(call, ref):
    """Refuses a path holding a newline or a carriage return as malformed."""
    _, given = given_path(call["params"])
    if given and ("\n" in given or "\r" in given):
        return error(call, "invalid_params", "the path holds a line break")
    return ask(ref, call)


def first_line(path):
    """A name read back from a list of one name a line: cut at its newline."""
    return path.split("\n")[0]


def url_decoded(path):
    """A name read back from a list of URIs, decoded."""
    return urllib.parse.unquote(path)


MODES = {
    "glob-cuts-bytes": glob_cuts_bytes,
    "path-extglob": path_changed(as_extglob),
    "folds-nfc": folds("NFC", patterns=True),
    "folds-nfd": folds("NFD", patterns=False),
    "reports-nfc": answer_changed(lambda p: unicodedata.normalize("NFC", p)),
    "case-insensitive-names": path_changed(case_insensitive),
    "file-uri-taken": path_changed(file_uri_taken),
    "percent-decoded": path_changed(percent_decoded),
    "backslash-separator": path_changed(backslash_separator, FILE_TOOLS),
    "space-cut": path_changed(space_cut, FILE_TOOLS),
    "tilde-expanded": path_changed(tilde_expanded, FILE_TOOLS),
    "newline-refused": newline_refused,
    "results-split-on-newline": answer_changed(first_line),
    "results-url-decoded": answer_changed(url_decoded),
}


def main():
    mode = sys.argv[1]
    if mode == "--list":
        print("\n".join(MODES))
        return
    if mode not in MODES:
        sys.exit(f"field_names.py: unknown mode {mode}")
    ref = mutant.Reference()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        if message["type"] == "hello":
            mutant.send(ref.ask(message))
            continue
        answer = MODES[mode](message, ref)
        answer["seq"] = message["seq"]
        mutant.send(answer)


if __name__ == "__main__":
    main()
