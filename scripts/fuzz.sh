#!/usr/bin/env bash
# Builds SignetFuzz with libFuzzer and AddressSanitizer and runs each target for a bounded time.
#   scripts/fuzz.sh [target...]        every target when none is named (make fuzz)
#   FUZZ_SECONDS=N                      seconds per target (default 30)
#   FUZZ_BUILD_ONLY=1                   build, run nothing
# The committed seeds are fuzz/corpus/<target>/; inputs that reach new code are kept across runs in
# .build/fuzz/corpus/<target>/ (copy good ones into the seeds by hand); a crash or a broken property stops that target, saves the input as fuzz/crashes/<target>/crash-*,
# and makes the script fail. See docs/testing.md, "Fuzzing".
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-30}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json jws jwk form redirect http webauthn)
# SwiftPM links an executable's Swift entry point as `main` (--defsym main=<Module>_main), and
# -sanitize=fuzzer would link libFuzzer's own main as well (gold: duplicate main). So: ASan plus the
# coverage libFuzzer needs at compile time, and the libFuzzer runtime without its main, whose
# LLVMFuzzerRunDriver SignetFuzz calls itself.
runtime=$(ls -d "$(dirname "$(readlink -f "$(command -v swiftc)")")"/../lib/clang/*/lib/linux 2>/dev/null | head -1)
archive="$runtime/libclang_rt.fuzzer_no_main-x86_64.a"
[ -f "$archive" ] || { echo "fuzz: no libFuzzer runtime at $archive"; exit 1; }
buildlog=$(mktemp)
# gold warns once per ASan helper symbol ("Cannot export local symbol"); those lines are dropped.
if ! swift build --scratch-path .build/fuzz --product SignetFuzz \
    -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
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
for target in "${targets[@]}"; do
  mkdir -p ".build/fuzz/corpus/$target" "fuzz/crashes/$target"
  log=$(mktemp)
  # The Swift backtracer is off: libFuzzer and ASan print the report, and a backtracer left
  # waiting on a crashed child would hold the log pipe open.
  if SWIFT_BACKTRACE=enable=no SIGNET_FUZZ_TARGET="$target" \
      timeout $((seconds + 60)) "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
      -print_final_stats=1 -artifact_prefix="fuzz/crashes/$target/" ".build/fuzz/corpus/$target" "fuzz/corpus/$target" >"$log" 2>&1; then
    runs=$(grep -Eo '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
    secs=$(grep -Eo '^stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
    echo "fuzz: $target: $runs inputs in ${seconds}s ($secs/s), no crash"
  else
    status=1
    echo "fuzz: $target FAILED; the end of its log:"
    tail -40 "$log"
    ls fuzz/crashes/"$target"/ 2>/dev/null | sed 's/^/  saved: /'
  fi
  rm -f "$log"
done
exit $status
