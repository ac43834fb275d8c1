"""Correspondence clocks (days per move), time-outs and vacation."""

import threading
from datetime import timedelta

import pytest
from django.conf import settings as django_settings
from django.db import connections, transaction
from django.urls import reverse
from django.utils import timezone

from games import selectors, services, tasks
from games.models import Game, GameAction, Notification, Seat, Snapshot
from games.templatetags.clock_time import clock_label, time_left

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


def seats(game_id):
    return {s.color: s for s in Seat.objects.filter(game_id=game_id).select_related("user")}


def state_of(game_id):
    return selectors.load_state(Game.objects.get(pk=game_id))


def close_to(value, expected, slack=timedelta(seconds=30)):
    return value is not None and abs(value - expected) < slack


def play_turn(game_id, user, first_move):
    """One whole turn (a Move, then End Turn) for `user`."""
    g = Game.objects.get(pk=game_id)
    services.submit_action(game_id, user, first_move(state_of(game_id)), expected_seq=g.seq)
    services.submit_action(game_id, user, {"type": "end_turn"}, expected_seq=g.seq + 1)


def expire(game_id, color, ago=timedelta(minutes=1)):
    """Move the running deadline of `color` into the past."""
    when = timezone.now() - ago
    Seat.objects.filter(game_id=game_id, color=color).update(deadline=when)
    return when


# --- deadlines on turns ------------------------------------------------------------


def test_deadline_set_at_start_and_moves_with_the_turn(game, alice, bob, first_move):
    assert game.days_per_move == django_settings.WEC_DEFAULT_DAYS_PER_MOVE == 3
    s = seats(game.pk)
    assert close_to(s["black"].deadline, timezone.now() + 3 * DAY)
    assert s["white"].deadline is None
    black_deadline = s["black"].deadline
    # A Move inside the turn does not touch the clock; End Turn passes it on.
    services.submit_action(game.pk, alice, first_move(state_of(game.pk)), expected_seq=0)
    assert seats(game.pk)["black"].deadline == black_deadline
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    s = seats(game.pk)
    assert s["black"].deadline is None
    assert close_to(s["white"].deadline, timezone.now() + 3 * DAY)
    play_turn(game.pk, bob, first_move)
    s = seats(game.pk)
    assert s["white"].deadline is None and close_to(s["black"].deadline, timezone.now() + 3 * DAY)


@pytest.mark.parametrize("days", [1, 2, 3, 5, 7, 14])
def test_each_offered_time_per_move(alice, bob, days):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="white", days_per_move=days)
    s = seats(game.pk)
    assert game.days_per_move == days
    assert close_to(s["black"].deadline, timezone.now() + days * DAY) and s["white"].deadline is None


def test_no_clock_and_ai_games_have_no_deadline(alice, bob, monkeypatch):
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    game = services.create_game(creator=alice, opponent="user", username="bob", days_per_move=None)
    assert game.days_per_move is None and all(s.deadline is None for s in seats(game.pk).values())
    ai_game = services.create_game(creator=alice, opponent="ai", color="white", days_per_move=7)
    assert ai_game.days_per_move is None and all(s.deadline is None for s in seats(ai_game.pk).values())
    with pytest.raises(services.InvalidRequest):
        services.create_game(creator=alice, opponent="user", username="bob", days_per_move=4)


def test_seek_clock_starts_when_accepted(alice, bob):
    seek = services.create_game(creator=alice, opponent="open", color="white", days_per_move=2)
    assert all(s.deadline is None for s in seats(seek.pk).values())
    services.accept_seek(game_id=seek.pk, user=bob)
    s = seats(seek.pk)
    assert close_to(s["black"].deadline, timezone.now() + 2 * DAY) and s["white"].deadline is None


def test_resignation_stops_the_clocks(game, alice):
    services.resign(game.pk, alice)
    assert all(s.deadline is None for s in seats(game.pk).values())


# --- time-outs -----------------------------------------------------------------------


def test_timeout_ends_the_game_for_the_other_side(game, alice, bob, first_move):
    play_turn(game.pk, alice, first_move)  # now White (Bob) is to move
    before = Game.objects.get(pk=game.pk)
    actions = GameAction.objects.filter(game=game).count()
    snapshots = list(Snapshot.objects.filter(game=game).values_list("seq", "state"))
    assert tasks.check_clocks() == 0  # nothing due yet
    expire(game.pk, "white")
    assert tasks.check_clocks() == 1
    after = Game.objects.get(pk=game.pk)
    assert after.status == Game.Status.FINISHED
    assert after.result == {"winner": "black", "reason": "timeout"}
    # The engine's game is untouched: same actions, same snapshots, same seq.
    assert after.seq == before.seq and after.to_move == before.to_move == "white"
    assert GameAction.objects.filter(game=game).count() == actions
    assert list(Snapshot.objects.filter(game=game).values_list("seq", "state")) == snapshots
    assert all(s.deadline is None for s in seats(game.pk).values())
    ends = Notification.objects.filter(game=game, kind="game_over")
    assert sorted(n.user.username for n in ends) == ["alice", "bob"]
    # Idempotent: running again does nothing more.
    assert tasks.check_clocks() == 0
    assert Notification.objects.filter(game=game, kind="game_over").count() == 2
    with pytest.raises(services.GameNotActive):
        services.submit_action(game.pk, bob, first_move(state_of(game.pk)), expected_seq=after.seq)


def test_moving_in_time_beats_a_late_clock_check(game, alice, first_move):
    """A deadline that was due when check_clocks listed it but was met before
    it got the lock is left alone (the service re-checks under the lock)."""
    expire(game.pk, "black")
    [seat_id] = selectors.due_seat_ids(timezone.now())
    Seat.objects.filter(pk=seat_id).update(deadline=timezone.now() + DAY)  # as if Black had just moved
    assert services.enforce_deadline(seat_id) == services.DeadlineOutcome.NOT_DUE
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_timeout_result_is_shown(client, game, alice, bob):
    expire(game.pk, "black")
    tasks.check_clocks()
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "You lost." in html and "(time ran out)" in html
    client.force_login(bob)
    assert "You won." in client.get(reverse("game_detail", args=[game.pk])).content.decode()


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_clock_checks_end_the_game_once(alice, bob):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    expire(game.pk, "black")
    barrier = threading.Barrier(2)
    results = [None, None]

    def run(index):
        try:
            barrier.wait(timeout=10)
            results[index] = tasks.check_clocks()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == [0, 1], results
    g = Game.objects.get(pk=game.pk)
    assert g.status == Game.Status.FINISHED and g.result == {"winner": "white", "reason": "timeout"}
    assert Notification.objects.filter(game=game, kind="game_over").count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_clock_checks_charge_vacation_once(alice, bob):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    alice.auto_vacation, alice.vacation_days = True, 5
    alice.save()
    passed = expire(game.pk, "black")
    barrier = threading.Barrier(2)

    def run():
        try:
            barrier.wait(timeout=10)
            tasks.check_clocks()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    alice.refresh_from_db()
    assert alice.vacation_days == 4
    assert seats(game.pk)["black"].deadline == passed + DAY
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_a_game_locked_by_a_move_in_progress_is_skipped(alice, bob):
    """check_clocks does not wait for (or fight) a player's submit holding the row."""
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    expire(game.pk, "black")
    locked, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                Game.objects.select_for_update().get(pk=game.pk)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    t = threading.Thread(target=hold)
    t.start()
    assert locked.wait(10)
    try:
        assert tasks.check_clocks() == 0
        assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    finally:
        release.set()
        t.join(10)
    assert tasks.check_clocks() == 1  # next run, once the row is free


# --- vacation --------------------------------------------------------------------------


def test_vacation_takes_a_day_instead_of_losing(game, alice, bob):
    alice.auto_vacation, alice.vacation_days = True, 2
    alice.save()
    passed = expire(game.pk, "black")
    [seat_id] = selectors.due_seat_ids(timezone.now())
    assert tasks.check_clocks() == 1
    alice.refresh_from_db()
    assert alice.vacation_days == 1 and alice.vacation_paid_until == passed + DAY
    assert seats(game.pk)["black"].deadline == passed + DAY
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    assert tasks.check_clocks() == 0  # covered now: nothing more is charged
    # A day later the second (last) day goes ...
    assert services.enforce_deadline(seat_id, now=passed + DAY + timedelta(minutes=1)) == "vacation"
    alice.refresh_from_db()
    assert alice.vacation_days == 0 and seats(game.pk)["black"].deadline == passed + 2 * DAY
    # ... and with none left, the clock runs out.
    assert services.enforce_deadline(seat_id, now=passed + 2 * DAY + timedelta(minutes=1)) == "timeout"
    assert Game.objects.get(pk=game.pk).result == {"winner": "white", "reason": "timeout"}


def test_vacation_days_only_count_with_automatic_days(game, alice):
    alice.vacation_days = 30  # but no automatic days
    alice.save()
    expire(game.pk, "black")
    tasks.check_clocks()
    alice.refresh_from_db()
    assert alice.vacation_days == 30
    assert Game.objects.get(pk=game.pk).result == {"winner": "white", "reason": "timeout"}


def test_one_vacation_day_covers_all_games(alice, bob, carol):
    g1 = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    g2 = services.create_game(creator=alice, opponent="user", username="carol", color="black", days_per_move=7)
    alice.auto_vacation, alice.vacation_days = True, 10
    alice.save()
    first = expire(g1.pk, "black", ago=timedelta(minutes=5))
    expire(g2.pk, "black", ago=timedelta(minutes=1))
    assert tasks.check_clocks() == 2
    alice.refresh_from_db()
    assert alice.vacation_days == 9
    assert seats(g1.pk)["black"].deadline == seats(g2.pk)["black"].deadline == first + DAY


def test_vacation_catches_up_after_downtime(game, alice):
    """Beat was down for 2.5 days: three days are charged at once."""
    alice.auto_vacation, alice.vacation_days = True, 5
    alice.save()
    passed = expire(game.pk, "black", ago=timedelta(days=2, hours=12))
    tasks.check_clocks()
    alice.refresh_from_db()
    assert alice.vacation_days == 2 and seats(game.pk)["black"].deadline == passed + 3 * DAY


def test_yearly_vacation_top_up(alice, bob):
    from accounts.services import top_up_vacation

    year = timezone.now().year
    assert alice.vacation_days == django_settings.WEC_VACATION_DAYS_PER_YEAR == 30
    type(alice).objects.filter(pk=alice.pk).update(vacation_days=3, vacation_year=year - 1)
    type(bob).objects.filter(pk=bob.pk).update(vacation_days=7)
    assert tasks.top_up_vacation() == 1
    assert tasks.top_up_vacation() == 0  # idempotent
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert (alice.vacation_days, alice.vacation_year) == (30, year)
    assert bob.vacation_days == 7  # this year's balance is left alone
    assert top_up_vacation(today=timezone.now().date().replace(year=year + 1)) == 2


def test_beat_schedule():
    schedule = django_settings.CELERY_BEAT_SCHEDULE
    assert schedule["check-clocks"]["task"] == "games.tasks.check_clocks"
    assert schedule["check-clocks"]["schedule"] == 60.0
    assert schedule["top-up-vacation"]["task"] == "games.tasks.top_up_vacation"


def test_profile_vacation_and_email_switches(client, alice):
    client.force_login(alice)
    data = {"display_name": "", "email": "alice@example.com", "time_zone": "UTC"}
    response = client.post(reverse("profile"), {**data, "auto_vacation": "on", "email_on_turn": "on"})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.auto_vacation and alice.email_on_turn and not alice.on_vacation
    html = client.get(reverse("profile")).content.decode()
    assert "30 days left this year" in html and "Automatic vacation days" in html
    client.post(reverse("profile"), data)
    alice.refresh_from_db()
    assert not alice.auto_vacation and not alice.email_on_turn
    # No days left: automatic days cannot be switched on; email needs an address.
    type(alice).objects.filter(pk=alice.pk).update(vacation_days=0)
    response = client.post(reverse("profile"), {**data, "auto_vacation": "on"})
    assert response.status_code == 200 and "no vacation days left" in response.content.decode()
    response = client.post(reverse("profile"), {**data, "email": "", "email_on_turn": "on"})
    assert response.status_code == 200
    alice.refresh_from_db()
    assert not alice.auto_vacation and not alice.email_on_turn


# --- showing the clocks ------------------------------------------------------------------


def test_time_left_texts():
    now = timezone.now()
    assert time_left(now + timedelta(days=2, hours=4, minutes=10), now) == "2 days 4 h left"
    assert time_left(now + timedelta(days=1, minutes=5), now) == "1 day left"
    assert time_left(now + timedelta(hours=3, minutes=5, seconds=20), now) == "3 h 5 min left"
    assert time_left(now + timedelta(seconds=20), now) == "1 min left"
    assert time_left(now - timedelta(seconds=1), now) == "time is up"
    assert time_left(None) == ""
    assert clock_label(1) == "1 day per move" and clock_label(3) == "3 days per move"
    assert clock_label(None) == "No clock"


def test_game_page_and_list_show_time_left_in_the_users_time_zone(client, game, alice, bob):
    from django.utils.formats import date_format

    deadline = timezone.now() + timedelta(days=2, hours=4, minutes=30)
    Seat.objects.filter(game=game, color="black").update(deadline=deadline)
    alice.time_zone = "Pacific/Kiritimati"
    alice.save()
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert "3 days per move" in html and "2 days 4 h left" in html
    with timezone.override("Pacific/Kiritimati"):
        local = date_format(timezone.localtime(deadline), "SHORT_DATETIME_FORMAT")
    assert local in html
    assert "not running" in html  # White's clock is not running
    partial = client.get(reverse("game_clocks", args=[game.pk])).content.decode()
    assert 'id="clocks"' in partial and "2 days 4 h left" in partial
    assert "2 days 4 h left" in client.get(reverse("game_list")).content.decode()
    client.force_login(bob)
    assert "2 days 4 h left" in client.get(reverse("home")).content.decode()
    client.force_login(type(alice).objects.create_user("dave", password="x-Wec-1234567"))
    assert client.get(reverse("game_clocks", args=[game.pk])).status_code == 404


def test_new_game_form_time_control(client, alice, bob, monkeypatch):
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    assert 'name="days_per_move"' in html and "14 days per move" in html and "No clock" in html
    client.post(reverse("new_game"), {"opponent": "user", "username": "bob", "color": "black", "days_per_move": "7"})
    client.post(reverse("new_game"), {"opponent": "user", "username": "bob", "color": "black", "days_per_move": "none"})
    assert list(Game.objects.order_by("pk").values_list("days_per_move", flat=True)) == [7, None]
    response = client.post(
        reverse("new_game"), {"opponent": "user", "username": "bob", "color": "black", "days_per_move": "4"}
    )
    assert response.status_code == 400 and Game.objects.count() == 2
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    client.post(reverse("new_game"), {"opponent": "ai", "color": "black", "days_per_move": "1"})
    assert Game.objects.order_by("pk").last().days_per_move is None
