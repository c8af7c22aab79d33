"""Behind a reverse proxy that speaks https (Caddy, nginx): with PROXY_HOPS the app believes the
proxy's X-Forwarded headers, so a game's links say https and name the proxy's host; without it, a
phone can't make the app believe a header it sends."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.rules.errors import ValueRefused
from scorekeeper.store.db import db

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "cards.example.org",
             "X-Forwarded-For": "10.0.0.7"}


def app_with(database_url: str, **config: object) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "test",
                       "SQLALCHEMY_DATABASE_URI": database_url, **config})


def links(app: Flask) -> dict[str, str]:
    """The links of a game stored through the proxy (the database's connections closed after),
    each seat's by its index."""
    created = app.test_client().post("/api/games", json={"players": ["Ann", "Bob"]},
                                     headers=FORWARDED)
    with app.app_context():
        # the shared PostgreSQL database stays empty
        db.session.execute(db.text("DELETE FROM games"))
        db.session.commit()
        db.engine.dispose()
    assert created.status_code == 201
    found = dict(created.get_json()["links"])
    seats = found.pop("seats")
    return {**found, **{f"seat {seat}": link for seat, link in enumerate(seats)}}


def test_behind_one_proxy_the_links_are_the_proxys(database_url: str) -> None:
    found = links(app_with(database_url, PROXY_HOPS="1"))
    assert found and all(link.startswith("https://cards.example.org/")
                         for link in found.values()), found


def test_without_proxy_hops_a_forwarded_header_is_not_believed(database_url: str) -> None:
    found = links(app_with(database_url))
    assert found and all(link.startswith("http://localhost/") for link in found.values()), found


@pytest.mark.parametrize("hops", ["1e3", "-1", "6", "²", "one"])
def test_a_proxy_hops_setting_that_is_no_small_number_stops_the_app_with_its_name(
        database_url: str, hops: str) -> None:
    with pytest.raises(ValueRefused, match="PROXY_HOPS"):
        app_with(database_url, PROXY_HOPS=hops)
