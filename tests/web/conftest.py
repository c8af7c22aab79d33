"""Fixtures of the page tests: a game stored through the API and opened on this client's phone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from webhelpers import FOUR, Scorer

collect_ignore = ["conftest.py"]  # no doctests here; see tests/conftest.py


@pytest.fixture
def start(client: FlaskClient) -> Callable[..., Scorer]:
    """Store a game file through the JSON API and open its page, as a phone would."""

    def make(**document: Any) -> Scorer:
        document.setdefault("players", FOUR)
        response = client.post("/api/games", json=document)
        assert response.status_code == 201, response.get_json()
        links = response.get_json()["links"]
        scorer = Scorer(client, links["edit"].rsplit("/", 1)[1], links["view"].rsplit("/", 1)[1])
        scorer.page()
        return scorer

    return make
