"""A board answered as its changed parts (games.boardpatch) gives
the page exactly the board a full answer gives.

Two pages (one per player) play random games; each keeps the board HTML it
was last sent, as static/js/game.js does, sends its parts' hashes with every
board request and puts a patched answer together with the parts it kept.
After every submit and selection, the board so made must be the very HTML
(up to the CSRF tokens, which differ per request) of a full answer for the
same view version and selection."""

from __future__ import annotations

import json
import random
import re
import secrets

import pytest
from django.test import Client
from django.urls import reverse

from games import boardpatch
from games.boardpatch import PART_MARK
from games.engines import get_engine
from tools.site import benchkit

_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
_QUERY = re.compile(r'id="board"[^>]*data-query="([^"]*)"')
_OWN = re.compile(r'data-place="(\d+-\d+-\w+)"')


def _board_part(text: str) -> str:
    """The board's HTML up to END_MARK, CSRF tokens blanked."""
    return _CSRF.sub('name="csrfmiddlewaretoken" value=""', text[: text.index(boardpatch.END_MARK)])


class Page:
    """One player's page: the board it was last sent, as sent."""

    def __init__(self, player):
        self.client = Client()
        self.client.force_login(player.user)
        self.parts: list[str] | None = None
        self.hashes = ""
        self.patched = self.full = 0

    def headers(self) -> dict:
        h = {"HTTP_HX_REQUEST": "true"}
        if self.hashes:
            h["HTTP_X_WEC_PARTS"] = self.hashes
        return h

    def take(self, response) -> str:
        """What the page swaps in for `response` (the whole answer's text)."""
        assert response.status_code == 200, response.content[:300]
        text = response.content.decode()
        if response.get(boardpatch.PATCH_HEADER) == "1":
            assert self.parts is not None
            parts, rest = boardpatch.apply(self.parts, text)
            text = PART_MARK.join(parts) + rest
            self.patched += 1
        else:
            self.full += 1
        hashes = response.get(boardpatch.PARTS_HEADER, "")
        cut = boardpatch.split(text)
        assert hashes and cut is not None
        self.parts, self.hashes = cut[0], hashes
        # (hashed before the request's CSRF token is put in: a part's hash is the same for every request)
        assert len(hashes.split(" ")) == len(self.parts)
        return text


def _full(client: Client, url: str) -> str:
    """A full answer for the same board (no parts named)."""
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.get(boardpatch.PATCH_HEADER) is None
    return response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_patched_boards_equal_full_boards(seed):
    engine = get_engine()
    rng = random.Random(seed)
    bg = benchkit.new_bench_game(secrets.token_hex(3), seed, seed)
    pages = {color: Page(player) for color, player in bg.players.items()}
    act = reverse("game_act", args=[bg.game_id])
    board = reverse("game_board", args=[bg.game_id])
    for page in pages.values():
        page.take(page.client.get(board, **page.headers()))
    checked = 0
    for _ in range(70):
        if engine.outcome(bg.state) is not None:
            break
        color = engine.to_move(bg.state)
        page = pages[color]
        if rng.random() < 0.4 and page.parts is not None:
            # A selection first (an own piece), answered against the board shown.
            places = _OWN.findall(PART_MARK.join(page.parts))
            if places:
                url = f"{board}?sel={rng.choice(places)}"
                got = page.take(page.client.get(url, **page.headers()))
                assert _board_part(got) == _board_part(_full(page.client, url))
                checked += 1
        action = bg.choose(engine)
        got = page.take(page.client.post(act, {"action": json.dumps(action)}, **page.headers()))
        bg.state = engine.apply(bg.state, action)
        query = _QUERY.search(got).group(1).replace("&amp;", "&")
        assert _board_part(got) == _board_part(_full(page.client, f"{board}?{query}" if query else board))
        checked += 1
    assert checked > 30
    assert sum(p.patched for p in pages.values()) > checked // 2  # the usual answer is a patch


@pytest.mark.django_db(transaction=True)
def test_a_board_not_known_gets_the_whole_board():
    engine = get_engine()
    bg = benchkit.new_bench_game(secrets.token_hex(3), 9, 9)
    color = engine.to_move(bg.state)
    page = Page(bg.players[color])
    board = reverse("game_board", args=[bg.game_id])
    full = page.take(page.client.get(board, HTTP_HX_REQUEST="true"))
    n = len(page.hashes.split(" "))
    for bad in ("", "zz", " ".join(["0" * 12] * (n - 1)), " ".join(["0" * 12] * (n + 1)), "0" * 12 + "  x"):
        extra = {"HTTP_X_WEC_PARTS": bad} if bad else {}
        response = page.client.get(board, HTTP_HX_REQUEST="true", **extra)
        assert response.status_code == 200
        assert response.get(boardpatch.PATCH_HEADER) is None
        assert _board_part(response.content.decode()) == _board_part(full)
    # Hashes that match nothing: every part is sent, which is the whole board.
    response = page.client.get(board, HTTP_HX_REQUEST="true", HTTP_X_WEC_PARTS=" ".join(["0" * 12] * n))
    assert response.get(boardpatch.PATCH_HEADER) == "1"
    parts, rest = boardpatch.apply([""] * n, response.content.decode())
    assert _board_part(PART_MARK.join(parts) + rest) == _board_part(full)
    # The same board again: no part at all.
    response = page.client.get(board, **page.headers())
    assert response.get(boardpatch.PATCH_HEADER) == "1"
    assert response.content.decode().startswith(boardpatch.END_MARK)
