"""What is kept beside the action log is the log's replay: the current-state
row, the Turn records, snapshots (read without the log), the render cache
(per colour and view version), the kept Turn-end views; and the record is
sent as appended lines."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from games import selectors, services
from games.models import Game, GameAction, GameState, GameTurn, Snapshot
from games.store import states as state_store


def play(game_id: int, users: dict, engine, actions: int, seed: int = 3) -> None:
    """Random legal actions through the service (ending the Turn often)."""
    rng = random.Random(seed)
    for _ in range(actions):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            return
        state = selectors.load_state(game)
        legal = engine.legal_actions(state)
        ends = [a for a in legal if a["type"] == "end_turn"]
        action = ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)
        services.submit_action(game_id, users[game.to_move], action, expected_seq=game.seq)


def replayed(game: Game, engine):
    start = Snapshot.objects.get(game=game, seq=0)
    state = engine.load_scenario(start.state, history=[])
    for row in GameAction.objects.filter(game=game).order_by("seq"):
        state = engine.apply(state, row.action)
    return state


@pytest.mark.django_db
def test_state_row_and_turn_records_are_the_replay(game, alice, bob, engine, settings):
    settings.WEC_SNAPSHOT_EVERY = 7
    play(game.pk, {"black": alice, "white": bob}, engine, 40)
    game = Game.objects.get(pk=game.pk)
    row = GameState.objects.get(game=game)
    truth = replayed(game, engine)
    assert row.seq == game.seq
    assert "log" not in row.state
    assert row.turns == engine.turn_count(truth) > 0
    assert json.loads(json.dumps(engine.dump_scenario(truth, history=False))) == row.state
    records = list(GameTurn.objects.filter(game=game).order_by("number").values_list("entry", flat=True))
    assert records == engine.turn_records(truth)
    for snap in Snapshot.objects.filter(game=game):
        assert "log" not in snap.state and snap.turns is not None
    # Loading from the row (no process cache) and from a snapshot + replay
    # both give the replayed game exactly.
    state_store.clear_caches()
    assert engine.dump_scenario(selectors.load_state(game)) == engine.dump_scenario(truth)
    middle = game.seq - 3
    assert engine.dump_scenario(selectors.load_state(game, upto=middle)) == engine.dump_scenario(
        _replay_upto(game, engine, middle)
    )
    call_command("verify_games")


def _replay_upto(game, engine, upto):
    state = engine.load_scenario(Snapshot.objects.get(game=game, seq=0).state)
    for row in GameAction.objects.filter(game=game, seq__lte=upto).order_by("seq"):
        state = engine.apply(state, row.action)
    return state


@pytest.mark.django_db
def test_verify_games_notices_a_tampered_state_row(game, alice, bob, engine):
    from games.management.commands.verify_games import verify_game

    play(game.pk, {"black": alice, "white": bob}, engine, 6)
    game = Game.objects.get(pk=game.pk)
    assert verify_game(game)[0] is None
    start = Snapshot.objects.get(game=game, seq=0)
    GameState.objects.filter(game=game).update(state=start.state)
    assert "current-state row" in verify_game(game)[0]


def history_of(html: str) -> tuple[list[str], list[str]]:
    found = {}
    for name in ("plain", "notation"):
        m = re.search(rf'<ol class="hist-{name}"[^>]*>(.*?)</ol>', html, re.S)
        found[name] = re.findall(r"<li>(.*?)</li>", m.group(1)) if m else None
    return found["plain"], found["notation"]


def appended(html: str, name: str) -> list[str] | None:
    m = re.search(rf'<ol hx-swap-oob="beforeend:#hist-{name}-list">(.*?)</ol>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", m.group(1)) if m else None


@pytest.mark.django_db
def test_board_sends_only_the_new_record_lines(client, game, alice, bob, engine):
    users = {"black": alice, "white": bob}
    play(game.pk, users, engine, 12)
    client.force_login(alice)
    url = reverse("game_board", args=[game.pk])
    full = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    plain, notation = history_of(full)
    assert plain and notation and 'hx-swap-oob="true"' in full
    # The page has all of them: nothing of the record is sent again.
    has = f"live:{len(plain)}:{len(notation)}"
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_X_WEC_HISTORY=has).content.decode()
    assert history_of(again) == (None, None) and appended(again, "plain") is None
    assert len(again) < len(full)
    # The page lacks the last line: just that one comes, appended.
    has = f"live:{len(plain) - 1}:{len(notation) - 1}"
    one = client.get(url, HTTP_HX_REQUEST="true", HTTP_X_WEC_HISTORY=has).content.decode()
    assert appended(one, "plain") == plain[-1:] and appended(one, "notation") == notation[-1:]
    # A page that claims more lines than there are, or the other mode, or
    # garbage, or has none (its record is hidden), gets the whole record.
    for bad in ("live:0:0", f"live:{len(plain) + 1}:0", f"review:{len(plain)}:{len(notation)}", "x", "live:-1:0"):
        html = client.get(url, HTTP_HX_REQUEST="true", HTTP_X_WEC_HISTORY=bad).content.decode()
        assert history_of(html) == (plain, notation)


def no_csrf(body: bytes) -> bytes:
    # A masked token differs on every request, cached or not.
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", body)


@pytest.mark.django_db
def test_board_render_cache_is_per_colour_and_version(client, game, alice, bob, engine, first_move):
    services.submit_action(game.pk, alice, first_move(selectors.load_state(game)), expected_seq=0)
    url = reverse("game_board", args=[game.pk])
    client.force_login(alice)
    first = client.get(url)
    second = client.get(url)
    assert first["X-Wec-Board-Cache"] == "miss" and second["X-Wec-Board-Cache"] == "hit"
    assert no_csrf(first.content) == no_csrf(second.content)
    # The cached HTML carries this session's own CSRF token, not a marker.
    assert b"@@wec-csrf@@" not in second.content and b"csrfmiddlewaretoken" in second.content
    client.force_login(bob)
    white = client.get(url)
    assert white["X-Wec-Board-Cache"] == "miss"
    assert no_csrf(white.content) != no_csrf(first.content)
    # A selection is never served from (or put into) the cache.
    client.force_login(alice)
    assert client.get(url, {"sel": "2-1-ground"})["X-Wec-Board-Cache"] == "miss"
    # Alice's own action gives her a new view version: a new entry.
    game = Game.objects.get(pk=game.pk)
    state = selectors.load_state(game)
    assert game.to_move == "black"
    action = next(a for a in engine.legal_actions(state) if a["type"] == "end_turn")
    services.submit_action(game.pk, alice, action, expected_seq=game.seq)
    assert client.get(url)["X-Wec-Board-Cache"] == "miss"
    assert client.get(url)["X-Wec-Board-Cache"] == "hit"


@pytest.mark.django_db
def test_turn_end_views_are_kept_per_colour_and_give_the_same_highlights(
    game, alice, bob, engine, django_capture_on_commit_callbacks
):
    """An End Turn keeps each colour's view at that boundary (process and
    Redis) under that colour's own key; the highlights computed from the kept
    views equal those computed by replaying, for both colours."""
    from games.ui.wec import highlights

    users = {"black": alice, "white": bob}
    ended = []
    rng = random.Random(5)
    for _ in range(30):
        g = Game.objects.get(pk=game.pk)
        if g.status != Game.Status.ACTIVE:
            break
        legal = engine.legal_actions(selectors.load_state(g))
        ends = [a for a in legal if a["type"] == "end_turn"]
        action = ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)
        with django_capture_on_commit_callbacks(execute=True):
            services.submit_action(game.pk, users[g.to_move], action, expected_seq=g.seq)
        if action["type"] == "end_turn":
            ended.append(g.seq + 1)
    assert len(ended) >= 2
    g = Game.objects.get(pk=game.pk)
    for seq in ended[-2:]:
        truth = selectors.load_state(g, upto=seq)
        for color in ("black", "white"):
            key = highlights._view_key(g, seq, color)
            # Kept without the record (the one part that grows with the game).
            assert highlights._VIEWS[key] == engine.view(truth, color, history=False)
            assert highlights._shared().get(highlights._shared_key(key)) == engine.view(truth, color, history=False)
    current = selectors.load_state(g)
    kept = {c: highlights.for_player(g, c, engine.view(current, c)) for c in ("black", "white")}
    highlights._VIEWS.clear()
    for seq in ended:
        highlights._shared().delete_many([highlights._shared_key(highlights._view_key(g, seq, c))
                                          for c in ("black", "white")])
    replayed_hl = {c: highlights.for_player(g, c, engine.view(current, c)) for c in ("black", "white")}
    assert kept == replayed_hl
