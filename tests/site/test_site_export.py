"""Downloads of a game: the record (export.wec) and the starting
position (start.json), linked from the game page during and after the game.

While a game runs a player's export is that player's own censored record and
nothing of the hidden start; a spectator gets none; the starting position is
offered to nobody (a custom start, or the options, may hide pieces from a
side).  Once the game has ended, everything.  The two-world test plays the
players' leak test worlds (tests/site/leak_worlds.py: White's unseen
Torpedo Fire, Exchange and Sub Moves) and the same worlds mirrored (Black's
unseen actions) through the real services, and compares the blind side's
export byte for byte at every moment."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from leak_worlds import MIRRORED, MIRRORED_TIMELINE, SCENARIO, TIMELINE, legal  # the leak tests' worlds

import games.rules.wec as wec
from games import selectors, services
from games.models import Game, Snapshot

pytestmark = pytest.mark.django_db


def _export(client, game_id: int) -> tuple[int, bytes]:
    response = client.get(reverse("export_record", args=[game_id]))
    body = response.content.replace(f'[Game "{game_id}"]'.encode(), b'[Game "N"]')
    return response.status_code, body


def _lines(body: bytes) -> list[str]:
    """The record lines of an export (after the header), without their numbers."""
    text = body.decode()
    record = text.split("\n\n", 1)[1]
    return [re.sub(r"^\d+\. ", "", line) for line in record.splitlines()]


def _play(scenario, timeline, world: int, clients: dict, users: dict) -> list[dict]:
    game = services.create_game(
        creator=users["white"], opponent="user", username=users["black"].username, color="white",
        scenario=scenario, days_per_move=None,
    )
    seen = []

    def look():
        state = selectors.load_state(selectors.get_game(game.pk))
        moment = {"censored": {c: wec.history(state, c) for c in ("black", "white")}, "full": wec.history(state)}
        for who, client in clients.items():
            moment[who] = _export(client, game.pk)
            moment[f"{who}-start"] = client.get(reverse("export_scenario", args=[game.pk])).status_code
        seen.append(moment)

    look()
    for who, *actions in timeline:
        for wanted in actions[world - 1]:
            g = selectors.get_game(game.pk)
            services.submit_action(game.pk, users[who], legal(selectors.load_state(g), wanted))
        look()
    return seen


@pytest.mark.parametrize("mirrored", [False, True], ids=["white-hides", "black-hides"])
def test_a_running_games_export_is_the_players_censored_record(make_user, mirrored):
    users = {"black": make_user("blackplayer"), "white": make_user("whiteplayer")}
    clients = {"black": Client(), "white": Client(), "spectator": Client()}
    clients["black"].force_login(users["black"])
    clients["white"].force_login(users["white"])
    scenario, timeline = (MIRRORED, MIRRORED_TIMELINE) if mirrored else (SCENARIO, TIMELINE)
    blind = "white" if mirrored else "black"
    a = _play(scenario, timeline, 1, clients, users)
    b = _play(scenario, timeline, 2, clients, users)
    for moment, (ma, mb) in enumerate(zip(a, b, strict=True)):
        # The blind side's download is the same in both worlds, byte for byte...
        assert ma[blind] == mb[blind], f"moment {moment}: {blind}'s export differs"
        for m in (ma, mb):
            for color in ("black", "white"):
                status, body = m[color]
                assert status == 200
                # ...and each player's is exactly that player's censored record.
                assert _lines(body) == m["censored"][color], (moment, color)
                assert f'[Record "as {color} saw it"]'.encode() in body
                assert b"start" not in body.lower() and b'"pieces"' not in body  # no starting position
            assert m["spectator"][0] == 404
            assert m["black-start"] == m["white-start"] == m["spectator-start"] == 404
    # The worlds did differ, and the full record (never served while running) shows it.
    assert a[-1]["full"] != b[-1]["full"]
    assert a[-1]["censored"][blind] == b[-1]["censored"][blind] != b[-1]["full"]


def test_the_game_page_links_the_downloads_during_and_after_the_game(client, alice, bob, carol):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black", scenario=SCENARIO)
    record_url = reverse("export_record", args=[game.pk])
    start_url = reverse("export_scenario", args=[game.pk])
    client.force_login(alice)
    for url in (reverse("game_detail", args=[game.pk]), reverse("game_board", args=[game.pk])):
        html = client.get(url).content.decode()
        assert f'<a href="{record_url}" id="export-record">' in html and "as you saw it" in html
        assert start_url not in html  # the start may hold pieces Black cannot see: not yet
    assert client.get(start_url).status_code == 404
    client.force_login(carol)  # not a player: nothing while the game runs
    assert client.get(record_url).status_code == client.get(start_url).status_code == 404
    services.resign(game.pk, bob)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert f'<a href="{record_url}" id="export-record">' in html
    assert f'<a href="{start_url}" id="export-start">' in html
    client.logout()  # after the end, everyone
    start = client.get(start_url)
    assert start.status_code == 200 and start["Content-Disposition"].endswith(f'filename="wec-game-{game.pk}-start.json"')
    assert json.loads(start.content) == Snapshot.objects.get(game=game, seq=0).state
    assert any(p["type"] == "sub" for p in json.loads(start.content)["pieces"])
    assert b'[Record "' not in client.get(record_url).content
    assert start_url in client.get(reverse("watch", args=[game.pk])).content.decode()
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
