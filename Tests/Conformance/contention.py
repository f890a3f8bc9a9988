"""The contention workload of issue 7, shared by test_contention.py and scripts/admin-transactions.py: threads that
each run firebase-admin `transaction()` increments on one counter, all starting at once."""
import contextlib
import threading
import time
from dataclasses import dataclass, field

from firebase_admin import db
from urllib3 import connectionpool


@dataclass
class ContentionResult:
    commits: int = 0
    aborts: int = 0
    errors: list = field(default_factory=list)
    attempts: list = field(default_factory=list)  # update-function calls per transaction (the SDK's tries)
    stale_retries: int = 0  # retries given the very value the server had just refused (the 412 carried it)
    seconds: float = 0.0
    final: object = None
    requests: int = 0  # HTTP requests the threads sent
    switches: int = 0  # requests a thread sent on another pooled connection than its previous request


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
    with _counting_connection_switches(result, lock):
        for thread in workers:
            thread.start()
        start.wait()
        began = time.monotonic()
        for thread in workers:
            thread.join()
        result.seconds = time.monotonic() - began
    result.final = ref.get()
    return result


@contextlib.contextmanager
def _counting_connection_switches(result, lock):
    """Counts how often a thread's request goes out on another connection than its previous one: requests shares one
    connection pool (a LIFO stack) among threads, so a server cannot take a connection for a thread."""
    original = connectionpool.HTTPConnectionPool._get_conn
    last = {}
    seen = []  # keeps every connection alive, so id() names one connection for the whole run

    def get_conn(pool, *args, **kwargs):
        conn = original(pool, *args, **kwargs)
        thread = threading.get_ident()
        with lock:
            seen.append(conn)
            result.requests += 1
            if thread in last and last[thread] != id(conn):
                result.switches += 1
            last[thread] = id(conn)
        return conn

    connectionpool.HTTPConnectionPool._get_conn = get_conn
    try:
        yield
    finally:
        connectionpool.HTTPConnectionPool._get_conn = original
