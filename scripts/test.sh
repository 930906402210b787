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
rm -rf test-results/*.log test-results/*.json
start=$(date +%s)

# Every stage runs, whatever the one before it did; the digest at the end says what failed.
# stage <name> <report or ''> <command…>: the stage's console output is kept in
# test-results/<name>.log too, for the digest to quote.
stages=()
stage() {
  local name=$1 report=$2
  shift 2
  echo "[test] ── $name ──"
  local status=ok
  "$@" 2>&1 | tee "test-results/$name.log" || status=failed
  stages+=("$name=$status:test-results/$name.log${report:+:$report}")
  echo "[test] $name: $status"
}

# lint, format and types; then the SDK build (sdk/ → sdk/dist: the meridian command the CLI tests run)
stage lint '' npm run --silent lint
stage sdk-build '' npm run --silent build -w sdk

# unit and integration tests (vitest, against a real primary + replicas)
stage integration test-results/vitest.json \
  npx vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json=test-results/vitest.json

# fault tests: replicas paused, delayed and stopped, the primary stopped, under the running app
stage faults test-results/faults.json \
  npx vitest run --project faults --reporter=default --reporter=json --outputFile.json=test-results/faults.json

# browser journeys (Playwright, Chromium)
rm -rf .data/e2e
stage browser test-results/e2e.json env CI=1 npx playwright test

exec node dev/test-summary.mjs "$(( $(date +%s) - start ))" "${stages[@]}"
