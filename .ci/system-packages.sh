#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium and its headless shell for the panel's browser tests (Lighthouse
# and Playwright); Postfix, Dovecot, Rspamd and Redis for the mail-server tests and `mailserver sandbox`
# (lib/mailserver; postsrsd and curl for SRS and the quota-warning script); wrk for the bench's workers comparison.
# PostgreSQL 15 (pg_trgm is in it) for the private clusters of the PostgreSQL tests (e2e/support/pg-cluster.ts),
# postfix-pgsql and dovecot-pgsql for the pgsql maps.
# Idempotent; needs root.
set -euo pipefail
packages=(chromium chromium-headless-shell postfix postfix-sqlite dovecot-core dovecot-imapd dovecot-lmtpd dovecot-pop3d dovecot-sqlite dovecot-sieve rspamd redis-server wrk
  postsrsd curl postgresql-15 postfix-pgsql dovecot-pgsql)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then echo "Please install: ${missing[*]} (apt-get install -y ${missing[*]})" >&2; exit 1; fi
  apt-get update -qq
  # Postfix's installer asks for a mail configuration: the tests run their own instance, so none.
  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
