"""Two worlds that differ only in the enemy's unseen actions look the same to
the blind player, byte for byte: every page and partial, every websocket frame
(content and count, per moment), every notification row and email, and every
response size.  Both worlds run through the real services (PostgreSQL, the
Redis channel layer) with the same clock at every visible moment; the unseen
actions happen at moments of their own, so their times would show too.

The scenario (tests/site/leak_worlds.py, checked against the engine first):
White, under submersion invisibility and with `seen_when_firing` off, has a
submerged Sub at (9,9) and two inherently stealthed AAAs at (9,5) and
(9,6); Black has nothing that sees them.  In world B, White's turn holds a
Torpedo Fire from the Sub (off the board at (10,9): out of reach of any
Black Torpedo Launcher), an Exchange of a Bike between the AAAs and the
Sub's Move to (8,9); in world A only the Sub's Move, to (9,8).  A Pick-up
is never unseen in this engine: every Article lying on the ground is in both
views, so the one it takes away shows (checked below), and world B uses the
Exchange for the Article case instead."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core import mail
from django.core.management.color import no_style
from django.db import connection
from django.urls import reverse
from leak_worlds import END, SCENARIO, TIMELINE, TORPEDO, P, challenge_to_the_scenario, legal, move

import games.rules.wec as wec
from games import notifications, selectors, services
from games.models import Notification
from games.pages import board as board_page
from games.services import events, takeback
from games.store import states as state_store
from games.ui.wec import highlights, review
from tools.site import benchkit
from wecsite.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("ids_never_repeat")]


START = datetime(2031, 3, 4, 5, 6, 7, tzinfo=UTC)

# A friendly game: White takes actions back.  The worlds differ only in
# actions taken back: world B's unseen Fire, taken back (unseen too), and
# each world's own unseen Sub Move, taken back before the same Sub Move in
# both.  Both also take back a seen King
# Move (Black sees the King step back: the same in both worlds).
TAKE_BACK = {"type": "take_back"}  # not an action: the test calls games.services.takeback
TIMELINE_TAKE_BACK = [
    ("black", [move((1, 1), (1, 2, "ground"))], [move((1, 1), (1, 2, "ground"))]),
    ("black", [END], [END]),
    ("white", [], [TORPEDO]),  # an unseen Fire...
    ("white", [], [TAKE_BACK]),  # ...taken back
    ("white", [move((9, 9, "sub"), (9, 8, "sub"))], [move((9, 9, "sub"), (8, 9, "sub"))]),  # unseen Moves...
    ("white", [TAKE_BACK], [TAKE_BACK]),  # ...taken back
    ("white", [move((10, 1), (10, 2, "ground"))], [move((10, 1), (10, 2, "ground"))]),  # a seen Move...
    ("white", [TAKE_BACK], [TAKE_BACK]),  # ...taken back, seen
    ("white", [move((9, 9, "sub"), (9, 8, "sub"))], [move((9, 9, "sub"), (9, 8, "sub"))]),
    ("white", [END], [END]),
    ("black", [move((1, 2), (1, 1, "ground"))], [move((1, 2), (1, 1, "ground"))]),
    ("black", [END], [END]),
]


def black_sees(state) -> str:
    return json.dumps([wec.view(state, "black"), wec.history(state, "black")], sort_keys=True)


def engine_worlds() -> tuple[list[str], list[str], int, int]:
    """Black's view after every moment of each world, by the pure engine."""
    out = []
    for world in (1, 2):
        state = wec.load_scenario({**SCENARIO, "options": {**SCENARIO["options"], "competitive": True}})
        seen, count = [black_sees(state)], 0
        for _who, *actions in TIMELINE:
            for wanted in actions[world - 1]:
                state = wec.apply(state, legal(state, wanted))
                count += 1
            seen.append(black_sees(state))
        out += [seen, count]
    return out[0], out[2], out[1], out[3]


def test_the_scenario_hides_world_bs_extra_actions_from_black():
    a, b, count_a, count_b = engine_worlds()
    assert count_b == count_a + 2  # the worlds really differ...
    assert a == b  # ...but never to Black


def test_a_pick_up_is_never_unseen():
    """Why world B has no Pick-up: the Article leaves the ground in both views."""
    doc = {
        "to_move": "white",
        "options": {"competitive": True, "seen_when_firing": False},
        "pieces": [P("king", "black", 1, 1), P("king", "white", 10, 1), P("aaa", "white", 7, 5)],
        "articles": [{"type": "bike", "row": 7, "col": 5}],
    }
    state = wec.load_scenario(doc)
    after = wec.apply(state, legal(state, {"type": "pickup"}))
    assert wec.view(state, "black")["articles"] and not wec.view(after, "black")["articles"]


# --- the site ----------------------------------------------------------------------------------

CSRF_RES = [
    re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]+(")'),
    re.compile(rb'("X-CSRFToken": ")[^"]+(")'),
]


def strip_csrf(content: bytes) -> bytes:
    for regex in CSRF_RES:
        content = regex.sub(rb"\1CSRF\2", content)
    return content


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self):
        return self.now


def reset_database() -> None:
    """Empty every table and restart every id sequence, so that both worlds
    number their users, games, seats and notifications alike."""
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    sql = connection.ops.sql_flush(no_style(), tables, reset_sequences=True, allow_cascade=True)
    connection.ops.execute_sql_flush(sql)
    # The ids restart, so the second world's game has the first one's id (and,
    # under the fake clock, its creation time): the per-process caches keyed by
    # them would hand world B world A's states and views.  In a real database
    # ids never repeat; here each world starts with cold caches, as a fresh
    # deployment would.
    state_store.clear_caches()
    highlights._VIEWS.clear()
    review._CACHE.clear()


HX = {"HTTP_HX_REQUEST": "true"}


def black_pages(client, game_id: int, live: dict | None = None) -> dict[str, tuple[int, int, bytes]]:
    """Everything Black can ask for, in a fixed order (the game page marks
    notifications read, so the badge comes first): status, size, content.
    `live` is Black's open page across the moments: its board refresh sends
    the record it holds (X-Wec-History) and the parts of the board it shows
    (X-Wec-Parts), as static/js/game.js does, so the answer is the appended
    lines and the changed parts only (X-Wec-Patch); those answers and their
    headers are compared too."""
    urls = [
        ("badge", reverse("notification_badge"), HX),
        ("notifications", reverse("notifications"), {}),
        ("home", reverse("home"), {}),
        ("game_list", reverse("game_list"), HX),
        ("game", reverse("game_detail", args=[game_id]), {}),
        ("board", reverse("game_board", args=[game_id]), HX),
        ("board_selected", reverse("game_board", args=[game_id]) + "?sel=1-1-ground", HX),
        ("board_selected2", reverse("game_board", args=[game_id]) + "?sel=1-2-ground", HX),
        ("clocks", reverse("game_clocks", args=[game_id]), HX),
        ("replay", reverse("game_replay", args=[game_id]) + "?at=1", HX),
        # The downloads: Black's own censored record; the start is not offered while the game runs.
        ("export", reverse("export_record", args=[game_id]), {}),
        ("start", reverse("export_scenario", args=[game_id]), {}),
        ("other_game", reverse("game_detail", args=[game_id + 1]), {}),
    ]
    out = {}
    if live is not None:
        headers = dict(HX)
        if live.get("history"):
            headers["HTTP_X_WEC_HISTORY"] = live["history"]
        if live.get("parts"):
            headers["HTTP_X_WEC_PARTS"] = live["parts"]
        response = client.get(reverse("game_board", args=[game_id]), **headers)
        sent = (response.get("X-Wec-Patch", ""), response.get("X-Wec-Parts", ""), response.get("X-Wec-Board-Cache", ""))
        out["live_board"] = (response.status_code, len(response.content), strip_csrf(response.content), sent)
        live["history"] = benchkit.history_header(response.content, live.get("history"))
        live["parts"] = sent[1]
    for name, url, extra in urls:
        response = client.get(url, **extra)
        out[name] = (response.status_code, len(response.content), strip_csrf(response.content))
    # A stale post (version 0 is never current) is refused the same way too.
    response = client.post(
        reverse("game_act", args=[game_id]), {"action": json.dumps(END), "version": 0}, **HX
    )
    out["stale_post"] = (response.status_code, len(response.content), strip_csrf(response.content))
    return out


def black_rows(user) -> list:
    return list(
        Notification.objects.filter(user=user)
        .order_by("pk")
        .values_list("pk", "kind", "game_id", "created", "read", "emailed")
    )


async def drain(comm) -> list[str]:
    frames = []
    while not await comm.receive_nothing(timeout=0.6, interval=0.05):
        frames.append((await comm.receive_output(timeout=1)).get("text"))
    return frames


async def run_world(
    world: int, client, clock: Clock, queued: list[int], timeline=TIMELINE, competitive: bool = True
) -> dict:
    """Play the timeline in world 1 (A) or 2 (B); return all Black got."""

    @database_sync_to_async
    def setup():
        from django.contrib.auth import get_user_model

        reset_database()
        mail.outbox = []
        queued.clear()
        User = get_user_model()
        alice = User.objects.create_user("alice", "alice@example.com", "pw-Wec-12345", email_on_turn=True)
        bob = User.objects.create_user("bob", "bob@example.com", "pw-Wec-12345", email_on_turn=True)
        game = challenge_to_the_scenario(bob, days_per_move=3, competitive=competitive)
        client.force_login(alice)
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        headers = [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]
        return alice, bob, game.pk, headers

    @database_sync_to_async
    def act(user, wanted):
        game = selectors.get_game(game_id)
        if wanted == TAKE_BACK:
            takeback.take_back(game_id, user)
            return
        action = legal(selectors.load_state(game), wanted)
        services.submit_action(game_id, user, action, expected_seq=game.seq)

    @database_sync_to_async
    def snapshot():
        # Emails go out as the Celery task would send them (once per notification).
        for note_id in list(queued):
            notifications.send_email_for(note_id)
        queued.clear()
        emails = [(m.subject, m.body, m.to, m.from_email) for m in mail.outbox]
        game = selectors.get_game(game_id)
        return {
            "pages": black_pages(client, game_id, live),
            "rows": black_rows(alice),
            "emails": emails,
            "engine": black_sees(selectors.load_state(game)),
            "seq": game.seq,
        }

    clock.now = START
    live: dict = {}  # Black's open page (see black_pages)
    alice, bob, game_id, headers = await setup()
    game_socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    note_socket = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    assert (await game_socket.connect(timeout=5))[0]
    assert (await note_socket.connect(timeout=5))[0]
    moments = [{**await snapshot(), "frames": (await drain(game_socket), await drain(note_socket))}]
    for index, (who, *actions) in enumerate(timeline):
        user = alice if who == "black" else bob
        for number, wanted in enumerate(actions[world - 1]):
            # Every visible moment has the same time in both worlds; an unseen
            # action gets a time of its own (so a shown time would differ).
            if actions[0] == actions[1]:
                clock.now = START + timedelta(hours=index + 1)
            else:
                clock.now = START + timedelta(hours=index + 1, minutes=7 * world + number)
            await act(user, wanted)
        clock.now = START + timedelta(hours=index + 1, minutes=30)
        moments.append({**await snapshot(), "frames": (await drain(game_socket), await drain(note_socket))})
    await game_socket.disconnect()
    await note_socket.disconnect()
    return {"moments": moments}


@pytest.mark.asyncio
@pytest.mark.parametrize("competitive", [True, False], ids=["competitive", "friendly"])
async def test_two_worlds_differing_only_in_unseen_actions_look_alike_to_black(
    client, monkeypatch, settings, competitive
):
    """A friendly game keeps its secrets exactly as a competitive one: its
    record is closed unless both players agreed to open it."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # Emails link to a fixed address: otherwise the site remembers the first
    # request's origin once per process, and world B's Redis prefix has none
    # (its emails then linked to the fallback address; failed on main too).
    settings.WEC_SITE_URL = "http://testserver"
    clock = Clock()
    monkeypatch.setattr("django.utils.timezone.now", clock)
    # The render cache keys a running clock's board by the minute: the test's
    # minute, or a real minute passing between two worlds' moments would
    # serve one world a board cached earlier and the other a fresh one.
    monkeypatch.setattr(board_page, "time", SimpleNamespace(time=lambda: clock.now.timestamp()))
    queued: list[int] = []
    monkeypatch.setattr(events, "_enqueue_email", queued.append)

    # A Redis prefix per world: otherwise world B would be served world A's
    # cached boards (same game id, colour and version) and compare nothing.
    prefix = settings.WEC_REDIS_PREFIX
    settings.WEC_REDIS_PREFIX = f"{prefix}-world1-{competitive}"
    a = await run_world(1, client, clock, queued, competitive=competitive)
    settings.WEC_REDIS_PREFIX = f"{prefix}-world2-{competitive}"
    b = await run_world(2, client, clock, queued, competitive=competitive)

    assert len(a["moments"]) == len(b["moments"]) == len(TIMELINE) + 1
    # The worlds differ (two more actions in B), and the engine shows Black the same.
    assert b["moments"][-1]["seq"] == a["moments"][-1]["seq"] + 2
    for moment, (ma, mb) in enumerate(zip(a["moments"], b["moments"], strict=True)):
        assert ma["engine"] == mb["engine"], moment
        for name in ma["pages"]:
            # (status, size) first, for a readable failure; then everything.
            assert ma["pages"][name][:2] == mb["pages"][name][:2], (moment, name)
            assert ma["pages"][name] == mb["pages"][name], (moment, name)
        assert ma["frames"] == mb["frames"], moment
        assert ma["rows"] == mb["rows"], moment
        assert ma["emails"] == mb["emails"], moment
    # And Black did hear things: the doorbell at the end of White's turn, its
    # turn notice, the email; but nothing at the unseen moments (2, 3, 4 of the
    # timeline are White's unseen Fire, Exchange and Move).
    frames = [m["frames"][0] for m in a["moments"]]
    assert frames[3] == frames[4] == frames[5] == []
    assert frames[6], "the end of White's turn must ring Black's doorbell"
    assert any(m["frames"][1] for m in a["moments"])
    assert a["moments"][-1]["emails"]
    # The live page's refreshes were answered as changed parts at least once
    # (so the patched answers were compared, not only whole boards).
    assert any(m["pages"]["live_board"][3][0] == "1" for m in a["moments"])


@pytest.mark.asyncio
async def test_take_backs_in_a_friendly_game_look_alike_to_black(client, monkeypatch, settings):
    """Take-backs of unseen actions leave no trace for Black; a take-back of a
    seen Move shows Black the Move undone, the same in both worlds."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    clock = Clock()
    monkeypatch.setattr("django.utils.timezone.now", clock)
    # The render cache keys a running clock's board by the minute: the test's
    # minute, or a real minute passing between two worlds' moments would
    # serve one world a board cached earlier and the other a fresh one.
    monkeypatch.setattr(board_page, "time", SimpleNamespace(time=lambda: clock.now.timestamp()))
    queued: list[int] = []
    monkeypatch.setattr(events, "_enqueue_email", queued.append)
    prefix = settings.WEC_REDIS_PREFIX
    runs = []
    for world in (1, 2):
        settings.WEC_REDIS_PREFIX = f"{prefix}-tb-world{world}"
        runs.append(await run_world(world, client, clock, queued, TIMELINE_TAKE_BACK, competitive=False))
    a, b = runs
    assert len(a["moments"]) == len(b["moments"]) == len(TIMELINE_TAKE_BACK) + 1
    # World B logged two more rows (the Fire and its withdrawal).
    assert b["moments"][-1]["seq"] == a["moments"][-1]["seq"] + 2
    for moment, (ma, mb) in enumerate(zip(a["moments"], b["moments"], strict=True)):
        assert ma["engine"] == mb["engine"], moment
        for name in ma["pages"]:
            assert ma["pages"][name] == mb["pages"][name], (moment, name)
        assert ma["frames"] == mb["frames"], moment
        assert ma["rows"] == mb["rows"], moment
        assert ma["emails"] == mb["emails"], moment
    frames = [m["frames"][0] for m in a["moments"]]
    # Moments 3-6: the unseen Fire, its take-back, the Sub's Move and its
    # take-back: nothing.  7 and 8: the King's seen Move and its take-back:
    # Black's doorbell rings for each.
    assert frames[3] == frames[4] == frames[5] == frames[6] == []
    assert frames[7] and frames[8]
    assert a["moments"][7]["engine"] != a["moments"][8]["engine"] == a["moments"][6]["engine"]
