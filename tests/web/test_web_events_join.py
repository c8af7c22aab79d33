"""A club night's join codes on the director's page (SEATS.md, "Club nights"): each table still
playing the current round shows its join link and its QR code on demand, which a phone's reader
scans to that link; the room screen and its poll hold no table's join or seat link."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient
from test_web_events_api import finish, new_event, start_round, token
from webhelpers import scanned, svg_picture

QR = re.compile(r"<svg [^>]*class=\"qr-code\".*?</svg>", re.DOTALL)


def table_links(client: FlaskClient, table: dict[str, Any]) -> dict[str, Any]:
    """A table's join link and seat links, as its own edit link's answer lists them."""
    links: dict[str, Any] = client.get(
        f"/api/games/{token(table['links']['edit'])}").get_json()["links"]
    return links


def test_the_director_s_page_shows_each_playing_table_s_join_code_and_the_room_screen_none(
        client: FlaskClient) -> None:
    event = start_round(client, new_event(client))
    edit, view = token(event["links"]["edit"]), token(event["links"]["view"])
    tables = event["played"][-1]["tables"]
    finish(client, tables[0])  # a finished table needs no players' code any more
    links = [table_links(client, table) for table in tables]

    page = client.get(f"/e/{edit}").get_data(as_text=True)
    codes = [scanned(svg_picture(svg)) for svg in QR.findall(page)]
    assert codes == [[own["join"]] for own in links[1:]]
    assert all(f'href="{own["join"]}"' in page for own in links[1:])
    assert token(links[0]["join"]) not in page
    for own in links[1:]:  # each leads to its own game's join page
        join = client.get(own["join"])
        assert join.status_code == 200
        assert all(token(seat).encode() in join.data for seat in own["seats"])

    secrets = {token(link) for own in links for link in [own["join"], *own["seats"]]}
    for answer in (client.get(f"/e/{view}"), client.get(f"/e/{view}/state"),
                   client.get(f"/e/{view}?name=Ann")):
        shown = answer.get_data(as_text=True)
        assert answer.status_code == 200
        assert not QR.search(shown), "the room screen shows a QR code"
        assert not any(secret in shown for secret in secrets), "the room screen shows a seat link"
