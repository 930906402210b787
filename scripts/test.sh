#!/usr/bin/env bash
# `npm test`: the whole suite. Lint and types, unit and integration tests (against a real
# primary + replicas that the tests bring up themselves), then the browser journeys in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p test-results
rm -rf test-results/*.log test-results/*.json test-results/*.status test-results/logs
mkdir -p test-results/logs

# Debian's packages the suite needs: Chromium for the browser journeys; PostgreSQL 15, Patroni and
# etcd for the HA topology's fault tests (dev/ha). As root they are installed (one apt
# transaction) in the background while lint runs, and waited for before the first test. Without
# root, a missing Chromium stops here and missing HA packages skip those tests (they say why).
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
ha_packages="postgresql-15 patroni etcd-server"
can_install=0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then can_install=1; fi
install=""
if [ ! -x "$chromium_path" ]; then
  if [ $can_install = 1 ]; then
    install="chromium"
  else
    echo "[test] no Chromium at $chromium_path. Install one (Debian: sudo apt-get install chromium)" >&2
    echo "[test] or point CHROMIUM_PATH at a Chromium/Chrome binary, then run npm test again." >&2
    exit 1
  fi
fi
export CHROMIUM_PATH="$chromium_path"
if [ ! -x /usr/lib/postgresql/15/bin/pg_rewind ] || ! command -v patroni >/dev/null || ! command -v etcd >/dev/null; then
  if [ $can_install = 1 ]; then
    install="$install $ha_packages"
  else
    echo "[test] the HA topology tests will be skipped: they need $ha_packages." >&2
    echo "[test] Install them (Debian: sudo apt-get install -y $ha_packages) to run them." >&2
  fi
fi

installing=""
policy=""
if [ -n "$install" ]; then
  echo "[test] installing Debian's ${install# } in the background (test-results/logs/apt.log)…"
  # No service may start from the packages' scripts (PostgreSQL's `main` cluster on 5432, etcd
  # on 2379): the tests start their own on free ports. policy-rc.d says so, for this install.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    policy=/usr/sbin/policy-rc.d
    trap 'rm -f "$policy"' EXIT
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod 755 "$policy"
  fi
  # shellcheck disable=SC2086
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $install; } \
    >test-results/logs/apt.log 2>&1 &
  installing=$!
fi

# Waits for the background install, if any; a failure is said (the browser stage then fails on the
# missing Chromium, the HA tests skip and say why) and the suite goes on.
packages_ready() {
  [ -n "$installing" ] || return 0
  if wait "$installing"; then
    echo "[test] installed ${install# }"
  else
    echo "[test] WARNING: installing ${install# } failed (test-results/logs/apt.log)." >&2
  fi
  installing=""
  if [ -n "$policy" ]; then
    rm -f "$policy"
    trap - EXIT
  fi
  if command -v pg_ctlcluster >/dev/null && pg_ctlcluster 15 main status >/dev/null 2>&1; then
    pg_ctlcluster 15 main stop || true
  fi
}

start=$(date +%s)
# Every process the suite starts inherits this; the leftovers stage finds any that outlive it.
export MERIDIAN_TEST_RUN="$$-$start"

# Every stage runs, whatever the one before it did; the digest at the end says what failed.
# stage <name> <report or -> <command…>: the stage's console output is kept in
# test-results/<name>.log too, for the digest to quote; its time (seconds) goes with its status.
stages=()
stage() {
  local name=$1 report=$2
  shift 2
  echo "[test] ── $name ──"
  local status=ok t0=$SECONDS
  "$@" 2>&1 | tee "test-results/$name.log" || status=failed
  stages+=("$name=$status,$((SECONDS - t0)):test-results/$name.log${report:+:$report}")
  echo "[test] $name: $status in $((SECONDS - t0)) s"
}

# lint, format and types; then the SDK build (sdk/ → sdk/dist: the meridian command the CLI tests run)
stage lint '' npm run --silent lint
stage sdk-build '' npm run --silent build -w sdk
# The tests start now: never beside an install's unpacking.
packages_ready

# A stage that runs beside the next one: its output goes to its log only (printed once it ends,
# so the console never interleaves two stages), its result into the digest like any other's.
bg_stage() {
  bg_name=$1 bg_report=$2
  shift 2
  echo "[test] ── $bg_name (beside the next stage: test-results/$bg_name.log) ──"
  (
    t0=$SECONDS status=ok
    "$@" >"test-results/$bg_name.log" 2>&1 || status=failed
    echo "$status,$((SECONDS - t0))" >"test-results/$bg_name.status"
  ) &
  bg_pid=$!
}
bg_wait() {
  wait "$bg_pid" || true
  local outcome
  outcome=$(cat "test-results/$bg_name.status" 2>/dev/null || echo "failed,0")
  stages+=("$bg_name=$outcome:test-results/$bg_name.log${bg_report:+:$bg_report}")
  echo "[test] ── $bg_name (ended) ──"
  cat "test-results/$bg_name.log"
  echo "[test] $bg_name: ${outcome%,*} in ${outcome#*,} s"
}

# unit and integration tests (vitest, against a real primary + replicas); fault tests (replicas
# paused, delayed and stopped, the primary stopped, under the running app; the HA topology's
# failovers). Each stage brings up its own databases on free ports and mostly waits (replication,
# restarts, leases), so they run side by side (docs/architecture.md#tests);
# MERIDIAN_TEST_OVERLAP=0 runs them one after the other.
integration=(npx vitest run --project unit --project integration --reporter=default --reporter=json --outputFile.json=test-results/vitest.json)
faults=(npx vitest run --project faults --reporter=default --reporter=json --outputFile.json=test-results/faults.json)
if [ "${MERIDIAN_TEST_OVERLAP:-1}" != 0 ]; then
  bg_stage integration test-results/vitest.json "${integration[@]}"
  stage faults test-results/faults.json "${faults[@]}"
  bg_wait
else
  stage integration test-results/vitest.json "${integration[@]}"
  stage faults test-results/faults.json "${faults[@]}"
fi

# browser journeys (Playwright, Chromium)
rm -rf .data/e2e
# On a port free now (never a fixed one another run or program may hold), unless one is given.
E2E_PORT="${E2E_PORT:-$(npx tsx -e "import('./dev/ports.ts').then(async (m) => console.log(await m.freePort()))")}"
export E2E_PORT
stage browser test-results/e2e.json env CI=1 npx playwright test

# The suite's own teardown check: nothing it started is still running.
stage leftovers '' node dev/test-leftovers.mjs

exec node dev/test-summary.mjs "$(( $(date +%s) - start ))" "${stages[@]}"
