#!/usr/bin/env bash
# usage: scripts/bench-stars.sh [seconds] [clients]
# Issue 7's star targets in one run. The docs' fan-out star on one hot post (posts/p1/stars/<uid> = true and
# posts/p1/starCount += 1, the same under user-posts/author/p1: 4 paths over 2 shards, one atomic write), sent by
# `clients` (64) connections with one star in flight each, for `seconds` (10) per phase:
#   1. Redis 7 as one Lua EVAL, AOF on with appendfsync everysec: from redis-benchmark, then from the node driver
#      that also drives the wire phases (shows that driver's own ceiling); ratios divide by the better of the two;
#   2. Hearth REST with wrk: PATCH /.json, then the same 4-path star with both copies in one shard;
#   3. Hearth realtime protocol with the node driver: one `m` (update) at "/", then the same with one shard;
#   4. each transport's ceiling: a round trip with (almost) no database work (REST: GET of an absent node;
#      wire: the stats message `s`).
# Each Hearth phase runs on a fresh release-built node with --fsync batch; after each phase the stored starCount and
# stars are checked against the stars the load generator saw acknowledged (see scripts/stars-bench.js). Prints a
# Markdown table (stars/s, p50/p99, ratio to Redis) and the verdict on each target; exits 1 if a count check fails.
# Needs node 20+ and python3; installs redis-server, redis-tools and wrk from Debian when missing (test tools only).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
clients="${2:-64}"

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
swift build -c release --product hearth >/dev/null
binary="$(swift build -c release --show-bin-path)/hearth"
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh
# shellcheck source=scripts/lib/redis.sh
source scripts/lib/redis.sh
work="$(mktemp -d)"
on_exit "rm -rf '$work'"
results="$work/results.jsonl"
stars() {
    echo "== $1 $3 ($clients connections, ${seconds}s)"
    node --experimental-websocket --no-warnings scripts/stars-bench.js "$1" "$2" "$3" "$clients" "$seconds" >>"$results"
}

start_redis "$work/redis" --appendonly yes --appendfsync everysec
stars redis-benchmark "$REDIS_PORT" multi
redis-cli -p "$REDIS_PORT" flushall >/dev/null
stars redis "$REDIS_PORT" multi
redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true

for phase in "rest multi" "rest single" "rest noop" "wire multi" "wire single" "wire noop"; do
    read -r target shape <<<"$phase"
    start_node "$work/node-$target-$shape" --fsync batch --log-level warning
    stars "$target" "$NODE_PORT" "$shape"
    stop_node "$NODE_PID"
done
node scripts/stars-report.js "$results"
