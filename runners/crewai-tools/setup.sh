#!/usr/bin/env bash
# Sets up the pinned crewai-tools (PyPI, crewAI) for its adapter, in a venv
# of its own here. Every package is pinned exactly (requirements.txt,
# installed with --no-deps so nothing else is resolved): not the whole
# tree its metadata declares (147 packages, 443+ MB), only the 68 that
# importing crewai_tools and running its file tools needs (README.md says
# what was left out).
# Debian's python3.11 when there is one: as root, toolpath runs the
# permission cases through a copy of the adapter as `nobody`, who cannot
# run an interpreter under root's home (pyenv's); the tree is made
# readable to others for the same reason. Idempotent: a stamp records the
# requirements' hash, and a second run only checks.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-python/setup-lib.sh
. "$here/../common-python/setup-lib.sh"
venv="$here/venv"
stamp="$venv/.toolpath-requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: $venv is current"
  exit 0
fi
python=python3
if [ -x /usr/bin/python3.11 ]; then
  python=/usr/bin/python3.11
fi
echo "setup: $venv: uv pip install -r requirements.txt ($python)"
rm -rf "$venv"
install_pins "$python" "$venv" "$here/requirements.txt"
chmod -R o+rX "$venv"
printf '%s' "$want" > "$stamp"
