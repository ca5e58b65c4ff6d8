#!/usr/bin/env bash
# Sets up the pinned mcp-ripgrep for its profile. Idempotent; a second run
# only checks. Install scripts are skipped (--ignore-scripts): the server
# needs none. It runs the first `rg` on PATH: Debian's ripgrep, installed
# if missing (as the Node runners' setups do).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts
ensure_system_rg
