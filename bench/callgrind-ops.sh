#!/usr/bin/env bash
# bench/callgrind-ops.sh: instructions per operation of `signet serve`, counted by callgrind
# (issue 16, bench/README.md "Session 15 (lead)").
#
#   bench/callgrind-ops.sh SCENARIO BIN [BIN...]
#
# Server CPU time per operation moves by ±20 % from run to run on this shared 2-core machine,
# ten times the size of most single changes. An instruction count does not: valgrind runs the
# server's threads one at a time and counts what they execute, whatever else the machine does.
# For each binary: a fresh data folder as bench/cpu-ab.sh sets it up, `signet serve` under
# `valgrind --tool=callgrind`, a `SignetBench load --scenario SCENARIO` of 4 connections beside
# it; after a warm-up the counters are zeroed, and after a window they are dumped. The
# operations in the window are read from the server's own counter (`/metrics` on the admin
# listener, read just before the zeroing and just after the dump, so the scrapes are not
# counted). Prints instructions per operation (all of the server's threads, the kernel's work
# not included) and keeps the profile for `callgrind_annotate`.
#
# VALGRIND (default: /opt/valgrind-3.24/bin/valgrind, else valgrind on PATH): Debian 12's
# valgrind 3.19 cannot read the DWARF 5 of Swift 6 binaries; 3.24 can, with one fix to its
# rt_sigsuspend wrapper (it writes into the caller's signal mask, which libdispatch keeps in
# read-only memory): bench/README.md says how to build it. WARMUP and WINDOW are seconds
# (defaults 20 and 30); KEEP=DIR keeps the callgrind files there. POSTGRES=CONNINFO (a libpq
# conninfo whose role may create databases, such as scripts/postgres-test-server.sh prints) serves
# each binary from a fresh PostgreSQL database of that server (`database.driver: postgres`, a pool
# of 16 as the bench's postgres section) instead of SQLite; PostgreSQL's own work is not counted.
set -euo pipefail
scenario=${1:?scenario (refresh-noid, refresh-id, client-credentials, userinfo, signin, healthz)}
shift
[ $# -ge 1 ] || { echo "usage: $0 SCENARIO BIN [BIN...]" >&2; exit 2; }
VALGRIND=${VALGRIND:-/opt/valgrind-3.24/bin/valgrind}
[ -x "$VALGRIND" ] || VALGRIND=$(command -v valgrind)
BENCH=${BENCH:-.build/release/SignetBench}
WARMUP=${WARMUP:-20}
WINDOW=${WINDOW:-30}
WORK=$(mktemp -d /tmp/callgrind-ops.XXXX)
KEEP=${KEEP:-$WORK}
SERVER_PID=
LOAD_PID=
cleanup() {
    [ -n "$LOAD_PID" ] && kill "$LOAD_PID" 2>/dev/null
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    [ "$KEEP" = "$WORK" ] && rm -rf "$WORK"
    true
}
trap cleanup EXIT
# shellcheck source=bench/bench-data.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-data.sh"

# The operation counter of SCENARIO, summed over its series, from the admin listener's /metrics.
operations() {
    local pattern
    case $scenario in
    refresh-*) pattern='^signet_refresh_rotations_total' ;;
    client-credentials) pattern='^signet_token_requests_total\{grant_type="client_credentials",result="success"' ;;
    signin) pattern='^signet_token_requests_total\{grant_type="authorization_code",result="success"' ;;
    userinfo) pattern='^signet_http_requests_total\{[^}]*route="/userinfo"' ;;
    healthz) pattern='^signet_http_requests_total\{[^}]*listener="public"[^}]*route="/healthz"' ;;
    *) echo "no counter for $scenario" >&2; exit 2 ;;
    esac
    curl -s "http://127.0.0.1:$ADMIN_PORT/metrics" | grep -E "$pattern" | awk '{ sum += $NF } END { printf "%d\n", sum }'
}

for bin in "$@"; do
    data=$(mktemp -d "$WORK/data.XXXX")
    PORT=$("$BENCH" port)
    ADMIN_PORT=$("$BENCH" port)
    if [ -n "${POSTGRES:-}" ]; then
        db=callgrind_$(basename "$data" | tr -c 'a-zA-Z0-9\n' '_' | tr 'A-Z' 'a-z')
        psql "$POSTGRES" -X -q -c "CREATE DATABASE $db" >/dev/null
        printf '%s' "${POSTGRES/dbname=postgres/dbname=$db}" >"$data.conninfo"
        openssl rand -hex 32 >"$data.master-key"
        printf '{"master_key": "file:%s", "database": {"driver": "postgres", "url": "file:%s", "max_connections": 16}, "admin": {"listen": ["127.0.0.1:%d"]}}\n' \
            "$data.master-key" "$data.conninfo" "$ADMIN_PORT" >"$data.json"
    else
        printf '{"admin": {"listen": ["127.0.0.1:%d"]}}\n' "$ADMIN_PORT" >"$data.json"
    fi
    populate "$bin" "$data"
    out="$KEEP/callgrind.$(basename "$bin").$scenario.out"
    "$VALGRIND" --tool=callgrind --callgrind-out-file="$out" --dump-instr=no \
        "$bin" serve --config "$data.json" --data "$data" --listen "127.0.0.1:$PORT" >"$data.log" 2>&1 </dev/null &
    SERVER_PID=$!
    wait_serving "$PORT" 300
    load_args "$PORT" "$data"
    "$BENCH" load "${ARGS[@]}" --scenario "$scenario" --connections 4 --warmup 0 --seconds $((WARMUP + WINDOW + 30)) --runs 1 >"$data.load" 2>&1 &
    LOAD_PID=$!
    sleep "$WARMUP"
    before=$(operations)
    callgrind_control=$(dirname "$VALGRIND")/callgrind_control
    [ -x "$callgrind_control" ] || callgrind_control=callgrind_control
    "$callgrind_control" -z "$SERVER_PID" >/dev/null 2>&1
    sleep "$WINDOW"
    "$callgrind_control" -d "$SERVER_PID" >/dev/null 2>&1
    after=$(operations)
    kill "$LOAD_PID" 2>/dev/null; wait "$LOAD_PID" 2>/dev/null || true; LOAD_PID=
    kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=
    # The dump of the window is the file with the suffix .1 (the final one at exit is the other).
    instructions=$(grep -h '^summary:' "$out".1 2>/dev/null | awk '{ print $2 }')
    ops=$((after - before))
    if [ -z "$instructions" ] || [ "$ops" -le 0 ]; then
        echo "$bin: no window measured (operations $before -> $after; see $data.log, $data.load)" >&2
        continue
    fi
    kept="profile $out.1"; [ "$KEEP" = "$WORK" ] && kept="KEEP=DIR keeps the profile"
    printf '%s  %s: %d operations in %d s under callgrind, %s instructions per operation (%s)\n' \
        "$bin" "$scenario" "$ops" "$WINDOW" "$(awk -v i="$instructions" -v o="$ops" 'BEGIN { printf "%.0f", i / o }')" "$kept"
done
