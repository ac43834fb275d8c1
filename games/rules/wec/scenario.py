"""Scenario documents: the board editor's format, loaded and dumped.

A document is plain JSON data (see docs/engine-api.md). Loading checks that the
position obeys the board's rules and raises ``ValueError`` saying what is wrong
and where; missing keys take the standard game's values.

Manual: the board editor (l. 305-315) and the board's rules it must keep:
two Pieces per level and two Articles per Square (l. 183-195), carrying
capacity (l. 567-571), reinforcements (l. 281-290, 1955-1959).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from .constants import (
    AIR,
    ARTICLE_TYPES,
    COLORS,
    GROUND,
    HANDED,
    LEVEL_INDEX,
    LEVELS,
    NATIVE_LEVELS,
    PIECE_TYPES,
    SIZE,
    WEAPONS,
)
from .document import dump_scenario, transport_doc
from .options import resolve
from .state import Game, Piece, Reinforcement, empty_turn

_TURN_WEAPON_KEYS = set(WEAPONS)


def capacity(kind: str, articles: tuple[str, ...] | list[str]) -> int:
    """How many Articles a Piece may carry: 1, or 3 counting an XXX box; the XXX
    Pawn's inherent box lets it carry 2 (boxes never stack)."""
    if kind == "xxx_pawn":
        return 2
    return 3 if "xxx" in articles else 1


def _where(row: int, col: int, level: str | None = None) -> str:
    return f"({row}, {col}{', ' + level if level else ''})"


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {value!r}")
    return value


def _rc(d: dict[str, Any], what: str) -> tuple[int, int]:
    try:
        row, col = _int(d["row"], f"{what} row"), _int(d["col"], f"{what} col")
    except KeyError as e:
        raise ValueError(f"{what} needs {e.args[0]!r}") from None
    if not (1 <= row <= SIZE and 1 <= col <= SIZE):
        raise ValueError(f"{what} at {_where(row, col)} is off the board (rows and columns run 1 to 10)")
    return row, col


def _piece(d: Any, index: int) -> Piece:
    if not isinstance(d, dict):
        raise ValueError(f"piece #{index} must be an object")
    kind = d.get("type")
    if kind not in PIECE_TYPES:
        raise ValueError(f"piece #{index} has unknown type {kind!r}")
    what = f"{kind} #{index}"
    color = d.get("color")
    if color not in COLORS:
        raise ValueError(f"{what} has unknown color {color!r}")
    row, col = _rc(d, what)
    level_name = d.get("level", "ground")
    if level_name not in LEVEL_INDEX:
        raise ValueError(f"{what} at {_where(row, col)} has unknown level {level_name!r}")
    hand = d.get("hand")
    if kind in HANDED:
        hand = hand or "right"
        if hand not in ("left", "right"):
            raise ValueError(f"{what} at {_where(row, col)} has unknown hand {hand!r}")
    elif hand is not None:
        raise ValueError(f"{what} at {_where(row, col)} has no handedness, but hand {hand!r} was given")
    articles = d.get("articles", [])
    if not isinstance(articles, list):
        raise ValueError(f"{what} at {_where(row, col)}: articles must be a list")
    for a in articles:
        if a not in ARTICLE_TYPES:
            raise ValueError(f"{what} at {_where(row, col)} carries unknown Article {a!r}")
    if len(articles) > capacity(kind, articles):
        raise ValueError(
            f"{what} at {_where(row, col)} carries {len(articles)} Articles; it can carry "
            f"{capacity(kind, articles)}"
        )
    cooldowns = d.get("cooldowns", {})
    if not isinstance(cooldowns, dict) or any(k not in _TURN_WEAPON_KEYS and k != "jet_rocket" for k in cooldowns):
        raise ValueError(f"{what} at {_where(row, col)}: cooldowns must map weapon types to turns")
    return Piece(
        id=_int(d.get("id", 0), f"{what} id"),
        type=kind,
        color=color,
        row=row,
        col=col,
        level=LEVEL_INDEX[level_name],
        hand=hand,
        articles=tuple(articles),
        moved=bool(d.get("moved", False)),
        stun=_int(d.get("stun", 0), f"{what} stun"),
        cooldowns=tuple(sorted((k, _int(v, f"{what} cooldown")) for k, v in cooldowns.items())),
        transport=_transport(d.get("transport")),
    )


def _transport(t: Any) -> tuple[Any, ...] | None:
    if t is None:
        return None
    if not isinstance(t, dict) or t.get("article") not in ("bike", "jump_pack", "scuba"):
        raise ValueError(f"transport must be an object with article bike, jump_pack or scuba, not {t!r}")
    dest = t.get("to")
    if not (
        isinstance(dest, list)
        and len(dest) in (2, 3)
        and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= SIZE for v in dest[:2])
        and (len(dest) == 2 or dest[2] in LEVEL_INDEX)
    ):
        raise ValueError("transport needs 'to': [row, col] or [row, col, level] on the board")
    path = t.get("path", "beeline")
    if path not in ("beeline", "port", "starboard"):
        raise ValueError(f"transport path must be beeline, port or starboard, not {path!r}")
    level = LEVEL_INDEX[dest[2]] if len(dest) == 3 else GROUND
    return (t["article"], dest[0], dest[1], level, path, bool(t.get("fresh", False)))


def _check_board(game: Game) -> None:
    for slot, ids in enumerate(game.board):
        if not ids:
            continue
        sq, level = divmod(slot, 3)
        row, col = sq // SIZE + 1, sq % SIZE + 1
        where = _where(row, col, LEVELS[level])
        pieces = [game.pieces[i] for i in ids]
        if len(pieces) > 2:
            raise ValueError(f"{len(pieces)} pieces at {where}; a level of a Square holds at most 2")
        if len(pieces) == 2:
            a, b = pieces
            if a.color != b.color:
                # Only a partial Conversion leaves enemies together: on the
                # ground any two, above or below two that can each stay there.
                if level != GROUND and not all(
                    level in NATIVE_LEVELS.get(p.type, ()) or p.transport is not None for p in pieces
                ):
                    raise ValueError(f"enemy pieces share {where}")
            elif not (a.coexists or b.coexists):
                raise ValueError(f"{a.type} and {b.type} at {where}: two pieces at one level need a type that coexists")
        for p in pieces:
            if level != GROUND and level not in NATIVE_LEVELS.get(p.type, ()) and p.transport is None:
                carrier = "chopper" if level == AIR else "sub"
                if not any(q.type == carrier and q.color == p.color for q in pieces if q is not p):
                    raise ValueError(f"{p.type} at {where} cannot be there without a {carrier} carrying it")
    for sq, arts in enumerate(game.ground):
        if len(arts) > 2:
            raise ValueError(
                f"{len(arts)} Articles on the ground at {_where(sq // SIZE + 1, sq % SIZE + 1)}; at most 2 fit"
            )


def load_scenario(doc: dict[str, Any], history: Sequence[dict[str, Any]] | None = None) -> Game:
    """A game from a scenario document; raises ``ValueError`` on a bad one.

    ``history``, when given, is the game's record of finished Turns (what
    ``turn_records`` returns) for a document dumped with ``history=False``;
    it is used as it is, not copied, so the caller must not change it.  A
    ``history`` that is neither a list nor a tuple is kept as given: a
    sequence that reads its records only when asked (it must answer ``len``,
    indexing, slicing, iteration and ``+ tuple`` as a tuple does).  Playing
    on reads none of them: ``turn_count`` takes the length, ``turn_records(g,
    n)`` and ``history(g, c, start=n)`` only the records from n on."""
    if not isinstance(doc, dict):
        raise ValueError("a scenario document must be an object")
    known = {"to_move", "options", "pieces", "articles", "reinforcements", "locks", "turn_number", "turn",
             "projectiles", "result", "log", "turn_log", "next_id", "revealed", "markers", "start"}
    for key in doc:
        if key not in known:
            raise ValueError(f"unknown scenario key {key!r}")
    game = Game(resolve(doc.get("options")))
    # The position the game's history starts from, kept for Undo: given, or
    # this document itself when it starts a game (no Turn played yet).
    if doc.get("start") is not None:
        game.start = copy.deepcopy(doc["start"])
    elif not doc.get("log") and not doc.get("turn_log") and not history:
        game.start = copy.deepcopy({k: v for k, v in doc.items() if k != "start"})
    to_move = doc.get("to_move", "black")
    if to_move not in COLORS:
        raise ValueError(f"to_move must be 'black' or 'white', not {to_move!r}")
    game.to_move = to_move
    game.turn_number = _int(doc.get("turn_number", 1), "turn_number")
    pieces = doc.get("pieces", [])
    if not isinstance(pieces, list):
        raise ValueError("pieces must be a list")
    parsed = [_piece(d, i) for i, d in enumerate(pieces, 1)]
    ids = [p.id for p in parsed if p.id > 0]
    if len(ids) != len(set(ids)):
        raise ValueError("two pieces share one id")
    game.next_id = max(ids, default=0) + 1
    for p in parsed:
        if p.id > 0:
            game.add(p)
    for p in parsed:
        if p.id <= 0:
            game.add(p)
    if "next_id" in doc:
        game.next_id = max(game.next_id, _int(doc["next_id"], "next_id"))
    articles = doc.get("articles", [])
    if not isinstance(articles, list):
        raise ValueError("articles must be a list")
    for i, a in enumerate(articles, 1):
        if not isinstance(a, dict) or a.get("type") not in ARTICLE_TYPES:
            raise ValueError(f"article #{i} has unknown type {a.get('type') if isinstance(a, dict) else a!r}")
        row, col = _rc(a, f"article {a['type']} #{i}")
        sq = (row - 1) * SIZE + col - 1
        game.set_ground(sq, game.ground[sq] + (a["type"],))
    _check_board(game)
    game.reinforcements = tuple(_reinforcements(doc.get("reinforcements", [])))
    game.locks = tuple(_locks(game, doc.get("locks", [])))
    turn = empty_turn()
    turn.update(copy.deepcopy(doc.get("turn", {})))
    game.turn = turn
    game.projectiles = tuple(copy.deepcopy(doc.get("projectiles", [])))
    game.revealed = tuple((int(a), int(b)) for a, b in doc.get("revealed", []))
    markers = doc.get("markers", {})
    game.markers = {c: tuple((int(m[0]), str(m[1])) for m in markers.get(c, ())) for c in ("black", "white")}
    game.result = copy.deepcopy(doc.get("result"))
    if history is None:
        game.log = tuple(copy.deepcopy(doc.get("log", [])))
    elif isinstance(history, (list, tuple)):
        game.log = tuple(history)
    else:
        game.log = history  # type: ignore[assignment]  # read on demand (see above)
    game.turn_log = tuple(copy.deepcopy(doc.get("turn_log", [])))
    game.seal()
    return game


def _reinforcements(items: Any) -> list[Reinforcement]:
    if not isinstance(items, list):
        raise ValueError("reinforcements must be a list")
    out = []
    by_square: dict[tuple[int, int], list[Reinforcement]] = {}
    for i, d in enumerate(items, 1):
        if not isinstance(d, dict) or d.get("type") not in PIECE_TYPES:
            raise ValueError(f"reinforcement #{i} has unknown type")
        if d.get("color") not in COLORS:
            raise ValueError(f"reinforcement #{i} has unknown color {d.get('color')!r}")
        row, col = _rc(d, f"reinforcement {d['type']} #{i}")
        hand = d.get("hand")
        if d["type"] in HANDED:
            hand = hand or "right"
        elif hand is not None:
            raise ValueError(f"reinforcement {d['type']} at {_where(row, col)} has no handedness")
        r = Reinforcement(d["type"], d["color"], row, col, hand, bool(d.get("armed", False)),
                          bool(d.get("ready", False)))
        same = by_square.setdefault((row, col), [])
        if same and (hand is not None or any(x.hand is not None for x in same)):
            raise ValueError(
                f"reinforcements at {_where(row, col)}: a handed reinforcement must be alone on its Square"
            )
        same.append(r)
        out.append(r)
    return out


def _locks(game: Game, items: Any) -> list[tuple[int, int]]:
    if not isinstance(items, list):
        raise ValueError("locks must be a list")
    out = []
    for i, d in enumerate(items, 1):
        if not isinstance(d, dict):
            raise ValueError(f"lock #{i} must be an object")
        watcher = _lock_end(game, d.get("watcher"), "anti_stealth", i)
        watched = _lock_end(game, d.get("watched"), "stealth", i)
        out.append((watcher, watched))
    return out


def _lock_end(game: Game, ref: Any, ability: str, i: int) -> int:
    if isinstance(ref, int) and not isinstance(ref, bool):
        if ref not in game.pieces:
            raise ValueError(f"lock #{i} names piece id {ref}, which is not on the board")
        return ref
    if isinstance(ref, list) and len(ref) == 3 and ref[2] in LEVEL_INDEX:
        slot = ((ref[0] - 1) * SIZE + ref[1] - 1) * 3 + LEVEL_INDEX[ref[2]]
        for pid in game.board[slot] if 0 <= slot < len(game.board) else ():
            if game.pieces[pid].has(ability):
                return pid
    raise ValueError(f"lock #{i}: no piece with {ability} at {ref!r}")


def turn_records(game: Game, start: int = 0) -> list[dict[str, Any]]:
    """Copies of the game's records of finished Turns from the ``start``-th
    on (0 = the first): the ``log`` that ``dump_scenario(game, history=False)``
    leaves out.  A finished Turn's record never changes afterwards, so a caller
    may keep the ones it has and ask only for the new ones."""
    return copy.deepcopy(list(game.log[start:]))


def turn_count(game: Game) -> int:
    """How many finished Turns the game has recorded (``len(turn_records(game))``, without copying)."""
    return len(game.log)


__all__ = ["load_scenario", "dump_scenario", "turn_records", "turn_count", "capacity", "transport_doc"]
