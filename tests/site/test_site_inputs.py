"""Bad input is a clear 4xx that changes nothing, never a 500: the text
policy (wecsite.inputs) on every user text others see, URL parameters
checked before they reach a query, the bounded JSON reader on every JSON
document, WebSocket paths that match no route, and what handler500 calls
an outage."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.db import DataError, IntegrityError, InterfaceError, OperationalError
from django.test import RequestFactory
from django.urls import reverse

from games import services
from games.models import ChatMessage, Notification, Scenario, SetupFavourite
from wecsite.inputs import JSONInputError, check_text, forbidden_character, nesting, read_json

pytestmark = pytest.mark.django_db

SMALL = "to_move black\npiece black king 1 1\npiece white king 10 10\n"

#: Characters the policy refuses in a one-line text, by kind.
REFUSED = {
    "nul": "\x00",
    "bell (C0)": "\x07",
    "delete": "\x7f",
    "next line (C1)": "\x85",
    "right-to-left override": "\u202e",
    "left-to-right embedding": "\u202a",
    "first-strong isolate": "\u2068",
    "right-to-left mark": "\u200f",
    "zero-width space": "\u200b",
    "byte-order mark": "\ufeff",
    "soft hyphen": "\u00ad",
    "line separator": "\u2028",
    "private use": "\ue000",
    "newline in one line": "\n",
}


# --- the policy --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(REFUSED))
def test_the_policy_refuses(kind):
    text = f"hel{REFUSED[kind]}lo"
    assert forbidden_character(text) == REFUSED[kind]
    with pytest.raises(Exception, match="not allowed"):
        check_text(text)


def test_the_policy_keeps_ordinary_text():
    for text in ("Grüß Gott", "Привет, как дела?", "Zażółć gęślą jaźń", "שלום", "مرحبا", "😀 gg", "a\tb"[:1]):
        assert forbidden_character(text) is None, text
    assert forbidden_character("line one\nline two\ttab", multiline=True) is None
    # Joiners only between visible characters, and only where asked for.
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert forbidden_character(family, joiners=True) is None
    assert forbidden_character(family) == "\u200d"
    assert forbidden_character("\u200dhi", joiners=True) == "\u200d"
    assert forbidden_character("hi \u200c", joiners=True) == "\u200c"


def test_the_json_reader_is_bounded():
    assert read_json('{"a": [1, 2, {"b": "[[[["}]}', max_chars=100, max_depth=3) == {
        "a": [1, 2, {"b": "[[[["}]
    }
    assert nesting('"[[[" [ { "x": "\\"[" } ]') == 2
    for text in (
        "[" * 100_000,
        "[" * 5 + "]" * 5,
        "{" * 5000,
        "x" * 101,
        "NaN",
        "[Infinity]",
        '"\\u0000"',
        '{"\\ud800": 1}',
        "1" * 5000,
        "",
        "[1,",
        b"\xff",
    ):
        with pytest.raises(JSONInputError):
            read_json(text, max_chars=100 if not text or text[0] != "[" else 200_000, max_depth=4)


# --- chat ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind",
    [
        "nul",
        "bell (C0)",
        "next line (C1)",
        "right-to-left override",
        "zero-width space",
        "first-strong isolate",
        "byte-order mark",
    ],
)
def test_chat_refuses_control_bidi_and_invisible_characters(client, game, alice, bob, kind):
    client.force_login(alice)
    text = f"good{REFUSED[kind]} luck" if kind != "right-to-left override" else "\u202e\u200bkcul doog"
    response = client.post(reverse("chat_post", args=[game.pk]), {"what": "post", "text": text})
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()
    assert not ChatMessage.objects.exists() and not Notification.objects.filter(kind="chat").exists()


def test_chat_keeps_emoji_and_other_alphabets(client, game, alice):
    client.force_login(alice)
    for text in ("Удачи! 👍", "\U0001f468\u200d\U0001f469\u200d\U0001f467 gg"):
        assert (
            client.post(reverse("chat_post", args=[game.pk]), {"what": "post", "text": text}).status_code
            == 302
        )
    assert ChatMessage.objects.count() == 2


def test_the_chat_service_applies_the_policy_itself(game, alice):
    with pytest.raises(services.InvalidRequest):
        from games.club.chat import post_chat

        post_chat(game_id=game.pk, user=alice, text="a\x00b")
    assert not ChatMessage.objects.exists()


# --- scenario names ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["nul", "right-to-left override", "zero-width space", "next line (C1)"])
def test_a_scenario_name_with_a_refused_character_is_a_400(client, alice, kind):
    client.force_login(alice)
    response = client.post(
        reverse("scenario_editor"), {"text": SMALL, "what": "save", "name": f"My{REFUSED[kind]}scenario"}
    )
    assert response.status_code == 400
    assert "not allowed" in response.content.decode()
    assert not Scenario.objects.exists()


# --- URL parameters ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["ali%00ce", "ali%E2%80%AEce", "%C2%85"])
def test_a_player_url_with_a_refused_character_is_a_404(client, alice, name):
    assert client.get(f"/players/{name}/").status_code == 404


def test_a_scenario_source_that_is_not_a_plain_number_is_a_404(client, alice):
    client.force_login(alice)
    for source in ("id:²", "id:\x00", "id:" + "9" * 30):
        assert client.get(reverse("scenario_editor"), {"from": source}).status_code == 404, source


def test_a_review_step_that_is_not_a_plain_number_shows_the_end(client, game, alice, bob):
    """`at` passed str.isdigit() ("²" does) and then int() raised."""
    services.resign(game.pk, bob)
    client.force_login(alice)
    for at in ("\u00b2", "9" * 5000, "\u0663"):
        assert client.get(reverse("game_detail", args=[game.pk]), {"at": at}).status_code == 200, at


# --- JSON documents ---------------------------------------------------------------------


def test_a_deep_setup_favourite_is_a_400(client, alice, bob):
    game = services.create_game(
        creator=alice, opponent="user", username="bob", color="black", engine="marshal", days_per_move=None
    )
    client.force_login(alice)
    for pieces in (
        "[" * 100_000,
        "[" * 100_000 + "]" * 100_000,
        json.dumps([{"type": "\x00", "row": 0, "col": 0}]),
    ):
        response = client.post(reverse("setup_favourite", args=[game.pk]), {"pieces": pieces})
        assert response.status_code == 400
    assert not SetupFavourite.objects.exists()


@pytest.mark.parametrize("field", ["start", "options"])
def test_a_deep_sandbox_import_is_a_400(client, alice, field):
    client.force_login(alice)
    deep = "[" * 5000 + "]" * 5000
    if field == "start":
        data = {"record": "1. x\n", "start": deep}
    else:
        data = {"record": f'[Options "{deep}"]\n\n1. x\n'}
    response = client.post(reverse("sandbox_import"), data)
    assert response.status_code == 400
    assert "sandbox" not in client.session.get("wec_sandbox", {}) and "wec_sandbox" not in client.session


def test_a_starting_position_the_engine_cannot_play_is_a_400(client, alice):
    """The engine's loader took `turn.actors` written as a string; playing the
    record's first Turn on it raised AttributeError (a 500)."""
    from games.engines import get_engine

    engine = get_engine()
    game = engine.new_game({"competitive": False})
    g = game
    while len(g.log) < 2:
        legal = engine.legal_actions(g)
        ends = [a for a in legal if a["type"] == "end_turn"]
        g = engine.apply(g, ends[0] if ends else next(a for a in legal if a["type"] == "move"))
    record = "".join(f"{n}. {t}\n" for n, t in enumerate(engine.history(g, None), 1))
    start = engine.dump_scenario(game)
    start["turn"]["actors"] = "\u202e"
    client.force_login(alice)
    response = client.post(reverse("sandbox_import"), {"record": record, "start": json.dumps(start)})
    assert response.status_code == 400
    assert "wec_sandbox" not in client.session


# --- WebSocket paths --------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    ["/ws/games/abc/", "/ws/games/1/x/", "/ws/nothing/", "/ws/games/%00/", "/ws/games/" + "9" * 30 + "/"],
)
def test_a_websocket_path_that_matches_no_route_is_refused(alice, path):
    from wecsite.asgi import application

    async def attempt():
        comm = WebsocketCommunicator(
            application, path, headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
        )
        connected, _code = await comm.connect(timeout=5)
        await comm.disconnect()
        return connected

    assert async_to_sync(attempt)() is False


# --- handler500 -------------------------------------------------------------------------


def _answer_to(exc: Exception):
    from games.views.site import server_error

    try:
        raise exc
    except Exception:
        return server_error(RequestFactory().get("/"))


@pytest.mark.parametrize(
    "exc", [OperationalError("connection refused"), InterfaceError("connection already closed")]
)
def test_a_lost_database_connection_is_an_outage(exc):
    response = _answer_to(exc)
    assert response.status_code == 503 and response["Retry-After"]


@pytest.mark.parametrize(
    "exc", [DataError("A string literal cannot contain NUL"), IntegrityError("duplicate key")]
)
def test_a_refused_value_is_not_an_outage(exc):
    response = _answer_to(exc)
    assert response.status_code == 500 and not response.has_header("Retry-After")
    assert "database" not in response.content.decode()


# --- found by the hostile fuzz ------------------------------------------------------------


def test_a_login_with_an_overlong_username_is_a_form_error(client, alice):
    """django-axes stored the failed attempt's username in a 255-character
    column: a longer one was a DataError (a 500)."""
    response = client.post(reverse("login"), {"username": "x" * 300, "password": "nope"})
    assert response.status_code == 200 and not response.wsgi_request.user.is_authenticated
    response = client.post(reverse("login"), {"username": "ali\u202ece", "password": "nope"})
    assert response.status_code == 200


@pytest.mark.parametrize("next_url", ["foo", "ab\x00cd", "\u00b2", "//evil.example/", "/ok\u202e/"])
def test_a_language_switch_to_a_next_that_is_not_a_local_path_goes_home(client, next_url):
    """redirect() took a bare word for a view name (NoReverseMatch, a 500)."""
    response = client.post(reverse("set_language"), {"language": "de", "next": next_url})
    assert response.status_code == 302 and response["Location"] == "/"


def test_a_language_switch_keeps_a_local_next(client):
    response = client.post(reverse("set_language"), {"language": "de", "next": "/games/list/?page=2"})
    assert response.status_code == 302 and response["Location"] == "/games/list/?page=2"
