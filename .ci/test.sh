#!/usr/bin/env bash
# `npm test`: the whole suite. First the static checks (at once) and one build; then four lanes at once, because
# most of the suite waits on browsers, servers and mail daemons rather than on the two cores (docs/testing.md):
#   browser      the Playwright panel suite on SQLite
#   browser-pg   the same suite on PostgreSQL (a private cluster; its own ports and output folder)
#   vitest       unit and integration tests on SQLite (`unit` and the API suite `api`), real mail daemons included
#   pg           the API suite and the real-daemon mail tests on PostgreSQL, then the bench's quick passes
# Each lane writes test-results/ci/<lane>.log, printed when the lane ends; the run fails if any lane fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 npm_config_nodedir=/usr
bash .ci/system-packages.sh

LOGS=test-results/ci
rm -rf "$LOGS" && mkdir -p "$LOGS"
declare -A PIDS=()
START=$(date +%s)

# lane NAME CMD...: runs the commands in order in the background, stopping at the first failure.
lane() {
  local name=$1
  shift
  (
    for cmd in "$@"; do
      local t0=$(date +%s)
      echo "=== $name: $cmd"
      bash -c "$cmd" || { echo "=== $name: FAILED: $cmd ($(($(date +%s) - t0)) s)"; exit 1; }
      echo "=== $name: done: $cmd ($(($(date +%s) - t0)) s)"
    done
  ) > "$LOGS/$name.log" 2>&1 &
  PIDS[$name]=$!
}

# wait_lanes: waits for every lane, printing each log as its lane ends; fails if any failed.
wait_lanes() {
  local failed=()
  while ((${#PIDS[@]})); do
    local pid name
    wait -n -p pid "${PIDS[@]}" && status=0 || status=$?
    for name in "${!PIDS[@]}"; do [[ ${PIDS[$name]} == "$pid" ]] && break; done
    unset "PIDS[$name]"
    echo "##### lane $name: $( ((status == 0)) && echo passed || echo FAILED) at $(($(date +%s) - START)) s"
    cat "$LOGS/$name.log"
    ((status == 0)) || failed+=("$name")
  done
  if ((${#failed[@]})); then
    echo "##### failed lanes: ${failed[*]}"
    return 1
  fi
}

lane typecheck "npm run typecheck"
lane lint "npm run lint"
lane format "npm run format:check" "npm run docs:check"
wait_lanes
npm run build

lane browser "npm run test:e2e"
# The panel suite again on PostgreSQL: the global setup starts a private cluster and the server on it.
lane browser-pg "npm run test:e2e:pg"
lane vitest "npm run test:unit"
# The API suite on PostgreSQL (a private cluster started by its global setup; docs/postgresql.md); the real-daemon
# mail tests and the replica tests on PostgreSQL, a private cluster per file (lib/mailserver/testing/pg-setup.ts);
# the bench's quick pass on both engines and provider scale, quick (a primary with a streaming replica).
lane pg "npm run test:api:pg" "npm run test:mail:pg" "npm run bench -- --quick" "npm run bench:provider -- --quick"
wait_lanes
echo "##### all lanes passed in $(($(date +%s) - START)) s"
