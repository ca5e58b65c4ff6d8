#!/usr/bin/env bash
# Sets up the gemini-cli-core adapter: the pinned package, and a ripgrep
# binary where the package looks for its bundled one. Idempotent; a second
# run only checks.
#
# Install scripts are skipped: they only build optional native modules
# (node-pty, keytar) that the adapter never loads, and npm 11 as installed
# here skips them anyway; --ignore-scripts makes every npm behave the same.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts

# RipGrepTool (dist/src/tools/ripGrep.js, resolveRipgrepPath) looks for
# rg-<platform>-<arch> next to itself, in dist/src/tools/vendor/ripgrep, in
# <package>/vendor/ripgrep and in dist/vendor/ripgrep, then for a trusted
# system rg on PATH. The package ships none of them; use Debian's.
if ensure_system_rg; then
  bin="rg-$(node -p 'process.platform + "-" + process.arch')"
  link_rg "$here/node_modules/@google/gemini-cli-core/vendor/ripgrep/$bin"
fi
