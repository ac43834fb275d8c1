"""Writes made after the answer has left (games.afteranswer): the seat's
record of the board it was shown, and the render cache's copy, are
written once the response is closed, never lost, in the order given,
and before the same thread's next request reads anything."""

import pytest
from django.urls import reverse

from games import afteranswer, selectors, services
from games.models import Seat
from games.pages import board as board_page
from games.store import sql

pytestmark = pytest.mark.django_db

# The receivers are called as Django's request signals would call them (the
# signals themselves also close the test's database connection).
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def game_ab(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black")


def test_outside_a_request_a_chore_runs_at_once():
    done = []
    afteranswer.after_answer(lambda: done.append(1))
    assert done == [1]


def test_in_a_request_chores_wait_for_the_answer_in_order():
    done = []
    afteranswer._started()
    try:
        afteranswer.after_answer(lambda: done.append(1))
        afteranswer.after_answer(lambda: done.append(2))
        assert done == []
    finally:
        afteranswer._finished()
    assert done == [1, 2]


def test_a_request_started_before_the_last_answer_closed_runs_its_chores_first():
    # An ASGI process interleaves requests between their views: what the
    # first left pending runs before the second reads anything.
    done = []
    afteranswer._started()
    afteranswer.after_answer(lambda: done.append("first"))
    afteranswer._started()
    assert done == ["first"]
    afteranswer.after_answer(lambda: done.append("second"))
    afteranswer._finished()  # the first answer closes
    assert done == ["first", "second"]
    afteranswer._finished()
    afteranswer.after_answer(lambda: done.append("outside"))
    assert done == ["first", "second", "outside"]


def test_a_failing_chore_is_logged_and_the_others_run(caplog):
    done = []
    afteranswer._started()
    afteranswer.after_answer(lambda: 1 / 0)
    afteranswer.after_answer(lambda: done.append(1))
    afteranswer._finished()
    assert done == [1]
    assert "after-answer chore" in caplog.text


def test_the_seen_record_is_written_after_the_answer(client, game_ab, alice, bob):
    client.force_login(alice)
    Seat.objects.filter(game=game_ab, color="black").update(version=7)
    game = selectors.get_game(game_ab.pk)
    seat = selectors.seat_for(game, alice)
    afteranswer._started()
    try:
        board_page.board_response(
            _request(alice),
            game,
            seat,
            lambda: _context(game, seat, alice),
            cacheable=False,
        )
        # The answer is built; the record is not written yet...
        assert (Seat.objects.get(pk=seat.pk).seen or {}).get("v") != 7
    finally:
        afteranswer._finished()
    # ...and is once the answer has been closed.
    assert Seat.objects.get(pk=seat.pk).seen["v"] == 7


def test_a_board_fetch_leaves_the_record_written(client, game_ab, alice):
    client.force_login(alice)
    Seat.objects.filter(game=game_ab, color="black").update(version=9)
    response = client.get(reverse("game_board", args=[game_ab.pk]), **HX)
    assert response.status_code == 200 and response["X-Wec-Board-Cache"] == "miss"
    assert Seat.objects.get(game=game_ab, color="black").seen["v"] == 9
    # Served again: the same version, the record read back, nothing new.
    again = client.get(reverse("game_board", args=[game_ab.pk]), **HX)
    assert again["X-Wec-Board-Cache"] == "hit"
    assert (
        services.note_board_shown(
            selectors.get_game(game_ab.pk), Seat.objects.get(game=game_ab, color="black"), "x"
        )
        == Seat.objects.get(game=game_ab, color="black").seen["changed"]
    )


def _request(user):
    from django.test import RequestFactory

    request = RequestFactory().get("/", HTTP_HX_REQUEST="true")
    request.user = user
    return request


def _context(game, seat, user):
    from games.registry import get_ui

    return get_ui(game.engine).board_context(_request(user), game, seat)


def test_a_late_record_never_replaces_a_newer_versions(game_ab):
    from games.store.sql import json_value

    seat = Seat.objects.get(game=game_ab, color="black")
    sql.write_seen(seat.pk, json_value({"v": 9, "sig": "", "changed": [[1, 1]]}), 9)
    sql.write_seen(seat.pk, json_value({"v": 8, "sig": "", "changed": []}), 8)
    assert Seat.objects.get(pk=seat.pk).seen == {"v": 9, "sig": "", "changed": [[1, 1]]}
    sql.write_seen(seat.pk, json_value({"v": 10, "sig": "", "changed": []}), 10)
    assert Seat.objects.get(pk=seat.pk).seen["v"] == 10


@pytest.mark.django_db(transaction=True)
def test_written_on_its_own_without_waiting_for_the_flush_and_only_there(alice, bob):
    from django.db import connection, transaction

    from games.store.sql import json_value

    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    seat = Seat.objects.get(game=game, color="black")
    sql.write_seen(seat.pk, json_value({"v": 3, "sig": "", "changed": []}), 3)
    assert Seat.objects.get(pk=seat.pk).seen["v"] == 3
    with connection.cursor() as cursor:  # SET LOCAL held for that statement's own transaction only
        cursor.execute("SHOW synchronous_commit")
        assert cursor.fetchone()[0] == "on"
    with transaction.atomic():  # inside a caller's transaction, that transaction's commit is untouched
        sql.write_seen(seat.pk, json_value({"v": 4, "sig": "", "changed": []}), 4)
        with connection.cursor() as cursor:
            cursor.execute("SHOW synchronous_commit")
            assert cursor.fetchone()[0] == "on"
    assert Seat.objects.get(pk=seat.pk).seen["v"] == 4
