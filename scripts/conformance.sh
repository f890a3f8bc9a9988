#!/usr/bin/env bash
# usage: scripts/conformance.sh
# Drives a fresh `hearth serve` with the official firebase-admin Python SDK (installed into .venv from PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
fi
.venv/bin/pip install --quiet --disable-pip-version-check "firebase-admin==7.7.0" "pytest>=8"

binary="${HEARTH_BINARY:-$(swift build --show-bin-path)/hearth}"
[ -x "$binary" ] || swift build
# shellcheck source=scripts/lib/node.sh
source scripts/lib/node.sh
# A short keep-alive lets the SDK's listener close() return quickly (it waits for the next byte of the stream).
start_node "$(mktemp -d)" --log-level warning --keep-alive-seconds 1
port="$NODE_PORT"

FIREBASE_DATABASE_EMULATOR_HOST="127.0.0.1:$port" HEARTH_PORT="$port" \
    .venv/bin/python -m pytest -q -p no:cacheprovider \
    -W "ignore::pytest.PytestUnhandledThreadExceptionWarning" Tests/Conformance
