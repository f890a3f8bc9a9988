# shellcheck shell=bash
# Sourced by benchmark scripts that run a throwaway 3-node cluster. start_cluster starts three `hearth serve` nodes
# of one cluster (16 shards in 1 Raft group, replication factor 3, `--fsync batch`) on free loopback ports with their
# data under $1, waits until every group has a leader and leadership has settled on the preferred leaders, and sets
# CLUSTER_NODES (their HTTP addresses, comma-separated, for `hearth bench stars --nodes`), CLUSTER_PORTS (their HTTP
# ports, comma-separated) and CLUSTER_PIDS; stop_cluster stops them (also run when the script exits). free_ports N
# prints N free loopback ports.
# $HEARTH_SHARDS sets the shard count instead of 16; $HEARTH_GROUPS the Raft groups they are spread over instead of 1
# (one group, as etcd keeps one log: the docs' star is one entry, no two-phase commit), or `none` to leave the
# configuration's `groups` out (one group per shard). A binary of a release before `groups` refuses the key: its
# cluster runs with one group per shard, the only layout it has (so before/after comparisons run each build's own).
# usage: source scripts/lib/cluster.sh; start_cluster "$work"   (needs $binary set to the hearth binary)

# shellcheck source=scripts/lib/exit-hooks.sh
source "$(dirname "${BASH_SOURCE[0]}")/exit-hooks.sh"

free_ports() {
    python3 -c 'import socket, sys
s = [socket.socket() for _ in range(int(sys.argv[1]))]
[x.bind(("127.0.0.1", 0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))' "$1"
}

start_cluster() {
    : "${binary:?set binary to the hearth executable before start_cluster}"
    local work="$1" i ports
    mkdir -p "$work"
    read -r -a ports <<<"$(free_ports 6)"
    # The secret the nodes prove to each other, and the administrators' one `hearth cluster` sends (mode 600).
    (umask 077 && for name in cluster admin; do head -c 32 /dev/urandom | base64 >"$work/$name.secret"; done)
    local groups=""
    [ "${HEARTH_GROUPS:-1}" = none ] || groups="\"groups\": ${HEARTH_GROUPS:-1}, "
    echo '{"nodes": [{"id": "n1", "host": "127.0.0.1", "httpPort": 1, "peerPort": 2}], "replicationFactor": 1,
        "groups": 1}' >"$work/probe.json"
    if [ -n "$groups" ] && [[ "$("$binary" cluster status --config "$work/probe.json" 2>&1 || true)" == \
        *"groups is not a configuration key"* ]]; then
        echo "start_cluster: $binary predates the configuration's groups: one Raft group per shard" >&2
        groups=""
    fi
    cat >"$work/cluster.json" <<JSON
{"name": "stars", "shards": ${HEARTH_SHARDS:-16}, ${groups}"replicationFactor": 3,
  "rules": "$PWD/cluster-config/development.rules.json",
  "secretFile": "$work/cluster.secret", "databaseSecretFile": "$work/admin.secret", "nodes": [
  {"id": "n1", "host": "127.0.0.1", "httpPort": ${ports[0]}, "peerPort": ${ports[3]}},
  {"id": "n2", "host": "127.0.0.1", "httpPort": ${ports[1]}, "peerPort": ${ports[4]}},
  {"id": "n3", "host": "127.0.0.1", "httpPort": ${ports[2]}, "peerPort": ${ports[5]}}]}
JSON
    CLUSTER_PIDS=()
    for i in 1 2 3; do
        "$binary" serve --config "$work/cluster.json" --node "n$i" --data "$work/n$i" --fsync batch \
            --log-level warning >"$work/n$i.out" 2>"$work/n$i.err" &
        CLUSTER_PIDS+=("$!")
    done
    on_exit "stop_cluster"
    "$binary" cluster wait --config "$work/cluster.json" --within 60 >/dev/null
    # Let leadership settle on the preferred leaders (they move every 3 s once caught up).
    sleep 8
    CLUSTER_PORTS="${ports[0]},${ports[1]},${ports[2]}"
    CLUSTER_NODES="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}"
}

stop_cluster() {
    local pid
    for pid in "${CLUSTER_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${CLUSTER_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    CLUSTER_PIDS=()
}
