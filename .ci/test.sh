#!/usr/bin/env bash
# `npm test`: the whole suite in CI order: typecheck, lint, formatting, docs check, build, unit and integration (the API
# suite on SQLite, then on PostgreSQL; the mail tests again on PostgreSQL), bench quick pass (SQLite, then PostgreSQL on
# a private cluster), browser (on SQLite, then on PostgreSQL). One step at a time: docs/testing.md says why.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 npm_config_nodedir=/usr
# Each step's time goes to the log, so a slow run says where its minutes went.
step() {
  local start=$SECONDS
  "$@"
  echo "[ci] $* took $((SECONDS - start)) s"
}
step bash .ci/system-packages.sh
step npm run typecheck
step npm run lint
step npm run format:check
step npm run docs:check
step npm run build
step npm run test:unit
# The API integration suite again on PostgreSQL (a private cluster started by its global setup; docs/postgresql.md).
step npm run test:api:pg
# The real-daemon mail tests (sandbox: Postfix proxy:pgsql maps, Dovecot pgsql) and the replica test through the API,
# on PostgreSQL: a private cluster per test file (lib/mailserver/testing/pg-setup.ts).
step npm run test:mail:pg
step npm run bench -- --quick
# Provider scale, quick: a few thousand domains on a private primary with a streaming replica (bench/provider.ts).
step npm run bench:provider -- --quick
step npm run test:e2e
# The panel suite again on PostgreSQL: the global setup starts a private cluster and the server on it.
step npm run test:e2e:pg
