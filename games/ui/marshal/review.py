"""An ended Marshal game's replay: the true board after a chosen turn."""

from __future__ import annotations

from games.engines import get_engine
from games.models import GameAction, Snapshot


def replay_state(game, at: int) -> dict:
    """A view-shaped dict of the true board once `at` turns were finished
    (0: both armies set up, nothing moved).  Only for ended games (the
    caller checks): it shows every type."""
    engine = get_engine(game.engine)
    first = Snapshot.objects.filter(game=game).order_by("seq").first()
    state = engine.load_scenario(first.state)
    for entry in GameAction.objects.filter(game=game, seq__gt=first.seq).order_by("seq"):
        if state.phase == "play" and len(state.log) >= at:
            break
        state = engine.apply(state, entry.action)
    doc = engine.dump_scenario(state)
    return {
        "options": doc["options"] if "columns" in doc["options"] else engine.view(state, "black")["options"],
        "volcanoes": doc.get("volcanoes", []),
        "pieces": [
            {"color": p["color"], "type": p["type"], "row": p["row"], "col": p["col"], "revealed": p.get("revealed", False)}
            for p in doc["pieces"]
        ],
    }
