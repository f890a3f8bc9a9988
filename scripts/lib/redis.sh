# shellcheck shell=bash
# Sourced by benchmark scripts that compare with Redis. start_redis starts a throwaway redis-server on a free
# loopback port with its files under $1 and the given extra options (e.g. --appendonly yes --appendfsync everysec),
# sets REDIS_PORT and REDIS_PID, and stops it and removes $1 when the script exits. Installs redis-server and
# redis-tools from Debian when missing (a test tool here, never a runtime dependency of hearth).
# usage: source scripts/lib/redis.sh; start_redis "$dir" [redis-server options…]

# shellcheck source=scripts/lib/exit-hooks.sh
source "$(dirname "${BASH_SOURCE[0]}")/exit-hooks.sh"

start_redis() {
    local dir="$1"
    shift
    if ! command -v redis-server >/dev/null || ! command -v redis-cli >/dev/null; then
        apt-get update -qq && apt-get install -y -qq redis-server redis-tools >/dev/null
    fi
    mkdir -p "$dir"
    REDIS_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$dir" --save '' --daemonize no \
        --logfile "$dir/redis.log" "$@" &
    REDIS_PID=$!
    on_exit "kill $REDIS_PID 2>/dev/null; wait $REDIS_PID 2>/dev/null; rm -rf '$dir'"
    for _ in $(seq 1 100); do
        [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ] && return 0
        sleep 0.1
    done
    echo "redis-server did not start:" >&2
    cat "$dir/redis.log" >&2
    exit 1
}
