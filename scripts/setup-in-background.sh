# Shell functions for running scripts/setup (network and disk bound) in the
# background while cargo builds (CPU bound) and the first tests run.
# Source it from the repository's root; it defines functions only.
# scripts/test uses it.

# setup_start: starts scripts/setup in a session of its own (so that its npm
# and pip stop with it), its output kept in a file ($setup_log). When it
# ends, its exit status is written to $setup_status (renamed into place, so
# a reader polling for the file finds it whole). An exit of the calling
# script before setup_wait (an interrupt, a failed build) stops it.
setup_start() {
  setup_log="$(mktemp)"
  setup_status="$setup_log.status"
  setsid bash -c 'scripts/setup; echo "$?" >"$1.tmp" && mv "$1.tmp" "$1"' setup "$setup_status" \
    >"$setup_log" 2>&1 &
  setup_pid=$!
  trap '[ -z "${setup_pid:-}" ] || kill -TERM -- "-$setup_pid" 2>/dev/null; rm -f "$setup_log" "$setup_status" "$setup_status.tmp"' EXIT
}

# setup_wait WHILE: waits for it, prints its output under a heading that
# says what it overlapped (WHILE), and exits the calling script with the
# setup's status if it failed.
setup_wait() {
  local status=0
  wait "$setup_pid" || true
  setup_pid=
  status="$(cat "$setup_status" 2>/dev/null || echo 1)"
  echo "== scripts/setup (in the background, $1)"
  cat "$setup_log"
  if [ "$status" != 0 ]; then
    echo "$0: scripts/setup failed (exit $status); its output is above" >&2
    exit "$status"
  fi
}

# setup_reap: after scripts/test-lanes, which printed the setup's output
# and judged its status (see TOOLPATH_SETUP_STATUS there) once it ended:
# waits for it without printing anything. A setup still running (the
# lanes gave up waiting for it, or were interrupted) is stopped first.
setup_reap() {
  [ -e "$setup_status" ] || kill -TERM -- "-$setup_pid" 2>/dev/null || true
  wait "$setup_pid" || true
  setup_pid=
}
