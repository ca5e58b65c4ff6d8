#!/usr/bin/env bash
# The logic of the composite action (action.yml), one step per subcommand,
# talking to GitHub only through the files and variables a runner provides
# (GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH), so
# a test runs it anywhere with those pointed at temporary files.
#
#   action.sh key      the cache key of the toolpath to install (output `key`)
#   action.sh install  installs toolpath into ~/.toolpath unless the cache
#                      restored it: the released package's binary when it
#                      was built from these very files, else built from
#                      source; puts its bin directory on GITHUB_PATH
#   action.sh source-key  prints the hash of the action's files
#   action.sh run      runs the suite; writes JUnit and Markdown, appends the
#                      Markdown to the job summary (also when the run fails);
#                      then, unless TOOLPATH_FUZZ is `false`, fuzzes the
#                      adapter with a fixed seed and budget and appends what
#                      it found (each finding a case file, shown whole); exits
#                      with the suite's exit code, or the fuzzer's if the
#                      suite's was 0
set -uo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}"
root="${TOOLPATH_INSTALL_ROOT:-$HOME/.toolpath}"

# A hash of the action's own files (every file but .git and target, by
# path), so that the same source gives the same key wherever it is unpacked:
# the release packages carry it (scripts/package, from the tracked files),
# and a packaged binary is used only when its key is this one.
source_key() {
  {
    if [ -e "$action_path/.git" ] && git -C "$action_path" rev-parse --git-dir >/dev/null 2>&1; then
      git -C "$action_path" ls-files -z
    else
      (cd "$action_path" && find . \( -path ./target -o -path ./.git \) -prune -o -type f -printf '%P\0')
    fi
  } | LC_ALL=C sort -z | (cd "$action_path" && xargs -0 sha256sum) | sha256sum | cut -c1-16
}

# The key names exactly what would be built: the commit asked for, or else
# the hash of the action's own files (a `uses:` ref may be a moving branch,
# so the ref alone could restore a stale binary).
key() {
  local key
  if [ -n "${TOOLPATH_REF:-}" ]; then
    key="rev-$TOOLPATH_REF"
  else
    key="src-$(source_key)"
  fi
  echo "key=$key" >>"$GITHUB_OUTPUT"
  echo "toolpath: cache key $key"
}

# The released npm package of this version for this runner (Linux x64), if
# it was built from exactly these files (its `toolpathSource` is this
# checkout's source key): its binary, installed without running any script.
# Anything else (another platform, an unreleased commit, no registry)
# returns 1 and toolpath is built from source.
packaged() {
  [ "$(uname -s) $(uname -m)" = "Linux x86_64" ] && command -v npm >/dev/null || return 1
  local version want have
  version="$(sed -n 's/^version = "\(.*\)"$/\1/p' "$action_path/Cargo.toml" | head -n 1)"
  want="$(source_key)"
  have="$(npm view "@toolpath/linux-x64@$version" toolpathSource 2>/dev/null)" || return 1
  [ -n "$have" ] && [ "$have" = "$want" ] || return 1
  local npm_root="$root/npm"
  npm install --prefix "$npm_root" --no-save --ignore-scripts --no-audit --no-fund \
    "@toolpath/linux-x64@$version" >&2 || return 1
  mkdir -p "$root/bin"
  cp "$npm_root/node_modules/@toolpath/linux-x64/bin/toolpath" "$root/bin/toolpath" || return 1
  echo "toolpath: installed the packaged $("$root/bin/toolpath" --version) (@toolpath/linux-x64, source $have)"
}

install() {
  if [ -x "$root/bin/toolpath" ]; then
    echo "toolpath: using the cached $("$root/bin/toolpath" --version)"
  elif [ -z "${TOOLPATH_REF:-}" ] && packaged; then
    :
  elif [ -n "${TOOLPATH_REF:-}" ]; then
    # By default the action's own repository, as the runner names it.
    local git="${TOOLPATH_GIT:-${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_ACTION_REPOSITORY:-}}"
    cargo install --locked --root "$root" --git "$git" --rev "$TOOLPATH_REF" toolpath || return
  else
    cargo install --locked --root "$root" --path "$action_path" || return
  fi
  echo "$root/bin" >>"$GITHUB_PATH"
}

run() {
  local junit="${TOOLPATH_JUNIT:-toolpath-junit.xml}"
  local summary
  summary="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/toolpath-summary.XXXXXX")"
  local args=(run --adapter "${TOOLPATH_ADAPTER:?the adapter input is required}" --strict
    --format junit --output "$junit" --format markdown --output "$summary" --format human)
  if [ -n "${TOOLPATH_EXPECTATIONS:-}" ]; then
    args+=(--expectations "$TOOLPATH_EXPECTATIONS")
  fi
  # Extra arguments are split as a shell would quote them, but never
  # evaluated: xargs understands quotes and runs nothing but printf.
  local extra=() split status=0
  if split="$(printf '%s' "${TOOLPATH_ARGS:-}" | xargs -r printf '%s\n')"; then
    if [ -n "$split" ]; then
      mapfile -t extra <<<"$split"
    fi
    local toolpath="toolpath"
    [ -x "$root/bin/toolpath" ] && toolpath="$root/bin/toolpath"
    "$toolpath" "${args[@]}" "${extra[@]}"
    status=$?
  else
    echo "toolpath: cannot split the args input: ${TOOLPATH_ARGS:-}" >&2
    status=2
  fi
  if [ -s "$summary" ]; then
    cat "$summary" >>"$GITHUB_STEP_SUMMARY"
  else
    printf '## toolpath\n\nThe run wrote no report (exit code %s); see the job log.\n' "$status" >>"$GITHUB_STEP_SUMMARY"
  fi
  local findings="${TOOLPATH_FINDINGS:-toolpath-findings}" fuzz_status=""
  # The fuzzer runs after the cases, whatever they found (its findings are
  # failures no case pins), unless the suite could not judge at all
  # (bad usage, an adapter that does not start): it would fail the same way.
  if [ "${TOOLPATH_FUZZ:-true}" != false ] && [ "$status" -le 1 ]; then
    fuzz "$findings"
    fuzz_status=$?
    if [ "$status" -eq 0 ]; then
      status=$fuzz_status
    fi
  fi
  {
    echo "exit-code=$status"
    echo "fuzz-exit-code=$fuzz_status"
    echo "junit=$PWD/$junit"
    echo "summary=$summary"
    echo "findings=$PWD/$findings"
  } >>"$GITHUB_OUTPUT"
  return $status
}

# A fixed seed and a number of iterations, never a time: the same commit
# gets the same findings on any runner, fast or slow (and at most
# TOOLPATH_FUZZ_MAX_FINDINGS of them, since each new one costs a shrink: a
# badly broken adapter is not fuzzed for long). Findings the expectations
# know (an xfail's `spec:` rule in the cases' file; a finding id or glob,
# `glob.fuzz.*`, in TOOLPATH_FUZZ_EXPECTATIONS, a file of its own because
# `--strict` refuses entries no case matches) are not reported. Each new
# finding is a case file in the findings directory; the job summary shows
# every one whole, so a reviewer can copy it into the adapter's own cases
# or expectations.
fuzz() {
  local dir="$1" log status
  log="$(mktemp "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/toolpath-fuzz.XXXXXX")"
  local args=(fuzz --adapter "$TOOLPATH_ADAPTER" --seed "${TOOLPATH_FUZZ_SEED:-1}"
    --iterations "${TOOLPATH_FUZZ_ITERATIONS:-2000}" --findings "$dir"
    --max-findings "${TOOLPATH_FUZZ_MAX_FINDINGS:-10}")
  local file
  for file in "${TOOLPATH_EXPECTATIONS:-}" "${TOOLPATH_FUZZ_EXPECTATIONS:-}"; do
    if [ -n "$file" ]; then
      args+=(--expectations "$file")
    fi
  done
  local toolpath="toolpath"
  [ -x "$root/bin/toolpath" ] && toolpath="$root/bin/toolpath"
  "$toolpath" "${args[@]}" 2>&1 | tee "$log"
  status=${PIPESTATUS[0]}
  {
    printf '\n## toolpath fuzz\n\n'
    # The closing line: iterations, divergences, findings.
    grep '^fuzz ' "$log" | tail -n 1 | sed 's/^/    /'
    for file in "$dir"/*.yaml; do
      [ -f "$file" ] || continue
      printf '\n<details><summary><code>%s</code></summary>\n\n```yaml\n' "$(basename "$file")"
      head -c 65536 "$file"
      printf '\n```\n\n</details>\n'
    done
    if [ "$status" -ne 0 ] && ! grep -q '^fuzz ' "$log"; then
      printf 'The fuzzer stopped with exit code %s; see the job log.\n' "$status"
    fi
  } >>"$GITHUB_STEP_SUMMARY"
  rm -f "$log"
  return "$status"
}

case "${1:-}" in
  key | install | run) "$1" ;;
  source-key) source_key ;;
  *) echo "usage: action.sh key|install|run|source-key" >&2; exit 2 ;;
esac
