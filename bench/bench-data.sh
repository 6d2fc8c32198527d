# bench/bench-data.sh, sourced by bench/cpu-ab.sh and bench/callgrind-ops.sh: the data folder the
# load scenarios expect, as scripts/bench.sh's start_oauth_server sets it up.
#
# populate BIN DATA: with DATA.json as the configuration, adds the user bench@example.com (its
# password in DATA.password), the public first-party client bench-app and the confidential client
# bench-service (its secret in DATA.secret) to the data folder DATA.
populate() {
    local bin=$1 data=$2
    head -c 18 /dev/urandom | base64 | tr '+/' '-_' >"$data.password"
    "$bin" users add bench@example.com --password-stdin --config "$data.json" --data "$data" <"$data.password" >/dev/null
    "$bin" clients add bench-app --public --first-party --redirect-uri http://127.0.0.1/callback \
        --scope "openid profile email offline_access" --config "$data.json" --data "$data" >/dev/null
    "$bin" clients add bench-service --confidential --grant-type client_credentials --scope api \
        --config "$data.json" --data "$data" 2>/dev/null | awk '/^client_secret:/ { print $2 }' >"$data.secret"
}

# load_args PORT DATA: sets ARGS, the `SignetBench load` options for a server on PORT serving DATA.
load_args() {
    ARGS=(--port "$1" --client bench-app --redirect-uri http://127.0.0.1/callback
          --email bench@example.com --password-file "$2.password"
          --confidential-client bench-service --secret-file "$2.secret")
}

# wait_serving PORT SECONDS: returns once the server on PORT answers /healthz and its signing keys
# exist, waiting up to SECONDS for each. /healthz answers while the first start still generates
# the keys on a background thread (RSA-2048: ~170 ms idle, seconds under load or under valgrind);
# /jwks.json waits for them, so a load (and its CPU window) starts after the key generation.
wait_serving() {
    local port=$1 seconds=$2
    for _ in $(seq $((seconds * 20))); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/healthz")" = 200 ] && break
        sleep 0.05
    done
    curl -s -o /dev/null --max-time "$seconds" "http://127.0.0.1:$port/jwks.json"
}
