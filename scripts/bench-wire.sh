#!/usr/bin/env bash
# usage: scripts/bench-wire.sh
# Realtime-protocol benchmarks against a fresh release-built node: pipelined puts over 1 and 64 connections (plain,
# and named as Hearth's client names its writes), fan-out of a write to 1,000 listeners, and memory per idle
# WebSocket connection (10,000 sockets).
# Needs node (v20+, for --experimental-websocket).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product hearth >/dev/null
binary="$(swift build -c release --show-bin-path)/hearth"
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh
start_node "$(mktemp -d)" --log-level warning
port="$NODE_PORT"
server="$NODE_PID"
bench() { node --experimental-websocket --no-warnings scripts/wire-bench.js "$port" "$@"; }
echo "== pipelined puts, 1 connection x 20000";  bench puts 1 20000
echo "== pipelined puts, 64 connections x 500";  bench puts 64 500
echo "== the same, each put named (origin)";      bench named-puts 64 500
echo "== named puts, 1 connection x 20000";      bench named-puts 1 20000
echo "== fan-out: 1 write -> 1000 listeners, 200 writes"; bench fanout 1000 200
echo "== idle connections: 10000";               bench idle 10000 "$server"
