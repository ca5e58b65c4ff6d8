#!/usr/bin/env bash
# Sets up the pinned fast-filesystem-mcp for its profile. Idempotent; a
# second run only checks. Install scripts are skipped (--ignore-scripts):
# the server needs none (its ripgrep, @vscode/ripgrep, finds the binary
# npm installs as the optional dependency @vscode/ripgrep-linux-x64).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts
