"""The open record: a friendly game's record is closed (censored like a
competitive game's) unless both players agreed to open it.  Then both
records show every action while the game runs, the game page and the
challenge say so, and no sentence claims "as you saw it".  The term is
refused for competitive games and for Marshal and Spy (which has none);
existing games are closed by the data migration.

The worlds of tests/site/leak_worlds.py: in world B White's Sub moves,
unseen by Black, from (9,9) to (8,9)."""

from __future__ import annotations

import html
import importlib

import pytest
from django.apps import apps
from django.urls import reverse
from leak_worlds import TIMELINE, challenge_to_the_scenario, legal
from option_fields import options_post

import games.rules.wec as wec
from games import selectors, services
from games.models import Game, GameState, Seat, Snapshot
from games.store import states as state_store

pytestmark = pytest.mark.django_db

UNSEEN = "MV:SUv(9,9)->v(8,9)"
UNSEEN_HTML = html.escape(UNSEEN)


def _play(alice, bob, **terms) -> Game:
    """World B's timeline, Alice Black and Bob White."""
    game = challenge_to_the_scenario(bob, days_per_move=3, **terms)
    users = {"black": alice, "white": bob}
    for who, _a, actions in TIMELINE:
        for wanted in actions:
            g = selectors.get_game(game.pk)
            services.submit_action(
                game.pk, users[who], legal(selectors.load_state(g), wanted), expected_seq=g.seq
            )
    return selectors.get_game(game.pk)


def _pages(client, user, game) -> dict[str, str]:
    client.force_login(user)
    return {
        "game": client.get(reverse("game_detail", args=[game.pk])).content.decode(),
        "board": client.get(reverse("game_board", args=[game.pk]), HTTP_HX_REQUEST="true").content.decode(),
        "export": client.get(reverse("export_record", args=[game.pk])).content.decode(),
    }


def test_an_agreed_open_record_shows_everything_to_both_and_says_so(client, alice, bob):
    game = _play(alice, bob, competitive=False, open_record=True)
    assert game.options["open_record"] is True
    for user in (alice, bob):
        pages = _pages(client, user, game)
        assert UNSEEN_HTML in pages["game"] and UNSEEN in pages["export"]
        assert 'id="open-record-banner"' in pages["game"]
        assert "open record: every action of both sides" in pages["game"]
        # No record sentence says "as you saw"; the highlights still do, and
        # truly: they come from the player's own view, never from the record.
        for claim in ("Moves so far (as you saw them)", "as you saw it:", "record so far (as you saw it)"):
            assert claim not in pages["game"] + pages["board"], claim
        assert '[Record "open: every action of both sides"]' in pages["export"]
        assert "Download the open record so far" in pages["board"]


def test_a_friendly_game_is_closed_by_default_and_says_as_you_saw_it(client, alice, bob):
    game = _play(alice, bob, competitive=False)
    assert game.options["open_record"] is False
    pages = _pages(client, alice, game)
    assert UNSEEN_HTML not in pages["game"] + pages["board"] and UNSEEN not in pages["export"]
    assert "MV:?" in pages["game"]
    assert 'id="open-record-banner"' not in pages["game"]
    assert "Moves so far (as you saw them)" in pages["game"]
    assert '[Record "as black saw it"]' in pages["export"]
    assert "Download your record so far (as you saw it)" in pages["board"]
    # The mover reads its own Turn in full.
    assert UNSEEN in _pages(client, bob, game)["export"]


def test_the_arrows_words_follow_the_record(client, alice, bob):
    """The enemy-move words come from the record: "as you saw it" only when
    the record is censored (checked on White's seen King Move, the last
    enemy Turn Black has when it is Black's turn)."""
    closed = _pages(client, alice, _play(alice, bob, competitive=False))["board"]
    assert "as you saw it:" in closed
    opened = _pages(client, alice, _play(alice, bob, competitive=False, open_record=True))["board"]
    assert "(open record):" in opened and "as you saw it:" not in opened


def test_the_term_is_refused_for_competitive_games_and_for_marshal(client, alice, bob):
    with pytest.raises(services.InvalidRequest):
        services.create_game(
            creator=bob, opponent="user", username="alice", competitive=True, open_record=True
        )
    with pytest.raises(services.InvalidRequest):
        services.create_game(
            creator=bob,
            opponent="user",
            username="alice",
            competitive=False,
            open_record=True,
            engine="marshal",
        )
    marshal_game = services.create_game(
        creator=bob, opponent="user", username="alice", competitive=False, engine="marshal"
    )
    assert "open_record" not in marshal_game.options
    client.force_login(alice)
    before = Game.objects.count()
    data = {
        "opponent": "user",
        "username": "bob",
        "color": "black",
        "days_per_move": "3",
        "open_record": "on",
    }
    response = client.post(reverse("new_game"), {**data, "kind": "competitive"})
    assert (
        response.status_code == 400
        and "An open record is for friendly games only." in response.content.decode()
    )
    assert Game.objects.count() == before
    response = client.post(reverse("new_game"), {**data, "kind": "friendly"})
    assert response.status_code == 302
    assert Game.objects.latest("pk").options["open_record"] is True


def test_the_open_record_is_a_challenge_term_proposed_and_approved(client, alice, bob):
    client.force_login(alice)
    data = {"opponent": "user", "username": "bob", "color": "black", "days_per_move": "3", "kind": "friendly"}
    assert client.post(reverse("new_game"), {**data, "open_record": "on"}).status_code == 302
    game = Game.objects.latest("pk")
    client.force_login(bob)
    html = client.get(reverse("challenge_detail", args=[game.pk])).content.decode()
    assert 'id="challenge-open-record"' in html and 'id="propose-record"' in html
    # Bob proposes to close it; Alice approves; the engine plays it closed.
    propose = {"days_per_move": "3", "open_record": "closed", **options_post()}
    assert client.post(reverse("challenge_propose", args=[game.pk]), propose).status_code == 302
    client.force_login(alice)
    html = client.get(reverse("challenge_detail", args=[game.pk])).content.decode()
    assert 'id="proposal-record"' in html
    assert client.post(reverse("challenge_answer", args=[game.pk]), {"answer": "approve"}).status_code == 302
    game.refresh_from_db()
    assert game.options["open_record"] is False
    assert Snapshot.objects.get(game=game, seq=0).state["options"]["open_record"] is False
    assert (
        'id="challenge-open-record"'
        not in client.get(reverse("challenge_detail", args=[game.pk])).content.decode()
    )
    # An open record for a competitive game, or a bad value: a clear 400, nothing changes.
    for bad in ({"kind": "competitive", "open_record": "open"}, {"open_record": "maybe"}):
        response = client.post(reverse("challenge_propose", args=[game.pk]), {**propose, **bad})
        assert response.status_code == 400, bad
    game.refresh_from_db()
    assert game.proposal is None and game.options["open_record"] is False


def test_the_migration_closes_the_records_of_existing_games(client, alice, bob):
    """A friendly game made before the term (no open_record anywhere): its
    record was open; after the migration it is closed, the action log is
    untouched and the seats' view versions moved on."""
    game = _play(alice, bob, competitive=False)
    # As the game was stored before the term existed.
    game.options.pop("open_record")
    Game.objects.filter(pk=game.pk).update(options=game.options)
    for model in (GameState, Snapshot):
        for row in model.objects.filter(game=game):
            row.state["options"].pop("open_record", None)
            model.objects.filter(pk=row.pk).update(state=row.state)
    state_store.clear_caches()
    old = selectors.get_game(game.pk)
    assert wec.history(selectors.load_state(old), "black")[1].startswith(UNSEEN)
    log = list(old.actions.order_by("seq").values_list("seq", "action"))
    versions = dict(Seat.objects.filter(game=game).values_list("color", "version"))

    migration = importlib.import_module("games.migrations.0016_friendly_closed_records")
    migration.close_records(apps, None)
    state_store.clear_caches()

    new = selectors.get_game(game.pk)
    assert new.options["open_record"] is False
    assert wec.history(selectors.load_state(new), "black")[1] == "MV:?"
    assert list(new.actions.order_by("seq").values_list("seq", "action")) == log
    assert all(s.version == versions[s.color] + 1 for s in Seat.objects.filter(game=game))
    assert UNSEEN_HTML not in _pages(client, alice, new)["game"]
    # Run again, it changes nothing more.
    migration.close_records(apps, None)
    assert all(s.version == versions[s.color] + 1 for s in Seat.objects.filter(game=game))


def test_a_friendly_marshal_game_stays_censored(alice, bob):
    """Marshal and Spy has no open record: its engine censors every running
    game, friendly or not, and the site never writes the term into it."""
    from games.engines import get_engine

    game = services.create_game(
        creator=bob, opponent="user", username="alice", competitive=False, engine="marshal"
    )
    engine = get_engine("marshal")
    state = selectors.load_state(game)
    assert "open_record" not in game.options
    assert (
        engine.censors(state, "black") and engine.censors(state, "white") and not engine.censors(state, None)
    )
    # A stray term is dropped before it reaches the engine.
    assert engine.resolve_options({"competitive": False, "open_record": True}) == engine.resolve_options({})
