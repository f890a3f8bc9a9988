"""Contention through REST with the official firebase-admin Python SDK: for each path, `threads` threads each run
`per_thread` transaction() increments on one counter at once (the workload in Tests/Conformance/contention.py).
Prints commits/s, aborts, tries per transaction, and whether the final count is exact.

usage: .venv/bin/python scripts/admin-transactions.py <port> <threads> <per_thread> <path> [path...]
(scripts/bench-transactions.sh installs the SDK into .venv and runs this against a fresh node)"""
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Conformance"))

import firebase_admin  # noqa: E402
from contention import run_increments  # noqa: E402
from firebase_admin import db  # noqa: E402


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    port, threads, per_thread = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    # The SDK talks to an emulator host with its own emulator credential, so no Google credential is needed.
    os.environ["FIREBASE_DATABASE_EMULATOR_HOST"] = f"127.0.0.1:{port}"
    app = firebase_admin.initialize_app(options={"databaseURL": "https://bench-default-rtdb.firebaseio.com"})
    all_pass = True
    for path in sys.argv[4:]:
        result = run_increments(db.reference(path, app=app), threads, per_thread)
        total = threads * per_thread
        tries = sorted(result.attempts)
        print(f"{threads} threads x {per_thread} transaction() at {path} (depth {len(path.strip('/').split('/'))}): "
              f"{result.commits} commits in {result.seconds:.1f} s ({result.commits / result.seconds:.0f} commits/s), "
              f"{result.aborts} of {total} aborted after 25 tries")
        print(f"  requests: {result.requests}, {result.switches} of them on another connection than the thread's last")
        print(f"  tries per transaction: max {tries[-1]}, mean {sum(tries) / len(tries):.2f}; "
              f"retries given the value just refused (the 412 carried it): {result.stale_retries}"
              + (f"; errors: {result.errors[:3]}" if result.errors else ""))
        histogram = {tries: result.attempts.count(tries) for tries in sorted(set(result.attempts))}
        print("  tries histogram (tries:transactions): " + " ".join(f"{k}:{v}" for k, v in histogram.items()))
        exact = result.exact and result.commits + result.aborts == total
        all_pass = all_pass and exact and result.aborts == 0
        print(f"  final count: {result.final}, commits {result.commits} -> {'PASS' if exact else 'FAIL'}")
    sys.exit(0 if all_pass else 1)


if __name__ == "__main__":
    main()
