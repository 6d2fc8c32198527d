# The opt-in scale section of scripts/bench.sh (sourced by it; `--only scale`): Signet on a large
# database (SQLite, then PostgreSQL), and two Signet nodes behind nginx on the seeded PostgreSQL
# (PostgreSQL's own ceiling is the postgres section's, scripts/bench-postgres.sh). bench/README.md, "Scale", describes it.

# scale_config FILE JSON: writes a configuration file (purge_interval 0: the server must not purge
# the expired rows itself before `signet purge` is measured).
scale_config() {
    printf '%s\n' "$2" >"$1"
}

# scale_db_bytes DATA: bytes of the SQLite database (file + WAL + shared memory).
scale_db_bytes() {
    local data=$1
    du -cb "$data"/signet.db* 2>/dev/null | awk 'END { print $1 }'
}

# scale_seed NAME CONFIG DATA TOKENS USERS EXPIRED SAMPLES: `signet clients add bench-app`, then the
# bulk loader; the sample tokens split into $WORK/NAME.part.00, .01, … of $SCALE_SAMPLE each.
scale_seed() {
    local name=$1 config=$2 data=$3 tokens=$4 users=$5 expired=$6 samples=$7
    show_cmd "$SIGNET clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback --scope 'openid profile email offline_access' --config $config --data $data"
    "$SIGNET" clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback \
        --scope "openid profile email offline_access" --config "$config" --data "$data" >"$WORK/$name.setup.log" 2>&1 ||
        { cat "$WORK/$name.setup.log" >&2; return 1; }
    show_cmd "$BENCH seed --config $config --data $data --tokens $tokens --users $users --expired $expired --sample $samples --sample-file $WORK/$name.sample"
    "$BENCH" seed --config "$config" --data "$data" --tokens "$tokens" --users "$users" --expired "$expired" \
        --sample "$samples" --sample-file "$WORK/$name.sample" --results "$RESULTS" 2>&1 | sed 's/^/  /'
    # One file of seeded tokens per load phase (each token can be presented once).
    split -d -l "$SCALE_SAMPLE" "$WORK/$name.sample" "$WORK/$name.part."
}

# scale_serve NAME CONFIG DATA: `signet serve` on a seeded data folder; sets SIGNET_PID, SIGNET_PORT.
scale_serve() {
    local name=$1 config=$2 data=$3
    SIGNET_PORT=$(free_port)
    show_cmd "$SIGNET serve --config $config --data $data --listen 127.0.0.1:$SIGNET_PORT"
    "$SIGNET" serve --config "$config" --data "$data" --listen "127.0.0.1:$SIGNET_PORT" >"$WORK/$name.log" 2>&1 </dev/null &
    SIGNET_PID=$!
    PIDS+=("$SIGNET_PID")
    wait_http "http://127.0.0.1:$SIGNET_PORT/healthz" 60 || { cat "$WORK/$name.log" >&2; return 1; }
    scale_wait_keys "$SIGNET_PORT"
}

# scale_wait_keys PORT: a first start generates its signing keys in the background, and token
# requests wait for them (RSA-2048 can take seconds on a busy machine): wait until the JWKS has both.
scale_wait_keys() {
    local i
    for i in $(seq 600); do
        [ "$(curl -s "http://127.0.0.1:$1/jwks.json" | grep -o '"kid"' | wc -l)" -ge 2 ] && return 0
        sleep 0.1
    done
    echo "bench.sh: the signing keys were not ready within 60 s" >&2
    return 1
}

# scale_load KEY PART [RUNS] [PORT] [PID]: refresh rotations (scope=offline_access) presenting the
# seeded tokens of PART, one per operation, spread over the whole database; sets LOAD_* like load_run.
scale_load() {
    local key=$1 part=$2 runs=${3:-$WRK_RUNS} port=${4:-$SIGNET_PORT} pid=${5:-$SIGNET_PID}
    show_cmd "$BENCH load --scenario refresh-noid --seeded-tokens $part --connections $LOAD_CONNECTIONS --seconds $LOAD_SECONDS --runs $runs --port $port --server-pid $pid"
    LOAD_OK=1
    "$BENCH" load --scenario refresh-noid --seeded-tokens "$part" --connections "$LOAD_CONNECTIONS" --seconds "$LOAD_SECONDS" \
        --runs "$runs" --port "$port" --server-pid "$pid" --results "$RESULTS" --key "$key" 2>&1 | sed 's/^/  /' || LOAD_OK=0
    LOAD_RATE=$(result "load.$key.rate" 2>/dev/null || echo 0)
    LOAD_P50=$(result "load.$key.p50_ms" 2>/dev/null || echo 0)
    LOAD_P99=$(result "load.$key.p99_ms" 2>/dev/null || echo 0)
    LOAD_CPU=$(result "load.$key.server_cpu_us" 2>/dev/null || echo 0)
    [ "$(result "load.$key.errors" 2>/dev/null || echo 1)" = 0.000 ] || LOAD_OK=0
    [ "$(result "load.$key.aborted" 2>/dev/null || echo 1)" = 0.000 ] || LOAD_OK=0
    [ "$LOAD_OK" = 1 ] || echo "  !! errors or broken chains: the figure is not valid"
}

# scale_proof LABEL PORT TOKEN_FILE: the real server on the seeded database rotates a token the
# loader made (the one line of TOKEN_FILE, used by no load phase): 200 with a new refresh token,
# then that successor is rotated in turn (200).
scale_proof() {
    local label=$1 port=$2 token first second successor
    token=$(head -n 1 "$3")
    show_cmd "curl -d 'grant_type=refresh_token&client_id=bench-app&refresh_token=SEEDED' http://127.0.0.1:$port/token   # then its successor"
    first=$(curl -s -o "$WORK/$label-proof1.json" -w '%{http_code}' -d "grant_type=refresh_token&client_id=bench-app&refresh_token=$token" \
        "http://127.0.0.1:$port/token")
    successor=$(grep -o '"refresh_token":"[^"]*"' "$WORK/$label-proof1.json" | cut -d'"' -f4)
    second=$(curl -s -o /dev/null -w '%{http_code}' -d "grant_type=refresh_token&client_id=bench-app&refresh_token=$successor" \
        "http://127.0.0.1:$port/token")
    echo "  a seeded token presented to signet serve: $first$([ -n "$successor" ] && echo ' with a new refresh token'); its successor: $second"
    summary_add "  seeded token rotated by signet serve; successor" "$first; $second" "200; 200" \
        "$([ "$first" = 200 ] && [ -n "$successor" ] && [ "$second" = 200 ] && echo PASS || echo MISS)"
}

# scale_rss PID: "VmRSS VmHWM" in MiB.
scale_rss() {
    awk '/^VmRSS:/ { r = $2 } /^VmHWM:/ { h = $2 } END { printf "%.1f %.1f", r / 1024, h / 1024 }' "/proc/$1/status"
}

# scale_part NAME N: the file of the N-th load phase's seeded tokens of seed NAME (scale_seed splits
# its sample into parts of SCALE_SAMPLE tokens). A seeded database's parts: 0 … SCALE_PAIRS-1 for the
# pairs against the empty database, then SCALE_PAIRS undisturbed runs and SCALE_PAIRS during the
# purge, then (PostgreSQL) one for the two nodes, then one token for the rotation proof.
scale_part() { printf '%s.part.%02d' "$WORK/$1" "$2"; }

# scale_pairs EMPTY_NAME EMPTY_PORT EMPTY_PID SEEDED_NAME SEEDED_PORT SEEDED_PID: SCALE_PAIRS pairs of
# one load run on the empty database's server and one on the seeded database's, both serving at
# once, the order swapped in every other pair (a machine that drifts between a pair's two runs
# drifts both ways); each run presents its own part of seeded tokens. Sets EMPTY_* and LOAD_* to
# the medians of their runs, PAIR_RATIO and PAIR_P99_RATIO to the medians of the pairs' ratios,
# and PAIRS_OK (0 when a run had errors). SCALE_AROUND_SEEDED, if set, names a command run with
# "before" and with "after" around each seeded run.
scale_pairs() {
    local e_name=$1 e_port=$2 e_pid=$3 s_name=$4 s_port=$5 s_pid=$6 i side
    local e_rate=() e_p50=() e_p99=() e_cpu=() s_rate=() s_p50=() s_p99=() s_cpu=() ratios=() p99_ratios=()
    PAIRS_OK=1
    for i in $(seq 0 $((SCALE_PAIRS - 1))); do
        local order="empty seeded"
        [ $((i % 2)) = 1 ] && order="seeded empty"
        for side in $order; do
            if [ "$side" = empty ]; then
                scale_load "$e_name-$i" "$(scale_part "$e_name" "$i")" 1 "$e_port" "$e_pid"
                e_rate+=("$LOAD_RATE") e_p50+=("$LOAD_P50") e_p99+=("$LOAD_P99") e_cpu+=("$LOAD_CPU")
            else
                [ -z "${SCALE_AROUND_SEEDED:-}" ] || "$SCALE_AROUND_SEEDED" before
                scale_load "$s_name-$i" "$(scale_part "$s_name" "$i")" 1 "$s_port" "$s_pid"
                [ -z "${SCALE_AROUND_SEEDED:-}" ] || "$SCALE_AROUND_SEEDED" after
                s_rate+=("$LOAD_RATE") s_p50+=("$LOAD_P50") s_p99+=("$LOAD_P99") s_cpu+=("$LOAD_CPU")
            fi
            [ "$LOAD_OK" = 1 ] || PAIRS_OK=0
        done
        ratios+=("$(calc "(${e_rate[i]} > 0 ? ${s_rate[i]} / ${e_rate[i]} : 0)")")
        p99_ratios+=("$(calc "(${e_p99[i]} > 0 ? ${s_p99[i]} / ${e_p99[i]} : 99)")")
        printf '  pair %d (%s first): seeded %.0f/s p99 %.1f ms, empty %.0f/s p99 %.1f ms: %sx the rate, p99 %sx\n' \
            $((i + 1)) "${order%% *}" "${s_rate[i]}" "${s_p99[i]}" "${e_rate[i]}" "${e_p99[i]}" "${ratios[i]}" "${p99_ratios[i]}"
    done
    EMPTY_RATE=$(median "${e_rate[@]}") EMPTY_P50=$(median "${e_p50[@]}") EMPTY_P99=$(median "${e_p99[@]}")
    EMPTY_CPU=$(median "${e_cpu[@]}")
    LOAD_RATE=$(median "${s_rate[@]}") LOAD_P50=$(median "${s_p50[@]}") LOAD_P99=$(median "${s_p99[@]}")
    LOAD_CPU=$(median "${s_cpu[@]}")
    PAIR_RATIO=$(median "${ratios[@]}") PAIR_P99_RATIO=$(median "${p99_ratios[@]}")
}

# scale_compare LABEL: the summary rows of scale_pairs (the medians it set).
scale_compare() {
    local label=$1 status
    status=$(pass_if "$PAIR_RATIO >= 0.8 && $PAIR_P99_RATIO <= 1.5")
    [ "$PAIRS_OK" = 1 ] || status=MISS
    printf '  %s: %sx the empty database'"'"'s rate, p99 %sx (medians of %d pairs)\n' "$label" "$PAIR_RATIO" "$PAIR_P99_RATIO" "$SCALE_PAIRS"
    summary_add "$label: rotations/s, empty db" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$EMPTY_RATE" "$EMPTY_P50" "$EMPTY_P99")" "(reference; medians)" info
    summary_add "  seeded db" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$LOAD_RATE" "$LOAD_P50" "$LOAD_P99")" "(info; medians)" info
    summary_add "  seeded / empty: rate; p99 ($SCALE_PAIRS pairs)" "${PAIR_RATIO}x; ${PAIR_P99_RATIO}x" ">= 0.80x; <= 1.5x" "$status"
    summary_add "  server CPU/op empty; seeded" "$(printf '%.0f us; %.0f us' "$EMPTY_CPU" "$LOAD_CPU")" "(info)" info
}

# scale_purge_under_load LABEL CONFIG DATA NAME: SCALE_PAIRS undisturbed load runs on the seeded
# database NAME's server, then `signet purge` started together with up to SCALE_PAIRS more, as
# long as it runs; the ratio is the median of the runs whose whole window was under the purge
# over the median of the undisturbed ones (parts SCALE_PAIRS … 3 x SCALE_PAIRS - 1 of NAME).
scale_purge_under_load() {
    local label=$1 config=$2 data=$3 name=$4 i alone=() busy=() ratio status purge_pid t0 t1 purge_s ok=1
    echo "  $SCALE_PAIRS undisturbed runs, then up to $SCALE_PAIRS while signet purge runs (started together with the first):"
    for i in $(seq 0 $((SCALE_PAIRS - 1))); do
        scale_load "$label-alone-$i" "$(scale_part "$name" $((SCALE_PAIRS + i)))" 1
        alone+=("$LOAD_RATE")
        [ "$LOAD_OK" = 1 ] || ok=0
    done
    show_cmd "$SIGNET purge --config $config --data $data &   # together with the next load runs"
    t0=$(date +%s.%N)
    ( "$SIGNET" purge --config "$config" --data "$data" >"$WORK/$label-purge.log" 2>&1; date +%s.%N >"$WORK/$label-purge.end" ) &
    purge_pid=$!
    PIDS+=("$purge_pid")
    local late=""
    for i in $(seq 0 $((SCALE_PAIRS - 1))); do
        [ "$i" -gt 0 ] && ! kill -0 "$purge_pid" 2>/dev/null && break
        scale_load "$label-busy-$i" "$(scale_part "$name" $((2 * SCALE_PAIRS + i)))" 1
        [ "$LOAD_OK" = 1 ] || ok=0
        if kill -0 "$purge_pid" 2>/dev/null; then
            busy+=("$LOAD_RATE")
        else
            late=$LOAD_RATE
            break
        fi
    done
    wait "$purge_pid" || true
    t1=$(cat "$WORK/$label-purge.end" 2>/dev/null || date +%s.%N)
    purge_s=$(calc "$t1 - $t0")
    sed 's/^/  | /' "$WORK/$label-purge.log"
    if [ "${#busy[@]}" = 0 ]; then
        echo "  !! the purge took $purge_s s and ended before the first measured window did: the ratio understates its effect"
        busy=("$late")
    else
        echo "  the purge took $purge_s s; ${#busy[@]} run(s) had their whole window under it$([ -n "$late" ] && echo ", one more (not taken) saw it end")"
    fi
    ratio=$(calc "($(median "${alone[@]}") > 0 ? $(median "${busy[@]}") / $(median "${alone[@]}") : 0)")
    status=$(pass_if "$ratio >= 0.8")
    [ "$ok" = 1 ] || status=MISS
    summary_add "  rotations/s during signet purge / alone" \
        "$(printf '%.0f / %.0f = %sx (medians of %d and %d runs)' "$(median "${busy[@]}")" "$(median "${alone[@]}")" "$ratio" "${#busy[@]}" "${#alone[@]}")" \
        ">= 0.80x" "$status"
    summary_add "  signet purge of the expired rows" "$(awk '$1 == "purged" { print $2; exit }' "$WORK/$label-purge.log") rows in $purge_s s" "(info)" info
}

# scale_at_rest LABEL: `sync`, timed. The loader leaves gigabytes of the new file in the kernel's
# page cache not yet written to disk; the server's first checkpoint `fdatasync` of the database
# would then have to write all of it, and the load would measure the seeding's write-back, not the
# serving (at 1 M tokens, session 12: 472 rotations/s and p99 82.5 ms without it, 3,584/s and
# 36.2 ms with it). A database in service is at rest: its pages reached the disk long ago.
scale_at_rest() {
    local t0 t1
    show_cmd "sync   # the seeded file written to disk before it is served"
    t0=$(date +%s.%N)
    sync
    t1=$(date +%s.%N)
    echo "  $1: sync took $(calc "$t1 - $t0") s"
}

section_scale() {
    heading "Scale: Signet on a large database (SQLite: $SCALE_TOKENS live refresh tokens; PostgreSQL: $SCALE_PG_TOKENS)"
    echo "  Wall-clock figures (rates, start-up, seeding, purge and backup times) come from a 2-core machine"
    echo "  shared with other engineers' builds; the server CPU per operation is the steadier figure."
    # Each load phase presents SCALE_SAMPLE seeded tokens of its own (scale_part): SQLite takes
    # 3 x SCALE_PAIRS phases' worth, PostgreSQL one more, plus one token for the rotation proof.
    if [ "$SCALE_TOKENS" -le $((3 * SCALE_PAIRS * SCALE_SAMPLE)) ] ||
       [ "$SCALE_PG_TOKENS" -le $(((3 * SCALE_PAIRS + 1) * SCALE_SAMPLE)) ]; then
        echo "bench.sh: --scale-tokens must exceed 3 x --scale-pairs x --scale-sample and --scale-pg-tokens" \
            "(3 x --scale-pairs + 1) x it ($SCALE_PAIRS, $SCALE_SAMPLE): lower --scale-sample (SCALE_SAMPLE)" >&2
        return 1
    fi
    scale_sqlite
    if compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        scale_postgres
    else
        echo "  PostgreSQL part skipped: no PostgreSQL server binaries (Debian: postgresql)"
    fi
}

scale_sqlite() {
    local dir users expired
    dir=$(mktemp -d /tmp/signet-scale.XXXXXX)   # several GB at 10 million tokens; deleted on exit
    SCRATCH_DIRS+=("$dir")
    users=$((SCALE_TOKENS / 10))
    expired=$((SCALE_EXPIRED_ROWS / 2))
    echo
    echo "  -- SQLite (embedded default). Bulk loader: SignetBench seed opens the data folder through"
    echo "     ServerEnvironment.open (the real migrations) and writes through SQLStores.bulkInsert (the stores'"
    echo "     own INSERTs), token hashes with the installation's key, so the server rotates the seeded tokens."
    echo "     Per live token one grant family; users = tokens / 10, one SSO session per user, one consumed code"
    echo "     per 100 families, one audit event per 10; plus $expired expired families (grant + token: $SCALE_EXPIRED_ROWS rows)."
    scale_config "$dir/config.json" '{"admin": {"listen": []}, "maintenance": {"purge_interval": 0}}'
    # The empty database: only the families the load presents.
    echo "  Empty database (only the $((SCALE_PAIRS * SCALE_SAMPLE)) seeded families its $SCALE_PAIRS load phases present):"
    scale_seed sqlite-empty "$dir/config.json" "$dir/empty" $((SCALE_PAIRS * SCALE_SAMPLE)) 1000 0 $((SCALE_PAIRS * SCALE_SAMPLE)) ||
        return 1
    scale_at_rest "empty database"

    echo "  Seeded database:"
    local t0 t1 bytes
    t0=$SECONDS
    scale_seed sqlite-full "$dir/config.json" "$dir/full" "$SCALE_TOKENS" "$users" "$expired" \
        $((3 * SCALE_PAIRS * SCALE_SAMPLE + 1)) || return 1
    t1=$SECONDS
    # The loader's last checkpoint can find the WAL still read by its background checkpointer;
    # with the loader gone this one copies and truncates it, so the bytes are the database's own.
    sqlite3 "$dir/full/signet.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
    scale_at_rest "seeded database"
    bytes=$(scale_db_bytes "$dir/full")
    local per_token
    per_token=$(calc "$bytes / $SCALE_TOKENS")
    printf '  database: %s bytes (%.2f GiB) for %s live tokens: %s bytes per live token (users, sessions, codes, audit and\n' \
        "$bytes" "$(calc "$bytes / 1073741824")" "$SCALE_TOKENS" "$per_token"
    echo "  the expired rows included); seeding took $((t1 - t0)) s"
    if sqlite3 "$dir/full/signet.db" "SELECT 1 FROM dbstat LIMIT 1" >/dev/null 2>&1; then
        show_cmd "sqlite3 signet.db \"SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC\""
        # One scan (minutes at 10 million tokens); each object's table in the fourth column.
        sqlite3 -separator ' ' "$dir/full/signet.db" \
            "SELECT d.name, SUM(d.pgsize), COUNT(*), COALESCE(m.tbl_name, d.name) FROM dbstat d LEFT JOIN sqlite_master m ON m.name = d.name GROUP BY d.name ORDER BY 2 DESC" \
            >"$WORK/sqlite-dbstat.txt"
        head -n 16 "$WORK/sqlite-dbstat.txt" |
            awk -v n="$SCALE_TOKENS" '{ printf "  | %-32s %14d bytes %10d pages  %6.1f B per live token\n", $1, $2, $3, $2 / n }'
        # The grant families alone (live and expired: grant and token rows with their indexes), so
        # runs with different shares of expired families compare.
        awk -v n="$((SCALE_TOKENS + expired))" -v e="$expired" '$4 == "grants" || $4 == "refresh_tokens" { b += $2 }
            END { printf "  grant families (grants, refresh_tokens and their indexes): %.1f bytes per family (%d of %d expired)\n", b / n, e, n }' \
            "$WORK/sqlite-dbstat.txt"
    fi
    summary_add "SQLite: seeded live tokens; seeding time" "$SCALE_TOKENS; $((t1 - t0)) s" "(info)" info
    summary_add "  database bytes per live token" "$per_token B" "<= 400 B" "$(pass_if "$per_token <= 400")"

    # Both servers at once, so that the pairs alternate between them.
    local empty_pid empty_port
    scale_serve sqlite-empty "$dir/config.json" "$dir/empty" || return 1
    empty_pid=$SIGNET_PID empty_port=$SIGNET_PORT
    scale_serve sqlite-full "$dir/config.json" "$dir/full" || return 1
    scale_proof sqlite-full "$SIGNET_PORT" "$(scale_part sqlite-full $((3 * SCALE_PAIRS)))"
    scale_pairs sqlite-empty "$empty_port" "$empty_pid" sqlite-full "$SIGNET_PORT" "$SIGNET_PID"
    local rss
    rss=$(scale_rss "$SIGNET_PID")
    echo "  server memory after the load: VmRSS ${rss% *} MiB, peak (VmHWM) ${rss#* } MiB (SQLite page cache: the default"
    echo "  cache_size of 2 MiB per connection, at most 1 writer + 8 idle readers; no mmap)"
    scale_compare "SQLite $SCALE_TOKENS tokens"
    summary_add "  server RSS after the load; peak" "${rss% *} MiB; ${rss#* } MiB" "<= 150 MiB" "$(pass_if "${rss#* } <= 150")"
    stop_pid "$empty_pid"
    show_cmd "$BENCH startup-on --signet $SIGNET --data $dir/empty --config $dir/config.json --runs 3"
    "$BENCH" startup-on --signet "$SIGNET" --data "$dir/empty" --config "$dir/config.json" --runs 3 --results "$RESULTS" --key sqlite_empty |
        sed 's/^/  /'
    rm -rf "$dir/empty"
    scale_purge_under_load sqlite-purge "$dir/config.json" "$dir/full" sqlite-full
    stop_pid "$SIGNET_PID"
    echo "  the WAL before the start-up runs (after the purge): $(stat -c %s "$dir/full/signet.db-wal" 2>/dev/null || echo 0) bytes"
    show_cmd "$BENCH startup-on --signet $SIGNET --data $dir/full --config $dir/config.json --runs 3"
    "$BENCH" startup-on --signet "$SIGNET" --data "$dir/full" --config "$dir/config.json" --runs 3 --results "$RESULTS" --key sqlite_scale |
        sed 's/^/  /'
    local startup
    startup=$(result startup.sqlite_scale_ms 2>/dev/null || echo 0)
    summary_add "  start to discovery, seeded db" "$(printf '%.1f ms' "$startup")" "<= 100 ms" "$(pass_if "$startup <= 100")"
    summary_add "  same, empty db (same run)" "$(printf '%.1f ms' "$(result startup.sqlite_empty_ms 2>/dev/null || echo 0)")" "(reference)" info


    show_cmd "time $SIGNET backup --config $dir/config.json --data $dir/full --to $dir/backup.sqlite3"
    t0=$(date +%s.%N)
    "$SIGNET" backup --config "$dir/config.json" --data "$dir/full" --to "$dir/backup.sqlite3" 2>&1 | sed 's/^/  | /'
    t1=$(date +%s.%N)
    local backup_s backup_bytes
    backup_s=$(calc "$t1 - $t0")
    backup_bytes=$(stat -c %s "$dir/backup.sqlite3" 2>/dev/null || echo 0)
    echo "  backup: $backup_s s, $backup_bytes bytes"
    summary_add "  signet backup (full copy, checked)" "$backup_s s, $(calc "$backup_bytes / 1048576") MiB" "(info)" info
    rm -rf "$dir"
}

# scale_pg_sql SQL: one query on the bench database, unaligned, no header.
scale_pg_sql() { psql "$(cat "$WORK/scale-pg.conninfo")" -X -q -A -t -c "$1"; }

# scale_pg_cpu_around before|after: adds the CPU ticks of the PostgreSQL server SCALE_PG_PID and its
# backends between "before" and "after" to SCALE_PG_TICKS (scale_pairs calls it around each run on
# the seeded database, so the empty database's runs on the same cluster are not counted).
scale_pg_cpu_around() {
    if [ "$1" = before ]; then
        SCALE_PG_T0=$(cpu_ticks "$SCALE_PG_PID")
    else
        SCALE_PG_TICKS=$((SCALE_PG_TICKS + $(cpu_ticks "$SCALE_PG_PID") - SCALE_PG_T0))
    fi
}

scale_postgres() {
    local pgdir conninfo pg_pid tokens=$SCALE_PG_TOKENS expired=$((SCALE_PG_TOKENS / 10))
    echo
    echo "  -- PostgreSQL: a throwaway local cluster (scripts/postgres-test-server.sh: Unix socket, fsync off,"
    echo "     synchronous_commit off), with pg_stat_statements loaded to count statements."
    pgdir=$(mktemp -d /tmp/signet-scale-pg.XXXXXX)   # outside $WORK (0700): the server runs as postgres
    PG_DIRS+=("$pgdir")
    conninfo=$(scripts/postgres-test-server.sh start "$pgdir") || { echo "  !! PostgreSQL did not start"; return 1; }
    psql "$conninfo" -X -q -c "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'" >/dev/null
    local bin owner=()
    bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
    [ "$(id -u)" = 0 ] && owner=(runuser -u postgres --)
    "${owner[@]}" "$bin/pg_ctl" --pgdata="$pgdir/data" --wait --silent restart >/dev/null
    psql "$conninfo" -X -q -c "CREATE DATABASE signet_empty" -c "CREATE DATABASE signet_scale" >/dev/null
    pg_pid=$(head -1 "$pgdir/data/postmaster.pid")
    openssl rand -hex 32 >"$WORK/scale-pg.master-key"
    local db
    for db in signet_empty signet_scale; do
        printf '%s' "${conninfo/dbname=postgres/dbname=$db}" >"$WORK/$db.conninfo"
        scale_config "$WORK/$db.json" "$(printf '{"master_key": "file:%s", "database": {"driver": "postgres", "url": "file:%s", "max_connections": 16}, "admin": {"listen": []}, "maintenance": {"purge_interval": 0}}' \
            "$WORK/scale-pg.master-key" "$WORK/$db.conninfo")"
    done
    cp "$WORK/signet_scale.conninfo" "$WORK/scale-pg.conninfo"

    echo "  Empty database (only the $((SCALE_PAIRS * SCALE_SAMPLE)) families its $SCALE_PAIRS load phases present):"
    scale_seed pg-empty "$WORK/signet_empty.json" "$WORK/pg-empty-data" $((SCALE_PAIRS * SCALE_SAMPLE)) 1000 0 \
        $((SCALE_PAIRS * SCALE_SAMPLE)) || return 1

    echo "  Seeded database:"
    local t0 t1 bytes per_token
    t0=$SECONDS
    scale_seed pg-full "$WORK/signet_scale.json" "$WORK/pg-full-data" "$tokens" $((tokens / 10)) "$expired" \
        $(((3 * SCALE_PAIRS + 1) * SCALE_SAMPLE + 1)) || return 1
    t1=$SECONDS
    scale_pg_sql "VACUUM ANALYZE" >/dev/null
    bytes=$(scale_pg_sql "SELECT pg_database_size(current_database())")
    per_token=$(calc "$bytes / $tokens")
    echo "  database: $bytes bytes for $tokens live tokens: $per_token bytes per live token; seeding took $((t1 - t0)) s"
    show_cmd "psql -c \"SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relkind = 'r' ORDER BY 2 DESC LIMIT 6\""
    scale_pg_sql "SELECT relname, pg_total_relation_size(oid) FROM pg_class WHERE relkind = 'r' ORDER BY 2 DESC LIMIT 6" |
        awk -F'|' -v n="$tokens" '{ printf "  | %-24s %12d bytes (with indexes)  %6.1f B per live token\n", $1, $2, $2 / n }'
    summary_add "PostgreSQL: seeded live tokens; seeding time" "$tokens; $((t1 - t0)) s" "(info)" info
    summary_add "  database bytes per live token" "$per_token B" "<= 400 B" "$(pass_if "$per_token <= 400")"

    # Both servers at once, so that the pairs alternate between them.
    local empty_pid empty_port
    scale_serve pg-empty "$WORK/signet_empty.json" "$WORK/pg-empty-data" || return 1
    empty_pid=$SIGNET_PID empty_port=$SIGNET_PORT
    scale_serve pg-full "$WORK/signet_scale.json" "$WORK/pg-full-data" || return 1
    scale_proof pg-full "$SIGNET_PORT" "$(scale_part pg-full $((3 * SCALE_PAIRS + 1)))"
    # Statements per rotation, counted by pg_stat_statements on the seeded database over the pairs'
    # seeded runs, and PostgreSQL's CPU over those runs alone (scale_pg_cpu_around).
    scale_pg_sql "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" >/dev/null
    local before_us
    before_us=$(scale_pg_sql "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
    scale_pg_sql "SELECT pg_stat_statements_reset()" >/dev/null
    SCALE_PG_PID=$pg_pid SCALE_PG_TICKS=0
    SCALE_AROUND_SEEDED=scale_pg_cpu_around scale_pairs pg-empty "$empty_port" "$empty_pid" pg-full "$SIGNET_PORT" "$SIGNET_PID"
    local rotations statements commits rss
    rotations=$(scale_pg_sql "SELECT count(*) FROM refresh_tokens WHERE created_at >= $before_us")
    statements=$(scale_pg_sql "SELECT sum(calls) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'signet_scale') AND query NOT LIKE '%pg_stat_statements%'")
    echo "  pg_stat_statements over the seeded runs ($rotations rotations, warm-ups included): statements per rotation"
    scale_pg_sql "SELECT round(calls::numeric / $rotations, 2), left(regexp_replace(query, '\s+', ' ', 'g'), 110) FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'signet_scale') AND query NOT LIKE '%pg_stat_statements%' ORDER BY calls DESC LIMIT 12" |
        sed 's/^/  | /'
    local per_rotation pg_cpu_us
    per_rotation=$(calc "$statements / $rotations")
    pg_cpu_us=$(calc "$SCALE_PG_TICKS * 1000000 / $TICKS_PER_SECOND / $rotations")
    echo "  statements per rotation by pg_stat_statements: $per_rotation, plus BEGIN and COMMIT (each one libpq round trip);"
    echo "  PostgreSQL CPU per rotation (postmaster and its backends, /proc): $pg_cpu_us us"
    rss=$(scale_rss "$SIGNET_PID")
    scale_compare "PostgreSQL $tokens tokens"
    summary_add "  statements (round trips) per rotation" "$per_rotation (pg_stat_statements, which leaves out BEGIN and COMMIT)" "(info)" info
    summary_add "  PostgreSQL CPU per rotation" "$pg_cpu_us us" "(info)" info
    summary_add "  server RSS after the load; peak" "${rss% *} MiB; ${rss#* } MiB" "<= 150 MiB" "$(pass_if "${rss#* } <= 150")"
    stop_pid "$empty_pid"
    scale_purge_under_load pg-purge "$WORK/signet_scale.json" "$WORK/pg-full-data" pg-full
    stop_pid "$SIGNET_PID"
    show_cmd "$BENCH startup-on --signet $SIGNET --data $WORK/pg-full-data --config $WORK/signet_scale.json --runs 3"
    "$BENCH" startup-on --signet "$SIGNET" --data "$WORK/pg-full-data" --config "$WORK/signet_scale.json" --runs 3 \
        --results "$RESULTS" --key pg_scale | sed 's/^/  /'
    local startup
    startup=$(result startup.pg_scale_ms 2>/dev/null || echo 0)
    summary_add "  start to discovery, seeded db" "$(printf '%.1f ms' "$startup")" "<= 100 ms" "$(pass_if "$startup <= 100")"

    echo "  (signet backup is SQLite's; PostgreSQL installations use pg_dump, timed here for reference)"
    show_cmd "time pg_dump -Fc signet_scale > DUMP"
    t0=$(date +%s.%N)
    pg_dump -Fc "$(cat "$WORK/scale-pg.conninfo")" >"$pgdir.dump" 2>/dev/null || echo "  !! pg_dump failed"
    t1=$(date +%s.%N)
    summary_add "  pg_dump -Fc of the database" "$(calc "$t1 - $t0") s, $(calc "$(stat -c %s "$pgdir.dump") / 1048576") MiB" "(info)" info
    rm -f "$pgdir.dump"

    echo "  (PostgreSQL's own single-row-commit ceiling, with durability on, is the postgres section's: --only postgres)"
    scale_two_nodes "$conninfo" "$(scale_part pg-full $((3 * SCALE_PAIRS)))"
    scripts/postgres-test-server.sh stop "$pgdir"
}

# scale_two_nodes CONNINFO PART: two signet serve on one PostgreSQL behind nginx; the rate, then
# the check that no family has two live tokens.
scale_two_nodes() {
    local conninfo=$1 part=$2 port_a port_b pid_a pid_b nginx_port prefix=$WORK/nginx-2nodes
    echo
    echo "  -- Two Signet nodes (two signet serve, same configuration and master key) on the seeded PostgreSQL"
    echo "     database behind nginx (round robin, keep-alive upstream): consecutive rotations of one chain land"
    echo "     on different nodes. This 2-core machine runs both nodes, nginx, PostgreSQL and the load generator:"
    echo "     it cannot show scale-out, only that two nodes stay correct under load."
    nginx_port=$(free_port)
    port_a=$(free_port)
    port_b=$(free_port)
    local config=$WORK/two-nodes.json
    scale_config "$config" "$(printf '{"issuer": "http://127.0.0.1:%s", "master_key": "file:%s", "database": {"driver": "postgres", "url": "file:%s", "max_connections": 16}, "admin": {"listen": []}, "maintenance": {"purge_interval": 0}}' \
        "$nginx_port" "$WORK/scale-pg.master-key" "$WORK/signet_scale.conninfo")"
    local node
    for node in a b; do
        local port
        [ $node = a ] && port=$port_a || port=$port_b
        show_cmd "$SIGNET serve --config $config --data $WORK/node-$node --listen 127.0.0.1:$port"
        "$SIGNET" serve --config "$config" --data "$WORK/node-$node" --listen "127.0.0.1:$port" >"$WORK/node-$node.log" 2>&1 </dev/null &
        [ $node = a ] && pid_a=$! || pid_b=$!
        PIDS+=("$!")
    done
    wait_http "http://127.0.0.1:$port_a/healthz" 60 && wait_http "http://127.0.0.1:$port_b/healthz" 60 ||
        { cat "$WORK/node-a.log" "$WORK/node-b.log" >&2; return 1; }
    scale_wait_keys "$port_a" && scale_wait_keys "$port_b" || return 1
    start_nginx_balancer "$prefix" "$nginx_port" "$port_a" "$port_b" || return 1
    local nginx_pid=$BALANCER_PID
    scale_load two-nodes "$part" "$WRK_RUNS" "$nginx_port" "$pid_a"
    local live_twice rotated_a rotated_b
    show_cmd "psql -c \"SELECT count(*) FROM (SELECT grant_ref FROM refresh_tokens WHERE rotated_at IS NULL GROUP BY grant_ref HAVING count(*) > 1) f\""
    live_twice=$(scale_pg_sql "SELECT count(*) FROM (SELECT grant_ref FROM refresh_tokens WHERE rotated_at IS NULL GROUP BY grant_ref HAVING count(*) > 1) f")
    echo "  families with more than one live (unrotated) refresh token after the run: $live_twice (must be 0)"
    echo "  (the server CPU per operation above is node a's only)"
    local status
    status=$(pass_if "$live_twice == 0")
    [ "$LOAD_OK" = 1 ] || status=MISS
    summary_add "two nodes + nginx, one PostgreSQL" "$(printf '%.0f/s p50 %.1f p99 %.1f ms' "$LOAD_RATE" "$LOAD_P50" "$LOAD_P99")" "(info: 2 cores, no scale-out)" info
    summary_add "  families with two live tokens" "$live_twice" "0" "$status"
    stop_pid "$nginx_pid"
    stop_pid "$pid_a"
    stop_pid "$pid_b"
}
