"""Issue 12: the Python-built board partial (games.ui.wec.fastpage) writes
exactly the HTML of templates/games/wec/board.html (with the partials it
includes): over the boards of real games played through the site (both
colours, selections, aiming and Transport modes, several-choice targets,
refused actions, friendly games with take-backs and undo requests, draw
offers, ended games with their review, clocks) in every language the site
offers, and over contexts made up to hold every branch of the template
(results and reasons, an open seek, no opponent, the AI notice, text that
needs escaping, turn panels with reinforcements, every take-back state).

tests/site/conftest.py checks every board the other site tests render too.
"""

from __future__ import annotations

import json
import random
import zlib
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from games import selectors, services
from games.engines import get_engine
from games.models import Game
from games.pages.board import CSRF_MARK
from games.selectors.takeback import Controls
from games.ui import wec
from games.ui.wec import fastpage
from games.ui.wec import selectors as wec_selectors
from games.ui.wec.board import place_key
from games.ui.wec.panels import TurnPanel
from games.ui.wec.selectors import Choice

TRICKY = 'a "quoted" <b>&amp; it\'s'
LANGS = ["en", "de", "ru", "pl"]


def _same(context: dict) -> None:
    expected = render_to_string(wec.BOARD_TEMPLATE, context)
    got = fastpage.render_board(context)
    if got != expected:  # show where they part, not two 100 KB strings
        at = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b),
                  min(len(got), len(expected)))
        raise AssertionError(f"differ at {at}:\n got      {got[at - 300:at + 200]!r}\n expected {expected[at - 300:at + 200]!r}")


def _client(user, lang: str) -> Client:
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client


def _board(client: Client, game_id: int, query: str = "") -> str:
    response = client.get(f"/games/{game_id}/board/{query}", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang,competitive", [("en", True), ("de", False), ("ru", False), ("pl", True)])
def test_boards_of_played_games_are_the_template(alice, bob, lang, competitive, ids_never_repeat):
    """Random games through the site; every board the views render goes
    through fastpage and is compared with board.html (tests/site/conftest.py),
    and each board context once more here, in the player's language."""
    engine = get_engine()
    # A seed from the language alone (str hashes change with every process).
    rng = random.Random(zlib.crc32(lang.encode()))
    game = services.create_game(creator=alice, opponent="user", username="bob", color="black",
                                competitive=competitive, days_per_move=rng.choice([None, 3]))
    clients = {"black": _client(alice, lang), "white": _client(bob, lang)}
    users = {"black": alice, "white": bob}
    renders = 0
    for step in range(60):
        game = Game.objects.get(pk=game.pk)
        state = selectors.load_state(game)
        if engine.outcome(state) is not None:
            break
        mover = engine.to_move(state)
        client = clients[mover]
        for color in ("black", "white"):
            _board(clients[color], game.pk)
        legal = engine.legal_actions(state)
        if step % 3 == 0:
            own = sorted({tuple(a["from"]) for a in legal if isinstance(a.get("from"), list) and len(a["from"]) == 3})
            for place in rng.sample(own, min(2, len(own))):
                key = place_key(place)
                _board(client, game.pk, f"?sel={key}")
                weapons = sorted({a.get("weapon") for a in legal if a.get("type") == "fire"
                                  and tuple(a.get("from", ())) == place and a.get("weapon")})
                for weapon in weapons[:2]:
                    for mode in ("aim", "dest"):
                        _board(client, game.pk, f"?sel={key}&mode={mode}&weapon={weapon}")
            # A target with several choices (the choice panel).
            targets: dict = {}
            for a in legal:
                if a.get("type") == "move":
                    targets.setdefault((tuple(a["from"]), tuple(a["to"])), []).append(a)
            several = [k for k, v in targets.items() if len(v) > 1]
            if several:
                frm, to = rng.choice(several)
                _board(client, game.pk, f"?sel={place_key(frm)}&to={place_key(to)}")
        with translation.override(lang):
            seat = selectors.seat_by_color(game, mover)
            request = SimpleNamespace(user=users[mover])
            context = wec.board_context(request, game, seat)
            context["csrf_token"] = rng.choice([CSRF_MARK, TRICKY, None])
            _same(context)
            renders += 1
        if step == 7:  # a stale version: refused, the board with its error
            client.post(f"/games/{game.pk}/act/", {"action": json.dumps(legal[0]), "version": "0"},
                        HTTP_HX_REQUEST="true")
        if step == 9:
            client.post(f"/games/{game.pk}/draw/", {"answer": "offer"})
            _board(clients[mover], game.pk)
            _board(clients["white" if mover == "black" else "black"], game.pk)
        if step == 12 and not competitive:
            client.post(f"/games/{game.pk}/undo/", {"answer": "request"})
        ends = [a for a in legal if a["type"] == "end_turn"]
        action = ends[0] if ends and rng.random() < 0.4 else rng.choice(legal)
        response = client.post(f"/games/{game.pk}/act/", {"action": json.dumps(action)}, HTTP_HX_REQUEST="true")
        assert response.status_code in (200, 400, 409), response.content[:300]
        if not competitive and step % 5 == 4 and response.status_code == 200:
            client.post(f"/games/{game.pk}/takeback/", {"steps": "1"}, HTTP_HX_REQUEST="true")
    # Ended: resigned unless the random play already ended it (a King
    # captured); both players' boards (with the review) and the page.
    game = Game.objects.get(pk=game.pk)
    if game.status == "active":
        services.resign(game.pk, users[engine.to_move(selectors.load_state(game))])
    for color in ("black", "white"):
        _board(clients[color], game.pk)
        assert clients[color].get(f"/games/{game.pk}/").status_code == 200
    assert renders >= 10


def _contexts(base: dict, rng: random.Random):
    """Variations of a real board context over every branch of the template."""
    game = base["game"]
    statuses = ["active", "finished", "open", "aborted"]
    for _ in range(40):
        ctx = dict(base)
        g = SimpleNamespace(
            pk=game.pk,
            status=rng.choice(statuses),
            to_move=rng.choice(["black", "white"]),
            result=rng.choice([None, {}, {"winner": "black", "reason": "king_captured"},
                               {"winner": "white", "reason": "resigned"}, {"winner": None, "reason": "agreed"},
                               {"winner": "black", "reason": TRICKY}, {"winner": "", "reason": ""}]),
            needs_attention=rng.random() < 0.3,
            draw_offer=rng.choice([None, "", "black", "white"]),
            days_per_move=rng.choice([None, None, 0, 3]),
            increment_hours=rng.choice([None, None, 12]),
            bank_cap_days=rng.choice([None, 5]),
            created=game.created,
        )
        ctx["game"] = g
        ctx["my_turn"] = rng.random() < 0.5
        ctx["opponent"] = rng.choice([None, SimpleNamespace(shown_name=TRICKY), SimpleNamespace(shown_name="bob")])
        ctx["view"] = {**base["view"], "turn": {"moved": rng.random() < 0.5}, "turn_number": rng.randint(1, 300)}
        if rng.random() < 0.2:
            ctx["view"].pop("turn_number")
        ctx["error"] = rng.choice([None, "", TRICKY])
        ctx["highlight_text"] = rng.choice(["", TRICKY, "3 squares"])
        ctx["highlights"] = {"enemy_count": rng.randint(0, 2), "own_count": rng.randint(0, 2)}
        ctx["since_last"] = rng.choice([None, {"text": ""}, {"text": TRICKY}])
        if rng.random() < 0.2:
            ctx.pop("since_last")
        ctx["takeback"] = rng.choice([None, Controls(*(rng.random() < 0.5 for _ in range(5)))] * 2)
        ctx["choice"] = rng.choice([None, {"title": TRICKY, "choices": [
            Choice(action={"type": "move", "n": TRICKY}, label="Move " + TRICKY, confirm=rng.choice(["", TRICKY])),
            Choice(action={"type": "fire"}, label="Fire", confirm=""),
        ]}])
        ctx["turn_panel"] = rng.choice([None, TurnPanel(
            items=[{"key": "move", "label": "Move", "done": True, "text": "done"},
                   {"key": "fires", "label": TRICKY, "done": False, "text": "1/2"}],
            fires=1, max_fires=2,
            reinforcements=[Choice(action={"type": "reinforce"}, label="Tank " + TRICKY, short=rng.choice(["", "T"]),
                                   confirm=rng.choice(["", "sure?"]))] * rng.randint(0, 2),
            waiting=[{"label": TRICKY}] * rng.randint(0, 2),
            can_end_turn=rng.random() < 0.5,
            end_turn=Choice(action={"type": "end_turn"}, label="End turn"),
        )])
        ctx["arrows"] = rng.choice([{"arrows": [], "enemy": [], "own": []}, {
            "arrows": [SimpleNamespace(side="enemy", kind="move", from_key="1-2-ground", to_key="1-3-ground"),
                       SimpleNamespace(side="own", kind="shot", from_key="4-4-air", to_key=TRICKY)],
            "enemy": [TRICKY, "b"], "own": rng.choice([[], ["c"]])}])
        ctx["clocks"] = []
        ctx["sel_query"] = rng.choice(["", "sel=3-4-ground&mode=aim&weapon=rocket"])
        ctx["csrf_token"] = rng.choice([CSRF_MARK, TRICKY, None, "NOTPROVIDED"])
        if rng.random() < 0.3:
            ctx["selected"] = (3, 4, rng.choice(["ground", "air", "sub"]))
            ctx["selected_key"] = "3-4-ground"
            ctx["mode"] = rng.choice([None, "aim", "dest"])
            ctx["mode_weapon"] = TRICKY if ctx["mode"] else ""
            ctx["selected_has_targets"] = rng.random() < 0.5
            ctx["selected_kinds"] = rng.sample(["tank", "jet", "king", "odd"], rng.randint(0, 2))
        yield ctx


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_made_up_contexts_are_the_template(game, alice, lang):
    rng = random.Random(5)
    with translation.override(lang):
        seat = selectors.seat_by_color(game, "black")
        base = wec.board_context(SimpleNamespace(user=alice), game, seat)
        for ctx in _contexts(base, rng):
            _same(ctx)


def _strip(board: dict) -> dict:
    """The board without the memo's keys (a memoised Square carries its key)."""
    grid = [{"row": line["row"], "squares": [{k: v for k, v in sq.items() if k != "memo_key"}
                                            for sq in line["squares"]]} for line in board["grid"]]
    return {**board, "grid": grid}


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_squares_from_the_memo_are_built_and_rendered_as_new(lang):
    """The live board's Square memo (build_board's `memo`, and fastboard's
    HTML keyed by it): over a random game's consecutive positions, with
    selections and highlights, each board equals one built without the
    memo, and its grid is grid.html's for that board."""
    from games.ui.wec import highlights, panels
    from games.ui.wec.board import build_board, square_memo
    from games.ui.wec.grid import render_grid

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
                assert render_grid({**context, "board": board}) == render_to_string(
                    "games/wec/grid.html", {**context, "board": plain})
                checked += 1
            ends = [a for a in legal if a["type"] == "end_turn"]
            action = ends[0] if ends and rng.random() < 0.4 else rng.choice(legal)
            state = engine.apply(state, action)
    assert checked > 100 and hits > checked * 50  # most Squares came from the memo
