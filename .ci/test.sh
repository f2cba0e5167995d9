#!/usr/bin/env bash
# `npm test`: the whole suite as CI runs it: typecheck, lint, formatting, docs check, build, unit and integration (the
# API suite on SQLite, then on PostgreSQL; the mail tests on both engines), bench quick passes, browser (on SQLite and
# on PostgreSQL). Everything goes in two lanes, two commands at once on the two cores: docs/testing.md ("Two lanes")
# has the times and the limits that hold at that load.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 npm_config_nodedir=/usr
# Each step's time goes to the log, so a slow run says where its minutes went.
step() {
  local start=$SECONDS status=0
  "$@" || status=$?
  echo "[ci] $* took $((SECONDS - start)) s"
  return $status
}
# Commands at the same time, each one's output printed whole once it and those before it have ended, a failed one's
# last (CI keeps only the log's tail); fails if any failed. Only for commands that write nothing another one reads and whose time limits
# hold beside each other (docs/testing.md).
together() {
  local start=$SECONDS dir i
  dir=$(mktemp -d)
  local cmds=("$@") pids=() failed=()
  for i in "${!cmds[@]}"; do
    bash -c "${cmds[$i]}" >"$dir/$i" 2>&1 &
    pids+=($!)
  done
  for i in "${!cmds[@]}"; do
    if wait "${pids[$i]}"; then cat "$dir/$i"; else failed+=("$i"); fi
  done
  for i in "${failed[@]}"; do
    cat "$dir/$i"
    echo "[ci] FAILED: ${cmds[$i]}"
  done
  rm -rf "$dir"
  echo "[ci] $* took $((SECONDS - start)) s"
  [ ${#failed[@]} -eq 0 ]
}
step bash .ci/system-packages.sh
# Two lanes: two chains of commands at once, balanced by their times on this 2-core host (docs/testing.md, "Two
# lanes"); a chain goes on to its next command without waiting for the other, and stops at its first failure. Each
# command's time is printed.
# One: the static checks and the build (one core mostly), then `unit` and the API suite on SQLite, the API suite on
# PostgreSQL (a private cluster started by its global setup), the bench's quick pass on both engines, then the panel
# suite on SQLite. Two: the real-daemon mail tests on SQLite (vitest project `mail`, mostly waiting on Postfix and
# Dovecot; they need no build), then, once the first lane has built, the same on PostgreSQL (a private cluster per
# test file, lib/mailserver/testing/pg-setup.ts; two files run the production server), the bench's quick pass at
# provider scale (a few thousand domains on a primary with a streaming replica), then the panel suite on PostgreSQL
# (its global setup starts a private cluster and the server on it). Quick benches keep the harnesses working; their
# figures are not targets.
built=$(mktemp -u)
trap 'rm -f "$built"' EXIT
# The static checks and the build; their status goes to $built, for the second lane's wait.
checks_and_build() {
  local status=0
  step npm run typecheck && step npm run lint && step npm run format:check && step npm run docs:check \
    && step npm run build || status=$?
  echo "$status" >"$built"
  return "$status"
}
# The second lane's wait for the first lane's build (the PostgreSQL mail tests run the production server).
await_build() {
  while [ ! -s "$built" ]; do sleep 1; done
  [ "$(cat "$built")" = 0 ] || { echo "[ci] not run: the checks or the build failed" >&2; return 1; }
}
export built
export -f step checks_and_build await_build
together \
  "checks_and_build && step npx vitest run --project unit --project api && step npm run test:api:pg \
    && step npm run bench -- --quick && step npm run test:e2e" \
  "step npx vitest run --project mail && await_build && step npm run test:mail:pg \
    && step npm run bench:provider -- --quick && step npm run test:e2e:pg"
