#!/usr/bin/env bash
# `npm test`: the whole suite in CI order: typecheck, lint, docs check, build, unit and integration (the API suite on
# SQLite, then on PostgreSQL), bench quick pass (SQLite, then PostgreSQL on a private cluster), browser.
set -euo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1 npm_config_nodedir=/usr
bash .ci/system-packages.sh
npm run typecheck
npm run lint
npm run docs:check
npm run build
npm run test:unit
# The API integration suite again on PostgreSQL (a private cluster started by its global setup; docs/postgresql.md).
npm run test:api:pg
npm run bench -- --quick
npm run test:e2e
