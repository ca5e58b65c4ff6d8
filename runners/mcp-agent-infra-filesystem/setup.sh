#!/usr/bin/env bash
# Sets up the pinned @agent-infra/mcp-server-filesystem for its profile.
# Idempotent; a second run only checks. Install scripts are skipped
# (--ignore-scripts): the server needs none, and a registry package's
# postinstall must not run on a CI machine.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts
