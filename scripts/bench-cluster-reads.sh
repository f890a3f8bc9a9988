#!/usr/bin/env bash
# usage: scripts/bench-cluster-reads.sh [seconds] [connections] [binary]
# REST GET throughput and latency on a 3-node cluster on loopback (16 shards, shard depth 2), with wrk (installed
# from Debian if missing): one small node read through each node in turn (its shard's leader or not), then a shallow
# read of the spine above it through n2 (a read of every shard). Every read waits for its shards' read index
# (docs/consistency.md, promise 5). `binary` defaults to a release build of this checkout; pass another build's
# binary to compare.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
connections="${2:-64}"
binary="${3:-}"

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
if [ -z "$binary" ]; then
    swift build -c release --product hearth >/dev/null
    binary="$(swift build -c release --show-bin-path)/hearth"
fi
# shellcheck source=scripts/lib/exit-hooks.sh
source scripts/lib/exit-hooks.sh
work="$(mktemp -d)"
on_exit "rm -rf '$work'"

read -r -a ports <<<"$(python3 -c 'import socket
s=[socket.socket() for _ in range(6)]
[x.bind(("127.0.0.1",0)) for x in s]
print(" ".join(str(x.getsockname()[1]) for x in s))')"
# The secret the nodes prove to each other, and the administrators' one `hearth cluster` sends (mode 600).
(umask 077 && for name in cluster admin; do head -c 32 /dev/urandom | base64 >"$work/$name.secret"; done)
cat >"$work/cluster.json" <<JSON
{"name": "reads", "shards": 16, "replicationFactor": 3, "shardDepth": 2,
  "rules": "$PWD/cluster-config/development.rules.json",
  "secretFile": "$work/cluster.secret", "databaseSecretFile": "$work/admin.secret", "nodes": [
  {"id": "n1", "host": "127.0.0.1", "httpPort": ${ports[0]}, "peerPort": ${ports[3]}},
  {"id": "n2", "host": "127.0.0.1", "httpPort": ${ports[1]}, "peerPort": ${ports[4]}},
  {"id": "n3", "host": "127.0.0.1", "httpPort": ${ports[2]}, "peerPort": ${ports[5]}}]}
JSON
for i in 1 2 3; do
    "$binary" serve --config "$work/cluster.json" --node "n$i" --data "$work/n$i" --log-level warning \
        >"$work/n$i.out" 2>"$work/n$i.err" &
    on_exit "kill $! 2>/dev/null || true"
done
for port in "${ports[@]:0:3}"; do
    for _ in $(seq 1 300); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/.ready")" = 200 ] && break
        sleep 0.1
    done
done
curl -sf -X PUT -d '{"n":1,"text":"hello hearth"}' "http://127.0.0.1:${ports[0]}/bench/c1/value.json" >/dev/null

for i in 0 1 2; do
    echo "== GET of one small node through n$((i + 1)), $connections connections, ${seconds}s"
    wrk -t2 -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:${ports[$i]}/bench/c1/value.json"
done
echo "== shallow GET of the spine /bench (every shard) through n2, $connections connections, ${seconds}s"
wrk -t2 -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:${ports[1]}/bench.json?shallow=true"
