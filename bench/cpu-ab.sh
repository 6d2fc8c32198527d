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
    head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$data.password"
    "$bin" users add bench@example.com --password-stdin --config "$data.json" --data "$data" <"$data.password" >/dev/null
    "$bin" clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback \
        --scope "openid profile email offline_access" --config "$data.json" --data "$data" >/dev/null
    "$bin" clients add bench-service --confidential --grant-type client_credentials --scope api \
        --config "$data.json" --data "$data" 2>/dev/null | awk '/^client_secret:/ { print $2 }' >"$data.secret"
    PORT=$("$BENCH" port)
    "$bin" serve --config "$data.json" --data "$data" --listen "127.0.0.1:$PORT" >"$data.log" 2>&1 </dev/null &
    SERVER_PID=$!
    for _ in $(seq 500); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/healthz")" = 200 ] && break
        sleep 0.02
    done
    # /healthz answers while the first start still generates the signing keys on a background
    # thread (RSA-2048: ~170 ms idle, seconds under load); /jwks.json waits for them, so the
    # load (and its CPU window) starts after the key generation.
    curl -s -o /dev/null --max-time 60 "http://127.0.0.1:$PORT/jwks.json"
    ARGS=(--port "$PORT" --server-pid "$SERVER_PID" --client bench-app --redirect-uri http://127.0.0.1/callback
          --email bench@example.com --password-file "$data.password"
          --confidential-client bench-service --secret-file "$data.secret")
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
