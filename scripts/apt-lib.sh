# apt_get ARGS...: Debian's apt-get, waiting for the package manager's
# lock when another process holds it (on a fresh machine, the cloud's
# first boot or unattended-upgrades often does, for minutes) instead of
# exiting 100 at once, as the first scripts/test on a fresh machine did.
# Source it; it defines functions only.
#
# apt-get waits for dpkg's lock itself when given DPkg::Lock::Timeout,
# but `apt-get update` (apt 2.6) takes the package lists' lock without
# waiting; that one is waited for here, by trying again while apt says a
# lock is held. Each call waits at most TOOLPATH_APT_LOCK_WAIT seconds
# (default 300), then fails with apt's exit status and a sentence saying
# which lock it waited for.
apt_get() {
  local wait="${TOOLPATH_APT_LOCK_WAIT:-300}"
  case "$wait" in
    '' | *[!0-9]*)
      echo "setup: TOOLPATH_APT_LOCK_WAIT must be a number of seconds, not '$wait'" >&2
      return 2 ;;
  esac
  local started=$SECONDS code err
  err="$(mktemp)"
  while :; do
    code=0
    LC_ALL=C apt-get -o "DPkg::Lock::Timeout=$wait" "$@" 2>"$err" || code=$?
    if [ "$code" = 0 ] || ! grep -q -e 'Could not get lock' -e 'Unable to acquire the dpkg frontend lock' "$err"; then
      break
    fi
    if [ $((SECONDS - started)) -ge "$wait" ]; then
      echo "setup: apt-get $*: the package manager's lock was still held after $wait s" >>"$err"
      break
    fi
    sleep 2
  done
  cat "$err" >&2
  rm -f "$err"
  return "$code"
}
