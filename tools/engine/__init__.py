"""Development tools for the rules engines (``games.rules.wec``, ``games.rules.marshal``).

Each is one command, run from the project's root:

* ``python -m tools.engine.bench``: the Wec engine's speed and memory figures;
* ``python -m tools.engine.exactness``: Undo, replay and reload checked over
  random option sets;
* ``python -m tools.engine.arena``: Wec AI levels played against each other;
* ``python -m tools.engine.marshal_arena``: the Marshal and Spy AI against
  simple players, and its playout rate;
* ``python -m tools.engine.identity_hash TREE``: one hash over seeded games
  played by the engine of a source tree (two trees that print the same line
  played the same games);
* ``python -m tools.engine.playout_rate TREE``: random playouts per CPU second
  of the engine of a source tree.

:mod:`tools.engine.randomgames` holds what the tools and the engine's tests
share: random option sets, crowded scenarios, random starts and a choice of
action that plays the rarer action types. ``tests/engine/test_tools.py`` runs
every tool briefly.
"""
