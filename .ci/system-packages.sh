#!/usr/bin/env bash
# Debian packages the test suite needs: Chromium for the panel's browser tests. Idempotent; needs root.
set -euo pipefail
packages=(chromium)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then echo "Please install: ${missing[*]} (apt-get install -y ${missing[*]})" >&2; exit 1; fi
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
