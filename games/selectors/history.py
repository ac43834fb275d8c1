"""Reads of what a player is shown of a game: the record (censored while
the game runs), the parts of a board every game shares, the positions a
review steps through, and the digest of a player's view that the view
versions follow (games.services.versions)."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence

from games import urlmemo
from games.engines import get_engine
from games.models import Game, Seat, other_color
from games.registry import get_ui
from games.store.action_log import turn_bounds

from .clocks import game_clocks
from .games import seat_by_color

logger = logging.getLogger(__name__)


def is_review(game: Game) -> bool:
    """Once a game has ended everything about it is public to its players."""
    return game.status == Game.Status.FINISHED


class RecordLines(Sequence):
    """One form (notation or plain words) of a player's game record, made on
    demand: its length costs nothing, a slice makes only the lines it holds
    (and reads only their Turn records: games.store.states.TurnRecords), and
    only a whole-record render makes them all.  A board answer needs the last
    few lines, so its cost no longer grows with the game's length.

    `make(start)` gives the lines from the `start`-th on; the first `base`
    lines are one per finished Turn record (the engine's `history(...,
    start=)` contract), so the length is `base` plus what `make(base)` gives.
    The record is a nicety: if making it fails, it is empty (logged)."""

    __slots__ = ("_base", "_broken", "_lines", "_make", "_n", "_start")

    def __init__(self, make, base: int):
        self._make, self._base = make, base
        self._start: int | None = None
        self._lines: list[str] = []
        self._n: int | None = None
        self._broken = False

    def _from(self, start: int) -> list[str]:
        if self._broken:
            return []
        if self._start is None or start < self._start:
            try:
                self._lines = [str(line) for line in self._make(start)]
            except Exception:  # never break a page for its record
                logger.exception("the game record could not be made")
                self._broken, self._lines = True, []
                return []
            self._start = start
        return self._lines[start - self._start :]

    def __len__(self) -> int:
        if self._n is None:
            tail = len(self._from(self._base))
            self._n = 0 if self._broken else self._base + tail
        return self._n

    def __getitem__(self, index):
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step != 1:
                return self._from(0)[index]
            return self._from(start)[: max(0, stop - start)] if start < stop else []
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("record line index out of range")
        return self._from(index)[0]

    def __iter__(self):
        return iter(self._from(0) if len(self) else [])

    def __eq__(self, other) -> bool:
        if isinstance(other, (RecordLines, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self):
        return (list, (list(self),))

    def __repr__(self) -> str:
        return f"<RecordLines {len(self)}>"


def record_open(options: dict | None) -> bool:
    """Whether a game's terms open its record (both players agreed, in a
    friendly game): the term as the challenge and the game page show it.
    What a record holds is the engine's own test (`record_censored`)."""
    options = options or {}
    return bool(options.get("open_record")) and not options.get("competitive", True)


def record_censored(game: Game, state, color: str) -> bool:
    """Whether `color`'s record leaves out what that side did not see: the
    engine's one test (`censors`), which every "as you saw it" sentence, the
    record's heading and the export's header follow."""
    return bool(get_engine(game.engine).censors(state, color))


def history_lines(game: Game, state, color: str) -> dict:
    """The record of the game for the player `color`: `notation` and `plain`
    (one line per Turn each, RecordLines made on demand).  While the game
    runs, only the player's own, censored history (what that side saw); once
    it has ended, the complete one."""
    engine = get_engine(game.engine)
    who = None if is_review(game) else color
    base = engine.turn_count(state)
    notation = RecordLines(lambda start: engine.history(state, who, start=start), base)
    # In words as this player's board shows them (the game's package says how).
    words = get_ui(game.engine).plain_words
    plain = RecordLines(lambda start: [words(line, color) for line in engine.plain_history(state, who, start=start)], base)
    return {"notation": notation, "plain": plain}


def seat_board_basics(game: Game, seat: Seat, state, view: dict, my_turn: bool, review_context) -> dict:
    """The part of a seat's board context that every game shares: the game,
    the seat and its opponent, the player's view, whose turn it is, the
    record (censored while the game runs), the review once it has ended
    (made by the game's own `review_context`), the board's URLs and clocks."""
    opponent_seat = seat_by_color(game, other_color(seat.color))
    history = history_lines(game, state, seat.color)
    review = review_context(game, seat, history=history, state=state) if is_review(game) else None
    return {
        "game": game,
        "seat": seat,
        "color": seat.color,
        "opponent": opponent_seat.user if opponent_seat else None,
        "view": view,
        "my_turn": my_turn,
        "history": history,
        "record_open": record_open(game.options),
        "review": review,
        "board_url": urlmemo.url("game_board", game.pk),
        "act_url": urlmemo.url("game_act", game.pk),
        "clocks": game_clocks(game),
        "clocks_url": urlmemo.url("game_clocks", game.pk),
    }


def replay_frames(game: Game) -> list[int]:
    """The action numbers of the positions a review steps through: where play
    starts (0, or after the actions logged before the first Turn, such as
    Marshal's setups), the end of every Turn, and the last action when the
    game ended inside a Turn.  What ends a Turn is the game's own rule
    (games.store.action_log.turn_bounds), so the steps after the start are
    the engine's Turns, one per line of its record, then the Turn a
    resignation or time-out cut short (the record has no line for it)."""
    # Only the Turns still in effect: a granted undo (friendly games) cancelled some.
    start, ends = turn_bounds(game)
    frames = [start, *(seq for seq, _color in ends)]
    if game.seq > frames[-1]:
        frames.append(game.seq)
    return frames


def view_digest(game: Game, seats, state, color: str, view: dict | None = None) -> str:
    """A hash of everything the player `color` is shown of the game: the
    engine's view for that colour, that colour's history, the game's status,
    result and side to move, and both clocks and players.  Two moments with the
    same digest look the same to that player (so their view version must not
    change between them); it depends on nothing that player cannot see.

    The history enters as its length in Turn records, its epoch (a granted
    undo starts a new one) and the lines past the records (the Turn a game
    ended in): a finished Turn's line never changes within an epoch, so
    those determine the whole record, and the digest costs the same however
    long the game.  The lines are the engine's own, before
    translation, so the reader's language does not enter the digest."""
    engine = get_engine(game.engine)
    who = None if is_review(game) else color
    turns = engine.turn_count(state)
    shown = {
        "view": engine.view(state, color, history=False) if view is None else view,
        "history": {
            "epoch": getattr(game, "history_epoch", 0),
            "turns": turns,
            "notation": [str(x) for x in engine.history(state, who, start=turns)],
            "plain": [str(x) for x in engine.plain_history(state, who, start=turns)],
        },
        "status": game.status,
        "result": game.result,
        "to_move": game.to_move,
        "days_per_move": game.days_per_move,
        # Club: a standing draw offer and a challenge's pending change are
        # seen by both players.
        "draw_offer": game.draw_offer,
        "undo_request": game.undo_request,
        "proposal": game.proposal,
        "seats": sorted(
            (s.color, s.user_id, s.deadline.isoformat() if s.deadline else None) for s in seats
        ),
        # Vacation: a paused clock's time left and the "on vacation
        # until …" badge are on both players' pages.
        "vacation": sorted(
            (
                s.color,
                s.paused_seconds,
                s.user.vacation_ends.isoformat() if s.user_id and s.user.on_vacation else None,
            )
            for s in seats
        ),
    }
    # check_circular=False: the same text without the encoder's record of
    # every container it is inside (plain view data has no cycles): ~10%.
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"), default=str, check_circular=False)
    return hashlib.sha256(text.encode()).hexdigest()
