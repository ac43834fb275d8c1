"""Strangers and opponents learn nothing from ids: every URL pattern with an
id (walked from the URL conf, so a new route is covered the day it is
added, and a route whose parameter this file does not know fails the test)
is called with GET and POST (CSRF-valid; plain and htmx; bodies that take
each view down its real paths) by nobody, by a signed-in stranger and by
the opponent, with the valid ids of objects the caller may not see or act
on: games between others (private challenges, withdrawn ones, games under
way, ended, Marshal and Spy, with a draw offer, an undo request or a
proposal standing), other users' admin rows, an inactive player, another
user's reset link.  Each answer must equal the answer to the same request
for an id that does not exist (status, body and the headers that matter,
byte for byte after masking the ids and the CSRF token); no answer is a
5xx; nothing in the database changes.  Ids inside bodies and queries (a
chat line to report, a scenario to open) get the same check.

Which routes a caller may see is the one table `VISIBLE` (routes not in it
are for a game's players only); the figures are printed at the end of the
file's run (with -s) and quoted in docs/security.md."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.apps import apps
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from leak_worlds import SCENARIO
from strangers import masked_answer, missing_game_id, snapshot
from url_routes import all_routes

from games import selectors, services
from games.club import challenges, draws
from games.club import chat as club_chat
from games.engines import get_engine
from games.models import Game, Scenario
from games.services import takeback

ROUTES = all_routes()
PARAM = re.compile(r"<(?:(\w+):)?(\w+)>|\(\?P<(\w+)>[^)]*\)")

# The parameters that name an object, and how the test fills them.
ID_PARAMS = {"game_id", "object_id", "id", "content_type_id", "uidb64", "token", "username"}
# Parameters that name no object: the admin's catch-all and its app index.
NOT_IDS = {"url", "app_label"}


def params(route: str) -> list[str]:
    return [m.group(2) or m.group(3) for m in PARAM.finditer(route)]


ID_ROUTES = [r for r in ROUTES if set(params(r)) - NOT_IDS]


def _finished(game: Game, user) -> bool:
    return game.status == Game.Status.FINISHED


def _public(game: Game, user) -> bool:
    return game.status in (Game.Status.ACTIVE, Game.Status.FINISHED)


def _player(game: Game, user) -> bool:
    return user is not None and game.seats.filter(user=user).exists()


def _known(game: Game, user) -> bool:
    return game.status in (Game.Status.OPEN, Game.Status.ACTIVE, Game.Status.FINISHED) or _player(game, user)


def _exportable(game: Game, user) -> bool:
    return _finished(game, user) or (game.status == Game.Status.ACTIVE and _player(game, user))


# Game routes that someone besides the game's players may see: who may.
# Every other route with a game id is for the game's players only.
VISIBLE: dict[str, Callable[[Game, object], bool]] = {
    "games/<int:game_id>/watch/": _public,
    "games/<int:game_id>/watch/board/": _public,
    "games/<int:game_id>/watch/replay/": _finished,
    "games/<int:game_id>/chat/": lambda g, u: _finished(g, u) or _player(g, u),
    "games/<int:game_id>/export/": _exportable,
    "games/<int:game_id>/export.wec": _exportable,
    "games/<int:game_id>/start.json": _finished,
    # Anyone may take an open seek; a seek already taken is a public game.
    "games/<int:game_id>/accept/": _known,
}

# The requests made of every (route, caller, id): GET plain and htmx, and
# POSTs whose fields take each view down its paths (an answer, a chat
# line, a report, an action, a take-back, a setup).
VARIANTS: list[tuple[str, dict, dict]] = [
    ("GET", {}, {}),
    ("GET", {"at": "1"}, {"HTTP_HX_REQUEST": "true"}),
    (
        "POST",
        {
            "answer": "accept",
            "what": "post",
            "text": "hello",
            "action": '{"type": "end_turn"}',
            "version": "0",
            "steps": "1",
            "pieces": "[]",
        },
        {},
    ),
    ("POST", {"answer": "offer", "what": "mute"}, {"HTTP_HX_REQUEST": "true"}),
    ("POST", {"answer": "request", "what": "report", "message": "1", "kind": "friendly"}, {}),
]

STATS = {"requests": 0, "compared": 0, "mismatches": 0, "5xx": 0}


@pytest.fixture(scope="module", autouse=True)
def _report():
    """What the strangers' fuzz did, once every test of the file has run
    (run with -s to see it)."""
    yield
    print(
        f"\nstrangers: {len(ID_ROUTES)} routes with an id, {STATS['requests']} requests, "
        f"{STATS['compared']} answers compared with a missing id's, {STATS['mismatches']} mismatches, "
        f"{STATS['5xx']} 5xx"
    )


MISMATCHES: list = []
MISSING: dict = {}  # (caller, path, variant) -> the answer for a missing id


@pytest.fixture
def world(make_user, alice, bob, carol, settings):
    """Alice plays Bob (the opponent) in games of every kind, and Dave in
    games Bob may not act on; Carol plays nobody (the stranger)."""
    # No limit may answer a stranger's long run of requests: a 429 for the
    # seen id and not for the missing one would be a false mismatch.
    settings.WEC_RATE_LIMITS = {scope: "1000000/60" for scope in settings.WEC_RATE_LIMITS}
    dave = make_user("dave")
    ghost = make_user("ghost", is_active=False)

    def game(opponent: str = "bob", **kw) -> Game:
        return services.create_game(creator=alice, opponent="user", username=opponent, color="black", **kw)

    games: dict[str, Game] = {}
    games["running"] = game()
    games["friendly"] = game(competitive=False)
    games["challenge"] = game(as_challenge=True)
    games["withdrawn"] = game(as_challenge=True)
    services.cancel_seek(game_id=games["withdrawn"].pk, user=alice)
    games["ended"] = game()
    services.resign(games["ended"].pk, alice)
    games["seek"] = services.create_game(creator=alice, opponent="open", color="black")
    games["cancelled seek"] = services.create_game(creator=alice, opponent="open", color="black")
    services.cancel_seek(game_id=games["cancelled seek"].pk, user=alice)
    # Games of Alice and Dave: the opponent's ids of games he may not act on.
    games["their challenge"] = game("dave", as_challenge=True)
    challenges.propose_change(
        game_id=games["their challenge"].pk, user=dave, options={}, days_per_move=3, competitive=False
    )
    games["their game"] = game("dave")
    draws.offer_draw(game_id=games["their game"].pk, user=alice)
    games["their friendly"] = game("dave", competitive=False)
    state = selectors.load_state(games["their friendly"])
    move = next(a for a in get_engine().legal_actions(state) if a["type"] == "move")
    services.submit_action(games["their friendly"].pk, alice, move)
    services.submit_action(games["their friendly"].pk, alice, {"type": "end_turn"})
    takeback.request_undo(games["their friendly"].pk, alice)
    games["their ended"] = game("dave")
    services.resign(games["their ended"].pk, dave)
    games["their marshal"] = game("dave", engine="marshal")
    line = club_chat.post_chat(game_id=games["their game"].pk, user=alice, text="for Dave only")
    scenario = Scenario.objects.create(owner=alice, name="secret", public=False, document=SCENARIO)
    Group.objects.create(name="referees")
    # Rows for the admin pages of django-axes (sign-in attempts and logs).
    values = {
        "user_agent": "x",
        "ip_address": "127.0.0.1",
        "username": "alice",
        "http_accept": "x",
        "path_info": "/",
    }
    values |= {"get_data": "", "post_data": "", "failures_since_start": 1}
    for name in ("AccessAttempt", "AccessFailureLog", "AccessLog"):
        model = apps.get_model("axes", name)
        fields = {f.name for f in model._meta.fields}
        model.objects.create(**{k: v for k, v in values.items() if k in fields})
    return {
        "games": games,
        "line": line,
        "scenario": scenario,
        "users": {"nobody": None, "stranger": carol, "opponent": bob},
        "ghost": ghost,
    }


def _client(user) -> tuple[Client, str]:
    """A client signed in as `user` (or nobody) holding a CSRF cookie, and
    its token for the X-CSRFToken header."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    client.get("/accounts/login/")
    return client, client.cookies[django_settings.CSRF_COOKIE_NAME].value


def _send(client: Client, token: str, path: str, variant) -> object:
    method, data, headers = variant
    STATS["requests"] += 1
    if method == "GET":
        response = client.get(path, data, **headers)
    else:
        response = client.post(path, data, HTTP_X_CSRFTOKEN=token, **headers)
    if response.status_code >= 500:
        STATS["5xx"] += 1
        MISMATCHES.append(("5xx", method, path, response.status_code))
    return response


def _compare(label: str, client, token, seen_path: str, missing_path: str, masks: list[str], variant) -> None:
    """One request about an object the caller may not see, compared with the
    same request about the missing id (asked once per caller, route and
    variant: the same every time)."""
    seen = masked_answer(_send(client, token, seen_path, variant), masks)
    key = (label, missing_path, repr(variant))
    if key not in MISSING:
        MISSING[key] = _send(client, token, missing_path, variant)
    nothing = masked_answer(MISSING[key], masks)
    STATS["compared"] += 1
    if seen != nothing:
        STATS["mismatches"] += 1
        MISMATCHES.append(
            (label, variant[0], seen_path, seen[0], nothing[0], seen[1][:300], nothing[1][:300])
        )


def _fill(route: str, values: dict[str, str]) -> str:
    return "/" + PARAM.sub(lambda m: values[m.group(2) or m.group(3)], route).replace("^", "").replace(
        "$", ""
    )


def _cases(route: str, world, user) -> list[tuple[dict, dict, list[str]]]:
    """(seen values, missing values, strings to mask) of `route`'s
    parameters for the objects `user` may not see."""
    names = set(params(route))
    out = []
    if "game_id" in names:
        missing = str(missing_game_id())
        rule = VISIBLE.get(route, _player)
        for game in world["games"].values():
            game = Game.objects.get(pk=game.pk)
            if not rule(game, user):
                out.append(({"game_id": str(game.pk)}, {"game_id": missing}, [str(game.pk), missing]))
    elif "username" in names:
        # Profiles are public; an inactive player's is not there at all.
        out.append(
            (
                {"username": world["ghost"].username},
                {"username": "nobody-here"},
                [world["ghost"].username, "nobody-here"],
            )
        )
    elif "uidb64" in names:
        # Another user's reset link with a wrong token, and a user that does not exist.
        seen = base64.urlsafe_b64encode(str(world["users"]["opponent"].pk).encode()).decode().rstrip("=")
        missing = base64.urlsafe_b64encode(b"987654").decode().rstrip("=")
        out.append(
            ({"uidb64": seen, "token": "abc-123"}, {"uidb64": missing, "token": "abc-123"}, [seen, missing])
        )
    elif route.startswith("admin/"):
        # Nobody here is staff: every admin row is someone else's.
        if "content_type_id" in names:
            ctype = str(ContentType.objects.get_for_model(Game).pk)
            seen_pk, missing = str(world["games"]["their game"].pk), str(missing_game_id())
            out.append(
                (
                    {"content_type_id": ctype, "object_id": seen_pk},
                    {"content_type_id": ctype, "object_id": missing},
                    [seen_pk, missing],
                )
            )
        else:
            app_label, model_name = route.split("/")[1:3]
            model = apps.get_model(app_label, model_name)
            pk = model.objects.order_by("pk").values_list("pk", flat=True).first()
            assert pk is not None, f"no {app_label}.{model_name} row to ask the admin about"
            key = "id" if "id" in names else "object_id"
            missing = str(10 ** (len(str(pk)) + 2) - 1)
            out.append(({key: str(pk)}, {key: missing}, [str(pk), missing]))
    else:  # pragma: no cover - test_every_id_route_is_understood names it
        raise AssertionError(f"{route}: no objects for its parameters {names}")
    return out


def test_every_id_route_is_understood():
    """A new route's parameters are ids this file fills, or named as no id;
    every route of the visibility table exists."""
    unknown = {r: params(r) for r in ROUTES if set(params(r)) - ID_PARAMS - NOT_IDS}
    assert not unknown, f"routes with parameters the strangers' fuzz does not know: {unknown}"
    assert set(VISIBLE) <= set(ROUTES), set(VISIBLE) - set(ROUTES)
    game_routes = [r for r in ID_ROUTES if "game_id" in params(r)]
    assert (
        "games/<int:game_id>/draw/" in game_routes and "games/<int:game_id>/setup-favourite/" in game_routes
    )
    assert any(r.startswith("admin/") for r in ID_ROUTES) and "players/<plain:username>/" in ID_ROUTES


@pytest.mark.django_db
def test_strangers_get_the_answer_for_a_missing_id(world):
    """Every route with an id, every caller, every object the caller may not
    see: the same answer as for a missing id, no 5xx, nothing changed."""
    before = snapshot()
    for label, user in world["users"].items():
        client, token = _client(user)
        for route in ID_ROUTES:
            for seen, missing, masks in _cases(route, world, user):
                for variant in VARIANTS:
                    _compare(
                        f"{label} {route}",
                        client,
                        token,
                        _fill(route, seen),
                        _fill(route, missing),
                        masks,
                        variant,
                    )
    assert snapshot() == before
    assert not MISMATCHES, (sorted({m[0] for m in MISMATCHES}), MISMATCHES[:3])


@pytest.mark.django_db
def test_ids_in_bodies_and_queries(world):
    """A chat line of another game, reported through the opponent's own game,
    and another user's private scenario: as a line, a scenario, that does not
    exist."""
    before = snapshot()
    line, scenario = world["line"], world["scenario"]
    own = world["games"]["running"].pk
    missing_line, missing_scenario = str(line.pk + 1000), str(scenario.pk + 1000)
    for label, user in world["users"].items():
        client, token = _client(user)
        for seen, missing, masks, path, method, field, extra in (
            (
                str(line.pk),
                missing_line,
                [str(line.pk), missing_line],
                f"/games/{own}/chat/post/",
                "POST",
                "message",
                {"what": "report"},
            ),
            (
                f"id:{scenario.pk}",
                f"id:{missing_scenario}",
                [str(scenario.pk), missing_scenario],
                "/scenarios/",
                "GET",
                "from",
                {},
            ),
            (
                f"id:{scenario.pk}",
                f"id:{missing_scenario}",
                [str(scenario.pk), missing_scenario],
                "/scenarios/start/",
                "POST",
                "source",
                {},
            ),
            (
                f"id:{scenario.pk}",
                f"id:{missing_scenario}",
                [str(scenario.pk), missing_scenario],
                "/sandbox/start/",
                "POST",
                "source",
                {},
            ),
        ):
            for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
                variant_seen = (method, {**extra, field: seen}, headers)
                variant_missing = (method, {**extra, field: missing}, headers)
                a = masked_answer(_send(client, token, path, variant_seen), masks)
                b = masked_answer(_send(client, token, path, variant_missing), masks)
                STATS["compared"] += 1
                if a != b:
                    STATS["mismatches"] += 1
                    MISMATCHES.append((label, method, path, field, a[0], b[0], a[1][:300], b[1][:300]))
    assert snapshot() == before
    assert not MISMATCHES, (sorted({m[0] for m in MISMATCHES}), MISMATCHES[:3])


async def _ws_close_code(path: str, headers: list) -> tuple:
    from wecsite.asgi import application

    comm = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await comm.connect(timeout=5)
    if connected:
        await comm.disconnect()
    return connected, code


@pytest.mark.django_db(transaction=True)
def test_game_socket_of_a_game_not_theirs_is_a_missing_game(world, settings):
    """The game socket closes a stranger's and the opponent's connection to a
    game not theirs with the code it gives for a game that does not exist."""
    from channels.layers import channel_layers

    # The close comes before any group is joined: an in-memory layer is
    # enough, and no Redis connection of an earlier event loop is reused.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel_layers.backends.clear()
    missing = missing_game_id()
    for label, user in world["users"].items():
        headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
        if user is not None:
            client = Client()
            client.force_login(user)
            cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
            headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
        answer_missing = async_to_sync(_ws_close_code)(f"/ws/games/{missing}/", headers)
        for game in world["games"].values():
            if user is not None and _player(game, user):
                continue
            STATS["requests"] += 2
            STATS["compared"] += 1
            answer = async_to_sync(_ws_close_code)(f"/ws/games/{game.pk}/", headers)
            assert answer == answer_missing, (label, game.pk, answer, answer_missing)
