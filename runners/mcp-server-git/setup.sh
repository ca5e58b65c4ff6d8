#!/usr/bin/env bash
# Sets up the pinned mcp-server-git (PyPI) for its profile, in a venv of
# its own here. Every package is pinned exactly (requirements.txt, the
# whole tree, installed with --no-deps so nothing else is resolved).
# Idempotent: a stamp records the requirements' hash, and a second run
# only checks.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/venv"
stamp="$venv/.toolpath-requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: $venv is current"
  exit 0
fi
echo "setup: $venv: pip install -r requirements.txt"
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$here/requirements.txt"
printf '%s' "$want" > "$stamp"
