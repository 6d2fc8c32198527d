#!/usr/bin/env bash
# bench/floor.sh: Signet's server CPU per operation next to the floor under it (issue 16,
# bench/README.md "Session 20 (floor)").
#
#   bench/floor.sh [PAIRS] [SIGNET_BIN] [full|normal]
#
# The floor is bench/floor/floor.c: a C server on the same libraries (libmicrohttpd with the same
# thread pool and poll mode, SQLite on a database that SIGNET_BIN created, OpenSSL) doing only
# what no implementation of the operation can skip, with Signet's own SQL and group commit. For
# each scenario (healthz, userinfo, refresh-noid, refresh-id) and each of PAIRS pairs (default 3):
# a fresh data folder and Signet, one `SignetBench load --scenario S --connections 16 --seconds 5
# --runs 1`; then a fresh data folder and the floor server, the same load (`--server floor`).
# Prints every run's server CPU per operation (from /proc), then per scenario the medians and
# Signet's cost above the floor (`scripts/bench.sh --only floor` sets them beside issue 16's
# targets); records `floor.SCENARIO.signet_us` and `.floor_us` in $RESULTS when set. Everything
# listens on 127.0.0.1. Builds the floor server with gcc (the -dev packages are `make deps`'s).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
pairs=${1:-3}
signet=${2:-.build/release/signet}
sync=${3:-full}
export CPU_AB_SOURCE=1
# shellcheck source=bench/cpu-ab.sh
source bench/cpu-ab.sh   # start, stop, run; WORK and its clean-up; BENCH

floor_bin=$WORK/floor
# shellcheck disable=SC2046
gcc -O2 -Wall -Wextra -o "$floor_bin" bench/floor/floor.c \
    $(pkg-config --cflags --libs libmicrohttpd sqlite3 libcrypto) -lpthread

# start_floor: a fresh data folder set up by Signet (schema, user, clients), served by the floor.
start_floor() {
    local data port
    data=$(mktemp -d "$WORK/data.XXXX")
    printf '{"database": {"synchronous": "%s"}, "admin": {"listen": []}}\n' "$sync" >"$data.json"
    populate "$signet" "$data"
    port=$("$BENCH" port)
    "$floor_bin" "$data/signet.db" "$port" "$sync" 16 >"$data.log" 2>&1 </dev/null &
    SERVER_PID=$!
    for _ in $(seq 200); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 200 ] && break
        sleep 0.05
    done
    ARGS=(--port "$port" --server floor --server-pid "$SERVER_PID")
}

# cpu_of LINE: the server CPU per operation of a `median` line.
cpu_of() { sed -n 's/.*server CPU \([0-9.]*\) us\/op.*/\1/p' <<<"$1"; }
median_of() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "server CPU per operation (us), $pairs pairs, synchronous=$sync, 16 connections, 5 s per run"
declare -A signet_runs floor_runs
for scenario in healthz userinfo refresh-noid refresh-id; do
    for pair in $(seq "$pairs"); do
        start "$signet" "$sync"
        line=$(run "$scenario" 5)
        stop
        signet_runs[$scenario]+="$(cpu_of "$line") "
        start_floor
        line=$(run "$scenario" 5)
        stop
        floor_runs[$scenario]+="$(cpu_of "$line") "
        printf '%-13s pair %d (load %s): signet %s, floor %s\n' "$scenario" "$pair" "$(cut -d' ' -f1 /proc/loadavg)" \
            "$(awk '{ print $NF }' <<<"${signet_runs[$scenario]}")" "$(awk '{ print $NF }' <<<"${floor_runs[$scenario]}")"
    done
done

echo
printf '%-13s %10s %10s %12s\n' scenario signet floor 'signet-floor'
for scenario in healthz userinfo refresh-noid refresh-id; do
    s=$(median_of <<<"${signet_runs[$scenario]}")
    f=$(median_of <<<"${floor_runs[$scenario]}")
    printf '%-13s %10s %10s %12s\n' "$scenario" "$s" "$f" "$(awk -v s="$s" -v f="$f" 'BEGIN { print s - f }')"
    if [ -n "${RESULTS:-}" ]; then
        printf 'floor.%s.signet_us %s\nfloor.%s.floor_us %s\n' "$scenario" "$s" "$scenario" "$f" >>"$RESULTS"
    fi
done
