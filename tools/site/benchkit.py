"""The kit of the site's benchmark, load test and soak tools: start the
production layout (wecsite.layout) against the configured PostgreSQL and
Redis, sign bench players in, build games (long ones in bulk), and drive the
site over real HTTP and websockets from threads as the page does (the
headers it sends, the patched boards it puts together).  Standard library
clients only (http.client, a tiny websocket client), so that the figures
measure the server and not a client library.  Loopback only.  Some site tests
use it too, to play as the page plays."""

from __future__ import annotations

import base64
import http.client
import itertools
import json
import os
import random
import re
import secrets
import socket
import statistics
import struct
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings

from wecsite import dburl, layout

VERSION_RE = re.compile(rb'id="board"[^>]*data-version="(\d+)"')


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, int(round(p / 100 * (len(values) - 1)))))
    return values[k]


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def database_url() -> str:
    """The URL of the database this process is connected to (under pytest,
    the run's test database rather than DATABASE_URL's)."""
    return dburl.database_url(settings.DATABASES["default"])


class Stack:
    """`workers` daphne processes on one shared socket, with this process's
    database, Redis and Redis prefix, the bare baseline views routed.
    `extra_env` is added to their environment."""

    def __init__(self, workers: int, log_path: Path | None = None, extra_env: dict | None = None):
        self.workers = workers
        self.sock = layout.listen_socket("127.0.0.1", 0)
        self.port = self.sock.getsockname()[1]
        env = dict(os.environ)
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "wecsite.settings",
                "WEC_TESTING": "1",
                "WEC_DEVTOOLS": "1",  # the bare views live in the development tools' app
                "WEC_BENCH_VIEWS": "1",
                "WEC_REDIS_PREFIX": settings.WEC_REDIS_PREFIX,
                "DATABASE_URL": database_url(),
                **(extra_env or {}),
            }
        )
        env.pop("DEBUG", None)
        self.log = open(log_path or os.devnull, "ab")  # noqa: SIM115 - closed in stop()
        self.procs = layout.start_web(self.sock, workers, env, Path(sys.executable).parent, log=self.log)
        self.sock.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    # every process must have imported Django before timing
                    time.sleep(1.5)
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("the web processes did not start")

    def rss_mb(self) -> list[float]:
        out = []
        for proc in self.procs:
            try:
                for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        out.append(int(line.split()[1]) / 1024)
            except OSError:
                pass
        return out

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        self.log.close()


@dataclass
class Player:
    user: object
    cookie: str
    csrf: str

    def headers(self, htmx: bool = True) -> dict:
        h = {"Cookie": self.cookie, "X-CSRFToken": self.csrf, "Host": "127.0.0.1"}
        if htmx:
            h["HX-Request"] = "true"
        return h


def make_player(name: str) -> Player:
    from django.contrib.auth import get_user_model
    from django.test import Client

    User = get_user_model()
    user = User.objects.create_user(username=name, email=f"{name}@example.com", password=secrets.token_hex(16))
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    csrf = secrets.token_hex(16)  # a 32-character secret: Django accepts it unmasked
    cookie = f"{settings.SESSION_COOKIE_NAME}={session}; {settings.CSRF_COOKIE_NAME}={csrf}"
    return Player(user=user, cookie=cookie, csrf=csrf)


class Http:
    """One keep-alive connection."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def request(self, method: str, path: str, headers: dict, body: bytes | None = None):
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                return response.status, response.read(), response
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def post_form(self, path: str, player: Player, fields: dict, extra: dict | None = None):
        body = urlencode(fields).encode()
        headers = player.headers()
        headers.update(extra or {})
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return self.request("POST", path, headers, body)


class WebSocket:
    """A minimal RFC 6455 client: text frames, pings answered, no extensions."""

    def __init__(self, port: int, path: str, cookie: str):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Cookie: {cookie}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("websocket refused")
            head += chunk
        head, self.buf = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.split(b"\r\n", 1)[0].decode())

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send_text(self, text: str, opcode: int = 1) -> None:
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack("!Q", n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def recv(self, timeout: float | None) -> dict | None:
        """The next JSON message, or None when none came within `timeout`."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            if not self.buf:
                left = None if deadline is None else deadline - time.monotonic()
                if left is not None and left <= 0:
                    return None
                self.sock.settimeout(left)
                try:
                    chunk = self.sock.recv(65536)
                except TimeoutError:
                    return None
                if not chunk:
                    raise ConnectionError("websocket closed")
                self.buf += chunk
                continue
            self.sock.settimeout(None if deadline is None else max(0.001, deadline - time.monotonic()))
            try:
                b1, b2 = self._read(2)
                n = b2 & 0x7F
                if n == 126:
                    n = struct.unpack("!H", self._read(2))[0]
                elif n == 127:
                    n = struct.unpack("!Q", self._read(8))[0]
                payload = self._read(n)
            except TimeoutError:
                return None
            opcode = b1 & 0x0F
            if opcode == 9:
                self.send_text(payload.decode(errors="replace"), opcode=10)
            elif opcode == 8:
                raise ConnectionError("websocket closed by the server")
            elif opcode == 1:
                return json.loads(payload)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


@dataclass
class BenchGame:
    """A game between two bench players, with a local copy of the engine
    state (the actions are chosen here, from the engine's own legal list)."""

    game_id: int
    players: dict  # colour -> Player
    state: object
    rng: random.Random
    shown: dict = field(default_factory=dict)  # colour -> view version the page shows
    # colour -> the X-Wec-History header that colour's page sends (what record it holds)
    history: dict = field(default_factory=dict)
    # colour -> (the parts of the board that colour's page was last sent, their
    # hashes): sent back with its next board request, as the page does
    # (games.boardpatch, static/js/game.js)
    boards: dict = field(default_factory=dict)

    def choose(self, engine) -> dict:
        legal = engine.legal_actions(self.state)
        ends = [a for a in legal if a["type"] == "end_turn"]
        if ends and (self.rng.random() < 0.7 or len(legal) == 1):
            return ends[0]
        moves = [a for a in legal if a["type"] == "move"] or legal
        return self.rng.choice(moves)


_serial = itertools.count(1)


def new_bench_game(tag: str, n: int, seed: int) -> BenchGame:
    from games import selectors, services
    from games.models import Game

    k = next(_serial)
    black, white = make_player(f"b{tag}-{k}b"), make_player(f"b{tag}-{k}w")
    game = services.create_game(
        creator=black.user, opponent="user", username=white.user.username, color="black", days_per_move=None
    )
    game = Game.objects.get(pk=game.pk)
    versions = dict(game.seats.values_list("color", "version"))
    return BenchGame(
        game_id=game.pk,
        players={"black": black, "white": white},
        state=selectors.load_state(game),
        rng=random.Random(seed),
        shown=versions,
    )


def board_headers(bg: BenchGame, color: str) -> dict:
    """What `color`'s page sends with a board request: the record it holds
    and the parts of the board it shows."""
    out = {}
    if bg.history.get(color):
        out["X-Wec-History"] = bg.history[color]
    if bg.boards.get(color):
        out["X-Wec-Parts"] = bg.boards[color][1]
    return out


def take_board(bg: BenchGame, color: str, body: bytes, patched: str | None, hashes: str | None) -> bytes:
    """What `color`'s page makes of a board answer (the headers X-Wec-Patch
    and X-Wec-Parts given): the whole answer, a patched one put together
    with the parts the page kept, as static/js/game.js does."""
    from games import boardpatch
    from games.boardpatch import PART_MARK

    text = body.decode()
    if patched == "1" and bg.boards.get(color):
        parts, rest = boardpatch.apply(bg.boards[color][0], text)
        text = PART_MARK.join(parts) + rest
    cut = boardpatch.split(text)
    bg.boards[color] = (cut[0], hashes) if hashes and cut is not None else None
    return text.encode()


def submit(http: Http, engine, bg: BenchGame) -> tuple[float, int, dict, bytes]:
    """One action by the side to move, over HTTP like the page's htmx form
    (with the page's headers).  Returns (seconds, status, action, body), the
    body as the page has it after putting a patched answer together (not
    timed: the browser's work)."""
    color = engine.to_move(bg.state)
    action = bg.choose(engine)
    fields = {"action": json.dumps(action)}
    extra = board_headers(bg, color)
    t = time.perf_counter()
    status, body, resp = http.post_form(f"/games/{bg.game_id}/act/", bg.players[color], fields, extra)
    took = time.perf_counter() - t
    if status == 200:
        body = take_board(bg, color, body, resp.getheader("X-Wec-Patch"), resp.getheader("X-Wec-Parts"))
        bg.state = engine.apply(bg.state, action)
        # Like the page's htmx: the next request says which record lines it holds.
        bg.history[color] = history_header(body, bg.history.get(color))
        m = VERSION_RE.search(body)
        if m:
            bg.shown[color] = int(m.group(1))
    return took, status, action, body


def history_header(body: bytes, previous: str | None) -> str:
    """What a page that received `body` would send as X-Wec-History."""
    mode = re.search(rb'id="history"[^>]*data-mode="(\w+)"', body)
    if mode:
        plain = re.search(rb'<ol class="hist-plain"[^>]*>(.*?)</ol>', body, re.S)
        notation = re.search(rb'<ol class="hist-notation"[^>]*>(.*?)</ol>', body, re.S)
        return f"{mode.group(1).decode()}:{plain.group(1).count(b'<li>')}:{notation.group(1).count(b'<li>')}"
    if previous:
        m, p, n = previous.split(":")
        add_p = re.search(rb'beforeend:#hist-plain-list">(.*?)</ol>', body, re.S)
        add_n = re.search(rb'beforeend:#hist-notation-list">(.*?)</ol>', body, re.S)
        p = int(p) + (add_p.group(1).count(b"<li>") if add_p else 0)
        n = int(n) + (add_n.group(1).count(b"<li>") if add_n else 0)
        return f"{m}:{p}:{n}"
    return ""


def shuffle_action(engine, state, last: dict) -> dict:
    """A quiet action for building long games: End Turn once moved, else move
    a piece back where it came from on its side's previous Turn, else the
    Move that advances least (so the two sides rarely meet and the game lasts)."""
    legal = engine.legal_actions(state)
    ends = [a for a in legal if a["type"] == "end_turn"]
    if ends:
        return ends[0]
    moves = [a for a in legal if a["type"] == "move"]
    if not moves:
        return legal[0]
    color = engine.to_move(state)
    back = last.get(color)
    if back is not None:
        for a in moves:
            if list(a["from"]) == list(back["to"]) and list(a["to"]) == list(back["from"]):
                return a
    sign = 1 if color == "black" else -1
    return min(moves, key=lambda a: (sign * a["to"][0], abs(a["to"][1] - a["from"][1]), json.dumps(a)))


def build_long_game(bg: BenchGame, engine, actions: int) -> int:
    """Append `actions` quiet actions to a fresh bench game directly in the
    database, exactly as submit_action would have stored them (hash-chained
    log rows, Turn records, snapshots every WEC_SNAPSHOT_EVERY, the state
    row), but in a few bulk writes: a 3,000-action game in seconds.
    verify_games checks the result like any other game.  Returns the count."""
    from django.db import transaction

    from games.models import Game, GameAction, GameState, GameTurn, Seat, Snapshot
    from games.store.action_log import GENESIS_HASH, action_hash

    every = max(1, int(settings.WEC_SNAPSHOT_EVERY))
    game = Game.objects.get(pk=bg.game_id)
    seats = {s.color: s for s in Seat.objects.filter(game=game)}
    state, last = bg.state, {}
    rows, snaps, prev, seq = [], [], GENESIS_HASH, game.seq
    for _ in range(actions):
        if engine.outcome(state) is not None:
            break
        color = engine.to_move(state)
        action = shuffle_action(engine, state, last)
        if action["type"] == "move":
            last[color] = action
        state = engine.apply(state, action)
        seq += 1
        digest = action_hash(prev, game.pk, seq, color, action)
        rows.append(GameAction(game=game, seq=seq, seat=seats[color], action=action, prev_hash=prev, hash=digest))
        prev = digest
        if seq % every == 0:
            snaps.append(
                Snapshot(game=game, seq=seq, state=engine.dump_scenario(state, history=False),
                         turns=engine.turn_count(state))
            )
    records = engine.turn_records(state)
    with transaction.atomic():
        GameAction.objects.bulk_create(rows, batch_size=500)
        Snapshot.objects.bulk_create(snaps, batch_size=100)
        GameTurn.objects.filter(game=game).delete()
        GameTurn.objects.bulk_create(
            [GameTurn(game=game, number=i, entry=r) for i, r in enumerate(records, 1)], batch_size=500
        )
        GameState.objects.update_or_create(
            game=game,
            defaults={"seq": seq, "turns": len(records), "state": engine.dump_scenario(state, history=False)},
        )
        result = engine.outcome(state)
        Game.objects.filter(pk=game.pk).update(
            seq=seq,
            to_move=engine.to_move(state),
            status=Game.Status.FINISHED if result else Game.Status.ACTIVE,
            result=result,
        )
    bg.state = state
    return seq
