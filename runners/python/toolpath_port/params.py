"""Parameter validation shared by every tool (spec RES-1, SEARCH-1, SHELL-1, ERR-7, ERR-8).

All of it happens before any file system access (ERR-2). A JSON ``null`` is
treated like an absent parameter; any other non-string value is
``invalid_params``.
"""

from typing import Any, Mapping, Optional, Sequence

from .errors import invalid


def only(params: Mapping[str, Any], known: Sequence[str]) -> None:
    """ERR-8: a key the tool does not define is invalid_params, named in the message."""
    for key in sorted(params):
        if key not in known:
            raise invalid(f"unknown parameter '{key}'; this tool takes {', '.join(known)}")


def optional_string(params: Mapping[str, Any], name: str) -> Optional[str]:
    """The value of an optional string parameter, or None when absent or empty."""
    value = params.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise invalid(f"parameter '{name}' must be a string, got {type(value).__name__}")
    return value or None


def required_string(params: Mapping[str, Any], name: str) -> str:
    """The value of a required, non-empty string parameter."""
    value = optional_string(params, name)
    if value is None:
        raise invalid(f"parameter '{name}' is required and must not be empty")
    return value


def optional_path(params: Mapping[str, Any], name: str) -> Optional[str]:
    """A path parameter: None when no path is given (RES-1), else the text as is.

    Whitespace is kept (RES-5). A NUL byte is rejected (ERR-7).
    """
    value = optional_string(params, name)
    if value is not None and "\0" in value:
        raise invalid(f"parameter '{name}' contains a NUL byte, which no path can contain")
    return value


def one_path(params: Mapping[str, Any], name: str, alias: str) -> Optional[str]:
    """A path parameter with an alias: giving both is a conflict (SEARCH-1, SHELL-1)."""
    primary = optional_path(params, name)
    secondary = optional_path(params, alias)
    if primary is not None and secondary is not None:
        raise invalid(f"give either '{name}' or '{alias}', not both")
    return primary if primary is not None else secondary
