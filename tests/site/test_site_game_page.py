"""The game page: direction words agree between buttons and the record
for both colours, Fires that may hit one's own pieces ask first, End Turn asks
first, a Dozer's Moves are offered once each, the tab title, the help page."""

import html as htmllib
import json
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game
from games.ui.wec import panels
from games.ui.wec import selectors as wec_selectors

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}

SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False, "reinforcements": "none"},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1, "id": 11},
        {"type": "tank", "color": "black", "row": 3, "col": 5, "hand": "right", "id": 12},
        {"type": "dozer", "color": "black", "row": 4, "col": 6, "id": 13},
        {"type": "jet", "color": "black", "row": 2, "col": 8, "level": "air", "id": 14},
        {"type": "dozer", "color": "black", "row": 2, "col": 8, "id": 15},
        {"type": "king", "color": "white", "row": 10, "col": 10, "id": 21},
        {"type": "tank", "color": "white", "row": 8, "col": 3, "hand": "right", "id": 22},
    ],
}


@pytest.fixture
def tgame(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black", scenario=SCENARIO)


def board(client, game, **params):
    response = client.get(reverse("game_board", args=[game.pk]), params, **HX)
    assert response.status_code == 200
    return response.content.decode()


FORM_RE = re.compile(r'<form ([^>]*)>\s*<input type="hidden" name="csrfmiddlewaretoken"[^>]*>\s*'
                     r'<input type="hidden" name="action" value="([^"]*)">.*?<button type="submit"([^>]*)>(.*?)</button>',
                     re.S)


def forms(html_text):
    """[(form attributes, action, button label)] for every action form of a page."""
    out = []
    for form_attrs, value, attrs, text in FORM_RE.findall(html_text):
        label = re.search(r'aria-label="([^"]*)"', attrs)
        out.append((htmllib.unescape(form_attrs), json.loads(htmllib.unescape(value)),
                    htmllib.unescape(label.group(1) if label else text).strip()))
    return out


def fire_button(html_text, direction):
    for form_attrs, action, label in forms(html_text):
        if action.get("type") == "fire" and action.get("weapon") == "flamer" and action.get("direction") == direction:
            return form_attrs, label
    raise AssertionError(f"no Flamer button for {direction}")


def plain_record(client, game):
    html = htmllib.unescape(client.get(reverse("game_detail", args=[game.pk])).content.decode())
    plain = re.search(r'<ol class="hist-plain"[^>]*>(.*?)</ol>', html, re.S).group(1)
    return re.findall(r"<li>(.*?)</li>", plain)


def play(user, game, action):
    game = Game.objects.get(pk=game.pk)
    services.submit_action(game.pk, user, action, expected_seq=game.seq)


def a_move(game, frm):
    state = selectors.load_state(Game.objects.get(pk=game.pk))
    from games.engines import get_engine

    return next(a for a in get_engine().legal_actions(state) if a["type"] == "move" and a["from"][:2] == frm)


def test_direction_words_agree_between_buttons_and_record_for_both_colours(client, tgame, alice, bob):
    # Black fires forward (towards row 10): the button says north, and so does Black's record.
    client.force_login(alice)
    _attrs, label = fire_button(board(client, tgame, sel="3-5-ground"), [1, 0])
    assert label == "Fire Flamer \u2191 north"
    play(alice, tgame, {"type": "fire", "from": [3, 5, "ground"], "piece": 12, "weapon": "flamer", "direction": [1, 0]})
    play(alice, tgame, a_move(tgame, [1, 1]))
    play(alice, tgame, {"type": "end_turn"})
    black_line = plain_record(client, tgame)[0]
    assert "Flamer north" in black_line and "south" not in black_line

    # White fires forward too (towards row 1): White's board is turned, so the
    # button says north, and White's own record must say north as well.
    client.force_login(bob)
    _attrs, label = fire_button(board(client, tgame, sel="8-3-ground"), [-1, 0])
    assert label == "Fire Flamer \u2191 north"
    _attrs, label_east = fire_button(board(client, tgame, sel="8-3-ground"), [0, -1])
    assert label_east == "Fire Flamer \u2192 east"  # towards column 1: right on White's screen
    play(bob, tgame, {"type": "fire", "from": [8, 3, "ground"], "piece": 22, "weapon": "flamer", "direction": [-1, 0]})
    play(bob, tgame, a_move(tgame, [10, 10]))
    play(bob, tgame, {"type": "end_turn"})
    white_lines = plain_record(client, tgame)
    assert "Flamer north" in white_lines[-1] and "south" not in white_lines[-1]
    # Black's own turn as White reads it: Black's forward is down on White's screen.
    assert "Flamer south" in white_lines[0]
    # And Black reads White's Fire as going south (down Black's screen).
    client.force_login(alice)
    assert "Flamer south" in plain_record(client, tgame)[-1]
    # The notation itself keeps the manual's machine coordinates for both.
    engine_lines = selectors.history_lines(Game.objects.get(pk=tgame.pk), selectors.load_state(Game.objects.get(pk=tgame.pk)), "white")["notation"]
    assert "north" not in " ".join(engine_lines) and "south" not in " ".join(engine_lines)


def test_a_fire_that_may_hit_an_own_piece_needs_confirmation(client, tgame, alice):
    client.force_login(alice)
    html = board(client, tgame, sel="3-5-ground")
    # North-east of the Tank the Flamer's first Square holds the own Dozer (4,6).
    attrs, label = fire_button(html, [1, 1])
    assert "data-confirm=" in attrs and "Dozer (4,6)" in attrs, attrs
    # Straight north there is nothing of ours: no question asked.
    attrs, _label = fire_button(html, [1, 0])
    assert "data-confirm" not in attrs
    # The same on the board in aiming mode.
    aim = board(client, tgame, sel="3-5-ground", mode="aim", weapon="flamer", piece=12)
    own = [a for a, act, _l in forms(aim) if act.get("direction") == [1, 1]]
    assert own and "data-confirm=" in own[0]
    clear = [a for a, act, _l in forms(aim) if act.get("direction") == [1, 0]]
    assert clear and "data-confirm" not in clear[0]


def test_restricted_rocket_at_an_own_piece_is_offered_with_confirmation(client, tgame, alice):
    """Ruling (docs/rulings.md, 'Restricted Rocket at an own Piece'): legal, but confirmed."""
    client.force_login(alice)
    html = board(client, tgame, sel="2-8-air")
    rockets = [(a, act) for a, act, _l in forms(html) if act.get("weapon") == "jet_rocket"]
    assert rockets, "the Jet's restricted Rocket at the own Dozer below is legal"
    assert all(act["target"] == [2, 8, "ground"] for _a, act in rockets)
    assert all("data-confirm=" in a for a, _act in rockets)


def test_own_piece_fire_goes_through_once_confirmed(client, tgame, alice):
    """The confirmation is the page's; the act endpoint accepts the legal Fire."""
    client.force_login(alice)
    game = Game.objects.get(pk=tgame.pk)
    seat = selectors.seat_for(game, alice)
    action = {"type": "fire", "from": [3, 5, "ground"], "piece": 12, "weapon": "flamer", "direction": [1, 1]}
    response = client.post(reverse("game_act", args=[game.pk]),
                           {"action": json.dumps(action), "version": seat.version}, **HX)
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).seq == game.seq + 1


def test_end_turn_asks_for_confirmation(client, tgame, alice):
    client.force_login(alice)
    play(alice, tgame, a_move(tgame, [1, 1]))
    html = board(client, tgame)
    form = re.search(r'<form ([^>]*end-turn-form[^>]*)>', html).group(1)
    assert "data-confirm=" in form


def test_a_dozer_move_is_offered_once():
    move = {"type": "move", "piece": 13, "from": [4, 6, "ground"], "to": [5, 6, "ground"]}
    dozing = dict(move, doze=[])
    pushing = dict(move, doze=[[5, 6]])
    assert wec_selectors.action_fingerprint(move) == wec_selectors.action_fingerprint(dozing)
    assert wec_selectors.action_fingerprint(move) != wec_selectors.action_fingerprint(pushing)
    assert len(list(panels._unique([move, dozing, pushing]))) == 2


def test_dozer_move_choices_listed_once_on_the_page(tgame, alice):
    game = Game.objects.get(pk=tgame.pk)
    state = selectors.load_state(game)
    from games.engines import get_engine

    legal = get_engine().legal_actions(state)
    doubled = legal + [dict(a, doze=[]) for a in legal if a["type"] == "move" and "doze" not in a]
    options = wec_selectors.move_options(game, "black", 4, 6, "ground", state=state, legal=doubled)
    for choices in options.targets.values():
        fingerprints = [wec_selectors.action_fingerprint(c.action) for c in choices]
        assert len(fingerprints) == len(set(fingerprints))


def test_tab_title_says_your_turn_and_the_opponent(client, tgame, alice, bob):
    client.force_login(alice)
    html = htmllib.unescape(client.get(reverse("game_detail", args=[tgame.pk])).content.decode())
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "Your turn" in title and "bob" in title
    client.force_login(bob)
    html = htmllib.unescape(client.get(reverse("game_detail", args=[tgame.pk])).content.decode())
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "Your turn" not in title and "alice" in title


def test_help_page_has_every_piece_article_and_action(client):
    from games.ui.wec.words import ARTICLES, PIECES

    response = client.get(reverse("help"))
    assert response.status_code == 200
    html = response.content.decode()
    for kind in PIECES:
        assert f'id="piece-{kind}"' in html and f'id="p-{kind}"' in html
    for kind in ARTICLES:
        assert f'id="article-{kind}"' in html and f'id="a-{kind}"' in html
    for key in ("move", "fire", "pickup", "drop", "exchange", "reinforce", "end_turn"):
        assert f'id="action-{key}"' in html
    assert 'id="keyboard"' in html and 'id="notation"' in html and 'id="options"' in html
    assert "style=" not in html and "<script>" not in html  # the CSP allows neither


def test_game_page_links_to_help_and_explains_markers(client, tgame, alice):
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[tgame.pk])).content.decode()
    assert reverse("help") in html
    assert "◆" in html and "marker" in html.lower()
    assert "style=" not in html


def squares_with(html_text, cls):
    return {(int(r), int(c)) for r, c in re.findall(
        rf'<div class="sq [^"]*\b{cls}\b[^"]*" role="gridcell" data-row="(\d+)" data-col="(\d+)"', html_text)}


def test_highlights_show_the_enemy_turn_and_own_actions(client, tgame, alice, bob):
    client.force_login(alice)
    assert squares_with(board(client, tgame), "hl-own") == set()
    play(alice, tgame, a_move(tgame, [1, 1]))
    own = squares_with(board(client, tgame), "hl-own")
    assert (1, 1) in own and len(own) == 2  # where the King left and where it went
    play(alice, tgame, {"type": "end_turn"})
    # White's Move: Black sees White's King step (from (10,10)).
    play(bob, tgame, a_move(tgame, [10, 10]))
    play(bob, tgame, {"type": "end_turn"})
    html = board(client, tgame)
    enemy = squares_with(html, "hl-enemy")
    assert (10, 10) in enemy and len(enemy) == 2
    assert squares_with(html, "hl-own") == set()
    # White, waiting after its own turn, has nothing new from the enemy to see.
    client.force_login(bob)
    white = board(client, tgame)
    assert squares_with(white, "hl-enemy") == set() and squares_with(white, "hl-own") == set()


def test_review_three_boards_knowledge_and_shareable_turn(client, tgame, alice, bob):
    play(alice, tgame, a_move(tgame, [1, 1]))
    play(alice, tgame, {"type": "end_turn"})
    play(bob, tgame, a_move(tgame, [10, 10]))
    play(bob, tgame, {"type": "end_turn"})
    services.resign(tgame.pk, alice)
    client.force_login(alice)
    html = client.get(reverse("game_detail", args=[tgame.pk])).content.decode()
    for which in ("truth", "black", "white"):
        assert f'data-board="{which}"' in html
    assert '<polyline class="pl pl-mat-black"' in html and 'id="replay-share"' in html
    # A shared link opens that Turn.
    html = client.get(reverse("game_detail", args=[tgame.pk]), {"at": 1}).content.decode()
    assert 'id="replay-at" name="at" min="0" max="2" value="1"' in html
    # The knowledge boards are each side's own view: Black's board after turn 1
    # shows its King moved, and the truth shows both sides.
    part = html.split('data-board="black"', 1)[1].split('data-board="white"', 1)[0]
    assert 'data-row="1" data-col="2"' in part or 'data-row="2" data-col="1"' in part or 'data-row="2" data-col="2"' in part
    # Out of range or junk: clamped or ignored, never an error.
    assert client.get(reverse("game_detail", args=[tgame.pk]), {"at": "99"}).status_code == 200
    assert client.get(reverse("game_detail", args=[tgame.pk]), {"at": "x"}).status_code == 200
