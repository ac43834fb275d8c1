"""Links from the board to Rules & help: every piece and Article
on the board, each weapon's Fires, each Transport's Article, the Move, Pick-up,
Drop, Exchange, Reinforce and End Turn controls link to an entry that exists
on /help/; the help page tells how to play every Action by keyboard; its
diagrams show what they say."""

import re

import pytest
from django.urls import reverse

from games import services
from games.ui.wec import help as helpdata

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}

SCENARIO = {
    "to_move": "black",
    "options": {"stealth_invisibility": False, "submersion_invisibility": False},
    "pieces": [
        {"type": "king", "color": "black", "row": 1, "col": 1, "id": 11},
        {"type": "tank", "color": "black", "row": 3, "col": 5, "hand": "right", "articles": ["bike"], "id": 12},
        {"type": "dozer", "color": "black", "row": 4, "col": 7, "articles": ["jump_pack"], "id": 13},
        {"type": "jet", "color": "black", "row": 2, "col": 8, "level": "air", "id": 14},
        {"type": "destroyer", "color": "black", "row": 2, "col": 3, "id": 15},
        {"type": "king", "color": "white", "row": 10, "col": 10, "id": 21},
        {"type": "tank", "color": "white", "row": 8, "col": 3, "hand": "right", "id": 22},
        {"type": "rocket_pawn", "color": "white", "row": 2, "col": 8, "id": 23},
    ],
    "articles": [{"type": "bike", "row": 2, "col": 3}, {"type": "flamer", "row": 6, "col": 6}],
    "reinforcements": [{"type": "cleric", "color": "black", "row": 1, "col": 4, "hand": "right", "ready": True}],
}


@pytest.fixture
def hgame(alice, bob):
    return services.create_game(creator=alice, opponent="user", username="bob", color="black", scenario=SCENARIO)


def board(client, game, **params):
    response = client.get(reverse("game_board", args=[game.pk]), params, **HX)
    assert response.status_code == 200
    return response.content.decode()


def help_ids(client) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', client.get(reverse("help")).content.decode()))


def help_links(html_text) -> list[str]:
    return re.findall(r'href="/help/#([^"]+)"', html_text)


def test_pieces_and_articles_on_the_board_link_to_their_entries(client, hgame, alice):
    client.force_login(alice)
    html = board(client, hgame)
    # The enemy's pieces (not buttons) are links; so are the Articles on the ground.
    assert '<a class="tok-link" href="/help/#piece-tank" tabindex="-1" aria-label="Rules & help: White Tank (right-hand)">' in html
    assert 'href="/help/#piece-rocket_pawn"' in html
    assert re.search(r'<a class="art" href="/help/#article-bike" tabindex="-1" title="Bike" aria-label="Rules & help: Bike">', html)
    assert 'href="/help/#article-flamer"' in html
    # The same from the whole page.
    page = client.get(reverse("game_detail", args=[hgame.pk])).content.decode()
    assert 'href="/help/#piece-tank"' in page and 'href="/help/#article-flamer"' in page


def test_every_control_links_to_an_entry_that_exists(client, hgame, alice):
    client.force_login(alice)
    ids = help_ids(client)
    seen = set()
    pages = {
        "turn": board(client, hgame),
        "tank": board(client, hgame, sel="3-5-ground"),
        "dozer": board(client, hgame, sel="4-7-ground"),
        "jet": board(client, hgame, sel="2-8-air"),
        "destroyer": board(client, hgame, sel="2-3-ground"),
    }
    for name, html in pages.items():
        for anchor in help_links(html):
            assert anchor in ids, (name, anchor)
            seen.add(anchor)
    # Transport: one link per Article, not always the Bike.
    assert "article-bike" in help_links(pages["tank"]) and "article-jump_pack" in help_links(pages["dozer"])
    assert "article-jump_pack" not in help_links(pages["tank"])
    # Fire: one per weapon; the Jet's own Rocket is told about under the Jet.
    assert "article-flamer" in help_links(pages["tank"]) and "action-fire" in help_links(pages["tank"])
    rocket = pages["jet"].split('<div class="target-group" data-weapon="jet_rocket">', 1)[1].split("</div>", 1)[0]
    assert help_links(rocket) == ["piece-jet"] and "article-jet_rocket" not in help_links(pages["jet"])
    # Move (one link per selected piece), Pick-up, Reinforce, End Turn.
    assert "action-move" in help_links(pages["tank"]) and "piece-tank" in help_links(pages["tank"])
    assert "action-pickup" in help_links(pages["destroyer"]) and "piece-destroyer" in help_links(pages["destroyer"])
    assert "action-reinforce" in help_links(pages["turn"])
    assert "action-end_turn" in help_links(pages["turn"])


def test_help_page_tells_every_action_by_keyboard(client):
    html = client.get(reverse("help")).content.decode()
    for key in ("move", "fire", "transport", "pickup", "drop", "exchange", "reinforce", "end_turn", "take_back"):
        assert f'id="keys-{key}"' in html
    for key in ("move", "fire", "pickup", "drop", "exchange", "reinforce", "end_turn"):
        assert f'href="#keys-{key}"' in html  # from each Action's entry
    assert 'href="#keys-transport"' in html
    for key in ("t", "p", "d", "x", "r", "h", "e", "u", "f", "m", "a"):
        assert f"<kbd>{key}</kbd>" in html


def cells(rows):
    return [cell for row in rows for cell in row["cells"]]


def test_help_diagrams_show_what_they_say():
    actions = {a["key"]: a for a in helpdata.action_entries()}
    # End Turn: not empty (a Rocket flies on, a Transport goes one Square on).
    assert any(c["mark"] for c in cells(actions["end_turn"]["diagram"]))
    assert any(c["mark"] == "proj" for c in cells(actions["end_turn"]["diagram"]))
    # Pick-up and Drop: the Article on the piece's own Square.
    for key, article in (("pickup", "bike"), ("drop", "flamer")):
        marked = [c for c in cells(actions[key]["diagram"]) if c["mark"] or c["article"]]
        assert len(marked) == 1 and marked[0]["mark"] == "piece" and marked[0]["article"] == article
    # The Flamer's hit marks do not hide the Article: it is drawn with its carrier.
    flamer = cells(helpdata.article_diagram("flamer"))
    assert [c["article"] for c in flamer if c["article"]] == ["flamer"]
    assert all(not c["article"] for c in flamer if c["mark"] == "hit")
    assert sum(1 for c in flamer if c["mark"] == "hit") == 2
