"""The AI task plays at the level stored for the game (its `ai_level` field;
older games may carry it in their options), one search per Turn within the
think-time limit, and stays idempotent per game and Turn."""

from __future__ import annotations

import pytest

from games import services, tasks
from games.models import Game, GameAction

pytestmark = pytest.mark.django_db(transaction=True)


def test_level_read_defensively():
    g = Game(options={})
    assert tasks.ai_level(g) == "easy"
    g.options = {"ai_level": "hard"}
    assert tasks.ai_level(g) == "hard"
    g.options = {"ai_level": "<script>"}
    assert tasks.ai_level(g) == "easy"


def test_ai_task_plays_a_normal_level_turn(alice, monkeypatch, settings):
    import games.rules.wec.search as search

    settings.WEC_AI_THINK_SECONDS = 0.5
    calls = []
    real = search.choose_turn

    def spy(state, level, seed, budget_s=None, max_nodes=None):
        calls.append((level, budget_s))
        return real(state, level, seed, budget_s=budget_s, max_nodes=max_nodes)

    monkeypatch.setattr(search, "choose_turn", spy)
    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    game = services.create_game(creator=alice, opponent="ai", color="white", ai_level="normal")
    made = tasks.play_ai_turn(game.pk)
    game.refresh_from_db()
    assert made >= 2 and game.to_move == "white"
    assert calls == [("normal", 0.5)]  # one search for the whole Turn
    kinds = [a["type"] for a in GameAction.objects.filter(game=game).values_list("action", flat=True)]
    assert kinds.count("move") == 1 and kinds[-1] == "end_turn"
    assert tasks.play_ai_turn(game.pk) == 0  # not its turn: does nothing


def test_the_new_game_form_offers_every_level_and_refuses_others(client, alice, monkeypatch):
    from django.urls import reverse

    monkeypatch.setattr(tasks.play_ai_turn, "delay", lambda gid: None)
    client.force_login(alice)
    page = client.get(reverse("home")).content.decode()
    for level in ("easy", "normal", "hard"):
        assert f'value="{level}"' in page
    client.post(reverse("new_game"), {"opponent": "ai", "color": "black", "ai_level": "hard"})
    assert Game.objects.latest("pk").ai_level == "hard"
    before = Game.objects.count()
    response = client.post(reverse("new_game"), {"opponent": "ai", "color": "black", "ai_level": "godlike"})
    assert response.status_code < 500 and Game.objects.count() == before
