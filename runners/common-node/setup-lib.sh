# Shell functions shared by the setup.sh scripts of the Node runners.
# Source it; it defines functions only.

# shellcheck source=../../scripts/apt-lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/apt-lib.sh"

# npm_ci_once DIR [npm ci flags...]: runs `npm ci` in DIR unless node_modules
# already holds exactly what package-lock.json pins (a stamp records the
# lock's hash after a successful install), so a second run costs nothing.
npm_ci_once() {
  local dir="$1"; shift
  local stamp="$dir/node_modules/.toolpath-lock.sha256"
  local want
  want="$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1) $*"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
    echo "setup: $dir: node_modules is current"
    return 0
  fi
  echo "setup: $dir: npm ci $*"
  (cd "$dir" && npm ci --no-audit --no-fund "$@")
  printf '%s' "$want" > "$stamp"
}

# ensure_system_rg: makes sure /usr/bin/rg exists, installing Debian's
# ripgrep package if it does not (needs root). Returns non-zero if it still
# does not exist; the adapters then answer ripgrep calls as unsupported.
ensure_system_rg() {
  if [ -x /usr/bin/rg ]; then
    return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: /usr/bin/rg is missing and cannot be installed here (needs root and apt-get)" >&2
    return 1
  fi
  echo "setup: installing Debian's ripgrep"
  apt_get update -qq && DEBIAN_FRONTEND=noninteractive apt_get install -y -qq ripgrep >/dev/null
  [ -x /usr/bin/rg ]
}

# link_rg PATH: puts a symbolic link to /usr/bin/rg at PATH (where a package
# looks for its bundled binary), if /usr/bin/rg exists.
link_rg() {
  local dest="$1"
  if [ ! -x /usr/bin/rg ]; then
    return 0
  fi
  mkdir -p "$(dirname "$dest")"
  if [ "$(readlink "$dest" 2>/dev/null)" != /usr/bin/rg ]; then
    ln -sfn /usr/bin/rg "$dest"
    echo "setup: $dest -> /usr/bin/rg"
  fi
}
