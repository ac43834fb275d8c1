"""Spectators see only what neither player hides: two worlds that differ only
in one side's unseen actions look the same, byte for byte, on every page a
spectator (signed in or not) can fetch, at every moment.  The worlds are the
players' leak test's (tests/site/leak_worlds.py: White's unseen Torpedo
Fire, Exchange and Sub Moves), and the same worlds mirrored (Black's unseen
actions), played through the real services on PostgreSQL."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from leak_worlds import MIRRORED, MIRRORED_TIMELINE, SCENARIO, TIMELINE, P, legal  # the players' two worlds

import games.rules.wec as wec
from games import selectors, services
from games.ui.wec import selectors as wec_selectors

pytestmark = pytest.mark.django_db

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


def _play(scenario, timeline, world: int, client, users, competitive: bool = True) -> list:
    black_user, white_user = users
    game = services.create_game(
        creator=white_user, opponent="user", username=black_user.username, color="white", scenario=scenario,
        days_per_move=None, competitive=competitive,
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
@pytest.mark.parametrize("competitive", [True, False], ids=["competitive", "friendly"])
def test_two_worlds_look_alike_to_a_spectator(client, make_user, mirrored, signed_in, competitive):
    users = (make_user("blackplayer"), make_user("whiteplayer"))
    if signed_in:
        client.force_login(make_user("watcher"))
    scenario, timeline = (MIRRORED, MIRRORED_TIMELINE) if mirrored else (SCENARIO, TIMELINE)
    a = _play(scenario, timeline, 1, client, users, competitive)
    b = _play(scenario, timeline, 2, client, users, competitive)
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


class _WecGame:
    engine = "wec"
    seq = 0
    pk = 0


def test_the_public_view_shows_only_pieces_that_cannot_hide():
    state = wec.load_scenario({**SCENARIO, "options": {**SCENARIO["options"], "competitive": True}})
    public = wec_selectors.public_view(_WecGame(), state)
    shown = {(p["color"], p["type"]) for p in public["pieces"]}
    assert ("white", "sub") not in shown and ("white", "aaa") not in shown  # hidden from Black
    assert ("white", "king") in shown and ("black", "dozer") in shown
    assert all("id" not in p and "cooldowns" not in p for p in public["pieces"])
    assert public["markers"] == [] and public["turn"] == {} and public["history"] == []


# --- an unseen enemy detector finds one of the owner's pieces ------------------------
# Black's Dozer carries Stealth; White's submerged Sub carries Anti-Stealth and
# is hidden from Black (no Black Torpedo Launcher near).  In world B the Sub
# closes to 3 Squares of the Dozer, so White sees it (detection at range); in
# world A it moves away.  Black's view history is the same in both worlds:
# the spectator page must be too, or Black, watching their own game, would
# learn that an unseen enemy has found their Dozer.  (Before the fix the page
# drew the Dozer in world B only.)
DETECT = {
    "to_move": "white",
    "options": {},
    "pieces": [
        P("king", "black", 1, 1),
        P("dozer", "black", 2, 5, articles=["stealth"]),
        P("king", "white", 10, 1),
        P("sub", "white", 6, 5, "sub", articles=["anti_stealth"]),
    ],
    "articles": [],
}
DETECT_TIMELINE = [
    ("white", [{"type": "move", "from": [6, 5, "sub"], "to": [7, 5, "sub"]}],
     [{"type": "move", "from": [6, 5, "sub"], "to": [5, 5, "sub"]}]),
    ("white", [{"type": "end_turn"}], [{"type": "end_turn"}]),
    ("black", [{"type": "move", "from": [1, 1, "ground"], "to": [1, 2, "ground"]}],
     [{"type": "move", "from": [1, 1, "ground"], "to": [1, 2, "ground"]}]),
    ("black", [{"type": "end_turn"}], [{"type": "end_turn"}]),
    ("white", [{"type": "move", "from": [10, 1, "ground"], "to": [10, 2, "ground"]}],
     [{"type": "move", "from": [10, 1, "ground"], "to": [10, 2, "ground"]}]),
]


def _detect_states(world: int) -> list:
    state = wec.load_scenario({**DETECT, "options": {"competitive": True}})
    out = [state]
    for _who, *actions in DETECT_TIMELINE:
        for wanted in actions[world - 1]:
            state = wec.apply(state, legal(state, wanted))
        out.append(state)
    return out


def test_the_detect_worlds_differ_only_out_of_blacks_sight():
    a, b = _detect_states(1), _detect_states(2)
    for sa, sb in zip(a, b, strict=True):
        assert wec.view(sa, "black") == wec.view(sb, "black")
        assert wec.history(sa, "black") == wec.history(sb, "black")
    # ...and they really differ: in world B White has found the Dozer.
    seen_b = {p["type"] for p in wec.view(b[-1], "white")["pieces"] if p["color"] == "black"}
    seen_a = {p["type"] for p in wec.view(a[-1], "white")["pieces"] if p["color"] == "black"}
    assert "dozer" in seen_b and "dozer" not in seen_a


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "signed-in"])
def test_a_piece_found_by_an_unseen_detector_does_not_show(client, make_user, signed_in):
    users = (make_user("blackplayer"), make_user("whiteplayer"))
    if signed_in:
        # Any signed-in watcher (the page is the same for the players: a
        # player's own header would count the notifications of both runs).
        client.force_login(make_user("watcher"))
    a = _play(DETECT, DETECT_TIMELINE, 1, client, users)
    b = _play(DETECT, DETECT_TIMELINE, 2, client, users)
    for moment, (pa, pb) in enumerate(zip(a, b, strict=True)):
        assert pa == pb, f"moment {moment} differs for a spectator"
    assert a[-1]["watch"][0] == 200
    page = a[-1]["watch"][2].decode()
    assert page.count("tok-black") == 1  # the King; the stealthed Dozer never shows


def test_the_public_view_is_the_same_from_either_side():
    """Each colour's derivation gives the same board, at every Turn's start of
    the worlds above (both ways round)."""
    states = _detect_states(1) + _detect_states(2)
    for world in (1, 2):
        state = wec.load_scenario({**SCENARIO, "options": {**SCENARIO["options"], "competitive": True}})
        for _who, *actions in TIMELINE:
            for wanted in actions[world - 1]:
                state = wec.apply(state, legal(state, wanted))
            states.append(state)
    states.append(wec.new_game())
    for state in states:
        if wec.turn_actions(state):
            continue
        assert wec.public_view(wec.view(state, "black")) == wec.public_view(wec.view(state, "white"))


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
