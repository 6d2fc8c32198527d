#!/usr/bin/env bash
# Signet benchmarks: prints each figure next to its reference and the commands used, then a
# summary with the target and PASS/MISS. `make bench` builds first and then runs this.
#
#   scripts/bench.sh                     every section
#   scripts/bench.sh --only http,crypto  some sections (names: see SECTIONS below, or --list)
#   scripts/bench.sh --list              list the sections
#   scripts/bench.sh --strict            exit 1 when a figure misses its target
#   scripts/bench.sh --duration 5s       wrk duration per run (default 5s)
#   scripts/bench.sh --runs 2            runs per measurement: wrk (alternating servers), load (default 2)
#   scripts/bench.sh --only scale --scale-tokens 10000000 --scale-pg-tokens 1000000
#                                        the opt-in scale section and its database sizes
#                                        (--scale-pairs 3: load runs per scale comparison)
#   scripts/bench.sh --only floor        the opt-in floor section: Signet next to bench/floor's C
#                                        server (--floor-pairs 3: alternating pairs per scenario)
#
# Everything binds to 127.0.0.1 on free ports; every process started here is stopped on exit.
#
# Adding a benchmark: write `section_NAME` (print the commands, run them, print a table, and call
# `summary_add` for each figure), add NAME to SECTIONS. Measurements that need Swift go in a
# SignetBench subcommand (bench/SignetBench/BenchCommand.swift) that records `key value` lines
# in "$RESULTS"; read them back with `result KEY`.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
SIGNET=$ROOT/.build/release/signet
BENCH=$ROOT/.build/release/SignetBench
NGINX=${NGINX:-/usr/sbin/nginx}

SECTIONS=(footprint startup http jwks crypto refresh durability slowfed postgres client_credentials userinfo signin password enumeration)
# Opt-in sections: run only when named in --only.
OPTIN_SECTIONS=(scale floor)
# Issue 16's server CPU targets per operation (us), by load scenario: the load sections print each
# against its figure, the floor section against the floor under it.
declare -A CPU_TARGET=([refresh-id]=330 [refresh-noid]=80 [client-credentials]=40 [userinfo]=15 [signin]=500)
# floor: Signet next to bench/floor's C server on the same libraries (the floor under the CPU
# targets), alternating, this many pairs per scenario.
FLOOR_PAIRS=${FLOOR_PAIRS:-3}
# scale: live refresh tokens seeded on SQLite and on PostgreSQL (--scale-tokens, --scale-pg-tokens),
# expired rows for the purge (half expired grants, half their tokens), seeded tokens per load phase.
# The environment may set them too (SCALE_TOKENS=100000 make bench BENCH_ARGS="--only scale").
SCALE_TOKENS=${SCALE_TOKENS:-10000000}
SCALE_PG_TOKENS=${SCALE_PG_TOKENS:-1000000}
SCALE_EXPIRED_ROWS=${SCALE_EXPIRED_ROWS:-1000000}
SCALE_SAMPLE=${SCALE_SAMPLE:-20000}
# scale: load runs per comparison (seeded against empty, undisturbed and during the purge); each
# ratio is the median of its runs, so one 5 s run on a drifting machine does not decide it.
SCALE_PAIRS=${SCALE_PAIRS:-3}
WRK_DURATION=5s
WRK_THREADS=2
WRK_CONNECTIONS=32
WRK_RUNS=2            # per server, alternating nginx, signet, nginx, signet
STARTUP_RUNS=5
CRYPTO_SECONDS=2
LOAD_SECONDS=5        # per SignetBench load run (after a 0.5 s warm-up)
# Connections per load-generator run (one thread and one keep-alive connection each). On 2 cores
# shared by the server and the generator, 16 saturates the server's 2 request threads without
# adding queueing latency; password sign-ins use 4 (the server hashes 2 at a time).
LOAD_CONNECTIONS=16
PASSWORD_CONNECTIONS=4
# slowfed: the mock upstream's delay (seconds) on every answer but /authorize, and how many
# federated sign-ins are kept in flight while refresh rotations are measured (more than the
# server's HTTP threads, 16 on SQLite, so a callback that held its thread would show).
UPSTREAM_DELAY=3
FEDERATED_BROWSERS=32
STRICT=0
# Set by a section whose correctness check failed (e.g. two live tokens in one family): exit 1.
CORRECTNESS_FAILED=0

# ---------------------------------------------------------------------------------------------
# Command line

usage() { sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; }

ONLY=""
while [ $# -gt 0 ]; do
    case "$1" in
        --only) ONLY=${2:?--only needs a list of sections}; shift 2 ;;
        --only=*) ONLY=${1#--only=}; shift ;;
        --list) printf '%s\n' "${SECTIONS[@]}"; printf '%s (opt-in)\n' "${OPTIN_SECTIONS[@]}"; exit 0 ;;
        --scale-tokens) SCALE_TOKENS=${2:?--scale-tokens needs a number}; shift 2 ;;
        --scale-pg-tokens) SCALE_PG_TOKENS=${2:?--scale-pg-tokens needs a number}; shift 2 ;;
        --scale-expired-rows) SCALE_EXPIRED_ROWS=${2:?--scale-expired-rows needs a number}; shift 2 ;;
        --scale-sample) SCALE_SAMPLE=${2:?--scale-sample needs a number}; shift 2 ;;
        --scale-pairs) SCALE_PAIRS=${2:?--scale-pairs needs a number}; shift 2 ;;
        --floor-pairs) FLOOR_PAIRS=${2:?--floor-pairs needs a number}; shift 2 ;;
        --strict) STRICT=1; shift ;;
        --duration) WRK_DURATION=${2:?--duration needs a value like 5s}; LOAD_SECONDS=${WRK_DURATION%s}; shift 2 ;;
        --runs) WRK_RUNS=${2:?--runs needs a number}; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "bench.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
    esac
done
SELECTED=("${SECTIONS[@]}")
if [ -n "$ONLY" ]; then
    IFS=', ' read -r -a SELECTED <<<"$ONLY"
    for s in "${SELECTED[@]}"; do
        [[ " ${SECTIONS[*]} ${OPTIN_SECTIONS[*]} " == *" $s "* ]] ||
            { echo "bench.sh: unknown section '$s' (have: ${SECTIONS[*]} ${OPTIN_SECTIONS[*]})" >&2; exit 2; }
    done
fi

# ---------------------------------------------------------------------------------------------
# Processes and clean-up: every background process goes into PIDS and is stopped on exit.

WORK=$(mktemp -d "${TMPDIR:-/tmp}/signet-bench.XXXXXX")
RESULTS=$WORK/results.txt
: >"$RESULTS"
PIDS=()
# Folders outside $WORK (the scale section's databases, PostgreSQL clusters), deleted on exit.
SCRATCH_DIRS=()
PG_DIRS=()

stop_pid() {
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
    local dir
    for dir in "${PG_DIRS[@]}"; do scripts/postgres-test-server.sh stop "$dir" >/dev/null 2>&1 || true; done
    for dir in "${SCRATCH_DIRS[@]}"; do rm -rf "$dir"; done
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---------------------------------------------------------------------------------------------
# Output helpers

heading() { printf '\n== %s\n' "$*"; }
show_cmd() { printf '$ %s\n' "$*"; }

# summary_add NAME VALUE TARGET STATUS
SUMMARY=()
MISSED=0
summary_add() {
    SUMMARY+=("$1|$2|$3|$4")
    [ "$4" = PASS ] || [ "$4" = info ] || MISSED=1
}

# result KEY: a figure a SignetBench subcommand recorded in $RESULTS (the last one recorded).
result() { awk -v k="$1" '$1 == k { v = $2 } END { if (v == "") exit 1; print v }' "$RESULTS"; }
# results KEY: every value recorded under KEY, one per line.
results() { awk -v k="$1" '$1 == k { print $2 }' "$RESULTS"; }

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# calc EXPR: floating-point arithmetic, e.g. calc "1 / 3"
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

# pass_if CONDITION (awk syntax): PASS or MISS
pass_if() { awk "BEGIN { exit !($1) }" && echo PASS || echo MISS; }

free_port() { "$BENCH" port; }

# wait_http URL [SECONDS]: until URL answers 200.
wait_http() {
    local url=$1 limit=${2:-15} i
    for i in $(seq $((limit * 50))); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "$url" 2>/dev/null)" = 200 ] && return 0
        sleep 0.02
    done
    echo "bench.sh: $url did not answer 200 within ${limit}s" >&2
    return 1
}

# ---------------------------------------------------------------------------------------------
# Servers

# start_signet NAME: `signet serve` on a fresh data folder; sets SIGNET_PID and SIGNET_PORT.
# Every bench server keeps the default admin listener (its threads are part of what runs), each
# on a port of its own: several servers run at once (the shared throughput server beside a
# section's), and the default 127.0.0.1:9080 would let only the first one start.
ADMIN_ARGS=(--admin-listen 127.0.0.1:0)

start_signet() {
    local name=$1
    SIGNET_PORT=$(free_port)
    local data=$WORK/$name-data
    show_cmd "$SIGNET serve --data $data --listen 127.0.0.1:$SIGNET_PORT ${ADMIN_ARGS[*]}"
    "$SIGNET" serve --data "$data" --listen "127.0.0.1:$SIGNET_PORT" "${ADMIN_ARGS[@]}" >"$WORK/$name.log" 2>&1 </dev/null &
    SIGNET_PID=$!
    PIDS+=("$SIGNET_PID")
    wait_http "http://127.0.0.1:$SIGNET_PORT/healthz" || { cat "$WORK/$name.log" >&2; return 1; }
}

# write_nginx_config PREFIX WORKERS BLOCKS: PREFIX/nginx.conf for an nginx of the bench's own
# (private prefix, in the foreground, no access log, long keep-alive), WORKERS worker processes,
# and BLOCKS (its upstream and server blocks) inside `http { }`. The one writer of the bench's
# nginx configurations: start_nginx and start_nginx_balancer use it.
write_nginx_config() {
    local prefix=$1 workers=$2 blocks=$3 user=""
    mkdir -p "$prefix/logs"
    # As root, nginx would switch its workers to "nobody"; keep them as the current user.
    if [ "$(id -u)" = 0 ]; then user="user $(id -un) $(id -gn);"; fi
    cat >"$prefix/nginx.conf" <<EOF
$user
worker_processes $workers;
daemon off;
pid $prefix/nginx.pid;
error_log $prefix/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $prefix/client_body;
    proxy_temp_path $prefix/proxy;
    fastcgi_temp_path $prefix/fastcgi;
    uwsgi_temp_path $prefix/uwsgi;
    scgi_temp_path $prefix/scgi;
$blocks
}
EOF
}

# start_nginx: nginx with a private prefix, serving /hello and a copy of Signet's JWKS from
# memory (no file I/O per request); sets NGINX_PID and NGINX_PORT. Needs $WORK/jwks.json.
start_nginx() {
    NGINX_PORT=$(free_port)
    local prefix=$WORK/nginx
    write_nginx_config "$prefix" auto "$(cat <<EOF
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location = /hello { default_type application/json; return 200 '{"status":"ok"}'; }
        location = /jwks.json { default_type application/jwk-set+json; return 200 '$(cat "$WORK/jwks.json")'; }
    }
EOF
)"
    show_cmd "$NGINX -p $prefix -c $prefix/nginx.conf -e $prefix/error.log   # worker_processes auto; access_log off; keepalive_requests 1000000"
    "$NGINX" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" </dev/null &
    NGINX_PID=$!
    PIDS+=("$NGINX_PID")
    wait_http "http://127.0.0.1:$NGINX_PORT/hello" || { cat "$prefix/error.log" >&2; return 1; }
}

# start_nginx_balancer PREFIX PORT NODE_A_PORT NODE_B_PORT: nginx on 127.0.0.1:PORT spreading
# requests over two Signet nodes (keep-alive upstreams, one worker), ready when /healthz answers
# through it; sets BALANCER_PID. The two-node runs of the postgres and scale sections use it.
start_nginx_balancer() {
    local prefix=$1 port=$2 node_a=$3 node_b=$4
    write_nginx_config "$prefix" 1 "$(cat <<EOF
    upstream signet { server 127.0.0.1:$node_a; server 127.0.0.1:$node_b; keepalive 32; }
    server {
        listen 127.0.0.1:$port;
        location / {
            proxy_pass http://signet;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host \$host;
        }
    }
EOF
)"
    show_cmd "$NGINX -p $prefix -c $prefix/nginx.conf   # upstream 127.0.0.1:$node_a, 127.0.0.1:$node_b; keepalive 32"
    "$NGINX" -p "$prefix" -c "$prefix/nginx.conf" -e "$prefix/error.log" </dev/null &
    BALANCER_PID=$!
    PIDS+=("$BALANCER_PID")
    wait_http "http://127.0.0.1:$port/healthz" || { cat "$prefix/error.log" >&2; return 1; }
}

# ensure_servers: one Signet and one nginx shared by the throughput sections, started once.
ensure_servers() {
    [ -n "${NGINX_PID:-}" ] && return 0
    start_signet throughput
    THROUGHPUT_SIGNET_PORT=$SIGNET_PORT
    THROUGHPUT_SIGNET_PID=$SIGNET_PID
    curl -sf "http://127.0.0.1:$SIGNET_PORT/jwks.json" >"$WORK/jwks.json"
    start_nginx
    local url
    for url in "http://127.0.0.1:$NGINX_PORT/hello" "http://127.0.0.1:$THROUGHPUT_SIGNET_PORT/healthz" \
               "http://127.0.0.1:$NGINX_PORT/jwks.json" "http://127.0.0.1:$THROUGHPUT_SIGNET_PORT/jwks.json"; do
        printf '  check %-45s -> %s\n' "$url" "$(curl -s -o /dev/null -w '%{http_code} %{content_type} %{size_download} bytes' "$url")"
    done
}

# ---------------------------------------------------------------------------------------------
# wrk

# cpu_ticks PID: user + system CPU clock ticks of PID and its child processes (nginx workers).
# In /proc/N/stat, after dropping "(comm)", field 3 is the parent and fields 13-14 utime, stime.
cpu_ticks() {
    # A process can exit between the glob and the read: cat then fails, which must not end the run.
    { cat /proc/[0-9]*/stat 2>/dev/null || true; } | sed 's/^\([0-9]*\) (.*) /\1 /' |
        awk -v p="$1" '$1 == p || $3 == p { t += $13 + $14 } END { print t + 0 }'
}
TICKS_PER_SECOND=$(getconf CLK_TCK)

# wrk_run LABEL URL RUN SERVER_PID: one wrk run; prints a line and sets WRK_RPS and WRK_CPU_US
# (server CPU time per request, in microseconds: unlike req/s it barely moves with other load on
# the machine). A run with non-2xx responses or socket errors sets WRK_BAD=1.
WRK_BAD=0
WRK_N=0
wrk_run() {
    local label=$1 url=$2 run=$3 server=$4 out before after requests
    WRK_N=$((WRK_N + 1))
    out=$WORK/wrk-$WRK_N.txt
    before=$(cpu_ticks "$server")
    wrk -t"$WRK_THREADS" -c"$WRK_CONNECTIONS" -d"$WRK_DURATION" --latency "$url" >"$out" 2>&1
    after=$(cpu_ticks "$server")
    WRK_RPS=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
    requests=$(awk '/ requests in / { print $1 }' "$out")
    WRK_CPU_US=$(calc "($after - $before) * 1000000 / $TICKS_PER_SECOND / ${requests:-1}")
    local p50 p99 notes=""
    p50=$(awk '$1 == "50%" { print $2 }' "$out")
    p99=$(awk '$1 == "99%" { print $2 }' "$out")
    if grep -q -e 'Non-2xx' -e 'Socket errors' "$out"; then
        notes="  !! $(grep -e 'Non-2xx' -e 'Socket errors' "$out" | tr -s ' ' | tr '\n' ';')"
        WRK_BAD=1
    fi
    [ -n "$WRK_RPS" ] || { cat "$out" >&2; WRK_RPS=0; WRK_BAD=1; }
    printf '  %-8s run %d  %12s req/s   p50 %-9s p99 %-9s server CPU %6s us/req%s\n' \
        "$label" "$run" "$WRK_RPS" "$p50" "$p99" "$WRK_CPU_US" "$notes"
}

# compare_throughput NGINX_PATH SIGNET_PATH: alternating runs, medians, ratio. Sets CMP_NGINX,
# CMP_SIGNET, CMP_RATIO (req/s) and CMP_CPU_RATIO (nginx CPU per request / signet CPU per request).
compare_throughput() {
    local npath=$1 spath=$2 run nginx_rps=() signet_rps=() nginx_cpu=() signet_cpu=()
    ensure_servers
    show_cmd "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION --latency http://127.0.0.1:$NGINX_PORT$npath    # nginx"
    show_cmd "wrk -t$WRK_THREADS -c$WRK_CONNECTIONS -d$WRK_DURATION --latency http://127.0.0.1:$THROUGHPUT_SIGNET_PORT$spath    # signet"
    WRK_BAD=0
    for run in $(seq "$WRK_RUNS"); do
        wrk_run nginx "http://127.0.0.1:$NGINX_PORT$npath" "$run" "$NGINX_PID"
        nginx_rps+=("$WRK_RPS"); nginx_cpu+=("$WRK_CPU_US")
        wrk_run signet "http://127.0.0.1:$THROUGHPUT_SIGNET_PORT$spath" "$run" "$THROUGHPUT_SIGNET_PID"
        signet_rps+=("$WRK_RPS"); signet_cpu+=("$WRK_CPU_US")
    done
    CMP_NGINX=$(median "${nginx_rps[@]}")
    CMP_SIGNET=$(median "${signet_rps[@]}")
    CMP_RATIO=$(calc "$CMP_SIGNET / $CMP_NGINX")
    local ncpu scpu
    ncpu=$(median "${nginx_cpu[@]}")
    scpu=$(median "${signet_cpu[@]}")
    CMP_CPU_RATIO=$(calc "$ncpu / $scpu")
    printf '  %-8s median %12s req/s   server CPU %6s us/req\n' nginx "$CMP_NGINX" "$ncpu"
    printf '  %-8s median %12s req/s   server CPU %6s us/req\n' signet "$CMP_SIGNET" "$scpu"
    printf '  ratio signet/nginx: %s x req/s; %s x by server CPU per request (nginx us / signet us)\n' \
        "$CMP_RATIO" "$CMP_CPU_RATIO"
    [ "$WRK_BAD" = 0 ] || echo "  !! some runs had errors or non-2xx responses: the figures are not valid"
}


# openssl_reference: `openssl speed` once per bench run (the crypto section and the OAuth sections
# share it). Sets OPENSSL_RSA, OPENSSL_ECDSA, OPENSSL_EDDSA to "sign/s verify/s" (one thread, per
# CPU second) and prints the rows the first time.
openssl_reference() {
    if [ ! -s "$WORK/openssl-speed.txt" ]; then
        show_cmd "openssl speed -seconds $CRYPTO_SECONDS ecdsap256 rsa2048 ed25519"
        openssl speed -seconds "$CRYPTO_SECONDS" ecdsap256 rsa2048 ed25519 >"$WORK/openssl-speed.txt" 2>/dev/null
        grep -E 'sign/s|^rsa 2048|nistp256|Ed25519' "$WORK/openssl-speed.txt" | sed 's/^/  | /'
    fi
    # "rsa 2048 bits 0.000222s 0.000007s   4503.8 148032.1": the last two fields are sign/s verify/s.
    OPENSSL_RSA=$(awk '/^rsa 2048 bits/ { print $(NF-1), $NF }' "$WORK/openssl-speed.txt")
    OPENSSL_ECDSA=$(awk '/ecdsa \(nistp256\)/ { print $(NF-1), $NF }' "$WORK/openssl-speed.txt")
    OPENSSL_EDDSA=$(awk '/EdDSA \(Ed25519\)/ { print $(NF-1), $NF }' "$WORK/openssl-speed.txt")
    OPENSSL_RSA_SIGN=${OPENSSL_RSA%% *}
    OPENSSL_ECDSA_SIGN=${OPENSSL_ECDSA%% *}
    OPENSSL_ECDSA_VERIFY=${OPENSSL_ECDSA##* }
    if [ -z "${OPENSSL_SUMMARY_ADDED:-}" ]; then
        OPENSSL_SUMMARY_ADDED=1
        summary_add "openssl speed rsa2048 sign/s (RS256), 1 core" "$(printf '%.0f' "$OPENSSL_RSA_SIGN")/s" "(reference)" info
        summary_add "openssl speed ecdsap256 sign/s (ES256), 1 core" "$(printf '%.0f' "$OPENSSL_ECDSA_SIGN")/s" "(reference)" info
    fi
}

# start_oauth_server NAME [CONFIG]: a fresh data dir with a user (`signet users add`), a public first-party
# native client with a loopback redirect URI and a confidential client_credentials client
# (`signet clients add`), then `signet serve` on it. Sets SIGNET_PID, SIGNET_PORT, OAUTH_ARGS
# (the SignetBench load options for the user and clients). Passwords and secrets go to files.
# CONFIG, when given, is passed to `signet serve --config` (e.g. for upstream connections).
start_oauth_server() {
    local name=$1 data=$WORK/$1-data config_args=()
    [ -n "${2:-}" ] && config_args=(--config "$2")
    mkdir -p "$WORK/$name-secrets"
    local password_file=$WORK/$name-secrets/password secret_file=$WORK/$name-secrets/client-secret
    head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$password_file"
    show_cmd "$SIGNET users add bench@example.com --password-stdin ${config_args[*]} --data $data < PASSWORD_FILE"
    "$SIGNET" users add bench@example.com --password-stdin "${config_args[@]}" --data "$data" <"$password_file" >"$WORK/$name.setup.log" 2>&1 ||
        { cat "$WORK/$name.setup.log" >&2; return 1; }
    show_cmd "$SIGNET clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback --scope 'openid profile email offline_access' ${config_args[*]} --data $data"
    "$SIGNET" clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback \
        --scope "openid profile email offline_access" "${config_args[@]}" --data "$data" >>"$WORK/$name.setup.log" 2>&1 ||
        { cat "$WORK/$name.setup.log" >&2; return 1; }
    show_cmd "$SIGNET clients add bench-service --confidential --grant-type client_credentials --scope api ${config_args[*]} --data $data   # secret -> file"
    "$SIGNET" clients add bench-service --confidential --grant-type client_credentials --scope api "${config_args[@]}" --data "$data" 2>>"$WORK/$name.setup.log" |
        awk '/^client_secret:/ { print $2 }' >"$secret_file"
    [ -s "$secret_file" ] || { echo "bench.sh: signet clients add printed no client_secret" >&2; cat "$WORK/$name.setup.log" >&2; return 1; }
    SIGNET_PORT=$(free_port)
    show_cmd "$SIGNET serve ${config_args[*]} --data $data --listen 127.0.0.1:$SIGNET_PORT ${ADMIN_ARGS[*]}"
    "$SIGNET" serve "${config_args[@]}" --data "$data" --listen "127.0.0.1:$SIGNET_PORT" "${ADMIN_ARGS[@]}" >"$WORK/$name.log" 2>&1 </dev/null &
    SIGNET_PID=$!
    PIDS+=("$SIGNET_PID")
    wait_http "http://127.0.0.1:$SIGNET_PORT/healthz" || { cat "$WORK/$name.log" >&2; return 1; }
    # The first start generates the signing keys on a background thread after /healthz answers;
    # /jwks.json waits for them, so no load run (and no server CPU window) overlaps the generation.
    wait_http "http://127.0.0.1:$SIGNET_PORT/jwks.json" || { cat "$WORK/$name.log" >&2; return 1; }
    OAUTH_ARGS=(--port "$SIGNET_PORT" --server-pid "$SIGNET_PID" --client bench-app --redirect-uri http://127.0.0.1/callback
                --email bench@example.com --password-file "$password_file"
                --confidential-client bench-service --secret-file "$secret_file")
}

# load_run KEY SCENARIO CONNECTIONS [RUNS]: one SignetBench load invocation against the current
# OAuth server; prints its lines indented and sets LOAD_RATE, LOAD_P50, LOAD_P99, LOAD_CPU and
# LOAD_OK (1 when every operation succeeded and no chain broke).
load_run() {
    local key=$1 scenario=$2 connections=$3 runs=${4:-$WRK_RUNS}
    show_cmd "$BENCH load --scenario $scenario --connections $connections --seconds $LOAD_SECONDS --runs $runs --port $SIGNET_PORT --server-pid $SIGNET_PID ..."
    LOAD_OK=1
    "$BENCH" load "${OAUTH_ARGS[@]}" --scenario "$scenario" --connections "$connections" --seconds "$LOAD_SECONDS" \
        --runs "$runs" --results "$RESULTS" --key "$key" 2>&1 | sed 's/^/  /' || LOAD_OK=0
    LOAD_RATE=$(result "load.$key.rate" 2>/dev/null || echo 0)
    LOAD_P50=$(result "load.$key.p50_ms" 2>/dev/null || echo 0)
    LOAD_P99=$(result "load.$key.p99_ms" 2>/dev/null || echo 0)
    LOAD_CPU=$(result "load.$key.server_cpu_us" 2>/dev/null || echo 0)
    LOAD_GEN_CPU=$(result "load.$key.generator_cpu_us" 2>/dev/null || echo 0)
    [ "$(result "load.$key.errors" 2>/dev/null || echo 1)" = 0.000 ] || LOAD_OK=0
    [ "$(result "load.$key.aborted" 2>/dev/null || echo 1)" = 0.000 ] || LOAD_OK=0
    [ "$LOAD_OK" = 1 ] || echo "  !! errors or broken chains: the figure is not valid"
}

# load_summary NAME TARGET_RATE [P99_LIMIT_MS]: the summary rows for the last load_run: the rate
# with p50/p99 against the target, and the CPU-bound ceiling (2 cores / (server + generator CPU
# per operation)), which other load on the machine barely moves.
load_summary() {
    local name=$1 target=$2 p99_limit=${3:-} status target_text
    if [ -n "$p99_limit" ]; then
        status=$(pass_if "$LOAD_RATE >= $target && $LOAD_P99 < $p99_limit")
        target_text=">= $target/s, p99 < $p99_limit ms"
    else
        status=$(pass_if "$LOAD_RATE >= $target")
        target_text=">= $target/s"
    fi
    [ "$LOAD_OK" = 1 ] || status=MISS
    summary_add "$name" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$LOAD_RATE" "$LOAD_P50" "$LOAD_P99")" "$target_text" "$status"
    summary_add "  server CPU/op; 2-core ceiling" \
        "$(printf '%.0f us; %.0f/s' "$LOAD_CPU" "$(calc "2000000 / ($LOAD_CPU + $LOAD_GEN_CPU)")")" "(info)" info
}

# cpu_target NAME TARGET_US: a summary row for the last load_run's server CPU per operation (from
# /proc, the figure other load on the machine moves least) against its target (issue 16).
cpu_target() {
    local status
    status=$(pass_if "$LOAD_CPU > 0 && $LOAD_CPU <= $2")
    [ "$LOAD_OK" = 1 ] || status=MISS
    summary_add "  $1: server CPU/op" "$(printf '%.0f us' "$LOAD_CPU")" "<= $2 us" "$status"
}

# http_floor NAME: after a section's cpu_target, the same load generator on GET /healthz against
# the same server (no storage, no crypto): the transport's own server CPU per request, and the
# section's figure above it. Info rows; the floor is part of every target, not a target itself.
http_floor() {
    local op_cpu=$LOAD_CPU
    echo "  The HTTP floor under the same load: GET /healthz (libmicrohttpd, socket, loopback, router, metrics)."
    load_run "$1-floor" healthz "$LOAD_CONNECTIONS" 1
    summary_add "    HTTP floor (/healthz); op above it" \
        "$(printf '%.0f us; %.0f us' "$LOAD_CPU" "$(calc "$op_cpu - $LOAD_CPU")")" "(info)" info
}

# ---------------------------------------------------------------------------------------------
# Sections

section_footprint() {
    heading "Footprint: resident memory of an idle server (embedded default, fresh data dir)"
    start_signet footprint
    local base="http://127.0.0.1:$SIGNET_PORT" i
    show_cmd "curl $base/.well-known/openid-configuration $base/jwks.json $base/healthz   # x5 each"
    for i in 1 2 3 4 5; do
        curl -s -o /dev/null "$base/.well-known/openid-configuration" "$base/jwks.json" "$base/healthz" -o /dev/null -o /dev/null
    done
    sleep 2
    show_cmd "sleep 2; grep -E 'VmRSS|VmHWM|Threads' /proc/$SIGNET_PID/status"
    local rss_kb hwm_kb threads
    rss_kb=$(awk '/^VmRSS:/ { print $2 }' "/proc/$SIGNET_PID/status")
    hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SIGNET_PID/status")
    threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SIGNET_PID/status")
    local rss_mb hwm_mb
    rss_mb=$(calc "$rss_kb / 1024")
    hwm_mb=$(calc "$hwm_kb / 1024")
    printf '  VmRSS %s MiB (%s kB)   VmHWM (peak) %s MiB   threads %s\n' "$rss_mb" "$rss_kb" "$hwm_mb" "$threads"
    stop_pid "$SIGNET_PID"
    summary_add "idle resident memory (VmRSS)" "$rss_mb MiB" "<= 50 MiB" "$(pass_if "$rss_mb <= 50")"
}

section_startup() {
    heading "Start-up: process spawn to the first 200 from /.well-known/openid-configuration (median of $STARTUP_RUNS)"
    show_cmd "$BENCH startup --signet $SIGNET --work $WORK/startup --runs $STARTUP_RUNS"
    "$BENCH" startup --signet "$SIGNET" --work "$WORK/startup" --runs "$STARTUP_RUNS" --results "$RESULTS"
    local fresh existing
    fresh=$(result startup.fresh_ms)
    existing=$(result startup.existing_ms)
    local fresh_in existing_in
    fresh_in=$(result startup.fresh_in_server_ms)
    existing_in=$(result startup.existing_in_server_ms)
    echo "  'in server' is the server's own 'ready in' (open the data dir and database, load or create"
    echo "  the keys, start listening); the rest is process start-up (exec, dynamic loading, Swift runtime)."
    echo "  The 100 ms figure is for a start on an existing data dir: every start but the very first."
    echo "  The first start also creates the master key, the database and an RSA-2048 and a P-256 key;"
    echo "  RSA-2048 generation alone averages ~170 ms and varies widely (prime search), so that row is"
    echo "  shown for information: $(printf '%.0f' "$fresh_in") ms in the server vs $(printf '%.0f' "$existing_in") ms on a second start."
    summary_add "start to discovery, existing data dir" "$(printf '%.1f' "$existing") ms" "<= 100 ms" "$(pass_if "$existing <= 100")"
    summary_add "start to discovery, first start (keygen)" "$(printf '%.1f' "$fresh") ms" "(info)" info
    local lost
    lost=$(result startup.lost_sigterm 2>/dev/null || echo 0)
    if [ "$lost" != 0.000 ]; then
        summary_add "SIGTERM right after ready: ignored" "$(printf '%.0f' "$lost") of $((STARTUP_RUNS * 2))" "0" MISS
    fi
}

section_http() {
    heading "Throughput: trivial JSON endpoint, keep-alive, same client and connections"
    echo "  nginx: GET /hello -> 200 {\"status\":\"ok\"}; signet: GET /healthz -> 200 {\"status\":\"ok\"}"
    compare_throughput /hello /healthz
    local status
    status=$(pass_if "$CMP_RATIO >= 0.7")
    [ "$WRK_BAD" = 0 ] || status=MISS
    summary_add "nginx GET /hello" "$CMP_NGINX req/s" "(reference)" info
    summary_add "signet GET /healthz" "$CMP_SIGNET req/s" "(info)" info
    summary_add "signet/nginx, trivial JSON" "${CMP_RATIO}x" ">= 0.70x" "$status"
    summary_add "  same, by server CPU per request" "${CMP_CPU_RATIO}x" "(info)" info
}

section_jwks() {
    heading "Throughput: JWKS (GET /jwks.json); nginx serves a copy of the same document from memory"
    compare_throughput /jwks.json /jwks.json
    local status=info
    [ "$WRK_BAD" = 0 ] || status=MISS
    summary_add "signet GET /jwks.json" "$CMP_SIGNET req/s" "(info)" "$status"
    summary_add "signet/nginx, same JWKS bytes" "${CMP_RATIO}x" "(info)" info
    summary_add "  same, by server CPU per request" "${CMP_CPU_RATIO}x" "(info)" info
}

section_crypto() {
    heading "Crypto: sign and verify per second, one thread, SignetCrypto next to openssl speed"
    openssl_reference
    local rsa=$OPENSSL_RSA ecdsa=$OPENSSL_ECDSA eddsa=$OPENSSL_EDDSA

    show_cmd "$BENCH crypto --seconds $CRYPTO_SECONDS"
    "$BENCH" crypto --seconds "$CRYPTO_SECONDS" --results "$RESULTS" | sed 's/^/  | /'

    echo "  Both columns are operations per CPU second of one thread (openssl speed divides by user CPU"
    echo "  time unless given -elapsed), so other load on the machine does not skew the ratio."
    echo "  openssl speed signs/verifies a precomputed digest with a reused context (its ecdsa sign/s"
    echo "  excludes hashing); SignetCrypto hashes the 190-byte input, copies a prepared EVP_MD_CTX and"
    echo "  converts ES256 DER <-> r||s. PS256 has no openssl speed row; it is compared with rsa2048"
    echo "  (PKCS#1 v1.5) for information only."
    local hash_us
    hash_us=$(calc "1000000 / $(result crypto.SHA-256.190B)")
    echo "  Hashing the 190-byte input alone (SHA-256, in SignetCrypto's RS256/PS256/ES256 and not in"
    echo "  openssl speed's figures) costs $hash_us us per operation."
    printf '  %-14s %12s %12s %8s  %s\n' operation signet "openssl" ratio "openssl row"
    local alg op ref row idx signet_rate ref_rate ratio status
    for alg in ES256 RS256 EdDSA PS256; do
        case $alg in
            ES256) ref=$ecdsa; row="256 bits ecdsa (nistp256)" ;;
            RS256|PS256) ref=$rsa; row="rsa 2048 bits" ;;
            EdDSA) ref=$eddsa; row="253 bits EdDSA (Ed25519)" ;;
        esac
        for op in sign verify; do
            [ $op = sign ] && idx=1 || idx=2
            signet_rate=$(result "crypto.$alg.$op")
            ref_rate=$(echo "$ref" | awk -v i=$idx '{ print $i }')
            ratio=$(calc "$signet_rate / $ref_rate")
            printf '  %-14s %12.1f %12.1f %7sx  %s\n' "$alg $op" "$signet_rate" "$ref_rate" "$ratio" "$row"
            if [ $alg = PS256 ]; then status=info; else status=$(pass_if "$ratio >= 0.9"); fi
            summary_add "$alg $op /s (openssl $(printf '%.0f' "$ref_rate"))" "$(printf '%.0f' "$signet_rate") (${ratio}x)" \
                "$([ $alg = PS256 ] && echo '(info)' || echo '>= 0.90x')" "$status"
        done
    done
}


section_refresh() {
    heading "Refresh-token rotation: POST /token grant_type=refresh_token, one chain per connection"
    openssl_reference
    echo "  Each request presents the successor from the previous response on the same connection (a"
    echo "  failed or wrong answer aborts that chain and invalidates the figure). Every rotation writes"
    echo "  one SQLite transaction and signs an ES256 access token; with the original scope"
    echo "  (openid profile email offline_access) it also signs an RS256 ID token, with"
    echo "  scope=offline_access (narrowing) it does not. Fresh server and data dir; chains start from"
    echo "  code flows over one SSO session (set-up, not measured)."
    start_oauth_server refresh
    local both
    both=$(calc "2 / (1 / $OPENSSL_RSA_SIGN + 1 / $OPENSSL_ECDSA_SIGN)")
    echo "  openssl speed: rsa2048 sign $(printf '%.0f' "$OPENSSL_RSA_SIGN")/s, ecdsap256 sign $(printf '%.0f' "$OPENSSL_ECDSA_SIGN")/s per core:"
    echo "  signing alone (one RS256 + one ES256) caps rotations with an ID token at $(printf '%.0f' "$both")/s on 2 cores."
    echo "  With an RS256 ID token (every response):"
    load_run refresh-id refresh-id "$LOAD_CONNECTIONS"
    load_summary "refresh rotations/s, RS256 ID token" 3000 20
    cpu_target "refresh, RS256 ID token" "${CPU_TARGET[refresh-id]}"
    echo "  Without an ID token (scope=offline_access):"
    load_run refresh-noid refresh-noid "$LOAD_CONNECTIONS"
    load_summary "refresh rotations/s, no ID token" 8000 20
    cpu_target "refresh, no ID token" "${CPU_TARGET[refresh-noid]}"
    # The peak resident set over the server's life: start-up, set-up and both refresh loads.
    local hwm_kb
    hwm_kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SIGNET_PID/status")
    show_cmd "grep VmHWM /proc/$SIGNET_PID/status   # peak RSS after both refresh loads"
    printf '  VmHWM (peak resident memory) %s MiB\n' "$(calc "$hwm_kb / 1024")"
    summary_add "RSS under the refresh load (VmHWM)" "$(calc "$hwm_kb / 1024") MiB" "<= 150 MiB" "$(pass_if "$hwm_kb / 1024 <= 150")"
    stop_pid "$SIGNET_PID"
}

section_durability() {
    heading "Durability: refresh rotations with database.synchronous \"full\" (the default) and \"normal\""
    echo "  The same rotation load (scope=offline_access, no ID token) on two fresh servers: the default"
    echo "  syncs SQLite's log at every commit; \"normal\" only at checkpoints (a power loss can roll back"
    echo "  the last commits; docs/operations.md, \"Durability\"). The difference is the disk's fsync."
    show_cmd "dd if=/dev/zero of=$WORK/fsync.test bs=4k count=200 oflag=dsync   # this disk's synced write"
    dd if=/dev/zero of="$WORK/fsync.test" bs=4k count=200 oflag=dsync 2>&1 | tail -1 | sed 's/^/  /'
    rm -f "$WORK/fsync.test"
    local config=$WORK/durability-normal.json full_rate full_cpu
    echo "  synchronous = full (default):"
    start_oauth_server durability-full
    load_run durability-full refresh-noid "$LOAD_CONNECTIONS" 1
    full_rate=$LOAD_RATE full_cpu=$LOAD_CPU
    stop_pid "$SIGNET_PID"
    summary_add "refresh, synchronous full (default)" "$(printf '%.0f/s, %.0f us CPU/op' "$full_rate" "$full_cpu")" "(info)" info
    printf '{"database": {"synchronous": "normal"}}\n' >"$config"
    show_cmd "cat $config   # $(cat "$config")"
    echo "  synchronous = normal:"
    start_oauth_server durability-normal "$config"
    load_run durability-normal refresh-noid "$LOAD_CONNECTIONS" 1
    stop_pid "$SIGNET_PID"
    summary_add "refresh, synchronous normal (option)" "$(printf '%.0f/s, %.0f us CPU/op' "$LOAD_RATE" "$LOAD_CPU")" "(info)" info
}

section_slowfed() {
    heading "Token endpoint next to a slow upstream: refresh rotations/s alone and with federated sign-ins in flight"
    echo "  A mock Google (SignetBench mock, its own process) answers discovery, token, JWKS and userinfo after"
    echo "  ${UPSTREAM_DELAY} s; Signet has a google connection 'slow' to it. Refresh chains as in the refresh section"
    echo "  ($LOAD_CONNECTIONS connections, scope=offline_access) are measured alone, and while $FEDERATED_BROWSERS browsers each run"
    echo "  federated sign-ins back to back: GET /authorize -> GET /signin -> GET /federation/start -> the mock's"
    echo "  /authorize -> GET /oauth2/callback/slow (Signet redeems the code upstream: waits ${UPSTREAM_DELAY} s) -> 303 with a"
    echo "  code -> POST /token (must return an ID token). A failed sign-in invalidates the figure. The server"
    echo "  has $(( $(nproc) > 16 ? $(nproc) : 16 )) HTTP threads (threads = 0 on SQLite: 16, at least one per core), fewer than the callbacks waiting upstream."
    local secrets=$WORK/slowfed-secrets issuer="" i
    mkdir -p "$secrets"
    head -c 24 /dev/urandom | base64 | tr '+/' '-_' >"$secrets/upstream-secret"
    show_cmd "$BENCH mock --secret-file UPSTREAM_SECRET_FILE --delay $UPSTREAM_DELAY --client-id signet-bench"
    "$BENCH" mock --secret-file "$secrets/upstream-secret" --delay "$UPSTREAM_DELAY" --client-id signet-bench \
        >"$WORK/slowfed-mock.log" 2>&1 </dev/null &
    local mock_pid=$!
    PIDS+=("$mock_pid")
    for i in $(seq 250); do
        issuer=$(awk '$1 == "issuer" { print $2 }' "$WORK/slowfed-mock.log")
        [ -n "$issuer" ] && break
        sleep 0.02
    done
    [ -n "$issuer" ] || { echo "bench.sh: the mock upstream did not start" >&2; cat "$WORK/slowfed-mock.log" >&2; return 1; }
    cat >"$WORK/slowfed.json" <<EOF
{
  "connections": [
    { "id": "slow", "type": "google", "display_name": "Slow Google (mock)", "client_id": "signet-bench",
      "client_secret": "file:$secrets/upstream-secret", "issuer": "$issuer" }
  ]
}
EOF
    echo "  $WORK/slowfed.json: a google connection 'slow', client_id signet-bench, issuer $issuer, client_secret file:..."
    start_oauth_server slowfed "$WORK/slowfed.json"
    show_cmd "$BENCH slowfed --connection slow --browsers $FEDERATED_BROWSERS --upstream-delay $UPSTREAM_DELAY --connections $LOAD_CONNECTIONS --seconds $LOAD_SECONDS --runs $WRK_RUNS --port $SIGNET_PORT --server-pid $SIGNET_PID ..."
    local ok=1
    "$BENCH" slowfed "${OAUTH_ARGS[@]}" --connection slow --browsers "$FEDERATED_BROWSERS" --upstream-delay "$UPSTREAM_DELAY" \
        --connections "$LOAD_CONNECTIONS" --seconds "$LOAD_SECONDS" --runs "$WRK_RUNS" --results "$RESULTS" 2>&1 | sed 's/^/  /' || ok=0
    local alone busy ratio completed failures fed_rate inflight callback status
    alone=$(result slowfed.alone.rate 2>/dev/null || echo 0)
    busy=$(result slowfed.busy.rate 2>/dev/null || echo 0)
    ratio=$(result slowfed.ratio 2>/dev/null || echo 0)
    completed=$(result slowfed.fed.completed 2>/dev/null || echo 0)
    failures=$(result slowfed.fed.failures 2>/dev/null || echo 1)
    fed_rate=$(result slowfed.fed.rate 2>/dev/null || echo 0)
    inflight=$(result slowfed.fed.inflight_mean 2>/dev/null || echo 0)
    callback=$(result slowfed.fed.callback_p50_ms 2>/dev/null || echo 0)
    [ "$(result slowfed.errors 2>/dev/null || echo 1)" = 0.000 ] || ok=0
    [ "$(result slowfed.aborted 2>/dev/null || echo 1)" = 0.000 ] || ok=0
    [ "$failures" = 0.000 ] || ok=0
    awk -v c="$completed" 'BEGIN { exit !(c > 0) }' || ok=0
    [ "$ok" = 1 ] || echo "  !! refresh errors, broken chains, failed or no federated sign-ins: the figure is not valid"
    status=$(pass_if "$ratio >= 0.8")
    [ "$ok" = 1 ] || status=MISS
    summary_add "refresh rotations/s, alone" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$alone" \
        "$(result slowfed.alone.p50_ms 2>/dev/null || echo 0)" "$(result slowfed.alone.p99_ms 2>/dev/null || echo 0)")" "(reference)" info
    summary_add "  with $FEDERATED_BROWSERS sign-ins on a ${UPSTREAM_DELAY} s upstream" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$busy" \
        "$(result slowfed.busy.p50_ms 2>/dev/null || echo 0)" "$(result slowfed.busy.p99_ms 2>/dev/null || echo 0)")" "(info)" info
    summary_add "  busy / alone (slow upstream)" "${ratio}x" ">= 0.80x" "$status"
    summary_add "  federated sign-ins done in the busy runs" "$(printf '%.0f (%.1f/s), %.0f failed' "$completed" "$fed_rate" "$failures")" \
        "(info)" info
    summary_add "  callbacks in flight (mean); callback p50" "$(printf '%.1f; %.0f ms' "$inflight" "$callback")" "(info)" info
    summary_add "  server CPU, sign-ins alone" "$(printf '%.0f ms per s' "$(result slowfed.fed.server_cpu_ms_per_s 2>/dev/null || echo 0)")" \
        "(info)" info
    stop_pid "$SIGNET_PID"
    stop_pid "$mock_pid"
}

# The postgres section (section_postgres: the pgbench ceiling, round trips, two nodes behind nginx).
source "$ROOT/scripts/bench-postgres.sh"

section_client_credentials() {
    heading "Client credentials: POST /token grant_type=client_credentials, client_secret_basic"
    echo "  Confidential client; the secret is checked with HMAC-SHA-256 (ClientRegistry.hashSecret);"
    echo "  each response carries a new ES256 access token. No database write."
    start_oauth_server client-credentials
    load_run client-credentials client-credentials "$LOAD_CONNECTIONS"
    load_summary "client_credentials grants/s" 5000
    cpu_target "client_credentials" "${CPU_TARGET[client-credentials]}"
    http_floor client_credentials
    stop_pid "$SIGNET_PID"
}

section_userinfo() {
    heading "Userinfo: GET /userinfo with Authorization: Bearer (ES256 access token)"
    start_oauth_server userinfo
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$SIGNET_PORT/userinfo")" = 404 ]; then
        echo "  not available: this build has no /userinfo route"
        summary_add "userinfo requests/s" "not available" ">= 15000/s" MISS
        stop_pid "$SIGNET_PID"
        return 0
    fi
    echo "  One access token per connection (scope openid profile email offline_access, from a code flow"
    echo "  over the SSO session); each request verifies its ES256 signature and reads the user."
    openssl_reference
    echo "  openssl speed ecdsap256 verify: $(printf '%.0f' "$OPENSSL_ECDSA_VERIFY")/s per core."
    load_run userinfo userinfo "$LOAD_CONNECTIONS"
    load_summary "userinfo requests/s" 15000
    cpu_target "userinfo" "${CPU_TARGET[userinfo]}"
    http_floor userinfo
    stop_pid "$SIGNET_PID"
}

section_signin() {
    heading "Complete sign-ins with an SSO session: GET /authorize (cookie) -> 303 code -> POST /token"
    echo "  The session already exists (one password sign-in during set-up), so Argon2id is not measured."
    echo "  One operation = GET /authorize (fresh PKCE S256 challenge, state, nonce) answered 303 with a"
    echo "  code at http://127.0.0.1/callback, then POST /token with the code and verifier answered 200"
    echo "  with an RS256 ID token, an ES256 access token and a refresh token; latency is for both."
    openssl_reference
    start_oauth_server signin
    load_run signin signin "$LOAD_CONNECTIONS"
    load_summary "complete sign-ins/s (SSO session)" 1000
    cpu_target "complete sign-in" "${CPU_TARGET[signin]}"
    stop_pid "$SIGNET_PID"
}

section_password() {
    heading "Password sign-ins next to the Argon2id hash rate at the configured cost"
    echo "  Server default cost: Argon2id t=2 (argon2id_ops_limit), 64 MiB (argon2id_memory_kib), one lane."
    echo "  Hash rate: SignetCrypto Argon2id.hash on 2 threads (the server's blocking-work pool has 2)."
    echo "  Sign-in: a new browser each time: GET /authorize -> 303 /signin -> GET /signin (form, CSRF"
    echo "  cookie) -> POST /signin (Argon2id verify) -> 303 to the redirect URI with a code;"
    echo "  $PASSWORD_CONNECTIONS connections. Runs alternate so both see the same machine load."
    start_oauth_server password
    local run hash_rates=() signin_rates=() ok=1
    for run in $(seq "$WRK_RUNS"); do
        show_cmd "$BENCH argon2 --threads 2 --seconds 3 --runs 1 --ops 2 --memory-kib 65536"
        "$BENCH" argon2 --threads 2 --seconds 3 --runs 1 --ops 2 --memory-kib 65536 --results "$RESULTS" | sed 's/^/  /'
        hash_rates+=("$(result argon2.rate)")
        load_run password password "$PASSWORD_CONNECTIONS" 1
        [ "$LOAD_OK" = 1 ] || ok=0
        signin_rates+=("$LOAD_RATE")
    done
    local hash_rate signin_rate ratio status p50s p99s hash_cpu signin_cpu cpu_ratio
    hash_rate=$(median "${hash_rates[@]}")
    signin_rate=$(median "${signin_rates[@]}")
    p50s=$(median $(results load.password.p50_ms))
    p99s=$(median $(results load.password.p99_ms))
    hash_cpu=$(median $(results argon2.cpu_ms))
    signin_cpu=$(calc "$(median $(results load.password.server_cpu_us)) / 1000")
    ratio=$(calc "$signin_rate / $hash_rate")
    cpu_ratio=$(calc "$hash_cpu / $signin_cpu")
    printf '  median: Argon2id %s hashes/s, password sign-ins %s/s (p50 %s ms, p99 %s ms): %s x\n' \
        "$hash_rate" "$signin_rate" "$p50s" "$p99s" "$ratio"
    printf '  by CPU time: %s ms per Argon2id hash, %s ms of server CPU per sign-in: %s x\n' "$hash_cpu" "$signin_cpu" "$cpu_ratio"
    echo "  (the wall-clock ratio compares two runs taken seconds apart; on a busy machine the CPU-time"
    echo "  ratio is the steadier one: it is the share of a sign-in's server CPU that is Argon2id)"
    status=$(pass_if "$ratio >= 0.9")
    [ "$ok" = 1 ] || status=MISS
    summary_add "Argon2id hashes/s (t=2, 64 MiB, 2 threads)" "$(printf '%.1f/s' "$hash_rate")" "(reference)" info
    summary_add "password sign-ins/s, $PASSWORD_CONNECTIONS connections" "$(printf '%.1f/s p50 %.0f p99 %.0f ms' "$signin_rate" "$p50s" "$p99s")" "(info)" info
    summary_add "password sign-ins / Argon2id hash rate" "${ratio}x" ">= 0.90x" "$status"
    summary_add "  same, by CPU time (hash / sign-in)" "${cpu_ratio}x" "(info)" info
    stop_pid "$SIGNET_PID"
}

# enumeration: posts per kind of address (known, unknown) and form, and posts per timed batch.
ENUMERATION_REQUESTS=${ENUMERATION_REQUESTS:-100}
ENUMERATION_BATCH=10

section_enumeration() {
    heading "Account enumeration by timing: known vs unknown addresses at forgot-password, email sign-in and sign-up"
    echo "  Each form is posted $ENUMERATION_REQUESTS times with addresses that have an account and $ENUMERATION_REQUESTS times"
    echo "  with addresses that have none, in alternating batches of $ENUMERATION_BATCH (each post a new browser: a fresh"
    echo "  authorization request and the form page, not timed); the POST must answer 303 to the code page."
    echo "  Server CPU is read from /proc around each batch. Mail goes to a discarding SMTP sink on loopback"
    echo "  (aiosmtpd), so the sender thread does its real work for every post."
    local name=enumeration data=$WORK/enumeration-data config=$WORK/enumeration.json known=$WORK/enumeration-known.txt
    local python=${SIGNET_PYTHON:-$ROOT/.build/pytools/bin/python} smtp_port smtp_url
    smtp_port=$(free_port)
    if [ -x "$python" ] && "$python" -c 'import aiosmtpd' 2>/dev/null; then
        show_cmd "$python -m aiosmtpd -n -c aiosmtpd.handlers.Sink -l 127.0.0.1:$smtp_port"
        "$python" -m aiosmtpd -n -c aiosmtpd.handlers.Sink -l "127.0.0.1:$smtp_port" >"$WORK/enumeration-smtp.log" 2>&1 &
        PIDS+=("$!")
        local sink_pid=$!
        smtp_url="smtp://127.0.0.1:$smtp_port"
    else
        echo "  (no aiosmtpd at $python: mail goes to a closed port and waits in the outbox; run make pydeps)"
        smtp_url="smtp://127.0.0.1:$smtp_port"
    fi
    # ENUMERATION_CHEAP_HASH=1: Argon2id at its lowest cost (t=1, 8 MiB), so the rest of a sign-up's
    # work (its writes) is not hidden under the hash's own spread.
    local passwords=""
    [ "${ENUMERATION_CHEAP_HASH:-0}" = 1 ] && passwords=', "passwords": {"argon2id_ops_limit": 1, "argon2id_memory_kib": 8192}'
    printf '{"accounts": {"sign_up": "open", "email_sign_in": true}, "mail": {"smtp_url": "%s", "from": "id@bench.test"}, "http": {"trusted_proxies": ["127.0.0.1"]}%s}\n' \
        "$smtp_url" "$passwords" >"$config"
    show_cmd "cat $config   # $(cat "$config")"
    : >"$known"
    show_cmd "for i in 1..$ENUMERATION_REQUESTS: $SIGNET users add known-\$i@example.com --no-password --config $config --data $data"
    local i
    for i in $(seq "$ENUMERATION_REQUESTS"); do
        "$SIGNET" users add "known-$i@example.com" --no-password --config "$config" --data "$data" >>"$WORK/$name.setup.log" 2>&1 ||
            { cat "$WORK/$name.setup.log" >&2; return 1; }
        echo "known-$i@example.com" >>"$known"
    done
    start_oauth_server "$name" "$config"
    show_cmd "$BENCH enumeration --port $SIGNET_PORT --server-pid $SIGNET_PID --known-file $known --requests $ENUMERATION_REQUESTS --batch $ENUMERATION_BATCH"
    local ok=1
    "$BENCH" enumeration --port "$SIGNET_PORT" --server-pid "$SIGNET_PID" --known-file "$known" --requests "$ENUMERATION_REQUESTS" \
        --batch "$ENUMERATION_BATCH" --results "$RESULTS" 2>&1 | sed 's/^/  /' || ok=0
    local form diff low high cpu status
    for form in forgot email signup; do
        diff=$(result "enumeration.$form.diff_ms" 2>/dev/null || echo 0)
        low=$(result "enumeration.$form.diff_low_ms" 2>/dev/null || echo 0)
        high=$(result "enumeration.$form.diff_high_ms" 2>/dev/null || echo 0)
        cpu=$(result "enumeration.$form.cpu_diff_us" 2>/dev/null || echo 0)
        # PASS when the 95 % interval of the median difference holds 0: no difference this run can tell.
        status=$(pass_if "$low <= 0 && $high >= 0")
        [ "$ok" = 1 ] || status=MISS
        summary_add "$form: unknown - known, median (95 % interval)" "$(printf '%+.3f ms (%+.3f..%+.3f), CPU %+.0f us' "$diff" "$low" "$high" "$cpu")" \
            "interval holds 0" "$status"
    done
    stop_pid "$SIGNET_PID"
    [ -n "${sink_pid:-}" ] && stop_pid "$sink_pid"
    return 0
}

section_floor() {
    heading "The floor under the CPU targets: Signet next to a C server doing only the unavoidable work"
    echo "  bench/floor/floor.c: libmicrohttpd (the same pool on poll), SQLite on a database Signet created,"
    echo "  Signet's own SQL and group commit with synchronous=FULL, OpenSSL ES256 (and RS256 ID tokens),"
    echo "  and nothing else (no client authentication, audit, metrics, logs). Each pair: a fresh data"
    echo "  folder and Signet, one 5 s load; then a fresh data folder and the floor server, the same load."
    show_cmd "bench/floor.sh $FLOOR_PAIRS $SIGNET full"
    RESULTS=$RESULTS BENCH=$BENCH bench/floor.sh "$FLOOR_PAIRS" "$SIGNET" full 2>&1 | sed 's/^/  /'
    local scenario name target signet floor
    for scenario in userinfo refresh-noid refresh-id; do
        case $scenario in
            userinfo) name="userinfo" ;;
            refresh-noid) name="refresh, no ID token" ;;
            refresh-id) name="refresh, RS256 ID token" ;;
        esac
        target=${CPU_TARGET[$scenario]}
        signet=$(result "floor.$scenario.signet_us" 2>/dev/null || echo 0)
        floor=$(result "floor.$scenario.floor_us" 2>/dev/null || echo 0)
        summary_add "C floor: $name" "$(printf '%.0f us; Signet %.0f us' "$floor" "$signet")" \
            "(target <= $target us)" "$(awk -v f="$floor" -v t="$target" 'BEGIN { print (f > t ? "info: floor above target" : "info") }')"
    done
}

# The opt-in scale section (section_scale and its helpers).
source "$ROOT/scripts/bench-scale.sh"

# ---------------------------------------------------------------------------------------------
# Main

for tool in wrk curl openssl "$NGINX"; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool is missing (run: make deps)" >&2; exit 1; }
done
if [ ! -x "$SIGNET" ] || [ ! -x "$BENCH" ]; then
    echo "==> building release binaries"
    swift build -c release --product signet
    swift build -c release --product SignetBench
fi

echo "Signet benchmarks: $(uname -srm), $(nproc) cores, $(openssl version | cut -d' ' -f1-2), $("$NGINX" -v 2>&1 | sed 's/.*: //'), wrk $(wrk -v 2>&1 | awk 'NR == 1 { print $2 }')"
LOAD_AT_START=$(cut -d' ' -f1 /proc/loadavg)
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (wall-clock figures need an otherwise idle machine)"
echo "signet: $SIGNET (release)   SignetBench: $BENCH   sections: ${SELECTED[*]}"
STARTED=$SECONDS
for section in "${SELECTED[@]}"; do
    "section_$section"
done

heading "Summary ($((SECONDS - STARTED)) s; load average now $(cut -d' ' -f1-3 /proc/loadavg))"
printf '  %-46s %-30s %-22s %s\n' figure value target result
printf '  %-46s %-30s %-22s %s\n' "$(printf -- '-%.0s' {1..46})" "$(printf -- '-%.0s' {1..30})" "$(printf -- '-%.0s' {1..22})" ------
for row in "${SUMMARY[@]}"; do
    IFS='|' read -r name value target status <<<"$row"
    printf '  %-46s %-30s %-22s %s\n' "$name" "$value" "$target" "$status"
done
if awk -v l="$LOAD_AT_START" 'BEGIN { exit !(l > 1.5) }'; then
    echo "  !! The machine was busy (load average $LOAD_AT_START at start): req/s and start-up times are"
    echo "     wall-clock figures and swing with other load; the CPU-per-request and crypto (CPU-time)"
    echo "     ratios are the stable ones. Re-run on an idle machine for the req/s figures."
fi
if [ "$CORRECTNESS_FAILED" = 1 ]; then
    echo "  !!!! A correctness check failed (see above): exit 1."
    exit 1
fi
if [ "$STRICT" = 1 ] && [ "$MISSED" = 1 ]; then exit 1; fi
exit 0
