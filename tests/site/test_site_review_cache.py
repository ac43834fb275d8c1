"""Each step of an ended game's review is rendered once and kept (games.pages.review)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import selectors, services
from games.engines import get_engine
from games.models import Game
from games.pages import review as review_page
from games.store import render_cache
from games.ui.wec import review

pytestmark = pytest.mark.django_db


def _finished(game, alice, bob, turns=3):
    engine = get_engine()
    players = {"black": alice, "white": bob}
    for _ in range(turns):
        g = Game.objects.get(pk=game.pk)
        state = selectors.load_state(g)
        who = engine.to_move(state)
        services.submit_action(g.pk, players[who], next(a for a in engine.legal_actions(state) if a["type"] == "move"))
        services.submit_action(g.pk, players[who], {"type": "end_turn"})
    services.resign(game.pk, bob)
    return selectors.get_game(game.pk)


def test_precompute_renders_every_step_once_and_the_endpoint_serves_it(client, game, alice, bob, monkeypatch):
    game = _finished(game, alice, bob)
    steps = len(selectors.replay_frames(game))
    assert steps == 4
    assert review_page.precompute(game.pk) == 2 * steps
    assert review_page.precompute(game.pk) == 0  # already there
    # The endpoint now renders nothing: a step comes from the cache as it is.
    seat = selectors.seat_for(game, alice)
    cached = render_cache.cache().get(review_page.review_key(game, seat, 2))
    calls = []
    monkeypatch.setattr(review_page, "render_to_string", lambda *a, **k: calls.append(a) or "")
    client.force_login(alice)
    response = client.get(reverse("game_replay", args=[game.pk]), {"at": 2}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and response.content.decode() == cached and not calls
    assert 'data-at="2"' in cached and 'data-board="truth"' in cached
    # Out-of-range steps share the end's (or the start's) entry.
    assert client.get(reverse("game_replay", args=[game.pk]), {"at": 99}).content.decode() == (
        render_cache.cache().get(review_page.review_key(game, seat, steps - 1))
    )


def test_a_step_rendered_on_demand_matches_the_precomputed_one(client, game, alice, bob):
    game = _finished(game, alice, bob)
    client.force_login(bob)
    url = reverse("game_replay", args=[game.pk])
    on_demand = client.get(url, {"at": 1}).content.decode()
    seat = selectors.seat_for(game, bob)
    render_cache.cache().delete(review_page.review_key(game, seat, 1))
    review._CACHE.clear()
    review._SUMMARIES.clear()
    review_page.precompute(game.pk)
    assert client.get(url, {"at": 1}).content.decode() == on_demand


def test_no_review_cache_before_the_end(game, alice):
    assert review_page.precompute(game.pk) == 0
