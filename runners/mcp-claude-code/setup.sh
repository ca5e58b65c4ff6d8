#!/usr/bin/env bash
# Sets up the pinned @anthropic-ai/claude-code for its profile. Idempotent;
# a second run only checks. Install scripts are skipped (--ignore-scripts):
# the package's postinstall only links the platform binary that npm has
# already installed as an optional dependency
# (@anthropic-ai/claude-code-linux-x64), which the profile starts itself.
# Its `engines` asks for Node 22: npm warns on Node 20 and installs; the
# binary is standalone and never runs Node.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts
