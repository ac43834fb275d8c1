"""Where a game's engine state lives between requests (issue 12).

Three stores, one truth:

* the action log (GameAction): the source of truth; every state below is a
  replay of it, and `manage.py verify_games` proves so;
* GameState: one row per game with the latest state (without its history),
  stamped with the action number it follows, written in each action's
  transaction: loading a game is one row, however long the game;
* GameTurn: the engine's record of each finished Turn, one row each, appended
  when the Turn ends.  The history is the only part of the state that grows
  with the game, so it lives here and not in every state and snapshot;
* Snapshot: every WEC_SNAPSHOT_EVERY actions, the state without its history,
  for positions in the past (the review of an ended game).

Each process keeps the latest engine states it loaded or wrote (keyed by game
and action number, so a stale entry is never used: a newer action has a new
number) and the Turn records it has read (append-only, so only new rows are
ever asked for).  Both hold only committed data: writes enter the caches in
`transaction.on_commit`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings
from django.db import transaction

from .engine import get_game_engine
from .models import Game, GameAction, GameState, GameTurn, Snapshot

# Games whose states (and Turn records) each process keeps.  A state is some
# tens of KB; the records of a 3,000-action game a few hundred KB.
CACHE_GAMES = int(getattr(settings, "WEC_STATE_CACHE_GAMES", 256))

_lock = threading.Lock()
_states: OrderedDict[int, tuple[int, object]] = OrderedDict()  # game id -> (seq, engine state)
# game id -> (its history epoch, its first n Turn records).  Records are
# append-only except when a granted undo (games.takeback) rolls finished Turns
# back: that bumps Game.history_epoch, so a list cached under an older epoch is
# never used again.
_turns: OrderedDict[int, tuple[int, list[dict]]] = OrderedDict()

# The site's own log entry that is not an engine action: it cancels the last
# `steps` actions still in effect (a take-back or a granted undo in a friendly
# game; games.takeback).  Replaying it is the engine's undo.
WITHDRAW = "withdraw"


def is_withdrawal(action) -> bool:
    return isinstance(action, dict) and action.get("type") == WITHDRAW


def apply_entry(engine, state, action):
    """The state after one row of the action log: an engine action, or a
    withdrawal replayed through the engine's undo."""
    if is_withdrawal(action):
        return engine.undo(state, int(action["steps"]))
    return engine.apply(state, action)


def _remember(cache: OrderedDict, key: int, value) -> None:
    with _lock:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > CACHE_GAMES:
            cache.popitem(last=False)


def clear_caches() -> None:
    """Forget every cached state and record (tests; a restored database)."""
    with _lock:
        _states.clear()
        _turns.clear()


def turn_records(game_id: int, count: int, epoch: int = 0) -> list[dict]:
    """The game's first `count` Turn records: from this process's cache, with
    only the rows it has not seen yet read from the database.  `epoch` is the
    game's history_epoch (records cached under another one are dropped)."""
    with _lock:
        hit = _turns.get(game_id)
        have = list(hit[1]) if hit is not None and hit[0] == epoch else []
    if len(have) < count:
        rows = GameTurn.objects.filter(game_id=game_id, number__gt=len(have), number__lte=count).order_by("number")
        have.extend(rows.values_list("entry", flat=True))
        if len(have) != count:
            raise LookupError(f"game {game_id}: {len(have)} Turn records stored, the state needs {count}")
        _remember(_turns, game_id, (epoch, have))
    return have[:count]


def _load_doc(engine, game: Game, doc: dict, turns: int | None):
    if turns is None:  # written before issue 12: the document holds its own log
        return engine.load_scenario(doc)
    return engine.load_scenario(doc, history=turn_records(game.pk, turns, getattr(game, "history_epoch", 0)))


def cached_state(game: Game):
    with _lock:
        hit = _states.get(game.pk)
        if hit is not None and hit[0] == game.seq:
            _states.move_to_end(game.pk)
            return hit[1]
    return None


def load_current(game: Game):
    """The engine state after the game's latest action (`game.seq`): this
    process's cached one, else the GameState row, else (a game from before the
    row existed) the newest snapshot and a replay of the actions after it."""
    state = cached_state(game)
    if state is not None:
        return state
    engine = get_game_engine(game.engine)
    row = GameState.objects.filter(game_id=game.pk).values_list("seq", "turns", "state").first()
    if row is not None and row[0] == game.seq:
        state = _load_doc(engine, game, row[2], row[1])
    else:
        state = load_at(game, game.seq)
    if not transaction.get_connection().in_atomic_block:
        _remember(_states, game.pk, (game.seq, state))
    return state


def load_at(game: Game, upto: int):
    """The engine state after action `upto`: the newest snapshot at or before
    it, then the later actions replayed through the engine."""
    engine = get_game_engine(game.engine)
    snapshot = Snapshot.objects.filter(game=game, seq__lte=upto).order_by("-seq").first()
    if snapshot is None:
        state = engine.new_game(game.options or None)
        start = 0
    else:
        state = _load_doc(engine, game, snapshot.state, snapshot.turns)
        start = snapshot.seq
    for entry in GameAction.objects.filter(game=game, seq__gt=start, seq__lte=upto).order_by("seq"):
        state = apply_entry(engine, state, entry.action)
    return state


def save_state(game: Game, state, turns_before: int | None = None, snapshot: bool | None = None) -> None:
    """Inside the caller's transaction (holding the game row lock), after
    `game.seq` was set to the action just appended: write `state` as the
    game's current state, append the records of Turns it finished, and a
    snapshot when one is due.  The process caches learn of it only after commit."""
    engine = get_game_engine(game.engine)
    records = engine.turn_records(state, 0 if turns_before is None else turns_before)
    turns = (turns_before or 0) + len(records)
    if turns_before is None:
        # Not known (the first write of a game, or of a game from before the
        # GameState row): add only the records not stored yet.
        stored = GameTurn.objects.filter(game=game).count()
        records = records[stored:]
    if records:
        GameTurn.objects.bulk_create(
            [GameTurn(game=game, number=turns - len(records) + i, entry=r) for i, r in enumerate(records, 1)]
        )
    doc = engine.dump_scenario(state, history=False)
    # One UPDATE on the hot path; the INSERT only for a game's first write.
    if not GameState.objects.filter(game_id=game.pk).update(seq=game.seq, turns=turns, state=doc):
        GameState.objects.create(game=game, seq=game.seq, turns=turns, state=doc)
    every = max(1, int(settings.WEC_SNAPSHOT_EVERY))
    if snapshot or (snapshot is None and game.seq % every == 0):
        Snapshot.objects.create(game=game, seq=game.seq, state=doc, turns=turns)
    game_id, seq = game.pk, game.seq
    transaction.on_commit(lambda: _remember(_states, game_id, (seq, state)))


def save_rolled_back(game: Game, state) -> None:
    """Like save_state, for a state with fewer finished Turns than the stored
    records (a granted undo): the records past its Turns, and the snapshots
    that lean on them, are dropped (they are derived from the action log,
    which keeps every row), and the game's history epoch moves on so that no
    process reuses records it cached before.  The caller saves `game`."""
    engine = get_game_engine(game.engine)
    turns = engine.turn_count(state)
    GameTurn.objects.filter(game=game, number__gt=turns).delete()
    Snapshot.objects.filter(game=game, turns__gt=turns).delete()
    game.history_epoch = (game.history_epoch or 0) + 1
    Game.objects.filter(pk=game.pk).update(history_epoch=game.history_epoch)
    save_state(game, state, turns_before=turns)


def stored_turns(game: Game) -> int | None:
    """How many Turn records the game's GameState row says it has (None: no row)."""
    return GameState.objects.filter(game_id=game.pk).values_list("turns", flat=True).first()
