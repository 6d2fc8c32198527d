#!/usr/bin/env bash
# Builds SignetFuzz with libFuzzer and AddressSanitizer and runs each target for a bounded time.
#   scripts/fuzz.sh [target...]        every target when none is named (make fuzz)
#   FUZZ_SECONDS=N                      seconds of fuzzing per target (default 30)
#   FUZZ_BUILD_ONLY=1                   build, run nothing
#   FUZZ_FINDINGS=report                what make test sets: a crash the fuzzing finds is saved and
#                                       reported but does not fail the script (see below)
# Per target: (1) the committed seeds fuzz/corpus/<target>/* are replayed once each under ASan, and
# any failure fails the script (deterministic: the inputs are in git); (2) inputs saved under
# fuzz/crashes/<target>/ by an earlier run are replayed, and one that still fails fails the script,
# unless FUZZ_FINDINGS=report; (3) libFuzzer mutates from the committed seeds (and what earlier runs
# kept in .build/fuzz/corpus/<target>/; copy good ones into the seeds by hand) for FUZZ_SECONDS; a
# crash or a broken property is saved as fuzz/crashes/<target>/crash-* (ignored by git) and fails
# the script, unless FUZZ_FINDINGS=report: then it is reported (with its bytes in base64, for a CI
# log) and the next `make fuzz` fails on it in step 2. See docs/testing.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
findings="${FUZZ_FINDINGS:-fail}"
case "$findings" in fail|report) ;; *) echo "fuzz: FUZZ_FINDINGS must be fail or report"; exit 2 ;; esac
targets=("$@")
# The targets are the cases of FuzzTarget (fuzz/SignetFuzz/FuzzTarget.swift): one list.
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(sed -nE 's/^    case ([a-z]+)$/\1/p' fuzz/SignetFuzz/FuzzTarget.swift)
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no targets found in fuzz/SignetFuzz/FuzzTarget.swift"; exit 1; }
# SwiftPM links an executable's Swift entry point as `main` (--defsym main=<Module>_main), and
# -sanitize=fuzzer would link libFuzzer's own main as well (gold: duplicate main). So: ASan plus the
# coverage libFuzzer needs at compile time, and the libFuzzer runtime without its main, whose
# LLVMFuzzerRunDriver SignetFuzz calls itself. The C targets (the outbound transport's framing, the
# TXT reader) get the same instrumentation through -Xcc.
runtime=$(ls -d "$(dirname "$(readlink -f "$(command -v swiftc)")")"/../lib/clang/*/lib/linux 2>/dev/null | head -1)
archive="$runtime/libclang_rt.fuzzer_no_main-x86_64.a"
[ -f "$archive" ] || { echo "fuzz: no libFuzzer runtime at $archive"; exit 1; }
buildlog=$(mktemp)
# gold warns once per ASan helper symbol ("Cannot export local symbol"); those lines are dropped.
if ! swift build --scratch-path .build/fuzz --product SignetFuzz \
    -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xcc -fsanitize=address -Xcc -fsanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
    -Xswiftc -DSIGNET_LIBFUZZER -Xlinker "$archive" -Xlinker -lstdc++ >"$buildlog" 2>&1; then
  grep -v 'Cannot export local symbol' "$buildlog" | tail -40
  rm -f "$buildlog"
  echo "fuzz: build failed"; exit 1
fi
grep -v 'Cannot export local symbol' "$buildlog" | grep -v '^\[' | tail -3
rm -f "$buildlog"
binary=.build/fuzz/debug/SignetFuzz
[ "${FUZZ_BUILD_ONLY:-0}" = 1 ] && { echo "fuzz: built $binary"; exit 0; }
status=0
flags=(-timeout=10 -rss_limit_mb=2048 -max_len=8192)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Runs the given input files once each (no fuzzing); the log is left in $log.
replay() {
  SWIFT_BACKTRACE=enable=no SIGNET_FUZZ_TARGET="$target" timeout 300 "$binary" "${flags[@]}" -artifact_prefix="$scratch/" "$@" >"$log" 2>&1
}
for target in "${targets[@]}"; do
  mkdir -p ".build/fuzz/corpus/$target" "fuzz/crashes/$target"
  log=$(mktemp)
  seeds=(fuzz/corpus/"$target"/*)
  [ -f "${seeds[0]}" ] || { echo "fuzz: $target has no committed seeds in fuzz/corpus/$target"; status=1; rm -f "$log"; continue; }
  if ! replay "${seeds[@]}"; then
    status=1
    echo "fuzz: $target FAILED on a committed seed; the end of its log:"
    tail -40 "$log"
    rm -f "$log"
    continue
  fi
  for saved in fuzz/crashes/"$target"/*; do
    [ -f "$saved" ] || continue
    if replay "$saved"; then
      echo "fuzz: $target: $saved no longer fails: make it a seed (fuzz/corpus/$target/) and a test, then delete it"
    elif [ "$findings" = report ]; then
      echo "fuzz: $target: $saved still fails (make fuzz fails on it)"
    else
      status=1
      echo "fuzz: $target FAILED on $saved, saved by an earlier run; the end of its log:"
      tail -20 "$log"
    fi
  done
  before=$(ls fuzz/crashes/"$target" | sort)
  # The Swift backtracer is off: libFuzzer and ASan print the report, and a backtracer left
  # waiting on a crashed child would hold the log pipe open.
  if SWIFT_BACKTRACE=enable=no SIGNET_FUZZ_TARGET="$target" \
      timeout $((seconds + 60)) "$binary" -max_total_time="$seconds" "${flags[@]}" \
      -print_final_stats=1 -artifact_prefix="fuzz/crashes/$target/" ".build/fuzz/corpus/$target" "fuzz/corpus/$target" >"$log" 2>&1; then
    runs=$(grep -Eo '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
    secs=$(grep -Eo '^stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
    echo "fuzz: $target: $runs inputs in ${seconds}s ($secs/s), no crash"
  else
    if [ "$findings" = report ]; then
      echo "fuzz: $target found a failing input (reported, not failed here; make fuzz fails on it); the end of its log:"
    else
      status=1
      echo "fuzz: $target FAILED; the end of its log:"
    fi
    tail -40 "$log"
    for name in $(comm -13 <(echo "$before") <(ls fuzz/crashes/"$target" | sort)); do
      echo "  saved: fuzz/crashes/$target/$name"
      if [ "$(stat -c %s "fuzz/crashes/$target/$name")" -le 4096 ]; then
        echo "  base64: $(base64 -w0 "fuzz/crashes/$target/$name")"
      fi
    done
  fi
  rm -f "$log"
done
exit $status
