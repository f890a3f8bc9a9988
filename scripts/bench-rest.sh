#!/usr/bin/env bash
# usage: scripts/bench-rest.sh [seconds] [connections]
# REST PUT and GET throughput and latency against a fresh release-built node, with wrk (installed from Debian if
# missing). Prints wrk's summary with latency percentiles for each phase.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
connections="${2:-64}"

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk; }
swift build -c release --product hearth >/dev/null
binary="$(swift build -c release --show-bin-path)/hearth"
work="$(mktemp -d)"
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh
start_node "$work" --log-level warning
port="$NODE_PORT"

# Each connection writes its own keys so the load spreads over shards: PUT /bench/<thread>-<n>/value.json
cat >"$work/put.lua" <<'LUA'
local counter = 0
request = function()
    counter = counter + 1
    local body = '{"n":' .. counter .. ',"text":"hello hearth"}'
    return wrk.format("PUT", "/bench/c" .. (counter % 1000) .. "/value.json", {["Content-Type"] = "application/json"}, body)
end
LUA
echo "== PUT (fsync=batch), $connections connections, ${seconds}s"
wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$work/put.lua" "http://127.0.0.1:$port"
echo "== GET of one small node, $connections connections, ${seconds}s"
wrk -t2 -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:$port/bench/c1/value.json"
echo "== GET of a 1000-child list, $connections connections, ${seconds}s"
wrk -t2 -c"$connections" -d"${seconds}s" --latency "http://127.0.0.1:$port/bench.json?orderBy=%22%24key%22&limitToFirst=10"
