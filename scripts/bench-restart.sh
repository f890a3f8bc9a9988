#!/usr/bin/env bash
# usage: scripts/bench-restart.sh [megabytes]
# Restart time for a large data set: generates ~N MB of JSON (default 1024), imports it the way firebase-tools
# does (PUT /.json?writeSizeLimit=unlimited), lets the node snapshot, stops it, then times recovery twice:
# from the snapshot, and from the write-ahead log alone (snapshot moved away; only while the log still starts at
# its first record). HEARTH_BINARY names a hearth binary to use instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."
megabytes="${1:-1024}"

if [ -n "${HEARTH_BINARY:-}" ]; then
    binary="$HEARTH_BINARY"
else
    swift build -c release --product hearth >/dev/null
    binary="$(swift build -c release --show-bin-path)/hearth"
fi
work="$(mktemp -d)"
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh

python3 - "$megabytes" >"$work/data.json" <<'PY'
import json, sys
target = int(sys.argv[1]) * 1024 * 1024
out = sys.stdout
out.write('{"users":{')
written, index = 0, 0
while written < target:
    record = {"name": f"user {index}", "email": f"user{index}@example.com", "age": index % 90,
              "bio": "lorem ipsum dolor sit amet " * 6, "tags": {"a": True, "b": index % 7},
              "score": index * 1.5}
    text = ('' if index == 0 else ',') + json.dumps(f"u{index:09d}") + ':' + json.dumps(record, separators=(',', ':'))
    out.write(text)
    written += len(text)
    index += 1
out.write('}}')
PY
size=$(stat -c %s "$work/data.json")
echo "data set: $size bytes"

start_node "$work" --log-level info --snapshot-every 1 --max-import-bytes $((size + 1024))
port="$NODE_PORT"
server="$NODE_PID"
curl -sS -o /dev/null -w "import: HTTP %{http_code} in %{time_total}s\n" -H "Content-Type: application/json" \
    -H "Authorization: Bearer owner" \
    -T "$work/data.json" "http://127.0.0.1:$port/.json?ns=bench&disableTriggers=true&writeSizeLimit=unlimited&print=silent"
# An import is several log records (one prepared part per shard), and a snapshot may start while its parts are
# only prepared: wait until every snapshot started has been written and no new one came for 3 s (the last one
# covers the whole import) before stopping the node.
settled=""
for _ in $(seq 1 600); do
    started="$(grep -c "snapshot.started" "$work/stderr" || true)"
    written="$(grep -c "snapshot.written" "$work/stderr" || true)"
    now="$started/$written"
    [ "$written" -gt 0 ] && [ "$started" -eq "$written" ] && [ "$now" = "$settled" ] && break
    settled="$now"
    sleep 3
done
grep -E "snapshot.written" "$work/stderr" || true
echo "peak RSS of the node during import: $(grep VmHWM /proc/$server/status | awk '{print $2, $3}')"
kill -TERM "$server"; wait "$server" || true
du -sh "$work/db/wal" "$work/db/snapshots"

echo "== restart from snapshot"
"$binary" bench restart --data "$work/db"
mv "$work/db/snapshots" "$work/snapshots-aside"
mkdir "$work/db/snapshots"
echo "== restart from the write-ahead log alone"
if [ -e "$work/db/wal/wal-00000000000000000001.log" ]; then
    "$binary" bench restart --data "$work/db"
else
    echo "skipped: the snapshot let the node delete the log's first segments (an import spans several records)"
fi
