# shellcheck shell=bash
# Sourced by scripts that run throwaway nodes. start_node starts `hearth serve` on a free port with a data directory
# under $1 (extra serve flags follow), sets NODE_WORK, NODE_PID and NODE_PORT, and makes sure the node is stopped and
# $1 removed when the script exits; stop_node PID stops one earlier (SIGTERM, then waits for it). cpu_ticks PID…
# prints the user + system CPU ticks each process has used so far, space-separated.
# usage: source scripts/lib/node.sh; start_node "$work" [serve flags…]   (needs $binary set to the hearth binary)

# shellcheck source=scripts/lib/exit-hooks.sh
source "$(dirname "${BASH_SOURCE[0]}")/exit-hooks.sh"

start_node() {
    : "${binary:?set binary to the hearth executable before start_node}"
    NODE_WORK="$1"
    shift
    mkdir -p "$NODE_WORK"
    "$binary" serve --port 0 --data "$NODE_WORK/db" "$@" >"$NODE_WORK/stdout" 2>"$NODE_WORK/stderr" &
    NODE_PID=$!
    on_exit "stop_node $NODE_PID; rm -rf '$NODE_WORK'"
    NODE_PORT=""
    for _ in $(seq 1 100); do
        # The node's shell may not have opened stdout yet.
        NODE_PORT="$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$NODE_WORK/stdout" 2>/dev/null || true)"
        [ -n "$NODE_PORT" ] && return 0
        sleep 0.1
    done
    echo "hearth did not start:" >&2
    cat "$NODE_WORK/stderr" >&2
    exit 1
}

stop_node() {
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

cpu_ticks() {
    local pid
    for pid in "$@"; do awk '{printf "%d ", $14 + $15}' "/proc/$pid/stat"; done
}
