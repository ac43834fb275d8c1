"""An ended Marshal game's replay: the true board at a step of its review."""

from __future__ import annotations

from games import selectors
from games.engines import get_engine


def replay_state(game, seq: int) -> dict:
    """A view-shaped dict of the true board after action `seq` (a frame of
    selectors.replay_frames).  Only for ended games (the caller checks): it
    shows every type."""
    engine = get_engine(game.engine)
    state = selectors.load_state(game, upto=seq)
    doc = engine.dump_scenario(state)
    return {
        "options": doc["options"] if "columns" in doc["options"] else engine.view(state, "black")["options"],
        "volcanoes": doc.get("volcanoes", []),
        "pieces": [
            {"color": p["color"], "type": p["type"], "row": p["row"], "col": p["col"], "revealed": p.get("revealed", False)}
            for p in doc["pieces"]
        ],
    }
