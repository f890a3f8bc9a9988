"""Issue 7's contention target through REST: 8 firebase-admin threads x 50 `transaction()` increments on one counter
finish with no abort and an exact count, at depth 1 (a spine path, an all-shard transaction) and below a shard root;
no 412 ever carries the value it refused (a stale answer never overtakes the value that beat it); and, since the server
gives contending compare-and-sets turns (ConditionalWriteScheduler), no transaction is refused more often than there
are contenders."""
import uuid

import pytest
from firebase_admin import db

from contention import run_increments

THREADS = 8


@pytest.fixture(params=["depth 1", "depth 4"])
def counter(request, app, root):
    """A counter at /contention-<id> (shallower than the shard depth) or at <test root>/counters/c1."""
    if request.param == "depth 1":
        ref = db.reference(f"/contention-{uuid.uuid4().hex}", app=app)
        yield ref
        ref.delete()
    else:
        yield root.child("counters/c1")


def test_eight_threads_of_fifty_transactions_all_commit_with_an_exact_count(counter):
    result = run_increments(counter, threads=THREADS, per_thread=50)
    print(f"{counter.path}: {result.aborts} of 400 aborted, most tries {max(result.attempts)}, "
          f"{result.commits / result.seconds:.0f} commits/s, {result.switches} of {result.requests} requests switched "
          "connection")
    assert result.errors == []
    assert result.stale_retries == 0, "a 412 carried the value the server had just refused, not the one that won"
    assert result.aborts == 0, f"{result.aborts} of 400 aborted; most tries: {sorted(result.attempts)[-10:]}"
    assert result.commits == 400
    assert result.final == 400
    # Tries are update-function calls: the first plus one per 412.
    assert max(result.attempts) <= THREADS + 1, f"most tries: {sorted(result.attempts)[-10:]}"
