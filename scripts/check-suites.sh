#!/usr/bin/env bash
# Every suite of a test target that starts servers or subprocesses carries `.endToEndLimit` (a
# per-test time limit from SignetTesting), so a hang fails its test instead of stalling the run.
set -euo pipefail
cd "$(dirname "$0")/.."
targets="SignetHTTPTests SignetMailTests SignetQRTests SignetMetricsTests SignetServerTests SignetKitTests SignetClientCoreTests SignetFederationTests SignetResourceTests SignetStoreTests SignetJOSETests"
status=0
for target in $targets; do
  while IFS= read -r hit; do
    case "$hit" in *endToEndLimit*) ;; *) echo "$hit: a suite without .endToEndLimit"; status=1 ;; esac
  done < <(grep -rHn '@Suite' "Tests/$target" --include='*.swift' || true)
done
[ $status = 0 ] && echo "every end-to-end suite has a time limit"
exit $status
