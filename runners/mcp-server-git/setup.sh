#!/usr/bin/env bash
# Sets up the pinned mcp-server-git (PyPI) for its profile, in a venv of
# its own here. Every package is pinned exactly (requirements.txt, the
# whole tree, installed with --no-deps so nothing else is resolved).
# Idempotent: a stamp records the requirements' hash, and a second run
# only checks.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-python/setup-lib.sh
. "$here/../common-python/setup-lib.sh"
venv="$here/venv"
stamp="$venv/.toolpath-requirements.sha256"
# As root, toolpath runs the server as `nobody` (spec/protocol.md, "The
# subject's user"), and a venv's python is a link into the interpreter it
# was made with: a Python other users cannot run (pyenv's under /root) is
# passed over for one they can (the system's). The stamp names it, so a
# venv made with another is made again.
python=python3
if [ "$(id -u)" = 0 ]; then
  python=""
  for candidate in $(type -ap python3); do
    if setpriv --reuid=65534 --regid=65534 --clear-groups "$candidate" -c "" 2>/dev/null; then
      python="$candidate"
      break
    fi
  done
  if [ -z "$python" ]; then
    echo "setup: no python3 on PATH that user nobody can run, which the server runs as under root" >&2
    exit 1
  fi
fi
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1) $python"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: $venv is current"
  exit 0
fi
echo "setup: $venv: uv pip install -r requirements.txt"
rm -rf "$venv"
install_pins "$python" "$venv" "$here/requirements.txt"
printf '%s' "$want" > "$stamp"
