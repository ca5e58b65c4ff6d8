#!/usr/bin/env bash
# The packaging tool, pinned: maturin (builds the PyPI wheel that carries
# the binary) in a venv of its own here. Idempotent: a stamp records the
# requirements' hash, and a second run only checks. maturin is a
# self-contained binary wheel, installed with --no-deps.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/venv"
stamp="$venv/.toolpath-requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "packaging/setup.sh: $venv: pip install -r requirements.txt" >&2
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$here/requirements.txt"
printf '%s' "$want" > "$stamp"
