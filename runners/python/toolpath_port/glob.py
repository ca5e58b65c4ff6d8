"""The ``include`` file-name glob (spec SEARCH-9).

``*`` matches any run of characters (including none), ``?`` exactly one
character, ``{a,b}`` any one of the comma-separated alternatives, and every
other character matches itself -- including ``[``, ``]``, ``\\`` and ``!``,
which is where ``fnmatch`` would differ. Alternatives are not nested; they may
contain ``*`` and ``?``. A ``{`` with no ``}`` after it (or with another ``{``
before that ``}``) is an ordinary character, as is a stray ``}`` or a ``,``
outside braces. Matching is case-sensitive and covers the whole base name.

The glob is translated to an anchored Python regular expression in which
every literal character is escaped.
"""

import re
from typing import Callable, List


def _fragment(text: str) -> str:
    """Regex for a brace-free piece of glob."""
    out: List[str] = []
    for ch in text:
        if ch == "*":
            out.append(".*")
        elif ch == "?":
            out.append(".")
        else:
            out.append(re.escape(ch))
    return "".join(out)


def translate(glob: str) -> str:
    """The regular expression (without anchors) equivalent to ``glob``."""
    out: List[str] = []
    i = 0
    n = len(glob)
    while i < n:
        ch = glob[i]
        if ch == "{":
            close = glob.find("}", i + 1)
            nested = glob.find("{", i + 1)
            if close != -1 and (nested == -1 or nested > close):
                alternatives = glob[i + 1:close].split(",")
                out.append("(?:" + "|".join(_fragment(a) for a in alternatives) + ")")
                i = close + 1
                continue
            out.append(re.escape(ch))
        else:
            out.append(_fragment(ch))
        i += 1
    return "".join(out)


def compile_glob(glob: str) -> Callable[[str], bool]:
    """A predicate telling whether a base name matches ``glob``."""
    regex = re.compile(translate(glob), re.DOTALL)
    return lambda name: regex.fullmatch(name) is not None


def matches(glob: str, name: str) -> bool:
    return compile_glob(glob)(name)
