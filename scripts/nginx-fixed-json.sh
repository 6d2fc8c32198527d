#!/usr/bin/env bash
# nginx-fixed-json.sh start|stop DIR PORT
# Runs nginx (as the current user, private prefix DIR, no access log) serving
#   GET /hello -> 200 {"hello":"world"} (application/json) on 127.0.0.1:PORT
# as a reference point for scripts/bench-http.sh. `stop` kills it by its PID and removes DIR.
set -euo pipefail
ACTION=${1:?usage: $0 start|stop DIR PORT}; DIR=${2:?DIR}; PORT=${3:-8091}
NGINX=/usr/sbin/nginx
case $ACTION in
start)
  mkdir -p "$DIR/logs" "$DIR/tmp"
  cat >"$DIR/nginx.conf" <<CONF
worker_processes auto;
daemon on;
pid $DIR/nginx.pid;
error_log $DIR/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 100000;
  client_body_temp_path $DIR/tmp/body;
  proxy_temp_path $DIR/tmp/proxy;
  fastcgi_temp_path $DIR/tmp/fastcgi;
  uwsgi_temp_path $DIR/tmp/uwsgi;
  scgi_temp_path $DIR/tmp/scgi;
  server {
    listen 127.0.0.1:$PORT;
    location = /hello { default_type application/json; return 200 '{"hello":"world"}'; }
  }
}
CONF
  "$NGINX" -p "$DIR" -c "$DIR/nginx.conf" -e "$DIR/logs/error.log"
  for _ in $(seq 50); do [ -s "$DIR/nginx.pid" ] && break; sleep 0.1; done
  [ -s "$DIR/nginx.pid" ] || { echo "nginx did not start; see $DIR/logs/error.log" >&2; exit 1; }
  echo "nginx pid $(cat "$DIR/nginx.pid") on http://127.0.0.1:$PORT/hello"
  ;;
stop)
  if [ -s "$DIR/nginx.pid" ]; then
    pid=$(cat "$DIR/nginx.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -rf "$DIR"
  ;;
*) echo "usage: $0 start|stop DIR PORT" >&2; exit 2 ;;
esac
