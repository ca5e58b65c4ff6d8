"""Tool dispatch: one protocol ``call`` in, one ``result`` body out.

This module knows the suite's tool and parameter names (spec/protocol.md) and
turns each tool's answer or ``ToolError`` into the fields of a ``result``
message. It does no I/O on the protocol stream; ``adapter.py`` does.
"""

from typing import Any, Dict, Mapping

from . import files, listing, search, shell
from .errors import ToolError, invalid
from .params import only, optional_path
from .resolve import FILE, Workspace, parent, resolve_target

TOOLS = ("resolve", "grep", "ripgrep", "shell", "glob", "ls", "read_file", "write_file", "edit")

SEARCH_PATH_DESCRIPTION = (
    "Optional: the path to search within. It can be a directory (searched "
    "recursively) or a single file (only that file is searched). Accepts an "
    "absolute path or a path relative to the target directory. If omitted, "
    "all workspace directories are searched."
)

SHELL_DIR_DESCRIPTION = (
    "(OPTIONAL) Directory to run the command in. Provide a workspace "
    "directory name (e.g., \"packages\"), a relative path (e.g., "
    "\"src/utils\"), or an absolute path within the workspace. If omitted, "
    "the command runs in the target directory."
)


GLOB_PATH_DESCRIPTION = (
    "Optional: where to look for files. A directory is searched recursively; "
    "a single file is matched alone, by its name. Accepts an absolute path "
    "or a path relative to the target directory. If omitted, all workspace "
    "directories are searched."
)

LS_PATH_DESCRIPTION = (
    "Optional: the directory to list (one level) or a single file, which is "
    "listed as its only entry. Accepts an absolute path or a path relative "
    "to the target directory. If omitted, every workspace directory is listed."
)


FILE_PATH_DESCRIPTION = (
    "The absolute path of the file (it must start with '/', e.g. "
    "'/home/user/project/src/main.py'). Relative paths are refused; the "
    "error shows the absolute path a relative one would have meant."
)


def _file_schema(extra: Dict[str, str], required: tuple) -> Dict[str, Any]:
    properties: Dict[str, Any] = {
        "file_path": {"type": "string", "description": FILE_PATH_DESCRIPTION},
        "absolute_path": {"type": "string", "description": "Alias of 'file_path'. " + FILE_PATH_DESCRIPTION},
    }
    for name, description in extra.items():
        properties[name] = {"type": "string", "description": description}
    return {"type": "object", "properties": properties, "required": ["file_path", *required],
            "additionalProperties": False}


def _path_properties(description: str) -> Dict[str, Any]:
    return {
        "dir_path": {"type": "string", "description": description},
        "path": {"type": "string", "description": "Alias of 'dir_path'. " + description},
    }


def _search_schema(path_param: str, alias: str) -> Dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "pattern": {
                "type": "string",
                "description": "The regular expression to search for in file contents.",
            },
            path_param: {"type": "string", "description": SEARCH_PATH_DESCRIPTION},
            alias: {
                "type": "string",
                "description": f"Alias of '{path_param}'. " + SEARCH_PATH_DESCRIPTION,
            },
            "include": {
                "type": "string",
                "description": (
                    "Optional: a glob for file base names to search (e.g. "
                    "\"*.ts\" or \"*.{ts,js}\"). Ignored, with a note, when "
                    "the path is a file."
                ),
            },
        },
        "required": ["pattern"],
        "additionalProperties": False,
    }


SCHEMAS: Dict[str, Any] = {
    "read_file": _file_schema({}, ()),
    "write_file": _file_schema({"content": "The complete new content of the file."}, ("content",)),
    "edit": _file_schema(
        {
            "old_string": "The exact text to replace; it must occur exactly once in the file.",
            "new_string": "The replacement text (may be empty).",
        },
        ("old_string", "new_string"),
    ),
    "glob": {
        "type": "object",
        "properties": {
            "pattern": {
                "type": "string",
                "description": (
                    "A glob over file paths relative to the searched directory, "
                    "e.g. \"**/*.py\" or \"src/*.{ts,md}\"."
                ),
            },
            **_path_properties(GLOB_PATH_DESCRIPTION),
        },
        "required": ["pattern"],
    },
    "ls": {"type": "object", "properties": _path_properties(LS_PATH_DESCRIPTION), "required": []},
    "grep": _search_schema("dir_path", "path"),
    "ripgrep": _search_schema("dir_path", "path"),
    "shell": {
        "type": "object",
        "properties": {
            "command": {
                "type": "string",
                "description": "The command to run with `sh -c`.",
            },
            "dir_path": {"type": "string", "description": SHELL_DIR_DESCRIPTION},
            "directory": {
                "type": "string",
                "description": "Legacy alias of 'dir_path'. " + SHELL_DIR_DESCRIPTION,
            },
        },
        "required": ["command"],
        "additionalProperties": False,
    },
}


def _resolve_tool(workspace: Workspace, params: Mapping[str, Any]) -> Dict[str, Any]:
    only(params, ("path",))
    given = optional_path(params, "path")
    target = resolve_target(workspace, given)
    body: Dict[str, Any] = {"outcome": "ok", "kind": target.kind}
    if target.path is not None:
        body["path"] = target.path
    if target.kind == FILE:
        body["parent"] = target.parent
    return body


def _search_tool(workspace: Workspace, params: Mapping[str, Any]) -> Dict[str, Any]:
    result = search.run(workspace, params)
    body: Dict[str, Any] = {"outcome": "ok", "kind": result.kind}
    if result.path is not None:
        body["path"] = result.path
    if result.kind == FILE:
        body["parent"] = parent(result.path)
    body["matches"] = [{"path": m.path, "line": m.line, "text": m.text} for m in result.matches]
    body["notes"] = list(result.notes)
    body["description"] = result.description
    body["model_text"] = _search_text(workspace, result)
    return body


def _search_text(workspace: Workspace, result: "search.SearchResult") -> str:
    """What a model reads (OUT-5): the resolved place, then one line per match."""
    place = result.path or "all workspace directories (" + ", ".join(workspace.roots) + ")"
    count = "1 match" if len(result.matches) == 1 else f"{len(result.matches)} matches"
    notes = f" (notes: {', '.join(result.notes)})" if result.notes else ""
    lines = "".join(f"{m.path}:{m.line}: {m.text}\n" for m in result.matches)
    return f"Found {count} in {place}{notes}\n{lines}"


def _listing_body(workspace: Workspace, result: "listing.Listing", lines: str) -> Dict[str, Any]:
    body: Dict[str, Any] = {"outcome": "ok", "kind": result.kind}
    if result.path is not None:
        body["path"] = result.path
    if result.kind == FILE:
        body["parent"] = parent(result.path)
    body["description"] = result.description
    # What a model reads (OUT-5): the resolved place first.
    place = result.path or "all workspace directories (" + ", ".join(workspace.roots) + ")"
    body["model_text"] = f"{place}\n{lines}"
    return body


def _glob_tool(workspace: Workspace, params: Mapping[str, Any]) -> Dict[str, Any]:
    result = listing.glob(workspace, params)
    lines = "".join(f"{f}\n" for f in result.files)
    return {**_listing_body(workspace, result, lines), "files": list(result.files)}


def _ls_tool(workspace: Workspace, params: Mapping[str, Any]) -> Dict[str, Any]:
    result = listing.ls(workspace, params)
    lines = "".join(f"{kind} {path}\n" for path, kind in result.entries)
    entries = [{"path": path, "type": kind} for path, kind in result.entries]
    return {**_listing_body(workspace, result, lines), "entries": entries}


def _shell_tool(workspace: Workspace, params: Mapping[str, Any]) -> Dict[str, Any]:
    result = shell.run(workspace, params)
    return {
        "outcome": "ok",
        "cwd": result.cwd,
        "output": result.output,
        "description": result.description,
        # What a model reads (OUT-5): the directory used, then the output.
        "model_text": f"Ran in {result.cwd}\n{result.output}",
    }


def _file_tool(run):
    def tool(workspace: Workspace, params: Mapping[str, Any]) -> Dict[str, Any]:
        result = run(workspace, params)
        body: Dict[str, Any] = {
            "outcome": "ok",
            "kind": FILE,
            "path": result.path,
            "parent": parent(result.path),
            "description": result.description,
            # What a model reads (OUT-5): the path used comes first.
            "model_text": result.model_text,
        }
        if run is files.read_file:
            body["notes"] = list(result.notes)
            if result.content is not None:
                body["content"] = result.content
        return body

    return tool


_DISPATCH = {
    "read_file": _file_tool(files.read_file),
    "write_file": _file_tool(files.write_file),
    "edit": _file_tool(files.edit),
    "resolve": _resolve_tool,
    "grep": _search_tool,
    "ripgrep": _search_tool,
    "shell": _shell_tool,
    "glob": _glob_tool,
    "ls": _ls_tool,
}


def call(tool: str, workspace: Mapping[str, Any], params: Any) -> Dict[str, Any]:
    """Answer one call; the returned dict lacks only ``type`` and ``seq``."""
    handler = _DISPATCH.get(tool)
    if handler is None:
        return {"outcome": "unsupported", "reason": f"unknown tool {tool!r}"}
    try:
        if not isinstance(params, Mapping):
            raise invalid("params must be an object")
        ws = Workspace(workspace["roots"], workspace["target"])
        return handler(ws, params)
    except ToolError as err:
        return {"outcome": "error", "error": {"code": err.code, "message": err.message}}
