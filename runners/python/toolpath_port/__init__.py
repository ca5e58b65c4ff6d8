"""An independent Python port of the toolpath specification (spec/README.md).

Modules:

- ``errors``: the closed set of error codes (ERR-1) and ``ToolError``;
- ``params``: parameter validation (RES-1, SEARCH-1, SHELL-1, ERR-7);
- ``resolve``: lexical paths, real paths, containment, classification
  (RES, SEC-1..6, SEC-9) and the text-search target resolver;
- ``glob``: the ``include`` glob (SEARCH-9);
- ``search``: grep/ripgrep (SEARCH, SEC-7, OUT);
- ``shell``: the shell tool's working directory (SHELL, COMPAT);
- ``tools``: tool dispatch and the parameter schemas shown to models (DESC).
"""

__version__ = "0.1.0"
