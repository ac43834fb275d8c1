"""'Changed since you last looked': the Squares that differ between
the board a player was shown before and the one shown now, kept per Seat from
nothing but what that player was served, sent beside the cached board partial
(out of band) so the cache stays one entry per view version."""

import html as htmllib
import json
import re

import pytest
from django.urls import reverse

from games import selectors, services
from games.models import Game, Seat
from games.ui.wec import highlights

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}

SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False, "reinforcements": "none"},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1, "id": 11},
        {"type": "tank", "color": "black", "row": 3, "col": 5, "hand": "right", "id": 12},
        {"type": "king", "color": "white", "row": 10, "col": 10, "id": 21},
        {"type": "tank", "color": "white", "row": 8, "col": 3, "hand": "right", "id": 22},
    ],
}


@pytest.fixture
def tgame(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black", scenario=SCENARIO)


def play(user, game, action):
    game = Game.objects.get(pk=game.pk)
    services.submit_action(game.pk, user, action, expected_seq=game.seq)


def king_move(game, frm):
    from games.engines import get_engine

    state = selectors.load_state(Game.objects.get(pk=game.pk))
    return next(a for a in get_engine().legal_actions(state)
                if a["type"] == "move" and a["from"][:2] == frm and a["to"][:2] != frm)


def since(html_text):
    """(the Squares of the #since-last element, its text), or None without one."""
    m = re.search(r'<div id="since-last" hidden data-squares="([^"]*)" data-text="([^"]*)"', html_text)
    if m is None:
        return None
    squares = {tuple(int(x) for x in key.split("-")) for key in m.group(1).split()}
    return squares, htmllib.unescape(m.group(2))


def board_part(html_text):
    """The #board section alone (what the render cache holds, CSRF aside)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html_text.split("</section>\n", 1)[0])


def fetch(client, game, **params):
    response = client.get(reverse("game_board", args=[game.pk]), params, **HX)
    assert response.status_code == 200
    return response


def test_the_enemy_turn_is_outlined_once_the_player_comes_back(client, tgame, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("game_detail", args=[tgame.pk])).content.decode()
    assert since(page) == (set(), "")  # the first look: nothing to compare with
    play(alice, tgame, king_move(tgame, [1, 1]))
    play(alice, tgame, {"type": "end_turn"})
    # Alice's own actions were made through the services here, so her next
    # look at the board shows her King's step as well as anything of White's.
    first = fetch(client, tgame)
    squares, text = since(first.content.decode())
    assert (1, 1) in squares and len(squares) == 2
    assert "2 squares changed since you last looked at this board: (" in text
    # White's King steps and White ends the Turn, while Alice is away.
    play(bob, tgame, king_move(tgame, [10, 10]))
    play(bob, tgame, {"type": "end_turn"})
    back = fetch(client, tgame)
    body = back.content.decode()
    squares, text = since(body)
    assert (10, 10) in squares and len(squares) == 2 and (1, 1) not in squares
    assert 'hx-swap-oob="true"' in body.split('<div id="since-last"', 1)[1].split(">", 1)[0]
    # The same version again (a refresh, a second tab, selecting a piece):
    # the same Squares, from the render cache.
    again = fetch(client, tgame)
    assert again["X-Wec-Board-Cache"] == "hit"
    assert since(again.content.decode()) == (squares, text)
    assert board_part(again.content.decode()) == board_part(body)
    selected = fetch(client, tgame, sel="3-5-ground").content.decode()
    assert since(selected) == (squares, text)
    # The whole page says so in words in the board's header, and the legend
    # explains the outline.
    page = htmllib.unescape(client.get(reverse("game_detail", args=[tgame.pk])).content.decode())
    assert f'id="since-last-text"><span class="hl-key seen" aria-hidden="true"></span>{text}</p>' in page
    assert "Dashed green outline: changed since you last looked" in page
    # The cached board itself never carries them.
    assert "hl-seen" not in body and 'id="since-last-text" hidden>' in body


def test_the_players_own_action_is_not_news(client, tgame, alice):
    client.force_login(alice)
    client.get(reverse("game_detail", args=[tgame.pk]))
    seat = selectors.seat_for(Game.objects.get(pk=tgame.pk), alice)
    response = client.post(reverse("game_act", args=[tgame.pk]),
                           {"action": json.dumps(king_move(tgame, [1, 1])), "version": seat.version}, **HX)
    assert response.status_code == 200
    assert since(response.content.decode()) == (set(), "")
    # A refused action (a stale version) answers with the board as it is and
    # its changes since the last look: here none.
    response = client.post(reverse("game_act", args=[tgame.pk]),
                           {"action": json.dumps({"type": "end_turn"}), "version": seat.version}, **HX)
    assert response.status_code == 409 and since(response.content.decode()) == (set(), "")


def test_it_depends_only_on_what_the_player_was_shown(client, game, alice, bob, engine):
    """White's view does not change when Black's stealthed AAA moves: Bob's
    'since you last looked' stays empty and his Seat's record is unchanged."""
    client.force_login(bob)
    client.get(reverse("game_detail", args=[game.pk]))
    before = Seat.objects.get(game=game, color="white").seen
    version = Seat.objects.get(game=game, color="white").version
    state = selectors.load_state(Game.objects.get(pk=game.pk))
    aaa = next(p["id"] for p in engine.view(state, "black")["pieces"] if p["type"] == "aaa" and p["col"] == 3)
    move = next(a for a in engine.legal_actions(state)
                if a["type"] == "move" and a["piece"] == aaa and a["to"] == [3, 4, "ground"])
    services.submit_action(game.pk, alice, move, expected_seq=0)
    assert Seat.objects.get(game=game, color="white").version == version  # nothing White can see changed
    assert since(fetch(client, game).content.decode()) == (set(), "")
    assert Seat.objects.get(game=game, color="white").seen == before
    # The signature is the player's own view's, Square by Square.
    view = engine.view(selectors.load_state(Game.objects.get(pk=game.pk)), "white")
    assert before["sig"] == highlights.signature(view)


def test_signatures_name_exactly_the_changed_squares():
    a = {"pieces": [{"color": "black", "type": "king", "row": 1, "col": 1}],
         "articles": [{"type": "bike", "row": 2, "col": 3}]}
    b = {"pieces": [{"color": "black", "type": "king", "row": 1, "col": 2}],
         "articles": [{"type": "bike", "row": 2, "col": 3}]}
    assert highlights.signature_changes(highlights.signature(a), highlights.signature(b)) == [[1, 1], [1, 2]]
    assert highlights.signature_changes(highlights.signature(a), highlights.signature(a)) == []
    assert highlights.signature_changes("", highlights.signature(a)) == [[1, 1], [2, 3]]
    assert sorted(map(tuple, highlights.signature_changes(highlights.signature(a), highlights.signature(b)))) == \
        sorted(highlights.changed_squares(a, b))


def test_a_finished_game_has_none(client, tgame, alice, bob):
    client.force_login(alice)
    client.get(reverse("game_detail", args=[tgame.pk]))
    services.resign(tgame.pk, bob)
    assert since(fetch(client, tgame).content.decode()) == (set(), "")
