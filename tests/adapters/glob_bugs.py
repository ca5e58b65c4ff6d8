#!/usr/bin/env python3
"""A deliberately wrong `glob` with several independent bugs, for toolpath's
own tests of `toolpath fuzz` (tests/fuzz.rs).

It forwards every message to the reference (`$TOOLPATH_BIN serve`), declares
`glob` as its only tool, and breaks the reference's answer for a directory
or all-workspaces glob in the ways named on its command line (default: all):

  links   follows symbolic links to directories below the searched
          directory, reporting the files under them (GLOB-7, SEC-7)
  colon   drops every file with a `:` in its path below the searched
          directory (as a tool that parses `a:b` as a drive or a URL would)
  bang    takes a pattern beginning with `!` as a negation: every file that
          does NOT match the rest of it (GLOB-5: `!` is an ordinary character)
  fifty   stops after 50 files (the first 50, sorted)
  none    no bug: the reference, wrapped

Each bug needs an input of its own shape to show, and no bug hides another:
a fuzzer that reports one finding per field, or stops at the first `files`
divergence, finds one of them; one that tells findings apart by the shape
of their shrunk input finds each.

usage: glob_bugs.py [links] [colon] [bang] [fifty] [none]
"""

import json
import os
import re
import sys

BUGS = {"links", "colon", "bang", "fifty"}


# The reference over `toolpath serve` and the answer writer are the
# mutants' own: one wrapper protocol for every deliberately wrong adapter.
from mutant import Reference, send  # noqa: E402


def segment_regex(segment):
    """One segment of the spec's portable glob subset (GLOB-5) as a regex."""
    out, i = "", 0
    while i < len(segment):
        c = segment[i]
        if c == "*":
            out += "[^/]*"
        elif c == "?":
            out += "[^/]"
        elif c == "[" and "]" in segment[i + 2:]:
            end = segment.index("]", i + 2)
            body = segment[i + 1:end]
            negated = body.startswith("!")
            body = body[1:] if negated else body
            members = "".join("\\" + m if m in "\\^]" else m for m in body)
            out += "[" + ("^" if negated else "") + members + "]"
            i = end
        else:
            out += re.escape(c)
        i += 1
    return out


def pattern_regex(pattern):
    """The whole pattern: `{a,b}` alternatives, `**` segments, the rest."""
    start = pattern.find("{")
    end = pattern.find("}", start + 1) if start >= 0 else -1
    if start >= 0 and end > start:
        head, body, tail = pattern[:start], pattern[start + 1:end], pattern[end + 1:]
        return "(?:" + "|".join(pattern_regex(head + alt + tail) for alt in body.split(",")) + ")"
    segments = pattern.split("/")
    out = ""
    for i, segment in enumerate(segments):
        last = i == len(segments) - 1
        if segment == "**":
            out += ".+" if last else "(?:[^/]+/)*"
        else:
            out += segment_regex(segment) + ("" if last else "/")
    return out


def matches(pattern, relative):
    return re.fullmatch(pattern_regex(pattern), relative) is not None


def bases(call, result):
    """The directories the glob searched: its path, or every root."""
    if result.get("kind") == "directory":
        return [result["path"]]
    return list(call["workspace"]["roots"])


def relative_to(bases, path):
    rests = [path[len(b) + 1:] for b in bases if path.startswith(b + "/")]
    return min(rests, key=len) if rests else path


def through_links(base, pattern, depth=6):
    """Files below `base` reached through a link to a directory, as
    `base/.../link/...`, matched against `pattern` like any other."""
    found = []
    # Each real directory is walked once: chains of links to one directory
    # (the fuzzer makes chains of up to 13) would otherwise make the walk
    # exponential in the depth, and the bug is one walk through a link.
    walked = set()

    def walk(directory, level, followed):
        if level > depth:
            return
        real = os.path.realpath(directory)
        if real in walked:
            return
        walked.add(real)
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            return
        for name in names:
            path = directory + "/" + name
            is_link = os.path.islink(path)
            if os.path.isdir(path) and (not is_link or os.access(path, os.R_OK)):
                walk(path, level + 1, followed or is_link)
            elif followed and os.path.isfile(path) and not is_link:
                if matches(pattern, path[len(base) + 1:]):
                    found.append(path)

    walk(base, 0, False)
    return found


def break_glob(bugs, call, result, ref):
    if call["tool"] != "glob" or result.get("kind") not in ("directory", "all-workspaces"):
        return result
    pattern = call["params"].get("pattern", "")
    searched = bases(call, result)
    files = list(result["files"])
    if "bang" in bugs and pattern.startswith("!") and len(pattern) > 1:
        rest = ref.ask({**call, "params": {**call["params"], "pattern": pattern[1:]}})
        every = ref.ask({**call, "params": {**call["params"], "pattern": "**"}})
        if rest.get("outcome") == "ok" and every.get("outcome") == "ok":
            files = [f for f in every["files"] if f not in rest["files"]]
    if "links" in bugs:
        for base in searched:
            files += [f for f in through_links(base, pattern) if f not in files]
    if "colon" in bugs:
        files = [f for f in files if ":" not in relative_to(searched, f)]
    if "fifty" in bugs:
        files = sorted(files)[:50]
    result["files"] = files
    return result


def main():
    bugs = set(sys.argv[1:]) or set(BUGS)
    unknown = bugs - BUGS - {"none"}
    if unknown:
        sys.exit(f"glob_bugs.py: unknown bug(s) {sorted(unknown)}; known: {sorted(BUGS)}")
    ref = Reference()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        answer = ref.ask(message)
        if message["type"] == "hello":
            answer["tools"] = ["glob"]
            answer["implementation"]["name"] = "glob-bugs " + ",".join(sorted(bugs))
            send(answer)
            continue
        send(break_glob(bugs, message, answer, ref))


if __name__ == "__main__":
    main()
