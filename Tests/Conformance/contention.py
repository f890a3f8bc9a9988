"""The contention workload of issue 7, shared by test_contention.py and scripts/admin-transactions.py: threads that
each run firebase-admin `transaction()` increments on one counter, all starting at once."""
import threading
import time
from dataclasses import dataclass, field

from firebase_admin import db


@dataclass
class ContentionResult:
    commits: int = 0
    aborts: int = 0
    errors: list = field(default_factory=list)
    attempts: list = field(default_factory=list)  # update-function calls per transaction (the SDK's tries)
    stale_retries: int = 0  # retries given the very value the server had just refused (the 412 carried it)
    seconds: float = 0.0
    final: object = None

    @property
    def exact(self):
        return self.final == self.commits


def run_increments(ref, threads=8, per_thread=50):
    """Sets `ref` to 0, then `threads` threads each run `per_thread` transactions adding 1; returns what happened."""
    ref.set(0)
    result = ContentionResult()
    lock = threading.Lock()
    start = threading.Barrier(threads + 1)

    def worker():
        start.wait()
        for _ in range(per_thread):
            seen = []

            def increment(value):
                seen.append(value)
                return (value or 0) + 1

            try:
                ref.transaction(increment)
                outcome = "commit"
            except db.TransactionAbortedError:
                outcome = "abort"
            except Exception as error:  # noqa: BLE001 - reported, so a failed run says why
                outcome = repr(error)
            with lock:
                result.attempts.append(len(seen))
                result.stale_retries += sum(1 for before, after in zip(seen, seen[1:]) if before == after)
                if outcome == "commit":
                    result.commits += 1
                elif outcome == "abort":
                    result.aborts += 1
                else:
                    result.errors.append(outcome)

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    for thread in workers:
        thread.start()
    start.wait()
    began = time.monotonic()
    for thread in workers:
        thread.join()
    result.seconds = time.monotonic() - began
    result.final = ref.get()
    return result
