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

mkdir -p test-results
start=$(date +%s)

echo "[test] lint, format and types"
npm run --silent lint

echo "[test] SDK build (sdk/ → sdk/dist: the meridian command the CLI tests run)"
npm run --silent build -w sdk

echo "[test] unit and integration tests (vitest, against a real primary + replicas)"
npx vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json=test-results/vitest.json

echo "[test] fault tests (vitest: replicas paused, delayed and stopped, the primary stopped, under the running app)"
npx vitest run --project faults --reporter=default --reporter=json --outputFile.json=test-results/faults.json

echo "[test] browser journeys (Playwright, Chromium)"
rm -rf .data/e2e
CI=1 npx playwright test

node dev/test-summary.mjs test-results/vitest.json test-results/faults.json test-results/e2e.json "$(( $(date +%s) - start ))"
