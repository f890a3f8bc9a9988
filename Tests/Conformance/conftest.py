"""Shared set-up: one firebase-admin app pointed at the hearth node started by scripts/conformance.sh."""
import os
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
    app = firebase_admin.initialize_app(
        _OwnerCredential(),
        {"databaseURL": "https://conformance-default-rtdb.firebaseio.com", "projectId": "conformance"},
    )
    yield app
    firebase_admin.delete_app(app)


@pytest.fixture()
def root(app):
    """A fresh subtree per test, so tests never see each other's data."""
    ref = db.reference(f"/tests/{uuid.uuid4().hex}", app=app)
    yield ref
    ref.delete()
