#!/usr/bin/env bash
# usage: scripts/bench-rules.sh [seconds] [clients] [rounds]
# What security rules cost on the REST star workload (issue 11: at most 10 % more than with no rules). The docs'
# fan-out star on one hot post (scripts/stars-bench.js `rest multi`: one PATCH of 4 paths over 2 shards, wrk with
# `clients` (64) connections) runs against a fresh node without rules (open), then against one started with
# scripts/lib/star.rules.json and a database secret, every star presenting an HS256 token signed with it; the two
# alternate for `rounds` (3) rounds of `seconds` (10) each, so drift on a shared machine hits both alike. Prints each
# run and the ratio of the medians (with rules / without); exits 1 if a star count check fails.
# Needs node 20+; installs wrk from Debian when missing (a test tool only).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
clients="${2:-64}"
rounds="${3:-3}"

command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
swift build -c release --product hearth >/dev/null
binary="$(swift build -c release --show-bin-path)/hearth"
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh
work="$(mktemp -d)"
on_exit "rm -rf '$work'"
secret="$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
printf '%s\n' "$secret" >"$work/secrets"
token="$(SECRET="$secret" node -e '
const crypto = require("crypto");
const b64 = (text) => Buffer.from(text).toString("base64url");
const input = b64(JSON.stringify({ alg: "HS256", typ: "JWT" })) + "." +
  b64(JSON.stringify({ v: 0, iat: Math.floor(Date.now() / 1000), d: { uid: "bench-user" } }));
process.stdout.write(input + "." + crypto.createHmac("sha256", process.env.SECRET).update(input).digest("base64url"));
')"

run() {
    local label="$1"
    shift
    start_node "$work/node-$label-$round" --fsync batch --log-level warning --namespace bench "$@"
    local line
    line="$(node --experimental-websocket --no-warnings scripts/stars-bench.js rest "$NODE_PORT" multi "$clients" "$seconds")"
    stop_node "$NODE_PID"
    echo "$label $line" | tee -a "$work/runs"
}

for round in $(seq 1 "$rounds"); do
    echo "== round $round"
    run open
    HEARTH_BENCH_AUTH="$token" run rules --rules scripts/lib/star.rules.json --database-secret-file "$work/secrets"
done
node -e '
const lines = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
const runs = { open: [], rules: [] };
let pass = true;
for (const line of lines) {
  const [label, ...rest] = line.split(" ");
  const result = JSON.parse(rest.join(" "));
  runs[label].push(result.perSecond);
  pass = pass && result.pass;
}
const median = (values) => { const s = [...values].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
const open = median(runs.open), rules = median(runs.rules);
console.log(`stars/s without rules: ${runs.open.map(Math.round).join(", ")} (median ${Math.round(open)})`);
console.log(`stars/s with rules:    ${runs.rules.map(Math.round).join(", ")} (median ${Math.round(rules)})`);
console.log(`with rules / without: ${(rules / open).toFixed(3)} (target: at least 0.909, i.e. at most 10 % more cost)`);
if (!pass) { console.log("a star count check failed"); process.exit(1); }
' "$work/runs"
