"""Spectators see only what neither player hides: two worlds that differ only
in one side's unseen actions look the same, byte for byte, on every page a
spectator (signed in or not) can fetch, at every moment.  The worlds are the
players' leak test's (tests/site/test_site_leaks.py: White's unseen Torpedo
Fire, Exchange and Sub Moves), and the same worlds mirrored (Black's unseen
actions), played through the real services on PostgreSQL."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from test_site_leaks import SCENARIO, TIMELINE, legal  # the players' two worlds

import games.rules.wec as wec
from games import selectors, services

pytestmark = pytest.mark.django_db

OTHER = {"black": "white", "white": "black"}


def _mirror_place(place):
    out = list(place)
    out[0] = 11 - out[0]
    return out


def _mirror_action(action: dict) -> dict:
    out = dict(action)
    for key in ("from", "to"):
        if key in out:
            out[key] = _mirror_place(out[key])
    if "direction" in out:
        out["direction"] = [-out["direction"][0], out["direction"][1]]
    return out


MIRRORED = {
    **SCENARIO,
    "to_move": "white",
    "pieces": [{**p, "color": OTHER[p["color"]], "row": 11 - p["row"]} for p in SCENARIO["pieces"]],
}
MIRRORED_TIMELINE = [
    (OTHER[who], [_mirror_action(a) for a in wa], [_mirror_action(b) for b in wb]) for who, wa, wb in TIMELINE
]


def test_the_mirrored_worlds_differ_only_out_of_whites_sight():
    for world in (1, 2):
        state = wec.load_scenario({**MIRRORED, "options": {**MIRRORED["options"], "competitive": True}})
        for _who, *actions in MIRRORED_TIMELINE:
            for wanted in actions[world - 1]:
                state = wec.apply(state, legal(state, wanted))
    # (legal() raising would fail this test: every mirrored action is legal.)


def _normalise(content: bytes, game_id: int) -> bytes:
    content = re.sub(rb'(name="csrfmiddlewaretoken" value=")[^"]+(")', rb"\1CSRF\2", content)
    content = re.sub(rb'("X-CSRFToken": ")[^"]+(")', rb"\1CSRF\2", content)
    content = content.replace(f"/games/{game_id}/".encode(), b"/games/N/")
    content = content.replace(f"game {game_id} ".encode(), b"game N ")
    return content.replace(f"Game {game_id}".encode(), b"Game N")


def _spectator_pages(client, game_id: int) -> dict:
    out = {}
    for name in ("watch", "watch_board"):
        response = client.get(reverse(name, args=[game_id]))
        out[name] = (response.status_code, len(_normalise(response.content, game_id)), _normalise(response.content, game_id))
    response = client.get(reverse("chat", args=[game_id]))
    out["chat"] = (response.status_code,)
    response = client.get(reverse("export_record", args=[game_id]))
    out["export"] = (response.status_code,)
    return out


def _play(scenario, timeline, world: int, client, users) -> list:
    black_user, white_user = users
    game = services.create_game(
        creator=white_user, opponent="user", username=black_user.username, color="white", scenario=scenario,
        days_per_move=None,
    )
    by_color = {"black": black_user, "white": white_user}
    seen = [_spectator_pages(client, game.pk)]
    for who, *actions in timeline:
        for wanted in actions[world - 1]:
            g = selectors.get_game(game.pk)
            services.submit_action(game.pk, by_color[who], legal(selectors.load_state(g), wanted))
        seen.append(_spectator_pages(client, game.pk))
    return seen


@pytest.mark.parametrize("mirrored", [False, True], ids=["white-hides", "black-hides"])
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_two_worlds_look_alike_to_a_spectator(client, make_user, mirrored, signed_in):
    users = (make_user("blackplayer"), make_user("whiteplayer"))
    if signed_in:
        client.force_login(make_user("watcher"))
    scenario, timeline = (MIRRORED, MIRRORED_TIMELINE) if mirrored else (SCENARIO, TIMELINE)
    a = _play(scenario, timeline, 1, client, users)
    b = _play(scenario, timeline, 2, client, users)
    assert len(a) == len(b)
    for moment, (pa, pb) in enumerate(zip(a, b, strict=True)):
        assert pa == pb, f"moment {moment} differs for a spectator"
    # While the game runs, the page shows the board but no secrets: no hidden
    # piece of the hiding side, and no chat or record for a spectator.
    page = a[-1]["watch"][2].decode()
    assert a[-1]["watch"][0] == 200 and a[-1]["chat"] == (404,) and a[-1]["export"] == (404,)
    hider = "white" if not mirrored else "black"
    assert f'tok-{hider}' in page  # the hider's King is seen by both
    # The hider's Sub and AAAs are never drawn (tokens carry the type in their title).
    assert page.count(f"tok-{hider}") == 1


def test_the_public_view_shows_a_piece_only_when_both_colours_see_it():
    state = wec.load_scenario({**SCENARIO, "options": {**SCENARIO["options"], "competitive": True}})

    class G:
        engine = "wec"

    public = selectors.public_view(G(), state)
    shown = {(p["color"], p["type"]) for p in public["pieces"]}
    assert ("white", "sub") not in shown and ("white", "aaa") not in shown  # hidden from Black
    assert ("white", "king") in shown and ("black", "dozer") in shown
    assert all("id" not in p and "cooldowns" not in p for p in public["pieces"])
    assert public["markers"] == [] and public["turn"] == {} and public["history"] == []


def test_after_the_end_everything_is_public(client, make_user):
    black_user, white_user = make_user("b1"), make_user("w1")
    game = services.create_game(
        creator=white_user, opponent="user", username="b1", color="white", scenario=SCENARIO, days_per_move=None
    )
    services.resign(game.pk, black_user)
    html = client.get(reverse("watch", args=[game.pk])).content.decode()
    assert "Review" in html
    record = client.get(reverse("export_record", args=[game.pk]))
    assert record.status_code == 200 and '[Result "0-1"]' in record.content.decode()
    assert client.get(reverse("export_scenario", args=[game.pk])).json()["to_move"] == "black"
    assert f'href="/games/{game.pk}/watch/"' in client.get(reverse("archive")).content.decode()
