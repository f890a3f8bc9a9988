# shellcheck shell=bash
# Sourced by scripts that run a throwaway node. Defines start_node, which starts `hearth serve` on a free port with
# a data directory under $1 (extra serve flags follow), sets NODE_WORK, NODE_PID and NODE_PORT, and stops the node on exit.
# usage: source scripts/lib/node.sh; start_node "$work" [serve flags…]   (needs $binary set to the hearth binary)

start_node() {
    NODE_WORK="$1"
    shift
    "$binary" serve --port 0 --data "$NODE_WORK/db" "$@" >"$NODE_WORK/stdout" 2>"$NODE_WORK/stderr" &
    NODE_PID=$!
    trap 'kill "$NODE_PID" 2>/dev/null || true; wait "$NODE_PID" 2>/dev/null || true; rm -rf "$NODE_WORK"' EXIT
    NODE_PORT=""
    for _ in $(seq 1 100); do
        NODE_PORT="$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$NODE_WORK/stdout")"
        [ -n "$NODE_PORT" ] && return 0
        sleep 0.1
    done
    echo "hearth did not start:" >&2
    cat "$NODE_WORK/stderr" >&2
    exit 1
}
