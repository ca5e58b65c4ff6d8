#!/usr/bin/env bash
# Sets up the qwen-code-core adapter: the pinned package, and a ripgrep
# binary where the package looks for one. Idempotent; a second run only
# checks.
#
# Install scripts must be skipped: @lvce-editor/ripgrep's postinstall
# downloads a binary from outside the package registries, which fails here.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts

# RipGrepTool (dist/src/tools/ripGrep.js) runs the `rgPath` exported by
# @lvce-editor/ripgrep: <that package>/bin/rg, which its postinstall would
# have downloaded. Use Debian's instead.
if ensure_system_rg; then
  link_rg "$here/node_modules/@lvce-editor/ripgrep/bin/rg"
fi
