"""Two web processes (the `./wec serve` layout's daphne, each on its
own socket here so the test can choose) against one PostgreSQL and Redis: a
submit answered by one rings the websocket held by the other, and the other
then serves the new board."""

from __future__ import annotations

import json
import socket
import time

import pytest
from childenv import child_env
from faultkit import Proc, wait_for

from games import selectors, services
from games.engines import get_engine
from games.models import Game
from tools.site.benchkit import Http, WebSocket, make_player
from wecsite import layout

pytestmark = [pytest.mark.procs, pytest.mark.django_db(transaction=True)]


def healthy(port: int) -> bool:
    try:
        return Http(port).request("GET", "/healthz", {"Host": "127.0.0.1"})[0] == 200
    except OSError:
        return False


def test_submit_on_one_process_rings_a_socket_held_by_the_other(tmp_path):
    black, white = make_player("twoproc_b"), make_player("twoproc_w")
    game = services.create_game(
        creator=black.user, opponent="user", username=white.user.username, color="black", days_per_move=None
    )
    web = []
    try:
        for name in ("web-a", "web-b"):
            sock = layout.listen_socket("127.0.0.1", 0)
            port = sock.getsockname()[1]
            proc = _spawn(sock, tmp_path / f"{name}.log")
            web.append((proc, port))
        for proc, port in web:
            assert wait_for(lambda port=port: healthy(port), 60), proc.output()
        (proc_a, port_a), (proc_b, port_b) = web
        assert proc_a.pid != proc_b.pid
        ws = WebSocket(port_b, f"/ws/games/{game.pk}/", white.cookie)  # White's page, on process B
        engine = get_engine()
        state = selectors.load_state(Game.objects.get(pk=game.pk))
        move = next(a for a in engine.legal_actions(state) if a["type"] == "move")
        http_a = Http(port_a)
        for action in (move, {"type": "end_turn"}):
            status, body, _r = http_a.post_form(f"/games/{game.pk}/act/", black, {"action": json.dumps(action)})
            assert status == 200, body[:300]
        # The turn passed to White: White's view changed, so its doorbell rings
        # on the socket process B holds (through the shared Redis layer).
        # (The Move may have rung it before, when White could see it.)
        version = Game.objects.get(pk=game.pk).seats.get(color="white").version
        deadline = time.monotonic() + 10
        msg = None
        while time.monotonic() < deadline and msg != {"type": "changed", "version": version}:
            msg = ws.recv(max(0.01, deadline - time.monotonic()))
        assert msg == {"type": "changed", "version": version}, proc_b.output()
        # Process B serves White the new board (from the one state row A wrote).
        status, body, _r = Http(port_b).request("GET", f"/games/{game.pk}/board/", white.headers())
        assert status == 200 and f'data-version="{version}"'.encode() in body
        ws.close()
    finally:
        for proc, _port in web:
            proc.stop()


def _spawn(sock: socket.socket, log) -> Proc:
    """A daphne on the listening socket `sock` (inherited, as ./wec serve does)."""
    proc = Proc(layout.web_command(sock.fileno()), child_env(), log, pass_fds=(sock.fileno(),))
    sock.close()
    return proc
