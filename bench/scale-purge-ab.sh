#!/usr/bin/env bash
# bench/scale-purge-ab.sh SIGNET BENCH TOKENS EXPIRED REST... (SAMPLE=60000, ROUNDS=1): SQLite only.
# Seeds TOKENS live and EXPIRED expired families once, then for each round and each purge rest
# factor (`signet purge --rest R`) serves a fresh copy of that database: 2 x 5 s of seeded
# rotations undisturbed, then 2 x 5 s while `signet purge --rest R` runs (started with the load).
# Prints each rate, the ratio, and whether the purge was still running when the window ended.
set -u
SIGNET=$1 BENCH=$2 TOKENS=$3 EXPIRED=$4; shift 4
SAMPLE=${SAMPLE:-60000} ROUNDS=${ROUNDS:-1}
dir=$(mktemp -d /tmp/signet-purge-ab.XXXXXX); trap 'rm -rf "$dir"' EXIT
echo '{"admin": {"listen": []}, "maintenance": {"purge_interval": 0}}' > $dir/config.json
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
val() { awk -v k="$2" '$1 == k { v = $2 } END { print v }' "$1"; }
$SIGNET clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback --scope 'openid profile email offline_access' --config $dir/config.json --data $dir/seed > /dev/null 2>&1
$BENCH seed --config $dir/config.json --data $dir/seed --tokens $TOKENS --users $((TOKENS/10)) --expired $EXPIRED --sample $((2*SAMPLE+1)) --sample-file $dir/sample --results $dir/res.seed 2>&1 | tail -1
split -d -l $SAMPLE $dir/sample $dir/part.
sqlite3 $dir/seed/signet.db "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null; sync
echo "uptime: $(uptime)"
for round in $(seq $ROUNDS); do
  for rest in "$@"; do
    rm -rf $dir/run; cp -a $dir/seed $dir/run; sync
    p=$(port); $SIGNET serve --config $dir/config.json --data $dir/run --listen 127.0.0.1:$p > $dir/serve.log 2>&1 < /dev/null & pid=$!
    for i in $(seq 600); do [ "$(curl -s http://127.0.0.1:$p/jwks.json | grep -o '"kid"' | wc -l)" -ge 2 ] && break; sleep 0.1; done
    $BENCH load --scenario refresh-noid --seeded-tokens $dir/part.00 --connections 16 --seconds 5 --runs 2 --port $p --server-pid $pid --results $dir/res.alone --key alone > $dir/alone.out 2>&1
    t0=$(date +%s.%N)
    ( $SIGNET purge --rest $rest --config $dir/config.json --data $dir/run > $dir/purge.out 2>&1; date +%s.%N > $dir/purge.end ) & ppid=$!
    $BENCH load --scenario refresh-noid --seeded-tokens $dir/part.01 --connections 16 --seconds 5 --runs 2 --port $p --server-pid $pid --results $dir/res.busy --key busy > $dir/busy.out 2>&1
    still=no; kill -0 $ppid 2>/dev/null && still=yes
    wait $ppid
    t1=$(cat $dir/purge.end)
    a=$(val $dir/res.alone load.alone.rate); b=$(val $dir/res.busy load.busy.rate)
    echo "round $round rest $rest: alone ${a}/s p99 $(val $dir/res.alone load.alone.p99_ms) ms, cpu $(val $dir/res.alone load.alone.server_cpu_us) us | during purge ${b}/s p99 $(val $dir/res.busy load.busy.p99_ms) ms, cpu $(val $dir/res.busy load.busy.server_cpu_us) us | ratio $(python3 -c "print(round(${b:-0}/${a:-1},2))") | purge still running at the window's end: $still; $(cat $dir/purge.out | tr '\n' ' ') in $(python3 -c "print(round($t1-$t0,1))") s | load $(cut -d' ' -f1-3 /proc/loadavg)"
    kill $pid; wait $pid 2>/dev/null
  done
done
