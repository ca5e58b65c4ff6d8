#!/usr/bin/env bash
# Sets up the pinned mcp-shell-server (PyPI) for its profile, in a venv of
# its own here. Every package is pinned exactly (requirements.txt, the
# whole tree, installed with --no-deps so nothing else is resolved).
# Idempotent: a stamp records the requirements' hash and the interpreter,
# and a second run only checks.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-python/setup-lib.sh
. "$here/../common-python/setup-lib.sh"
venv="$here/venv"
stamp="$venv/.toolpath-requirements.sha256"
# It needs Python 3.11 or newer. As root, toolpath runs the server as
# `nobody` (spec/protocol.md, "The subject's user"), and a venv's python
# is a link into the interpreter it was made with: one other users cannot
# run (pyenv's under /root) is passed over for one they can (the
# system's). The stamp names it, so a venv made with another is made again.
check='import sys; sys.exit(sys.version_info < (3, 11))'
python=""
for candidate in $(type -ap python3 python3.13 python3.12 python3.11); do
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=65534 --regid=65534 --clear-groups "$candidate" -c "$check" 2>/dev/null || continue
  else
    "$candidate" -c "$check" 2>/dev/null || continue
  fi
  python="$candidate"
  break
done
if [ -z "$python" ]; then
  echo "setup: no Python 3.11 or newer on PATH$([ "$(id -u)" = 0 ] && echo " that user nobody can run, which the server runs as under root")" >&2
  exit 1
fi
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1) $python"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: $venv is current"
  exit 0
fi
echo "setup: $venv: uv pip install -r requirements.txt ($python)"
rm -rf "$venv"
install_pins "$python" "$venv" "$here/requirements.txt"
printf '%s' "$want" > "$stamp"
