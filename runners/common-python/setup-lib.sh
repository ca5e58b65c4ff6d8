# Shell functions shared by the setup.sh scripts of the Python runners.
# Source it; it defines functions only.
#
# The runners' packages are installed by uv, not pip: the same pinned
# wheels from the same index (PyPI), each compiled to byte code as pip
# does (an adapter runs as another user, who could not write it, and
# would compile every import again at each start). Measured 2026-12-06 on
# the 2-core machine, openhands-tools' 192 pins into a fresh venv: pip
# 67 CPU seconds with its cache warm, uv 24.5 with its cache empty (14 of
# them compiling byte code, which both do), for the same files. A venv is
# made without pip (`venv --without-pip`): nothing runs pip in it, and
# ensurepip cost 3-4 CPU seconds a venv.

# The uv that installs the pins: one release, installed once per checkout
# by the machine's own pip, below a `venv` directory (what the repository
# ignores and a runner's digest leaves out: runners/*/venv).
uv_version=0.13.9
uv_home="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/venv/uv-$uv_version"

# ensure_uv: installs the pinned uv unless it is there. Setups run at
# once (scripts/setup): each installs into a directory of its own and
# renames it into place, so a second one finding it there keeps the first.
ensure_uv() {
  [ -x "$uv_home/bin/uv" ] && return 0
  mkdir -p "$(dirname "$uv_home")"
  local fresh
  fresh="$(mktemp -d "$uv_home.XXXXXX")"
  if ! python3 -m pip install --quiet --disable-pip-version-check --target "$fresh" "uv==$uv_version"; then
    rm -rf "$fresh"
    echo "setup: cannot install uv $uv_version with python3 -m pip" >&2
    return 1
  fi
  mv -T "$fresh" "$uv_home" 2>/dev/null || rm -rf "$fresh"
  [ -x "$uv_home/bin/uv" ]
}

# install_pins PYTHON VENV REQUIREMENTS: a venv of PYTHON at VENV holding
# exactly the pins of REQUIREMENTS (`--no-deps`: nothing else is
# resolved), compiled to byte code, its files copied rather than linked
# to uv's cache (the venv's tree alone is what the adapter runs, whatever
# later happens to the cache). VENV may already hold files of the
# runner's own (openhands-tools' copy of its interpreter): they stay.
install_pins() {
  local python="$1" venv="$2" requirements="$3"
  ensure_uv
  "$python" -m venv --without-pip "$venv"
  "$uv_home/bin/uv" pip install --quiet --no-deps --compile-bytecode --link-mode copy \
    --python "$venv/bin/python" -r "$requirements"
}
