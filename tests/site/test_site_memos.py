"""The memos and kept objects a submit and a board render use give the
same answers as the long way (games/ui/wec/highlights.py,
games/ui/wec/board.py, games/ui/wec/actions.py, games/store/states.py,
games/urlmemo.py), and the render cache on Django's own Redis backend."""

from __future__ import annotations

import json
import sys

import pytest
from django.db import connection
from django.urls import reverse
from long_way import positions, signature_long_way

from games import urlmemo
from games.rules import wec as engine_module
from games.store import render_cache
from games.store import states as state_store
from games.ui.wec import actions, board, highlights


def test_signature_with_the_players_memo_is_the_signature():
    owner = (-1, "test", "black")
    highlights._SIG_MEMOS.get(owner).clear()
    for state in positions(3, 120):
        for color in ("black", "white"):
            view = engine_module.view(state, color, history=False)
            expected = signature_long_way(view)
            scratch: dict = {}
            assert highlights.signature(view) == expected
            assert highlights.signature(view, owner=(-1, "test", color), scratch=scratch) == expected
            assert scratch["squares"] == highlights._squares(view)
            assert highlights.signature(view, squares=scratch["squares"]) == expected


def _normalise_long_way(action):
    """actions.normalise_action as it was written before its fast path (its
    first half, the recursion; the defaults are the same function)."""

    def norm(value):
        if isinstance(value, (list, tuple)):
            return [norm(v) for v in value]
        if isinstance(value, dict):
            return {str(k): norm(v) for k, v in value.items() if v is not None}
        return value

    return actions.canonical_defaults(norm(action))


def test_normalised_actions_are_as_before():
    for state in positions(4, 80):
        for action in engine_module.legal_actions(state):
            for form in (action, json.loads(json.dumps(action))):
                assert repr(actions.normalise_action(form)) == repr(_normalise_long_way(form))
    odd = [
        {"type": "move", 1: (1, 2, None), "x": None, "carry": False},
        [(1,), {"a": None}],
        {"type": "fire", "to": (1, 2), "doze": [[3, 2], [1, 2]]},
        "text",
        3,
    ]
    for form in odd:
        assert repr(actions.normalise_action(form)) == repr(_normalise_long_way(form))


def test_a_squares_memo_key_is_its_items_equality():
    """Equal raw items give equal keys whatever objects hold them (interned
    or read from JSON); unequal ones unequal keys."""
    piece = {"type": "tank", "color": "black", "row": 1, "col": 1, "level": "ground", "articles": [], "stun": 0}
    raw = {"pieces": [piece], "articles": [], "markers": [], "projectiles": [], "reinf": []}
    same = json.loads(json.dumps(raw))
    assert same["pieces"][0]["type"] is not sys.intern("tank")
    assert board._raw_key(raw) == board._raw_key(same)
    for change in ({"stun": 1}, {"stun": True}, {"stun": 0.0}, {"articles": ["x"]}, {"level": "air"}):
        other = json.loads(json.dumps(raw))
        other["pieces"][0].update(change)
        assert board._raw_key(other) != board._raw_key(raw), change
    odd = dict(raw, pieces=[dict(piece, type=type("S", (str,), {})("tank"))])
    assert board._raw_key(odd) == repr(odd)  # what marshal does not take falls back to repr


@pytest.mark.django_db
def test_state_rows_text_is_the_document():
    states = positions(5, 60)
    for state in states:
        doc = engine_module.dump_scenario(state, history=False)
        text = state_store.state_json(-5, doc)
        assert json.loads(text) == doc
        with connection.cursor() as cursor:
            cursor.execute("SELECT %s::jsonb = %s::jsonb", [text, json.dumps(doc)])
            assert cursor.fetchone()[0]
    # Another start under the same game id is not given the kept one's text.
    doc = engine_module.dump_scenario(states[-1], history=False)
    doc["start"] = dict(doc["start"], to_move="white" if doc["start"].get("to_move") == "black" else "black")
    assert json.loads(state_store.state_json(-5, doc)) == doc


def test_the_render_cache_is_djangos_redis_cache(settings):
    from django.core.cache.backends.redis import RedisCache

    cache = render_cache.cache()
    assert type(cache) is RedisCache
    cache.set("perf5-shortcut", {"x": 1}, 30)
    assert cache.get("perf5-shortcut") == {"x": 1}
    cache.delete("perf5-shortcut")


def test_kept_urls_are_reverse():
    assert urlmemo.url("help") == reverse("help")
    for name in ("game_board", "game_act", "game_clocks", "resign", "draw", "take_back", "export_record"):
        assert urlmemo.url(name, 7) == reverse(name, args=[7])
        assert urlmemo.url(name, 7) == reverse(name, args=[7])  # kept
