"""Doorbells sent by each process's background thread (games/doorbells.py):
after commit only, in the order rung, and the request does not send them;
sent through the channel layer's own group_send, and only to the colour
whose own view changed."""

from __future__ import annotations

import asyncio
import json
import threading
from urllib.parse import urlencode

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import HttpCommunicator, WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import transaction
from leak_worlds import END, SCENARIO, TORPEDO, legal, move

from games import doorbells, selectors, services
from games.engines import get_engine
from wecsite.asgi import application

pytestmark = pytest.mark.django_db(transaction=True)


def session_headers(client, user):
    client.force_login(user)
    cookie = (
        f"{django_settings.SESSION_COOKIE_NAME}={client.cookies[django_settings.SESSION_COOKIE_NAME].value}"
    )
    return [(b"cookie", cookie.encode()), (b"origin", b"http://localhost"), (b"host", b"localhost")]


@database_sync_to_async
def start(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black")


@database_sync_to_async
def rolled_back_move(game_id, alice):
    """A Move whose transaction rolls back after the service returned."""
    game = selectors.get_game(game_id)
    move = next(a for a in get_engine().legal_actions(selectors.load_state(game)) if a["type"] == "move")
    with pytest.raises(RuntimeError), transaction.atomic():
        services.submit_action(game_id, alice, move, expected_seq=game.seq)
        raise RuntimeError("rolled back")
    return doorbells.flush(5)


@database_sync_to_async
def play(game_id, alice, actions: int) -> tuple[list[int], bool]:
    """Alice's actions (Moves and End Turns); her own view versions after each."""
    engine = get_engine()
    versions = []
    for _ in range(actions):
        game = selectors.get_game(game_id)
        if game.to_move != "black":
            break
        legal = engine.legal_actions(selectors.load_state(game))
        action = next((a for a in legal if a["type"] == "move"), legal[0])
        services.submit_action(game_id, alice, action, expected_seq=game.seq)
        versions.append(selectors.seat_by_color(selectors.get_game(game_id), "black").version)
    return versions, doorbells.flush(5)


@pytest.mark.asyncio
async def test_background_doorbells_ring_after_commit_in_order(client, alice, bob, settings, monkeypatch):
    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    senders = []
    # The request's own thread never sends a doorbell: only the doorbell thread does.
    real = doorbells._send_now
    monkeypatch.setattr(
        doorbells, "_send_now", lambda *a: senders.append(threading.current_thread().name) or real(*a)
    )
    game = await start(alice, bob)
    comm = WebsocketCommunicator(
        application,
        f"/ws/games/{game.pk}/",
        headers=await database_sync_to_async(session_headers)(client, alice),
    )
    connected, _ = await comm.connect(timeout=5)
    assert connected
    assert await rolled_back_move(game.pk, alice)
    assert await comm.receive_nothing(timeout=0.5)  # nothing announced that did not land
    versions, flushed = await play(game.pk, alice, 2)
    assert flushed and len(versions) == 2
    got = [await comm.receive_json_from(timeout=5) for _ in versions]
    assert got == [{"type": "changed", "version": v} for v in versions]
    assert senders and set(senders) == {"wec-doorbells"}
    await comm.disconnect()


def test_doorbells_are_sent_in_the_caller_without_the_background_thread(settings, monkeypatch):
    settings.WEC_DOORBELLS_IN_BACKGROUND = False
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append((group, message))

    monkeypatch.setattr(doorbells, "get_channel_layer", lambda: Layer())
    doorbells.ring("g", {"type": "x"})
    assert sent == [("g", {"type": "x"})]


def test_doorbells_go_through_the_layers_group_send_on_the_thread(settings, monkeypatch):
    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append((threading.current_thread().name, group, message))

    monkeypatch.setattr(doorbells, "get_channel_layer", lambda: Layer())
    with doorbells.together():
        doorbells.ring("g", {"type": "x", "version": 1})
        doorbells.ring("h", {"type": "x", "version": 2})
        assert sent == []  # not before the block ends
    assert doorbells.flush(5)
    assert sent == [
        ("wec-doorbells", "g", {"type": "x", "version": 1}),
        ("wec-doorbells", "h", {"type": "x", "version": 2}),
    ]


# --- through the settings' channels_redis layer ---------------------------------------------------


def test_a_ring_reaches_every_member_through_the_real_layer(settings):
    """Rung from the thread, read by the layer's own `receive`, for each
    socket of the group; the thread keeps its one event loop (and with it
    the layer's connections) from one hand-over to the next."""
    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    layer = get_channel_layer()
    loop = asyncio.new_event_loop()
    try:
        a, b = loop.run_until_complete(layer.new_channel()), loop.run_until_complete(layer.new_channel())
        for channel in (a, b):
            loop.run_until_complete(layer.group_add("wec-bell-test", channel))
        message = {"type": "game.changed", "version": 7}
        doorbells.ring("wec-bell-test", dict(message))
        assert doorbells.flush(5)
        bell_loop = doorbells._get_bell().loop
        assert bell_loop is not None and not bell_loop.is_closed()
        got = [loop.run_until_complete(asyncio.wait_for(layer.receive(c), 5)) for c in (a, b)]
        assert got == [message, message]
        doorbells.ring("wec-bell-test", {"type": "game.changed", "version": 8})
        assert doorbells.flush(5)
        assert doorbells._get_bell().loop is bell_loop
        got = [loop.run_until_complete(asyncio.wait_for(layer.receive(c), 5)) for c in (a, b)]
        assert got == [{"type": "game.changed", "version": 8}] * 2
    finally:
        loop.close()


def test_doorbells_rung_together_arrive_in_order(settings):
    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    layer = get_channel_layer()
    loop = asyncio.new_event_loop()
    try:
        a = loop.run_until_complete(layer.new_channel())
        loop.run_until_complete(layer.group_add("wec-bell-order", a))
        loop.run_until_complete(layer.group_add("wec-bell-other", a))
        with doorbells.together():  # one hand-over, each group_send after the other
            for version in range(1, 6):
                doorbells.ring("wec-bell-order", {"type": "game.changed", "version": version})
            doorbells.ring("wec-bell-nobody", {"type": "game.changed", "version": 99})
            doorbells.ring("wec-bell-other", {"type": "lobby.changed"})
        for version in range(6, 9):  # and one hand-over after another
            doorbells.ring("wec-bell-order", {"type": "game.changed", "version": version})
        assert doorbells.flush(5)
        got = [loop.run_until_complete(asyncio.wait_for(layer.receive(a), 5)) for _ in range(9)]
        assert got[:5] == [{"type": "game.changed", "version": v} for v in range(1, 6)]
        assert got[5] == {"type": "lobby.changed"}
        assert got[6:] == [{"type": "game.changed", "version": v} for v in range(6, 9)]
    finally:
        loop.close()


# --- only the colour whose own view changed ------------------------------------------------------


@database_sync_to_async
def hidden_start(alice, bob):
    return services.create_game(
        creator=bob, opponent="user", username="alice", color="white", scenario=SCENARIO
    )


@database_sync_to_async
def act(game_id, user, wanted) -> dict[str, int]:
    """`wanted` by `user`; both colours' view versions after it (its doorbells flushed)."""
    game = selectors.get_game(game_id)
    services.submit_action(game_id, user, legal(selectors.load_state(game), wanted), expected_seq=game.seq)
    assert doorbells.flush(5)
    return {s.color: s.version for s in selectors.get_game(game_id).seats.all()}


@pytest.mark.asyncio
@pytest.mark.parametrize("background", [True, False])
async def test_a_doorbell_rings_only_the_colour_whose_view_changed(client, alice, bob, settings, background):
    settings.WEC_DOORBELLS_IN_BACKGROUND = background
    game = await hidden_start(alice, bob)
    socks = {}
    for color, user in (("black", alice), ("white", bob)):
        headers = await database_sync_to_async(session_headers)(client, user)
        socks[color] = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=headers)
        connected, _ = await socks[color].connect(timeout=5)
        assert connected

    # Black's King Move: White sees it; each colour gets its own version.
    v = await act(game.pk, alice, move((1, 1), (1, 2, "ground")))
    for color in ("black", "white"):
        assert await socks[color].receive_json_from(timeout=5) == {"type": "changed", "version": v[color]}
    v = await act(game.pk, alice, END)
    assert await socks["black"].receive_json_from(timeout=5) == {"type": "changed", "version": v["black"]}
    assert await socks["white"].receive_json_from(timeout=5) == {"type": "changed", "version": v["white"]}
    # White's submerged Sub fires unseen: only White hears, Black's socket nothing at all.
    before = v
    v = await act(game.pk, bob, TORPEDO)
    assert v["black"] == before["black"] and v["white"] == before["white"] + 1
    assert await socks["white"].receive_json_from(timeout=5) == {"type": "changed", "version": v["white"]}
    assert await socks["black"].receive_nothing(timeout=0.5)
    assert await socks["white"].receive_nothing(timeout=0.1)
    for comm in socks.values():
        await comm.disconnect()


def test_an_actions_doorbells_go_out_in_one_call(alice, bob, settings, monkeypatch):
    """A Move rings each colour whose view changed, an End Turn also the next
    player's notice: one hand-over per action, each colour its own version."""
    from games.services import group_name, user_group_name

    settings.WEC_DOORBELLS_IN_BACKGROUND = False
    calls = []
    real = doorbells._send_now
    monkeypatch.setattr(
        doorbells, "_send_now", lambda bells, *a: calls.append(list(bells)) or real(bells, *a)
    )
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black")
    engine = get_engine()
    for wanted in ("move", "end_turn"):
        calls.clear()
        g = selectors.get_game(game.pk)
        action = next(a for a in engine.legal_actions(selectors.load_state(g)) if a["type"] == wanted)
        services.submit_action(game.pk, alice, action, expected_seq=g.seq)
        versions = {s.color: s.version for s in selectors.get_game(game.pk).seats.all()}
        assert len(calls) == 1, calls
        rung = {group: message for group, message in calls[0]}
        assert rung[group_name(game.pk, "black")] == {"type": "game.changed", "version": versions["black"]}
        for color in ("black", "white"):
            if group_name(game.pk, color) in rung:
                assert rung[group_name(game.pk, color)]["version"] == versions[color]
    assert group_name(game.pk, "white") in rung  # the Turn passed: White's view changed
    assert rung.get(user_group_name(bob.pk), {}).get("kind") == "your_turn"


# --- nothing for the thread before the answer is out (wecsite/asgi.py) ----------------------------


@pytest.mark.asyncio
async def test_a_submits_doorbells_wait_until_its_answer_was_sent(client, alice, bob, settings, monkeypatch):
    """Over the real ASGI handler: the doorbell thread gets the submit's
    doorbells and its render cache write only after the answer's body was
    sent, and then they all go, in the order rung."""
    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    events = []
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append((group, message))

    monkeypatch.setattr(doorbells, "get_channel_layer", lambda: Layer())
    bell = doorbells._get_bell()
    real_put_all = bell.put_all
    monkeypatch.setattr(
        bell, "put_all", lambda items: events.append(("handed", len(items))) or real_put_all(items)
    )
    game = await start(alice, bob)
    legal = await database_sync_to_async(
        lambda: get_engine().legal_actions(selectors.load_state(selectors.get_game(game.pk)))
    )()
    action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
    white_before = await database_sync_to_async(
        lambda: selectors.seat_by_color(selectors.get_game(game.pk), "white").version
    )()
    headers = await database_sync_to_async(session_headers)(client, alice)
    csrf = "a" * 32
    cookie = dict(headers)[b"cookie"] + f"; {django_settings.CSRF_COOKIE_NAME}={csrf}".encode()
    body = urlencode({"action": json.dumps(action)}).encode()
    path = f"/games/{game.pk}/act/"
    headers = [
        (b"cookie", cookie),
        (b"host", b"localhost"),
        (b"x-csrftoken", csrf.encode()),
        (b"hx-request", b"true"),
        (b"content-type", b"application/x-www-form-urlencoded"),
    ]
    answer = []

    async def app(scope, receive, send):
        async def noted(message):
            await send(message)
            if message["type"] == "http.response.start":
                answer.append(message["status"])
            elif not message.get("more_body"):
                events.append(("answer sent", 0))

        await application(scope, receive, noted)

    comm = HttpCommunicator(app, "POST", path, body=body, headers=headers)
    assert await database_sync_to_async(doorbells.flush)(5)
    events.clear()  # the new game's own doorbells
    sent.clear()
    await comm.get_response(timeout=20)
    await comm.wait(timeout=5)  # the handler's end, where what it kept goes
    assert answer == [200]
    assert events[0] == ("answer sent", 0)
    assert [kind for kind, _n in events[1:]] == ["handed"]  # all at once, after the answer
    assert await database_sync_to_async(doorbells.flush)(5)
    black, white = await database_sync_to_async(
        lambda: [selectors.seat_by_color(selectors.get_game(game.pk), c).version for c in ("black", "white")]
    )()
    rung = [(g, m) for g, m in sent if m.get("type") == "game.changed"]
    expected = [(services.group_name(game.pk, "black"), {"type": "game.changed", "version": black})]
    if white != white_before:
        expected.append((services.group_name(game.pk, "white"), {"type": "game.changed", "version": white}))
    assert rung == expected


def test_a_ring_outside_a_request_sends_what_is_kept_first(settings, monkeypatch):
    """What requests rang while answering goes before a later ring made
    outside any request (the thread sends in the order rung)."""
    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    sent = []

    class Layer:
        async def group_send(self, group, message):
            sent.append(group)

    monkeypatch.setattr(doorbells, "get_channel_layer", lambda: Layer())
    token = doorbells._answering.set(True)
    try:
        doorbells.ring("first", {"type": "x"})
        doorbells.later(lambda: sent.append("chore"))
        assert doorbells._kept
        # A copy the next request may look for goes now, ahead of what is kept.
        doorbells.later(lambda: sent.append("board copy"), after_answer=False)
        assert doorbells.flush(5) and sent == ["board copy"]
    finally:
        doorbells._answering.reset(token)
    doorbells.ring("second", {"type": "x"})
    assert doorbells.flush(5)
    assert sent == ["board copy", "first", "chore", "second"]
    assert not doorbells._kept


def test_celery_enqueues_go_to_the_doorbell_thread_after_commit(alice, settings, monkeypatch):
    """A submit that passes the turn to the AI queues its task from the
    doorbell thread (after commit, once the answer is out), not in the
    request; with the thread off, in the caller as before."""
    from games import tasks

    settings.WEC_DOORBELLS_IN_BACKGROUND = True
    monkeypatch.setattr(doorbells, "get_channel_layer", lambda: None)
    queued = []
    monkeypatch.setattr(
        tasks.play_ai_turn, "delay", lambda gid: queued.append((gid, threading.current_thread().name))
    )
    game = services.create_game(creator=alice, opponent="ai", color="black")
    assert doorbells.flush(5)
    engine = get_engine()
    for _ in range(40):
        game = selectors.get_game(game.pk)
        if game.to_move != "black":
            break
        legal = engine.legal_actions(selectors.load_state(game))
        action = next((a for a in legal if a["type"] == "end_turn"), legal[0])
        services.submit_action(game.pk, alice, action, expected_seq=game.seq)
    assert doorbells.flush(5)
    assert queued == [(game.pk, "wec-doorbells")]
