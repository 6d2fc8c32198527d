#!/usr/bin/env bash
# bench/scale-purge-ab.sh TOKENS EXPIRED SIGNET... (SAMPLE=60000, REST=9, ROUNDS=1; needs sqlite3):
# SQLite only. Seeds TOKENS live and EXPIRED expired families once (with the first SIGNET and
# $BENCH, default the release SignetBench beside it), then for each round and each SIGNET binary
# serves a fresh copy of that database: 2 x 5 s of seeded rotations undisturbed, then 2 x 5 s while
# `SIGNET purge --rest $REST` runs (started with the load, stopped after it). Prints each rate,
# p99 and server CPU per rotation, the ratio, and how many grant families the purge deleted in the
# window. Compares binaries (or purge paces) on the same data; the scale section measures the one.
set -u
TOKENS=$1 EXPIRED=$2; shift 2
SAMPLE=${SAMPLE:-60000} REST=${REST:-9} ROUNDS=${ROUNDS:-1}
BENCH=${BENCH:-$(dirname "$1")/SignetBench}
dir=$(mktemp -d /tmp/signet-purge-ab.XXXXXX); trap 'rm -rf "$dir"' EXIT
echo '{"admin": {"listen": []}, "maintenance": {"purge_interval": 0}}' > $dir/config.json
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
val() { awk -v k="$2" '$1 == k { v = $2 } END { print v }' "$1"; }
families() { sqlite3 "$1/signet.db" "SELECT COUNT(*) FROM grants"; }
"$1" clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback --scope 'openid profile email offline_access' --config $dir/config.json --data $dir/seed > /dev/null 2>&1
"$BENCH" seed --config $dir/config.json --data $dir/seed --tokens $TOKENS --users $((TOKENS/10)) --expired $EXPIRED --sample $((2*SAMPLE+1)) --sample-file $dir/sample --results $dir/res.seed 2>&1 | tail -1
split -d -l $SAMPLE $dir/sample $dir/part.
sqlite3 $dir/seed/signet.db "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null; sync
seeded=$(families $dir/seed)
for round in $(seq $ROUNDS); do
  for signet in "$@"; do
    rm -rf $dir/run; cp -a $dir/seed $dir/run; sync
    p=$(port); "$signet" serve --config $dir/config.json --data $dir/run --listen 127.0.0.1:$p > $dir/serve.log 2>&1 < /dev/null & pid=$!
    for i in $(seq 600); do [ "$(curl -s http://127.0.0.1:$p/jwks.json | grep -o '"kid"' | wc -l)" -ge 2 ] && break; sleep 0.1; done
    "$BENCH" load --scenario refresh-noid --seeded-tokens $dir/part.00 --connections 16 --seconds 5 --runs 2 --port $p --server-pid $pid --results $dir/res.alone --key alone > $dir/alone.out 2>&1
    "$signet" purge --rest $REST --config $dir/config.json --data $dir/run > $dir/purge.out 2>&1 & ppid=$!
    "$BENCH" load --scenario refresh-noid --seeded-tokens $dir/part.01 --connections 16 --seconds 5 --runs 2 --port $p --server-pid $pid --results $dir/res.busy --key busy > $dir/busy.out 2>&1
    kill $ppid 2>/dev/null; wait $ppid 2>/dev/null; kill $pid; wait $pid 2>/dev/null
    a=$(val $dir/res.alone load.alone.rate); b=$(val $dir/res.busy load.busy.rate)
    printf 'round %s %s: alone %.0f/s p99 %.1f ms cpu %.0f us | during purge %.0f/s p99 %.1f ms cpu %.0f us | ratio %s | families purged in the window %s | load %s\n' \
      $round "$signet" "$a" "$(val $dir/res.alone load.alone.p99_ms)" "$(val $dir/res.alone load.alone.server_cpu_us)" \
      "$b" "$(val $dir/res.busy load.busy.p99_ms)" "$(val $dir/res.busy load.busy.server_cpu_us)" \
      "$(python3 -c "print(round(${b:-0}/${a:-1},2))")" $((seeded - $(families $dir/run))) "$(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
