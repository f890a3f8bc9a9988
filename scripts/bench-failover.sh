#!/usr/bin/env bash
# usage: scripts/bench-failover.sh [kills] [seconds down]
# Issue 8's failover and catch-up figures on a 3-node release-built cluster (scripts/failover-bench.py): the leader
# of a random shard is SIGKILLed `kills` (20) times while writers keep writing to every shard through every node;
# each time, the time from the kill to the next acknowledged write on each shard it led, and, after it was down for
# `seconds down` (3) and restarted from its data, the time until its /.ready says it caught up. Every acknowledged
# write is checked on every node at the end. Prints a JSON line and a Markdown table; exits 1 if a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-20}"
down="${2:-3}"
swift build -c release --product hearth >/dev/null
binary="$(swift build -c release --show-bin-path)/hearth"
work="$(mktemp -d)"
# The nodes' logs stay when the run fails, for a look at what went wrong.
if python3 scripts/failover-bench.py "$binary" "$work" --kills "$kills" --down "$down"; then
    rm -rf "$work"
else
    echo "the nodes' data and logs are in $work" >&2
    exit 1
fi
