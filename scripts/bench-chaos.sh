#!/usr/bin/env bash
# usage: scripts/bench-chaos.sh kill|partition OUT.json [HEARTH-BINARY]
# Issue 35's target 5 on a fresh 3-node cluster (scripts/cluster up, release build unless HEARTH-BINARY is given;
# $HEARTH_CLUSTER_CONFIG picks another cluster file, default cluster-config/local-3.json, and the nodes' data is wiped
# before and after):
#   kill       hearth bench stars --mode mixed --readers 8 --chaos kill-leader, 64 clients, 30 s: the leader of the
#              hottest shard is killed halfway and restarted 3 s later; read the longest waits per operation kind
#   partition  hearth bench stars --mode increment, 64 clients, 30 s: 10 s in, n1 is cut off from n2 and n3
#              (scripts/cluster partition n1 n2 n3) for 10 s, then healed; read the per-second throughput
# The report goes to OUT.json (and the text to OUT.txt); the nodes' logs are copied to OUT.logs/. With
# HEARTH_SLOW_LOG=LENGTH (say 2s) the bench lists every operation slower than that (`--slow-log`, in the JSON's `slow`).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$#" -ge 2 ] || { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
scenario="$1" out="$2"
if [ "$#" -ge 3 ]; then
    binary="$3"
else
    swift build -c release --product hearth >/dev/null
    swift build -c release --product hearth-bench >/dev/null
    binary="$(swift build -c release --show-bin-path)/hearth"
fi
config="${HEARTH_CLUSTER_CONFIG:-cluster-config/local-3.json}"
export HEARTH_BINARY="$binary"
nodes="$("$binary" cluster describe --config "$config" | awk '$1 == "node" { printf "%s%s:%s", sep, $3, $4; sep = "," }')"
admin="$("$binary" cluster describe --config "$config" | awk '$1 == "admin" { print $2 }')"
scripts/cluster down --wipe >/dev/null 2>&1 || true
scripts/cluster up "$config" >/dev/null
root="$("$binary" cluster describe --config "$config" | awk '$1 == "root" { print $2 }')"
case "$scenario" in
    kill)
        "$binary" bench stars --nodes "$nodes" --clients 64 --duration 30s --mode mixed --readers 8 \
            --chaos kill-leader --cluster-script scripts/cluster --credential-file "$admin" --cleanup \
            ${HEARTH_SLOW_LOG:+--slow-log "$HEARTH_SLOW_LOG"} --json "$out" >"${out%.json}.txt" 2>&1 || true
        ;;
    partition)
        "$binary" bench stars --nodes "$nodes" --clients 64 --duration 30s --mode increment --cleanup \
            ${HEARTH_SLOW_LOG:+--slow-log "$HEARTH_SLOW_LOG"} --json "$out" >"${out%.json}.txt" 2>&1 &
        bench=$!
        sleep 10
        scripts/cluster partition n1 n2 n3 >/dev/null
        echo "partitioned at $(date -u +%T.%N)" >>"${out%.json}.txt"
        sleep 10
        scripts/cluster heal >/dev/null
        wait "$bench" || true
        ;;
    *)
        echo "scripts/bench-chaos.sh: the scenario is kill or partition, not $scenario" >&2
        exit 2
        ;;
esac
mkdir -p "${out%.json}.logs"
if [ "$root" != "-" ]; then cp "$root"/*.log "${out%.json}.logs/" 2>/dev/null || true; fi
scripts/cluster down --wipe >/dev/null
grep -E "^[0-9]+/30 s|latency|increment |rest |transaction |chaos|checks|errors|partitioned|slow" "${out%.json}.txt"
