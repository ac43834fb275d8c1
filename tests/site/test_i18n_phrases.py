"""Language problems a catalogue cannot fix: level words with their
own context, whole-phrase piece tooltips, translatable shipped scenarios and
result reasons, and the plain-words record in the reader's language."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from django.urls import reverse
from django.utils import translation

from games import selectors, services
from games.models import Game
from games.ui.wec import selectors as wec_selectors
from games.ui.wec.record import translated_line
from games.ui.wec.scenario_text import SHIPPED
from games.ui.wec.words import level_name, piece_name, piece_title, reason_name


def test_the_sub_level_and_the_sub_piece_are_told_apart():
    with translation.override("de"):
        assert str(level_name("sub")) == "Sub" and str(piece_name("sub")) == "U-Boot"
    with translation.override("ru"):
        assert str(level_name("sub")) == "глубина" and str(piece_name("sub")) == "Подлодка"


def test_describe_action_names_the_level_in_the_readers_language():
    action = {"type": "move", "from": [1, 1, "ground"], "to": [3, 4, "air"]}
    with translation.override("ru"):
        label = wec_selectors.describe_action(action)
    assert "воздух" in label and "air" not in label
    with translation.override("en"):
        assert wec_selectors.describe_action(action) == "move to 3,4 (air)"


def test_piece_tooltips_are_whole_phrases():
    piece = {"color": "white", "type": "chopper", "hand": "left", "articles": ["bike"], "badges": []}
    with translation.override("ru"):
        title = piece_title(piece)
    assert title.startswith("Вертолёт белых (левый)") and "Мотоцикл" in title and "left" not in title
    with translation.override("en"):
        assert piece_title(piece) == "White Chopper (left-hand), carrying Bike"
        assert piece_title({"color": "black", "type": "tank"}) == "Black Tank"


def test_shipped_scenarios_and_result_reasons_are_translated():
    with translation.override("de"):
        assert str(SHIPPED["standard"][0]) == "Das Standardspiel"
        assert reason_name("agreement") == "Remis nach Vereinbarung"
    with translation.override("en"):
        assert reason_name("agreement") == "agreed draw"


def test_record_lines_in_other_languages_and_english_unchanged():
    line = "Black Tank (2,1) moved to (5,1); fired its Flamer north, destroying White Flamer Pawn (6,1)."
    with translation.override("en"):
        assert translated_line(line) == line
    with translation.override("ru"):
        ru = translated_line(line)
    assert ru == ("Танк чёрных (2,1): перемещение на (5,1); выстрел: Огнемёт, на север, "
                  "уничтожение: Огнемётная пешка белых (6,1).")
    with translation.override("de"):
        assert translated_line("Something the engine never wrote.") == "Something the engine never wrote."


@pytest.mark.django_db
def test_the_game_page_shows_the_record_in_the_users_language(client, game, alice, engine, first_move):
    state = selectors.load_state(game)
    services.submit_action(game.pk, alice, first_move(state), expected_seq=0)
    services.submit_action(game.pk, alice, {"type": "end_turn"}, expected_seq=1)
    english = engine.plain_history(selectors.load_state(Game.objects.get(pk=game.pk)), "black")
    client.force_login(alice)

    def record() -> list[str]:
        body = htmllib.unescape(client.get(reverse("game_detail", args=[game.pk])).content.decode())
        plain = re.search(r"<ol class=\"hist-plain\"[^>]*>(.*?)</ol>", body, re.S).group(1)
        return re.findall(r"<li>(.*?)</li>", plain), body

    lines, _body = record()
    assert lines == english
    client.post(reverse("set_language"), {"language": "ru", "next": "/"})
    lines, body = record()
    assert len(lines) == 1 and "перемещение на" in lines[0] and "moved to" not in lines[0]
    assert ">Глубина</button>" in body


def test_the_engines_position_errors_are_told_in_the_users_language():
    from games.ui.wec.scenario_text import ScenarioTextError, check, parse

    with translation.override("ru"), pytest.raises(ScenarioTextError) as err:
        check(parse("piece black tank 5 5\npiece white tank 5 5 air"))
    assert err.value.square == (5, 5)
    assert err.value.message == "Танк: здесь (воздух) можно стоять, только если фигуру несёт Вертолёт своей стороны."
    with translation.override("en"), pytest.raises(ScenarioTextError) as err:
        check(parse("piece black tank 5 5\n" * 3))
    assert err.value.message == "3 pieces on one level (ground); a level of a Square holds at most 2."
