# The postgres section of scripts/bench.sh (sourced by it): Signet's refresh rotations on
# PostgreSQL next to PostgreSQL's own single-row-commit ceiling (pgbench) on the same cluster in
# the same run, the statements (round trips) per rotation counted by pg_stat_statements, and two
# Signet nodes behind nginx on one PostgreSQL with a correctness check. bench/README.md,
# "PostgreSQL against its own ceiling", describes it.

# Durability of the section's cluster: "on" (PostgreSQL's defaults: fsync, synchronous_commit,
# full_page_writes on; every commit waits for its WAL flush) or "off" (all three off, as the test
# cluster runs). Both Signet and pgbench connect to the same cluster, so both see the same setting.
PG_DURABILITY=${PG_DURABILITY:-on}
# Signet's pool (database.max_connections), and so pgbench's clients.
PG_POOL=16
# http.threads for the section's Signet nodes; empty: the default (0: one per pooled connection on
# PostgreSQL). For A/B runs: PG_HTTP_THREADS=2 is what the default was before session 9.
PG_HTTP_THREADS=${PG_HTTP_THREADS:-}

# pg_cpu_ticks: CPU clock ticks of the postmaster and its backends, including backends that have
# exited (pgbench's, at the end of its run): the postmaster's own utime + stime + cutime + cstime,
# plus utime + stime of each live child. (cpu_ticks counts live processes only.)
pg_cpu_ticks() {
    { cat /proc/[0-9]*/stat 2>/dev/null || true; } | sed 's/^\([0-9]*\) (.*) /\1 /' |
        awk -v p="$PG_PID" '$1 == p { t += $13 + $14 + $15 + $16 } $3 == p { t += $13 + $14 } END { print t + 0 }'
}

# pg_start_cluster DIR: a throwaway cluster in DIR (scripts/postgres-test-server.sh creates it),
# restarted with PG_DURABILITY's settings and pg_stat_statements loaded (command-line options
# override postgresql.conf, and the test script passes fsync=off, so a plain restart would keep
# it). Unix socket in DIR only. Sets PG_CONNINFO and PG_PID.
pg_start_cluster() {
    local dir=$1 bin owner=() flag
    PG_CONNINFO=$(scripts/postgres-test-server.sh start "$dir") || { echo "  !! PostgreSQL did not start"; return 1; }
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    [ "$(id -u)" = 0 ] && owner=(runuser -u postgres --)
    "${owner[@]}" "$bin/pg_ctl" --pgdata="$dir/data" --wait --silent --mode=fast stop >/dev/null
    [ "$PG_DURABILITY" = on ] && flag=on || flag=off
    "${owner[@]}" "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --silent start \
        -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c port=5432 -c max_connections=200 \
            -c fsync=$flag -c synchronous_commit=$flag -c full_page_writes=$flag \
            -c shared_preload_libraries=pg_stat_statements" >/dev/null ||
        { cat "$dir/server.log" >&2; return 1; }
    PG_PID=$(head -1 "$dir/data/postmaster.pid")
}

# pg_sql DB SQL: one query on database DB of the section's cluster, unaligned, no header.
pg_sql() { psql "${PG_CONNINFO/dbname=postgres/dbname=$1}" -X -q -A -t -c "$2"; }

# pg_now_us DB: the server's clock in microseconds since 1970 (the unit of Signet's time columns).
pg_now_us() { pg_sql "$1" "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint"; }

# pg_config_file FILE DB [ISSUER]: a signet configuration for database DB of the cluster (pool of
# PG_POOL connections, the section's master key), with ISSUER when given.
pg_config_file() {
    local file=$1 db=$2 issuer=${3:-}
    printf '%s' "${PG_CONNINFO/dbname=postgres/dbname=$db}" >"$WORK/$db.conninfo"
    [ -s "$WORK/pg.master-key" ] || openssl rand -hex 32 >"$WORK/pg.master-key"
    local extra=""
    [ -n "$issuer" ] && extra="\"issuer\": \"$issuer\", "
    [ -n "$PG_HTTP_THREADS" ] && extra="$extra\"http\": {\"threads\": $PG_HTTP_THREADS}, "
    printf '{%s"master_key": "file:%s", "database": {"driver": "postgres", "url": "file:%s", "max_connections": %s}, "admin": {"listen": []}}\n' \
        "$extra" "$WORK/pg.master-key" "$WORK/$db.conninfo" "$PG_POOL" >"$file"
}

# pg_statements DB ROTATIONS: prints pg_stat_statements' statements per rotation on DB since the
# last reset, and sets PG_STATEMENTS_PER_ROTATION (every statement Signet sends is one round trip:
# libpq sends one and waits for its result).
pg_statements() {
    local db=$1 rotations=$2 where total
    where="dbid = (SELECT oid FROM pg_database WHERE datname = '$db') AND query NOT LIKE '%pg_stat_statements%'"
    show_cmd "psql -c \"SELECT calls, query FROM pg_stat_statements WHERE dbid = <$db> ORDER BY calls DESC\""
    pg_sql "$db" "SELECT to_char(calls::numeric / $rotations, 'FM990.00'), calls, left(regexp_replace(query, '\s+', ' ', 'g'), 100) FROM pg_stat_statements WHERE $where ORDER BY calls DESC LIMIT 10" |
        awk -F'|' '{ printf "  | %6s per rotation %8d calls  %s\n", $1, $2, $3 }'
    total=$(pg_sql "$db" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE $where")
    PG_STATEMENTS_PER_ROTATION=$(calc "$total / $rotations")
}

# pg_operation_cost KEY SCENARIO DB: one load run (no warm-up) of SCENARIO against the current
# server on database DB, with pg_stat_statements reset before it and PostgreSQL's CPU read around
# it; prints statements (round trips) and PostgreSQL CPU per operation and adds them to the summary.
# The load's set-up (one sign-in, a code flow per connection) falls inside the window: a few more
# statements than the operations alone.
pg_operation_cost() {
    local key=$1 scenario=$2 db=$3 before after operations statements where per_op cpu
    where="dbid = (SELECT oid FROM pg_database WHERE datname = '$db') AND query NOT LIKE '%pg_stat_statements%'"
    pg_sql "$db" "SELECT pg_stat_statements_reset()" >/dev/null
    before=$(pg_cpu_ticks)
    show_cmd "$BENCH load --scenario $scenario --connections $LOAD_CONNECTIONS --seconds $LOAD_SECONDS --runs 1 --warmup 0 --port $SIGNET_PORT --server-pid $SIGNET_PID ..."
    "$BENCH" load "${OAUTH_ARGS[@]}" --scenario "$scenario" --connections "$LOAD_CONNECTIONS" --seconds "$LOAD_SECONDS" \
        --runs 1 --warmup 0 --results "$RESULTS" --key "$key" 2>&1 | sed 's/^/  /' || true
    after=$(pg_cpu_ticks)
    operations=$(result "load.$key.operations" 2>/dev/null ||
        calc "$(result "load.$key.rate" 2>/dev/null || echo 0) * $LOAD_SECONDS")
    operations=${operations%.*}
    [ "${operations:-0}" -gt 0 ] || operations=1
    statements=$(pg_sql "$db" "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE $where")
    per_op=$(calc "$statements / $operations")
    cpu=$(calc "($after - $before) * 1000000 / $TICKS_PER_SECOND / $operations")
    pg_sql "$db" "SELECT to_char(calls::numeric / $operations, 'FM990.00'), left(regexp_replace(query, '\s+', ' ', 'g'), 100) FROM pg_stat_statements WHERE $where ORDER BY calls DESC LIMIT 12" |
        awk -F'|' '{ printf "  | %6s per op  %s\n", $1, $2 }'
    echo "  $scenario: $operations operations, $per_op statements (round trips) and $cpu us PostgreSQL CPU per operation;"
    echo "  Signet CPU $(printf '%.0f' "$(result "load.$key.server_cpu_us" 2>/dev/null || echo 0)") us per operation"
    summary_add "  $scenario on PG: round trips; PG CPU; Signet CPU" \
        "$(printf '%s; %.0f us; %.0f us' "$per_op" "$cpu" "$(result "load.$key.server_cpu_us" 2>/dev/null || echo 0)")" "(info)" info
}

# pg_round_trips KEY SCENARIO DB DIR TABLE [WHERE]: statements and round trips per operation (an
# operation: a row of TABLE created during the run that matches WHERE: a rotation's successor token,
# a sign-in's grant), for one short load run (2 s, its own, since logging and tracing slow the
# server). Statements: the cluster logs every statement (log_statement = all, each line prefixed
# with the application name), and the lines of Signet's connections (application_name "signet")
# are counted, BEGIN and COMMIT included (which pg_stat_statements does not count when they come as
# prepared statements). Round trips: Signet sends several statements in one libpq pipeline (a
# transaction's BEGIN with its first statement, held writes with the next statement or COMMIT),
# which the log cannot show, so they are counted on Signet's side: `strace -f -yy -e trace=sendto`
# on the server during the same run, the sends to a Unix socket (PostgreSQL's; libpq sends a
# statement, or a whole pipeline, with one `send` and waits for the answer). Without strace, the
# log's lines minus the BEGINs pipelined with the next statement (`execute <unnamed>: BEGIN`).
# Sets PG_LOGGED_TRIPS (round trips) and PG_LOGGED_STATEMENTS.
pg_round_trips() {
    local key=$1 scenario=$2 db=$3 dir=$4 table=$5 condition=${6:-} log offset since operations lines pipelined
    local trace=$WORK/$key.strace tracer="" sends=""
    log=$dir/server.log
    pg_sql postgres "ALTER SYSTEM SET log_statement = 'all'" >/dev/null
    pg_sql postgres "ALTER SYSTEM SET log_line_prefix = '%a|'" >/dev/null
    pg_sql postgres "SELECT pg_reload_conf()" >/dev/null
    if command -v strace >/dev/null; then
        show_cmd "strace -f -qq -yy -e trace=sendto -o $trace -p $SIGNET_PID &"
        strace -f -qq -yy -e trace=sendto -o "$trace" -p "$SIGNET_PID" 2>/dev/null &
        tracer=$!
        sleep 1   # attached to every thread
    fi
    offset=$(stat -c %s "$log")
    since=$(pg_now_us "$db")
    show_cmd "psql -c \"ALTER SYSTEM SET log_statement = 'all'\" -c \"ALTER SYSTEM SET log_line_prefix = '%a|'\" -c 'SELECT pg_reload_conf()'; $BENCH load --scenario $scenario --seconds 2 --runs 1 ..."
    "$BENCH" load "${OAUTH_ARGS[@]}" --scenario "$scenario" --connections "$LOAD_CONNECTIONS" --seconds 2 \
        --runs 1 --results "$RESULTS" --key "$key" 2>&1 | sed 's/^/  /' || true
    if [ -n "$tracer" ]; then
        kill -INT "$tracer" 2>/dev/null || true
        wait "$tracer" 2>/dev/null || true
        sends=$(grep -c -E 'sendto\([0-9]+<UNIX-STREAM:' "$trace" || true)
    fi
    pg_sql postgres "ALTER SYSTEM RESET log_statement" >/dev/null
    pg_sql postgres "ALTER SYSTEM RESET log_line_prefix" >/dev/null
    pg_sql postgres "SELECT pg_reload_conf()" >/dev/null
    operations=$(pg_sql "$db" "SELECT count(*) FROM $table WHERE created_at >= $since${condition:+ AND $condition}")
    [ "${operations:-0}" -gt 0 ] || operations=1
    show_cmd "grep -c '^signet|LOG:  (execute|statement)' server.log   # lines logged during that run"
    lines=$(tail -c +$((offset + 1)) "$log" | grep -c -E '^signet\|LOG:  (execute [^:]*|statement): ' || true)
    tail -c +$((offset + 1)) "$log" | grep -E '^signet\|LOG:  (execute [^:]*|statement): ' |
        sed -E 's/^signet\|LOG:  (execute [^:]*|statement): //' | cut -c1-60 | sort | uniq -c | sort -rn | head -8 |
        awk -v n="$operations" '{ c = $1; $1 = ""; printf "  | %6.2f per operation %s\n", c / n, $0 }'
    pipelined=$(tail -c +$((offset + 1)) "$log" | grep -c -E '^signet\|LOG:  execute <unnamed>: BEGIN$' || true)
    PG_LOGGED_STATEMENTS=$(calc "$lines / $operations")
    PG_LOGGED_TRIPS=$(calc "($lines - $pipelined) / $operations")
    echo "  $scenario: $lines statements logged for $operations operations (the load's set-up included), $pipelined of them"
    echo "  a BEGIN pipelined with the next statement: $PG_LOGGED_STATEMENTS statements, $PG_LOGGED_TRIPS round trips each"
    if [ -n "$sends" ]; then
        PG_LOGGED_TRIPS=$(calc "$sends / $operations")
        echo "  by strace, $sends sends to PostgreSQL's socket in the same run: $PG_LOGGED_TRIPS round trips each"
    fi
}

# pg_live_twice DB: families (grants) holding more than one live (unrotated) refresh token.
pg_live_twice() {
    pg_sql "$1" "SELECT count(*) FROM (SELECT grant_ref FROM refresh_tokens WHERE rotated_at IS NULL GROUP BY grant_ref HAVING count(*) > 1) f"
}

# pg_pgbench NAME CLIENTS SCRIPTS...: pgbench on database pgbench_ceiling with SCRIPTS (files in
# $WORK), CLIENTS connections; prints its figures, sets PGBENCH_TPS and PGBENCH_PG_CPU (PostgreSQL
# CPU per transaction, postmaster and backends, /proc).
pg_pgbench() {
    local name=$1 clients=$2 scripts=() file before after transactions
    shift 2
    for file in "$@"; do scripts+=(-f "$WORK/$file"); done
    show_cmd "pgbench -n -M prepared -c $clients -j 2 -T $LOAD_SECONDS ${scripts[*]//$WORK\//} pgbench_ceiling"
    before=$(pg_cpu_ticks)
    if ! pgbench -n -M prepared -c "$clients" -j 2 -T "$LOAD_SECONDS" "${scripts[@]}" \
            "${PG_CONNINFO/dbname=postgres/dbname=pgbench_ceiling}" >"$WORK/pgbench-$name.txt" 2>&1; then
        sed 's/^/  | /' "$WORK/pgbench-$name.txt"
        PGBENCH_TPS=0 PGBENCH_PG_CPU=0
        return 1
    fi
    after=$(pg_cpu_ticks)
    grep -E 'latency average|^tps|transactions actually processed' "$WORK/pgbench-$name.txt" | sed 's/^/  | /'
    PGBENCH_TPS=$(awk '/^tps/ { print $3; exit }' "$WORK/pgbench-$name.txt")
    transactions=$(awk '/transactions actually processed/ { print $NF; exit }' "$WORK/pgbench-$name.txt" | cut -d/ -f1)
    PGBENCH_PG_CPU=$(calc "($after - $before) * 1000000 / $TICKS_PER_SECOND / ${transactions:-1}")
}

# pg_ceiling: the tables and scripts, then two pgbench runs: the ceiling (one-row UPDATE and
# INSERT transactions, autocommit, half each) and a rotation's own shape (BEGIN, SELECT … FOR
# UPDATE, UPDATE, INSERT, COMMIT: 5 statements). Sets CEILING_TPS, CEILING_PG_CPU, SHAPE_TPS,
# SHAPE_PG_CPU.
pg_ceiling() {
    pg_sql postgres "CREATE DATABASE pgbench_ceiling" >/dev/null
    pg_sql pgbench_ceiling "CREATE TABLE rows (id bigint PRIMARY KEY, v bigint NOT NULL); CREATE TABLE log (id bigint NOT NULL, at timestamptz NOT NULL); INSERT INTO rows SELECT g, 0 FROM generate_series(1, 100000) g" >/dev/null
    pg_sql pgbench_ceiling "VACUUM ANALYZE rows" >/dev/null
    cat >"$WORK/pgbench-update.sql" <<'EOF'
\set id random(1, 100000)
UPDATE rows SET v = v + 1 WHERE id = :id;
EOF
    cat >"$WORK/pgbench-insert.sql" <<'EOF'
\set id random(1, 100000)
INSERT INTO log (id, at) VALUES (:id, now());
EOF
    cat >"$WORK/pgbench-rotation.sql" <<'EOF'
\set id random(1, 100000)
BEGIN;
SELECT v FROM rows WHERE id = :id FOR UPDATE;
UPDATE rows SET v = v + 1 WHERE id = :id;
INSERT INTO log (id, at) VALUES (:id, now());
COMMIT;
EOF
    echo "  PostgreSQL's ceiling: pgbench with one-row transactions (each script one statement, autocommit: an"
    echo "  UPDATE of one row by primary key, or an INSERT of one row; half each), $PG_POOL clients = Signet's pool"
    echo "  (database.max_connections), on the same cluster and socket as Signet, so the same fsync and"
    echo "  synchronous_commit apply:"
    sed 's/^/  | update: /' "$WORK/pgbench-update.sql" | tail -1
    sed 's/^/  | insert: /' "$WORK/pgbench-insert.sql" | tail -1
    pg_pgbench ceiling "$PG_POOL" pgbench-update.sql pgbench-insert.sql || true
    CEILING_TPS=$PGBENCH_TPS CEILING_PG_CPU=$PGBENCH_PG_CPU
    echo "  The same clients with a rotation's shape, one transaction of 5 statements (BEGIN; SELECT … FOR UPDATE;"
    echo "  UPDATE; INSERT; COMMIT), the statements Signet sends per rotation, without Signet:"
    pg_pgbench shape "$PG_POOL" pgbench-rotation.sql || true
    SHAPE_TPS=$PGBENCH_TPS SHAPE_PG_CPU=$PGBENCH_PG_CPU
}

section_postgres() {
    heading "PostgreSQL: refresh rotations next to PostgreSQL's own single-row-commit ceiling; two nodes behind nginx"
    if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || ! command -v pgbench >/dev/null; then
        echo "  skipped: no PostgreSQL server binaries or pgbench (Debian: postgresql)"
        return 0
    fi
    local pgdir
    pgdir=$(mktemp -d /tmp/signet-bench-pg.XXXXXX)   # outside $WORK (0700): the server runs as postgres
    PG_DIRS+=("$pgdir")
    pg_start_cluster "$pgdir" || return 1
    echo "  A throwaway PostgreSQL cluster on this machine (scripts/postgres-test-server.sh, restarted with"
    echo "  pg_stat_statements), Unix socket only; Signet, pgbench and the load generator share the 2 cores."
    show_cmd "psql -c 'SHOW fsync' -c 'SHOW synchronous_commit' -c 'SHOW full_page_writes'"
    local durability
    durability="fsync=$(pg_sql postgres 'SHOW fsync') synchronous_commit=$(pg_sql postgres 'SHOW synchronous_commit') full_page_writes=$(pg_sql postgres 'SHOW full_page_writes')"
    echo "  | $durability   (PG_DURABILITY=$PG_DURABILITY; the same for Signet and pgbench)"
    summary_add "PostgreSQL durability (Signet and pgbench)" "$durability" "(info)" info

    # Signet on one node: refresh rotations without an ID token, as in the refresh section.
    pg_sql postgres "CREATE DATABASE signet_bench" >/dev/null
    pg_config_file "$WORK/postgres.json" signet_bench
    show_cmd "cat $WORK/postgres.json   # $(cat "$WORK/postgres.json")"
    start_oauth_server postgres "$WORK/postgres.json" || return 1
    pg_sql signet_bench "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
    pg_sql signet_bench "SELECT pg_stat_statements_reset()" >/dev/null
    local since pg_before pg_after rotations threads
    threads=$(awk '/^Threads:/ { print $2 }' "/proc/$SIGNET_PID/status")
    since=$(pg_now_us signet_bench)
    pg_before=$(pg_cpu_ticks)
    echo "  One signet serve (database.max_connections $PG_POOL; $threads threads), refresh without an ID token"
    echo "  (scope=offline_access), $LOAD_CONNECTIONS connections:"
    load_run pg-refresh-noid refresh-noid "$LOAD_CONNECTIONS"
    pg_after=$(pg_cpu_ticks)
    local rate=$LOAD_RATE p50=$LOAD_P50 p99=$LOAD_P99 signet_cpu=$LOAD_CPU ok=$LOAD_OK
    rotations=$(pg_sql signet_bench "SELECT count(*) FROM refresh_tokens WHERE created_at >= $since AND parent_hash IS NOT NULL")
    [ "${rotations:-0}" -gt 0 ] || rotations=1
    echo "  Statements per rotation over those runs ($rotations rotations, warm-up included; the load's set-up,"
    echo "  one sign-in and $LOAD_CONNECTIONS code flows, adds a few), counted by pg_stat_statements:"
    pg_statements signet_bench "$rotations"
    local pg_cpu
    pg_cpu=$(calc "($pg_after - $pg_before) * 1000000 / $TICKS_PER_SECOND / $rotations")
    echo "  statements per rotation: $PG_STATEMENTS_PER_ROTATION (pg_stat_statements leaves out BEGIN and COMMIT sent as prepared"
    echo "  statements; the server log below counts them). PostgreSQL CPU per rotation (postmaster and backends, /proc): $pg_cpu us"
    echo "  Statements per rotation, counted in PostgreSQL's log, and round trips, counted by strace:"
    pg_round_trips pg-trips refresh-noid signet_bench "$pgdir" refresh_tokens "parent_hash IS NOT NULL"
    local rotation_trips=$PG_LOGGED_TRIPS rotation_statements=$PG_LOGGED_STATEMENTS
    pg_round_trips pg-signin-trips signin signet_bench "$pgdir" grants
    summary_add "  signin on PG: round trips (strace); statements (server log)" "$PG_LOGGED_TRIPS; $PG_LOGGED_STATEMENTS" "(info)" info
    # A refresh with the family's whole scope issues an RS256 ID token, whose claims need the user.
    pg_round_trips pg-refresh-id-trips refresh-id signet_bench "$pgdir" refresh_tokens "parent_hash IS NOT NULL"
    summary_add "  refresh-id on PG: round trips (strace); statements (server log)" "$PG_LOGGED_TRIPS; $PG_LOGGED_STATEMENTS" "(info)" info
    PG_LOGGED_TRIPS=$rotation_trips
    echo "  Per operation on the same server (one run each, for the capacity model in docs/operations.md):"
    pg_operation_cost pg-signin signin signet_bench
    pg_operation_cost pg-client-credentials client-credentials signet_bench
    pg_operation_cost pg-userinfo userinfo signet_bench
    stop_pid "$SIGNET_PID"

    pg_ceiling
    local ratio status
    ratio=$(calc "$rate / ($CEILING_TPS > 0 ? $CEILING_TPS : 1)")
    status=$(pass_if "$ratio >= 0.8")
    [ "$ok" = 1 ] || status=MISS
    printf '  PostgreSQL ceiling: %.0f one-row commits/s (%.0f us PostgreSQL CPU each); a rotation'"'"'s 5 statements\n' "$CEILING_TPS" "$CEILING_PG_CPU"
    printf '  without Signet: %.0f/s (%.0f us). Signet: %.0f rotations/s (%s round trips each,\n' "$SHAPE_TPS" "$SHAPE_PG_CPU" "$rate" "$PG_LOGGED_TRIPS"
    printf '  one commit; %.0f us Signet CPU + %.0f us PostgreSQL CPU): %s x the ceiling (target >= 0.8 x)\n' "$signet_cpu" "$pg_cpu" "$ratio"
    summary_add "refresh rotations/s on PostgreSQL, no ID token" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$rate" "$p50" "$p99")" "(info)" "$([ "$ok" = 1 ] && echo info || echo MISS)"
    summary_add "  server CPU/op; PostgreSQL CPU/op" "$(printf '%.0f us; %.0f us' "$signet_cpu" "$pg_cpu")" "(info)" info
    summary_add "  round trips per rotation (strace); statements (server log)" "$PG_LOGGED_TRIPS; $rotation_statements (pg_stat_statements: $PG_STATEMENTS_PER_ROTATION)" "(info)" info
    summary_add "pgbench one-row commits/s, $PG_POOL clients" "$(printf '%.0f/s, PG CPU %.0f us/tx' "$CEILING_TPS" "$CEILING_PG_CPU")" "(ceiling)" info
    summary_add "  pgbench rotation-shaped tx/s (5 stmts)" "$(printf '%.0f/s, PG CPU %.0f us/tx' "$SHAPE_TPS" "$SHAPE_PG_CPU")" "(info)" info
    summary_add "  Signet rotations / ceiling" "${ratio}x" ">= 0.80x" "$status"

    pg_two_nodes
}

# pg_two_nodes: two signet serve on one PostgreSQL database behind nginx (round robin, keep-alive
# upstream), the refresh load through nginx, then the check that no family holds two live tokens.
pg_two_nodes() {
    echo
    echo "  Two Signet nodes (two signet serve, same configuration and master key, one database) behind nginx"
    echo "  (round robin over keep-alive upstream connections: consecutive rotations of one chain land on either"
    echo "  node). THIS 2-CORE MACHINE CANNOT SHOW SCALE-OUT: both nodes, nginx, PostgreSQL and the load"
    echo "  generator share the same 2 cores, so the rate below says nothing about a second machine's worth;"
    echo "  what the run shows is that two nodes stay correct under load."
    local nginx_port port_b pid_a pid_b prefix=$WORK/nginx-2nodes config=$WORK/two-nodes.json
    nginx_port=$(free_port)
    pg_sql postgres "CREATE DATABASE signet_two" >/dev/null
    pg_config_file "$config" signet_two "http://127.0.0.1:$nginx_port"
    start_oauth_server pg-node-a "$config" || return 1
    pid_a=$SIGNET_PID
    port_b=$(free_port)
    show_cmd "$SIGNET serve --config $config --data $WORK/pg-node-b-data --listen 127.0.0.1:$port_b"
    "$SIGNET" serve --config "$config" --data "$WORK/pg-node-b-data" --listen "127.0.0.1:$port_b" >"$WORK/pg-node-b.log" 2>&1 </dev/null &
    pid_b=$!
    PIDS+=("$pid_b")
    wait_http "http://127.0.0.1:$port_b/healthz" 60 || { cat "$WORK/pg-node-b.log" >&2; return 1; }
    start_nginx_balancer "$prefix" "$nginx_port" "$SIGNET_PORT" "$port_b" || return 1
    local nginx_pid=$BALANCER_PID
    # The load goes to nginx; the generator's CPU figure is node a's, so both nodes' CPU is read here.
    SIGNET_PORT=$nginx_port
    OAUTH_ARGS[1]=$nginx_port
    local since a_before b_before a_after b_after rotations
    since=$(pg_now_us signet_two)
    a_before=$(cpu_ticks "$pid_a")
    b_before=$(cpu_ticks "$pid_b")
    load_run pg-two-nodes refresh-noid "$LOAD_CONNECTIONS"
    a_after=$(cpu_ticks "$pid_a")
    b_after=$(cpu_ticks "$pid_b")
    rotations=$(pg_sql signet_two "SELECT count(*) FROM refresh_tokens WHERE created_at >= $since AND parent_hash IS NOT NULL")
    [ "${rotations:-0}" -gt 0 ] || rotations=1
    local cpu_a cpu_b live_twice revoked
    cpu_a=$(calc "($a_after - $a_before) * 1000000 / $TICKS_PER_SECOND / $rotations")
    cpu_b=$(calc "($b_after - $b_before) * 1000000 / $TICKS_PER_SECOND / $rotations")
    echo "  $rotations rotations; CPU per rotation (of all rotations): node a $cpu_a us, node b $cpu_b us (both nodes served)"
    show_cmd "psql -c \"SELECT count(*) FROM (SELECT grant_ref FROM refresh_tokens WHERE rotated_at IS NULL GROUP BY grant_ref HAVING count(*) > 1) f\""
    live_twice=$(pg_live_twice signet_two)
    revoked=$(pg_sql signet_two "SELECT count(*) FROM grants WHERE revoked_at IS NOT NULL")
    echo "  families with more than one live (unrotated) refresh token after the run: $live_twice (must be 0);"
    echo "  families revoked (a rotation taken for reuse would revoke its family): $revoked (must be 0)"
    local status=PASS
    if [ "$live_twice" != 0 ] || [ "$revoked" != 0 ] || [ "$LOAD_OK" != 1 ]; then
        status=MISS
        CORRECTNESS_FAILED=1
        echo "  !!!! CORRECTNESS FAILURE with two nodes on one PostgreSQL: $live_twice families with two live tokens,"
        echo "  !!!! $revoked revoked families, load ok=$LOAD_OK. The bench exits 1."
    fi
    summary_add "two nodes + nginx, one PostgreSQL (2 cores:" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$LOAD_RATE" "$LOAD_P50" "$LOAD_P99")" "no scale-out shown)" info
    summary_add "  CPU/rotation node a; node b" "$(printf '%.0f us; %.0f us' "$cpu_a" "$cpu_b")" "(info)" info
    summary_add "  families with two live tokens; revoked" "$live_twice; $revoked" "0; 0" "$status"
    stop_pid "$nginx_pid"
    stop_pid "$pid_a"
    stop_pid "$pid_b"
}
