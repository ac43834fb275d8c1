"""Hypothesis fuzzing of every URL pattern in the project and of every
WebSocket frame: random methods, paths, query strings, bodies (form, JSON,
multipart, raw bytes) and headers, as a player, an outsider and nobody.

Rules: no 5xx ever (the test client re-raises any exception, so a crash fails
the test with its trace), and a refused request (4xx, or a form shown again)
changes nothing in the database.  WEC_FUZZ_EXAMPLES scales the number of
examples per pattern (default 8; the benchmark in docs/reliability.md uses
more)."""

from __future__ import annotations

import json
import os
import re

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import selectors, services
from games.engines import get_engine
from games.models import Game, GameAction, Notification, Seat, Snapshot

EXAMPLES = int(os.environ.get("WEC_FUZZ_EXAMPLES", "8"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=os.environ.get("WEC_FUZZ_RANDOM") != "1",  # reproducible in CI; random in the benchmark
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
STATS = {"requests": 0, "4xx": 0, "rejects_checked": 0, "frames": 0}


def _walk(patterns, prefix=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern)


ROUTES = sorted(set(_walk(get_resolver().url_patterns)))

# --- values ------------------------------------------------------------------------------------

# Text a browser could send: anything but lone surrogates (which no client can encode).
any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
numberish = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["0", "1", "-1", "9" * 5000, "1e9", " 1", "0x1", "1.5"]),
)
place = st.tuples(
    st.integers(-2, 12), st.integers(-2, 12), st.sampled_from(["ground", "air", "sub", "x", ""])
).map(lambda t: f"{t[0]}-{t[1]}-{t[2]}")
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), any_text, st.floats(allow_nan=False)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(any_text, inner, max_size=4)),
    max_leaves=12,
)
action_json = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["move", "fire", "pickup", "drop", "exchange", "reinforce", "end_turn", "x"]
            )
        },
        optional={
            "from": st.lists(st.one_of(st.integers(-2, 12), any_text), max_size=4),
            "to": st.lists(st.one_of(st.integers(-2, 12), any_text), max_size=4),
            "piece": st.one_of(st.integers(), any_text),
            "weapon": any_text,
            "direction": st.lists(st.integers(-2, 2), max_size=3),
            "carry": json_values,
        },
    ).map(json.dumps),
    json_values.map(json.dumps),
    st.sampled_from(["[" * 5000, "{" * 3000, '{"type": "move"', "", "null", "NaN", "[]"]),
    any_text,
)
FIELD_VALUES = {
    "action": action_json,
    "seq": numberish,
    "version": numberish,
    "type": st.sampled_from(
        ["move", "fire", "pickup", "drop", "exchange", "reinforce", "end_turn", "", "zzz"]
    ),
    "from": place,
    "to": place,
    "target": place,
    "sel": place,
    "direction": st.sampled_from(["1,0", "0,0", "2,2", "a,b", "1", "-1,-1,-1"]),
    "piece": numberish,
    "to_piece": numberish,
    "mode": st.sampled_from(["aim", "dest", "x"]),
    "at": numberish,
    "opponent": st.sampled_from(["user", "open", "ai", "x"]),
    "username": st.sampled_from(["alice", "bob", "carol", "nobody", ""]),
    "color": st.sampled_from(["black", "white", "random", "green"]),
    "days_per_move": st.sampled_from(["1", "3", "14", "none", "0", "-5", "x"]),
    "display_name": any_text,
    "email": st.sampled_from(["a@b.c", "not-an-email", ""]),
    "time_zone": st.sampled_from(["UTC", "Mars/Base", ""]),
    "password": any_text,
    "password1": any_text,
    "password2": any_text,
    "new_password1": any_text,
    "new_password2": any_text,
    "old_password": any_text,
}
field_names = st.one_of(st.sampled_from(sorted(FIELD_VALUES)), any_text)


@st.composite
def form_data(draw) -> dict:
    names = draw(st.lists(field_names, max_size=8, unique=True))
    return {n: draw(FIELD_VALUES.get(n, any_text)) for n in names}


raw_bodies = st.one_of(
    st.binary(max_size=300),
    st.sampled_from(
        [
            b"[" * 100_000,
            b'{"a":' * 20_000,
            b"action=%zz&seq=%%",
            b"action=\xff\xfe&seq=0",
            b'--xyz\r\nContent-Disposition: form-data; name="action"\r\n\r\n{}\r\n',
            b"a=" + b"b" * 50_000,
        ]
    ),
)
content_types = st.sampled_from(
    [
        "application/x-www-form-urlencoded",
        "application/json",
        "multipart/form-data; boundary=xyz",
        "multipart/form-data",
        "multipart/form-data; boundary=",
        "text/plain",
        "application/x-www-form-urlencoded; charset=utf-16",
        "application/x-www-form-urlencoded; charset=nope",
    ]
)
headers = st.fixed_dictionaries(
    {},
    optional={
        "HTTP_HX_REQUEST": st.sampled_from(["true", "false", ""]),
        "HTTP_HX_TARGET": any_text,
        "HTTP_ACCEPT_LANGUAGE": st.sampled_from(["en", "fr-FR,fr;q=0.9", "*", ";;;", "x" * 300]),
        "HTTP_ACCEPT": st.sampled_from(["text/html", "application/json", "*/*"]),
        "HTTP_X_FORWARDED_PROTO": st.sampled_from(["https", "http", "gopher"]),
        "HTTP_HOST": st.sampled_from(["localhost", "evil.example", "localhost:99999", "[::1"]),
        "HTTP_REFERER": any_text,
        "HTTP_COOKIE": st.sampled_from(["", "sessionid=abc", "csrftoken=;;;", "a=\x7f"]),
    },
)


def _fill(route: str, draw, ids: list[int]) -> str:
    """A concrete path for one route, random in its parameters."""

    def param(kind: str, name: str) -> str:
        if kind == "int" or name.endswith("_id") and kind != "path":
            return str(draw(st.one_of(st.sampled_from(ids), st.integers(0, 10**12))))
        if name == "app_label":
            return draw(st.sampled_from(["games", "accounts", "auth", "nope"]))
        return draw(
            st.text(
                st.characters(min_codepoint=33, max_codepoint=0x2FFF, exclude_characters="/?#%"),
                min_size=1,
                max_size=20,
            )
        )

    path = re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: param(m.group(1) or "str", m.group(2)), route)
    path = re.sub(r"\(\?P<(\w+)>([^)]*)\)", lambda m: param("regex", m.group(1)), path)
    return "/" + path.replace("^", "").replace("$", "").replace("\\", "")


# --- the database's state ------------------------------------------------------------------------


def db_state() -> tuple:
    from django.contrib.auth import get_user_model

    User = get_user_model()
    return (
        list(
            Game.objects.order_by("pk").values_list(
                "pk", "seq", "status", "to_move", "result", "needs_attention", "updated"
            )
        ),
        list(Seat.objects.order_by("pk").values_list("pk", "user_id", "deadline")),
        list(GameAction.objects.order_by("pk").values_list("pk", "hash")),
        list(Snapshot.objects.order_by("pk").values_list("pk", "seq")),
        list(Notification.objects.order_by("pk").values_list("pk", "read", "emailed")),
        list(User.objects.order_by("pk").values_list("pk", "password", "email", "display_name", "is_active")),
    )


@pytest.fixture
def world(alice, bob, carol):
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    engine = get_engine()
    move = next(a for a in engine.legal_actions(selectors.load_state(game)) if a["type"] == "move")
    services.submit_action(game.pk, alice, move, expected_seq=0)
    seek = services.create_game(creator=bob, opponent="open", color="white")
    ended = services.create_game(creator=carol, opponent="user", username="alice", color="white")
    services.resign(ended.pk, carol)
    return {"users": [alice, bob, carol, None], "ids": [game.pk, seek.pk, ended.pk]}


def _request(world, data, route: str, method_override: str | None = None):
    user = data.draw(st.sampled_from(world["users"]), label="user")
    client = Client()
    if user is not None:
        client.force_login(user)
    path = _fill(route, data.draw, world["ids"])
    method = method_override or data.draw(
        st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"])
    )
    extra = data.draw(headers, label="headers")
    body_kind = data.draw(st.sampled_from(["form", "raw", "query"]), label="body kind")
    before = db_state()
    if body_kind == "form" and method == "POST":
        response = client.post(path, data.draw(form_data(), label="form"), **extra)
    elif body_kind == "raw" and method not in ("GET", "HEAD"):
        response = client.generic(
            method, path, data.draw(raw_bodies), content_type=data.draw(content_types), **extra
        )
    else:
        response = (
            client.generic(method, path, QUERY_STRING="", **extra)
            if method not in ("GET", "HEAD")
            else (
                client.get(path, data.draw(form_data(), label="query"), **extra)
                if method == "GET"
                else client.head(path, data.draw(form_data(), label="query"), **extra)
            )
        )
    STATS["requests"] += 1
    assert response.status_code < 500, (method, path, response.status_code)
    refused = response.status_code >= 400 or (
        method == "POST" and response.status_code == 200 and path.startswith("/accounts/")
    )
    if response.status_code >= 400:
        STATS["4xx"] += 1
    if refused:
        STATS["rejects_checked"] += 1
        assert db_state() == before, (method, path, response.status_code)


@pytest.mark.django_db
def test_fuzz_every_route(world):
    """Each route in turn, EXAMPLES examples each (one world for all of them:
    setting up a game is the slow part)."""
    for route in ROUTES:
        _fuzz_route(world, route)


def _fuzz_route(world, route: str) -> None:
    @FUZZ
    @given(st.data())
    def run(data):
        _request(world, data, route)

    run()


@pytest.mark.django_db
def test_fuzz_the_act_endpoint_hard(world):
    """The one endpoint that changes games gets many more examples, POST only."""

    @settings(FUZZ, max_examples=EXAMPLES * 8)
    @given(st.data())
    def run(data):
        _request(world, data, "games/<int:game_id>/act/", method_override="POST")

    run()


def test_every_project_route_is_fuzzed():
    assert "games/<int:game_id>/act/" in ROUTES and "notifications/read/" in ROUTES
    assert any(r.startswith("accounts/") for r in ROUTES) and any(r.startswith("admin/") for r in ROUTES)


# --- WebSocket frames ----------------------------------------------------------------------------

frames = st.lists(
    st.one_of(
        any_text.map(lambda t: ("text", t)),
        json_values.map(lambda v: ("text", json.dumps(v))),
        st.binary(max_size=200).map(lambda b: ("bytes", b)),
        st.sampled_from(
            [
                ("text", "[" * 50_000),
                ("text", '{"type": "ping"'),
                ("text", '{"type": "ping", "x": 1}'),
                ("text", ""),
            ]
        ),
    ),
    min_size=1,
    max_size=6,
)


def _ws_headers(client, user) -> list:
    client.force_login(user)
    cookie = (
        f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"
    )
    return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]


async def _frames_session(path: str, hdrs: list, batch: list) -> None:
    from wecsite.asgi import application

    comm = WebsocketCommunicator(application, path, headers=hdrs)
    connected, _ = await comm.connect(timeout=5)
    assert connected
    try:
        for kind, payload in batch:
            # send_input, not send_to: the frame goes in as is, empty ones too.
            await comm.send_input({"type": "websocket.receive", kind: payload})
            STATS["frames"] += 1
        # Still alive and answering after all that (a crashed consumer re-raises here).
        await comm.send_json_to({"type": "ping"})
        assert await comm.receive_json_from(timeout=5) == {"type": "pong"}
    finally:
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("which", ["game", "notifications"])
def test_fuzz_websocket_frames(world, which):
    client = Client()
    hdrs = _ws_headers(client, world["users"][0])
    path = f"/ws/games/{world['ids'][0]}/" if which == "game" else "/ws/notifications/"

    @settings(FUZZ, max_examples=max(5, EXAMPLES * 2))
    @given(frames)
    def run(batch):
        before = db_state()
        async_to_sync(_frames_session)(path, hdrs, batch)
        assert db_state() == before

    run()


def test_fuzz_report():
    """Prints what the fuzzing above did (run with -s to see it)."""
    print(
        f"\nfuzz: {len(ROUTES)} routes, {STATS['requests']} requests, {STATS['4xx']} 4xx, "
        f"{STATS['rejects_checked']} refusals checked unchanged, {STATS['frames']} websocket frames, 0 5xx"
    )
