"""Marshal and Spy through the whole site, in two worlds that differ only in
the types of two White pieces Black never learns: everything Black
receives (pages, partials, socket frames, notification rows and emails) must
be byte-identical (CSRF tokens stripped).  The two White pieces are a Captain
and a Lieutenant exchanged between the worlds; Black's General beats either,
so every fight ends alike.  The game also has a Spy reveal and a fight that
Black loses, so the revealed and the lost pieces show on both sides."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.core import mail
from django.core.management.color import no_style
from django.db import connection
from django.urls import reverse

from games import notifications, selectors, services
from games.models import Notification
from games.rules import marshal as rules
from games.services import events
from games.store import states as state_store
from wecsite.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("ids_never_repeat")]


def P(kind: str, color: str, row: int, col: int) -> dict:
    return {"type": kind, "color": color, "row": row, "col": col}


def scenario(world: int, observer: str = "black") -> dict:
    """World 2 exchanges two types the observer never learns: for Black, two
    White pieces (a Captain and a Lieutenant, each beaten by Black's General);
    for White, two Black pieces that stay at home (a Lieutenant and a Captain)."""
    a, b = ("captain", "lieutenant") if world == 1 or observer != "black" else ("lieutenant", "captain")
    c, d = ("lieutenant", "captain") if world == 1 or observer != "white" else ("captain", "lieutenant")
    return {
        "phase": "play",
        "to_move": "black",
        "turn_number": 1,
        "options": {"volcanoes": 0},
        "pieces": [
            P("hq", "black", 1, 1),
            P("general", "black", 4, 5),
            P("spy", "black", 4, 2),
            P("corporal", "black", 2, 9),
            P(c, "black", 2, 3),
            P(d, "black", 2, 4),
            P("hq", "white", 10, 10),
            P(a, "white", 5, 5),
            P(b, "white", 8, 8),
            P("colonel", "white", 6, 2),
            P("corporal", "white", 9, 1),
        ],
    }


def mv(frm, to) -> dict:
    return {"type": "move", "from": list(frm), "to": list(to)}


# (who, action): the same moves in both worlds.
TIMELINE = [
    ("black", mv((4, 2), (5, 2))),  # the Spy reveals the Colonel
    ("black", mv((4, 5), (5, 5))),  # the General beats the unknown piece (Captain or Lieutenant)
    ("white", mv((9, 1), (8, 1))),
    ("white", mv((8, 8), (8, 7))),  # the other one of the pair moves
    ("black", mv((5, 5), (6, 5))),
    ("black", mv((2, 9), (3, 9))),
    ("white", mv((6, 2), (5, 2))),  # the Colonel takes the Spy
    ("white", mv((8, 7), (7, 7))),
    ("black", mv((6, 5), (7, 5))),
    ("black", mv((3, 9), (4, 9))),
]
START = datetime(2031, 3, 4, 5, 6, 7, tzinfo=UTC)
CSRF_RES = [
    re.compile(rb'(name="csrfmiddlewaretoken" value=")[^"]+(")'),
    re.compile(rb'("X-CSRFToken": ")[^"]+(")'),
]
HX = {"HTTP_HX_REQUEST": "true"}


def strip_csrf(content: bytes) -> bytes:
    for regex in CSRF_RES:
        content = regex.sub(rb"\1CSRF\2", content)
    return content


@pytest.mark.parametrize("observer", ["black", "white"])
def test_the_worlds_differ_but_not_to_the_observer(observer):
    """The pure engine: the pair really differs, and the observer's view and
    record never tell the pair apart."""
    states = []
    for world in (1, 2):
        state = rules.load_scenario(scenario(world, observer))
        seen = [json.dumps([rules.view(state, observer), rules.history(state, observer)], sort_keys=True)]
        for _who, action in TIMELINE:
            state = rules.apply(state, action)
            seen.append(json.dumps([rules.view(state, observer), rules.history(state, observer)], sort_keys=True))
        states.append((state, seen))
    assert rules.dump_scenario(states[0][0]) != rules.dump_scenario(states[1][0])
    assert states[0][1] == states[1][1]


class Clock:
    def __init__(self):
        self.now = START

    def __call__(self):
        return self.now


def reset_database() -> None:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    sql = connection.ops.sql_flush(no_style(), tables, reset_sequences=True, allow_cascade=True)
    connection.ops.execute_sql_flush(sql)
    state_store.clear_caches()  # ids restart: each world starts with cold process caches


SELECTIONS = {
    "black": ("5-5", "6-5", "7-5", "3-9", "8-7"),
    "white": ("8-1", "6-2", "8-7", "7-7", "7-5"),
}


def black_pages(client, game_id: int, observer: str = "black") -> dict:
    board = reverse("game_board", args=[game_id])
    sel = SELECTIONS[observer]
    urls = [
        ("badge", reverse("notification_badge"), HX),
        ("notifications", reverse("notifications"), {}),
        ("home", reverse("home"), {}),
        ("game_list", reverse("game_list"), HX),
        ("game", reverse("game_detail", args=[game_id]), {}),
        ("board", board, HX),
        ("board_sel1", board + f"?sel={sel[0]}", HX),
        ("board_sel2", board + f"?sel={sel[1]}", HX),
        ("board_sel3", board + f"?sel={sel[2]}", HX),
        ("board_sel4", board + f"?sel={sel[3]}", HX),
        ("board_enemy", board + f"?sel={sel[4]}", HX),
        ("clocks", reverse("game_clocks", args=[game_id]), HX),
        ("replay", reverse("game_replay", args=[game_id]) + "?at=1", HX),
        ("watch", reverse("watch", args=[game_id]), {}),
        ("watch_board", reverse("watch_board", args=[game_id]), HX),
        ("export", reverse("export_record", args=[game_id]), {}),
        ("start", reverse("export_scenario", args=[game_id]), {}),
    ]
    out = {}
    for name, url, extra in urls:
        response = client.get(url, **extra)
        out[name] = (response.status_code, len(response.content), strip_csrf(response.content))
    # Refusals: a stale post, and a move onto an own piece / into an unknown enemy out of turn.
    for name, action, version in (
        ("stale_post", mv((5, 5), (6, 5)), 0),
        ("bad_move", mv((1, 1), (1, 2)), None),
        ("attack_unknown", mv((7, 5), (8, 5)), None),
    ):
        game = selectors.get_game(game_id)
        data = {"action": json.dumps(action), "version": selectors.seat_for(game, client.user_).version if version is None else version}
        response = client.post(reverse("game_act", args=[game_id]), data, **HX)
        out[name] = (response.status_code, len(response.content), strip_csrf(response.content))
    return out


async def drain(comm) -> list:
    frames = []
    while not await comm.receive_nothing(timeout=0.6, interval=0.05):
        frames.append((await comm.receive_output(timeout=1)).get("text"))
    return frames


async def run_world(
    world: int, client, clock: Clock, queued: list[int], observer: str = "black", competitive: bool = True
) -> dict:
    @database_sync_to_async
    def setup():
        from django.contrib.auth import get_user_model

        reset_database()
        mail.outbox = []
        queued.clear()
        User = get_user_model()
        alice = User.objects.create_user("alice", "alice@example.com", "pw-Wec-12345", email_on_turn=True)
        bob = User.objects.create_user("bob", "bob@example.com", "pw-Wec-12345", email_on_turn=True)
        game = services.create_game(
            creator=bob, opponent="user", username="alice", color="white", scenario=scenario(world, observer),
            days_per_move=3, engine="marshal", competitive=competitive,
        )
        watcher = alice if observer == "black" else bob
        client.force_login(watcher)
        client.user_ = watcher
        cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        headers = [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]
        return alice, bob, game.pk, headers

    @database_sync_to_async
    def act(user, action):
        game = selectors.get_game(game_id)
        services.submit_action(game_id, user, action, expected_seq=game.seq)

    @database_sync_to_async
    def snapshot():
        for note_id in list(queued):
            notifications.send_email_for(note_id)
        queued.clear()
        game = selectors.get_game(game_id)
        state = selectors.load_state(game)
        return {
            "pages": black_pages(client, game_id, observer),
            "rows": list(
                Notification.objects.filter(user=client.user_).order_by("pk")
                .values_list("pk", "kind", "game_id", "created", "read", "emailed")
            ),
            "emails": [(m.subject, m.body, m.to, m.from_email) for m in mail.outbox if client.user_.email in m.to],
            "engine": json.dumps([rules.view(state, observer), rules.history(state, observer)], sort_keys=True),
            "truth": json.dumps(rules.dump_scenario(state), sort_keys=True),
        }

    clock.now = START
    alice, bob, game_id, headers = await setup()
    game_socket = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    note_socket = WebsocketCommunicator(application, "/ws/notifications/", headers=headers)
    assert (await game_socket.connect(timeout=5))[0]
    assert (await note_socket.connect(timeout=5))[0]
    moments = [{**await snapshot(), "frames": (await drain(game_socket), await drain(note_socket))}]
    for index, (who, action) in enumerate(TIMELINE):
        clock.now = START + timedelta(hours=index + 1)
        await act(alice if who == "black" else bob, action)
        clock.now = START + timedelta(hours=index + 1, minutes=30)
        moments.append({**await snapshot(), "frames": (await drain(game_socket), await drain(note_socket))})
    await game_socket.disconnect()
    await note_socket.disconnect()
    return {"moments": moments}


@pytest.mark.asyncio
@pytest.mark.parametrize("observer", ["black", "white"])
@pytest.mark.parametrize("competitive", [True, False], ids=["competitive", "friendly"])
async def test_two_marshal_worlds_differing_in_unrevealed_types_look_alike(
    client, monkeypatch, settings, observer, competitive
):
    """Competitive or friendly: Marshal and Spy has no open record."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # Emails link to a fixed address (else the site remembers the first
    # request's origin per process, and the second world's Redis prefix has none).
    settings.WEC_SITE_URL = "http://testserver"
    clock = Clock()
    monkeypatch.setattr("django.utils.timezone.now", clock)
    queued: list[int] = []
    monkeypatch.setattr(events, "_enqueue_email", queued.append)
    prefix = settings.WEC_REDIS_PREFIX
    settings.WEC_REDIS_PREFIX = f"{prefix}-m1-{competitive}"
    a = await run_world(1, client, clock, queued, observer, competitive)
    settings.WEC_REDIS_PREFIX = f"{prefix}-m2-{competitive}"
    b = await run_world(2, client, clock, queued, observer, competitive)

    assert len(a["moments"]) == len(b["moments"]) == len(TIMELINE) + 1
    assert a["moments"][-1]["truth"] != b["moments"][-1]["truth"]  # the worlds really differ
    compared = 0
    for moment, (ma, mb) in enumerate(zip(a["moments"], b["moments"], strict=True)):
        assert ma["engine"] == mb["engine"], moment
        assert ma["pages"].keys() == mb["pages"].keys()
        for name in ma["pages"]:
            if ma["pages"][name] != mb["pages"][name]:
                import difflib

                diff = difflib.unified_diff(
                    ma["pages"][name][2].decode().splitlines(), mb["pages"][name][2].decode().splitlines(), lineterm="", n=0
                )
                raise AssertionError((moment, name, "\n".join(list(diff)[:20])))
            compared += 1
        assert ma["frames"] == mb["frames"], moment
        assert ma["rows"] == mb["rows"], moment
        assert ma["emails"] == mb["emails"], moment
    # The game really happened: the Spy revealed the Colonel, then died; doorbells rang.
    last = a["moments"][-1]["pages"]["board"][2].decode()
    if observer == "black":
        assert 'title="Colonel — revealed by your Spy"' in last
        assert re.search(r'id="lost-own">.*Spy ×1', last, re.S)
    else:
        assert re.search(r'id="known-own">.*Colonel \(5,2\)', last, re.S)
        assert re.search(r'id="lost-enemy">.*unknown piece ×1', last, re.S)
    assert any(m["frames"][0] for m in a["moments"])
    assert a["moments"][-1]["pages"]["stale_post"][0] == 409
    assert compared == (len(TIMELINE) + 1) * len(a["moments"][0]["pages"])
