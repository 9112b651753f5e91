#!/usr/bin/env bash
# The README's two commands, from a fresh clone: clones this repository's
# committed state into a temporary folder with ../shared beside it (a symbolic
# link), runs the first command (the demo) until it prints its URL and answers
# a page, stops it, then runs the test command with INPAGE_FRESH_CLONE=1, so
# that .ci/run in the clone does not start this script again.
#
# FRESH_CLONE_TESTS=smoke runs `deno task editor --help` instead of the whole
# test command (the suite has already run in the caller's checkout).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
shared="$(cd "$here/../shared" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/inpage-fresh-clone-XXXXXX")"
demo_pid=""
cleanup() {
  if [[ -n "$demo_pid" ]] && kill -0 "$demo_pid" 2>/dev/null; then
    kill -TERM -- "-$demo_pid" 2>/dev/null || true
    wait "$demo_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet "$here" "$work/main"
ln -s "$shared" "$work/shared"
cd "$work/main"

# The README's commands: the first two lines of its first sh block.
first="$(sed -n '4p' README.md | sed 's/ *#.*$//')"
second="$(sed -n '5p' README.md | sed 's/ *#.*$//')"
[[ "$first" == "npx --yes deno@2.9.6 task demo" ]] || {
  echo "fresh clone: unexpected first command: $first" >&2
  exit 1
}
[[ "$second" == "npx --yes deno@2.9.6 task test" ]] || {
  echo "fresh clone: unexpected second command: $second" >&2
  exit 1
}

# The demo listens on 8787 unless that port is taken here.
args=()
if (exec 3<>/dev/tcp/127.0.0.1/8787) 2>/dev/null; then args=(--port 0); fi
log="$work/demo.log"
setsid bash -c "exec $first ${args[*]:-}" >"$log" 2>&1 &
demo_pid=$!
url=""
for _ in $(seq 1 600); do
  url="$(grep -o 'listening on http://[^ ]*/' "$log" | head -1 | sed 's/listening on //' || true)"
  [[ -n "$url" ]] && grep -q 'site key for this run is' "$log" && break
  kill -0 "$demo_pid" 2>/dev/null || break
  sleep 0.2
done
if [[ -z "$url" ]]; then
  echo "fresh clone: the demo did not print its URL:" >&2
  cat "$log" >&2
  exit 1
fi
page="$(curl -sS --max-time 20 "${url}en/")"
if ! grep -q 'data-inpage-page="src/content/pages/en/home.json"' <<<"$page"; then
  echo "fresh clone: the demo's page has no editable regions:" >&2
  echo "$page" >&2
  exit 1
fi
echo "fresh clone: the demo answered ${url}en/"
kill -TERM -- "-$demo_pid"
wait "$demo_pid" || true
demo_pid=""
if ! grep -q 'Stopping' "$log"; then
  echo "fresh clone: the demo did not stop on SIGTERM:" >&2
  cat "$log" >&2
  exit 1
fi

if [[ "${FRESH_CLONE_TESTS:-all}" == "smoke" ]]; then
  npx --yes deno@2.9.6 task editor --help >/dev/null
  echo "fresh clone: the demo and editor --help work"
else
  INPAGE_FRESH_CLONE=1 bash -c "$second"
  echo "fresh clone: both README commands succeed"
fi
