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
import time

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from option_fields import options_post
from url_routes import all_routes

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


ROUTES = all_routes()

# --- values ------------------------------------------------------------------------------------

# Text a browser could send: anything but lone surrogates (which no client can encode).
plain_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
# Text made mostly of what the text policy refuses (wecsite.inputs): NUL and
# other controls, bidi overrides and isolates, invisible characters.
hostile_text = st.text(
    st.one_of(
        st.sampled_from(
            "\x00\x01\x1b\x7f\x85\x9b\u202a\u202b\u202d\u202e\u2066\u2067\u2068\u2069"
            "\u200b\u200c\u200d\u200e\u200f\u2028\ufeff\u00ad\ue000"
        ),
        st.characters(min_codepoint=32, max_codepoint=126),
    ),
    min_size=1,
    max_size=20,
)
any_text = st.one_of(plain_text, hostile_text, st.sampled_from(["x" * 100_000, "[" * 100_000, "9" * 5000]))
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
    # The fields that carry user text others see, or JSON.
    "text": any_text,
    "name": any_text,
    "what": st.sampled_from(["post", "report", "mute", "save", "check", "start", "end", "clear", ""]),
    "pieces": st.one_of(action_json, json_values.map(json.dumps)),
    "start": st.one_of(action_json, json_values.map(json.dumps)),
    "record": st.one_of(
        any_text, action_json.map(lambda doc: '[Options "' + doc.replace('"', '\\"') + '"]\n\n1. x')
    ),
    "next": any_text,
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


# --- hostile values in every field and JSON key --------------------------------------------------
#
# The random fuzz above rarely puts a NUL into the one field that reaches the
# database.  This part is systematic: every route gets a request that would
# otherwise go deep (a valid chat line, a valid setup, a valid record...), and
# then, one at a time, every form field the view reads (found by watching
# which keys it asks its QueryDicts for) and every key of every JSON document
# it takes is replaced by each hostile value: control characters, NUL, bidi
# overrides and isolates, invisible characters, very long strings, deeply
# nested JSON, numbers no int() or float() takes.  No answer may be a 5xx; a
# refused request changes nothing; and whatever a request did store, no user
# text others see breaks the text policy (wecsite.inputs).  Each request runs
# in a savepoint that is rolled back, so every one of them meets the same world.

DEEP = 100_000
# Into every form field the view reads.
HOSTILE_TEXT = {
    "nul": "ab\x00cd",
    "c0 control": "ab\x01\x1b[31mcd",
    "c1 control": "ab\x85\x9bcd",
    "bidi override": "\u202eevil\u202c",
    "bidi isolate and invisible": "\u2066x\u2069\u200b\ufeff",
    "very long": "x" * 100_000,
    "deep json": "[" * DEEP,
    "huge number": "9" * 5000,
    "superscript digit": "\u00b2",
}
# Also into the fields that carry JSON.
HOSTILE_JSON_TEXT = {
    "deep json object": '{"a":' * 5000 + "1" + "}" * 5000,
    "json nul": '"\\u0000"',
    "json surrogate": '{"\\ud800": "\\udfff"}',
    "float overflow": "[1e999]",
}
# Values put into one key of a JSON document (written into its text as is).
HOSTILE_JSON = {
    "nul string": '"a\\u0000b"',
    "bidi string": '"\\u202eevil"',
    "invisible string": '"\\u200b"',
    "surrogate string": '"\\ud800"',
    "long string": '"' + "x" * 100_000 + '"',
    "deep list": "[" * 5000 + "]" * 5000,
    "deep object": '{"a":' * 3000 + "1" + "}" * 3000,
    "huge integer": "9" * 5000,
    "float overflow": "1e999",
    "nan": "NaN",
    "object": '{"\\u0000": 1}',
}
NESTED_JSON_KINDS = ("nul string", "bidi string", "long string", "deep list")
REFUSALS: dict[int, int] = {}
HOSTILE_STATS = {"requests": 0, "fields": 0, "json keys": 0, "5xx": 0}


def stored_texts() -> list[str]:
    """Every user text others see, as stored."""
    from django.contrib.auth import get_user_model

    from games.models import ChatMessage, Scenario

    texts = list(ChatMessage.objects.values_list("text", flat=True))
    texts += list(Scenario.objects.values_list("name", flat=True))
    for username, display_name in get_user_model().objects.values_list("username", "display_name"):
        texts += [username, display_name]
    return texts


def hostile_state() -> tuple:
    from games.models import ChatMessage, Scenario, SetupFavourite

    return (
        db_state(),
        list(ChatMessage.objects.order_by("pk").values_list("pk", "text", "reported")),
        list(Scenario.objects.order_by("pk").values_list("pk", "name", "public")),
        list(SetupFavourite.objects.order_by("pk").values_list("pk", "layout")),
    )


class ReadKeys:
    """Records the keys a view asks its request's QueryDicts for."""

    def __init__(self, monkeypatch):
        from django.http import QueryDict

        self.keys: set[str] = set()
        for name in ("get", "__getitem__", "getlist", "__contains__"):
            original = getattr(QueryDict, name)

            def spy(qd, key, *args, _original=original, **kwargs):
                if isinstance(key, str):
                    self.keys.add(key)
                return _original(qd, key, *args, **kwargs)

            monkeypatch.setattr(QueryDict, name, spy)


def _json_variants(text: str):
    """(key path, document text) with one key's value replaced by each hostile
    JSON value: the top-level keys, and the keys of the first object in each
    top-level list (a setup's pieces, a position's pieces)."""
    doc = json.loads(text)
    marker = "__HOSTILE__"

    def paths(value, prefix=()):
        if isinstance(value, dict):
            for key, inner in value.items():
                yield (*prefix, key)
                if len(prefix) < 2:
                    yield from paths(inner, (*prefix, key))
        elif isinstance(value, list) and value and len(prefix) < 2:
            yield from paths(value[0], (*prefix, 0))

    for path in paths(doc):
        copy = json.loads(text)
        place = copy
        for step in path[:-1]:
            place = place[step]
        place[path[-1]] = marker
        written = json.dumps(copy)
        # Keys below the top (a position's options, a piece's fields) are many
        # and read alike: the brief's kinds only there.
        kinds = HOSTILE_JSON if len(path) == 1 else {k: HOSTILE_JSON[k] for k in NESTED_JSON_KINDS}
        for kind, value in kinds.items():
            yield ("/".join(map(str, path)), kind), written.replace(f'"{marker}"', value)
    for kind, value in HOSTILE_JSON.items():
        if text.endswith("}"):
            yield ("(new key)", kind), text[:-1] + f', "\\u202e\\u0000": {value}}}'
        else:
            yield ("(whole document)", kind), value


def _options_variants(record: str):
    """The same for the Options header of a .wec record (JSON written inside
    a quoted header value)."""
    for kind, value in HOSTILE_JSON.items():
        written = ('{"competitive": ' + value + "}").replace("\\", "\\\\").replace('"', '\\"')
        yield (
            ("Options", kind),
            re.sub(r'\[Options "(?:[^"\\]|\\.)*"\]', lambda m, w=written: f'[Options "{w}"]', record),
        )


@pytest.fixture
def hostile_world(world, alice, bob, carol):
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from games.club import chat
    from games.models import Scenario
    from games.rules import marshal as marshal_rules
    from games.ui.wec import scenario_text

    game, seek, ended = world["ids"]
    chat.post_chat(game_id=game, user=alice, text="good luck")
    challenge = services.create_game(
        creator=alice, opponent="user", username="carol", color="black", as_challenge=True
    )
    marshal = services.create_game(
        creator=alice, opponent="user", username="bob", color="black", engine="marshal", days_per_move=None
    )
    scenario = Scenario.objects.create(
        owner=alice,
        name="Two kings",
        public=True,
        document=scenario_text.parse("to_move black\npiece black king 1 1\npiece white king 10 10\n"),
    )
    # A friendly game (take-backs and undo) where Alice has moved and not yet ended her Turn.
    friendly = services.create_game(
        creator=alice, opponent="user", username="bob", color="black", competitive=False
    ).pk
    first = next(
        a
        for a in get_engine().legal_actions(selectors.load_state(selectors.get_game(friendly)))
        if a["type"] == "move"
    )
    services.submit_action(friendly, alice, first, expected_seq=0)
    state = selectors.load_state(selectors.get_game(marshal.pk))
    pieces = marshal_rules.legal_actions(state)[0]["pieces"]
    engine = get_engine()
    legal = engine.legal_actions(selectors.load_state(selectors.get_game(game)))
    act_action = next((a for a in legal if a["type"] == "move"), legal[0])
    g = engine.new_game({"competitive": False})
    for _ in range(4):  # two Turns: a Move, then the end of the Turn
        legal_now = engine.legal_actions(g)
        ends = [a for a in legal_now if a["type"] == "end_turn"]
        g = engine.apply(g, ends[0] if ends else next(a for a in legal_now if a["type"] == "move"))
    turns = engine.history(g, None) if hasattr(engine, "history") else []
    record = '[Options "{\\"competitive\\": false}"]\n\n' + "".join(
        f"{n}. {t}\n" for n, t in enumerate(turns, 1)
    )
    uid = urlsafe_base64_encode(force_bytes(alice.pk))
    token = default_token_generator.make_token(alice)
    new_game = {
        "opponent": "user",
        "username": "bob",
        "color": "black",
        "days_per_move": "3",
        "engine": "wec",
    }
    a, b, c = alice, bob, carol
    # route -> [(method, user, path arguments, data)]; the data would be accepted (or nearly).
    bases = {
        "": [("GET", a, {}, {})],
        "healthz": [("GET", None, {}, {})],
        "games/list/": [("GET", a, {}, {})],
        "games/new/": [("POST", a, {}, new_game), ("GET", a, {}, {})],
        "games/<int:game_id>/": [
            ("GET", a, {"game_id": game}, {}),
            ("GET", a, {"game_id": ended}, {"at": "1"}),
        ],
        "games/<int:game_id>/board/": [("GET", a, {"game_id": game}, {"sel": "1-1-ground", "mode": "aim"})],
        "games/<int:game_id>/act/": [
            ("POST", a, {"game_id": game}, {"action": json.dumps(act_action)}),
            ("POST", a, {"game_id": marshal.pk}, {"action": json.dumps({"type": "setup", "pieces": pieces})}),
        ],
        "games/<int:game_id>/accept/": [("POST", c, {"game_id": seek}, {})],
        "games/<int:game_id>/cancel/": [("POST", b, {"game_id": seek}, {})],
        "games/<int:game_id>/resign/": [("POST", a, {"game_id": game}, {})],
        "games/<int:game_id>/clocks/": [("GET", a, {"game_id": game}, {})],
        "games/<int:game_id>/replay/": [("GET", a, {"game_id": ended}, {"at": "0"})],
        "games/<int:game_id>/challenge/": [("GET", c, {"game_id": challenge.pk}, {})],
        "games/<int:game_id>/challenge/answer/": [
            ("POST", c, {"game_id": challenge.pk}, {"answer": "accept"})
        ],
        "games/<int:game_id>/challenge/propose/": [
            (
                "POST",
                a,
                {"game_id": challenge.pk},
                {**new_game, **options_post(), "kind": "friendly", "creator_color": "white"},
            )
        ],
        "games/<int:game_id>/draw/": [("POST", a, {"game_id": game}, {"answer": "offer"})],
        "games/<int:game_id>/takeback/": [("POST", a, {"game_id": friendly}, {"version": "", "steps": "1"})],
        "games/<int:game_id>/undo/": [("POST", b, {"game_id": friendly}, {"answer": "request"})],
        "games/<int:game_id>/chat/": [("GET", a, {"game_id": game}, {})],
        "games/<int:game_id>/chat/post/": [
            ("POST", a, {"game_id": game}, {"what": "post", "text": "hello"}),
            ("POST", b, {"game_id": game}, {"what": "report", "message": "1"}),
        ],
        "games/<int:game_id>/watch/": [("GET", c, {"game_id": ended}, {})],
        "games/<int:game_id>/watch/board/": [("GET", c, {"game_id": ended}, {})],
        "games/<int:game_id>/watch/replay/": [("GET", c, {"game_id": ended}, {"at": "0"})],
        "games/<int:game_id>/export/": [("GET", a, {"game_id": ended}, {})],
        "games/<int:game_id>/export.wec": [("GET", a, {"game_id": ended}, {})],
        "games/<int:game_id>/start.json": [("GET", a, {"game_id": ended}, {})],
        "games/<int:game_id>/setup-favourite/": [
            ("POST", a, {"game_id": marshal.pk}, {"pieces": json.dumps(pieces)})
        ],
        "archive/": [("GET", a, {}, {"game": "wec", "player": "bob", "page": "1"})],
        "players/<plain:username>/": [("GET", None, {"username": "alice"}, {})],
        "leaderboard/": [("GET", None, {}, {"game": "wec"})],
        "help/": [("GET", None, {}, {})],
        "notifications/": [("GET", a, {}, {})],
        "notifications/badge/": [("GET", a, {}, {})],
        "notifications/read/": [("POST", a, {}, {"game": str(game)})],
        "sandbox/": [("GET", a, {}, {})],
        "sandbox/start/": [("POST", a, {}, {"source": "shipped:standard"})],
        "sandbox/act/": [
            ("POST", a, {}, {"where": "forward", "step": "0"}),
            ("POST", a, {}, {"action": "0", "step": "0"}),
        ],
        "sandbox/import/": [
            ("POST", a, {}, {"record": record, "start": ""}),
            ("POST", a, {}, {"record": record, "start": json.dumps(engine.dump_scenario(engine.new_game()))}),
        ],
        "scenarios/": [
            ("GET", a, {}, {"from": f"id:{scenario.pk}"}),
            (
                "POST",
                a,
                {},
                {
                    "text": scenario_text.to_text(scenario.document),
                    "what": "save",
                    "name": "Mine",
                    "public": "on",
                },
            ),
        ],
        "scenarios/start/": [("POST", a, {}, {**new_game, "source": f"id:{scenario.pk}"})],
        "accounts/signup/": [
            (
                "POST",
                None,
                {},
                {
                    "username": "dave",
                    "display_name": "Dave",
                    "email": "dave@example.com",
                    "password1": "pw-Wec-12345x",
                    "password2": "pw-Wec-12345x",
                },
            )
        ],
        "accounts/login/": [
            ("POST", None, {}, {"username": "alice", "password": "pw-Wec-12345", "next": "/"})
        ],
        "accounts/logout/": [("POST", a, {}, {})],
        "accounts/profile/": [
            ("POST", a, {}, {"display_name": "Alice", "email": "alice@example.com", "time_zone": "UTC"})
        ],
        "accounts/vacation/": [("POST", a, {}, {"what": "start", "days": "3"})],
        "accounts/language/": [("POST", a, {}, {"language": "de", "next": "/"})],
        "accounts/timezone/": [("POST", a, {}, {"zone": "Europe/Berlin"})],
        "accounts/password_change/": [
            (
                "POST",
                a,
                {},
                {
                    "old_password": "pw-Wec-12345",
                    "new_password1": "pw-Wec-99999x",
                    "new_password2": "pw-Wec-99999x",
                },
            )
        ],
        "accounts/password_change/done/": [("GET", a, {}, {})],
        "accounts/password_reset/": [("POST", None, {}, {"email": "alice@example.com"})],
        "accounts/password_reset/done/": [("GET", None, {}, {})],
        "accounts/reset/<uidb64>/<token>/": [("GET", None, {"uidb64": uid, "token": token}, {})],
        "accounts/reset/done/": [("GET", None, {}, {})],
    }
    return {"bases": bases, "alice": alice}


def _path(route: str, args: dict) -> str:
    from urllib.parse import quote

    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: quote(str(args[m.group(1)]), safe=""), route)


_CLIENTS: dict[int | None, tuple[Client, str]] = {}


def _client_for(user) -> Client:
    """One signed-in client per user for the whole test (a login per request
    cost more than the request), its cookies put back before each request:
    a request that logged out or changed the language is rolled back in the
    database, and so here."""
    from http.cookies import SimpleCookie

    key = None if user is None else user.pk
    if key not in _CLIENTS:
        client = Client()
        if user is not None:
            client.force_login(user)
        _CLIENTS[key] = (client, client.cookies.output(header="", sep=";"))
    client, cookies = _CLIENTS[key]
    client.cookies = SimpleCookie(cookies)
    return client


def _hostile_request(user, method: str, path: str, data: dict, failures: list, what, before: tuple) -> None:
    """One request in a savepoint that is rolled back; `before` is the world's
    state, the same before every request (each one's changes are undone)."""
    from django.db import transaction

    from wecsite.inputs import forbidden_character

    client = _client_for(user)
    with transaction.atomic():
        try:
            if method == "GET":
                response = client.get(path, data)
            else:
                response = client.post(path, data)
            status = response.status_code
        except Exception as exc:  # the test client re-raises what would be a 500
            status, response = 500, exc
        HOSTILE_STATS["requests"] += 1
        failure = None
        if status >= 500:
            HOSTILE_STATS["5xx"] += 1
            failure = repr(response)[:300]
        else:
            if status >= 400:
                REFUSALS[status] = REFUSALS.get(status, 0) + 1
                if hostile_state() != before:
                    failure = f"{status} but the database changed"
            else:  # (a refusal changed nothing, so stored nothing either)
                bad = [t for t in stored_texts() if forbidden_character(t) is not None]
                if bad:
                    failure = f"{status} stored {bad[0][:40]!r}"
        if failure is not None:
            failures.append((method, path[:80], what, failure))
            print("hostile fuzz failure:", failures[-1])  # at once, with -s: the run is long
        transaction.set_rollback(True)


HOSTILE_PATH_VALUES = {k: v for k, v in HOSTILE_TEXT.items() if k != "very long"}
BASE_STATUSES: dict[tuple[str, str], int] = {}
OPTION_PREFIX = "opt_"
OPTION_KINDS = ("nul", "c1 control", "bidi override", "very long", "deep json")
ROUTE_COST: dict[str, tuple[int, float]] = {}  # route -> (requests, seconds)


@pytest.fixture
def fast_hashers(settings):
    """A cheap password hasher, set before the users are made: the sign-up,
    login and password forms are called hundreds of times here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.mark.django_db
def test_hostile_values_in_every_field_and_json_key(fast_hashers, hostile_world):
    """See the section's comment.  Every route has a base request here (a new
    route without one fails the test)."""
    from django.db import transaction

    bases = hostile_world["bases"]
    missing = [r for r in ROUTES if not r.startswith("admin/") and r not in bases]
    assert not missing, f"routes without a base request in the hostile fuzz: {missing}"
    failures: list = []
    _CLIENTS.clear()
    # Alice's sandbox exists for the whole test (sandbox/act steps through it).
    assert (
        _client_for(hostile_world["alice"])
        .post("/sandbox/start/", {"source": "shipped:standard"})
        .status_code
        == 302
    )
    before = hostile_state()  # before every request: each one is rolled back
    for route, requests in bases.items():
        started, count = time.perf_counter(), HOSTILE_STATS["requests"]
        for method, user, args, data in requests:
            # Which keys does the view read?  (The base request, rolled back.)
            client = _client_for(user)
            with pytest.MonkeyPatch.context() as patch, transaction.atomic():
                spy = ReadKeys(patch)
                base = (client.get if method == "GET" else client.post)(_path(route, args), data)
                transaction.set_rollback(True)
            BASE_STATUSES[(method, route)] = base.status_code
            keys = spy.keys
            keys = sorted((keys | set(data)) - {"csrfmiddlewaretoken"})
            path = _path(route, args)
            for key in keys:
                HOSTILE_STATS["fields"] += 1
                text = data.get(key, "")
                carries_json = isinstance(text, str) and text[:1] in ("[", "{")
                values = {**HOSTILE_TEXT, **(HOSTILE_JSON_TEXT if carries_json else {})}
                if key.startswith(OPTION_PREFIX):
                    # Dozens of game options, all plain Django form fields read
                    # alike: the brief's kinds only, to keep the run short.
                    values = {kind: HOSTILE_TEXT[kind] for kind in OPTION_KINDS}
                for kind, value in values.items():
                    _hostile_request(user, method, path, {**data, key: value}, failures, (key, kind), before)
                variants = _json_variants(text) if carries_json else ()
                if key == "record":
                    variants = _options_variants(text)
                for (json_key, kind), doc in variants:
                    HOSTILE_STATS["json keys"] += 1
                    _hostile_request(
                        user, method, path, {**data, key: doc}, failures, (key, json_key, kind), before
                    )
            # A hostile key name, and hostile path parameters.
            _hostile_request(user, method, path, {**data, "\u202e\x00": "x"}, failures, ("key name",), before)
            for name in args:
                if f"<int:{name}>" in route:
                    continue  # the int converter lets only digits through
                for kind, value in HOSTILE_PATH_VALUES.items():
                    hostile_path = _path(route, {**args, name: value})
                    _hostile_request(user, method, hostile_path, data, failures, (name, kind), before)
        ROUTE_COST[route] = (HOSTILE_STATS["requests"] - count, time.perf_counter() - started)
    assert not failures, f"{len(failures)} failures, e.g.:\n" + "\n".join(map(str, failures[:20]))


def test_hostile_fuzz_report():
    """Prints what the hostile-value fuzzing did (run with -s to see it)."""
    refusals = ", ".join(f"{n} × {status}" for status, n in sorted(REFUSALS.items()))
    print(
        f"\nhostile fuzz: {HOSTILE_STATS['requests']} requests, {HOSTILE_STATS['fields']} fields, "
        f"{HOSTILE_STATS['json keys']} JSON key variants, {HOSTILE_STATS['5xx']} 5xx; refusals: {refusals}"
    )
    costly = sorted(ROUTE_COST.items(), key=lambda item: -item[1][1])[:8]
    print("costliest routes: " + ", ".join(f"{r} {n} requests {t:.1f} s" for r, (n, t) in costly))
    print("base requests: " + ", ".join(f"{m} {r} {s}" for (m, r), s in sorted(BASE_STATUSES.items())))
