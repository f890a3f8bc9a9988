"""Conformance: security rules as firebase-admin meets them, in an app acting as a user."""
import pytest
from firebase_admin import db, exceptions


def test_rules_allow_a_user_their_own_data_and_deny_the_rest(root, rules, app_as):
    base = root.path.strip("/")
    rules({"rules": {base.split("/")[0]: {"$run": {"users": {"$uid": {
        ".read": "auth.uid === $uid", ".write": "auth.uid === $uid"}}}}}})
    ada = app_as("ada")
    mine = db.reference(f"{root.path}/users/ada", app=ada)
    mine.set({"name": "Ada"})
    assert mine.get() == {"name": "Ada"}
    theirs = db.reference(f"{root.path}/users/bob", app=ada)
    with pytest.raises(exceptions.FirebaseError, match="Permission denied"):
        theirs.set({"name": "Eve"})
    with pytest.raises(exceptions.FirebaseError, match="Permission denied"):
        theirs.get()
    with pytest.raises(exceptions.FirebaseError, match="Permission denied"):
        db.reference(root.path, app=ada).update({"users/ada/name": "A", "users/bob/name": "Eve"})
    assert root.get() == {"users": {"ada": {"name": "Ada"}}}, "an administrator sees nothing denied was written"
