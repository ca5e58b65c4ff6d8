#!/usr/bin/env bash
# Sets up the pinned mcp-server-commands for its profile. Idempotent; a
# second run only checks. Install scripts are skipped (--ignore-scripts):
# the server needs none (its package ships its built JavaScript).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts
