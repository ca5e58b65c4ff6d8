#!/usr/bin/env python3
"""Wrong subjects for the hole classes of issue 45 (items 6 to 12), for
tests/path_holes.rs.

Each mode is the reference (through tests/adapters/mutant.py, whose
dispatch it reuses) with one defect a published tool had, or that a
rule's old wording asked for: a path handed to the kernel as written (a
trailing `/`, a text past PATH_MAX), an empty glob segment answered with
nothing, a write that checks roots as given, a read that adds a final
newline, a file tool that honours .gitignore, a tool that refuses a path
through /proc/self/root. Each passed the suite before the cases of its
class; the cases of its class must fail it.

usage: path_holes.py MODE [CASE-GLOB]
"""

import fnmatch
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import mutant  # noqa: E402
from mutant import file_path  # noqa: E402

PATH_TOOLS = ("resolve", "grep", "ripgrep", "shell", "glob", "ls")


def error(result, code, message):
    return {"type": "result", "seq": result["seq"], "outcome": "error",
            "error": {"code": code, "message": message}}


def given(call):
    """The path parameter as written, whatever the tool."""
    if call["tool"] in mutant.FILE_TOOLS:
        return file_path(call)
    return mutant.path_param(call["params"])


def absolute(call, path):
    return path if path.startswith("/") else call["workspace"]["target"] + "/" + path


def trailing_slash_raw(call, result, ref):
    """Hands a file tool's path to the kernel as written: a file's path
    with a trailing `/` is ENOTDIR (not_found), a new one EISDIR. (The
    other tools had cases: `*.file.trailing-slash`.)"""
    path = given(call)
    if call["tool"] not in mutant.FILE_TOOLS or not path or not path.endswith("/"):
        return result
    if result.get("outcome") != "ok" or result.get("kind") != "file":
        return result
    if call["tool"] == "write_file" and str(result.get("model_text", "")).startswith("Created "):
        os.unlink(result["path"])  # the kernel would not have made it
    return error(result, "not_found", f"{path}: Not a directory")


def long_text_raw(call, result, ref):
    """Hands the shell's and the writing tools' path text to the kernel as
    written: past PATH_MAX it is ENAMETOOLONG, whatever it normalises to.
    (The other tools had a case: `resolve.shape.path-long-normalised`.)"""
    path = given(call)
    if call["tool"] not in ("shell", "write_file", "edit"):
        return result
    if not path or len(absolute(call, path).encode()) < 4096:
        return result
    return error(result, "invalid_params", f"{path[:40]}...: File name too long")


def empty_segments_match_nothing(call, result, ref):
    """An empty glob segment taken as written: `src//*.ts` answers "no
    files" instead of saying what to write."""
    err = result.get("error")
    if call["tool"] == "glob" and err and "empty segment" in err["message"]:
        kind = "all-workspaces"
        return {"type": "result", "seq": result["seq"], "outcome": "ok", "kind": kind, "files": []}
    return result


def under(path, roots):
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def writes_roots_as_given(call, result, ref):
    """write_file and edit check the real path against the roots as given,
    not their real paths: under a root that is a link, every file is
    refused."""
    path = file_path(call)
    if call["tool"] not in ("write_file", "edit") or not path or not path.startswith("/"):
        return result
    if result.get("outcome") == "error" and result["error"]["code"] == "invalid_params":
        return result
    meant = mutant.lexical("/", path)
    real = os.path.join(os.path.realpath(os.path.dirname(meant)), os.path.basename(meant))
    roots = call["workspace"]["roots"]
    if under(real, roots):
        return result
    return error(result, "outside_workspace", f"{meant} is outside the workspace roots {roots}")


def file_roots_lexical(call, result, ref):
    """The file tools ask the path as written to lie under a root as given
    before they check its real path: the file below a root that is a link,
    named by its real path, is refused."""
    path = file_path(call)
    if call["tool"] not in mutant.FILE_TOOLS or not path or not path.startswith("/"):
        return result
    meant = mutant.lexical("/", path)
    if under(meant, call["workspace"]["roots"]) or result.get("outcome") != "ok":
        return result
    return error(result, "outside_workspace", f"{meant} is outside the workspace roots")


def read_adds_final_newline(call, result, ref):
    """Ends the text of a small ASCII file it reads with a newline (lines
    read and joined again; larger and non-ASCII files take another path
    through the tool, which the cases before issue 45 pinned)."""
    content = result.get("content")
    if call["tool"] == "read_file" and isinstance(content, str) and content.isascii() \
            and len(content) < 1000:
        if content and not content.endswith("\n"):
            result["content"] = content + "\n"
    return result


def git_ignored(call, path):
    """Whether a `.gitignore` in the root holding `path` names it (its
    name, or a directory on the way): the few pattern forms cases use."""
    for root in call["workspace"]["roots"]:
        if not path.startswith(root + "/"):
            continue
        try:
            with open(os.path.join(root, ".gitignore"), encoding="utf-8") as f:
                patterns = [p.strip() for p in f.read().split("\n") if p.strip()]
        except OSError:
            continue
        names = path[len(root) + 1:].split("/")
        for pattern in patterns:
            if pattern.endswith("/"):
                if pattern.rstrip("/") in names[:-1]:
                    return True
            elif any(fnmatch.fnmatchcase(name, pattern) for name in names):
                return True
    return False


def file_tools_honour_gitignore(call, result, ref):
    """The file tools refuse a file git ignores, as one published tool
    did: "not found" for a `.env` or a build output the model can see."""
    path = file_path(call)
    if call["tool"] not in mutant.FILE_TOOLS or not path or result.get("outcome") != "ok":
        return result
    meant = mutant.lexical("/", path)
    if not git_ignored(call, meant):
        return result
    if call["tool"] == "write_file" and str(result.get("model_text", "")).startswith("Created "):
        os.unlink(meant)
    return error(result, "not_found", f"{meant} is ignored by .gitignore")


def refuses_proc_root(call, result, ref):
    """Refuses a path written through /proc (a real path inside or not),
    as SEC-12's old list channel asked: a false refusal by SEC-13."""
    path = given(call)
    if path and mutant.lexical("/", absolute(call, path)).startswith("/proc/"):
        if result.get("outcome") == "ok":
            roots = ", ".join(call["workspace"]["roots"])
            return error(result, "outside_workspace", f"{path} is outside the workspace ({roots})")
    return result


PATH_HOLE_MUTANTS = {
    "trailing-slash-raw": trailing_slash_raw,
    "long-text-raw": long_text_raw,
    "empty-segments-match-nothing": empty_segments_match_nothing,
    "writes-roots-as-given": writes_roots_as_given,
    "file-roots-lexical": file_roots_lexical,
    "read-adds-final-newline": read_adds_final_newline,
    "file-tools-honour-gitignore": file_tools_honour_gitignore,
    "refuses-proc-root": refuses_proc_root,
}

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--list":
        print("\n".join(PATH_HOLE_MUTANTS))
        sys.exit(0)
    mutant.CLASS_MUTANTS.update(PATH_HOLE_MUTANTS)
    mutant.main()
