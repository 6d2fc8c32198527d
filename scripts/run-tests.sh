#!/usr/bin/env bash
# Runs every test: builds, then `swift test`. Services the tests need are started here and
# stopped on exit (PostgreSQL: scripts/postgres-test-server.sh). Both XCTest and Swift Testing
# summaries are checked, not just the exit code.
#
# Under CI (`CI` or `SIGNET_REQUIRE_ALL` set) nothing is skipped: a missing real part (PostgreSQL,
# Chromium, the keyring, jwcrypto, oidc-provider-mock) fails the tests that need it, and a run in
# which some real part was used by no test fails (see RealPart in SignetTesting). A test process
# that dies fails the run, with its crash summary; nothing is run twice.
set -euo pipefail
cd "$(dirname "$0")/.."
required=""
for name in CI SIGNET_REQUIRE_ALL; do
  case "${!name:-}" in ""|0|false|FALSE|False|no) ;; *) required=yes ;; esac
done
# The whole `swift test` run gets this many seconds (each suite that starts servers also has a
# per-test `.timeLimit`); past it the test process is sent SIGABRT, so its core names the frames.
run_limit=${SIGNET_TEST_RUN_LIMIT:-1500}

swift build --build-tests
# The fuzz targets: the committed corpus through the plain build, then the libFuzzer + ASan build,
# the committed corpus again under ASan, and a short run of each target (FUZZ_SECONDS, default 3
# here; `make fuzz` runs 30 s each). The committed corpus must pass; an input the short run finds
# is saved and reported, and fails `make fuzz`, not this run (FUZZ_FINDINGS=report).
.build/debug/SignetFuzz fuzz/corpus
FUZZ_SECONDS="${FUZZ_SECONDS:-3}" FUZZ_FINDINGS=report scripts/fuzz.sh
log=$(mktemp)
parts=$(mktemp)
pgdir=""
watchdog=""
cleanup() {
  rm -f "$log" "$parts" "${test_pid_file:-}"
  if [ -n "$watchdog" ]; then kill "$watchdog" 2>/dev/null || true; fi
  if [ -n "$pgdir" ]; then scripts/postgres-test-server.sh stop "$pgdir"; fi
}
trap cleanup EXIT
# A throwaway PostgreSQL cluster (Unix socket only) for the store contract suite on PostgreSQL.
if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
  pgdir=$(mktemp -d /tmp/signet-pg.XXXXXX)
  SIGNET_TEST_POSTGRES_URL=$(scripts/postgres-test-server.sh start "$pgdir")
  export SIGNET_TEST_POSTGRES_URL
  echo "PostgreSQL test server: $SIGNET_TEST_POSTGRES_URL"
elif [ -n "$required" ]; then
  echo "MISSING: PostgreSQL server binaries (no /usr/lib/postgresql/*/bin/initdb; Debian: postgresql); the PostgreSQL tests will fail"
else
  echo "PostgreSQL tests skipped: no /usr/lib/postgresql/*/bin/initdb (Debian: postgresql)"
fi
export SIGNET_REAL_PARTS_LOG="$parts"

# Serial: many end-to-end tests block on sockets and subprocesses, and on 2 cores the Swift
# concurrency pool has only 2 threads; run in parallel they can starve the servers' async handlers.
# If the test process crashes, CI keeps only the end of this log: the crash is summed up there
# (what it printed, the crashed thread's frames read from the core file with gdb, the tests that
# were running). The Swift backtracer prints only the crashed thread; it cannot unwind through
# abort(), gdb can.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=yes,threads=crashed,registers=none,images=none,sanitize=no}"
ulimit -c unlimited 2>/dev/null || true
rm -f core core.[0-9]*
# The watchdog: a hung run ends with a core dump and the summary below instead of CI's limit.
# It finds the test process by process id: `swift test`'s pid is written to $test_pid_file, and
# the test bundles are the descendants of that pid (so another checkout's tests are never hit).
test_pid_file=$(mktemp)
descendants() {
  local child
  for child in $(pgrep -P "$1"); do echo "$child"; descendants "$child"; done
}
(
  set +e
  sleep "$run_limit" & sleeper=$!
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
  wait "$sleeper"
  root=$(cat "$test_pid_file")
  echo "== watchdog: the test run passed its ${run_limit} s limit (swift test: pid ${root:-unknown})" >&2
  # A first SIGABRT has been seen to be lost, so it is repeated, then SIGKILL.
  for signal in ABRT ABRT ABRT KILL; do
    [ -n "$root" ] && kill -0 "$root" 2>/dev/null || { echo "== watchdog: swift test has ended" >&2; exit 0; }
    pids=""
    for pid in $(descendants "$root"); do
      case "$(readlink "/proc/$pid/exe")" in *.xctest) pids="$pids $pid" ;; esac
    done
    if [ -z "$pids" ]; then
      pids="$root $(descendants "$root" | tr '\n' ' ')"
      echo "== watchdog: no test bundle (*.xctest) runs under swift test; sending SIG$signal to swift test and all it started (pid $pids)" >&2
    else
      echo "== watchdog: sending SIG$signal to the test process (pid$pids)" >&2
    fi
    # shellcheck disable=SC2086
    kill -s "$signal" $pids
    sleep 10
  done
) &
watchdog=$!
set +e
# The subshell writes its own pid and becomes `swift test`, so the pid written is swift test's.
(echo "$BASHPID" >"$test_pid_file"; exec swift test --skip-build --no-parallel) 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
kill "$watchdog" 2>/dev/null || true
wait "$watchdog" 2>/dev/null || true
watchdog=""

# A run that ended without Swift Testing's closing line, or crashed after it (at exit), died, as
# opposed to tests failing.
died() { ! grep -Eq 'Test run with [0-9]+ tests?' "$log" || grep -q '^\*\*\* Program crashed' "$log"; }
if [ "$rc" -eq 0 ] && died; then rc=1; fi
if [ "$rc" -ne 0 ]; then
  if died; then echo "== the test process died (exit $rc)"; fi
  scripts/crash-summary.sh "$log" || true
fi

# How many tests used each real part (RealPart.use() writes one line per use).
# The parts are the cases of RealPart (their raw values), read from its source: one list.
summary="real parts:"
unused=""
mapfile -t all_parts < <(sed -nE 's/^    case [A-Za-z0-9]+ = "([^"]+)"$/\1/p' Sources/SignetTesting/RealPart.swift)
[ "${#all_parts[@]}" -gt 0 ] || { echo "no RealPart cases found in Sources/SignetTesting/RealPart.swift"; exit 1; }
for part in "${all_parts[@]}"; do
  count=$(awk -F'\t' -v p="$part" '$1 == p { print $2 }' "$parts" | sort -u | wc -l)
  summary="$summary $part $count,"
  if [ "$count" -eq 0 ]; then unused="$unused $part"; fi
done
echo "${summary%,} test(s)"
if [ -n "$unused" ]; then
  if [ -n "$required" ]; then
    echo "no test used:$unused (required under CI)"
    [ "$rc" -ne 0 ] || rc=1
  else
    echo "not used in this run:$unused"
  fi
fi

if [ "$rc" -ne 0 ]; then echo "tests failed (exit $rc)"; exit "$rc"; fi
grep -Eq 'Test run with [1-9][0-9]* tests? .* passed' "$log" || { echo "no Swift Testing tests ran"; exit 1; }
echo "all tests passed"
