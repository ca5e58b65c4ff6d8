#!/usr/bin/env bash
# Sets up the pinned @wonderwhy-er/desktop-commander for its profile.
# Idempotent; a second run only checks. Install scripts are skipped
# (--ignore-scripts): its postinstall reports the install to a telemetry
# endpoint, and @vscode/ripgrep's downloads `rg` from GitHub. Debian's
# `ripgrep` is linked where @vscode/ripgrep would have put its binary, so
# its searches use a known rg and nothing is fetched.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts
ensure_system_rg || true
link_rg "$here/node_modules/@vscode/ripgrep/bin/rg"
