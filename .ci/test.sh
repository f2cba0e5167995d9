#!/usr/bin/env bash
# `npm test`: the whole suite in CI order: typecheck, lint, formatting, docs check, build, unit and integration (the API
# suite on SQLite, then on PostgreSQL; the mail tests again on PostgreSQL), bench quick passes, browser (on SQLite and
# on PostgreSQL). The tests go in two lanes, two commands at once on the two cores: docs/testing.md ("Two lanes") has
# the times and the limits that hold at that load.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 npm_config_nodedir=/usr
# Each step's time goes to the log, so a slow run says where its minutes went.
step() {
  local start=$SECONDS
  "$@"
  echo "[ci] $* took $((SECONDS - start)) s"
}
# Commands at the same time, each one's output printed whole when all have ended, a failed one's last (CI keeps only
# the log's tail); fails if any failed. Only for commands that write nothing another one reads and whose time limits
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
step npm run typecheck
step npm run lint
step npm run format:check
step npm run docs:check
step npm run build
# Two lanes from here on, each a chain of commands, balanced by their times on this 2-core host (docs/testing.md, "Two
# lanes"). First `npm run test:unit` split: the real-daemon mail tests (vitest project `mail`), which mostly wait on
# Postfix and Dovecot, beside the rest (`unit` and the API suite on SQLite), then the bench's provider scale, quick (a
# few thousand domains on a private primary with a streaming replica, bench/provider.ts).
together "npx vitest run --project mail" \
  "npx vitest run --project unit --project api && npm run bench:provider -- --quick"
# The same on PostgreSQL: the real-daemon mail tests (sandbox: Postfix proxy:pgsql maps, Dovecot pgsql) and the replica
# tests through the API, a private cluster per test file (lib/mailserver/testing/pg-setup.ts), beside the API
# integration suite (a private cluster started by its global setup; docs/postgresql.md) and then the bench's quick pass
# on both engines. Quick runs keep the harnesses working; their figures are not targets.
together "npm run test:mail:pg" "npm run test:api:pg && npm run bench -- --quick"
# The panel suite on SQLite beside the same on PostgreSQL (its global setup starts a private cluster and the server on
# it): separate ports, output folders and screenshots (docs/testing.md).
together "npm run test:e2e" "npm run test:e2e:pg"
