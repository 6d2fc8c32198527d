#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the store contract tests.
#
#   scripts/postgres-test-server.sh start DIR   creates the cluster in DIR (an empty directory),
#                                               starts it, prints its libpq connection string
#   scripts/postgres-test-server.sh stop DIR    stops it and deletes DIR
#   scripts/postgres-test-server.sh pause DIR   stops it, keeping DIR (a database outage in a test)
#   scripts/postgres-test-server.sh resume DIR  starts the paused cluster again
#
# The server listens on no TCP port at all: only on a Unix socket in DIR. Trust authentication
# (the socket is in a 0700 directory), fsync off: the data is thrown away. PostgreSQL refuses to
# run as root, so as root the server runs as the `postgres` user.
set -euo pipefail
cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|pause|resume DIR" >&2; exit 2; }
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$bin/initdb" ] || { echo "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
start_server() {
  as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --silent start \
    -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c port=5432 -c fsync=off \
        -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    || { cat "$dir/server.log" >&2; exit 1; }
}
case "$cmd" in
  start)
    mkdir -p "$dir"
    chmod 700 "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    as_owner "$bin/initdb" --pgdata="$dir/data" --username=postgres --auth=trust --encoding=UTF8 \
      --locale=C --no-sync >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # Port 5432 is only the socket file's name (.s.PGSQL.5432 in DIR); nothing listens on TCP.
    start_server
    echo "host=$dir port=5432 user=postgres dbname=postgres"
    ;;
  pause)
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --wait --silent --mode=fast stop
    ;;
  resume)
    start_server
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" --pgdata="$dir/data" --wait --silent --mode=immediate stop || true
    fi
    rm -rf "$dir"
    ;;
  *) echo "usage: $0 start|stop|pause|resume DIR" >&2; exit 2 ;;
esac
