"""Shared set-up: one firebase-admin app pointed at the hearth node started by scripts/conformance.sh."""
import json
import os
import urllib.request
import uuid

import firebase_admin
import google.auth.credentials
import pytest
from firebase_admin import credentials, db


class _OwnerCredential(credentials.Base):
    """A credential that never calls Google: the emulator path sends `Bearer owner` anyway."""

    def get_credential(self):
        return _StaticToken()


class _StaticToken(google.auth.credentials.Credentials):
    def __init__(self):
        super().__init__()
        self.token = "owner"

    def refresh(self, request):
        self.token = "owner"

    @property
    def expired(self):
        return False

    @property
    def valid(self):
        return True


@pytest.fixture(scope="session")
def app():
    assert os.environ.get("FIREBASE_DATABASE_EMULATOR_HOST"), "run through scripts/conformance.sh"
    app = firebase_admin.initialize_app(_OwnerCredential(), _OPTIONS)
    yield app
    firebase_admin.delete_app(app)


_OPTIONS = {"databaseURL": "https://conformance-default-rtdb.firebaseio.com", "projectId": "conformance"}


@pytest.fixture()
def app_as(app):
    """Makes apps acting as a user (`databaseAuthVariableOverride`), as a server does for its users' requests:
    the rules apply to them."""
    made = []

    def make(uid):
        options = dict(_OPTIONS, databaseAuthVariableOverride={"uid": uid})
        made.append(firebase_admin.initialize_app(_OwnerCredential(), options, name=f"as-{uid}-{uuid.uuid4().hex}"))
        return made[-1]

    yield make
    for made_app in made:
        firebase_admin.delete_app(made_app)


@pytest.fixture()
def rules(app):
    """Installs rules (a dict) through `PUT /.settings/rules.json`, as `firebase deploy` does against the emulator;
    the open rules come back afterwards."""
    def put(document):
        request = urllib.request.Request(
            f"http://{os.environ['FIREBASE_DATABASE_EMULATOR_HOST']}/.settings/rules.json"
            "?ns=conformance-default-rtdb",
            data=json.dumps(document).encode(), method="PUT", headers={"Authorization": "Bearer owner"})
        with urllib.request.urlopen(request) as response:
            assert response.status == 200

    yield put
    put({"rules": {".read": True, ".write": True}})


@pytest.fixture()
def root(app):
    """A fresh subtree per test, so tests never see each other's data."""
    ref = db.reference(f"/tests/{uuid.uuid4().hex}", app=app)
    yield ref
    ref.delete()
