"""The board grid (games/ui/wec/grid.py, its one source), over real
positions of random games (both colours, with selections, Moves with one and
several choices, aiming and Transport modes) and over made-up views that hold
every kind of thing a Square can show (stunned, cooling, travelling, armed
pieces, unknown types, projectiles with arrows and homing targets, markers,
reinforcements with and without a type, Articles, highlights), with text
that needs escaping, in every language the site offers: the grid is
well-formed HTML with a cell per Square, whose label, forms and buttons are
its Square's; every value from data is escaped; its words are the reader's
language's; it is the same whether its Squares come from the memo or are
built anew; and the live board's parts are the grid cut at its marks."""

from __future__ import annotations

import itertools
import random
from html import escape
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from games.boardpatch import PART_MARK
from games.engines import get_engine
from games.models import Game
from games.pages.board import CSRF_MARK
from games.ui.wec import highlights, panels
from games.ui.wec import selectors as wec_selectors
from games.ui.wec.board import build_board, place_key
from games.ui.wec.grid import render_grid
from games.ui.wec.selectors import Choice, MoveOptions
from games.ui.wec.words import ARTICLES, PIECES

TRICKY = 'a "quoted" <b>&amp; it\'s'
VOID = {"input", "br", "img", "hr", "meta", "link"}


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


class _Cells(HTMLParser):
    """Checks that tags are balanced and collects each grid cell's attributes
    and the attributes of the forms' inputs and the buttons inside it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.cells: list[dict] = []
        self.grids: list[dict] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("role") == "grid":
            self.grids.append(attrs)
        if attrs.get("role") == "gridcell":
            self.cells.append({**attrs, "inputs": [], "buttons": []})
        elif self.cells and tag == "input":
            self.cells[-1]["inputs"].append(attrs)
        elif self.cells and tag == "button":
            self.cells[-1]["buttons"].append(attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-8:])
        self.stack.pop()


_owners = itertools.count(1)


def _fresh(context: dict) -> str:
    """The grid with every Square built anew: a live board's render for an
    owner no render has used (its memos are empty), marks taken out."""
    game = Game(pk=-next(_owners), engine="")
    return render_grid({**context, "game": game}, marks=True).replace(PART_MARK, "")


def _sound(context: dict) -> None:
    """The grid of `context` is sound (see the module's docstring)."""
    got = render_grid(context)
    assert got == _fresh(context)  # from the memo or built anew: the same
    parts: list[str] = []
    marked = render_grid(context, marks=True, segments=parts)
    assert PART_MARK.join(parts) == marked and marked.replace(PART_MARK, "") == got
    squares = [sq for line in context["board"]["grid"] for sq in line["squares"]]
    assert len(parts) == len(squares) + 2 and marked.split(PART_MARK) == parts
    parser = _Cells()
    parser.feed(got)
    parser.close()
    assert not parser.stack
    assert "<b>" not in got and TRICKY not in got  # every value from data escaped
    (grid,) = parser.grids
    assert grid["class"] == f"board board-{context['color']}"
    label = context.get("board_label")
    assert grid["aria-label"] == (label if label else gettext("Board, seen from your side"))
    assert len(parser.cells) == len(squares)
    token = context.get("csrf_token")
    version = str(context["seat"].version) if context.get("seat") else ""
    for sq, cell in zip(squares, parser.cells, strict=True):
        assert (cell["data-row"], cell["data-col"]) == (str(sq["row"]), str(sq["col"]))
        assert cell["aria-label"].startswith(gettext("Square %(r)s,%(c)s") % {"r": sq["row"], "c": sq["col"]})
        singles = [b for b in sq["bands"] if b.get("single")]
        posted = [i for i in cell["inputs"] if i.get("name") == "action"]
        assert len(posted) == len(singles)
        for band, field in zip(singles, posted, strict=True):
            single = band["single"]
            action_json = single["action_json"] if isinstance(single, dict) else single.action_json
            assert field["value"] == action_json
        for i in cell["inputs"]:
            if i.get("name") == "version":
                assert i["value"] == version
            if i.get("name") == "csrfmiddlewaretoken":
                assert token not in (None, "NOTPROVIDED") and i["value"] == token
        keys = {b.get("data-target") or b.get("data-place") for b in cell["buttons"]}
        assert keys == {b["key"] for b in sq["bands"] if b.get("single") or b.get("choices") or b.get("selectable")}
    if label:
        assert escape(label) in got


def _translated(lang: str) -> None:
    """The grid's words have translations in `lang` (so checking them above
    checks the reader's language, not the msgids)."""
    if lang != "en":
        for msgid in ("Square %(r)s,%(c)s", "Board, seen from your side", "Rules & help"):
            assert gettext(msgid) != msgid, (lang, msgid)


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
def test_real_positions_render_soundly(lang):
    engine = get_engine()
    rng = random.Random(7)
    state = engine.new_game(None)
    checked = 0
    with translation.override(lang):
        _translated(lang)
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
                    _sound(_context(board, color, rng))
                    checked += 1
                    if not mine:
                        continue
                    own = sorted({(p["row"], p["col"], p.get("level", "ground"))
                                  for p in view.get("pieces", []) if p.get("color") == color and p.get("row")})
                    for place in rng.sample(own, min(3, len(own))):
                        options = wec_selectors.move_options(_game(color), color, *place, state=state, view=view,
                                                         legal=legal)
                        board = build_board(view, color, options=options, can_select=True)
                        _sound(_context(board, color, rng, sel_query=f"sel={place_key(place)}"))
                        weapons = {a.get("weapon") for a in legal if a.get("type") == "fire"
                                   and list(a.get("from", [])) == list(place)}
                        for weapon in sorted(w for w in weapons if w):
                            for mode in ("aim", "dest"):
                                options = panels.board_targets(legal, view, color, place, mode, weapon)
                                if options.targets:
                                    board = build_board(view, color, options=options, can_select=True)
                                    _sound(_context(board, color, rng))
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
def test_made_up_views_render_soundly(lang):
    rng = random.Random(11)
    with translation.override(lang):
        _translated(lang)
        for i in range(12):
            color = ("black", "white")[i % 2]
            view = _made_up_view(rng, color)
            options = _made_up_options(rng, rng.choice(["move", "aim", "dest"])) if i % 3 else None
            board = build_board(view, color, options=options, can_select=bool(i % 4))
            _mark(board, rng)
            _sound(_context(board, color, rng))


def test_every_page_draws_the_grid_through_its_tag():
    """The grid has one source: board.html puts the live board's grid (with
    its marks) where the grid goes, and every other page that shows a Wec
    board draws it through the same tag; there is no grid template."""
    folder = settings.BASE_DIR / "templates/games/wec"
    text = (folder / "board.html").read_text(encoding="utf-8")
    assert "{% wec_grid marks=True %}" in text
    assert '{% include "games/wec/grid.html" %}' not in text
    assert not (folder / "grid.html").exists() and not (folder / "tokens.html").exists()
    for name in ("replay.html", "watch_board.html", "sandbox_panel.html", "scenario_editor.html"):
        page = (folder / name).read_text(encoding="utf-8")
        assert "{% wec_grid " in page and "grid.html" not in page and "tokens.html" not in page


def _strip(board: dict) -> dict:
    """The board without the memo's keys (a memoised Square carries its key)."""
    grid = [{"row": line["row"], "squares": [{k: v for k, v in sq.items() if k != "memo_key"}
                                            for sq in line["squares"]]} for line in board["grid"]]
    return {**board, "grid": grid}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_squares_from_the_memo_are_built_and_rendered_as_new(lang):
    """The live board's Square memo (build_board's `memo`, and the grid's
    HTML keyed by it): over a random game's consecutive positions, with
    selections and highlights, each board equals one built without the
    memo, and its grid is the grid of that board built anew."""
    from types import SimpleNamespace

    from games.ui.wec.board import square_memo

    engine = get_engine()
    rng = random.Random(3)
    state = engine.new_game(None)
    game = SimpleNamespace(pk=987654, created="2026-01-01 " + lang)
    memos = {c: square_memo((game.pk, game.created, c)) for c in ("black", "white")}
    checked = hits = 0
    with translation.override(lang):
        for _step in range(150):
            if engine.outcome(state) is not None:
                break
            legal = engine.legal_actions(state)
            mover = engine.to_move(state)
            for color in ("black", "white"):
                view = engine.view(state, color, history=False)
                mine = color == mover
                options = None
                if mine and rng.random() < 0.3:
                    own = sorted({(p["row"], p["col"], p.get("level", "ground")) for p in view.get("pieces", [])
                                  if p.get("color") == color and p.get("row")})
                    if own:
                        place = rng.choice(own)
                        options = wec_selectors.move_options(Game(status=Game.Status.ACTIVE, to_move=color, engine=""),
                                                             color, *place, state=state, view=view, legal=legal)
                        if rng.random() < 0.5:
                            weapons = sorted({a.get("weapon") for a in legal if a.get("type") == "fire"
                                              and tuple(a.get("from", ())) == place and a.get("weapon")})
                            if weapons:
                                aimed = panels.board_targets(legal, view, color, place, "aim", weapons[0])
                                options = aimed if aimed.targets else options
                before = len(memos[color])
                board = build_board(view, color, options=options, can_select=mine, memo=memos[color])
                hits += 100 - (len(memos[color]) - before)
                plain = build_board(view, color, options=options, can_select=mine)
                assert _strip(board) == plain
                keys = [(r, c) for r in range(1, 11) for c in range(1, 11)]
                hl = {"enemy": set(rng.sample(keys, 4)), "own": set(rng.sample(keys, 3))}
                highlights.mark(board, hl)
                highlights.mark(plain, hl)
                context = {"color": color, "act_url": "/games/1/act/", "board_url": "/games/1/board/",
                           "sel_query": "", "seat": SimpleNamespace(version=rng.randint(1, 9)),
                           "csrf_token": CSRF_MARK, "game": game}
                # The player's live board (its memos) and the same board built anew.
                assert render_grid({**context, "board": board}, marks=True) == render_grid(
                    {**context, "board": plain, "game": Game(pk=-next(_owners), engine="")}, marks=True)
                checked += 1
            ends = [a for a in legal if a["type"] == "end_turn"]
            action = ends[0] if ends and rng.random() < 0.4 else rng.choice(legal)
            state = engine.apply(state, action)
    assert checked > 100 and hits > checked * 50  # most Squares came from the memo
