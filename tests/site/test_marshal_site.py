"""Marshal and Spy on the site: a game created through the
services, set up by both players (by hand, at random, from a favourite), moves
by posting the board's forms, a fight, a Spy reveal, refusals, spectators,
the review and the AI seat."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from marshal_scenarios import SMALL, hq_in_reach  # the site tests' small positions

from games import selectors, services
from games.models import Game, GameAction, SetupFavourite
from games.rules import marshal as rules

pytestmark = pytest.mark.django_db


def login(client, user):
    client.force_login(user)
    return client


def marshal_game(alice, bob, **kw):
    kw.setdefault("days_per_move", None)
    return services.create_game(
        creator=alice, opponent="user", username=bob.username, color="black", engine="marshal", **kw
    )


def version(game, user) -> int:
    game = selectors.get_game(game.pk)
    return selectors.seat_for(game, user).version


def act(client, game, user, action, htmx=True):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(
        reverse("game_act", args=[game.pk]),
        {"action": json.dumps(action), "version": version(game, user)},
        **headers,
    )


def state_of(game):
    return selectors.load_state(selectors.get_game(game.pk))


# A hand-made setup for both colours (the engine's default arrangement, with
# a Spy in front so that it meets the enemy early).
def army(color, game):
    return rules.legal_actions(state_of(game))[0 if color == "black" else -1]["pieces"]


def test_create_and_page_shows_setup_screen(client, alice, bob):
    game = marshal_game(alice, bob)
    assert game.engine == "marshal" and game.status == Game.Status.ACTIVE
    assert game.to_move == "black"  # the site waits for Black's setup first
    page = login(client, alice).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="setup-screen"' in page and "Marshal and Spy" in page
    assert "js/marshal_setup.js" in page
    # White waits: no setup screen, no Black piece.
    client.force_login(bob)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="setup-screen"' not in page and "Waiting for your opponent to set up." in page
    assert "mtok-black" not in page


def test_setup_by_hand_random_and_refusals(client, alice, bob):
    game = marshal_game(alice, bob)
    login(client, alice)
    # Not White's turn to set up yet.
    client.force_login(bob)
    r = act(client, game, bob, {"type": "setup", "random": True})
    assert r.status_code == 409
    client.force_login(alice)
    # An army with a piece outside the zone: the engine refuses with a clear 422.
    pieces = army("black", game)
    bad = [dict(p) for p in pieces]
    bad[0]["row"] = 5
    r = act(client, game, alice, {"type": "setup", "pieces": bad})
    assert r.status_code == 422 and GameAction.objects.filter(game=game).count() == 0
    r = act(client, game, alice, {"type": "setup", "pieces": "nonsense"})
    assert r.status_code == 400
    # A move during setup is refused.
    r = act(client, game, alice, {"type": "move", "from": [3, 1], "to": [4, 1]})
    assert r.status_code == 422
    r = act(client, game, alice, {"type": "setup", "pieces": pieces})
    assert r.status_code == 200, r.content
    game = selectors.get_game(game.pk)
    assert game.to_move == "white"
    client.force_login(bob)
    r = act(client, game, bob, {"type": "setup", "random": True})
    assert r.status_code == 200
    entry = GameAction.objects.filter(game=game).order_by("-seq").first()
    assert isinstance(entry.action["random"], int)  # the site drew the number
    game = selectors.get_game(game.pk)
    assert game.to_move == "black" and state_of(game).phase == "play"
    # The number drawn never reaches a player.
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert str(entry.action["random"]) not in page


def test_favourite_setup_saved_and_offered(client, alice, bob):
    game = marshal_game(alice, bob)
    login(client, alice)
    pieces = army("black", game)
    pieces[0]["type"], pieces[-1]["type"] = pieces[-1]["type"], pieces[0]["type"]
    r = client.post(reverse("setup_favourite", args=[game.pk]), {"pieces": json.dumps(pieces)})
    assert r.status_code == 200
    assert SetupFavourite.objects.filter(user=alice, engine="marshal").count() == 1
    r = client.post(reverse("setup_favourite", args=[game.pk]), {"pieces": "[1,2]"})
    assert r.status_code == 400
    # Offered (flipped to White's side) in another game where Alice is White.
    other = services.create_game(creator=bob, opponent="user", username="alice", color="black", engine="marshal",
                                 days_per_move=None)
    client.force_login(bob)
    act(client, other, bob, {"type": "setup", "random": True})
    client.force_login(alice)
    page = client.get(reverse("game_detail", args=[other.pk])).content.decode()
    assert "Your favourite setup is filled in." in page
    initial = json.loads(re.search(r'data-initial="([^"]*)"', page).group(1).replace("&quot;", '"'))
    rows = {p["row"] for p in initial}
    assert rows == {8, 9, 10}
    r = act(client, other, alice, {"type": "setup", "pieces": initial})
    assert r.status_code == 200, r.content


def _both_set_up(client, game, alice, bob):
    client.force_login(alice)
    assert act(client, game, alice, {"type": "setup", "pieces": army("black", game)}).status_code == 200
    client.force_login(bob)
    assert act(client, game, bob, {"type": "setup", "pieces": army("white", game)}).status_code == 200
    return selectors.get_game(game.pk)


def test_moves_by_click_and_turn_passes(client, alice, bob):
    game = _both_set_up(client, marshal_game(alice, bob), alice, bob)
    client.force_login(alice)
    state = state_of(game)
    move = rules.legal_actions(state)[0]
    key = f"{move['from'][0]}-{move['from'][1]}"
    board = client.get(reverse("game_board", args=[game.pk]) + f"?sel={key}").content.decode()
    assert f'data-target="{move["to"][0]}-{move["to"][1]}"' in board
    # The page's own form value is what gets posted.
    value = re.search(r'<input type="hidden" name="action" value=\'([^\']*)\'', board).group(1)
    posted = json.loads(value)
    assert posted["from"] == move["from"]
    r = act(client, game, alice, posted)
    assert r.status_code == 200
    game = selectors.get_game(game.pk)
    assert game.to_move == "black"  # one of two moves made
    second = next(a for a in rules.legal_actions(state_of(game)) if a["from"] != posted["to"])
    assert act(client, game, alice, second).status_code == 200
    game = selectors.get_game(game.pk)
    assert game.to_move == "white"
    # Bad input: 4xx with a message, nothing changes.
    seq = game.seq
    client.force_login(bob)
    r = act(client, game, bob, {"type": "move", "from": [1, 1], "to": [9, 9]})
    assert r.status_code == 422 and selectors.get_game(game.pk).seq == seq
    r = act(client, game, bob, {"type": "move", "from": "x"})
    assert r.status_code == 400
    r = client.post(reverse("game_act", args=[game.pk]), {"action": "{", "version": 0})
    assert r.status_code == 400


def _scenario_game(alice, bob, doc):
    return services.create_game(
        creator=alice, opponent="user", username=bob.username, color="black", engine="marshal",
        scenario=doc, days_per_move=None,
    )


def test_fight_and_spy_reveal_on_the_page(client, alice, bob):
    game = _scenario_game(alice, bob, SMALL)
    client.force_login(alice)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    # Black does not know the enemy types.
    assert 'title="Colonel' not in page and 'title="Captain' not in page
    # The Spy steps next to the Colonel: revealed to Black from now on.
    assert act(client, game, alice, {"type": "move", "from": [4, 2], "to": [5, 2]}).status_code == 200
    board = client.get(reverse("game_board", args=[game.pk])).content.decode()
    assert 'title="Colonel — revealed by your Spy"' in board
    # The General attacks the unknown Captain and wins.
    assert act(client, game, alice, {"type": "move", "from": [4, 5], "to": [5, 5]}).status_code == 200
    board = client.get(reverse("game_board", args=[game.pk])).content.decode()
    assert 'id="lost-enemy"' in board and "unknown piece ×1" in board
    # White's side: it knows its own Captain died, and which of its pieces Black knows.
    client.force_login(bob)
    board = client.get(reverse("game_board", args=[game.pk])).content.decode()
    assert "Captain ×1" in board
    assert re.search(r'id="known-own">.*Colonel \(6,2\)', board, re.S)
    assert 'title="General' not in board  # the General that won is not revealed to White


def test_spectator_sees_public_view_only(client, alice, bob, carol):
    game = _scenario_game(alice, bob, SMALL)
    client.force_login(carol)
    page = client.get(reverse("watch", args=[game.pk])).content.decode()
    for secret in ("General", "Captain", "Colonel", "Spy", "Headquarters"):
        assert f'title="{secret}' not in page
    client.force_login(alice)
    act(client, game, alice, {"type": "move", "from": [4, 2], "to": [5, 2]})
    client.force_login(carol)
    page = client.get(reverse("watch", args=[game.pk])).content.decode()
    assert 'title="Colonel' in page  # revealed to Black: both players know it now
    assert 'title="General' not in page and 'title="Spy' not in page


def test_ended_game_review_and_export(client, alice, bob):
    game = _scenario_game(alice, bob, hq_in_reach())  # the General beside White's HQ
    client.force_login(alice)
    assert act(client, game, alice, {"type": "move", "from": [9, 9], "to": [10, 9]}).status_code == 200
    assert act(client, game, alice, {"type": "move", "from": [10, 9], "to": [10, 10]}).status_code == 422
    assert act(client, game, alice, {"type": "move", "from": [4, 2], "to": [4, 3]}).status_code == 200
    client.force_login(bob)
    assert act(client, game, bob, {"type": "move", "from": [9, 1], "to": [8, 1]}).status_code == 200
    assert act(client, game, bob, {"type": "move", "from": [6, 6], "to": [6, 7]}).status_code == 200
    client.force_login(alice)
    assert act(client, game, alice, {"type": "move", "from": [10, 9], "to": [10, 10]}).status_code == 200
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.FINISHED and game.result["winner"] == "black"
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="replay"' in page and 'title="Captain' in page  # the truth once over
    r = client.get(reverse("game_replay", args=[game.pk]) + "?at=1")
    assert r.status_code == 200 and "After turn 1" in r.content.decode()
    r = client.get(reverse("export_record", args=[game.pk]))
    assert r.status_code == 200 and "xH(10,10)#" in r.content.decode()
    assert '[Engine "marshal"]' in r.content.decode() and "\n1. B: 5(9,9)-(10,9)" in r.content.decode()
    assert r["Content-Disposition"].endswith(f'filename="marshal-game-{game.pk}.txt"')
    # Ratings are per game: the Marshal rating moved, the Wec one (User row) did not.
    from games.models import GameRating

    alice.refresh_from_db()
    assert alice.rating == 1500.0
    mine = GameRating.objects.get(user=alice, engine="marshal")
    theirs = GameRating.objects.get(user=bob, engine="marshal")
    assert mine.rating > 1500.0 > theirs.rating
    board = client.get(reverse("leaderboard") + "?game=marshal").content.decode()
    assert board.index(alice.shown_name) < board.index(bob.shown_name)
    assert client.get(reverse("leaderboard") + "?game=nope").status_code == 404


def test_ai_seat_sets_up_and_moves(client, alice, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    game = services.create_game(creator=alice, opponent="ai", color="white", engine="marshal")
    assert tasks.play_ai_turn(game.pk) == 1  # the AI (Black) sets up, then it is Alice's
    game = selectors.get_game(game.pk)
    assert game.to_move == "white" and state_of(game).phase == "setup"
    assert tasks.play_ai_turn(game.pk) == 0  # not its turn: does nothing
    client.force_login(alice)
    assert act(client, game, alice, {"type": "setup", "random": True}).status_code == 200
    game = selectors.get_game(game.pk)
    assert game.to_move == "black" and state_of(game).phase == "play"
    assert tasks.play_ai_turn(game.pk) in (1, 2)  # its first turn: one or two moves
    game = selectors.get_game(game.pk)
    assert game.to_move == "white" and state_of(game).turn_number == 2
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'title="General' in page  # Alice's own
    assert page.count("mtok-black") == 30 and 'mtok-black" title="unknown piece"' in page


def test_new_game_form_makes_a_marshal_seek_with_options(client, alice, bob):
    login(client, alice)
    home = client.get(reverse("home")).content.decode()
    assert 'id="game-options-marshal"' in home and 'name="mopt_volcanoes"' in home
    r = client.post(reverse("new_game"), {
        "engine": "marshal", "opponent": "open", "color": "black", "days_per_move": "3", "kind": "competitive",
        "mopt_columns": "11", "mopt_setup_rows": "3", "mopt_neutral_rows": "4", "mopt_volcanoes": "2",
        "mopt_moves_per_turn": "1", "mopt_no_return": "until_moved", "mopt_turn_limit": "0",
        # the Wec section is on the same form: ignored for a Marshal game
        "opt_movement": "weaponized",
    })
    assert r.status_code == 302
    game = Game.objects.get(engine="marshal")
    assert game.status == Game.Status.OPEN
    assert game.options == {"columns": 11, "volcanoes": 2, "moves_per_turn": 1, "no_return": "until_moved",
                            "competitive": True}
    # A bad value: a clear 400, no game.
    r = client.post(reverse("new_game"), {"engine": "marshal", "opponent": "open", "color": "black",
                                          "days_per_move": "3", "mopt_columns": "13", "mopt_setup_rows": "3",
                                          "mopt_neutral_rows": "4", "mopt_volcanoes": "2", "mopt_moves_per_turn": "1",
                                          "mopt_no_return": "until_moved", "mopt_turn_limit": "0"})
    assert r.status_code == 400 and Game.objects.filter(engine="marshal").count() == 1
    r = client.post(reverse("new_game"), {"engine": "chess", "opponent": "open", "color": "black", "days_per_move": "3"})
    assert r.status_code == 400
    # Bob sees and accepts the seek; the board is 11 columns wide.
    client.force_login(bob)
    assert "(Marshal and Spy)" in client.get(reverse("home")).content.decode()
    assert client.post(reverse("accept_seek", args=[game.pk])).status_code == 302
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.ACTIVE
    client.force_login(alice)
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="msq-3-11"' in page and "Move one piece." not in page  # setting up first
    assert act(client, game, alice, {"type": "setup", "random": True}).status_code == 200
    client.force_login(bob)
    assert act(client, game, bob, {"type": "setup", "random": True}).status_code == 200
    client.force_login(alice)
    assert "Move one piece." in client.get(reverse("game_detail", args=[game.pk])).content.decode()


def test_verify_games_replays_a_marshal_game(client, alice, bob, settings):
    """The log's hash chain and every snapshot check out by replaying through
    the site's Marshal engine (random setups included: the number is logged)."""
    from games.management.commands.verify_games import verify_game

    settings.WEC_SNAPSHOT_EVERY = 3
    game = _both_set_up(client, marshal_game(alice, bob), alice, bob)
    client.force_login(alice)
    for _ in range(2):
        state = state_of(game)
        moved = set()
        for __ in range(2):
            move = next(a for a in rules.legal_actions(state_of(game)) if tuple(a["from"]) not in moved)
            moved.add(tuple(move["to"]))
            user = alice if state.to_move == "black" else bob
            client.force_login(user)
            assert act(client, game, user, move).status_code == 200
        game = selectors.get_game(game.pk)
    problem, actions, snapshots = verify_game(selectors.get_game(game.pk))
    assert problem is None and actions == game.seq and snapshots >= 2


def test_the_ai_chooses_from_its_own_view_only():
    """The site's AI entry point: two worlds that differ only in two White
    types Black cannot see give Black's AI the same choice, setup included."""
    from games.engines import marshal as site_engine

    doc = json.loads(json.dumps(SMALL))
    other = json.loads(json.dumps(SMALL))
    other["pieces"][5]["type"], other["pieces"][7]["type"] = "corporal", "captain"  # exchange two unseen types
    a, b = rules.load_scenario(doc), rules.load_scenario(other)
    assert rules.dump_scenario(a) != rules.dump_scenario(b)
    for seed in range(20):
        assert site_engine.choose_action(a, seed) == site_engine.choose_action(b, seed)
    fresh = site_engine.new_game({"competitive": True})
    setup = site_engine.choose_action(fresh, 3)
    assert setup["type"] == "setup" and setup["color"] == "black" and len(setup["pieces"]) == 30


# --- the shared clocks ----------------------------------------------------------------------


def _play_until_turn_passes(game, user):
    """`user`'s legal moves through the service until the turn passes."""
    while True:
        game = selectors.get_game(game.pk)
        if game.to_move != selectors.seat_for(game, user).color:
            return game
        move = rules.legal_actions(state_of(game))[0]
        services.submit_action(game.pk, user, move, expected_seq=game.seq)


def test_clock_vacation_day_then_loss_on_time(client, alice, bob):
    """Marshal games run on the shared clocks: the deadline starts with the
    play and passes with the turn; a player with automatic vacation days whose time is up
    spends a vacation day instead of losing; once no day is left, the
    clock check ends the game on time (the engine's state untouched)."""
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks
    from games.models import Seat

    day = timedelta(days=1)
    game = marshal_game(alice, bob, days_per_move=2)
    deadlines = {s.color: s.deadline for s in Seat.objects.filter(game=game)}
    assert deadlines["white"] is None and abs(deadlines["black"] - (timezone.now() + 2 * day)) < timedelta(minutes=1)
    game = _both_set_up(client, game, alice, bob)
    game = _play_until_turn_passes(game, alice)  # Black's first turn: now White (Bob) is to move
    assert game.to_move == "white"
    deadlines = {s.color: s.deadline for s in Seat.objects.filter(game=game)}
    assert deadlines["black"] is None and abs(deadlines["white"] - (timezone.now() + 2 * day)) < timedelta(minutes=1)

    bob.auto_vacation, bob.vacation_days = True, 1
    bob.save()
    passed = timezone.now() - timedelta(minutes=1)
    Seat.objects.filter(game=game, color="white").update(deadline=passed)
    seq, actions = game.seq, GameAction.objects.filter(game=game).count()
    assert tasks.check_clocks() == 1  # the vacation day is spent
    bob.refresh_from_db()
    assert bob.vacation_days == 0 and bob.vacation_paid_until == passed + day
    assert Seat.objects.get(game=game, color="white").deadline == passed + day
    assert selectors.get_game(game.pk).status == Game.Status.ACTIVE
    assert tasks.check_clocks() == 0  # covered for now

    # A day later no vacation day is left: White loses on time.
    seat_id = Seat.objects.get(game=game, color="white").pk
    outcome = services.enforce_deadline(seat_id, now=passed + day + timedelta(minutes=1))
    assert outcome == services.DeadlineOutcome.TIMEOUT
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.FINISHED and game.result == {"winner": "black", "reason": "timeout"}
    assert game.seq == seq and GameAction.objects.filter(game=game).count() == actions
    assert all(s.deadline is None for s in Seat.objects.filter(game=game))
    page = login(client, bob).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "time ran out" in page
    with pytest.raises(services.GameNotActive):
        services.submit_action(game.pk, bob, {"type": "move", "from": [8, 1], "to": [7, 1]}, expected_seq=game.seq)


# --- engine refusals in the reader's language -------------------------------------------------


def test_marshal_refusal_reaches_the_player_in_german(client, alice, bob):
    """The engine's English refusal is shown translated (games/ui/marshal/refusals.py)."""
    game = marshal_game(alice, bob)
    alice.language = "de"  # the signed-in user's own choice (accounts.middleware)
    alice.save()
    login(client, alice)
    bad = [dict(p) for p in army("black", game)]
    bad[0]["row"] = 5
    r = act(client, game, alice, {"type": "setup", "pieces": bad})
    assert r.status_code == 422
    page = r.content.decode()
    assert "liegt außerhalb deiner Aufstellungszone" in page, page[:2000]
    assert "setup zone" not in page
    # The favourite endpoint speaks the same language.
    r = client.post(reverse("setup_favourite", args=[game.pk]), {"pieces": json.dumps(bad)})
    assert r.status_code == 400 and "außerhalb deiner Aufstellungszone" in r.content.decode()


def test_every_marshal_refusal_row_matches_the_engine():
    """Each row of the table matches a message the engine really writes, so
    a change to the engine's wording shows up here."""
    from django.utils import translation

    from games.ui.marshal.refusals import translate

    fresh = rules.new_game({})
    pieces = rules.legal_actions(fresh)[0]["pieces"]
    wrong_zone = [dict(p) for p in pieces]
    wrong_zone[0]["row"] = 5
    samples = []
    for action in (
        {"type": "setup", "color": "black", "pieces": wrong_zone},
        {"type": "setup", "color": "black", "pieces": pieces[1:]},
        {"type": "move", "from": [3, 1], "to": [4, 1]},
    ):
        with pytest.raises(rules.IllegalAction) as exc:
            rules.apply(fresh, action)
        samples.append(str(exc.value))
    with translation.override("de"):
        for message in samples:
            assert translate(message) != message, message
