"""Error codes (spec ERR-1) and the exception every tool raises to report one."""

INVALID_PARAMS = "invalid_params"
OUTSIDE_WORKSPACE = "outside_workspace"
NOT_FOUND = "not_found"
PERMISSION_DENIED = "permission_denied"
NOT_A_DIRECTORY = "not_a_directory"
UNSUPPORTED_FILE_TYPE = "unsupported_file_type"
AMBIGUOUS_NAME = "ambiguous_name"

CODES = (
    INVALID_PARAMS,
    OUTSIDE_WORKSPACE,
    NOT_FOUND,
    PERMISSION_DENIED,
    NOT_A_DIRECTORY,
    UNSUPPORTED_FILE_TYPE,
    AMBIGUOUS_NAME,
)


class ToolError(Exception):
    """A tool's error result: a code from ERR-1 and a human-readable message."""

    def __init__(self, code: str, message: str):
        if code not in CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message

    def __reduce__(self):
        return (ToolError, (self.code, self.message))

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"


def invalid(message: str) -> ToolError:
    return ToolError(INVALID_PARAMS, message)
