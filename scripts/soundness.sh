#!/usr/bin/env bash
# usage: scripts/soundness.sh
# Fails when library code breaks a house rule that a compiler does not check (see shared style guide).
set -euo pipefail
cd "$(dirname "$0")/.."

status=0
fail() { echo "soundness: $1"; status=1; }

if grep -rEn 'try!|as!|\)!|[a-zA-Z_\]]![.(\[ ]|: [A-Za-z<>\[\]]+!( |$|,|\))' Sources --include='*.swift' | grep -v '//' ; then
    fail "force unwraps, try! or as! in Sources (lines above)"
fi
if grep -rEn '^\s*(public |internal |package )?import Foundation' Sources/HearthCore Sources/HearthSystem; then
    fail "HearthCore and HearthSystem must not import Foundation"
fi
if grep -rEn '^\s*(public |internal |package )?import Hearth' Sources/HearthCore Sources/HearthSystem; then
    fail "HearthCore and HearthSystem must not import other Hearth modules (they sit at the bottom)"
fi
if grep -rEn 'TODO|FIXME|fatalError\("not implemented' Sources --include='*.swift'; then
    fail "TODO/FIXME markers in Sources"
fi
if grep -rEn '\.package\(' Package.swift; then
    fail "Package.swift must not declare package dependencies"
fi
if ! swift format lint --strict --recursive Sources Tests Package.swift; then
    fail "formatting differs from .swift-format (run: swift format format -i -r Sources Tests Package.swift)"
fi
if [ "$status" -eq 0 ]; then echo "soundness: ok"; fi
exit "$status"
