#!/usr/bin/env bash
# bench/scale-sqlite-ab.sh SIGNET BENCH TOKENS LABEL (SAMPLE=60000 sample families per phase): SQLite only: empty (sample families) vs seeded TOKENS; prints rate/p99/cpu and bytes.
set -u
SIGNET=$1 BENCH=$2 TOKENS=$3 LABEL=$4
SAMPLE=${SAMPLE:-60000}
dir=$(mktemp -d /tmp/signet-scale-ab.XXXXXX); trap 'rm -rf "$dir"' EXIT
echo '{"admin": {"listen": []}, "maintenance": {"purge_interval": 0}}' > $dir/config.json
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
seed() { # name tokens users expired samples
  $SIGNET clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback --scope 'openid profile email offline_access' --config $dir/config.json --data $dir/$1 > /dev/null 2>&1
  $BENCH seed --config $dir/config.json --data $dir/$1 --tokens $2 --users $3 --expired $4 --sample $5 --sample-file $dir/$1.sample --results $dir/res.$1 2>&1 | tail -2
  split -d -l $SAMPLE $dir/$1.sample $dir/$1.part.
}
run() { # name part runs
  p=$(port); $SIGNET serve --config $dir/config.json --data $dir/$1 --listen 127.0.0.1:$p > $dir/$1.log 2>&1 < /dev/null & pid=$!
  for i in $(seq 600); do [ "$(curl -s http://127.0.0.1:$p/jwks.json | grep -o '"kid"' | wc -l)" -ge 2 ] && break; sleep 0.1; done
  $BENCH load --scenario refresh-noid --seeded-tokens $dir/$1.part.$2 --connections 16 --seconds 5 --runs $3 --port $p --server-pid $pid --results $dir/res.load.$1 --key $1 2>&1 | grep -E 'rate|p99|cpu|/s' | tail -3
  kill $pid; wait $pid 2>/dev/null
}
echo "== $LABEL empty"; seed empty $SAMPLE 1000 0 $SAMPLE; sync; run empty 00 2
echo "== $LABEL seeded $TOKENS"; seed full $TOKENS $((TOKENS/10)) 0 $((2*SAMPLE+1))
sqlite3 $dir/full/signet.db "PRAGMA wal_checkpoint(TRUNCATE)" > /dev/null; sync
b=$(du -cb $dir/full/signet.db* | awk 'END{print $1}'); echo "bytes per live token: $(python3 -c "print(round($b/$TOKENS,1))")"
sqlite3 -separator ' ' $dir/full/signet.db "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 12" 2>/dev/null | awk -v t=$TOKENS '{printf "  %s %.1f B/token\n", $1, $2/t}'
run full 00 2
