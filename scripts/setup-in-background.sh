# Shell functions for running scripts/setup (network and disk bound) in the
# background while cargo builds (CPU bound). Source it from the repository's
# root; it defines functions only. scripts/test uses it.

# setup_start: starts scripts/setup in a session of its own (so that its npm
# and pip stop with it), its output kept in a file; an exit of the calling
# script before setup_wait (an interrupt, a failed build) stops it.
setup_start() {
  setup_log="$(mktemp)"
  setsid scripts/setup >"$setup_log" 2>&1 &
  setup_pid=$!
  trap '[ -z "${setup_pid:-}" ] || kill -TERM -- "-$setup_pid" 2>/dev/null; rm -f "$setup_log"' EXIT
}

# setup_wait WHILE: waits for it, prints its output under a heading that
# says what it overlapped (WHILE), and exits the calling script with the
# setup's status if it failed.
setup_wait() {
  local status=0
  wait "$setup_pid" || status=$?
  setup_pid=
  echo "== scripts/setup (in the background, $1)"
  cat "$setup_log"
  if [ "$status" != 0 ]; then
    echo "$0: scripts/setup failed (exit $status); its output is above" >&2
    exit "$status"
  fi
}
