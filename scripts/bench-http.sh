#!/usr/bin/env bash
# bench-http.sh URL [DURATION]
# Runs `wrk -t2 -c32 -d5s --latency` (keep-alive) against a running server and prints one line:
#   URL req/s=N p50=X p99=Y
set -euo pipefail
URL=${1:?usage: $0 URL [DURATION]}; DURATION=${2:-5s}
out=$(wrk -t2 -c32 -d"$DURATION" --latency "$URL")
rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
errors=$(awk '/Non-2xx or 3xx responses:|Socket errors:/ {print}' <<<"$out" | tr '\n' ' ')
[ -n "$rps" ] || { echo "wrk failed:"; echo "$out"; exit 1; } >&2
echo "$URL req/s=$rps p50=$p50 p99=$p99${errors:+ ($errors)}"
