"""Which enemy Pieces a side cannot see.

A Piece is concealed from the enemy by Stealth (an inherent ability or a
carried Article) or by being at sub level (submersion). Stealth is countered by
an Anti-Stealth lock-on, or, with the ``stealth_detect_in_range`` option, by an
enemy Anti-Stealth within ``stealth_detection_range``; submersion only by an
enemy Torpedo Launcher within ``submersion_detection_range``. The
``dominance`` option decides a stealthed Piece at sub level that is detected by
one means only. Distances are king steps (Chebyshev), whatever the levels.

Manual: Stealth and Anti-Stealth l. 108-112, 165, 175; lock-on and
detection at range l. 488-492; firing gives a Piece away l. 493-495; the
hidden Sub level l. 146-153, 394-405.
"""

from __future__ import annotations

from typing import Any

from . import fastpaths
from .constants import INHERENT, PRIMARY, SIZE, SUB
from .state import Game, Piece


def is_stealthed(game: Game, piece: Piece) -> bool:
    """True when the Piece's Stealth is in force (Kings only by option)."""
    if not game.options["stealth_invisibility"] or not piece.has("stealth"):
        return False
    return not piece.is_primary or game.options["stealthed_kings"]


def hidden_from(game: Game, color: str) -> frozenset[int]:
    """Ids of the enemy Pieces that ``color`` cannot see now.

    A fast path of :func:`hidden_by_rule`: a game handed out by ``apply``
    never changes, so the answer is kept on it (``Derived.hidden``, None on
    a game still being built), and worked out by :func:`_hidden_sets`."""
    if not fastpaths.FAST_PATHS:
        return hidden_by_rule(game, color)
    cache = game.derived.hidden
    if cache is not None:
        found = cache.get(color)
        if found is None:
            found = cache[color] = _hidden_sets(game, color)[0]
        return found
    return _hidden_sets(game, color)[0]


def hidden_by_rule(game: Game, color: str) -> frozenset[int]:
    """Ids of the enemy Pieces that ``color`` cannot see now, by the rules
    as the manual words them (the plain rule of the hidden-set fast paths).

    An enemy Piece seen firing or taking stays seen while it stays where it
    was seen (a sighting, l. 493-495). Otherwise a Piece with Stealth in
    force (:func:`is_stealthed`, l. 108-112, 165) is hidden unless a Piece of
    ``color`` locked on to it with an Anti-Stealth (the ``stealth_lock_on``
    option, l. 488-492) or, with ``stealth_detect_in_range``, one with an
    Anti-Stealth stands within ``stealth_detection_range`` king steps
    (l. 175, 488-492). At sub level with ``submersion_invisibility`` (l.
    146-153, 394-405) a Piece is hidden unless a Piece of ``color`` with a
    Torpedo Launcher stands within ``submersion_detection_range``; a
    Stealthed Piece at sub level is seen as the ``dominance`` option says
    (l. 1940-1952): by the Torpedo Launcher alone ("submersion"), or only
    when both ways find it ("stealth")."""
    opts = game.options
    pieces = game.pieces
    own = [p for p in pieces.values() if p.color == color]
    sighted = set(game.revealed)
    locked = {watched for watcher, watched in game.locks
              if opts["stealth_lock_on"] and watcher in pieces and pieces[watcher].color == color}

    def near(ability: str, p: Piece, reach: int) -> bool:
        return any(q.has(ability) and max(abs(q.row - p.row), abs(q.col - p.col)) <= reach for q in own)

    hidden = set()
    for p in pieces.values():
        if p.color == color or (p.id, p.slot) in sighted:
            continue
        below = opts["submersion_invisibility"] and p.level == SUB
        sonar = below and near("torpedo_launcher", p, opts["submersion_detection_range"])
        if is_stealthed(game, p):
            seen = p.id in locked or (opts["stealth_detect_in_range"]
                                      and near("anti_stealth", p, opts["stealth_detection_range"]))
            if below:
                seen = sonar if opts["dominance"] == "submersion" else sonar and seen
        else:
            seen = not below or sonar
        if not seen:
            hidden.add(p.id)
    return frozenset(hidden)


def same_sight(before: Game, after: Game, pieces_alike: bool = False) -> bool:
    """Whether ``after`` (made from ``before`` by one action) hides the same
    Pieces from each side, so that its hidden sets are the ones before (a
    fast path of :func:`hidden_by_rule`, which would work them out again):
    the same Pieces that may hide or find hidden ones
    (``Derived.special``), each the same as far as sight goes (``_sight_key``: its
    type, colour, place and Articles; not its cooldowns, stun or Transport),
    the same lock-ons with watchers of the same colours, the same sightings
    of those Pieces (a sighting of any other Piece is never read) and the
    same options: everything :func:`hidden_by_rule` reads.

    ``pieces_alike`` says the caller knows the Pieces are alike as far as
    sight goes (``after`` is a copy of ``before`` whose ``Derived.sight`` is
    still 0): the special Pieces and the watchers' colours are not
    compared again."""
    if not (
        fastpaths.FAST_PATHS
        and before.derived.hidden is not None
        and after.options is before.options
        and (pieces_alike or after.derived.special == before.derived.special)
        and after.locks == before.locks
    ):
        return False
    special = after.derived.special
    if not pieces_alike:
        old, new = before.pieces, after.pieces
        for i in special:
            p, q = new.get(i), old.get(i)
            if p is not q and (p is None or q is None or _sight_key(p) != _sight_key(q)):
                return False
        if not _watchers_alike(old, new, after.locks):
            return False
    if after.revealed != before.revealed:
        # Only the sightings of the Pieces that may hide are read: alike when
        # none of the sightings only one game has is one of theirs (the two
        # sets, each cut down to those Pieces, are then equal).
        for r in set(after.revealed).symmetric_difference(before.revealed):
            if r[0] in special:
                return False
    return True


def _watchers_alike(old: dict, new: dict, locks) -> bool:
    """Whether every lock-on's watcher is the same Piece, or one of the same
    colour, in both states (of a lock-on, :func:`hidden_by_rule` reads only its
    watcher's colour)."""
    for w, _ in locks:
        p, q = new.get(w), old.get(w)
        if p is not q and (p is None or q is None or p.color != q.color):
            return False
    return True


def _sight_key(p: Piece) -> tuple[Any, ...]:
    """Everything about a Piece that :func:`hidden_by_rule` reads."""
    return (p.id, p.type, p.color, p.row, p.col, p.level, p.articles)


#: Piece types with Stealth of their own.
_STEALTHY = frozenset(t for t, abilities in INHERENT.items() if "stealth" in abilities)
#: Piece types with a Torpedo Launcher, and with an Anti-Stealth, of their own.
_SONAR = frozenset(t for t, abilities in INHERENT.items() if "torpedo_launcher" in abilities)
_RADAR = frozenset(t for t, abilities in INHERENT.items() if "anti_stealth" in abilities)


def hidden_both(game: Game) -> tuple[frozenset[int], frozenset[int]]:
    """(:func:`hidden_by_rule` of ``game`` for black, the same for white),
    worked out (a fast path) in one pass over the special Pieces
    (``record`` needs both whenever an action changed what sight reads)."""
    if not fastpaths.FAST_PATHS:
        return hidden_by_rule(game, "black"), hidden_by_rule(game, "white")
    return _hidden_sets(game, None)


def _hidden_sets(game: Game, color: str | None) -> tuple[frozenset[int], frozenset[int]]:
    """What ``color`` cannot see, first (the second is then not worked
    out); with ``color`` None, what black cannot see and what white cannot:
    :func:`hidden_by_rule` for the Pieces that may hide or find hidden ones
    (``Derived.special``, the only ones it finds hidden or counts as
    finders), :func:`is_stealthed` and ``Piece.has`` inlined."""
    opts = game.options
    stealth_on = opts["stealth_invisibility"]
    kings_too = opts["stealthed_kings"]
    sub_on = opts["submersion_invisibility"]
    in_range = opts["stealth_detect_in_range"]
    pieces = game.pieces
    # Per colour (black, white): its Pieces that may hide from the other
    # side, Stealthed ones (is_stealthed) and the others at sub level apart,
    # and its finders (Torpedo Launchers; Anti-Stealths, which find within
    # range only with that option).
    stealthy: tuple[list[Piece], list[Piece]] = ([], [])
    submerged: tuple[list[Piece], list[Piece]] = ([], [])
    sonar: tuple[list[Piece], list[Piece]] = ([], [])
    radar: tuple[list[Piece], list[Piece]] = ([], [])
    # Only the Pieces that may hide or find hidden ones (Derived.special) matter;
    # Piece.has is inlined (this runs for every action that changes sight).
    # With one colour asked for, its own Pieces are only finders and the
    # enemy's only hide (what the other side sees is not worked out).
    for pid in game.derived.special:
        p = pieces[pid]
        kind = p.type
        arts = p.articles
        side = p.color != "black"
        if color is None or p.color == color:
            if kind in _SONAR or (arts and "torpedo_launcher" in arts):
                sonar[side].append(p)
            if in_range and (kind in _RADAR or (arts and "anti_stealth" in arts)):
                radar[side].append(p)
            if color is not None:
                continue
        if stealth_on and (kind in _STEALTHY or (arts and "stealth" in arts)) and (kings_too or kind not in PRIMARY):
            stealthy[side].append(p)
        elif sub_on and p.level == SUB:
            submerged[side].append(p)
    if color is not None:
        # The one side asked for: the other side's Pieces hide from it.
        mine = color != "black"
        if not (stealthy[not mine] or submerged[not mine]):
            return _NONE, _NONE
        return _unseen(game, color, stealthy[not mine], submerged[not mine], sonar[mine], radar[mine],
                       set(game.revealed)), _NONE
    if not (stealthy[0] or stealthy[1] or submerged[0] or submerged[1]):
        return _NONE, _NONE
    # A sighting holds while the Piece stays where it was seen.
    sighted = set(game.revealed)
    return (_unseen(game, "black", stealthy[True], submerged[True], sonar[False], radar[False], sighted),
            _unseen(game, "white", stealthy[False], submerged[False], sonar[True], radar[True], sighted))


def _unseen(game: Game, color: str, stealthy: list[Piece], submerged: list[Piece], sonar: list[Piece],
            radar: list[Piece], sighted: set[tuple[int, int]]) -> frozenset[int]:
    """Which of the enemy Pieces that may hide, ``stealthy`` (Stealthed, at
    any level) and ``submerged`` (at sub level only), ``color`` does not see
    with those finders; ``sighted``, the game's sightings as a set."""
    if not (stealthy or submerged):
        return _NONE
    opts = game.options
    hidden = set()
    if submerged:
        # Submersion is countered only by a Torpedo Launcher within range.
        u_range = opts["submersion_detection_range"]
        for p in submerged:
            if sighted and (p.id, ((p.row - 1) * SIZE + p.col - 1) * 3 + p.level) in sighted:
                continue
            if not (sonar and _any_near(sonar, p, u_range)):
                hidden.add(p.id)
    if stealthy:
        pieces = game.pieces
        locked = (
            {watched for watcher, watched in game.locks if watcher in pieces and pieces[watcher].color == color}
            if opts["stealth_lock_on"] and game.locks
            else _NONE
        )
        s_range = opts["stealth_detection_range"]
        sub_on = opts["submersion_invisibility"]
        for p in stealthy:
            if sighted and (p.id, ((p.row - 1) * SIZE + p.col - 1) * 3 + p.level) in sighted:
                continue
            # Stealth is countered by a lock-on or an Anti-Stealth within
            # range; at sub level the dominance option weighs in a Torpedo
            # Launcher too (each way of being seen worked out only where it
            # decides).
            seen = p.id in locked or bool(radar and _any_near(radar, p, s_range))
            if p.level == SUB and sub_on:
                sub_seen = bool(sonar and _any_near(sonar, p, opts["submersion_detection_range"]))
                seen = sub_seen if opts["dominance"] == "submersion" else (sub_seen and seen)
            if not seen:
                hidden.add(p.id)
    return frozenset(hidden) if hidden else _NONE


def _any_near(finders: list[Piece], p: Piece, distance: int) -> bool:
    """Whether any of ``finders`` is within ``distance`` king steps of ``p``."""
    row, col = p.row, p.col
    for d in finders:
        if max(abs(d.row - row), abs(d.col - col)) <= distance:
            return True
    return False


_NONE: frozenset[int] = frozenset()


def sees_sub(game: Game, color: str, row: int, col: int) -> bool:
    """:func:`sees_sub_by_rule`, looking only at the Pieces that may find
    hidden ones (a fast path)."""
    if not fastpaths.FAST_PATHS:
        return sees_sub_by_rule(game, color, row, col)
    if not game.options["submersion_invisibility"]:
        return True
    reach = game.options["submersion_detection_range"]
    pieces = game.pieces
    # A Piece with a Torpedo Launcher (its own or carried) is special (see
    # state.is_special): only those need looking at.
    for pid in game.derived.special:
        p = pieces[pid]
        # (Piece.has inlined.)
        if p.color == color and (p.type in _SONAR or "torpedo_launcher" in p.articles) and max(
                abs(p.row - row), abs(p.col - col)) <= reach:
            return True
    return False


def sees_sub_by_rule(game: Game, color: str, row: int, col: int) -> bool:
    """Whether ``color`` sees what is at sub level on (row, col): always
    without submersion invisibility, else when a Piece of its own with a
    Torpedo Launcher stands within ``submersion_detection_range`` (l.
    146-153, 394-405)."""
    if not game.options["submersion_invisibility"]:
        return True
    reach = game.options["submersion_detection_range"]
    return any(p.color == color and p.has("torpedo_launcher") and max(abs(p.row - row), abs(p.col - col)) <= reach
               for p in game.pieces.values())


#: The "continue to see" markers a side keeps at most (the oldest go first).
MAX_MARKERS = 8

#: Read as an empty ``Derived.hidden`` (a game still being built has None).
_NO_CACHE: dict[str, frozenset[int]] = {}


def update_markers(before: Game, after: Game) -> None:
    """:func:`update_markers_by_rule`, doing nothing (a fast path) when no
    Piece came into or went out of sight and none was added, removed or
    converted, and counting the enemy's Pieces from its side's ids
    (``Derived.sides``)."""
    if not fastpaths.FAST_PATHS:
        update_markers_by_rule(before, after)
        return
    # hidden_from, its kept answers read here (both games keep both sides'
    # sets once ``record`` has run: a call each saved).
    cache_after = after.derived.hidden or _NO_CACHE
    cache_before = before.derived.hidden or _NO_CACHE
    markers_after = after.markers
    if (
        before.derived.census == after.derived.census
        and (seen := cache_after.get("black")) is not None
        and seen is cache_before.get("black")
        and (seen := cache_after.get("white")) is not None
        and seen is cache_before.get("white")
        and len(markers_after["black"]) <= MAX_MARKERS
        and len(markers_after["white"]) <= MAX_MARKERS
    ):
        # Both sides' sets kept as the same objects (``record`` keeps the
        # earlier object whenever a set comes out equal) and no Piece added,
        # removed or converted: for each side the markers would come out as
        # they are (most actions).
        return
    for color in ("black", "white"):
        ha = cache_after.get(color)
        if ha is None:
            ha = hidden_from(after, color)
        old = after.markers[color]
        if not old and not ha:
            continue
        hb = cache_before.get(color)
        if hb is None:
            hb = hidden_from(before, color)
        if ha == hb and before.derived.census == after.derived.census and len(old) <= MAX_MARKERS:
            # Nobody came into or went out of sight, and no Piece was added,
            # removed or converted: the markers stay as they are.
            continue
        enemy = "white" if color == "black" else "black"
        _mark(after, color, old, before, hb, before.derived.sides[enemy], after, ha, after.derived.sides[enemy])


def update_markers_by_rule(before: Game, after: Game) -> None:
    """Keep each side's "continue to see" markers (l. 1719-1721): where an
    enemy Piece it saw went out of sight (``before`` to ``after``, one
    action), a marker of its type. A marker of a type goes once that side
    sees one more enemy Piece of that type than before (it may be the one
    that vanished); a side keeps the newest ``MAX_MARKERS``. Everything here
    is what that side itself saw, so markers leak nothing."""
    for color in ("black", "white"):
        enemy = "white" if color == "black" else "black"
        _mark(after, color, after.markers[color],
              before, hidden_by_rule(before, color), sorted(i for i, p in before.pieces.items() if p.color == enemy),
              after, hidden_by_rule(after, color), sorted(i for i, p in after.pieces.items() if p.color == enemy))


def _mark(game: Game, color: str, old: tuple[tuple[int, str], ...], before: Game, hb: frozenset[int],
          enemies_before: Any, after: Game, ha: frozenset[int], enemies_after: Any) -> None:
    """Set ``color``'s markers on ``game`` from ``old`` (see
    :func:`update_markers_by_rule`): ``hb`` and ``ha`` are what it could not
    see before and after, ``enemies_before`` and ``enemies_after`` the enemy
    ids in id order."""
    markers = list(old)
    for pid in sorted(ha - hb):
        p = before.pieces.get(pid)
        q = after.pieces[pid]
        if p is not None and p.color == q.color:
            markers.append((p.slot, p.type))
    if old:
        kinds = {m[1] for m in old}
        counts = []
        # The enemy Pieces it sees, of the markers' types, before and after.
        for state, hidden, enemies in ((before, hb, enemies_before), (after, ha, enemies_after)):
            tally: dict[str, int] = {}
            pieces = state.pieces
            for pid in enemies:
                kind = pieces[pid].type
                if kind in kinds and pid not in hidden:
                    tally[kind] = tally.get(kind, 0) + 1
            counts.append(tally)
        for kind in kinds:
            extra = counts[1].get(kind, 0) - counts[0].get(kind, 0)
            while extra > 0:
                gone = next((m for m in markers if m[1] == kind), None)
                if gone is None:
                    break
                markers.remove(gone)
                extra -= 1
    new = tuple(markers[-MAX_MARKERS:])
    if new != old:
        game.markers = dict(game.markers, **{color: new})
