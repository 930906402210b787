#!/usr/bin/env bash
# `npm test`: the whole suite. Lint and types, unit and integration tests (against a real
# primary + replicas that the tests bring up themselves), then the browser journeys in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium_path" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "[test] installing Debian's chromium for the browser tests…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "[test] no Chromium at $chromium_path. Install one (Debian: sudo apt-get install chromium)" >&2
    echo "[test] or point CHROMIUM_PATH at a Chromium/Chrome binary, then run npm test again." >&2
    exit 1
  fi
fi
export CHROMIUM_PATH="$chromium_path"

# The HA topology's fault test (dev/ha) needs Debian's PostgreSQL 15, Patroni and etcd.
ha_packages="postgresql-15 patroni etcd-server"
if [ ! -x /usr/lib/postgresql/15/bin/pg_rewind ] || ! command -v patroni >/dev/null || ! command -v etcd >/dev/null; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "[test] installing $ha_packages for the HA topology tests…"
    # No service may start from the packages' scripts (PostgreSQL's `main` cluster on 5432, etcd
    # on 2379): the tests start their own on free ports. policy-rc.d says so, for this install.
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
      policy=/usr/sbin/policy-rc.d
      trap 'rm -f "$policy"' EXIT
      printf '#!/bin/sh\nexit 101\n' >"$policy"
      chmod 755 "$policy"
    fi
    # A failed install skips the HA tests (they say why); it does not stop the suite.
    # shellcheck disable=SC2086
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $ha_packages >/dev/null; }; then
      echo "[test] WARNING: installing $ha_packages failed: the HA topology tests will be skipped." >&2
    fi
    if [ -n "$policy" ]; then
      rm -f "$policy"
      trap - EXIT
    fi
    if command -v pg_ctlcluster >/dev/null && pg_ctlcluster 15 main status >/dev/null 2>&1; then
      pg_ctlcluster 15 main stop || true
    fi
  else
    echo "[test] the HA topology tests will be skipped: they need $ha_packages." >&2
    echo "[test] Install them (Debian: sudo apt-get install -y $ha_packages) to run them." >&2
  fi
fi

mkdir -p test-results
start=$(date +%s)

echo "[test] lint, format and types"
npm run --silent lint

echo "[test] SDK build (sdk/ → sdk/dist: the meridian command the CLI tests run)"
npm run --silent build -w sdk

echo "[test] unit and integration tests (vitest, against a real primary + replicas)"
npx vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json=test-results/vitest.json

echo "[test] fault tests (vitest: replicas paused, delayed and stopped, the primary stopped, under the running app; the HA topology's failovers)"
npx vitest run --project faults --reporter=default --reporter=json --outputFile.json=test-results/faults.json

echo "[test] browser journeys (Playwright, Chromium)"
rm -rf .data/e2e
CI=1 npx playwright test

node dev/test-summary.mjs test-results/vitest.json test-results/faults.json test-results/e2e.json "$(( $(date +%s) - start ))"
