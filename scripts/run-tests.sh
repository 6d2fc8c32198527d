#!/usr/bin/env bash
# Runs every test: builds, then `swift test`. Services the tests need are started here and
# stopped on exit. Both XCTest and Swift Testing summaries are checked, not just the exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
# Serial: many end-to-end tests block on sockets and subprocesses, and on 2 cores the Swift
# concurrency pool has only 2 threads; run in parallel they can starve the servers' async handlers.
swift test --skip-build --no-parallel 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
if [ "$rc" -ne 0 ]; then echo "tests failed (exit $rc)"; exit "$rc"; fi
grep -Eq 'Test run with [1-9][0-9]* tests? .* passed' "$log" || { echo "no Swift Testing tests ran"; exit 1; }
echo "all tests passed"
