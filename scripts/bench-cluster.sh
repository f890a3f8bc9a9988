#!/usr/bin/env bash
# usage: scripts/bench-cluster.sh [seconds] [clients]
# Issue 8's throughput figures in one run, each read as a ratio to etcd measured minutes apart on the same machine:
#   1. etcd: a 3-member etcd (Debian's etcd-server) on loopback, `etcdctl check perf --load=l` (500 clients asking
#      for 8,000 puts/s for 60 s); its achieved writes/s is the peer figure;
#   2. Hearth: a 3-node release-built cluster on loopback (`--fsync batch`), the docs' star (4 paths over 2 shards,
#      one atomic update with increments) from `clients` (64) realtime-protocol connections spread over the three
#      nodes for `seconds` (10), and a single node for reference. After each phase the stored counts are checked
#      against the acknowledged stars (scripts/stars-bench.js).
# Each phase also records the CPU time (user + system, from /proc) its server processes used per star or put: on a
# machine whose cores are all busy, that is what bounds throughput.
# Prints the JSON lines and a Markdown table with the ratio to etcd; exits 1 if a count check fails.
# Needs node 20+ and python3; installs etcd-server and etcd-client from Debian when missing (test tools only).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
clients="${2:-64}"

swift build -c release --product hearth >/dev/null
binary="$(swift build -c release --show-bin-path)/hearth"
# shellcheck source=scripts/lib/exit-hooks.sh
source scripts/lib/exit-hooks.sh
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh
# shellcheck source=scripts/lib/cluster.sh
source scripts/lib/cluster.sh
# shellcheck source=scripts/lib/etcd.sh
source scripts/lib/etcd.sh
work="$(mktemp -d)"
on_exit "rm -rf '$work'"
results="$work/results.jsonl"

# Appends the run's JSON line ($1) to the results with the CPU its server processes used per star (or write, for
# etcd) over $seconds: $2 and $3 are cpu_ticks before and after.
record_with_cpu() {
    python3 - "$1" "$2" "$3" "$seconds" "$(getconf CLK_TCK)" >>"$results" <<'EOF'
import json, sys
run = json.loads(open(sys.argv[1]).read())
ticks = [int(a) - int(b) for a, b in zip(sys.argv[3].split(), sys.argv[2].split())]
stars = run["perSecond"] * float(sys.argv[4])
run["nodeCPUSeconds"] = [t / int(sys.argv[5]) for t in ticks]
run["cpuPerStarMicros"] = sum(run["nodeCPUSeconds"]) / stars * 1e6 if stars else 0
print(json.dumps(run))
EOF
}

echo "== etcd: 3 members, etcdctl check perf --load=l"
start_etcd "$work/etcd"
before="$(cpu_ticks "${ETCD_PIDS[@]}")"
perf="$(ETCDCTL_API=3 etcdctl --endpoints="$ETCD_ENDPOINTS" check perf --load=l 2>&1 | tr '\r' '\n' \
    | grep -E 'Throughput|Slowest|PASS|FAIL' || true)"
echo "$perf"
etcd_rate="$(sed -n 's/.*Throughput[^0-9]*\([0-9][0-9]*\) writes\/s.*/\1/p' <<<"$perf" | head -1)"
echo "{\"target\":\"etcd\",\"shape\":\"check perf --load=l\",\"perSecond\":${etcd_rate:-0}}" >"$work/etcd.line"
# check perf runs its load for 60 s; the members' CPU includes its set-up and clean-up, so this slightly overstates
# (scripts/bench-cpu --cluster reads it over the load alone).
seconds=60 record_with_cpu "$work/etcd.line" "$before" "$(cpu_ticks "${ETCD_PIDS[@]}")"
stop_etcd

echo "== Hearth: 3 nodes"
start_cluster "$work/hearth"
before="$(cpu_ticks "${CLUSTER_PIDS[@]}")"
node --experimental-websocket --no-warnings scripts/stars-bench.js wire "$CLUSTER_PORTS" multi \
    "$clients" "$seconds" | sed 's/"target":"wire"/"target":"cluster-3"/' >"$work/cluster-3.line"
after="$(cpu_ticks "${CLUSTER_PIDS[@]}")"
record_with_cpu "$work/cluster-3.line" "$before" "$after"
tail -1 "$results"
stop_cluster

echo "== Hearth: 1 node"
start_node "$work/single" --fsync batch --log-level warning
before="$(cpu_ticks "$NODE_PID")"
node --experimental-websocket --no-warnings scripts/stars-bench.js wire "$NODE_PORT" multi "$clients" "$seconds" \
    | sed 's/"target":"wire"/"target":"single"/' >"$work/single.line"
record_with_cpu "$work/single.line" "$before" "$(cpu_ticks "$NODE_PID")"
tail -1 "$results"
stop_node "$NODE_PID"

python3 - "$results" <<'EOF'
import json, sys
runs = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
etcd = next((r["perSecond"] for r in runs if r["target"] == "etcd"), 0)
print("\n| phase | stars or writes/s | p50 ms | p99 ms | × etcd | server CPU per star or write | counts |")
print("| --- | --- | --- | --- | --- | --- | --- |")
failed = False
for r in runs:
    ratio = f'{r["perSecond"] / etcd:.2f}×' if etcd else "–"
    ok = "–" if "pass" not in r else ("ok" if r["pass"] else "LOST OR INVENTED")
    failed |= r.get("pass") is False
    p50 = f'{r["p50"]:.1f}' if "p50" in r else "–"
    p99 = f'{r["p99"]:.1f}' if "p99" in r else "–"
    cpu = f'{r["cpuPerStarMicros"]:,.0f} µs' if "cpuPerStarMicros" in r else "–"
    print(f'| {r["target"]} {r["shape"]} | {r["perSecond"]:,.0f} | {p50} | {p99} | {ratio} | {cpu} | {ok} |')
sys.exit(1 if failed else 0)
EOF
