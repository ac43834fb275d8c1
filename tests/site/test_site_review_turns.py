"""An ended game's review offers one step per Turn, for every game.

What ends a Turn is the game's own rule (games.engines.Registered): Wec's
`end_turn`; in Marshal and Spy the Turn passes by itself after a side's
moves (two by default), and the two setups come before the first Turn.  The
review's steps follow the engine's own count of Turns, so step k is the
true board after Turn k, captioned with line k of the record; the
`/replay/?at=` endpoint, the spectators' replay and the precomputed review
(games.pages.review) all offer the same steps.
"""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.urls import reverse
from marshal_scenarios import hq_in_reach  # a small position, Black's General two steps from White's HQ

from games import selectors, services
from games.engines import get_engine
from games.models import Game, GameAction
from games.pages import review as review_page
from games.rules import marshal as rules
from games.store import action_log, render_cache

pytestmark = pytest.mark.django_db

MARSHAL = get_engine("marshal")


def get(client, user, name, game, **params) -> tuple[int, str]:
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    response = client.get(reverse(name, args=[game.pk]), params)
    return response.status_code, htmllib.unescape(response.content.decode())


# --- Marshal and Spy ---------------------------------------------------------------------


def marshal_game(alice, bob, **kw) -> Game:
    return services.create_game(
        creator=alice, opponent="user", username=bob.username, color="black", engine="marshal",
        days_per_move=None, **kw,
    )


def state_of(game):
    return selectors.load_state(selectors.get_game(game.pk))


def set_up(game, alice, bob) -> None:
    """Both armies in the engine's default arrangement, Black first (as the site asks)."""
    for user, index in ((alice, 0), (bob, -1)):
        pieces = rules.legal_actions(state_of(game))[index]["pieces"]
        services.submit_action(game.pk, user, {"type": "setup", "pieces": pieces})


def play(game, alice, bob, moves: int) -> None:
    """`moves` moves, each the first legal move the engine lists for the side to move."""
    users = {"black": alice, "white": bob}
    for _ in range(moves):
        state = state_of(game)
        move = next(a for a in MARSHAL.legal_actions(state) if a["type"] == "move")
        services.submit_action(game.pk, users[MARSHAL.to_move(state)], move)


def true_steps(game) -> list[set]:
    """The true board at each step of the review, from the engine's own count
    of Turns: once both armies stand, after each Turn its log records, and the
    end when the game stopped inside a Turn (a resignation).  Each board is a
    set of (row, col, colour, type)."""
    state = selectors.load_state(game, upto=0)
    boards = []

    def board(s) -> set:
        return {(p["row"], p["col"], p["color"], p["type"]) for p in MARSHAL.dump_scenario(s)["pieces"]}

    if state.phase != "setup":
        boards.append(board(state))
    for entry in GameAction.objects.filter(game=game).order_by("seq"):
        before = (state.phase, len(state.log))
        state = MARSHAL.apply(state, entry.action)
        if before[0] == "setup" and state.phase != "setup" or len(state.log) > before[1]:
            boards.append(board(state))
    if board(state) != boards[-1]:
        boards.append(board(state))
    return boards


TOKEN = re.compile(r'id="msq-(\d+)-(\d+)">\s*<span class="mcell"><span class="mtok mtok-(black|white)[^>]*>'
                   r'<svg class="micon" aria-hidden="true"><use href="#m-(\w+)"/>')


def shown(html: str) -> set:
    """The pieces a replay partial shows, as (row, col, colour, type)."""
    replay = html.split('id="replay"', 1)[1]
    return {(int(r), int(c), color, kind) for r, c, color, kind in TOKEN.findall(replay)}


def check_marshal_review(client, game, alice, bob, carol, partial_last: bool) -> int:
    """Every step of `game`'s review, as both players and a spectator reach it."""
    game = selectors.get_game(game.pk)
    assert game.status == Game.Status.FINISHED
    truth = true_steps(game)
    final = selectors.load_state(game)
    plain = [selectors.history_lines(game, final, "black")["plain"][i] for i in range(len(MARSHAL.history(final)))]
    turns = len(plain)
    # One step before the first Turn, one per line of the record, and one for
    # the Turn a resignation cut short (the engine records no line for it).
    last = turns + (1 if partial_last else 0)
    assert len(truth) == last + 1
    frames = selectors.replay_frames(game)
    assert len(frames) == last + 1 and frames == sorted(set(frames)) and frames[-1] == game.seq
    for at in range(last + 1):
        for user, name in ((alice, "game_replay"), (bob, "game_replay"), (carol, "watch_replay")):
            status, html = get(client, user, name, game, at=at)
            assert status == 200
            assert f'data-at="{at}" data-last="{last}"' in html, (at, name)
            assert shown(html) == truth[at], (at, name)
            if at == 0:
                assert "Start position." in html
            elif at <= turns:
                assert f"After turn {at} of {last}: {plain[at - 1]}" in html
            else:
                assert f"After turn {at} of {last} — the game ended during this turn." in html
    # Past the end: the end, not an error.
    status, html = get(client, alice, "game_replay", game, at=last + 5)
    assert status == 200 and f'data-at="{last}" data-last="{last}"' in html
    # The game page opens the review at its end.
    status, html = get(client, bob, "game_detail", game)
    assert status == 200 and f'data-at="{last}" data-last="{last}"' in html
    # The precomputed review has every step, for both players.
    render_cache.cache().clear()
    assert review_page.precompute(game.pk) == 2 * (last + 1)
    for seat in game.seats.all():
        for at in range(last + 1):
            cached = render_cache.cache().get(review_page.review_key(game, seat, at))
            assert cached is not None and f'data-at="{at}"' in cached
            assert shown(htmllib.unescape(cached)) == truth[at]
    return last


def test_marshal_review_steps_through_every_turn_of_two_moves(client, alice, bob, carol):
    """The standard game (two moves a Turn), set up on the site, three whole
    Turns and one move of the fourth, then a resignation."""
    game = marshal_game(alice, bob, options={"volcanoes": 0})
    set_up(game, alice, bob)
    play(game, alice, bob, 7)
    services.resign(game.pk, bob)
    game = selectors.get_game(game.pk)
    assert len(MARSHAL.history(selectors.load_state(game))) == 3  # a line per whole Turn
    # The setups come before the first Turn: the review starts once both armies stand.
    assert selectors.replay_frames(game) == [2, 4, 6, 8, 9]
    assert check_marshal_review(client, game, alice, bob, carol, partial_last=True) == 4


def test_marshal_review_with_one_move_a_turn(client, alice, bob, carol):
    """One move a Turn: each move is a Turn of its own; resigned between Turns."""
    game = marshal_game(alice, bob, options={"volcanoes": 0, "moves_per_turn": 1})
    set_up(game, alice, bob)
    play(game, alice, bob, 5)
    services.resign(game.pk, alice)
    game = selectors.get_game(game.pk)
    assert selectors.replay_frames(game) == [2, 3, 4, 5, 6, 7]
    assert check_marshal_review(client, game, alice, bob, carol, partial_last=False) == 5


def test_marshal_review_of_a_game_the_engine_ended(client, alice, bob, carol):
    """From a scenario (no setups): two Turns, then Black takes White's HQ with
    the first move of its second Turn; the engine records that Turn's line."""
    game = services.create_game(
        creator=alice, opponent="user", username=bob.username, color="black", engine="marshal",
        scenario=hq_in_reach(), days_per_move=None,
    )
    for user, move in (
        (alice, ((9, 9), (10, 9))), (alice, ((4, 2), (4, 3))),
        (bob, ((9, 1), (8, 1))), (bob, ((6, 6), (6, 7))),
        (alice, ((10, 9), (10, 10))),
    ):
        services.submit_action(game.pk, user, {"type": "move", "from": list(move[0]), "to": list(move[1])})
    game = selectors.get_game(game.pk)
    assert game.result["reason"] == "hq_captured"
    assert selectors.replay_frames(game) == [0, 2, 4, 5]
    assert check_marshal_review(client, game, alice, bob, carol, partial_last=False) == 3


def test_marshal_review_of_a_game_resigned_during_setup(client, alice, bob, carol):
    """No Turn was played: the review is one step, the board as it was left."""
    game = marshal_game(alice, bob, options={"volcanoes": 0})
    pieces = rules.legal_actions(state_of(game))[0]["pieces"]
    services.submit_action(game.pk, alice, {"type": "setup", "pieces": pieces})
    services.resign(game.pk, bob)
    game = selectors.get_game(game.pk)
    assert selectors.replay_frames(game) == [1]
    status, html = get(client, alice, "game_replay", game, at=3)
    assert status == 200 and 'data-at="0" data-last="0"' in html and "Start position." in html
    assert {kind for _r, _c, color, kind in shown(html) if color == "black"} and not {
        p for p in shown(html) if p[2] == "white"
    }
    render_cache.cache().clear()
    assert review_page.precompute(game.pk) == 2


# --- Wec: the same, unchanged --------------------------------------------------------------


def test_wec_review_steps_and_turn_end_reads_are_unchanged(
    client, game, alice, bob, carol, engine, first_move, django_assert_num_queries
):
    players = {"black": alice, "white": bob}
    for _ in range(3):
        state = state_of(game)
        user = players[engine.to_move(state)]
        services.submit_action(game.pk, user, first_move(state))
        services.submit_action(game.pk, user, {"type": "end_turn"})
    services.submit_action(game.pk, bob, first_move(state_of(game)))
    game = selectors.get_game(game.pk)
    # The Turn ends are the end_turn actions: one query for all of them, one
    # for the last few (a short game's log is one chunk read backwards).
    with django_assert_num_queries(1):
        assert action_log.turn_ends(game) == [(2, "black"), (4, "white"), (6, "black")]
    with django_assert_num_queries(1):
        assert action_log.turn_ends(game, last=2) == [(4, "white"), (6, "black")]
    services.resign(game.pk, bob)
    game = selectors.get_game(game.pk)
    frames = selectors.replay_frames(game)
    assert frames == [0, 2, 4, 6, 7]
    for at in range(len(frames)):
        for user, name in ((alice, "game_replay"), (carol, "watch_replay")):
            status, html = get(client, user, name, game, at=at)
            assert status == 200 and f'data-at="{at}"' in html, (at, name)
    render_cache.cache().clear()
    assert review_page.precompute(game.pk) == 2 * len(frames)


def test_every_engine_entry_says_what_ends_a_turn():
    from games.engines import ENGINES, Registered

    assert ENGINES["wec"].turn_end == "end_turn" and ENGINES["marshal"].turn_actions == ("move",)
    for wrong in ({}, {"turn_end": "end_turn", "turn_actions": ("move",)}):
        with pytest.raises(ValueError, match="exactly one"):
            Registered("games.rules.some_game", **wrong)
