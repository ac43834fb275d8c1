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
from collections import Counter

from django.conf import settings
from django.core.cache import caches
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import get_game_engine
from games.models import Game

logger = logging.getLogger(__name__)


def _squares(view: dict) -> dict[tuple[int, int], Counter]:
    """What the view shows on each Square, as a multiset of plain tokens."""
    out: dict[tuple[int, int], Counter] = {}

    def add(row, col, token):
        if row is None or col is None:
            return
        out.setdefault((int(row), int(col)), Counter())[token] += 1

    for p in view.get("pieces", []) or []:
        add(p.get("row"), p.get("col"), ("piece", p.get("color"), p.get("type"), p.get("level", "ground"),
                                          int(p.get("stun") or 0), tuple(sorted(p.get("articles") or []))))
    for a in view.get("articles", []) or []:
        add(a.get("row"), a.get("col"), ("article", a.get("type")))
    for pr in view.get("projectiles", []) or []:
        add(pr.get("row"), pr.get("col"), ("projectile", pr.get("kind"), pr.get("color"), pr.get("level")))
    for m in view.get("markers", []) or []:
        add(m.get("row"), m.get("col"), ("marker", m.get("type"), m.get("level")))
    return out


def changed_squares(before: dict, after: dict) -> set[tuple[int, int]]:
    a, b = _squares(before), _squares(after)
    return {sq for sq in set(a) | set(b) if a.get(sq, Counter()) != b.get(sq, Counter())}


def signature(view: dict) -> str:
    """What `view` shows on each Square, compactly: "r-c:hash" for every
    Square with something on it, in board order (about 12 bytes a Square).
    Two views have the same entry for a Square exactly when `changed_squares`
    would not name it (up to a 32-bit hash collision)."""
    parts = []
    for (row, col), tokens in sorted(_squares(view).items()):
        text = "|".join(sorted(f"{token!r}*{n}" for token, n in tokens.items()))
        parts.append(f"{row}-{col}:{hashlib.blake2b(text.encode(), digest_size=4).hexdigest()}")
    return " ".join(parts)


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
    return caches[settings.WEC_RENDER_CACHE]


def _keep(key: tuple, view: dict) -> None:
    if len(_VIEWS) >= 256:
        _VIEWS.pop(next(iter(_VIEWS)))
    _VIEWS[key] = view


def remember_views(game: Game, seq: int, views: dict[str, dict]) -> None:
    """After commit of the action `seq` that ended a Turn: each colour's view
    at that boundary, for later highlights (see above)."""
    shared = {}
    for color, view in views.items():
        key = _view_key(game, seq, color)
        _keep(key, view)
        shared[_shared_key(key)] = view
    try:
        _shared().set_many(shared, timeout=settings.WEC_RENDER_CACHE_SECONDS)
    except Exception:  # only a speed-up: a dead cache must not break a committed action
        logger.warning("could not store the Turn-end views of game %s", game.pk, exc_info=True)


def _view_at(game: Game, seq: int, color: str) -> dict:
    from games.selectors import load_state

    key = _view_key(game, seq, color)
    view = _VIEWS.get(key)
    if view is not None:
        return view
    try:
        view = _shared().get(_shared_key(key))
    except Exception:
        view = None
    if view is None:
        engine = get_game_engine(game.engine)
        view = engine.view(load_state(game, upto=seq), color)
        try:
            _shared().set(_shared_key(key), view, timeout=settings.WEC_RENDER_CACHE_SECONDS)
        except Exception:
            pass
    _keep(key, view)
    return view


def for_player(game: Game, color: str, view: dict) -> dict:
    """{"enemy": squares changed by the enemy's last Turn, "own": squares
    changed by the player's actions this Turn (only while it is their turn)}."""
    empty = {"enemy": set(), "own": set(), "enemy_count": 0, "own_count": 0}
    if game.status != Game.Status.ACTIVE or not game.seq:
        return empty
    from games.takeback import turn_ends

    # The Turns still in effect (a granted undo in a friendly game cancels some).
    ends = turn_ends(game, last=2)[::-1]
    mine = next((seq for seq, c in ends if c == color), None)
    theirs = next((seq for seq, c in ends if c != color), None)
    out = dict(empty)
    turn_start, at_start = (mine or 0), None
    if theirs is not None and (mine is None or theirs > mine):
        before = _view_at(game, mine or 0, color)
        at_start = view if game.seq == theirs else _view_at(game, theirs, color)
        out["enemy"] = changed_squares(before, at_start)
        turn_start = theirs
    if game.to_move == color and game.seq > turn_start:
        at_start = at_start or _view_at(game, turn_start, color)
        out["own"] = changed_squares(at_start, view)
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
