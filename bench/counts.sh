#!/usr/bin/env bash
# bench/counts.sh: counts per operation that do not swing with the machine's load, for one
# `signet` binary (issue 16; bench/README.md, "Session 19 (readers)" and "(allocations)").
#
#   bench/counts.sh allocs   SCENARIO BIN
#       `signet serve` under heaptrack, one `SignetBench load --scenario SCENARIO --connections 8
#       --seconds 5 --warmup 0`; prints heap allocations per operation (all of the process, and
#       those made on the request threads) and the sites that make the most, each stack counted
#       under its innermost frame of a Signet module (a C library's own allocations, and the
#       standard library's, count under the Signet function that called into it).
#   bench/counts.sh syscalls SCENARIO BIN
#       One server; 3 s into a 10 s, 16-connection load, `perf stat` for 4 s on it: system calls
#       per response (a response is one `sendmsg`), and the SQLite read connections opened and
#       statements parsed in that time (uprobes on libsqlite3's `sqlite3_open_v2` and
#       `sqlite3RunParser`, removed afterwards).
#
# BENCH (default .build/release/SignetBench) drives the load. Everything listens on 127.0.0.1.
# Needs heaptrack (allocs) or linux-perf (syscalls): `make bench` installs both.
set -euo pipefail
BENCH=${BENCH:-.build/release/SignetBench}
WORK=$(mktemp -d /tmp/counts.XXXX)
SERVER_PID=
PROBES=
cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
    [ -n "$PROBES" ] && perf probe -q -d 'probe_libsqlite3:*' 2>/dev/null
    rm -rf "$WORK"
}
trap cleanup EXIT
# shellcheck source=bench/bench-data.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-data.sh"

mode=${1:?allocs or syscalls}
scenario=${2:?scenario}
bin=${3:?signet binary}
data=$WORK/data
mkdir -p "$data"
printf '{"admin": {"listen": []}}\n' >"$data.json"
populate "$bin" "$data"
PORT=$("$BENCH" port)

case $mode in
allocs)
    command -v heaptrack >/dev/null || { echo "heaptrack is not installed (make bench installs it)" >&2; exit 1; }
    heaptrack -o "$WORK/heap" "$bin" serve --config "$data.json" --data "$data" --listen "127.0.0.1:$PORT" \
        >"$WORK/serve.log" 2>&1 </dev/null &
    wait_serving "$PORT" 120
    SERVER_PID=$(pgrep -f -- "--config $data.json" | while read -r pid; do
        [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = heaptrack ] || echo "$pid"; done | tail -n 1)
    load_args "$PORT" "$data"
    "$BENCH" load "${ARGS[@]}" --scenario "$scenario" --connections 8 --seconds 5 --runs 1 --warmup 0 \
        --results "$WORK/results" --key run | grep '^median'
    kill "$SERVER_PID"
    for _ in $(seq 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    SERVER_PID=
    sleep 1   # heaptrack writes its file after the process exits
    operations=$(awk '$1 == "load.run.operations" { print $2 }' "$WORK/results")
    heaptrack_print -f "$WORK"/heap.*zst -F "$WORK/stacks" --flamegraph-cost-type allocations >/dev/null 2>&1
    awk -v ops="$operations" '
        {
            n = $NF; stack = $0; sub(/ [0-9]+$/, "", stack); total += n
            if (stack ~ /mhdAccessHandler|mhdCollectHeader|mhdURILog|mhdRequestCompleted/) requests += n
            frames = split(stack, f, ";"); site = "(no Signet frame)"
            for (i = frames; i >= 1; i--) if (f[i] ~ /^\$s[0-9]+Signet/) { site = f[i]; break }
            by[site] += n
        }
        END {
            printf "%d operations; heap allocations per operation: %.1f in all, %.1f on the request threads\n", ops, total / ops, requests / ops
            for (s in by) printf "%8.2f  %s\n", by[s] / ops, substr(s, 1, 150) | "sort -rn | head -20"
        }' "$WORK/stacks"
    ;;
syscalls)
    library=$(ldconfig -p | awk '/libsqlite3\.so\.0 / { print $NF; exit }')
    library=$(readlink -f "$library")
    if perf probe -q -x "$library" sqlite3_open_v2 2>/dev/null && perf probe -q -x "$library" sqlite3RunParser 2>/dev/null; then
        PROBES=1
    fi
    "$bin" serve --config "$data.json" --data "$data" --listen "127.0.0.1:$PORT" >"$WORK/serve.log" 2>&1 </dev/null &
    SERVER_PID=$!
    wait_serving "$PORT" 60
    load_args "$PORT" "$data"
    "$BENCH" load "${ARGS[@]}" --scenario "$scenario" --connections 16 --seconds 10 --runs 1 >"$WORK/load.out" &
    load=$!
    sleep 3
    events=syscalls:sys_enter_sendmsg,syscalls:sys_enter_futex,syscalls:sys_enter_fcntl,syscalls:sys_enter_poll
    events=$events,syscalls:sys_enter_recvfrom,syscalls:sys_enter_pread64,syscalls:sys_enter_pwrite64,syscalls:sys_enter_fdatasync
    [ -n "$PROBES" ] && events="$events,probe_libsqlite3:sqlite3_open_v2,probe_libsqlite3:sqlite3RunParser"
    perf stat -x, -e "$events" -p "$SERVER_PID" -- sleep 4 2>"$WORK/stat.csv" >/dev/null
    wait "$load" || true
    grep '^median' "$WORK/load.out"
    awk -F, '$1 ~ /^[0-9]+$/ { n = split($3, e, ":"); c[e[n]] = $1; order[++k] = e[n] }
        END {
            r = c["sys_enter_sendmsg"]; if (r == 0) r = 1
            printf "in 4 s: %d responses; per response:", r
            for (i = 1; i <= k; i++) if (order[i] ~ /^sys_enter_/ && order[i] != "sys_enter_sendmsg") {
                name = order[i]; sub(/^sys_enter_/, "", name); printf " %s %.2f", name, c[order[i]] / r
            }
            printf "\n"
            for (i = 1; i <= k; i++) if (order[i] ~ /^sqlite3/) printf "in 4 s: %s %d\n", order[i], c[order[i]]
        }' "$WORK/stat.csv"
    [ -n "$PROBES" ] || echo "(no uprobes on $library: SQLite opens and parses not counted)"
    ;;
*)
    echo "usage: $0 allocs|syscalls SCENARIO BIN" >&2
    exit 2
    ;;
esac
