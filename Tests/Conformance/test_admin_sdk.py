"""Conformance: the official firebase-admin Python SDK against a hearth node, as an app would use it."""
import multiprocessing
import os
import threading
import time

import pytest
from firebase_admin import db, exceptions


def test_set_and_get_round_trip_every_json_type(root):
    value = {"int": 42, "big": 9007199254740993, "float": 1.5, "bool": True, "text": "héllo \u2603 \"q\"",
             "nested": {"a": {"b": {"c": "deep"}}}, "list": ["x", "y", "z"]}
    root.set(value)
    assert root.get() == value
    assert root.child("nested/a/b/c").get() == "deep"
    assert root.child("missing").get() is None


def test_update_is_multi_path_and_null_deletes(root):
    root.set({"posts": {"p1": {"title": "old", "body": "b"}}, "user-posts": {"u1": {"p1": {"title": "old"}}}})
    root.update({"posts/p1/title": "new", "user-posts/u1/p1/title": "new", "posts/p1/body": None})
    assert root.get() == {"posts": {"p1": {"title": "new"}}, "user-posts": {"u1": {"p1": {"title": "new"}}}}


def test_overlapping_update_paths_are_rejected_and_change_nothing(root):
    root.set({"a": {"b": 1}})
    with pytest.raises(exceptions.InvalidArgumentError):
        root.update({"a": {"b": 2}, "a/b": 3})
    assert root.get() == {"a": {"b": 1}}


def test_push_ids_are_ordered_twenty_character_keys(root):
    keys = [root.child("list").push({"n": n}).key for n in range(20)]
    assert all(len(key) == 20 for key in keys)
    assert keys == sorted(keys)
    assert list(root.child("list").order_by_key().get().keys()) == keys


def test_delete_removes_the_subtree(root):
    root.set({"a": 1, "b": {"c": 2}})
    root.child("b").delete()
    assert root.get() == {"a": 1}


def test_queries_follow_firebase_ordering(root):
    root.set({"ada": {"score": 90, "meta": {"rank": 2}}, "bob": {"score": 75, "meta": {"rank": 3}},
              "cy": {"score": 90, "meta": {"rank": 1}}, "dee": {"score": "n/a"}, "eve": {}})
    top = root.order_by_child("score").limit_to_last(2).get()
    assert list(top.keys()) == ["cy", "dee"]  # strings sort after numbers; ties by key
    assert list(root.order_by_child("score").start_at(80).end_at(95).get().keys()) == ["ada", "cy"]
    assert list(root.order_by_child("meta/rank").limit_to_first(2).get().keys()) == ["dee", "cy"]
    assert list(root.order_by_key().start_at("b").end_at("cz").get().keys()) == ["bob", "cy"]
    assert list(root.order_by_child("score").equal_to(90).get().keys()) == ["ada", "cy"]


def test_order_by_value_and_limits(root):
    root.set({"a": 3, "b": 1, "c": 2, "d": "text", "e": True})
    assert list(root.order_by_value().get().keys()) == ["e", "b", "c", "a", "d"]
    assert list(root.order_by_value().limit_to_first(2).get().keys()) == ["e", "b"]


def test_shallow_get_returns_true_for_each_child(root):
    root.set({"a": {"deep": 1}, "b": 2})
    assert root.get(shallow=True) == {"a": True, "b": True}


def test_server_values_resolve_on_the_server(root):
    before = int(time.time() * 1000)
    root.set({"at": {".sv": "timestamp"}, "count": 5})
    root.child("count").set({".sv": {"increment": 2}})
    root.child("fresh").set({".sv": {"increment": 1.5}})
    value = root.get()
    assert before - 5000 <= value["at"] <= int(time.time() * 1000) + 5000
    assert value["count"] == 7 and isinstance(value["count"], int)
    assert value["fresh"] == 1.5


def test_etags_and_conditional_writes(root):
    value, etag = root.get(etag=True)
    assert value is None and etag == "null_etag"
    ok, _, new_etag = root.set_if_unchanged(etag, {"v": 1})
    assert ok
    ok, current, current_etag = root.set_if_unchanged("not-the-etag", {"v": 2})
    assert not ok and current == {"v": 1} and current_etag == new_etag
    changed, _, _ = root.get_if_changed(new_etag)
    assert not changed


def test_get_if_changed_round_trip(root):
    root.set({"stars": 3})
    changed, value, etag = root.get_if_changed("not-the-etag")
    assert changed and value == {"stars": 3} and etag not in (None, "null_etag")
    assert root.get_if_changed(etag) == (False, None, None)
    root.child("stars").set(4)
    changed, value, newer = root.get_if_changed(etag)
    assert changed and value == {"stars": 4} and newer not in (None, etag)


def _increment_many(url_path, count, port):
    import firebase_admin
    from conftest import _OwnerCredential
    os.environ["FIREBASE_DATABASE_EMULATOR_HOST"] = f"127.0.0.1:{port}"
    app = firebase_admin.initialize_app(
        _OwnerCredential(), {"databaseURL": "https://conformance-default-rtdb.firebaseio.com"}, name="worker")
    ref = db.reference(url_path, app=app)
    for _ in range(count):
        ref.transaction(lambda current: (current or 0) + 1)


def test_transactions_from_concurrent_processes_lose_no_update(root):
    counter = root.child("counter")
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_increment_many, args=(counter.path, 15, os.environ["HEARTH_PORT"]))
               for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
        assert worker.exitcode == 0
    assert counter.get() == 60


def test_listen_delivers_the_initial_value_and_every_change(root):
    root.set({"a": 1})
    events = []
    arrived = threading.Event()

    def on_event(event):
        events.append((event.event_type, event.path, event.data))
        if len(events) >= 3:
            arrived.set()

    registration = root.listen(on_event)
    try:
        time.sleep(0.3)
        root.child("b").set(2)
        root.update({"c": 3, "d": 4})
        assert arrived.wait(10), events
    finally:
        registration.close()
    assert events[0] == ("put", "/", {"a": 1})
    assert ("put", "/b", 2) in events
    assert ("patch", "/", {"c": 3, "d": 4}) in events
