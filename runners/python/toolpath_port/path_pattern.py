"""The ``glob`` tool's pattern (spec GLOB-5, GLOB-6, GLOB-11).

A pattern is matched against a file's path relative to the searched
directory. It is first expanded into its brace alternatives; each
alternative is checked for a climb out (a leading ``/`` or a ``..``
segment), for a ``.`` segment (both ``invalid_params``, GLOB-6) and for
an empty segment (GLOB-11), which no path below a directory has, and then
translated, segment by segment, into an anchored regular expression:

- ``*`` is ``[^/]*`` and ``?`` is ``[^/]``: neither crosses a ``/``;
- ``[...]`` and ``[!...]`` become classes of literal members and ranges
  (a negated class never matches ``/`` either); a ``[`` that no ``]``
  closes is an ordinary character;
- a segment that is exactly ``**`` is any number of whole segments: in
  the middle or at the start it is ``(?:[^/]+/)*``; at the end, one or more
  segments, since a file's path is never empty;
- everything else is escaped and matches itself, case-sensitively.
"""

import re
from typing import Callable, List

from .errors import invalid


def expand_braces(pattern: str) -> List[str]:
    """Every ``{a,b}`` group replaced by each alternative in turn. The group
    runs from a ``{`` to the first ``}`` after it (groups do not nest); a
    ``{`` with no ``}`` after it is an ordinary character."""
    open_at = pattern.find("{")
    if open_at == -1:
        return [pattern]
    close_at = pattern.find("}", open_at)
    if close_at == -1:
        return [pattern]
    head, group, tail = pattern[:open_at], pattern[open_at + 1:close_at], pattern[close_at + 1:]
    tails = expand_braces(tail)
    return [head + alternative + rest for alternative in group.split(",") for rest in tails]


def _class(segment: str, start: int):
    """The regex class for the ``[`` at ``start``, and the index after it;
    None when no ``]`` closes it."""
    i = start + 1
    negated = i < len(segment) and segment[i] == "!"
    if negated:
        i += 1
    close = segment.find("]", i)
    if close == -1:
        return None
    members = segment[i:close]
    parts = []
    j = 0
    while j < len(members):
        if j + 2 < len(members) and members[j + 1] == "-":
            parts.append(re.escape(members[j]) + "-" + re.escape(members[j + 2]))
            j += 3
        else:
            parts.append(re.escape(members[j]))
            j += 1
    body = "".join(parts)
    if negated:
        return "[^/" + body + "]", close + 1
    return ("[" + body + "]" if body else "(?!)"), close + 1


def _segment(segment: str) -> str:
    out = []
    i = 0
    while i < len(segment):
        ch = segment[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[" and _class(segment, i) is not None:
            regex, i = _class(segment, i)
            out.append(regex)
            continue
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _alternative(text: str) -> str:
    segments = text.split("/")
    out = []
    for index, segment in enumerate(segments):
        last = index == len(segments) - 1
        if segment == "**":
            out.append("[^/]+(?:/[^/]+)*" if last else "(?:[^/]+/)*")
        else:
            out.append(_segment(segment) + ("" if last else "/"))
    return "".join(out)


def compile_pattern(pattern: str) -> Callable[[str], bool]:
    """A predicate telling whether a relative path matches ``pattern``.
    Raises ``invalid_params`` for a pattern that climbs out (GLOB-6)."""
    alternatives = expand_braces(pattern)
    for alternative in alternatives:
        if alternative.startswith("/") or ".." in alternative.split("/"):
            raise invalid(
                f"pattern {pattern!r} reaches outside the searched directory; "
                "give the directory as dir_path and a pattern relative to it"
            )
    for alternative in alternatives:
        # GLOB-6: no path below a directory has a `.` segment, so the
        # pattern could only match nothing; say what to write instead.
        if "." in alternative.split("/"):
            raise invalid(
                f"pattern {pattern!r} has a '.' segment, which no path below the "
                "searched directory has; write it relative to that directory without './'"
            )
    for alternative in alternatives:
        # GLOB-11: no path below a directory has an empty segment (`//`,
        # or a final `/`), so the pattern could only match nothing.
        if "" in alternative.split("/")[1:]:
            raise invalid(
                f"pattern {pattern!r} has an empty segment ('//', or a final '/'), which no "
                "path below the searched directory has; write one '/' between names"
            )
    regex = re.compile("|".join(f"(?:{_alternative(a)})" for a in alternatives), re.DOTALL)
    return lambda path: regex.fullmatch(path) is not None
