#!/usr/bin/env python3
"""A deliberately wrong adapter, for toolpath's own tests.

It forwards every message to the reference (`$TOOLPATH_BIN serve`) and breaks
the answers in one named way, for the cases whose instance id matches an
optional glob (default: all). toolpath's tests run the suite through it to
prove two things: the harness classifies a misbehaving adapter correctly and
keeps going, and the cases can tell a wrong implementation from a right one.

usage: mutant.py MODE [CASE-GLOB]
       mutant.py --list    (the result-level mutants, one a line, for tests)
       mutant.py --focused (pattern-syntax mutants and their tool: MODE TOOL a line)
"""

import fnmatch
import json
import os
import re
import stat
import subprocess
import sys
import time


def lexical(base, path):
    """Join and fold `.`/`..` textually (spec RES-3)."""
    parts = []
    for seg in (path if path.startswith("/") else base + "/" + path).split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if parts:
                parts.pop()
        else:
            parts.append(seg)
    return "/" + "/".join(parts)


def path_param(params):
    for name in ("dir_path", "path", "directory"):
        value = params.get(name)
        if isinstance(value, str) and value:
            return value
    return None


class Reference:
    def __init__(self):
        self.proc = subprocess.Popen(
            [os.environ["TOOLPATH_BIN"], "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, message):
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


# Result-level mutants: (call, result, reference) -> result to send.

def report_real_path(call, result, ref):
    for field in ("path", "cwd"):
        if result.get(field):
            result[field] = os.path.realpath(result[field])
    return result


def drop_include_note(call, result, ref):
    if "notes" in result:
        result["notes"] = []
    return result


def pre_change_search(call, result, ref):
    """Search tools that still reject files (the seed's 'Path is not a directory')."""
    if call["tool"] in ("grep", "ripgrep") and result.get("kind") == "file":
        return error(result, "not_a_directory", "Path is not a directory: " + result["path"])
    return result


def pre_change_shell(call, result, ref):
    """The shell before Change B: relative sub-paths are not workspace directories."""
    given = path_param(call["params"])
    if call["tool"] == "shell" and given and not given.startswith("/") and "/" in given:
        return error(result, "invalid_params", f"Directory '{given}' is not a registered workspace directory.")
    return result


def inverted_enoent(call, result, ref):
    swap = {"not_found": "permission_denied", "permission_denied": "not_found"}
    err = result.get("error")
    if err and err["code"] in swap:
        err["code"] = swap[err["code"]]
    return result


def existence_first(call, result, ref):
    """Checks existence before containment, revealing what lies outside."""
    err = result.get("error")
    given = path_param(call["params"])
    if err and err["code"] == "outside_workspace" and given:
        resolved = lexical(call["workspace"]["target"], given)
        if not os.path.lexists(resolved):
            err["code"] = "not_found"
    return result


def vague_messages(call, result, ref):
    if result.get("error"):
        result["error"]["message"] = "the path is not valid"
    return result


def parent_dir_include(call, result, ref):
    """The rejected design: search the file's directory with include=basename."""
    if call["tool"] not in ("grep", "ripgrep") or result.get("kind") != "file":
        return result
    params = {k: v for k, v in call["params"].items() if k not in ("dir_path", "path")}
    path = result["path"]
    params["dir_path"], params["include"] = path.rsplit("/", 1)
    widened = ref.ask({**call, "params": params})
    if widened.get("outcome") == "ok":
        result["matches"] = widened["matches"]
    return result


def fixture_dir(call):
    """The fixture's temporary directory (`{tmp}`), from the first root."""
    root = call["workspace"]["roots"][0]
    cut = root.find("/toolpath-")
    return root[: root.index("/", cut + 1)] if root.find("/", cut + 1) > 0 else root


def placeholder_text(call, text):
    """Machine paths written back as the case's placeholders: `{ws}/a.ts`."""
    tmp = fixture_dir(call)
    names = {root: "{" + root[len(tmp) + 1:] + "}" for root in call["workspace"]["roots"]}
    for root in sorted(names, key=len, reverse=True):
        text = text.replace(root, names[root])
    return text.replace(tmp, "{tmp}")


def literal_placeholders(call, result, ref):
    """Answers the case's own placeholder text instead of absolute paths."""
    for field in ("path", "parent", "cwd", "output", "model_text"):
        if isinstance(result.get(field), str):
            result[field] = placeholder_text(call, result[field])
    for m in result.get("matches") or []:
        m["path"] = placeholder_text(call, m["path"])
    if result.get("files"):
        result["files"] = [placeholder_text(call, f) for f in result["files"]]
    for e in result.get("entries") or []:
        e["path"] = placeholder_text(call, e["path"])
    if result.get("error"):
        result["error"]["message"] = placeholder_text(call, result["error"]["message"])
    return result


def ran_elsewhere(call, result, ref):
    """Validates and echoes the directory, but runs the command in the target."""
    if call["tool"] == "shell" and result.get("outcome") == "ok":
        target = call["workspace"]["target"]
        if result["cwd"] != target:
            result["output"] = target + "\n"
        else:
            result["output"] = target.rsplit("/", 1)[0] + "\n"
    return result


def trimmed_text(call, result, ref):
    for m in result.get("matches") or []:
        m["text"] = m["text"].strip()
    return result


def raw_model_text(call, result, ref):
    """Shows the model the path as the caller wrote it, not the one used."""
    given = path_param(call["params"])
    if result.get("outcome") == "ok" and "model_text" in result:
        used = result.get("path") or result.get("cwd")
        if used and given is not None:
            result["model_text"] = result["model_text"].replace(used, given)
    return result


def pre_change_listing(call, result, ref):
    """glob and ls that still reject files (the seed's "Search path is not a directory")."""
    if call["tool"] in ("glob", "ls") and result.get("kind") == "file":
        return error(result, "not_a_directory", "Search path is not a directory: " + result["path"])
    return result


def parent_dir_listing(call, result, ref):
    """A file answered by looking at its whole directory: glob matches the
    pattern against the siblings' names, ls lists the siblings."""
    if call["tool"] not in ("glob", "ls") or result.get("kind") != "file":
        return result
    params = {k: v for k, v in call["params"].items() if k not in ("dir_path", "path")}
    params["dir_path"] = result["path"].rsplit("/", 1)[0]
    if call["tool"] == "glob":
        params["pattern"] = params["pattern"].rsplit("/", 1)[-1]
    widened = ref.ask({**call, "params": params})
    if widened.get("outcome") == "ok":
        for field in ("files", "entries"):
            if field in widened:
                result[field] = [f for f in widened[field]
                                 if (f if isinstance(f, str) else f["path"]).count("/") == result["path"].count("/")]
    return result


def ls_follows_links(call, result, ref):
    """ls typing entries with stat instead of lstat: a link shows as what it
    points to, and a dangling one disappears."""
    if call["tool"] != "ls":
        return result
    kept = []
    for entry in result.get("entries", []):
        if entry["type"] == "symlink":
            if not os.path.exists(entry["path"]):
                continue
            entry["type"] = "directory" if os.path.isdir(entry["path"]) else "file"
        kept.append(entry)
    if "entries" in result:
        result["entries"] = kept
    return result


def glob_reports_links(call, result, ref):
    """A glob that reports the links found below, as the packages' glob
    library does: only links to directories are left out, so links to files
    (inside or out) and dangling links are reported."""
    if call["tool"] != "glob" or result.get("kind") not in ("directory", "all-workspaces"):
        return result
    tops = [result["path"]] if result.get("path") else call["workspace"]["roots"]
    for top in tops:
        for here, dirs, names in os.walk(top):
            for name in dirs + names:
                full = os.path.join(here, name)
                if os.path.islink(full) and not os.path.isdir(full):
                    result["files"].append(full)
    return result


def glob_unchecked_pattern(call, result, ref):
    """A glob that never looks at its pattern: one that climbs out runs."""
    err = result.get("error")
    if call["tool"] == "glob" and err and "reaches outside" in err["message"]:
        return {"type": "result", "seq": result["seq"], "outcome": "ok",
                "kind": "all-workspaces", "files": []}
    return result


# Mutants for the holes real implementations slipped through (issue 10).

SEARCH_TOOLS = ("grep", "ripgrep")


def searched_files(call, result, follow_links=False):
    """(reported path, real file) for every regular file the search covered."""
    if result.get("kind") == "file":
        return [(result["path"], result["path"])]
    tops = call["workspace"]["roots"] if result.get("kind") == "all-workspaces" else [result["path"]]
    found = []
    for top in tops:
        for here, dirs, files in os.walk(top, followlinks=False):
            for name in sorted(files + dirs):
                path = os.path.join(here, name)
                if os.path.islink(path) and not follow_links:
                    continue
                if os.path.isfile(path):
                    found.append((path, path))
    return found


def read(path):
    """The file's bytes, or None when it cannot be read (skipped, SEARCH-11)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def lines_of(data):
    """The spec's lines (SEARCH-10): split on \n, no line after a final \n."""
    text = data.decode("utf-8", "replace")
    if text.endswith("\n"):
        text = text[:-1]
    return [] if data == b"" else text.split("\n")


def add_matches(result, path, lines, regex):
    # A set of what is there already: `match not in` the list was quadratic,
    # 2,500-line fuzzed files made it most of a fuzz run's time.
    present = {(m["path"], m["line"], m["text"]) for m in result["matches"]
               if m.keys() == {"path", "line", "text"}}
    for number, line in enumerate(lines, 1):
        if regex.search(line) and (path, number, line) not in present:
            present.add((path, number, line))
            result["matches"].append({"path": path, "line": number, "text": line})


def option_injection(call, result, ref):
    """Hands parameters to a command-line backend without `--`: a pattern or
    path beginning with `-` is taken as an option (grep's `-v`, rg's `--files`)."""
    params = call["params"]
    if call["tool"] in SEARCH_TOOLS and result.get("outcome") == "ok":
        if str(params.get("pattern", "")).startswith("-"):
            result["matches"] = []  # the option ate the pattern
            return result
    given = path_param(params) or params.get("include") or ""
    if isinstance(given, str) and given.startswith("-"):
        return error(result, "invalid_params", f"unrecognized option '{given}'")
    return result


def in_git_repository(path):
    while path not in ("/", ""):
        if os.path.isdir(os.path.join(path, ".git")):
            return True
        path = os.path.dirname(path)
    return False


def git_grep_ignore_case(call, result, ref):
    """Inside a git repository the search runs through `git grep` with
    ignore-case on: right everywhere else, wrong there."""
    if call["tool"] not in SEARCH_TOOLS or result.get("outcome") != "ok":
        return result
    where = result.get("path") or call["workspace"]["roots"][0]
    if not in_git_repository(where):
        return result
    params = dict(call["params"], pattern="(?i)" + call["params"]["pattern"])
    return ref.ask({**call, "params": params})


def loose_file_target(call, result, ref):
    """A file target is read as text lines: case-insensitive, `\r` stripped,
    and an empty line after the final newline. Directories stay right."""
    if call["tool"] not in SEARCH_TOOLS or result.get("kind") != "file":
        return result
    regex = re.compile(call["params"]["pattern"], re.IGNORECASE)
    with open(result["path"], "rb") as f:
        data = f.read()
    if b"\0" in data:
        return result
    lines = [line.rstrip("\r") for line in data.decode("utf-8", "replace").split("\n")]
    result["matches"] = []
    add_matches(result, result["path"], lines, regex)
    return result


BUILT_IN_EXCLUSIONS = ("/build/", "/dist/", "/node_modules/", "/target/", "/vendor/")


def builtin_exclusions(call, result, ref):
    """Silently skips build output and logs below a directory the caller named."""
    if call["tool"] in SEARCH_TOOLS and result.get("kind") in ("directory", "all-workspaces"):
        result["matches"] = [m for m in result["matches"]
                             if not any(x in m["path"] for x in BUILT_IN_EXCLUSIONS)
                             and not m["path"].endswith(".log")]
    return result


def resolve_only_right(call, result, ref):
    """The resolver is right when called as `resolve`, but the real tools map a
    dangling link inside to outside_workspace (realpath() failed, so 'not
    inside')."""
    given = path_param(call["params"])
    err = result.get("error")
    if call["tool"] == "resolve" or not given or not err or err["code"] != "not_found":
        return result
    lexical_path = lexical(call["workspace"]["target"], given)
    if os.path.islink(lexical_path) and not os.path.exists(lexical_path):
        err["code"] = "outside_workspace"
    return result


def rootname_through_link(call, result, ref):
    """The shell follows a link named like a root wherever it leads, instead of
    checking it (SHELL-5): `ws/other -> ../outside` runs in the outside."""
    given = path_param(call["params"])
    if call["tool"] != "shell" or not given or "/" in given:
        return result
    candidate = lexical(call["workspace"]["target"], given)
    if os.path.islink(candidate):
        return {"type": "result", "seq": result["seq"], "outcome": "ok", "cwd": candidate}
    return result


def binary_first_block(call, result, ref):
    """Looks for a NUL in the first 8 KiB only, like git grep."""
    if call["tool"] not in SEARCH_TOOLS or result.get("outcome") != "ok":
        return result
    regex = re.compile(call["params"]["pattern"])
    for reported, real in searched_files(call, result):
        data = read(real)
        if data and b"\0" in data and b"\0" not in data[:8192]:
            add_matches(result, reported, lines_of(data.replace(b"\0", b"")), regex)
    return result


def follow_inside_links(call, result, ref):
    """The directory walk follows links whose target is inside the workspace
    (thinking only links out are dangerous); SEC-7 says no link is followed."""
    if call["tool"] not in SEARCH_TOOLS or result.get("kind") not in ("directory", "all-workspaces"):
        return result
    regex = re.compile(call["params"]["pattern"])
    roots = [os.path.realpath(r) for r in call["workspace"]["roots"]]
    for reported, real in searched_files(call, result, follow_links=True):
        target = os.path.realpath(reported)
        inside = any(target == r or target.startswith(r + "/") for r in roots)
        data = read(reported)
        if os.path.islink(reported) and inside and data is not None:
            add_matches(result, reported, lines_of(data), regex)
    return result


def scratch_inside(call, result, ref):
    """Its own temporary directory counts as inside, like a project temp dir."""
    given = path_param(call["params"])
    scratch = os.environ.get("TMPDIR", "/nonexistent")
    if not given or not lexical("/", given).startswith(scratch):
        return result
    path = lexical("/", given)
    if call["tool"] == "shell":
        return {"type": "result", "seq": result["seq"], "outcome": "ok", "cwd": path}
    ok = {"type": "result", "seq": result["seq"], "outcome": "ok", "kind": "directory", "path": path}
    if call["tool"] in SEARCH_TOOLS:
        ok.update(matches=[], notes=[])
    return ok


KNOWN_KEYS = {"resolve": {"path"}, "grep": {"pattern", "dir_path", "path", "include"},
              "ripgrep": {"pattern", "dir_path", "path", "include"},
              "shell": {"command", "dir_path", "directory"},
              "glob": {"pattern", "dir_path", "path"}, "ls": {"dir_path", "path"},
              "read_file": {"file_path", "absolute_path"},
              "write_file": {"file_path", "absolute_path", "content"},
              "edit": {"file_path", "absolute_path", "old_string", "new_string"}}


def ignore_unknown_keys(call, result, ref):
    """Drops parameters it does not know and runs what is left (a misspelt
    `dir_path` becomes a search of everything)."""
    params = {k: v for k, v in call["params"].items() if k in KNOWN_KEYS[call["tool"]]}
    if params == call["params"]:
        return result
    return ref.ask({**call, "params": params})


def match_per_root(call, result, ref):
    """Searches each root on its own and merges the results: a line below two
    roots that are one directory through a link is reported twice."""
    if call["tool"] not in SEARCH_TOOLS or result.get("kind") != "all-workspaces":
        return result
    merged = []
    for root in call["workspace"]["roots"]:
        alone = ref.ask({**call, "workspace": {"roots": [root], "target": root}})
        merged += [m for m in alone.get("matches", []) if m not in merged]
    result["matches"] = merged
    return result


def immediate_link_target(call, result, ref):
    """Judges a link by its immediate target (SEC-5 read literally), so a
    link that leaves and comes back is outside."""
    given = path_param(call["params"])
    if not given or result.get("outcome") != "ok":
        return result
    path = lexical(call["workspace"]["target"], given)
    if os.path.islink(path):
        target = os.path.normpath(os.path.join(os.path.dirname(path), os.readlink(path)))
        roots = [os.path.realpath(r) for r in call["workspace"]["roots"]]
        if not any(target == r or target.startswith(r + "/") for r in roots):
            return error(result, "outside_workspace", f"{path} is outside the workspace")
    return result


def writes_cache(call, result, ref):
    """Keeps a cache beside the files it reads, as tools that index a
    workspace do: a file in the first root after every call (SEC-11)."""
    try:
        with open(os.path.join(call["workspace"]["roots"][0], ".toolpath-cache"), "a") as f:
            f.write(call["case"] + "\n")
    except OSError:
        pass  # a root it may not write to (permission cases)
    return result


# Containment apart from wording (issue 23): each mutant below is wrong in
# one containment class, so the report's containment counts are proven to
# tell them apart.

def ok_answer(call, result):
    """An `ok` answer of the call's tool shape, for the path as given."""
    given = path_param(call["params"]) or call["workspace"]["target"]
    path = lexical(call["workspace"]["target"], given)
    ok = {"type": "result", "seq": result["seq"], "outcome": "ok"}
    tool = call["tool"]
    if tool == "shell":
        ok.update(cwd=path, output=path + "\n", model_text="ran in " + path)
    else:
        ok.update(kind="directory", path=path)
    if tool in SEARCH_TOOLS:
        ok.update(matches=[], notes=[], model_text="no matches in " + path)
    if tool == "glob":
        ok.update(files=[])
    if tool == "ls":
        ok.update(entries=[])
    return ok


def refused_outside(result):
    err = result.get("error")
    return result.get("outcome") == "error" and err and err["code"] == "outside_workspace"


def outside_answered_ok(call, result, ref):
    """Lets every path through that it should refuse as outside: escapes."""
    return ok_answer(call, result) if refused_outside(result) else result


def outside_vague(call, result, ref):
    """Refuses what is outside, but names neither the path nor the roots:
    contained, worded wrong (ERR-4)."""
    if refused_outside(result):
        result["error"]["message"] = "access denied"
    return result


def outside_not_found(call, result, ref):
    """Refuses what is outside as if it did not exist: contained, with
    another code."""
    if refused_outside(result):
        result["error"]["code"] = "not_found"
    return result


def refuses_inside_links(call, result, ref):
    """Distrusts any path that goes through a link or has a name starting
    with `..`, wherever it leads: false refusals. The file tools' path
    (`file_path`) is distrusted as much as any other."""
    given = path_param(call["params"]) or file_path(call)
    if not given or result.get("outcome") != "ok":
        return result
    path = lexical(call["workspace"]["target"], given)
    through_link = os.path.realpath(path) != path
    dotted = any(seg.startswith("..") and seg != ".." for seg in given.split("/"))
    if through_link or dotted:
        return error(result, "outside_workspace", f"{path} may be outside the workspace")
    return result


def composed_entries(call, result):
    """Entry paths built from the request's path and each entry's name, as
    an adapter over a tool that prints bare names would build them."""
    given = path_param(call["params"])
    if call["tool"] != "ls" or result.get("outcome") != "ok" or not given:
        return False
    for entry in result.get("entries", []):
        entry["path"] = given.rstrip("/") + "/" + entry["path"].rsplit("/", 1)[-1]
    return True


def entries_from_request(call, result, ref):
    """Fills `entries.path` from the request and declares nothing."""
    composed_entries(call, result)
    return result


def derived_entries(call, result, ref):
    """Fills `entries.path` from the request and says so (`derived`)."""
    if composed_entries(call, result):
        result["derived"] = ["entries.path"]
    return result


def writes_outside(call, result, ref):
    """Leaves a file beside the roots, outside every one of them."""
    roots = call["workspace"]["roots"]
    inside = lambda d: any(d == r or d.startswith(r + "/") for r in roots)
    beside = os.path.dirname(roots[0])
    while inside(beside):
        beside = os.path.dirname(beside)
    try:
        with open(os.path.join(beside, "toolpath-escaped"), "a") as f:
            f.write(call["case"] + "\n")
    except OSError:
        pass
    return result


# Mutants for the classes of issue 24: each is one defect a real tool had
# (or could have), which the cases of its class must catch.

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "runners", "python"))
from toolpath_port import glob as port_include  # noqa: E402  (the port's SEARCH-9 matcher)
from toolpath_port import path_pattern as port_pattern  # noqa: E402  (its GLOB-5 matcher)


def base_name(path):
    return path.rsplit("/", 1)[-1]


def relative_to(top, path):
    return path[len(top):].lstrip("/")


def every_file(call, result, ref):
    """Every file a glob of `result`'s kind and path would look at."""
    widened = ref.ask({**call, "params": dict(call["params"], pattern="**")})
    return widened.get("files", [])


def glob_tops(call, result):
    return [result["path"]] if result.get("kind") == "directory" else call["workspace"]["roots"]


def bang_negates(call, result, ref):
    """A leading `!` read as an exclusion, as in .gitignore and two real
    tools: include `!*.txt` searches every file but the .txt ones, and the
    glob pattern `!*.txt` lists every file but them."""
    params = call["params"]
    if result.get("outcome") != "ok" or result.get("kind") == "file":
        return result
    if call["tool"] in SEARCH_TOOLS and str(params.get("include", "")).startswith("!"):
        rest = params["include"][1:]
        widened = ref.ask({**call, "params": {k: v for k, v in params.items() if k != "include"}})
        result["matches"] = [m for m in widened["matches"]
                             if not port_include.matches(rest, base_name(m["path"]))]
    elif call["tool"] == "glob" and str(params.get("pattern", "")).startswith("!"):
        rest = port_pattern.compile_pattern(params["pattern"][1:])
        tops = glob_tops(call, result)
        result["files"] = [f for f in every_file(call, result, ref)
                           if not any(f.startswith(t + "/") and rest(relative_to(t, f)) for t in tops)]
    return result


def include_fnmatch(call, result, ref):
    """`include` handed to fnmatch: `[ab]` becomes a class, braces are
    literal."""
    params = call["params"]
    include = params.get("include")
    if call["tool"] not in SEARCH_TOOLS or not include or result.get("kind") in (None, "file"):
        return result
    widened = ref.ask({**call, "params": {k: v for k, v in params.items() if k != "include"}})
    result["matches"] = [m for m in widened["matches"]
                         if fnmatch.fnmatchcase(base_name(m["path"]), include)]
    return result


def as_bytes(text):
    """UTF-8 text with one character per byte: what a byte matcher sees."""
    return text.encode("utf-8", "surrogateescape").decode("latin-1")


def bytes_not_characters(call, result, ref):
    """Patterns matched over bytes, as `grep` does under `LC_ALL=C`: `.` and
    `?` take one byte of a two-byte `é`."""
    params = call["params"]
    if result.get("outcome") != "ok":
        return result
    if call["tool"] in SEARCH_TOOLS:
        regex = re.compile(params["pattern"].encode("utf-8"))
        include = params.get("include") if result.get("kind") != "file" else None
        result["matches"] = []
        # (real path, line) already reported: a file under two nested
        # roots is searched twice and reported once. A set, since a file
        # of 2,500 matching lines made a list quadratic (past the timeout).
        seen = set()
        for reported, real in searched_files(call, result):
            if include and not port_include.matches(include, as_bytes(base_name(reported))):
                continue
            data = read(real)
            if not data or b"\0" in data:
                continue
            body = data[:-1] if data.endswith(b"\n") else data
            real_path = os.path.realpath(reported)
            for number, line in enumerate(body.split(b"\n"), 1):
                if regex.search(line) and (real_path, number) not in seen:
                    seen.add((real_path, number))
                    text = line.decode("utf-8", "replace")
                    result["matches"].append({"path": reported, "line": number, "text": text})
    elif call["tool"] == "glob" and result.get("kind") != "file":
        pattern = port_pattern.compile_pattern(params["pattern"])
        tops = glob_tops(call, result)
        result["files"] = [f for f in every_file(call, result, ref)
                           if any(f.startswith(t + "/") and pattern(as_bytes(relative_to(t, f))) for t in tops)]
    return result


def dot_segments_match_nothing(call, result, ref):
    """A `.` segment in a glob pattern taken literally: `./src/*.ts`
    answers "no files" instead of saying what to write."""
    err = result.get("error")
    if call["tool"] == "glob" and err and "`.` segment" in err["message"]:
        return {"type": "result", "seq": result["seq"], "outcome": "ok",
                "kind": "all-workspaces", "files": []}
    return result


def colon_split(call, result, ref):
    """Matches read back from `PATH:LINE:TEXT` lines cut at the first `:`,
    as a tool does that parses its backend's output: `a:1:b.ts` line 2
    becomes `a`, line 1."""
    if call["tool"] not in SEARCH_TOOLS or result.get("outcome") != "ok":
        return result
    parsed = []
    for m in result["matches"]:
        path, line, text = f"{m['path']}:{m['line']}:{m['text']}".split(":", 2)
        parsed.append({"path": path, "line": int(line) if line.isdigit() else 0, "text": text})
    result["matches"] = parsed
    return result


def path_globbed(call, result, ref):
    """The path handed to a shell or a glob library, so it is expanded as a
    pattern: `lib[1]` becomes `lib1`, `*.ts` every .ts file beside it."""
    import glob as globlib
    given = path_param(call["params"])
    if call["tool"] not in SEARCH_TOOLS + ("glob", "ls") or not given or result.get("outcome") != "ok":
        return result
    if not any(c in given for c in "*?["):
        return result
    expanded = sorted(globlib.glob(lexical(call["workspace"]["target"], given)))
    if not expanded:
        return result
    field = {"glob": "files", "ls": "entries"}.get(call["tool"], "matches")
    merged = []
    for path in expanded:
        params = {k: v for k, v in call["params"].items() if k not in ("dir_path", "path")}
        answer = ref.ask({**call, "params": dict(params, dir_path=path)})
        merged += [item for item in answer.get(field, []) if item not in merged]
    result[field] = merged
    return result


def dash_names_dropped(call, result, ref):
    """Names found by the walk handed to a backend with no `--`: a file
    whose name begins with `-` is read as an option and never reported."""
    if result.get("outcome") != "ok" or result.get("kind") == "file":
        return result
    dashed = lambda path: base_name(path).startswith("-")
    if call["tool"] in SEARCH_TOOLS:
        result["matches"] = [m for m in result["matches"] if not dashed(m["path"])]
    elif call["tool"] == "glob":
        result["files"] = [f for f in result["files"] if not dashed(f)]
    elif call["tool"] == "ls":
        result["entries"] = [e for e in result["entries"] if not dashed(e["path"])]
    return result


def result_paths(call, result):
    """The field a walking tool reports, and each item's path."""
    if call["tool"] in SEARCH_TOOLS:
        return "matches", lambda m: m["path"]
    if call["tool"] == "glob":
        return "files", lambda f: f
    return "entries", lambda e: e["path"]


def drop_results(call, result, dropped):
    """`result` without the items whose path `dropped` says to leave out."""
    if call["tool"] not in SEARCH_TOOLS + ("glob", "ls") or result.get("outcome") != "ok":
        return result
    field, path_of = result_paths(call, result)
    if field in result:
        result[field] = [item for item in result[field] if not dropped(path_of(item))]
    return result


def inside_fixture(call, path):
    """`path` below the fixture directory, as its segments."""
    return relative_to(fixture_dir(call), path).split("/")


def hidden_paths_skipped(call, result, ref):
    """A walk that skips every path with a segment beginning with `.`, the
    one the caller gave included (five user reports: `~/.config/app/src`,
    `.github/workflows` came back empty)."""
    return drop_results(call, result,
                        lambda path: any(s.startswith(".") for s in inside_fixture(call, path)))


def git_ignore_patterns(directory):
    try:
        with open(os.path.join(directory, ".gitignore")) as f:
            return [line.strip() for line in f if line.strip() and not line.startswith("#")]
    except OSError:
        return []


def ignored_by(patterns, segments):
    """Whether a simple ignore list (names and `*` globs, `dir/` for
    directories) ignores a path given as segments below its directory."""
    for index, segment in enumerate(segments):
        for pattern in patterns:
            is_dir_pattern = pattern.endswith("/")
            name = pattern.rstrip("/")
            if fnmatch.fnmatchcase(segment, name) and (not is_dir_pattern or index < len(segments) - 1):
                return True
    return False


def git_ignored_anywhere(path):
    """Whether the repository around `path` ignores it or a directory above
    it, by the root `.gitignore` (the cases' repositories have one)."""
    here = os.path.dirname(path)
    while here not in ("/", ""):
        if os.path.isdir(os.path.join(here, ".git")):
            return ignored_by(git_ignore_patterns(here), relative_to(here, path).split("/"))
        here = os.path.dirname(here)
    return False


def ignored_paths_skipped(call, result, ref):
    """What git ignores is skipped everywhere, the path the caller gave
    included: `dist` given as the path answers nothing."""
    return drop_results(call, result, git_ignored_anywhere)


IGNORE_FILES = (".ignore", ".rgignore", ".gitignore")


def ignore_files_honoured(call, result, ref):
    """ripgrep's defaults: `.ignore` and `.rgignore` honoured everywhere and
    `.gitignore` even outside a repository, in the directory and above it."""
    top = fixture_dir(call)

    def dropped(path):
        here = os.path.dirname(path)
        while here.startswith(top):
            for name in IGNORE_FILES:
                try:
                    with open(os.path.join(here, name)) as f:
                        patterns = [line.strip() for line in f if line.strip()]
                except OSError:
                    continue
                if ignored_by(patterns, relative_to(here, path).split("/")):
                    return True
            here = os.path.dirname(here)
        return False

    return drop_results(call, result, dropped)


def listing_builtin_exclusions(call, result, ref):
    """glob and ls that leave out build output and dependencies, as search
    tools once did (BUILT_IN_EXCLUSIONS)."""
    if call["tool"] not in ("glob", "ls"):
        return result
    return drop_results(call, result,
                        lambda path: any(x in path + "/" for x in BUILT_IN_EXCLUSIONS) or path.endswith(".log"))


def allowed_skips(call, result, ref):
    """Not a defect: every skip SEARCH-4, GLOB-3 and LS-3 allow, at once.
    Below the searched directory (each root, with no path) it leaves out
    names beginning with `.` and what git ignores, except what the caller
    spelled out (an `include` beginning with `.`, a glob pattern segment
    that is the name or begins with `.`). It must pass every case: no case
    may depend on the choice."""
    params = call["params"]
    if call["tool"] not in SEARCH_TOOLS + ("glob", "ls") or result.get("kind") not in ("directory", "all-workspaces"):
        return result
    tops = glob_tops(call, result)
    include = str(params.get("include") or "")
    spelled = set()
    if call["tool"] == "glob":
        for alternative in port_pattern.expand_braces(params["pattern"]):
            spelled.update(s for s in alternative.split("/")
                           if s.startswith(".") or not any(c in s for c in "*?["))

    def exempt(name, last):
        if name in spelled or any(s.startswith(".") and fnmatch.fnmatchcase(name, s) for s in spelled):
            return True
        return last and include.startswith(".") and port_include.matches(include, name)

    def dropped(path):
        top = next((t for t in tops if path.startswith(t + "/")), None)
        if top is None:
            return False
        below = relative_to(top, path).split("/")
        for index, name in enumerate(below):
            last = index == len(below) - 1
            if exempt(name, last):
                continue
            if name.startswith("."):
                return True
            here = top + "/" + "/".join(below[:index + 1])
            if git_ignored_below(top, here):
                return True
        return False

    return drop_results(call, result, dropped)


def git_ignored_below(top, path):
    """Whether git ignores `path` by the `.gitignore` of a repository that
    holds it, judged from the repository's root (the cases' repositories
    have one `.gitignore`, at their root)."""
    here = os.path.dirname(path)
    while here not in ("/", ""):
        if os.path.isdir(os.path.join(here, ".git")):
            patterns = git_ignore_patterns(here)
            segments = relative_to(here, path).split("/")
            name = segments[-1]
            for pattern in patterns:
                is_dir_pattern = pattern.endswith("/")
                if fnmatch.fnmatchcase(name, pattern.rstrip("/")) and (not is_dir_pattern or os.path.isdir(path)):
                    return True
            return False
        here = os.path.dirname(here)
    return False


def binary_first_mib(call, result, ref):
    """Looks for a NUL in the first MiB only, as backends that sniff a
    block do, however large the block: right for every case whose NUL
    comes within 64 KiB."""
    if call["tool"] not in SEARCH_TOOLS or result.get("outcome") != "ok":
        return result
    regex = re.compile(call["params"]["pattern"])
    for reported, real in searched_files(call, result):
        data = read(real)
        if data and b"\0" in data and b"\0" not in data[:1 << 20]:
            add_matches(result, reported, lines_of(data.replace(b"\0", b"")), regex)
    return result


def undecodable_lines_dropped(call, result, ref):
    """Decodes each file as UTF-8 lines and drops a line that does not
    decode: a match on it is lost, and the lines after it are numbered one
    too low for each line dropped before them."""
    if call["tool"] not in SEARCH_TOOLS or result.get("outcome") != "ok":
        return result
    kept = []
    for m in result.get("matches") or []:
        data = read(m["path"]) or b""
        body = data[:-1] if data.endswith(b"\n") else data
        lines = body.split(b"\n")[:m["line"]]
        dropped = 0
        for line in lines:
            try:
                line.decode("utf-8")
            except UnicodeDecodeError:
                dropped += 1
        try:
            lines[-1].decode("utf-8")
        except (UnicodeDecodeError, IndexError):
            continue  # the matching line itself does not decode: dropped
        kept.append(dict(m, line=m["line"] - dropped))
    result["matches"] = kept
    return result


def long_lines_cut(call, result, ref):
    """Cuts a matching line's text at 500 characters, as one tool does to
    keep its output short."""
    for m in result.get("matches") or []:
        m["text"] = m["text"][:500]
    return result


def rematched(call, result, ref, include_matcher=None, glob_matcher=None):
    """`result` with its matches (include) or files (glob) chosen by another
    matcher: `include_matcher(include)` and `glob_matcher(pattern)` give a
    predicate over a base name or a path relative to the searched
    directory, or None where the defect does not change the pattern."""
    params = call["params"]
    if result.get("outcome") != "ok" or result.get("kind") == "file":
        return result
    include, pattern = params.get("include"), params.get("pattern")
    if call["tool"] in SEARCH_TOOLS and include_matcher and isinstance(include, str) and include:
        matches = include_matcher(include)
        if matches is not None:
            widened = ref.ask({**call, "params": {k: v for k, v in params.items() if k != "include"}})
            result["matches"] = [m for m in widened.get("matches", []) if matches(base_name(m["path"]))]
    elif call["tool"] == "glob" and glob_matcher and isinstance(pattern, str) and pattern:
        matches = glob_matcher(pattern)
        if matches is not None:
            tops = glob_tops(call, result)
            result["files"] = [f for f in every_file(call, result, ref)
                               if any(f.startswith(t + "/") and matches(relative_to(t, f)) for t in tops)]
    return result


def include_ignores_case(call, result, ref):
    """`include` compared without regard to case, as on a case-insensitive
    file system: `*.TS` takes `a.ts`."""
    return rematched(call, result, ref, include_matcher=lambda g: (
        lambda name: port_include.matches(g.lower(), name.lower())))


def question_optional(call, result, ref):
    """`?` taken as zero or one character (a regex `?` let through): `a?`
    takes `a` as well as `ab`, in include and in glob patterns."""
    def either(compile_):
        def matcher(text):
            if "?" not in text:
                return None
            one, none = compile_(text), compile_(text.replace("?", ""))
            return lambda name: one(name) or none(name)
        return matcher
    return rematched(call, result, ref, include_matcher=either(port_include.compile_glob),
                     glob_matcher=either(port_pattern.compile_pattern))


def class_without_ranges(call, result, ref):
    """A glob class whose `-` is a member, not a range: `[a-c]` takes `a`,
    `-` and `c`, never `b`."""
    def members(m):
        listed = re.sub(r"(.)-(.)", r"\1\2", m.group(2))
        return "[" + m.group(1) + listed + ("-" if listed != m.group(2) else "") + "]"

    def matcher(pattern):
        flat = re.sub(r"\[(!?)([^\]]+)\]", members, pattern)
        return None if flat == pattern else port_pattern.compile_pattern(flat)
    return rematched(call, result, ref, glob_matcher=matcher)


# Stand-ins for a literal `{` and `}`: characters no fixture name holds.
OPEN, CLOSE = "\ue000", "\ue001"


def braces_need_a_comma(call, result, ref):
    """A brace group with no comma taken literally (as a shell does): `{a}`
    takes only a file named `{a}`, never `a`, in include and in glob
    patterns."""
    def matcher(compile_):
        def make(text):
            marked = re.sub(r"\{([^{},]*)\}", lambda m: OPEN + m.group(1) + CLOSE, text)
            if marked == text:
                return None
            compiled = compile_(marked)
            return lambda name: compiled(name.replace("{", OPEN).replace("}", CLOSE))
        return make
    return rematched(call, result, ref, include_matcher=matcher(port_include.compile_glob),
                     glob_matcher=matcher(port_pattern.compile_pattern))


def error(result, code, message):
    return {"type": "result", "seq": result["seq"], "outcome": "error",
            "error": {"code": code, "message": message}}


MUTANTS = {
    "identity": lambda call, result, ref: result,
    "report-real-path": report_real_path,
    "drop-include-note": drop_include_note,
    "pre-change-search": pre_change_search,
    "pre-change-shell": pre_change_shell,
    "inverted-enoent": inverted_enoent,
    "existence-first": existence_first,
    "vague-messages": vague_messages,
    "parent-dir-include": parent_dir_include,
    "literal-placeholders": literal_placeholders,
    "ran-elsewhere": ran_elsewhere,
    "trimmed-text": trimmed_text,
    "raw-model-text": raw_model_text,
    "option-injection": option_injection,
    "git-grep-ignore-case": git_grep_ignore_case,
    "loose-file-target": loose_file_target,
    "builtin-exclusions": builtin_exclusions,
    "resolve-only-right": resolve_only_right,
    "rootname-through-link": rootname_through_link,
    "binary-first-block": binary_first_block,
    "follow-inside-links": follow_inside_links,
    "scratch-inside": scratch_inside,
    "ignore-unknown-keys": ignore_unknown_keys,
    "match-per-root": match_per_root,
    "immediate-link-target": immediate_link_target,
    "pre-change-listing": pre_change_listing,
    "parent-dir-listing": parent_dir_listing,
    "ls-follows-links": ls_follows_links,
    "glob-reports-links": glob_reports_links,
    "glob-unchecked-pattern": glob_unchecked_pattern,
    "writes-cache": writes_cache,
    "outside-answered-ok": outside_answered_ok,
    "outside-vague": outside_vague,
    "outside-not-found": outside_not_found,
    "refuses-inside-links": refuses_inside_links,
    "entries-from-request": entries_from_request,
    "derived-entries": derived_entries,
    "writes-outside": writes_outside,
    "bang-negates": bang_negates,
    "include-fnmatch": include_fnmatch,
    "bytes-not-characters": bytes_not_characters,
    "dot-segments-match-nothing": dot_segments_match_nothing,
    "colon-split": colon_split,
    "path-globbed": path_globbed,
    "dash-names-dropped": dash_names_dropped,
    "hidden-paths-skipped": hidden_paths_skipped,
    "ignored-paths-skipped": ignored_paths_skipped,
    "ignore-files-honoured": ignore_files_honoured,
    "listing-builtin-exclusions": listing_builtin_exclusions,
    "allowed-skips": allowed_skips,
    "binary-first-mib": binary_first_mib,
    "undecodable-lines-dropped": undecodable_lines_dropped,
    "long-lines-cut": long_lines_cut,
    "include-ignores-case": include_ignores_case,
    "question-optional": question_optional,
    "class-without-ranges": class_without_ranges,
    "braces-need-a-comma": braces_need_a_comma,
}

# Modes that are not wrong: the wrapper as it is, an adapter that says
# which fields it composed (`derived`), which must come out `unobserved`,
# and one taking every skip the walking rules allow (issue 24, classes 9
# and 15), which must pass: none is ever caught as failing. `--list`
# leaves them out.
HONEST = {"identity", "derived-entries", "allowed-skips"}

# Mutants only the cases of their class catch: `toolpath fuzz`'s generator
# does not make the input that shows them (a NUL past the first MiB, a `.`
# segment in a glob pattern, a file named like a pattern, `.ignore` files,
# paths git ignores; lines that are not UTF-8 are in tests/fuzz.rs's
# DIMENSION_SUBJECTS). tests/mutants.rs proves each caught; `--list`, the fuzzer's
# test list, leaves them out until the generator makes such inputs.
CASES_ONLY = {
    "dot-segments-match-nothing",
    "path-globbed",
    "ignored-paths-skipped",
    "ignore-files-honoured",
    "binary-first-mib",
    "undecodable-lines-dropped",
}

# Pattern-syntax mutants (issue 32), each with the one tool whose calls
# show it: `toolpath fuzz --tool TOOL` finds it (tests/fuzz.rs reads
# `--focused`); fuzzing every tool would spend most iterations on calls
# the defect does not touch. `--list` leaves them out.
FOCUSED = {
    "question-optional": "glob",
    "braces-need-a-comma": "glob",
    "class-without-ranges": "glob",
    "include-ignores-case": "search",
    # `h..llo` over a line holding `héllo`: only two bytes of the one
    # character match its two dots. (`h.llo`, the other way round, was met
    # 5 times in 2,000 samples and not found in 4,000 search iterations:
    # `hello` beside `héllo` on the line matches either way.)
    "bytes-not-characters": "search",
}

# Mutants of the file tools (spec FILE). They act on the disk as the defect
# would, since the harness judges a write by the fixture, not by the answer.
# `toolpath fuzz` generates no file tool calls yet, so they are not in
# `--list` (tests/fuzz.rs); tests/mutants.rs runs each.

FILE_TOOLS = ("read_file", "write_file", "edit")


def file_path(call):
    params = call["params"]
    for name in ("file_path", "absolute_path"):
        value = params.get(name)
        if isinstance(value, str) and value:
            return value
    return None


def write_through_dangling_link(call, result, ref):
    """Writes wherever a dangling link leads, as two releases of a popular
    filesystem server did: containment judged on the link's own path (or
    skipped for a file that does not exist yet) lets `write_file` create a
    file outside every root."""
    path = file_path(call)
    if call["tool"] != "write_file" or result.get("outcome") != "error" or not path:
        return result
    if not (os.path.islink(path) and not os.path.exists(path)):
        return result
    try:
        with open(path, "w") as f:  # follows the link, creates its target
            f.write(call["params"].get("content", ""))
    except OSError:
        return result
    return {"type": "result", "seq": result["seq"], "outcome": "ok", "kind": "file", "path": path}


def backup_beside(call, result, ref):
    """Writes the right file, and also keeps a backup copy of it beside it
    (`a.txt~`), as editors do: a change the call did not ask for."""
    path = file_path(call)
    if call["tool"] in ("write_file", "edit") and result.get("outcome") == "ok" and path:
        try:
            with open(path + "~", "w") as f:
                f.write("backup\n")
        except OSError:
            pass
    return result


def accepts_relative(call, result, ref):
    """Takes a relative file path against the target directory, as the
    search tools do, instead of refusing it (FILE-3)."""
    path = file_path(call)
    if call["tool"] not in FILE_TOOLS or not path or path.startswith("/"):
        return result
    params = dict(call["params"])
    for name in ("file_path", "absolute_path"):
        if params.get(name) == path:
            params[name] = lexical(call["workspace"]["target"], path)
    return ref.ask({**call, "params": params})


def read_normalises_newlines(call, result, ref):
    """Reads text as lines: `\r\n` becomes `\n` and a last line gets its
    newline (FILE-5 wants the bytes as they are)."""
    content = result.get("content")
    if call["tool"] == "read_file" and isinstance(content, str):
        content = content.replace("\r\n", "\n")
        if content and not content.endswith("\n"):
            content += "\n"
        result["content"] = content
    return result


def writes_own_tmp(call, result, ref):
    """Refuses a write into its own temporary directory as outside the
    workspace (SEC-9), and writes it all the same, creating the
    directories on the way: the change is outside the fixture, so only a
    harness that looks at the paths the call named sees it."""
    path = file_path(call)
    tmp = os.environ.get("TMPDIR", "")
    if call["tool"] != "write_file" or not path or not tmp or not path.startswith(tmp + "/"):
        return result
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(call["params"].get("content", ""))
    except OSError:
        pass
    return result


FILE_MUTANTS = {
    "write-through-dangling-link": write_through_dangling_link,
    "writes-own-tmp": writes_own_tmp,
    "backup-beside": backup_beside,
    "accepts-relative": accepts_relative,
    "read-normalises-newlines": read_normalises_newlines,
}

# The hole classes of issue 24: each mutant is wrong in one shape only (a
# form, a root, a position of a link), the shape the `*.shape.*` matrices
# and the class cases pin. Cases-only: the fuzzer's generator makes one
# root and no `..` after a link.

PATH_KEYS = ("dir_path", "path", "directory", "file_path", "absolute_path")


def given_path(params):
    """(key, value) of the path parameter given, by any name or alias."""
    for name in PATH_KEYS:
        value = params.get(name)
        if isinstance(value, str) and value:
            return name, value
    return None, None


def nearest_existing(path):
    while not os.path.exists(path) and path != "/":
        path = os.path.dirname(path)
    return path


def ask_widened(call, ref, extra_root, params=None):
    """The reference's answer with `extra_root` allowed too: what a tool
    answers when its containment check let the path through."""
    roots = call["workspace"]["roots"] + [extra_root]
    return ref.ask({**call, "params": params or call["params"],
                    "workspace": {**call["workspace"], "roots": roots}})


def rewrite_paths(value, old, new):
    """Every string in an answer with the path `old` written as `new`."""
    if isinstance(value, str):
        return new + value[len(old):] if value == old or value.startswith(old + "/") else value.replace(old + "/", new + "/")
    if isinstance(value, list):
        return [rewrite_paths(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: (v if k == "output" else rewrite_paths(v, old, new)) for k, v in value.items()}
    return value


def dotdot_used_raw(call, result, ref):
    """Validates `lnk/../x` in its normalised form (RES-3), but hands the
    path as given to the system, which follows `lnk` before `..`: the
    tool works in the link target's parent (SEC-8)."""
    key, given = given_path(call["params"])
    if not given or result.get("outcome") != "ok" or "/../" not in "/" + given + "/":
        return result
    target = call["workspace"]["target"]
    raw = given if given.startswith("/") else target + "/" + given
    used = os.path.realpath(raw)
    meant = lexical(target, given)
    if used == os.path.realpath(meant) or not os.path.exists(used):
        return result
    top = used if os.path.isdir(used) else os.path.dirname(used)
    answer = ask_widened(call, ref, top, dict(call["params"], **{key: used}))
    answer = rewrite_paths(answer, used, meant)
    answer["seq"] = result["seq"]
    return answer


def later_roots_lexical(call, result, ref):
    """Checks the first root on real paths and the others by their text: a
    path in the second root is inside whatever its links lead to."""
    _, given = given_path(call["params"])
    roots = call["workspace"]["roots"]
    if not given or not refused_outside(result) or "\0" in given:
        return result
    meant = lexical(call["workspace"]["target"], given)
    if not any(meant == r or meant.startswith(r + "/") for r in roots[1:]):
        return result
    answer = ask_widened(call, ref, nearest_existing(os.path.realpath(meant)))
    answer["seq"] = result["seq"]
    return answer


def python_glob_files(top, pattern):
    """Python's glob, which steps through links to directories wherever a
    segment is matched by listing (and `**` only when recursive)."""
    import glob as globbing
    found = globbing.glob(pattern, root_dir=top, recursive=False)
    return [os.path.join(top, f) for f in found if os.path.isfile(os.path.join(top, f))]


def through_link(top, path):
    """Whether `path` below `top` is reached through a symbolic link."""
    rest = os.path.relpath(path, top).split("/")
    here = top
    for segment in rest[:-1]:
        here = os.path.join(here, segment)
        if os.path.islink(here):
            return True
    return False


def glob_tops(call, result):
    if call["tool"] != "glob" or result.get("kind") not in ("directory", "all-workspaces"):
        return []
    if not isinstance(call["params"].get("pattern"), str):
        return []
    return [result["path"]] if result.get("path") else call["workspace"]["roots"]


def glob_segments_follow_links(call, result, ref):
    """Expands `*` segments by listing a directory and stepping into what
    it lists, links included: only a pattern that begins with `**` is
    walked without following links (GLOB-7 was pinned only for those)."""
    pattern = call["params"].get("pattern")
    if call["tool"] != "glob" or not glob_tops(call, result):
        return result
    first = pattern.split("/", 1)[0]
    if pattern.startswith("**") or not any(c in first for c in "*?[") and "/" in pattern:
        return result
    for top in glob_tops(call, result):
        for path in python_glob_files(top, pattern):
            if through_link(top, path) and path not in result["files"]:
                result["files"].append(path)
    return result


def glob_base_follows_link(call, result, ref):
    """Takes a pattern's literal first segment as the directory to walk
    (`lnk/*` walks `lnk`), following it when it is a link."""
    pattern = call["params"].get("pattern")
    if call["tool"] != "glob" or not glob_tops(call, result):
        return result
    first = pattern.split("/", 1)[0]
    if "/" not in pattern or any(c in first for c in "*?[{"):
        return result
    for top in glob_tops(call, result):
        if os.path.islink(os.path.join(top, first)):
            for path in python_glob_files(top, pattern):
                if path not in result["files"]:
                    result["files"].append(path)
    return result


def fifo_matching_opened(call, result, ref):
    """Opens every file whose name passes the filter (the include, or the
    glob pattern) before looking at its type: a FIFO named `pipe.txt` below
    stops the whole call (here answered as an error instead of a hang)."""
    tool = call["tool"]
    if tool not in SEARCH_TOOLS + ("glob",) or result.get("kind") not in ("directory", "all-workspaces"):
        return result
    tops = [result["path"]] if result.get("path") else call["workspace"]["roots"]
    wanted = call["params"].get("include") if tool in SEARCH_TOOLS else call["params"].get("pattern")
    last = (wanted if isinstance(wanted, str) and wanted else "*").rsplit("/", 1)[-1]
    for top in tops:
        for here, dirs, names in os.walk(top):
            for name in names:
                path = os.path.join(here, name)
                try:
                    mode = os.lstat(path).st_mode
                except OSError:
                    continue  # a directory it may list but not search
                if stat.S_ISFIFO(mode) and fnmatch.fnmatchcase(name, last):
                    return error(result, "unsupported_file_type", f"{path} is not a regular file")
    return result


def links_in_chain(path, limit=64):
    """How many links a lookup of `path`'s last component follows."""
    count = 0
    while os.path.islink(path) and count < limit:
        target = os.readlink(path)
        path = os.path.normpath(os.path.join(os.path.dirname(path), target))
        count += 1
    return count


def link_limit_8(call, result, ref):
    """A resolver that follows at most 8 links (a hand-written realpath
    with a small limit): a longer chain is a loop to it, and since the 8
    links it saw are inside, `not_found`, even for a chain the spec
    follows to the end (40 links) or one that ends outside."""
    _, given = given_path(call["params"])
    if not given or "\0" in given:
        return result
    path = lexical(call["workspace"]["target"], given)
    if links_in_chain(path) <= 8:
        return result
    return error(result, "not_found", f"{path}: too many levels of symbolic links")


def first_existing_root(call, result, ref):
    """Resolves a relative path against each root in turn and takes the
    first where it exists, instead of the target directory alone (RES-2)."""
    key, given = given_path(call["params"])
    if not given or given.startswith("/") or "\0" in given or call["tool"] in FILE_TOOLS:
        return result
    for root in call["workspace"]["roots"]:
        candidate = lexical(root, given)
        if os.path.exists(candidate):
            if candidate == lexical(call["workspace"]["target"], given):
                return result
            answer = ref.ask({**call, "params": dict(call["params"], **{key: candidate})})
            answer["seq"] = result["seq"]
            return answer
    return result


def tilde_as_a_name(call, result, ref):
    """Takes `~/src` as a directory called `~` below the target, as the
    spec said before RES-12: the answer is `not_found`, and the model never
    learns that `~` is not its home directory."""
    key, given = given_path(call["params"])
    if not given or not given.startswith("~") or call["tool"] in FILE_TOOLS:
        return result
    answer = ref.ask({**call, "params": dict(call["params"], **{key: "./" + given})})
    answer["seq"] = result["seq"]
    return answer


def unknown_empty_dropped(call, result, ref):
    """Drops an unknown key whose value is `null` or `""`, as if it were a
    known key left empty (RES-1 applied to keys it does not define)."""
    params = {k: v for k, v in call["params"].items()
              if k in KNOWN_KEYS[call["tool"]] or v not in (None, "")}
    if params == call["params"]:
        return result
    answer = ref.ask({**call, "params": params})
    answer["seq"] = result["seq"]
    return answer


def long_paths_looked_up(call, result, ref):
    """Hands a path with a name over 255 bytes to the system as it is and
    maps ENAMETOOLONG to `not_found` (RES-13 wants `invalid_params`)."""
    _, given = given_path(call["params"])
    if not given or "\0" in given:
        return result
    path = lexical(call["workspace"]["target"], given)
    if len(path) <= 4095 and all(len(n) <= 255 for n in path.split("/")):
        return result
    return error(result, "not_found", f"{path}: file name too long")


def pwd_faked(call, result, ref):
    """Validates and echoes the directory but runs every command in the
    target directory, answering `pwd` with the directory it should have
    run in (a tool that sets `PWD` without changing directory)."""
    if call["tool"] != "shell" or result.get("outcome") != "ok":
        return result
    params = {k: v for k, v in call["params"].items() if k not in ("dir_path", "directory")}
    ran = ref.ask({**call, "params": params})
    if ran.get("outcome") != "ok":
        return result
    if call["params"].get("command") == "pwd":
        return result
    result["output"] = ran.get("output")
    return result


def text_is_output(call, result, ref):
    """Gives the model the command's output alone, never the directory it
    ran in: with `pwd` the text names it anyway (OUT-5 judged apart from
    the output)."""
    if call["tool"] == "shell" and result.get("outcome") == "ok":
        result["model_text"] = result.get("output", "")
    return result


def cut_after(limit, note):
    """A search, glob or ls that stops after `limit` results, with the note
    `truncated` or silently (OUT-6 allows the first past 100 only)."""
    def mutant(call, result, ref):
        if call["tool"] not in SEARCH_TOOLS + ("glob", "ls") or result.get("outcome") != "ok":
            return result
        for field in ("matches", "files", "entries"):
            items = result.get(field)
            if isinstance(items, list) and len(items) > limit:
                result[field] = sorted(items, key=json.dumps)[:limit]
                if note:
                    result["notes"] = sorted(set(result.get("notes") or []) | {"truncated"})
        return result
    return mutant


def truncated_note_always(call, result, ref):
    """Says `truncated` on every listing, whole or not."""
    if result.get("outcome") == "ok" and any(f in result for f in ("matches", "files", "entries")):
        result["notes"] = sorted(set(result.get("notes") or []) | {"truncated"})
    return result


def glob_per_root(call, result, ref):
    """Globs each root on its own and merges the lists: a file below two
    roots that are one directory through a link is reported twice."""
    if call["tool"] != "glob" or result.get("kind") != "all-workspaces":
        return result
    merged = []
    for root in call["workspace"]["roots"]:
        alone = ref.ask({**call, "workspace": {"roots": [root], "target": root}})
        merged += [f for f in alone.get("files", []) if f not in merged]
    result["files"] = merged
    return result


def glob_names_first_root(call, result, ref):
    """Names what a glob of a later root found below the first root, as a
    tool that joins each match to `roots[0]` instead of the directory it
    searched would: the first root's file where both roots hold the name."""
    roots = call["workspace"]["roots"]
    target = call["workspace"]["target"]
    if call["tool"] != "glob" or target not in roots[1:] or not result.get("files"):
        return result
    result["files"] = [roots[0] + f[len(target):] if f.startswith(target + "/") else f
                       for f in result["files"]]
    return result


def glob_opens_files(call, result, ref):
    """Opens each file a glob finds (to read its first bytes, or check it
    is text) and leaves out those it cannot open."""
    if call["tool"] != "glob" or not isinstance(result.get("files"), list):
        return result
    kept = []
    for path in result["files"]:
        try:
            with open(path, "rb"):
                kept.append(path)
        except OSError:
            pass
    result["files"] = kept
    return result


def ls_lstats_entries(call, result, ref):
    """Types each entry with `lstat`, and leaves out those it cannot
    examine (every entry of a directory it may read but not search)."""
    if call["tool"] != "ls" or not isinstance(result.get("entries"), list):
        return result
    kept = []
    for entry in result["entries"]:
        try:
            os.lstat(entry["path"])
            kept.append(entry)
        except OSError:
            pass
    result["entries"] = kept
    return result


def repository_of(path):
    """The top of the git repository holding `path`, by its real path."""
    here = os.path.realpath(path)
    while here not in ("/", ""):
        if os.path.isdir(os.path.join(here, ".git")):
            return here
        here = os.path.dirname(here)
    return None


def listed_paths(result):
    """(field, index, path) of every path a listing result gives."""
    for field in ("matches", "entries"):
        for i, item in enumerate(result.get(field) or []):
            yield field, i, item["path"]
    for i, path in enumerate(result.get("files") or []):
        yield "files", i, path


def set_path(result, field, i, path):
    if field == "files":
        result[field][i] = path
    else:
        result[field][i]["path"] = path


def git_tracked_only(call, result, ref):
    """Inside a git repository, reads only what git tracks (`git grep`
    without `--untracked`, `git ls-files`): an untracked file is missed."""
    if call["tool"] not in SEARCH_TOOLS + ("glob", "ls") or result.get("outcome") != "ok":
        return result
    tracked = {}
    drop = set()
    for field, i, path in listed_paths(result):
        repo = repository_of(path)
        if not repo:
            continue
        if repo not in tracked:
            listed = subprocess.run(["git", "-C", repo, "ls-files", "-z"], capture_output=True)
            tracked[repo] = {os.path.join(repo, p) for p in listed.stdout.decode(errors="replace").split("\0") if p}
        real = os.path.realpath(path)
        if os.path.isfile(real) and real not in tracked[repo]:
            drop.add((field, i))
    for field in ("matches", "entries", "files"):
        if isinstance(result.get(field), list):
            result[field] = [x for i, x in enumerate(result[field]) if (field, i) not in drop]
    return result


def git_real_paths(call, result, ref):
    """Inside a git repository, reports what git reports: paths below the
    repository's real path, not the path the caller gave."""
    if call["tool"] not in SEARCH_TOOLS + ("glob", "ls") or result.get("outcome") != "ok":
        return result
    for field, i, path in list(listed_paths(result)):
        if repository_of(path):
            set_path(result, field, i, os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path)))
    return result


def c_quoted(name):
    """A name as git prints it with `core.quotePath` (its default)."""
    special = any(ord(c) > 126 or c in '"\\\t\n' for c in name)
    if not special:
        return name
    out = ""
    for byte in name.encode():
        c = chr(byte)
        if byte > 126 or byte < 32 or c in '"\\':
            out += {"\t": "\\t", "\n": "\\n", '"': '\\"', "\\": "\\\\"}.get(c, "\\%03o" % byte)
        else:
            out += c
    return '"' + out + '"'


def git_quoted_names(call, result, ref):
    """Parses `git grep` / `git ls-files` output without `-z`: a name with
    a non-ASCII character, a quote or a tab comes back quoted."""
    if call["tool"] not in SEARCH_TOOLS + ("glob",) or result.get("outcome") != "ok":
        return result
    for field, i, path in list(listed_paths(result)):
        if repository_of(path):
            head, name = os.path.split(path)
            set_path(result, field, i, os.path.join(head, c_quoted(name)))
    return result


def binary_target_silent(call, result, ref):
    """Answers a binary file target with no matches and no note, so the
    model reads "the text is not there" (SEARCH-8 asks for `binary`)."""
    if call["tool"] in SEARCH_TOOLS and result.get("kind") == "file" and result.get("notes"):
        result["notes"] = [n for n in result["notes"] if n != "binary"]
    return result


def binary_noted_in_dirs(call, result, ref):
    """Says `binary` of every directory search: SEARCH-8 lets a directory
    search note a binary file it skipped, and does not judge the note."""
    if call["tool"] in SEARCH_TOOLS and result.get("kind") in ("directory", "all-workspaces"):
        result["notes"] = sorted(set(result.get("notes") or []) | {"binary"})
    return result


# Mode to a change of the reference's `hello` (made in place), for a mode
# whose defect needs the hello to say something the reference's does not
# (an ignore file of its own under another name). Filled by the scripts
# that reuse this dispatch.
HELLO_CHANGES = {}

CLASS_MUTANTS = {
    "binary-target-silent": binary_target_silent,
    "binary-noted-in-dirs": binary_noted_in_dirs,
    "git-tracked-only": git_tracked_only,
    "git-real-paths": git_real_paths,
    "git-quoted-names": git_quoted_names,
    "glob-opens-files": glob_opens_files,
    "ls-lstats-entries": ls_lstats_entries,
    "glob-per-root": glob_per_root,
    "glob-names-first-root": glob_names_first_root,
    "stops-at-50-silently": cut_after(50, False),
    "stops-at-50-saying-so": cut_after(50, True),
    "stops-at-100-silently": cut_after(100, False),
    "stops-at-100-saying-so": cut_after(100, True),
    "truncated-note-always": truncated_note_always,
    "pwd-faked": pwd_faked,
    "text-is-output": text_is_output,
    "first-existing-root": first_existing_root,
    "tilde-as-a-name": tilde_as_a_name,
    "unknown-empty-dropped": unknown_empty_dropped,
    "long-paths-looked-up": long_paths_looked_up,
    "dotdot-used-raw": dotdot_used_raw,
    "later-roots-lexical": later_roots_lexical,
    "glob-segments-follow-links": glob_segments_follow_links,
    "glob-base-follows-link": glob_base_follows_link,
    "fifo-matching-opened": fifo_matching_opened,
    "link-limit-8": link_limit_8,
}

# Protocol misbehaviour: what to do instead of answering.
MISBEHAVIOUR = {"crash", "hang", "garbage", "wrong-seq", "unsupported", "stdout-noise", "no-tools",
                "open-fifo", "open-fifo-stuck"}


def fifos_of(call):
    """The FIFOs a careless tool would open for `call`: its path parameter's
    (lexically, from the target), then every FIFO below its roots."""
    found = []
    path = path_param(call["params"])
    if path is not None:
        full = lexical(call["workspace"]["target"], path)
        try:
            if stat.S_ISFIFO(os.lstat(full).st_mode):
                found.append(full)
        except OSError:
            pass
    for top in call["workspace"]["roots"]:
        for here, dirs, names in os.walk(top):
            for name in names:
                full = os.path.join(here, name)
                try:
                    if stat.S_ISFIFO(os.lstat(full).st_mode):
                        found.append(full)
                except OSError:
                    pass
    return found


def open_fifo(call):
    """Opens the call's first FIFO as a tool that never looks at a file's
    type would (for writing from a writing tool): blocks until the other
    end is opened, then reads (or writes) and closes it. False when the
    call has none."""
    fifos = fifos_of(call)
    if not fifos:
        return False
    writing = call["tool"] in ("write_file", "edit")
    try:
        with open(fifos[0], "w" if writing else "r") as pipe:
            if writing:
                pipe.write("x")
            else:
                pipe.read()
    except OSError:
        pass  # the other end closed before the write: released all the same
    return True


def main():
    mode = sys.argv[1]
    if mode == "--list":
        print("\n".join(name for name in MUTANTS if name not in HONEST | CASES_ONLY | FOCUSED.keys()))
        return
    if mode == "--focused":
        print("\n".join(f"{name} {tool}" for name, tool in FOCUSED.items()))
        return
    pattern = sys.argv[2] if len(sys.argv) > 2 else "*"
    if mode not in {**MUTANTS, **FILE_MUTANTS, **CLASS_MUTANTS} and mode not in MISBEHAVIOUR:
        sys.exit(f"mutant.py: unknown mode {mode}")
    ref = Reference()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "bye":
            break
        if message["type"] == "hello":
            hello = ref.ask(message)
            if mode == "no-tools":
                hello["tools"] = []
            if mode in HELLO_CHANGES:
                HELLO_CHANGES[mode](hello)
            send(hello)
            continue
        result = ref.ask(message)
        if not fnmatch.fnmatchcase(message["case"], pattern):
            send(result)
            continue
        print(f"mutant.py: {mode} on {message['case']}", file=sys.stderr, flush=True)
        if mode == "open-fifo":
            # Blocks on the FIFO, then answers as the reference would.
            open_fifo(message)
            send(result)
        elif mode == "open-fifo-stuck":
            # Blocks on the FIFO and, released, never answers.
            if open_fifo(message):
                time.sleep(3600)
            send(result)
        elif mode == "crash":
            os._exit(3)
        elif mode == "hang":
            time.sleep(3600)
        elif mode == "garbage":
            sys.stdout.write("this is not json\n")
            sys.stdout.flush()
        elif mode == "stdout-noise":
            sys.stdout.write("[log] searching...\n")
            send(result)
        elif mode == "wrong-seq":
            result["seq"] += 1
            send(result)
        elif mode == "unsupported":
            send({"type": "result", "seq": result["seq"], "outcome": "unsupported",
                  "reason": "this adapter skips everything"})
        else:
            send({**MUTANTS, **FILE_MUTANTS, **CLASS_MUTANTS}[mode](message, result, ref))


if __name__ == "__main__":
    main()
