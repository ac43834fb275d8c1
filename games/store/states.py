"""Where a game's engine state lives between requests.

Three stores, one truth:

* the action log (GameAction, games.store.action_log): the source of
  truth; every state below is a replay of it, and `manage.py verify_games`
  proves so;
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
number), the Turn records it has read (append-only, so only new rows are
ever asked for) and the legal actions of the last few states asked about.
All hold only committed data: writes enter the caches in
`transaction.on_commit`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.engines import Engine, get_engine
from games.models import Game, GameAction, GameState, GameTurn, Snapshot

from . import sql
from .action_log import apply_entry

# Games whose states (and Turn records) each process keeps.  A state is some
# tens of KB; the records of a 3,000-action game a few hundred KB.
CACHE_GAMES = int(getattr(settings, "WEC_STATE_CACHE_GAMES", 256))

_lock = threading.Lock()
_states: OrderedDict[int, tuple[int, object]] = OrderedDict()  # game id -> (seq, engine state)
# game id -> (its history epoch, {record index: record}): the Turn records this
# process has read.  Records are append-only except when a granted undo
# (games.services.takeback) rolls finished Turns back: that bumps Game.history_epoch,
# so records cached under an older epoch are never used again.
_turns: OrderedDict[int, tuple[int, dict[int, dict]]] = OrderedDict()

def _remember(cache: OrderedDict, key: int, value) -> None:
    with _lock:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > CACHE_GAMES:
            cache.popitem(last=False)


def clear_caches() -> None:
    """Forget every cached state, record and list of legal actions (tests; a
    restored database)."""
    with _lock:
        _states.clear()
        _turns.clear()
        _start_texts.clear()
        _legal.clear()


def forget_state(game_id: int) -> None:
    """Forget the game's cached state (as if another process had written it)."""
    with _lock:
        _states.pop(game_id, None)


# The legal actions of the last few states asked about, by state object.
# The committed states a process keeps (by game and action number, above)
# are never changed, so the list made for the board of the player to move
# serves that player's next submit on the same state (the action is matched
# against it) and every board of that state.  Only the player to move asks
# for a state's legal actions, so whether they are already known depends
# only on that player's own requests.
_legal: dict[int, tuple] = {}
_LEGAL_KEPT = 16


def legal_actions(engine: Engine, state) -> list:
    """`engine.legal_actions(state)`, made once per state object (its
    entries are never changed by their users: treat them as read-only)."""
    hit = _legal.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    legal = engine.legal_actions(state)
    if len(_legal) >= _LEGAL_KEPT:
        _legal.pop(next(iter(_legal)), None)
    _legal[id(state)] = (state, legal)
    return legal


# How many records before the first one asked for a read brings along.
READ_AHEAD = 8


class _RecordSource:
    """Where one loaded state's first `count` Turn records come from: this
    process's cache of records, else their GameTurn rows, read only when the
    engine asks for them (a board needs the last few; only the whole record,
    the review and Undo read them all).

    `count` comes from a committed GameState row (or snapshot), so the rows
    1..count it reads are committed ones; the rows are read together with the
    game's history epoch, so a concurrent undo (which replaces rows) is noticed
    instead of mixing two histories.  Records read inside a transaction stay in
    this source (`share=False`): only those read outside one go into the
    process cache."""

    __slots__ = ("count", "epoch", "game_id", "have", "share")

    def __init__(self, game_id: int, epoch: int, count: int, share: bool):
        self.game_id, self.epoch, self.count, self.share = game_id, epoch, count, share
        self.have: dict[int, dict] = {}

    def get(self, start: int, stop: int) -> list[dict]:
        """Records start..stop-1 (0-based), reading the missing ones."""
        missing = [i for i in range(start, stop) if i not in self.have]
        if missing:
            with _lock:
                hit = _turns.get(self.game_id)
                if hit is not None and hit[0] == self.epoch:
                    known = hit[1]
                    for i in missing:
                        if i in known:
                            self.have[i] = known[i]
            missing = [i for i in missing if i not in self.have]
        if missing:
            # A few records before the first one asked for come along: the
            # record's tail is asked for in pieces (the last line, the last
            # few), and one read serves them all.
            low, high = max(0, missing[0] - READ_AHEAD), missing[-1]
            rows = GameTurn.objects.filter(
                game_id=self.game_id, game__history_epoch=self.epoch, number__gt=low, number__lte=high + 1
            ).values_list("number", "entry")
            fetched = {number - 1: entry for number, entry in rows}
            if any(i not in fetched for i in range(low, high + 1)):
                raise LookupError(
                    f"game {self.game_id}: Turn records {low + 1}..{high + 1} of epoch {self.epoch} are not stored"
                )
            # Those this source holds already are the same records (committed, one epoch).
            fetched = {i: r for i, r in fetched.items() if i not in self.have}
            self.have.update(fetched)
            if self.share:
                _share_records(self.game_id, self.epoch, fetched)
        return [self.have[i] for i in range(start, stop)]


def _share_records(game_id: int, epoch: int, records: dict[int, dict]) -> None:
    """Put committed records (index -> record) into this process's cache."""
    with _lock:
        hit = _turns.get(game_id)
        known = dict(hit[1]) if hit is not None and hit[0] == epoch else {}
        known.update(records)
        _turns[game_id] = (epoch, known)
        _turns.move_to_end(game_id)
        while len(_turns) > CACHE_GAMES:
            _turns.popitem(last=False)


class TurnRecords(Sequence):
    """A game's records of finished Turns, as the engine's `load_scenario(doc,
    history=...)` takes them (docs/engine-api.md), read on demand: the
    first `base` from a _RecordSource, then `extra` (the records of Turns
    finished in this process since, which the engine appends with `+`).
    Loading a state therefore reads no record at all, and a board reads only
    the few lines it shows (a game's first load in a process costs the same
    at 3,000 actions as at 50)."""

    __slots__ = ("_base", "_extra", "_source")

    def __init__(self, source: _RecordSource, base: int, extra: tuple = ()):
        self._source, self._base, self._extra = source, base, extra

    def __len__(self) -> int:
        return self._base + len(self._extra)

    def _slice(self, start: int, stop: int) -> list[dict]:
        if stop <= start:
            return []
        out = self._source.get(start, min(stop, self._base)) if start < self._base else []
        return out + list(self._extra[max(0, start - self._base) : stop - self._base])

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return tuple(self._slice(0, len(self)))[index]
            return tuple(self._slice(start, stop))
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("Turn record index out of range")
        return self._slice(index, index + 1)[0]

    def __iter__(self):
        return iter(self._slice(0, len(self)))

    def __add__(self, other) -> TurnRecords:
        return TurnRecords(self._source, self._base, self._extra + tuple(other))

    def __eq__(self, other) -> bool:
        if isinstance(other, (TurnRecords, tuple, list)):
            return len(self) == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # a sequence of dicts, like the tuple it stands for

    def __reduce__(self):
        return (tuple, (tuple(self),))  # a pickle holds the records themselves

    def __repr__(self) -> str:
        return f"<TurnRecords of game {self._source.game_id}: {len(self)}>"


def lazy_records(game_id: int, count: int, epoch: int = 0) -> TurnRecords | tuple:
    """The first `count` Turn records of a game, read only when asked."""
    if count <= 0:
        return ()
    share = not transaction.get_connection().in_atomic_block
    return TurnRecords(_RecordSource(game_id, epoch, count, share), count)


def turn_records(game_id: int, count: int, epoch: int = 0) -> list[dict]:
    """The game's first `count` Turn records, all read now (from this
    process's cache, the missing ones from the database).  `epoch` is the
    game's history_epoch (records cached under another one are dropped)."""
    if count <= 0:
        return []
    return list(lazy_records(game_id, count, epoch))


def _load_doc(engine, game: Game, doc: dict, turns: int | None):
    if turns is None:  # written before the Turn records had rows: the document holds its own log
        return engine.load_scenario(doc)
    return engine.load_scenario(doc, history=lazy_records(game.pk, turns, getattr(game, "history_epoch", 0)))


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
    engine = get_engine(game.engine)
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
    engine = get_engine(game.engine)
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


def save_state(
    game: Game, state, turns_before: int | None = None, snapshot: bool | None = None, batch=None
) -> None:
    """Inside the caller's transaction (holding the game row lock), after
    `game.seq` was set to the action just appended: write `state` as the
    game's current state, append the records of Turns it finished, and a
    snapshot when one is due.  The process caches learn of it only after
    commit.  With a `batch` (games.store.sql.Batch) the rows are written
    when the batch is sent."""
    engine = get_engine(game.engine)
    records = engine.turn_records(state, 0 if turns_before is None else turns_before)
    turns = (turns_before or 0) + len(records)
    if turns_before is None:
        # Not known (the first write of a game, or of a game from before the
        # GameState row): add only the records not stored yet.
        stored = GameTurn.objects.filter(game=game).count()
        records = records[stored:]
    doc = engine.dump_scenario(state, history=False)
    every = max(1, int(settings.WEC_SNAPSHOT_EVERY))
    snap = snapshot or (snapshot is None and game.seq % every == 0)
    if batch is not None:
        _batch_state(batch, game, doc, turns, records, snap)
    else:
        if records:
            GameTurn.objects.bulk_create(
                [GameTurn(game=game, number=turns - len(records) + i, entry=r) for i, r in enumerate(records, 1)]
            )
        # One UPDATE on the hot path; the INSERT only for a game's first write.
        if not GameState.objects.filter(game_id=game.pk).update(seq=game.seq, turns=turns, state=doc):
            GameState.objects.create(game=game, seq=game.seq, turns=turns, state=doc)
        if snap:
            Snapshot.objects.create(game=game, seq=game.seq, state=doc, turns=turns)
    game_id, seq, epoch = game.pk, game.seq, getattr(game, "history_epoch", 0)
    transaction.on_commit(lambda: _remember(_states, game_id, (seq, state)))
    if records:
        first = turns - len(records)  # the 0-based index of the first new record
        new = {first + i: r for i, r in enumerate(records)}
        transaction.on_commit(lambda: _share_records(game_id, epoch, new))


# game id -> (a state document's "start" entry, its JSON text).  The start
# position is half of every state row (~11 KB of ~22 KB) and the same at
# every action of a game, so its JSON is made once per game in this process
# and put into each row's text (it is reused only when the start is equal,
# so it can never be stale).  Like `_states`, it is per game: that a process
# has written a row of the game before is all it tells, which the state
# cache's hits tell already.
_start_texts: OrderedDict[int, tuple[object, str]] = OrderedDict()


def state_json(game_id: int, doc: dict) -> str:
    """The JSON text of the state document `doc` of game `game_id` (what
    games.store.sql.json_value would send, its "start" entry last):
    PostgreSQL stores the same jsonb value."""
    start = doc.get("start")
    if start is None or len(doc) < 2:
        return sql.json_text(doc)
    kept = _start_texts.get(game_id)
    if kept is not None and kept[0] == start:
        text = kept[1]
    else:
        text = sql.json_text(start)
        _remember(_start_texts, game_id, (start, text))
    rest = sql.json_text({k: v for k, v in doc.items() if k != "start"})
    return f'{rest[:-1]},"start":{text}}}'


def _batch_state(batch: sql.Batch, game: Game, doc: dict, turns: int, records: list, snap: bool) -> None:
    """save_state's rows as statements of a batch."""
    if records:
        sql.add_turn_records(batch, game.pk, turns - len(records), records)
    state = sql.json_value_of_text(state_json(game.pk, doc))
    sql.add_state(batch, game.pk, game.seq, turns, state)
    if snap:
        sql.add_snapshot(batch, game.pk, game.seq, state, turns, timezone.now())


def save_rolled_back(game: Game, state) -> None:
    """Like save_state, for a state with fewer finished Turns than the stored
    records (a granted undo): the records past its Turns, and the snapshots
    that lean on them, are dropped (they are derived from the action log,
    which keeps every row), and the game's history epoch moves on so that no
    process reuses records it cached before.  The caller saves `game`."""
    engine = get_engine(game.engine)
    turns = engine.turn_count(state)
    GameTurn.objects.filter(game=game, number__gt=turns).delete()
    Snapshot.objects.filter(game=game, turns__gt=turns).delete()
    game.history_epoch = (game.history_epoch or 0) + 1
    Game.objects.filter(pk=game.pk).update(history_epoch=game.history_epoch)
    save_state(game, state, turns_before=turns)


def stored_turns(game: Game) -> int | None:
    """How many Turn records the game's GameState row says it has (None: no row)."""
    return GameState.objects.filter(game_id=game.pk).values_list("turns", flat=True).first()
