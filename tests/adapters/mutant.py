#!/usr/bin/env python3
"""A deliberately wrong adapter, for toolpath's own tests.

It forwards every message to the reference (`$TOOLPATH_BIN serve`) and breaks
the answers in one named way, for the cases whose instance id matches an
optional glob (default: all). toolpath's tests run the suite through it to
prove two things: the harness classifies a misbehaving adapter correctly and
keeps going, and the cases can tell a wrong implementation from a right one.

usage: mutant.py MODE [CASE-GLOB]
       mutant.py --list    (the result-level mutants, one a line, for tests)
"""

import fnmatch
import json
import os
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
}

# Protocol misbehaviour: what to do instead of answering.
MISBEHAVIOUR = {"crash", "hang", "garbage", "wrong-seq", "unsupported", "stdout-noise", "no-tools"}


def main():
    mode = sys.argv[1]
    if mode == "--list":
        print("\n".join(name for name in MUTANTS if name != "identity"))
        return
    pattern = sys.argv[2] if len(sys.argv) > 2 else "*"
    if mode not in MUTANTS and mode not in MISBEHAVIOUR:
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
            send(hello)
            continue
        result = ref.ask(message)
        if not fnmatch.fnmatchcase(message["case"], pattern):
            send(result)
            continue
        print(f"mutant.py: {mode} on {message['case']}", file=sys.stderr, flush=True)
        if mode == "crash":
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
            send(MUTANTS[mode](message, result, ref))


if __name__ == "__main__":
    main()
