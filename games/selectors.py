"""Reads.  Nothing here writes to the database."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace

from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch, QuerySet

from .engines import get_engine
from .models import Game, Notification, Seat
from .store import sql
from .store import states as state_store
from .store.action_log import turn_ends

logger = logging.getLogger(__name__)

_ENGINE_OF: dict[int, str] = {}


def engine_name(game_id: int) -> str | None:
    """The engine a game is played with (None: no such game).  A game's engine
    never changes, so each process keeps the names it has read."""
    name = _ENGINE_OF.get(game_id)
    if name is None:
        name = Game.objects.filter(pk=game_id).values_list("engine", flat=True).first()
        if name is not None:
            if len(_ENGINE_OF) > 10_000:
                _ENGINE_OF.clear()
            _ENGINE_OF[game_id] = name
    return name


def get_game(game_id: int) -> Game:
    """The game with its seats (and their users), in one query.

    The seats and the game row are read together, on purpose: a seat's view
    version and the game's `seq` change in one transaction, so one snapshot
    of both guarantees the state loaded for `game.seq` is the one a page is
    stamped with the version for.  (Read as two queries, a commit landing
    between them could stamp a board with the wrong version; the two used to
    be read seats first for that reason.)  Every page and board fetch starts
    here, so the statement is written out (games.store.sql): the ORM took longer
    to build it than the database to answer it."""
    return game_from_rows(sql.game_rows(game_id), game_id)


def game_from_rows(found: list[tuple], game_id: int) -> Game:
    """The game of `sql.game_rows`' rows (seat, user, game), with its seats."""
    if not found:  # a game without seats (none today): the row alone
        return with_seats(Game.objects.get(pk=game_id), [])
    game = found[0][2]
    seats = []
    for seat, user, _game in found:
        seat.user = user
        seats.append(seat)
    return with_seats(game, seats)


def seats_with_users(game_id: int) -> list[Seat]:
    """A game's seats with their users (one statement), by colour."""
    found = sql.seat_rows(game_id)
    seats = []
    for seat, user in found:
        seat.user = user
        seats.append(seat)
    return seats


def with_seats(game: Game, seats) -> Game:
    """`game` with `seats` (a list or an evaluated QuerySet of its seats) as
    its prefetched `game.seats`, each seat's `.game` being `game` itself: how
    a service hands the game it has just written to the view that answers
    (no second read)."""
    if not isinstance(seats, QuerySet):
        # The filter is deferred as Django's related managers defer theirs
        # (applied only if something builds SQL from this queryset, which
        # a prefetched result never needs): building it was ~0.3 ms a submit.
        ordered = Seat.objects.order_by("color")
        ordered._defer_next_filter = True
        ordered = ordered.filter(game_id=game.pk)
        ordered._result_cache = sorted(seats, key=lambda s: s.color)
        ordered._prefetch_done = True
        seats = ordered
    for seat in seats:
        seat.game = game
    game._prefetched_objects_cache = {"seats": seats}
    return game


def seat_for(game: Game, user) -> Seat | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in game.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def seat_by_color(game: Game, color: str) -> Seat | None:
    for seat in game.seats.all():
        if seat.color == color:
            return seat
    return None


# The legal actions of a state, made once per state object: the memo lives
# with the process's cache of committed states (games.store.states).
legal_actions = state_store.legal_actions


def load_state(game: Game, upto: int | None = None):
    """The engine game after action `upto` (default: the latest).  The latest
    comes from the game's current-state row (or this process's copy of it), so
    it costs the same however long the game; an earlier one from the newest
    snapshot at or before it and a replay of the actions after (see
    games.store.states)."""
    if upto is None or upto == game.seq:
        return state_store.load_current(game)
    return state_store.load_at(game, upto)


def user_games(user):
    """The user's games, newest first, each with `.my_color`, `.opponent`,
    `.my_turn` and `.deadline` (when the side to move runs out of time, or None)."""
    games = (
        Game.objects.filter(seats__user=user)
        .exclude(status=Game.Status.CANCELLED)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .distinct()
        # By when the turn last passed, never by the last write: an enemy's
        # unseen action must not move a game up the list.
        .order_by(F("turn_started").desc(nulls_last=True), "-pk")
    )
    result = []
    for game in games:
        mine = seat_for(game, user)
        other = next((s for s in game.seats.all() if s.pk != mine.pk), None)
        game.my_color = mine.color
        game.opponent = other.user if other else None
        game.my_turn = game.status == Game.Status.ACTIVE and game.to_move == mine.color
        to_move = seat_by_color(game, game.to_move)
        game.deadline = to_move.deadline if to_move and game.status == Game.Status.ACTIVE else None
        # The side to move is on vacation: its clock is paused (no deadline).
        game.clock_paused = bool(
            to_move and game.status == Game.Status.ACTIVE and to_move.paused_seconds is not None
        )
        # "won" / "lost" / "drawn" for an ended game, from the user's side.
        game.my_outcome = ""
        if game.status == Game.Status.FINISHED and game.result:
            winner = game.result.get("winner")
            game.my_outcome = "drawn" if winner is None else ("won" if winner == mine.color else "lost")
        result.append(game)
    result.sort(key=lambda g: (not g.my_turn, g.status != Game.Status.ACTIVE))
    return result


def due_seat_ids(now) -> list[int]:
    """Seats of running games whose deadline has passed (for check_clocks;
    services.enforce_deadline re-checks each under the game's lock)."""
    return list(
        Seat.objects.filter(deadline__lte=now, game__status=Game.Status.ACTIVE)
        .order_by("deadline")
        .values_list("pk", flat=True)
    )


def due_vacation_user_ids(now) -> list[int]:
    """Users on vacation with a day due or the planned end reached (for
    check_clocks; services_vacation.settle_vacation re-checks each under lock)."""
    from django.db.models import Q

    return list(
        get_user_model()
        .objects.filter(vacation_started__isnull=False)
        .filter(Q(vacation_paid_until__isnull=True) | Q(vacation_paid_until__lte=now) | Q(vacation_until__lte=now))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


@dataclass
class Clock:
    color: str
    user: object
    deadline: object  # datetime or None
    running: bool
    on_vacation: bool
    # Paused by the player's vacation: the time it has left (seconds), else None.
    paused_seconds: int | None = None
    # While the player is on vacation: when it ends at the latest.
    vacation_until: object = None


def game_clocks(game: Game) -> list[Clock]:
    """Both seats' clocks, Black first: the side to move has the deadline, or
    its time left frozen while its player is on vacation."""
    clocks = []
    for color in ("black", "white"):
        seat = seat_by_color(game, color)
        if seat is None:
            continue
        active = game.status == Game.Status.ACTIVE and game.to_move == color
        running = active and seat.deadline is not None
        on_vacation = bool(seat.user and seat.user.on_vacation)
        clocks.append(
            Clock(
                color=color,
                user=seat.user,
                deadline=seat.deadline if running else None,
                running=running,
                on_vacation=on_vacation,
                paused_seconds=seat.paused_seconds if active else None,
                vacation_until=seat.user.vacation_ends if on_vacation else None,
            )
        )
    return clocks


def unread_notification_count(user) -> int:
    if user is None or not getattr(user, "is_authenticated", False):
        return 0
    return Notification.objects.filter(user=user, read=False).count()


def user_notifications(user, limit: int = 100) -> list[Notification]:
    """The user's latest notifications, newest first, each with `.text`."""
    from .notifications import notification_text

    notes = list(
        Notification.objects.filter(user=user)
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created", "-pk")[:limit]
    )
    for note in notes:
        other = next((s for s in note.game.seats.all() if s.user_id != user.pk), None)
        name = other.user.shown_name if other and other.user else ""
        note.text = notification_text(note.kind, note.game_id, name)
    return notes


# --- history and review -------------------------------------------------------------


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


def history_lines(game: Game, state, color: str) -> dict:
    """The record of the game for the player `color`: `notation` and `plain`
    (one line per Turn each, RecordLines made on demand).  While the game
    runs, only the player's own, censored history (what that side saw); once
    it has ended, the complete one."""
    from .registry import get_ui

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
    from . import urlmemo
    from .models import other_color

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
        "review": review,
        "board_url": urlmemo.url("game_board", game.pk),
        "act_url": urlmemo.url("game_act", game.pk),
        "clocks": game_clocks(game),
        "clocks_url": urlmemo.url("game_clocks", game.pk),
    }


def replay_frames(game: Game) -> list[int]:
    """The action numbers of the positions a review steps through: the start
    (0), the end of every Turn, and the last action when the game ended inside
    a Turn."""
    # Only the Turns still in effect: a granted undo (friendly games) cancelled some.
    frames = [0, *(seq for seq, _color in turn_ends(game))]
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
    long the game (issue 12).  The lines are the engine's own, before
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
        # Vacation (issue 14): a paused clock's time left and the "on vacation
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


def open_seeks(user=None):
    qs = (
        Game.objects.filter(status=Game.Status.OPEN)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by("-created")
    )
    seeks = []
    for game in qs:
        taken = next((s for s in game.seats.all() if s.user_id), None)
        if taken is None:
            continue
        game.seeker = taken.user
        game.seeker_color = taken.color
        game.is_mine = user is not None and user.is_authenticated and taken.user_id == user.pk
        seeks.append(game)
    return seeks


# --- the club (issue 14) ---------------------------------------------------------


def chat_messages(game: Game, user) -> list:
    """The game's chat as `user` may read it: the players always (a player who
    muted the chat sees only their own lines); anyone else only once the game
    has ended.  None when `user` may not read it."""
    from .models import ChatMessage

    seat = seat_for(game, user)
    if seat is None and game.status != Game.Status.FINISHED:
        return None
    qs = ChatMessage.objects.filter(game=game).select_related("author")
    if seat is not None and seat.chat_muted:
        qs = qs.filter(author_id=user.pk)
    return list(qs)


def challenges_for(user) -> list:
    """Challenges waiting for `user`'s answer or for their opponent's."""
    games = (
        Game.objects.filter(status=Game.Status.CHALLENGE, seats__user=user)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .distinct()
        .order_by("-created")
    )
    out = []
    for game in games:
        mine = seat_for(game, user)
        other = next((s for s in game.seats.all() if s.pk != mine.pk), None)
        game.my_color = mine.color
        game.opponent = other.user if other else None
        game.incoming = game.created_by_id != user.pk
        out.append(game)
    return out


# --- spectators ----------------------------------------------------------------------

def _games_with_players(status: str, limit: int) -> list:
    """Games in `status`, the latest turn change first, each with `.players`
    ({colour: user}); ordered by turn-level time only, like every list."""
    games = (
        Game.objects.filter(status=status)
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))
        .order_by(F("turn_started").desc(nulls_last=True), "-pk")[:limit]
    )
    out = []
    for game in games:
        game.players = {s.color: s.user for s in game.seats.all()}
        out.append(game)
    return out


def archive(limit: int = 100) -> list:
    """Finished games, newest first, with both players."""
    return _games_with_players(Game.Status.FINISHED, limit)


def watchable_games(limit: int = 100) -> list:
    """Running games anyone may watch."""
    return _games_with_players(Game.Status.ACTIVE, limit)


# --- people ------------------------------------------------------------------------


def player_record(user) -> dict:
    """A player's finished games and results (won / lost / drawn) and rating history."""
    finished = Game.objects.filter(seats__user=user, status=Game.Status.FINISHED).prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user"))
    ).distinct().order_by(F("turn_started").desc(nulls_last=True), "-pk")
    counts = {"won": 0, "lost": 0, "drawn": 0}
    games = []
    for game in finished:
        mine = seat_for(game, user)
        winner = (game.result or {}).get("winner")
        outcome = "drawn" if winner is None else ("won" if winner == mine.color else "lost")
        counts[outcome] += 1
        other = next((s for s in game.seats.all() if s.pk != mine.pk), None)
        game.my_color, game.my_outcome, game.opponent = mine.color, outcome, other.user if other else None
        games.append(game)
    running = Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE).distinct().count()
    history = list(user.rating_changes.order_by("created", "pk").values_list("rating", flat=True))
    return {"games": games[:50], "counts": counts, "running": running, "ratings": history}


def rating_plot(ratings: list[float], width: int = 320, height: int = 120) -> dict | None:
    """The points of an SVG polyline for a rating history (drawn server-side:
    no scripts), with the axis labels.  None when there is nothing to draw."""
    if not ratings:
        return None
    values = [1500.0, *ratings]
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    pad = 6
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    points = " ".join(
        f"{pad + i * step:.1f},{pad + (high - v) / span * (height - 2 * pad):.1f}" for i, v in enumerate(values)
    )
    return {"points": points, "width": width, "height": height, "low": round(low), "high": round(high)}


def leaderboard(limit: int = 100, engine: str | None = None) -> list:
    """Players with at least one rated game, best rating first: in the site's
    first game (the rating on the User row), or in the game `engine` (its
    GameRating rows)."""
    from django.conf import settings

    if engine and engine != settings.WEC_ENGINE_NAME:
        from .models import GameRating

        rows = (
            GameRating.objects.filter(engine=engine, user__is_active=True, user__is_ai=False)
            .select_related("user")
            .order_by("-rating", "rating_deviation", "user__username")[:limit]
        )
        return [
            SimpleNamespace(
                username=r.user.username, shown_name=r.user.shown_name, rating=r.rating,
                rating_deviation=r.rating_deviation,
            )
            for r in rows
        ]
    User = get_user_model()
    return list(
        User.objects.filter(is_active=True, is_ai=False, rating_changes__isnull=False)
        .distinct()
        .order_by("-rating", "rating_deviation", "username")[:limit]
    )


def scenarios_for(user) -> list:
    """Scenarios `user` may use: their own and everyone's public ones."""
    from django.db.models import Q

    from .models import Scenario

    qs = Scenario.objects.select_related("owner")
    if user is not None and user.is_authenticated:
        qs = qs.filter(Q(public=True) | Q(owner=user))
    else:
        qs = qs.filter(public=True)
    return list(qs)
