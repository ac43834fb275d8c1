"""Highlights for the game page: the enemy's last Turn as this player saw it,
the player's own actions this Turn, and what changed since the board the
player was last shown (`signature` / `signature_changes`, kept per Seat by
services.note_board_shown).

Both come from nothing but the player's own `view` at Turn boundaries: the
view when the player last ended a Turn, when the enemy last ended one, and
now.  A Square is highlighted where what the player sees there changed
(pieces, Articles, projectiles, markers), so nothing is shown that the player
did not see anyway: it only points at it."""

from __future__ import annotations

import hashlib
import logging
import marshal
import threading
from collections import Counter, OrderedDict

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import doorbells
from games.engines import get_engine
from games.models import Game
from games.selectors import load_state
from games.store import render_cache
from games.store.action_log import turn_ends

from .grid import OwnerMemos

logger = logging.getLogger(__name__)


def _squares(view: dict) -> dict[tuple[int, int], frozenset]:
    """What the view shows on each Square, {(row, col): frozenset of (token,
    count)}: a multiset of plain tokens that compares in one C call (Counters
    compared in Python were most of the highlights)."""
    lists: dict[tuple[int, int], list] = {}
    tokens = []  # ((row, col), token)
    for p in view.get("pieces") or ():
        tokens.append(((p.get("row"), p.get("col")), (
            "piece", p.get("color"), p.get("type"), p.get("level", "ground"), int(p.get("stun") or 0),
            tuple(sorted(p["articles"])) if p.get("articles") else ())))
    for a in view.get("articles") or ():
        tokens.append(((a.get("row"), a.get("col")), ("article", a.get("type"))))
    for pr in view.get("projectiles") or ():
        tokens.append(((pr.get("row"), pr.get("col")), ("projectile", pr.get("kind"), pr.get("color"), pr.get("level"))))
    for m in view.get("markers") or ():
        tokens.append(((m.get("row"), m.get("col")), ("marker", m.get("type"), m.get("level"))))
    for (row, col), token in tokens:
        if row is None or col is None:
            continue
        key = (int(row), int(col))
        found = lists.get(key)
        if found is None:
            lists[key] = [token]
        else:
            found.append(token)
    return {
        key: frozenset(((found[0], 1),)) if len(found) == 1 else frozenset(Counter(found).items())
        for key, found in lists.items()
    }


def changed_squares(before: dict, after: dict) -> set[tuple[int, int]]:
    a, b = _squares(before), _squares(after)
    return _changed(a, b)


def squares_of(view: dict) -> dict[tuple[int, int], frozenset]:
    """What `view` shows on each Square (see `_squares`), for a caller that
    hands it to both `signature` and `for_player` instead of each working it
    out again (~0.3 ms a view)."""
    return _squares(view)


# The signature's entry hash of each Square's contents (the frozenset of
# _squares), kept per player (game id, game created, colour) like the board's
# Square memos (games.ui.wec.board.square_memo): whether an entry is already
# known, and so the time a signature takes, depends only on that player's own
# view history.  An action changes a few Squares; the others' hashes (about
# 0.5 ms of a signature's 0.8) are not worked out again.
_SIG_MEMOS = OwnerMemos(32, dict)  # players, as the Square memos
_SIG_MEMO_LIMIT = 600  # entries per player


def _entry_hash(tokens: frozenset) -> str:
    text = "|".join(sorted(f"{token!r}*{n}" for token, n in tokens))
    return hashlib.blake2b(text.encode(), digest_size=4).hexdigest()


def signature(view: dict, owner: tuple | None = None, scratch: dict | None = None, squares: dict | None = None) -> str:
    """What `view` shows on each Square, compactly: "r-c:hash" for every
    Square with something on it, in board order (about 12 bytes a Square).
    Two views have the same entry for a Square exactly when `changed_squares`
    would not name it (up to a 32-bit hash collision).

    `owner` (game id, game created, colour: the player whose view it is)
    keeps the entries' hashes in that player's memo; `squares` is
    `squares_of(view)` when the caller has it; `scratch` (a dict) gets it
    as "squares" (the service's record of the actor's view, which the
    answer's board_context reads: games.services.seen.note_shown_in_batch)."""
    if squares is None:
        squares = _squares(view)
    if scratch is not None:
        scratch["squares"] = squares
    memo = _SIG_MEMOS.get(owner) if owner is not None else None
    parts = []
    for (row, col), tokens in sorted(squares.items()):
        found = memo.get(tokens) if memo is not None else None
        if found is None:
            found = _entry_hash(tokens)
            if memo is not None:
                if len(memo) >= _SIG_MEMO_LIMIT:
                    memo.clear()
                memo[tokens] = found
        parts.append(f"{row}-{col}:{found}")
    return " ".join(parts)


# Per player (game id, game created, colour), as the entries above: a
# Square's raw items (their marshal, the key of the board's Square memo:
# games.ui.wec.board.build_board's `keys`) -> (what it shows, its signature
# entry), so a board whose Squares that player's earlier boards had is
# mapped and signed without making their tokens and hashes again.
_KEYED = OwnerMemos(32, dict)
_KEYED_LIMIT = 600  # entries per player


def _tokens_of(raw: dict) -> frozenset | None:
    """_squares' entry for one Square from its raw items (None: nothing there
    that _squares counts).  build_board groups the items of one Square, so
    they make at most one entry."""
    return next(iter(_squares(raw).values()), None)


def keyed_squares(keys: dict, owner: tuple | None = None) -> tuple[dict, str]:
    """(`squares_of(view)`, `signature(view)`) from build_board's `keys` of
    `view` (not empty), a Square the player's memo (`owner`) has taken
    from it."""
    memo = _KEYED.get(owner) if owner is not None else {}
    squares, parts = {}, []
    for where in sorted(keys):
        raw = keys[where]
        mkey = (where, raw)
        found = memo.get(mkey)
        if found is None:
            tokens = _tokens_of(marshal.loads(raw))
            found = (tokens, None if tokens is None else f"{where[0]}-{where[1]}:{_entry_hash(tokens)}")
            if len(memo) >= _KEYED_LIMIT:
                memo.clear()
            memo[mkey] = found
        if found[0] is not None:
            squares[where] = found[0]
            parts.append(found[1])
    return squares, " ".join(parts)


def _entries(sig: str) -> dict[str, str]:
    return dict(part.split(":", 1) for part in (sig or "").split() if ":" in part)


def signature_changes(before: str, after: str) -> list[list[int]]:
    """The Squares ([row, col], in board order) whose entries differ."""
    a, b = _entries(before), _entries(after)
    keys = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
    return sorted([int(x) for x in k.split("-", 1)] for k in keys)


# Views at Turn boundaries never change (the action log is append-only), so
# they are kept: in this process (the latest few) and in the render cache's
# Redis (for the other processes), keyed by game, action number and colour.
# The process that commits an End Turn puts both colours' views there (it has
# computed them for the view digests anyway: services.settle_views), so a
# page's highlights do not replay the Turn from a snapshot.  A colour's view
# is only ever stored and read under that colour's own key.
_VIEWS: dict[tuple, dict] = {}


def _view_key(game: Game, seq: int, color: str) -> tuple:
    return (game.pk, str(game.created), seq, color)


def _shared_key(key: tuple) -> str:
    game_id, created, seq, color = key
    stamp = hashlib.sha256(created.encode()).hexdigest()[:8]  # a recreated test database reuses ids
    return f"{settings.WEC_REDIS_PREFIX}:hlview:{game_id}:{stamp}:{seq}:{color}"


def _shared():
    return render_cache.cache()  # one client per process


# The squares maps (_squares) of the kept views, under the same keys.
_SQUARES: dict[tuple, dict] = {}


def _keep(key: tuple, view: dict) -> None:
    if len(_VIEWS) >= 256:
        _SQUARES.pop(next(iter(_VIEWS)), None)
        _VIEWS.pop(next(iter(_VIEWS)))
    _VIEWS[key] = view
    _SQUARES.pop(key, None)


def _kept_squares(game: Game, seq: int, color: str) -> dict:
    """_squares of the view at a Turn boundary, worked out once per process."""
    key = _view_key(game, seq, color)
    out = _SQUARES.get(key) if key in _VIEWS else None  # only beside its kept view
    if out is None:
        out = _squares(_view_at(game, seq, color))
        if key in _VIEWS:
            _SQUARES[key] = out
    return out


def _changed(a: dict, b: dict) -> set[tuple[int, int]]:
    """changed_squares for two squares maps."""
    empty = frozenset()
    return {sq for sq in a.keys() | b.keys() if a.get(sq, empty) != b.get(sq, empty)}


def remember_views(game: Game, seq: int, views: dict[str, dict]) -> None:
    """After commit of the action `seq` that ended a Turn: each colour's view
    at that boundary, for later highlights (see above)."""
    shared = {}
    for color, view in views.items():
        key = _view_key(game, seq, color)
        _keep(key, view)
        shared[_shared_key(key)] = view

    def store() -> None:
        try:
            _shared().set_many(shared, timeout=settings.WEC_RENDER_CACHE_SECONDS)
        except Exception:  # only a speed-up: a dead cache must not break a committed action
            logger.warning("could not store the Turn-end views of game %s", game.pk, exc_info=True)

    # By the doorbell thread, before the doorbells this action rings (so the
    # refreshes they cause find them), not by the request.
    doorbells.later(store)


def _view_at(game: Game, seq: int, color: str) -> dict:
    key = _view_key(game, seq, color)
    view = _VIEWS.get(key)
    if view is not None:
        return view
    try:
        view = _shared().get(_shared_key(key))
    except Exception:
        view = None
    if view is None:
        engine = get_engine(game.engine)
        view = engine.view(load_state(game, upto=seq), color, history=False)
        try:
            _shared().set(_shared_key(key), view, timeout=settings.WEC_RENDER_CACHE_SECONDS)
        except Exception:
            pass
    _keep(key, view)
    return view


# The last two Turn ends as one colour's view version shows them, per
# process: (game, created, colour, version) -> [(seq, colour)].  A Turn end
# changes both players' views (the side to move changes) and a granted undo
# starts a new record epoch (in every view digest), so they are fixed for a
# view version; keyed by the player's own version, whether they are known
# here depends on nothing but that player's own view history.
_ENDS: OrderedDict[tuple, list] = OrderedDict()
_ENDS_LIMIT = 2048
_ends_lock = threading.Lock()


def _ends_key(game: Game, color: str, version: int) -> tuple:
    return (game.pk, str(game.created), color, version)


def _keep_ends(key: tuple, ends: list) -> None:
    with _ends_lock:
        _ENDS[key] = ends
        _ENDS.move_to_end(key)
        while len(_ENDS) > _ENDS_LIMIT:
            _ENDS.popitem(last=False)


def _last_ends(game: Game, color: str, version: int | None) -> list:
    """The last two Turn ends still in effect, oldest first."""
    key = _ends_key(game, color, version) if version is not None else None
    hit = _ENDS.get(key) if key is not None else None
    if hit is not None:
        return list(hit)
    # The Turns still in effect (a granted undo in a friendly game cancels some).
    ends = turn_ends(game, last=2)
    if key is not None and not transaction.get_connection().in_atomic_block:  # committed rows only
        _keep_ends(key, list(ends))
    return ends


def carry_ends(game: Game, color: str, version: int, seq: int, kind: str | None, actor: str) -> None:
    """After commit of the action `seq` (of type `kind`, by `actor`, not a
    withdrawal), which moved `color`'s view to `version`: its Turn ends follow
    from those of its version before, when this process knows them."""
    before = _ENDS.get(_ends_key(game, color, version - 1))
    if before is None or kind is None:
        return
    after = (list(before) + [(seq, actor)])[-2:] if kind == "end_turn" else list(before)
    _keep_ends(_ends_key(game, color, version), after)


def for_player(game: Game, color: str, view: dict, version: int | None = None, squares: dict | None = None) -> dict:
    """{"enemy": squares changed by the enemy's last Turn, "own": squares
    changed by the player's actions this Turn (only while it is their turn)}.
    `version` (the player's view version) lets the Turn ends be kept;
    `squares` is `squares_of(view)` when the caller has it."""
    empty = {"enemy": set(), "own": set(), "enemy_count": 0, "own_count": 0}
    if game.status != Game.Status.ACTIVE or not game.seq:
        return empty
    ends = _last_ends(game, color, version)[::-1]
    mine = next((seq for seq, c in ends if c == color), None)
    theirs = next((seq for seq, c in ends if c != color), None)
    out = dict(empty)
    turn_start, at_start = (mine or 0), None
    now = squares  # _squares(view), made once
    if theirs is not None and (mine is None or theirs > mine):
        before = _kept_squares(game, mine or 0, color)
        if game.seq == theirs:
            at_start = now = now if now is not None else _squares(view)
        else:
            at_start = _kept_squares(game, theirs, color)
        out["enemy"] = _changed(before, at_start)
        turn_start = theirs
    if game.to_move == color and game.seq > turn_start:
        at_start = at_start if at_start is not None else _kept_squares(game, turn_start, color)
        out["own"] = _changed(at_start, now if now is not None else _squares(view))
    out["enemy_count"], out["own_count"] = len(out["enemy"]), len(out["own"])
    return out


def mark(board: dict, hl: dict) -> None:
    """Put the highlight classes on the board's Squares (template data)."""
    for line in board.get("grid", []):
        for sq in line["squares"]:
            key = (sq["row"], sq["col"])
            sq["hl_enemy"] = key in hl["enemy"]
            sq["hl_own"] = key in hl["own"]


def summary(hl: dict) -> str:
    parts = []
    if hl["enemy_count"]:
        parts.append(_("%(n)s square(s) changed in the enemy's last turn, as you saw it") % {"n": hl["enemy_count"]})
    if hl["own_count"]:
        parts.append(_("%(n)s square(s) changed by your actions this turn") % {"n": hl["own_count"]})
    return "; ".join(parts)


def since_last_text(squares: list) -> str:
    """The "changed since you last looked" line: how many Squares, and which
    (the text alternative of their dashed outline)."""
    if not squares:
        return ""
    where = ", ".join(f"({r},{c})" for r, c in squares)
    return ngettext(
        "Outlined with a dashed line: %(n)s square changed since you last looked at this board: %(squares)s.",
        "Outlined with a dashed line: %(n)s squares changed since you last looked at this board: %(squares)s.",
        len(squares),
    ) % {"n": len(squares), "squares": where}
