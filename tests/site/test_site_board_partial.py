"""The board partial (templates/games/wec/board.html with the partials it
includes, its one source; the grid is games/ui/wec/grid.py's, through its
tag) renders over the boards of real games played through the site (both
colours, selections, aiming and Transport modes, several-choice targets,
refused actions, friendly games with take-backs and undo requests, draw
offers, ended games with their review, clocks) in every language the site
offers, and over contexts made up to hold every branch of the template
(results and reasons, an open seek, no opponent, the AI notice, text that
needs escaping, turn panels with reinforcements, every take-back state):
well-formed HTML, every value from data escaped, its parts (games.boardpatch)
those of the HTML (tests/site/conftest.py checks that for every board the
site tests render).
"""

from __future__ import annotations

import json
import random
import zlib
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from games import boardpatch, selectors, services
from games.engines import get_engine
from games.models import Game
from games.pages.board import CSRF_MARK
from games.selectors.takeback import Controls
from games.ui import wec
from games.ui.wec.board import place_key
from games.ui.wec.panels import TurnPanel
from games.ui.wec.selectors import Choice

TRICKY = 'a "quoted" <b>&amp; it\'s'
LANGS = ["en", "de", "ru", "pl"]
VOID = {"input", "br", "img", "hr", "meta", "link"}


class _Balanced(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-8:])
        self.stack.pop()


def _sound(context: dict) -> None:
    """The board of `context` is sound: well-formed, escaped, with its parts."""
    html = wec.render_board(context)
    parser = _Balanced()
    parser.feed(html)
    parser.close()
    assert not parser.stack, parser.stack
    assert "<b>" not in html and TRICKY not in html
    assert html.strip().startswith('<section id="board"') and html.strip().endswith("</section>")
    if not context.get("review"):
        assert isinstance(html, boardpatch.CutHTML) and html.cut is not None  # the live board's parts


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
def test_boards_of_played_games_render(alice, bob, lang, competitive, ids_never_repeat):
    """Random games through the site; every board the views render is
    checked for its parts (tests/site/conftest.py), and each board context
    once more here, in the player's language."""
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
            _sound(context)
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
def test_made_up_contexts_render(game, alice, lang):
    rng = random.Random(5)
    with translation.override(lang):
        seat = selectors.seat_by_color(game, "black")
        base = wec.board_context(SimpleNamespace(user=alice), game, seat)
        for ctx in _contexts(base, rng):
            _sound(ctx)
