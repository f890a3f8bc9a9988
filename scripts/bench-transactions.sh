#!/usr/bin/env bash
# usage: scripts/bench-transactions.sh [rounds] [seconds]
# Issue 7's contention targets, against one fresh release-built node (--fsync batch):
#   (a) realtime protocol: 16 and then 64 contenders, each a wire session following the official JS SDK's
#       transaction algorithm (scripts/lib/sdk-transaction.js), in waves of one transaction each, until `rounds`
#       (1000) transactions have committed or `seconds` (30) have passed: the docs' toggleStar on /posts/p1, then
#       an increment at /counter (depth 1, shallower than the shard depth: an all-shard "spine" transaction) and
#       at /counters/c1 (depth 2). Target: no transaction needs more attempts than there are contenders.
#   (b) REST: the official firebase-admin Python SDK (installed into .venv), 8 threads x 50 transaction()
#       increments on /counter and on /counters/c1. Target: no abort.
# Every phase checks the final value is exact; the script exits 1 when one is not (missed targets are reported).
# Needs node 20+ (WebSocket) and python3 with venv.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-1000}"
seconds="${2:-30}"

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install --quiet --disable-pip-version-check "firebase-admin==7.7.0"
swift build -c release --product hearth >/dev/null
binary="$(swift build -c release --show-bin-path)/hearth"
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh
start_node "$(mktemp -d)" --fsync batch --log-level warning
port="$NODE_PORT"

status=0
for location in "/posts/p1 toggle" "/counter increment" "/counters/c1 increment"; do
    read -r path mode <<<"$location"
    for contenders in 16 64; do
        echo "== (a) wire: $contenders contenders, JS SDK transaction algorithm, $mode at $path"
        node --experimental-websocket --no-warnings scripts/txn-bench.js \
            "$port" "$contenders" "$rounds" "$path" "$mode" "$seconds" || status=1
    done
done
echo "== (b) REST: firebase-admin (Python) transaction(), 8 threads x 50"
.venv/bin/python scripts/admin-transactions.py "$port" 8 50 /counter /counters/c1 || status=1
exit "$status"
