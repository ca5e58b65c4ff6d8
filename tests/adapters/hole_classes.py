#!/usr/bin/env python3
"""Wrong subjects for the hole classes of issue 32, for tests/hole_classes.rs.

Each mode is the reference (through tests/adapters/mutant.py, whose modes
and dispatch it reuses) with one defect a published agent tool had: the
file tools deciding binary by the name or a first block, decoding and
rewriting what they read or write, cutting a read silently, matching an
edit loosely, reading a file before replacing it, honouring their own
ignore files, expanding a file path as a pattern, splitting a glob
pattern on spaces. The cases of each class must fail every one.

usage: hole_classes.py MODE [CASE-GLOB]
"""

import fnmatch
import glob as globbing
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mutant  # noqa: E402
from mutant import file_path, read  # noqa: E402


def ok_read(call, result):
    return call["tool"] == "read_file" and result.get("outcome") == "ok"


def wrote(call, result):
    return call["tool"] in ("write_file", "edit") and result.get("outcome") == "ok"


def error(result, code, message):
    return {"type": "result", "seq": result["seq"], "outcome": "error",
            "error": {"code": code, "message": message}}


def as_text(result, data):
    """A read answered as text from `data`, decoded leniently."""
    result["content"] = data.decode("utf-8", "replace")
    result["notes"] = []
    return result


def as_binary(result):
    result.pop("content", None)
    result["notes"] = ["binary"]
    return result


def rewrite(path, change):
    """Rewrites the file `path` leads to through `change(bytes) -> bytes`."""
    data = read(path)
    if data is not None:
        with open(path, "wb") as f:
            f.write(change(data))


# Class 1: binary decided by the name, or by a first block.

BINARY_NAMES = (".bin", ".dat", ".php", ".exe", ".so")


def binary_by_extension(call, result, ref):
    """Binary if the name says so; a `.txt` is text whatever it holds."""
    if not ok_read(call, result):
        return result
    path = file_path(call)
    if path.endswith(BINARY_NAMES):
        return as_binary(result)
    if path.endswith(".txt") and "content" not in result:
        data = read(path)
        if data is not None and b"\0" in data:
            return as_text(result, data.replace(b"\0", b""))
    return result


def binary_first_4k(call, result, ref):
    """Looks for a NUL in the first 4 KiB only."""
    if not ok_read(call, result) or "content" in result:
        return result
    data = read(file_path(call))
    if data is not None and b"\0" in data and b"\0" not in data[:4096]:
        return as_text(result, data.replace(b"\0", b""))
    return result


# Class 2: decoding.

def bom_stripped(call, result, ref):
    """Drops a UTF-8 byte-order mark on read, and on an edit's write-back."""
    if ok_read(call, result) and isinstance(result.get("content"), str):
        result["content"] = result["content"].removeprefix("\ufeff")
    elif call["tool"] == "edit" and wrote(call, result):
        rewrite(file_path(call), lambda b: b.removeprefix(b"\xef\xbb\xbf"))
    return result


def utf16_decoded(call, result, ref):
    """Decodes a file with a UTF-16 byte-order mark instead of calling it binary."""
    if not ok_read(call, result) or "content" in result:
        return result
    data = read(file_path(call))
    if data is not None and data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        result["content"] = data.decode("utf-16")
        result["notes"] = []
    return result


def edit_replaces_invalid_bytes(call, result, ref):
    """Writes an edited file back through a lossy UTF-8 decoding."""
    if call["tool"] == "edit" and wrote(call, result):
        rewrite(file_path(call), lambda b: b.decode("utf-8", "replace").encode("utf-8"))
    return result


# Class 3: silent cuts.

def read_cuts_lines(call, result, ref):
    """Cuts lines at 2,000 characters and a file at 2,000 lines, silently."""
    content = result.get("content")
    if not ok_read(call, result) or not isinstance(content, str):
        return result
    lines = content.split("\n")[:2000]
    result["content"] = "\n".join(line[:2000] for line in lines)
    return result


def read_cuts_small_saying_so(call, result, ref):
    """Cuts at 2,000 lines with the note: the file is too small to cut."""
    content = result.get("content")
    if not ok_read(call, result) or not isinstance(content, str):
        return result
    lines = content.split("\n")
    if len(lines) > 2000:
        result["content"] = "\n".join(lines[:2000])
        result["notes"] = ["truncated"]
    return result


def read_cuts_to_budget(call, result, ref):
    """Cuts a read to a 32 KiB budget, saying so."""
    content = result.get("content")
    if not ok_read(call, result) or not isinstance(content, str):
        return result
    if len(content.encode("utf-8")) > 32768:
        result["content"] = content.encode("utf-8")[:32768].decode("utf-8", "ignore")
        result["notes"] = ["truncated"]
    return result


# Class 4: content rewritten.

def drops_astral(call, result, ref):
    """Drops characters outside the Basic Multilingual Plane (emoji) on write."""
    if wrote(call, result):
        rewrite(file_path(call), lambda b: "".join(
            c for c in b.decode("utf-8", "surrogateescape") if ord(c) <= 0xFFFF
        ).encode("utf-8", "surrogateescape"))
    return result


def interprets_escapes(call, result, ref):
    """Turns the two characters `\\t` and `\\n` in what it writes into a tab
    and a newline."""
    if call["tool"] not in ("write_file", "edit") or result.get("outcome") != "ok":
        return result
    params = dict(call["params"])
    key = "content" if call["tool"] == "write_file" else "new_string"
    if "\\t" not in params.get(key, "") and "\\n" not in params.get(key, ""):
        return result
    path = file_path(call)
    data = read(path)
    value = params[key].replace("\\t", "\t").replace("\\n", "\n")
    if data is not None:
        with open(path, "wb") as f:
            f.write(data.replace(params[key].encode(), value.encode(), 1))
    return result


def adds_final_newline(call, result, ref):
    """Ends every file it writes with a newline."""
    if wrote(call, result):
        rewrite(file_path(call), lambda b: b if b.endswith(b"\n") or not b else b + b"\n")
    return result


SECRET = re.compile(r"(?im)^(\s*[\w.-]*(key|password|secret|token)[\w.-]*\s*[=:]\s*).+$")


def masks_secrets(call, result, ref):
    """Masks the values of lines that look like secrets."""
    if ok_read(call, result) and isinstance(result.get("content"), str):
        result["content"] = SECRET.sub(r"\1********", result["content"])
    return result


def trims_many_matches(call, result, ref):
    """Strips trailing spaces from match lines once there are five or more."""
    matches = result.get("matches")
    if call["tool"] in mutant.SEARCH_TOOLS and isinstance(matches, list) and len(matches) >= 5:
        for m in matches:
            m["text"] = m["text"].rstrip(" \t")
    return result


# Class 5 and 13: loose edits.

def no_occurrence(result):
    return result.get("outcome") == "error" and "occurs 0 times" in result.get("error", {}).get("message", "")


def edit_trimmed_lines(call, result, ref):
    """When old_string does not occur, matches it line by line with each
    line trimmed, and replaces those lines (indentation lost)."""
    if call["tool"] != "edit" or not no_occurrence(result):
        return result
    path, params = file_path(call), call["params"]
    data = read(path)
    if data is None:
        return result
    lines = data.decode("utf-8", "surrogateescape").split("\n")
    want = [w.strip() for w in params["old_string"].strip("\n").split("\n")]
    for i in range(len(lines) - len(want) + 1):
        if [line.strip() for line in lines[i:i + len(want)]] == want:
            lines[i:i + len(want)] = params["new_string"].strip("\n").split("\n")
            with open(path, "wb") as f:
                f.write("\n".join(lines).encode("utf-8", "surrogateescape"))
            return {"type": "result", "seq": result["seq"], "outcome": "ok", "kind": "file",
                    "path": path, "model_text": f"Edited {path}"}
    return result


def edit_case_insensitive(call, result, ref):
    """When old_string does not occur, tries it ignoring case."""
    if call["tool"] != "edit" or not no_occurrence(result):
        return result
    path, params = file_path(call), call["params"]
    data = read(path)
    if data is None:
        return result
    text = data.decode("utf-8", "surrogateescape")
    at = text.lower().find(params["old_string"].lower())
    if at < 0:
        return result
    text = text[:at] + params["new_string"] + text[at + len(params["old_string"]):]
    with open(path, "wb") as f:
        f.write(text.encode("utf-8", "surrogateescape"))
    return {"type": "result", "seq": result["seq"], "outcome": "ok", "kind": "file",
            "path": path, "model_text": f"Edited {path}"}


def edit_crlf_tolerant(call, result, ref):
    """When an old_string with `\\n` does not occur in a CRLF file, matches it
    with the file's line endings."""
    if call["tool"] != "edit" or not no_occurrence(result):
        return result
    params = dict(call["params"])
    old = params["old_string"].replace("\r\n", "\n").replace("\n", "\r\n")
    new = params["new_string"].replace("\r\n", "\n").replace("\n", "\r\n")
    return ref.ask({**call, "params": {**params, "old_string": old, "new_string": new}})


def edit_empty_creates(call, result, ref):
    """An empty old_string on a missing file creates it, directories and all."""
    path, params = file_path(call), call["params"]
    if call["tool"] != "edit" or params.get("old_string") != "" or not path or os.path.lexists(path):
        return result
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(params.get("new_string", ""))
    return {"type": "result", "seq": result["seq"], "outcome": "ok", "kind": "file",
            "path": path, "model_text": f"Created {path}"}


# Class 6: writes.

def write_reads_first(call, result, ref):
    """Reads the file before replacing it (to compare), so a write-only file
    is refused."""
    path = file_path(call)
    if call["tool"] != "write_file" or result.get("outcome") != "ok":
        return result
    data = read(path)
    if data is None and os.path.exists(path) and not os.access(path, os.R_OK):
        return error(result, "permission_denied", f"cannot read {path}")
    return result


def makes_link_target_dirs(call, result, ref):
    """Writes through a dangling link, creating its target's directories."""
    path = file_path(call)
    if call["tool"] != "write_file" or result.get("outcome") != "error" or not path:
        return result
    if not os.path.islink(path) or os.path.exists(path):
        return result
    target = os.path.join(os.path.dirname(path), os.readlink(path))
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(path, "w") as f:
            f.write(call["params"].get("content", ""))
    except OSError:
        return result
    return {"type": "result", "seq": result["seq"], "outcome": "ok", "kind": "file",
            "path": path, "model_text": f"Wrote {path}"}


IGNORE_FILES = (".geminiignore", ".qwenignore", ".aiexclude", ".cursorignore", ".aiderignore")


def ignored(call, path, names=IGNORE_FILES):
    """Whether an agent ignore file (one of `names`) in the root holding
    `path` names it."""
    for root in call["workspace"]["roots"]:
        if not path.startswith(root + "/"):
            continue
        below = path[len(root) + 1:]
        for name in names:
            data = read(os.path.join(root, name)) or b""
            for pattern in data.decode("utf-8", "replace").split("\n"):
                pattern = pattern.strip()
                if pattern and (below == pattern.rstrip("/") or below.startswith(pattern.rstrip("/") + "/")
                                or fnmatch.fnmatchcase(below, pattern)):
                    return True
    return False


def honours_tool_ignore(call, result, ref, names=IGNORE_FILES):
    """Honours its own ignore files: named files are hidden from every tool."""
    if result.get("outcome") != "ok":
        return result
    path = file_path(call)
    if call["tool"] in mutant.FILE_TOOLS and path and ignored(call, path, names):
        return error(result, "not_found", f"{path} is ignored")
    if isinstance(result.get("matches"), list):
        result["matches"] = [m for m in result["matches"] if not ignored(call, m["path"], names)]
    if isinstance(result.get("files"), list):
        result["files"] = [f for f in result["files"] if not ignored(call, f, names)]
    if isinstance(result.get("entries"), list):
        result["entries"] = [e for e in result["entries"] if not ignored(call, e["path"], names)]
    return result


# An ignore file of the tool's own under a name no case knows: announced in
# `hello` (`ignore_files`), as spec/protocol.md asks, and honoured.
OWN_IGNORE_FILE = ".mytoolignore"


def announce_own_ignore(hello):
    hello["ignore_files"] = [OWN_IGNORE_FILE]


def honours_own_ignore(call, result, ref):
    """Honours the ignore file it announced as its own, and no other."""
    return honours_tool_ignore(call, result, ref, names=(OWN_IGNORE_FILE,))


def announce_no_ignore_file(hello):
    hello.pop("ignore_files", None)


def announces_no_ignore_file(call, result, ref):
    """The reference, announcing no ignore file of its own."""
    return result


# Class 12: a file path expanded as a pattern.

def file_path_globbed(call, result, ref):
    """Expands a file path holding `[`, `]`, `*` or `?` as a glob and uses
    the first file it finds (or answers not_found)."""
    path = file_path(call)
    if call["tool"] not in mutant.FILE_TOOLS or not path or not globbing.has_magic(path):
        return result
    if str(result.get("model_text", "")).startswith("Created "):
        # The reference made the file of that name; this tool would have
        # expanded the name before writing.
        os.unlink(path)
    found = sorted(globbing.glob(path))
    if not found:
        return error(result, "not_found", f"no file matches {path}")
    params = dict(call["params"])
    for name in ("file_path", "absolute_path"):
        if params.get(name) == path:
            params[name] = found[0]
    answer = ref.ask({**call, "params": params})
    if answer.get("path") == found[0]:
        answer["path"] = path
    return answer


# Class 11: glob patterns.

def glob_splits_on_space(call, result, ref):
    """Splits a glob pattern on white space and globs each word."""
    pattern = call["params"].get("pattern")
    if call["tool"] != "glob" or not isinstance(pattern, str) or " " not in pattern:
        return result
    files = set()
    for word in pattern.split():
        answer = ref.ask({**call, "params": {**call["params"], "pattern": word}})
        files.update(answer.get("files") or [])
    result["files"] = sorted(files)
    return result


def glob_ascii_directories(call, result, ref):
    """Matches a pattern's directory segments as ASCII: one with another
    character matches nothing."""
    pattern = call["params"].get("pattern")
    if call["tool"] != "glob" or not isinstance(pattern, str) or "/" not in pattern:
        return result
    if not pattern.rsplit("/", 1)[0].isascii():
        result["files"] = []
    return result


def read_cut_allowed(call, result, ref):
    """Right by FILE-13: cuts a read of a file over 64 KiB after its first
    64 KiB and one line, and says so."""
    content = result.get("content")
    if not ok_read(call, result) or not isinstance(content, str):
        return result
    data = content.encode("utf-8")
    if len(data) > 65536:
        end = data.find(b"\n", 65536)
        if 0 <= end < len(data) - 1:
            result["content"] = data[:end + 1].decode("utf-8")
            result["notes"] = ["truncated"]
    return result


def ls_counts_entries(call, result, ref):
    """Tells the model how many entries a listing has, and not which."""
    if call["tool"] == "ls" and isinstance(result.get("entries"), list):
        place = result.get("path") or "the workspace"
        result["model_text"] = f"Listed directory {place} ({len(result['entries'])} entries)"
    return result


# Class 9: roots told apart by name, matches capped per file.

def roots_by_base_name(call, result, ref):
    """Tells roots apart by their base name: of two roots named `ws`, only
    the first is answered for (its files, matches and entries alone)."""
    first, later = set(), []
    for root in call["workspace"]["roots"]:
        name = os.path.basename(root)
        if name in first:
            later.append(root)
        first.add(name)

    def kept(item):
        path = item if isinstance(item, str) else item.get("path", "")
        return not any(path == r or path.startswith(r + "/") for r in later)

    for field in ("matches", "files", "entries"):
        if later and isinstance(result.get(field), list):
            result[field] = [item for item in result[field] if kept(item)]
    return result


def caps_matches_per_file(call, result, ref):
    """Keeps at most 50 matching lines of each file, silently."""
    matches = result.get("matches")
    if call["tool"] in mutant.SEARCH_TOOLS and isinstance(matches, list):
        per_file = {}
        kept = []
        for m in matches:
            per_file[m["path"]] = per_file.get(m["path"], 0) + 1
            if per_file[m["path"]] <= 50:
                kept.append(m)
        result["matches"] = kept
    return result


# Class 8: real paths checked below the target only.

def target_only_real(call, result, ref):
    """Checks real paths below the target only: a path in another root is
    inside by its text, whatever its links lead to (one published tool
    read, wrote and edited outside through this)."""
    _, given = mutant.given_path(call["params"])
    workspace = call["workspace"]
    if not given or not mutant.refused_outside(result) or "\0" in given:
        return result
    meant = mutant.lexical(workspace["target"], given)
    target = workspace["target"]
    if meant == target or meant.startswith(target + "/"):
        return result
    if not any(meant == r or meant.startswith(r + "/") for r in workspace["roots"]):
        return result
    answer = mutant.ask_widened(call, ref, mutant.nearest_existing(os.path.realpath(meant)))
    answer["seq"] = result["seq"]
    return answer


HOLE_CLASS_MUTANTS = {
    "stops-at-5000-silently": mutant.cut_after(5000, False),
    "stops-at-5000-saying-so": mutant.cut_after(5000, True),
    "target-only-real": target_only_real,
    "roots-by-base-name": roots_by_base_name,
    "caps-matches-per-file": caps_matches_per_file,
    "ls-counts-entries": ls_counts_entries,
    "read-cut-allowed": read_cut_allowed,
    "binary-by-extension": binary_by_extension,
    "binary-first-4k": binary_first_4k,
    "bom-stripped": bom_stripped,
    "utf16-decoded": utf16_decoded,
    "edit-replaces-invalid-bytes": edit_replaces_invalid_bytes,
    "read-cuts-lines": read_cuts_lines,
    "read-cuts-small-saying-so": read_cuts_small_saying_so,
    "read-cuts-to-budget": read_cuts_to_budget,
    "drops-astral": drops_astral,
    "interprets-escapes": interprets_escapes,
    "adds-final-newline": adds_final_newline,
    "masks-secrets": masks_secrets,
    "trims-many-matches": trims_many_matches,
    "edit-trimmed-lines": edit_trimmed_lines,
    "edit-case-insensitive": edit_case_insensitive,
    "edit-crlf-tolerant": edit_crlf_tolerant,
    "edit-empty-creates": edit_empty_creates,
    "write-reads-first": write_reads_first,
    "makes-link-target-dirs": makes_link_target_dirs,
    "honours-tool-ignore": honours_tool_ignore,
    "honours-own-ignore": honours_own_ignore,
    "announces-no-ignore-file": announces_no_ignore_file,
    "file-path-globbed": file_path_globbed,
    "glob-splits-on-space": glob_splits_on_space,
    "glob-ascii-directories": glob_ascii_directories,
}

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(HOLE_CLASS_MUTANTS))
        sys.exit(0)
    mutant.CLASS_MUTANTS.update(HOLE_CLASS_MUTANTS)
    mutant.HELLO_CHANGES.update({
        "honours-own-ignore": announce_own_ignore,
        "announces-no-ignore-file": announce_no_ignore_file,
    })
    mutant.main()
