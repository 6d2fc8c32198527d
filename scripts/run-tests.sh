#!/usr/bin/env bash
# Runs every test: builds, then `swift test`. Services the tests need are started here and
# stopped on exit (PostgreSQL: scripts/postgres-test-server.sh). Both XCTest and Swift Testing
# summaries are checked, not just the exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
# The fuzz targets: the committed corpus through the plain build, then the libFuzzer + ASan build
# and a short run of each target (FUZZ_SECONDS, default 3 here; `make fuzz` runs 30 s each).
.build/debug/SignetFuzz fuzz/corpus
FUZZ_SECONDS="${FUZZ_SECONDS:-3}" scripts/fuzz.sh
log=$(mktemp)
pgdir=""
cleanup() {
  rm -f "$log"
  if [ -n "$pgdir" ]; then scripts/postgres-test-server.sh stop "$pgdir"; fi
}
trap cleanup EXIT
# A throwaway PostgreSQL cluster (Unix socket only) for the store contract suite on PostgreSQL.
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  pgdir=$(mktemp -d /tmp/signet-pg.XXXXXX)
  SIGNET_TEST_POSTGRES_URL=$(scripts/postgres-test-server.sh start "$pgdir")
  export SIGNET_TEST_POSTGRES_URL
  echo "PostgreSQL test server: $SIGNET_TEST_POSTGRES_URL"
else
  echo "PostgreSQL tests skipped: no /usr/lib/postgresql/*/bin/initdb (Debian: postgresql)"
fi
set +e
# Serial: many end-to-end tests block on sockets and subprocesses, and on 2 cores the Swift
# concurrency pool has only 2 threads; run in parallel they can starve the servers' async handlers.
# If the test process crashes, CI keeps only the end of this log: the crash is summed up there
# (what it printed, the crashed thread's frames read from the core file with gdb, the tests that
# were running). The Swift backtracer prints only the crashed thread; it cannot unwind through
# abort(), gdb can.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,threads=crashed,registers=none,images=none,sanitize=no}"
ulimit -c unlimited 2>/dev/null || true
run_tests() {
  rm -f core core.[0-9]*
  swift test --skip-build --no-parallel 2>&1 | tee "$log"
  return "${PIPESTATUS[0]}"
}
# A run that ended without Swift Testing's closing line, or crashed after it (at exit), died, as
# opposed to tests failing.
died() { ! grep -Eq 'Test run with [0-9]+ tests?' "$log" || grep -q '^\*\*\* Program crashed' "$log"; }
run_tests; rc=$?
crash=""
if [ "$rc" -ne 0 ] && died; then
  # One more run, once: a crash is reported (here and again at the very end) but a second crash,
  # or any failing test, fails the run.
  crash=$(scripts/crash-summary.sh "$log" 2>&1)
  echo "$crash"
  echo "== the test process died (exit $rc); running the tests once more"
  run_tests; rc=$?
fi
set -e
if [ "$rc" -ne 0 ]; then
  scripts/crash-summary.sh "$log" || true
  echo "tests failed (exit $rc)"; exit "$rc"
fi
grep -Eq 'Test run with [1-9][0-9]* tests? .* passed' "$log" || { echo "no Swift Testing tests ran"; exit 1; }
if [ -n "$crash" ]; then
  echo "== NOTE: the first test run died; the second passed. What the first run showed:"
  echo "$crash"
fi
echo "all tests passed"
