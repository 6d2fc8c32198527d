#!/usr/bin/env bash
# bench/cpu-ab.sh: A/B pairs of server CPU per operation, and syncs per operation, for two
# `signet` binaries (issue 16, bench/README.md "Session 9: cpu").
#
#   bench/cpu-ab.sh cpu   SCENARIO PAIRS BIN_A BIN_B [full|normal]
#       PAIRS times: a fresh data folder and server for A, one `SignetBench load --scenario
#       SCENARIO --connections 16 --seconds 5 --runs 1`, then the same for B; prints each run's
#       server CPU per operation (from /proc) with the load average.
#   bench/cpu-ab.sh syncs SCENARIO BIN [full|normal]
#       One server; inside a 10 s load, `strace -c -f -e trace=fdatasync,fsync,sendmsg,sendto` for 4 s on
#       it: syncs per operation = syncs / (responses / requests per operation); a response is
#       one sendmsg or sendto (libmicrohttpd uses both).
#
# BENCH (default .build/release/SignetBench) drives the load. Everything listens on 127.0.0.1.
# THREADS=N sets the servers' `http.threads` (default: not set, the server's own default).
set -euo pipefail
BENCH=${BENCH:-.build/release/SignetBench}
WORK=$(mktemp -d /tmp/cpu-ab.XXXX)
SERVER_PID=
cleanup() { [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
# shellcheck source=bench/bench-data.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-data.sh"

# start BIN SYNCHRONOUS: a fresh data folder set up as scripts/bench.sh's start_oauth_server, served.
start() {
    local bin=$1 sync=$2 data
    data=$(mktemp -d "$WORK/data.XXXX")
    # No admin listener: its fixed default port (9080) would collide with another run's server.
    if [ -n "${THREADS:-}" ]; then
        printf '{"database": {"synchronous": "%s"}, "http": {"threads": %d}, "admin": {"listen": []}}\n' "$sync" "$THREADS" >"$data.json"
    else
        printf '{"database": {"synchronous": "%s"}, "admin": {"listen": []}}\n' "$sync" >"$data.json"
    fi
    populate "$bin" "$data"
    PORT=$("$BENCH" port)
    "$bin" serve --config "$data.json" --data "$data" --listen "127.0.0.1:$PORT" >"$data.log" 2>&1 </dev/null &
    SERVER_PID=$!
    wait_serving "$PORT" 60
    load_args "$PORT" "$data"
    ARGS+=(--server-pid "$SERVER_PID")
}

stop() { kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=; }

# run SCENARIO SECONDS: one load run; prints its median line.
run() { "$BENCH" load "${ARGS[@]}" --scenario "$1" --connections 16 --seconds "$2" --runs 1 | grep '^median'; }

# Sourced with CPU_AB_SOURCE=1: only the functions (start, stop, run).
[ "${CPU_AB_SOURCE:-}" = 1 ] && return 0

mode=${1:?cpu or syncs}
scenario=${2:?scenario}
case $mode in
cpu)
    pairs=$3 a=$4 b=$5 sync=${6:-full}
    for pair in $(seq "$pairs"); do
        for side in A B; do
            bin=$a; [ "$side" = B ] && bin=$b
            start "$bin" "$sync"
            printf 'pair %s %s (%s, load %s): ' "$pair" "$side" "$sync" "$(cut -d' ' -f1 /proc/loadavg)"
            run "$scenario" 5
            stop
        done
    done
    ;;
syncs)
    bin=$3 sync=${4:-full}
    start "$bin" "$sync"
    run "$scenario" 10 >"$WORK/load.out" &
    load=$!
    sleep 3
    strace -c -f -e trace=fdatasync,fsync,sendmsg,sendto,writev,write -o "$WORK/strace.out" -p "$SERVER_PID" &
    tracer=$!
    sleep 4
    kill -INT "$tracer"; wait "$tracer" || true
    wait "$load" || true
    per=1; [ "$scenario" = signin ] && per=2
    awk -v per="$per" -v sync="$sync" -v load="$(cut -d' ' -f1 /proc/loadavg)" '
        $NF == "fdatasync" || $NF == "fsync" { syncs += $4 }
        $NF == "sendmsg" || $NF == "sendto" || $NF == "writev" { responses += $4 }
        END { ops = responses / per
              printf "%s: %d syncs, %d responses = %.1f operations: %.2f syncs per operation (load %s)\n",
                     sync, syncs, responses, ops, (ops > 0 ? syncs / ops : 0), load }' "$WORK/strace.out"
    cat "$WORK/load.out"
    stop
    ;;
*) echo "usage: bench/cpu-ab.sh cpu|syncs ..." >&2; exit 2 ;;
esac
