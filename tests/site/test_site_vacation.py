"""The explicit vacation (as on online-go.com): a player starts and
ends it on the profile page; meanwhile every running clock of theirs is
paused (days per move and bank clocks alike) and resumes with the time it had
left; days are charged a whole day at a time from the yearly allowance, and
the vacation ends by itself when they run out; the opponent sees "on vacation
until …" on the game page and on the profile."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from clock_steps import DAY, HOUR, T0, bank_game, seats, turn
from django.test import Client
from django.urls import reverse

from games import selectors, services, tasks
from games.models import Game
from games.vacation import services as services_vacation

pytestmark = pytest.mark.django_db


def plain_game(alice, days=3):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black", days_per_move=days)


def fresh(user):
    user.refresh_from_db()
    return user


# --- days per move ----------------------------------------------------------------------


def test_days_per_move_pause_and_resume_unchanged(alice, bob, clock):
    game = plain_game(alice)
    assert seats(game.pk)["black"].deadline == T0 + 3 * DAY
    clock["t"] = T0 + DAY
    services_vacation.start_vacation(alice)
    black = seats(game.pk)["black"]
    assert black.deadline is None and black.paused_seconds == 2 * 86400
    alice = fresh(alice)
    assert alice.on_vacation and alice.vacation_days == 29 and alice.vacation_paid_until == T0 + 2 * DAY
    # Long past the old deadline: no time-out, a day charged per 24 hours.
    clock["t"] = T0 + 4 * DAY + HOUR
    assert tasks.check_clocks() == 0
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    alice = fresh(alice)
    assert alice.vacation_days == 26 and alice.vacation_paid_until == T0 + 5 * DAY
    assert seats(game.pk)["black"].paused_seconds == 2 * 86400  # frozen
    services_vacation.end_vacation(alice)
    black = seats(game.pk)["black"]
    assert black.paused_seconds is None and black.deadline == clock["t"] + 2 * DAY  # exactly what was left
    alice = fresh(alice)
    # Ending early gives no day back; the paid time stays paid (until T0 + 5 days).
    assert not alice.on_vacation and alice.vacation_days == 26 and alice.vacation_paid_until == T0 + 5 * DAY


def test_a_turn_passed_to_a_player_on_vacation_starts_paused(alice, bob, clock):
    game = plain_game(alice)
    services_vacation.start_vacation(bob)  # Bob (White) is not to move: nothing to pause yet
    assert seats(game.pk)["white"].paused_seconds is None and seats(game.pk)["black"].deadline == T0 + 3 * DAY
    clock["t"] = T0 + HOUR
    turn(game.pk, alice)
    white = seats(game.pk)["white"]
    assert white.deadline is None and white.paused_seconds == 3 * 86400  # the whole time, frozen
    assert seats(game.pk)["black"].deadline is None
    # No reminder, no time-out while paused, however long.
    clock["t"] = T0 + 10 * DAY
    assert tasks.check_clocks() == 0 and Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    services_vacation.end_vacation(bob)
    assert seats(game.pk)["white"].deadline == clock["t"] + 3 * DAY


def test_a_player_on_vacation_may_still_play(alice, bob, clock):
    game = plain_game(alice)
    services_vacation.start_vacation(alice)
    clock["t"] = T0 + 2 * HOUR
    turn(game.pk, alice)
    s = seats(game.pk)
    assert s["black"].paused_seconds is None and s["black"].deadline is None
    assert s["white"].deadline == clock["t"] + 3 * DAY  # the opponent's clock runs as usual
    assert fresh(alice).on_vacation


# --- bank clocks -------------------------------------------------------------------------


def test_bank_clock_pause_and_resume(alice, bob, clock):
    game = bank_game(alice)
    assert seats(game.pk)["black"].deadline == T0 + 3 * DAY
    clock["t"] = T0 + 2 * HOUR
    services_vacation.start_vacation(alice, days=2)
    assert fresh(alice).vacation_until == T0 + 2 * HOUR + 2 * DAY
    black = seats(game.pk)["black"]
    assert black.deadline is None and black.paused_seconds == int((3 * DAY - 2 * HOUR).total_seconds())
    # The planned end: beat charges the second day, then ends the vacation.
    clock["t"] = T0 + 2 * HOUR + DAY + timedelta(minutes=1)
    tasks.check_clocks()
    assert fresh(alice).vacation_days == 28 and fresh(alice).on_vacation
    clock["t"] = T0 + 2 * HOUR + 2 * DAY + timedelta(minutes=1)
    tasks.check_clocks()
    alice = fresh(alice)
    assert not alice.on_vacation and alice.vacation_days == 28
    resumed = T0 + 2 * HOUR + 2 * DAY  # at the planned end, not at the check
    assert seats(game.pk)["black"].deadline == resumed + 3 * DAY - 2 * HOUR
    # One hour later Black ends the turn: the bank is what was left plus the increment.
    clock["t"] = resumed + HOUR
    turn(game.pk, alice)
    assert seats(game.pk)["black"].bank_seconds == int((3 * DAY - 3 * HOUR + DAY).total_seconds())


def test_bank_clock_turn_passed_to_a_player_on_vacation_and_played_there(alice, bob, clock):
    game = bank_game(alice)
    services_vacation.start_vacation(bob)
    clock["t"] = T0 + HOUR
    turn(game.pk, alice)
    white = seats(game.pk)["white"]
    assert white.deadline is None and white.paused_seconds == 3 * 86400  # the whole starting bank
    # Bob plays while on vacation: the paused time counts as what was left.
    clock["t"] = T0 + 5 * DAY
    turn(game.pk, bob)
    white = seats(game.pk)["white"]
    assert white.paused_seconds is None and white.bank_seconds == 4 * 86400  # 3 days + 1 day increment


# --- the allowance -------------------------------------------------------------------------


def test_the_vacation_ends_when_the_allowance_runs_out(alice, bob, clock):
    game = plain_game(alice)
    type(alice).objects.filter(pk=alice.pk).update(vacation_days=2)
    services_vacation.start_vacation(alice)
    alice = fresh(alice)
    assert alice.vacation_days == 1 and alice.vacation_ends == T0 + 2 * DAY  # shown as "until"
    clock["t"] = T0 + DAY + timedelta(minutes=1)
    tasks.check_clocks()
    alice = fresh(alice)
    assert alice.on_vacation and alice.vacation_days == 0 and alice.vacation_ends == T0 + 2 * DAY
    clock["t"] = T0 + 2 * DAY + timedelta(minutes=1)
    tasks.check_clocks()
    alice = fresh(alice)
    assert not alice.on_vacation and alice.vacation_days == 0
    # The clock goes on from the end of the paid time with the 3 days it had.
    assert seats(game.pk)["black"].deadline == T0 + 2 * DAY + 3 * DAY
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
    # No day left: no new vacation; and with none left a clock runs out as usual.
    with pytest.raises(services.InvalidRequest):
        services_vacation.start_vacation(alice)
    clock["t"] = T0 + 5 * DAY + timedelta(minutes=1)
    assert tasks.check_clocks() == 1
    assert Game.objects.get(pk=game.pk).result == {"winner": "white", "reason": "timeout"}


def test_a_vacation_after_a_beat_outage_ends_where_the_days_ran_out(alice, bob, clock):
    game = plain_game(alice)
    type(alice).objects.filter(pk=alice.pk).update(vacation_days=3)
    services_vacation.start_vacation(alice)
    clock["t"] = T0 + 10 * DAY  # beat was down for days
    tasks.check_clocks()
    alice = fresh(alice)
    assert not alice.on_vacation and alice.vacation_days == 0
    # Paused from T0 to T0 + 3 days (three days paid), so the 3 days left ran out at T0 + 6 days;
    # the same check then finds the deadline passed and ends the game on time.
    assert Game.objects.get(pk=game.pk).result == {"winner": "white", "reason": "timeout"}


def test_automatic_days_still_cover_a_time_out_when_not_on_vacation(alice, bob, clock):
    game = plain_game(alice)
    type(alice).objects.filter(pk=alice.pk).update(auto_vacation=True, vacation_days=5)
    clock["t"] = T0 + 3 * DAY + timedelta(minutes=1)
    assert tasks.check_clocks() == 1
    assert seats(game.pk)["black"].deadline == T0 + 4 * DAY and fresh(alice).vacation_days == 4
    # The day paid this way also covers the first day of a vacation started within it.
    services_vacation.start_vacation(alice)
    assert fresh(alice).vacation_days == 4 and seats(game.pk)["black"].paused_seconds is not None


def test_bad_starts_and_ends_change_nothing(alice, bob, clock):
    game = plain_game(alice)
    with pytest.raises(services.InvalidRequest):
        services_vacation.end_vacation(alice)
    with pytest.raises(services.InvalidRequest):
        services_vacation.start_vacation(alice, days=31)
    with pytest.raises(services.InvalidRequest):
        services_vacation.start_vacation(alice, days=0)
    assert not fresh(alice).on_vacation and fresh(alice).vacation_days == 30
    services_vacation.start_vacation(alice, days=3)
    with pytest.raises(services.InvalidRequest):
        services_vacation.start_vacation(alice)
    assert fresh(alice).vacation_days == 29 and seats(game.pk)["black"].paused_seconds == 3 * 86400


def test_a_running_clock_of_a_player_on_vacation_is_paused_by_the_clock_check(alice, bob, clock):
    """A game started at the very moment the vacation did could keep a
    running clock: the clock check pauses it (and resumes a stray pause)."""
    game = plain_game(alice)
    type(alice).objects.filter(pk=alice.pk).update(vacation_started=T0, vacation_paid_until=T0 + DAY)
    clock["t"] = T0 + HOUR
    tasks.check_clocks()
    black = seats(game.pk)["black"]
    assert black.deadline is None and black.paused_seconds == int((3 * DAY - HOUR).total_seconds())
    type(alice).objects.filter(pk=alice.pk).update(vacation_started=None)
    tasks.check_clocks()
    assert seats(game.pk)["black"].deadline == T0 + 3 * DAY  # on from the check, with what it had


# --- what the players see ------------------------------------------------------------------


def test_the_opponent_sees_the_vacation_badge(client, alice, bob, clock):
    game = plain_game(alice)
    client.force_login(bob)
    board_url = reverse("game_board", args=[game.pk])
    html = client.get(board_url, HTTP_HX_REQUEST="true").content.decode()  # cached before the vacation
    assert "on vacation until" not in html
    version = seats(game.pk)["white"].version
    clock["t"] = T0 + DAY
    services_vacation.start_vacation(alice, days=5)
    # Bob's view changed (his doorbell rings): the board, the clocks and the profile show it.
    assert seats(game.pk)["white"].version == version + 1
    for url, extra in (
        (reverse("game_detail", args=[game.pk]), {}),
        (board_url, {"HTTP_HX_REQUEST": "true"}),
        (reverse("game_clocks", args=[game.pk]), {"HTTP_HX_REQUEST": "true"}),
    ):
        html = client.get(url, **extra).content.decode()
        badge = re.search(r'<span class="badge vacation" id="vacation-black">.*?</span>', html, re.S)
        assert badge and "on vacation until" in badge.group(0), url
        assert '<time datetime="2030-03-07T12:00:00+00:00">' in badge.group(0)
        assert "paused with 2 days left" in html and 'id="vacation-white"' not in html
    profile = client.get(reverse("player_profile", args=["alice"])).content.decode()
    assert 'id="player-vacation"' in profile and "on vacation until" in profile
    # Bob's game list says the clock is paused.
    assert "clock paused (vacation)" in client.get(reverse("game_list"), HTTP_HX_REQUEST="true").content.decode()
    services_vacation.end_vacation(alice)
    html = client.get(board_url, HTTP_HX_REQUEST="true").content.decode()
    assert "on vacation until" not in html and "2 days left" in html
    assert 'id="player-vacation"' not in client.get(reverse("player_profile", args=["alice"])).content.decode()


def test_the_badge_shows_in_a_game_without_a_clock(client, alice, bob, clock):
    game = plain_game(alice, days=None)
    services_vacation.start_vacation(bob)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="vacation-white"' in html and 'id="vacation-black"' not in html


# --- the profile page (POST with CSRF) ----------------------------------------------------


def _csrf(client, url) -> str:
    html = client.get(url).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_starting_and_ending_on_the_profile_page(alice, bob, clock):
    game = plain_game(alice)
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    url = reverse("vacation")
    # Without the CSRF token: refused, nothing changes.
    assert client.post(url, {"what": "start"}).status_code == 403
    assert not fresh(alice).on_vacation
    token = _csrf(client, reverse("profile"))
    html = client.get(reverse("profile")).content.decode()
    assert 'id="start-vacation"' in html and 'id="end-vacation"' not in html
    # More days than are left: a 400 with the reason, nothing changes.
    response = client.post(url, {"what": "start", "days": "45", "csrfmiddlewaretoken": token})
    assert response.status_code == 400 and "30 vacation days left" in response.content.decode()
    assert not fresh(alice).on_vacation
    assert client.post(url, {"what": "pause-forever", "csrfmiddlewaretoken": token}).status_code == 400
    response = client.post(url, {"what": "start", "days": "4", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and fresh(alice).on_vacation
    assert fresh(alice).vacation_until == T0 + 4 * DAY
    assert seats(game.pk)["black"].deadline is None
    html = client.get(reverse("profile")).content.decode()
    assert 'id="end-vacation"' in html and 'id="vacation-status"' in html
    response = client.post(url, {"what": "end", "csrfmiddlewaretoken": token})
    assert response.status_code == 302 and not fresh(alice).on_vacation
    assert seats(game.pk)["black"].deadline == T0 + 3 * DAY
    assert client.post(url, {"what": "end", "csrfmiddlewaretoken": token}).status_code == 400
    # GET is not a way to start one.
    assert client.get(url).status_code == 405


def test_the_profile_form_does_not_overwrite_the_vacation(alice, bob, clock):
    """Saving the settings writes only their own fields: a vacation started
    (or a day charged) since the request read the user row is kept."""
    from accounts.forms import ProfileForm

    stale = type(alice).objects.get(pk=alice.pk)  # read before the vacation starts
    services_vacation.start_vacation(alice)
    form = ProfileForm({"display_name": "Al", "email": "alice@example.com", "time_zone": "UTC"}, instance=stale)
    assert form.is_valid(), form.errors
    form.save()
    alice = fresh(alice)
    assert alice.display_name == "Al" and alice.on_vacation and alice.vacation_days == 29


def test_the_render_cache_key_follows_the_badges_date(client, alice, bob, clock):
    """The badge's date can move without a view version bump (1 January's
    top-up lengthens an open-ended vacation): the cached board must follow."""
    from games.pages import board as board_page

    game = plain_game(alice)
    services_vacation.start_vacation(alice)
    client.force_login(bob)
    board_url = reverse("game_board", args=[game.pk])
    first = client.get(board_url, HTTP_HX_REQUEST="true").content.decode()
    assert '<time datetime="2030-03-31T12:00:00+00:00">' in first  # paid to T0 + 1 day, then 29 days
    version = seats(game.pk)["white"].version
    key = board_page.board_key(selectors.get_game(game.pk), seats(game.pk)["white"])
    type(alice).objects.filter(pk=alice.pk).update(vacation_days=39)
    assert seats(game.pk)["white"].version == version
    assert board_page.board_key(selectors.get_game(game.pk), seats(game.pk)["white"]) != key
    again = client.get(board_url, HTTP_HX_REQUEST="true").content.decode()
    assert '<time datetime="2030-04-10T12:00:00+00:00">' in again
