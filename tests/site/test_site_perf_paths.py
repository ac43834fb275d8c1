"""What a submit and a board fetch cost must not grow with the
game's length (query counts pinned, Turn records read on demand, the record
made only as far as it is shown), and the shortcuts taken for it give the
same answers as the long way."""

from __future__ import annotations

import json
import random
import secrets

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import selectors, services
from games.models import Game, GameTurn, Seat
from games.selectors import RecordLines
from games.services import takeback
from games.store import action_log
from games.store import states as state_store
from games.ui.wec import highlights
from tools.site import benchkit

# What one request may ask the database, whatever the game's length: the
# session and the user; (submit) BEGIN, the game row locked with its last
# action's hash and its seats with their users (one statement), one batch of
# writes (the action row, a Turn record when a Turn ends, the state row, the
# game row, a notification when the turn passes, the seats' versions, the
# mover's record of the board it is answered with: games.store.sql), COMMIT;
# (board) the game with its seats and the notifications read (one statement:
# services.open_game), the seat's record of what it was shown (the
# "changed since you last looked", once per view version), and for a render
# of a view version this process has not seen the highlights' last Turn
# ends.  A process that never saw the game adds the state row and the
# record's last lines.
SUBMIT_MAX = 6
SUBMIT_COLD_MAX = 8
BOARD_MISS_MAX = 5
BOARD_MISS_COLD_MAX = 7
BOARD_HIT_MAX = 3


def _games(engine, long_actions: int):
    tag = secrets.token_hex(3)
    short = benchkit.new_bench_game(tag, 0, 1)
    benchkit.build_long_game(short, engine, 12)
    long = benchkit.new_bench_game(tag, 1, 2)
    benchkit.build_long_game(long, engine, long_actions)
    return short, long


def _client(player) -> Client:
    client = Client()
    client.force_login(player.user)
    return client


def _count(fn) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as queries:
        out = fn()
    return len(queries), out


def _submit(engine, bg, kind: str) -> tuple[int, int]:
    """(queries, status) of one htmx submit of a `kind` action by the side to move."""
    color = engine.to_move(bg.state)
    legal = engine.legal_actions(bg.state)
    action = next(a for a in legal if a["type"] == kind)
    client = _client(bg.players[color])
    url = reverse("game_act", args=[bg.game_id])
    headers = {"HTTP_HX_REQUEST": "true"}
    if bg.history.get(color):
        headers["HTTP_X_WEC_HISTORY"] = bg.history[color]
    n, response = _count(lambda: client.post(url, {"action": json.dumps(action)}, **headers))
    if response.status_code == 200:
        bg.state = engine.apply(bg.state, action)
        bg.history[color] = benchkit.history_header(response.content, bg.history.get(color))
    return n, response.status_code


def _board(bg, color: str) -> tuple[int, int, str]:
    """(queries, bytes, cache) of a live page's board refresh (it holds the record)."""
    client = _client(bg.players[color])
    url = reverse("game_board", args=[bg.game_id])
    if not bg.history.get(color):
        bg.history[color] = benchkit.history_header(client.get(url, HTTP_HX_REQUEST="true").content, None)
    n, response = _count(
        lambda: client.get(url, HTTP_HX_REQUEST="true", HTTP_X_WEC_HISTORY=bg.history[color])
    )
    assert response.status_code == 200
    return n, len(response.content), response["X-Wec-Board-Cache"]


@pytest.mark.django_db(transaction=True)
def test_query_counts_do_not_grow_with_the_game(engine, settings):
    settings.WEC_SNAPSHOT_EVERY = 10**6  # a snapshot is one more INSERT every so many actions
    short, long = _games(engine, 600)
    assert Game.objects.get(pk=long.game_id).seq >= 500
    counts = {}
    for name, bg in (("short", short), ("long", long)):
        # Two Turns played on the site first (their Turn-end views are kept,
        # as in any game played here; the bulk-built ones have none).
        for _ in range(2):
            _submit(engine, bg, "move")
            _submit(engine, bg, "end_turn")
        # A process that never saw the game, then one that served its last action.
        for fresh in (True, False):
            if fresh:
                state_store.clear_caches()
            color = engine.to_move(bg.state)
            move = _submit(engine, bg, "move")
            end = _submit(engine, bg, "end_turn")
            if fresh:
                state_store.clear_caches()
            Seat.objects.filter(game_id=bg.game_id, color=color).update(version=models_f("version") + 1)
            miss = _board(bg, color)
            hit = _board(bg, color)
            counts[name, fresh] = (move, end, miss[0], miss[2], hit[0], hit[2])
    assert counts["short", True] == counts["long", True], counts
    assert counts["short", False] == counts["long", False], counts
    for fresh, submit_max, miss_max in ((True, SUBMIT_COLD_MAX, BOARD_MISS_COLD_MAX), (False, SUBMIT_MAX, BOARD_MISS_MAX)):
        (move, move_status), (end, end_status), miss, miss_cache, hit, hit_cache = counts["long", fresh]
        assert move_status == end_status == 200
        assert move <= submit_max and end <= submit_max, counts
        assert miss_cache == "miss" and miss <= miss_max, counts
        assert hit_cache == "hit" and hit <= BOARD_HIT_MAX, counts


def models_f(name):
    from django.db.models import F

    return F(name)


@pytest.mark.django_db(transaction=True)
def test_turn_records_are_read_only_as_far_as_they_are_shown(engine, monkeypatch):
    _short, long = _games(engine, 400)
    game = Game.objects.get(pk=long.game_id)
    turns = GameTurn.objects.filter(game=game).count()
    assert turns > 100
    color = game.to_move
    _board(long, color)  # the page, with its whole record
    state_store.clear_caches()
    read = []
    real = state_store._RecordSource.get

    def spy(self, start, stop):
        read.extend(range(start, stop))
        return real(self, start, stop)

    monkeypatch.setattr(state_store._RecordSource, "get", spy)
    # Loading the state reads the state row alone.
    n, state = _count(lambda: selectors.load_state(game))
    assert n == 1 and read == []
    assert engine.turn_count(state) == turns
    # A live page's refresh reads the last few records only.
    Seat.objects.filter(game=game, color=color).update(version=models_f("version") + 1)
    _n, _size, cache = _board(long, color)
    assert cache == "miss"
    assert read and min(read) >= turns - 8, sorted(set(read))[:5]
    # The whole record (a new page) is the engine's own, line for line.
    state_store.clear_caches()
    client = _client(long.players[color])
    page = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    eager = engine.load_scenario(
        engine.dump_scenario(selectors.load_state(game), history=False),
        history=list(GameTurn.objects.filter(game=game).order_by("number").values_list("entry", flat=True)),
    )
    lines = engine.history(eager, color)
    assert len(lines) == turns
    assert page.count("<li>") >= 2 * turns
    for line in lines[-3:] + lines[:3]:
        assert f"<li>{line}</li>" in page.replace("&gt;", ">").replace("&lt;", "<").replace("&#x27;", "'")


def test_record_lines_behave_as_the_list():
    whole = [f"line {i}" for i in range(40)]
    calls = []

    def make(start):
        calls.append(start)
        return whole[start:]

    lines = RecordLines(make, 38)
    assert len(lines) == 40 and calls == [38]
    assert lines[-3:] == whole[-3:] and lines[-1] == whole[-1]
    assert calls == [38, 37]
    assert list(lines) == whole and lines == whole and lines[5:9] == whole[5:9]
    assert bool(RecordLines(lambda s: [], 0)) is False

    def broken(start):
        raise RuntimeError("no record")

    bad = RecordLines(broken, 3)
    assert len(bad) == 0 and list(bad) == [] and bad[-4:] == []


@pytest.mark.django_db(transaction=True)
def test_highlights_from_kept_turn_ends_equal_the_queried_ones(alice, bob, engine):
    """The Turn ends a process keeps per view version (and carries forward
    after each action) give the highlights the database gives, in a friendly
    game with take-backs and a granted undo too."""
    for competitive in (True, False):
        game = services.create_game(
            creator=alice, opponent="user", username="bob", color="black", competitive=competitive
        )
        users = {"black": alice, "white": bob}
        rng = random.Random(4)
        for step in range(36):
            game = selectors.get_game(game.pk)
            if game.status != Game.Status.ACTIVE:
                break
            state = selectors.load_state(game)
            mover = game.to_move
            if not competitive and step in (9, 23) and engine.actions_this_turn(state):
                takeback.take_back(game.pk, users[mover], 1)
            elif not competitive and step == 16 and engine.turn_count(state) >= 1:
                takeback.request_undo(game.pk, users["white" if mover == "black" else "black"])
                takeback.answer_undo(game.pk, users[mover], grant=True)
            else:
                legal = engine.legal_actions(state)
                ends = [a for a in legal if a["type"] == "end_turn"]
                action = ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)
                client = _client_of(users[mover])
                client.post(reverse("game_act", args=[game.pk]), {"action": json.dumps(action)}, HTTP_HX_REQUEST="true")
            game = selectors.get_game(game.pk)
            state = selectors.load_state(game)
            for seat in game.seats.all():
                view = engine.view(state, seat.color, history=False)
                kept = highlights.for_player(game, seat.color, view, version=seat.version)
                truth = highlights.for_player(game, seat.color, view)
                assert kept == truth, (competitive, step, seat.color)
                # The last Turn ends read backwards are the tail of all of them read forwards.
                every = action_log.turn_ends(game)
                for k in (1, 2, 3):
                    assert action_log.turn_ends(game, last=k) == every[-k:], (competitive, step, k)


def _client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.django_db
def test_a_batch_sends_its_statements_in_order_in_one_execute(game, alice):
    from games.models import GameState
    from games.store.sql import Batch, json_value

    batch = Batch()
    rows = []
    batch.add("SELECT %s::int + 1", [41], on_row=rows.append)
    with pytest.raises(ValueError):
        batch.add("SELECT 1", on_row=rows.append)  # only the first may return a row
    batch.add("UPDATE games_gamestate SET turns = %s WHERE game_id = %s", [7, game.pk])
    batch.add("UPDATE games_gamestate SET turns = turns + 1, state = %s WHERE game_id = %s", [json_value({"x": "it's"}), game.pk])
    with CaptureQueriesContext(connection) as queries:
        batch.flush()
        batch.flush()  # nothing left: nothing sent
    assert len(queries) == 1 and rows == [(42,)]
    row = GameState.objects.get(game=game)
    assert row.turns == 8 and row.state == {"x": "it's"}


def _rows_read(queries) -> int:
    """How many table rows the SELECTs among `queries` read (EXPLAIN ANALYZE:
    rows each scan gave plus those its filter removed)."""
    total = 0

    def walk(node):
        nonlocal total
        if "Scan" in node.get("Node Type", ""):
            loops = node.get("Actual Loops", 1)
            total += (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
                      + node.get("Rows Removed by Index Recheck", 0)) * loops
        for child in node.get("Plans", []):
            walk(child)

    with connection.cursor() as cursor:
        for query in queries:
            sql = query["sql"]
            if not sql.lstrip().upper().startswith("SELECT") or "django_session" in sql:
                continue
            cursor.execute("EXPLAIN (ANALYZE, FORMAT JSON) " + sql)
            plan = cursor.fetchone()[0]
            plan = json.loads(plan) if isinstance(plan, str) else plan
            walk(plan[0]["Plan"])
    return total


def _leave_statistics_of_other_games(engine) -> None:
    """Statistics of games that are gone, as autovacuum leaves them in a
    test database between tests (ANALYZE, then the flush empties the tables
    and the statistics stay): the games made next are not in them."""
    from django.core.management.color import no_style

    _games(engine, 600)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
        for sql in connection.ops.sql_flush(no_style(), tables):
            cursor.execute(sql)


@pytest.mark.plans
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("statistics", ["none", "of earlier games"])
def test_rows_read_do_not_grow_with_the_game(engine, settings, statistics):
    """Not only as many queries: each reads about as many rows at 1,200
    actions as at 12 (a query that reads the whole log shows here).

    Both with no statistics at all (a database nobody analysed: the CI
    machine's PostgreSQL runs without autovacuum) and with statistics that
    describe other games (what autovacuum leaves in any other database: a
    new game's id is never in them, so the planner expects one row for it,
    and with two indexes that start with the game it once took the one on
    the game alone and read the whole log: games/migrations/0014)."""
    settings.WEC_SNAPSHOT_EVERY = 10**6
    if statistics != "none":
        _leave_statistics_of_other_games(engine)
    short, long = _games(engine, 1200)
    read = {}
    for name, bg in (("short", short), ("long", long)):
        for _ in range(2):
            _submit(engine, bg, "move")
            _submit(engine, bg, "end_turn")
        state_store.clear_caches()  # a process that never saw the game
        color = engine.to_move(bg.state)
        client = _client(bg.players[color])
        legal = engine.legal_actions(bg.state)
        action = next(a for a in legal if a["type"] == "move")
        with CaptureQueriesContext(connection) as submit_queries:
            client.post(reverse("game_act", args=[bg.game_id]), {"action": json.dumps(action)}, HTTP_HX_REQUEST="true",
                        HTTP_X_WEC_HISTORY=bg.history[color])
        bg.state = engine.apply(bg.state, action)
        Seat.objects.filter(game_id=bg.game_id, color=color).update(version=models_f("version") + 1)
        state_store.clear_caches()
        with CaptureQueriesContext(connection) as board_queries:
            client.get(reverse("game_board", args=[bg.game_id]), HTTP_HX_REQUEST="true",
                       HTTP_X_WEC_HISTORY=bg.history[color])
        read[name] = (_rows_read(submit_queries.captured_queries), _rows_read(board_queries.captured_queries))
    assert read["long"][0] <= read["short"][0] + 40, read
    assert read["long"][1] <= read["short"][1] + 40, read
