"""Issue 12: the Python-built board grid (games/ui/wec/grid.py) writes exactly the
HTML of templates/games/wec/grid.html, over real positions of random
games (both colours, with selections, Moves with one and several choices,
aiming and Transport modes) and over made-up views that hold every kind of
thing a Square can show (stunned, cooling, travelling, armed pieces,
unknown types, projectiles with arrows and homing targets, markers,
reinforcements with and without a type, Articles, highlights), with text
that needs escaping, in every language the site offers."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games.engines import get_engine
from games.models import Game
from games.pages.board import CSRF_MARK
from games.ui.wec import highlights, panels
from games.ui.wec import selectors as wec_selectors
from games.ui.wec.board import build_board, place_key
from games.ui.wec.grid import render_grid
from games.ui.wec.selectors import Choice, MoveOptions
from games.ui.wec.words import ARTICLES, PIECES

GRID = "games/wec/grid.html"
TRICKY = 'a "quoted" <b>&amp; it\'s'


class _Seat:
    def __init__(self, version):
        self.version = version


def _context(board, color, rng, **extra) -> dict:
    query = rng.choice(["", "sel=3-4-ground", "sel=3-4-air&mode=aim&weapon=rocket&piece=7"])
    return {
        "board": board,
        "color": color,
        "board_label": rng.choice([None, "", "The board as both players see it", TRICKY]),
        "act_url": "/games/12/act/",
        "board_url": rng.choice(["/games/12/board/", "/games/12/board/?x=<1>&y"]),
        "sel_query": query,
        "seat": rng.choice([_Seat(rng.randint(0, 999)), None]),
        "csrf_token": rng.choice([CSRF_MARK, "tok" + TRICKY, None, "NOTPROVIDED"]),
        **extra,
    }


def _same(context: dict) -> None:
    expected = render_to_string(GRID, context)
    got = render_grid(context)
    if got != expected:  # show where they part, not two 100 KB strings
        at = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b), min(len(got), len(expected)))
        raise AssertionError(f"differ at {at}:\n got      {got[at - 200:at + 200]!r}\n expected {expected[at - 200:at + 200]!r}")


def _mark(board, rng) -> None:
    keys = [(sq["row"], sq["col"]) for line in board["grid"] for sq in line["squares"]]
    hl = {"enemy": set(rng.sample(keys, 5)), "own": set(rng.sample(keys, 5))}
    highlights.mark(board, hl)
    for line in board["grid"]:
        for sq in line["squares"]:
            if rng.random() < 0.05:
                sq["hl_learn"] = True


def _game(color: str) -> Game:
    return Game(status=Game.Status.ACTIVE, to_move=color, engine="")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_real_positions_render_the_same(lang):
    engine = get_engine()
    rng = random.Random(7)
    state = engine.new_game(None)
    checked = 0
    with translation.override(lang):
        for step in range(120):
            if engine.outcome(state) is not None:
                break
            legal = engine.legal_actions(state)
            if step % 10 == 0:
                mover = engine.to_move(state)
                for color in ("black", "white"):
                    view = engine.view(state, color)
                    mine = color == mover
                    board = build_board(view, color, can_select=mine)
                    _mark(board, rng)
                    _same(_context(board, color, rng))
                    checked += 1
                    if not mine:
                        continue
                    own = sorted({(p["row"], p["col"], p.get("level", "ground"))
                                  for p in view.get("pieces", []) if p.get("color") == color and p.get("row")})
                    for place in rng.sample(own, min(3, len(own))):
                        options = wec_selectors.move_options(_game(color), color, *place, state=state, view=view,
                                                         legal=legal)
                        board = build_board(view, color, options=options, can_select=True)
                        _same(_context(board, color, rng, sel_query=f"sel={place_key(place)}"))
                        weapons = {a.get("weapon") for a in legal if a.get("type") == "fire"
                                   and list(a.get("from", [])) == list(place)}
                        for weapon in sorted(w for w in weapons if w):
                            for mode in ("aim", "dest"):
                                options = panels.board_targets(legal, view, color, place, mode, weapon)
                                if options.targets:
                                    board = build_board(view, color, options=options, can_select=True)
                                    _same(_context(board, color, rng))
                        checked += 1
            ends = [a for a in legal if a["type"] == "end_turn"]
            action = ends[0] if ends and rng.random() < 0.4 else rng.choice(legal)
            state = engine.apply(state, action)
    assert checked > 15


def _made_up_view(rng, color: str) -> dict:
    """Every kind of thing a Square can hold, on random Squares."""
    enemy = "white" if color == "black" else "black"
    kinds = list(PIECES) + ["mystery_piece", None]
    arts = list(ARTICLES) + ["odd_article"]
    places = [(r, c) for r in range(1, 11) for c in range(1, 11)]

    def at():
        r, c = rng.choice(places)
        return {"row": r, "col": c}

    pieces = []
    for i in range(60):
        p = {"id": i, "type": rng.choice(kinds), "color": rng.choice([color, enemy]),
             "level": rng.choice(["ground", "air", "sub", None]), **at()}
        if p["level"] is None:
            del p["level"]
        if rng.random() < 0.3:
            p["stun"] = rng.randint(0, 3)
        if rng.random() < 0.3:
            p["articles"] = rng.sample(arts, rng.randint(1, 3))
        if rng.random() < 0.2:
            p["hand"] = rng.choice(["left", TRICKY])
        if rng.random() < 0.3:
            p["cooldowns"] = {rng.choice(arts): rng.randint(0, 3), rng.choice(arts): rng.randint(1, 2)}
        if rng.random() < 0.2:
            p["transport"] = {"article": rng.choice(arts), "to": [3, 4, rng.choice(["ground", "air"])]}
        pieces.append(p)
    projectiles = []
    for _ in range(15):
        pr = {"kind": rng.choice(["rocket", "sam", "torpedo", "weird"]), "level": rng.choice(["air", "sub", "x"]),
              **at()}
        if rng.random() < 0.6:
            pr["color"] = rng.choice([color, enemy])
        if rng.random() < 0.6:
            pr["direction"] = rng.choice([[1, 0], [-1, 1], [0, -1], [0, 0], [2, 2]])
        if rng.random() < 0.3:
            pr["target"] = [5, 6, "air"]
        projectiles.append(pr)
    return {
        "pieces": pieces,
        "articles": [{"type": rng.choice(arts), **at()} for _ in range(15)],
        "markers": [{"type": rng.choice(kinds), "level": rng.choice(["ground", "air", "sub"]), **at()}
                    for _ in range(10)],
        "projectiles": projectiles,
        "reinforcements": [{"color": rng.choice([color, enemy]), "type": rng.choice([None, "tank", "jet"]), **at()}
                           for _ in range(6)],
    }


def _made_up_options(rng, mode: str) -> MoveOptions:
    options = MoveOptions(origin=(3, 4, "ground"), kind=mode)
    for _ in range(12):
        key = (rng.randint(1, 10), rng.randint(1, 10), rng.choice(["ground", "air", "sub"]))
        for _ in range(rng.choice([1, 1, 2, 3])):
            options.targets.setdefault(key, []).append(
                Choice(action={"type": "fire", "note": TRICKY}, label=rng.choice(["Fire " + TRICKY, "Move"]),
                       confirm=rng.choice(["", "Hit your own " + TRICKY + "?"]))
            )
    return options


@pytest.mark.parametrize("lang", ["en", "de", "ru", "pl"])
def test_made_up_views_render_the_same(lang):
    rng = random.Random(11)
    with translation.override(lang):
        for i in range(12):
            color = ("black", "white")[i % 2]
            view = _made_up_view(rng, color)
            options = _made_up_options(rng, rng.choice(["move", "aim", "dest"])) if i % 3 else None
            board = build_board(view, color, options=options, can_select=bool(i % 4))
            _mark(board, rng)
            _same(_context(board, color, rng))


def test_board_partial_uses_the_built_grid():
    """board.html puts the Python-built grid where grid.html was included."""
    text = (settings.BASE_DIR / "templates/games/wec/board.html").read_text(encoding="utf-8")
    assert "{% wec_grid marks=True %}" in text
    assert '{% include "games/wec/grid.html" %}' not in text
