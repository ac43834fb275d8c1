"""The point-and-click board editor: each click posts the text and the
palette, and the editor comes back with the changed text, checked by the
engine (its complaint shown at the Square it names)."""

import pytest
from django.urls import reverse

from games.ui.wec import board_editor, scenario_text

pytestmark = pytest.mark.django_db

SMALL = "to_move black\npiece black king 1 1\npiece white king 10 10\n"


def _click(client, text, square, htmx=True, **palette):
    data = {"text": text, "square": square, **palette}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(reverse("scenario_editor"), data, **headers)


def _text(response) -> str:
    html = response.content.decode()
    start = html.index('id="scenario-text"')
    start = html.index(">", start) + 1
    import html as html_lib

    return html_lib.unescape(html[start:html.index("</textarea>", start)])


def test_place_move_and_remove_by_clicks(client, alice):
    client.force_login(alice)
    r = _click(client, SMALL, "3,3", tool="place", kind="piece", piece="tank", color="black", level="ground", hand="left")
    assert r.status_code == 200
    text = _text(r)
    assert "piece black tank 3 3 ground hand=left" in text
    assert 'id="editor"' in r.content.decode() and "<html" not in r.content.decode()  # only the editor comes back
    assert "The engine accepts this position." in r.content.decode()
    # An Article and a reinforcement.
    text = _text(_click(client, text, "4,4", tool="place", kind="article", article="bike"))
    text = _text(_click(client, text, "8,1", tool="place", kind="reinforcement", piece="jet", color="white"))
    assert "article bike 4 4" in text and "reinforcement white jet 8 1" in text
    # Pick the Tank up, then put it down elsewhere.
    r = _click(client, text, "3,3", tool="move")
    assert 'name="held" value="pieces:2"' in r.content.decode()
    r = _click(client, _text(r), "5,6", tool="move", held="pieces:2")
    text = _text(r)
    assert "piece black tank 5 6 ground hand=left" in text and "tank 3 3" not in text
    # Remove the Article.
    text = _text(_click(client, text, "4,4", tool="remove"))
    assert "article bike" not in text
    doc = scenario_text.parse(text)
    scenario_text.check(doc)


def test_engine_errors_show_at_their_square(client, alice):
    client.force_login(alice)
    text = SMALL
    for _ in range(2):
        text = _text(_click(client, text, "5,5", tool="place", kind="piece", piece="tank", color="black"))
    r = _click(client, text, "5,5", tool="place", kind="piece", piece="tank", color="black")
    html = r.content.decode()
    assert r.status_code == 200  # the change is kept; the engine's complaint is shown
    assert "Square 5,5:" in html and 'class="ed-sq ed-error"' in html
    assert html.count("piece black tank 5 5") == 3


def test_bad_clicks_are_4xx_and_change_nothing(client, alice):
    client.force_login(alice)
    r = _click(client, SMALL, "2,2", tool="remove")
    assert r.status_code == 400 and "nothing here to remove" in r.content.decode() and _text(r) == SMALL
    r = _click(client, SMALL, "0,12", tool="place")
    assert r.status_code == 400 and _text(r) == SMALL
    r = _click(client, SMALL, "5,5", tool="move", held="pieces:99")
    assert r.status_code == 400 and _text(r) == SMALL
    r = _click(client, "piece black tank 11 1\n", "5,5")
    assert r.status_code == 400
    # Without htmx the whole page comes back (the form works without scripts).
    r = _click(client, SMALL, "2,2", htmx=False, tool="place", kind="article", article="stealth")
    assert r.status_code == 200 and "<html" in r.content.decode() and "article stealth 2 2" in _text(r)


def test_government_per_side(client, alice):
    client.force_login(alice)
    text = SMALL + "piece black queen 1 2\n"
    r = client.post(reverse("scenario_editor"), {"text": text, "what": "government", "government_black": "democracy",
                                                 "government_white": "monarchy"}, HTTP_HX_REQUEST="true")
    out = _text(r)
    assert "piece black president 1 1" in out and "piece black prime_minister 1 2" in out
    assert "piece white king 10 10" in out
    assert board_editor.government_of(scenario_text.parse(out), "black") == "democracy"


def test_square_buttons_are_labelled(client, alice):
    client.force_login(alice)
    html = client.get(reverse("scenario_editor")).content.decode()
    assert 'aria-label="Square 1,5, Black King (ground)' in html
    assert html.count('name="square"') == 100
