#!/usr/bin/env bash
# usage: scripts/conformance.sh
# Drives a fresh `hearth serve` with the official firebase-admin Python SDK (installed into .venv from PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install --quiet --disable-pip-version-check "firebase-admin==7.7.0" "pytest>=8"

binary="$(swift build --show-bin-path)/hearth"
[ -x "$binary" ] || swift build
data="$(mktemp -d)"
log="$data/server.log"
# A short keep-alive lets the SDK's listener close() return quickly (it waits for the next byte of the stream).
"$binary" serve --port 0 --data "$data/db" --log-level warning --keep-alive-seconds 1 >"$data/stdout" 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT

port=""
for _ in $(seq 1 100); do
    port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$data/stdout")"
    [ -n "$port" ] && break
    sleep 0.1
done
if [ -z "$port" ]; then
    echo "conformance: hearth did not start"; cat "$log"; exit 1
fi

FIREBASE_DATABASE_EMULATOR_HOST="127.0.0.1:$port" HEARTH_PORT="$port" \
    .venv/bin/python -m pytest -q -p no:cacheprovider \
    -W "ignore::pytest.PytestUnhandledThreadExceptionWarning" Tests/Conformance
