# Shell functions for running scripts/setup (network and disk bound) in the
# background while cargo builds (CPU bound). Source it from the repository's
# root; it defines functions only. scripts/test uses it.

# setup_start: starts scripts/setup in a session of its own (so that its npm
# and pip stop with it), its output kept in a file; an exit of the calling
# script before setup_wait (an interrupt, a failed build) stops it.
#
# At a lower priority (nice 10) than the build: the setup is not waiting
# only (npm's extraction, pip's installs: about 140 CPU seconds in 76 s
# alone on the 2-core machine), and at the same priority it took a core
# from the build's critical path (the library, then its test build, one
# core each) all along, while the build left little for it to fill. The
# tests start when both are done, so the build goes first and the setup
# takes what it leaves, then both cores once it is done. Where the kernel
# groups a session's processes for scheduling (autogroup), a process's
# own nice only ranks it inside its session, so the new session's group
# is given the same nice (/proc/self/autogroup; absent without autogroup).
setup_start() {
  setup_log="$(mktemp)"
  setsid sh -c '{ echo 10 >/proc/self/autogroup; } 2>/dev/null; exec nice -n 10 scripts/setup' \
    >"$setup_log" 2>&1 &
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
