#!/usr/bin/env bash
# Sets up the opencode adapter: the pinned opencode-ai and its platform
# binary (package-lock.json). Idempotent: a stamp records the lock's hash,
# and a second run only checks.
#
# Install scripts are skipped (--ignore-scripts): opencode-ai's postinstall
# only picks the platform binary among its optional dependencies, which npm
# installs by itself (opencode-linux-x64, which the adapter runs). Its grep
# and glob look for `rg` on PATH and download one when there is none:
# Debian's ripgrep is installed instead. The tree is made readable to
# others: as root, toolpath runs the adapter as its run's own user.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

ensure_system_rg
# Not `npm ci`: the lock holds the platform packages of this platform only
# (npm records no other when it installs here), and `npm ci` refuses a
# lock that lacks the others package.json's dependency names. `npm
# install` installs what the lock pins; a stamp of the lock's hash makes a
# second run only check.
stamp="$here/node_modules/.toolpath-lock.sha256"
want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1) install --ignore-scripts"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: $here: node_modules is current"
else
  echo "setup: $here: npm install --ignore-scripts (from package-lock.json)"
  (cd "$here" && npm install --ignore-scripts --no-audit --no-fund --no-save)
  printf '%s' "$want" >"$stamp"
fi
binary="$here/node_modules/opencode-linux-x64/bin/opencode"
echo "setup: $("$binary" --version | head -n 1) at $binary"
chmod -R o+rX "$here/node_modules"
