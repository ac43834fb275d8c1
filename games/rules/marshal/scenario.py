"""Scenario documents: a game from plain JSON data and back (docs/engine-api.md).

A document holds the set-up armies (l. 3-4, 12), the volcanoes (l. 18) and
everything a game in progress adds: what each side has revealed (l. 14), the
turns played and how the game ended (l. 19-22)."""

from __future__ import annotations

from typing import Any

from .constants import ARMY, COLORS, IMMOBILE, TYPES
from .options import resolve
from .state import Game, LoggedMove, Piece, Square, Turn

_DOC_KEYS = {
    "phase",
    "to_move",
    "turn_number",
    "options",
    "volcanoes",
    "turn",
    "pieces",
    # internal keys dump_scenario writes so that a game round-trips
    "ready",
    "removed",
    "log",
    "current",
    "outcome",
}
_PIECE_KEYS = {"id", "type", "color", "row", "col", "revealed", "no_return", "no_return_until"}
_REASONS = ("hq_captured", "no_mobile_pieces", "no_moves", "turn_limit")


def _square(value: Any, where: str, rows: int, columns: int) -> Square:
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(type(v) is int for v in value)):
        raise ValueError(f"{where}: a square is [row, col], not {value!r}")
    r, c = value
    if not (1 <= r <= rows and 1 <= c <= columns):
        raise ValueError(f"{where}: ({r},{c}) is off the {rows}x{columns} board")
    return (r, c)


def _piece(entry: Any, where: str, rows: int, columns: int) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: a piece is an object")
    unknown = sorted(set(entry) - _PIECE_KEYS, key=str)
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r}")
    for key in ("type", "color", "row", "col"):
        if key not in entry:
            raise ValueError(f"{where}: missing {key!r}")
    if entry["type"] not in TYPES:
        raise ValueError(f"{where}: unknown type {entry['type']!r}")
    if entry["color"] not in COLORS:
        raise ValueError(f"{where}: unknown colour {entry['color']!r}")
    square = _square([entry["row"], entry["col"]], where, rows, columns)
    if "id" in entry and (type(entry["id"]) is not int or entry["id"] < 1):
        raise ValueError(f"{where}: 'id' must be a positive whole number")
    revealed = entry.get("revealed", False)
    if type(revealed) is not bool:
        raise ValueError(f"{where}: 'revealed' must be true or false")
    no_return = entry.get("no_return")
    if no_return is not None:
        if entry["type"] in IMMOBILE:
            raise ValueError(f"{where}: a {entry['type']} never moves, so it has no 'no_return'")
        no_return = _square(no_return, f"{where} no_return", rows, columns)
    until = entry.get("no_return_until")
    if until is not None and type(until) is not int:
        raise ValueError(f"{where}: 'no_return_until' must be a whole number or null")
    return {
        "id": entry.get("id"),
        "type": entry["type"],
        "color": entry["color"],
        "square": square,
        "revealed": revealed,
        "no_return": no_return,
        "no_return_until": until,
        "has_until": "no_return_until" in entry,
    }


def _move(value: Any, where: str, rows: int, columns: int) -> LoggedMove:
    if not (isinstance(value, list) and len(value) == 5):
        raise ValueError(f"{where}: a logged move is [id, from, to, defender id or null, result]")
    pid, a, b, d, res = value
    if type(pid) is not int or (d is not None and type(d) is not int) or res not in ("", "+", "-", "#"):
        raise ValueError(f"{where}: malformed logged move {value!r}")
    return (pid, _square(a, where, rows, columns), _square(b, where, rows, columns), d, res)


def load_scenario(doc: Any) -> Game:
    """A game from a scenario document; ``ValueError`` says what is wrong and where."""
    if not isinstance(doc, dict):
        raise ValueError("a scenario is an object")
    unknown = sorted(set(doc) - _DOC_KEYS, key=str)
    if unknown:
        raise ValueError(f"unknown scenario key {unknown[0]!r}")
    opts = resolve(doc.get("options", {}))
    rows = 2 * opts["setup_rows"] + opts["neutral_rows"]
    columns = opts["columns"]
    phase = doc.get("phase", "play")
    if phase not in ("setup", "play", "over"):
        raise ValueError(f"'phase' must be setup, play or over, not {phase!r}")
    turn_number = doc.get("turn_number", 1)
    if type(turn_number) is not int or turn_number < 1:
        raise ValueError("'turn_number' must be a whole number from 1")
    to_move = doc.get("to_move", "black" if phase == "play" else None)
    if phase == "play" and to_move not in COLORS:
        raise ValueError(f"'to_move' must be black or white, not {to_move!r}")
    if phase != "play":
        to_move = None
    volcano_list = doc.get("volcanoes", [])
    if not isinstance(volcano_list, list):
        raise ValueError("'volcanoes' must be a list of squares")
    volcanoes = tuple(
        sorted({_square(v, f"volcano {i + 1}", rows, columns) for i, v in enumerate(volcano_list)})
    )
    vset = set(volcanoes)

    entries = doc.get("pieces")
    if not isinstance(entries, list):
        raise ValueError("'pieces' must be a list")
    removed_entries = doc.get("removed", [])
    if not isinstance(removed_entries, list):
        raise ValueError("'removed' must be a list")
    parsed = [_piece(e, f"piece {i + 1}", rows, columns) for i, e in enumerate(entries)]
    parsed_removed = [
        _piece(e, f"removed piece {i + 1}", rows, columns) for i, e in enumerate(removed_entries)
    ]
    taken: dict[Square, int] = {}
    counts: dict[tuple[str, str], int] = {}
    for i, p in enumerate(parsed):
        where = f"piece {i + 1} at ({p['square'][0]},{p['square'][1]})"
        if p["square"] in vset:
            raise ValueError(f"{where}: stands on a volcano")
        if p["square"] in taken:
            raise ValueError(f"{where}: a second piece on that square")
        taken[p["square"]] = i
    for p in parsed + parsed_removed:
        key = (p["color"], p["type"])
        counts[key] = counts.get(key, 0) + 1
        if counts[key] > ARMY[p["type"]]:
            raise ValueError(f"more than {ARMY[p['type']]} {p['color']} pieces of type {p['type']}")
    used = {p["id"] for p in parsed + parsed_removed if p["id"] is not None}
    if len(used) != sum(1 for p in parsed + parsed_removed if p["id"] is not None):
        raise ValueError("two pieces share an id")
    next_id = max(used, default=0) + 1

    def build(p: dict[str, Any]) -> Piece:
        nonlocal next_id
        pid = p["id"]
        if pid is None:
            pid = next_id
            next_id += 1
        until = p["no_return_until"]
        if p["no_return"] is None:
            until = None
        elif not p["has_until"] and opts["no_return"] == "next_turn":
            # Written without the internal key: the square holds for the rest of
            # this turn if the piece's side is moving, else for that side's next turn.
            until = turn_number if p["color"] == to_move else turn_number + 1
        return Piece(
            pid, p["color"], p["type"], p["square"][0], p["square"][1], p["revealed"], p["no_return"], until
        )

    pieces = tuple(sorted((build(p) for p in parsed), key=lambda p: p.id))
    removed = tuple(build(p) for p in parsed_removed)

    ready_doc = doc.get("ready")
    if ready_doc is None:
        ready = (True, True) if phase != "setup" else tuple(any(p.color == c for p in pieces) for c in COLORS)
    else:
        if not (
            isinstance(ready_doc, dict)
            and set(ready_doc) == set(COLORS)
            and all(type(v) is bool for v in ready_doc.values())
        ):
            raise ValueError('\'ready\' must be {"black": bool, "white": bool}')
        ready = (ready_doc["black"], ready_doc["white"])

    turn = doc.get("turn", {"moved": []})
    if turn is None:
        turn = {"moved": []}
    if not isinstance(turn, dict) or not set(turn) <= {"moved", "moves"}:
        raise ValueError("'turn' must be {\"moved\": [ids]}")
    moved = turn.get("moved", [])
    ids = {p.id for p in pieces}
    if not isinstance(moved, list) or any(
        type(m) is not int or m not in ids and m not in used for m in moved
    ):
        raise ValueError("'turn.moved' must list ids of pieces")

    all_ids = ids | {p.id for p in removed}
    log = []
    for i, t in enumerate(doc.get("log", [])):
        if not (isinstance(t, dict) and set(t) == {"turn", "color", "moves"} and t["color"] in COLORS):
            raise ValueError(f"log entry {i + 1}: must be {{turn, color, moves}}")
        moves = tuple(_move(m, f"log entry {i + 1}", rows, columns) for m in t["moves"])
        log.append(Turn(t["turn"], t["color"], moves))
    current = tuple(_move(m, "current turn", rows, columns) for m in doc.get("current", []))
    for t in log:
        for m in t.moves:
            if m[0] not in all_ids or (m[3] is not None and m[3] not in all_ids):
                raise ValueError(f"log of turn {t.number}: unknown piece id")

    outcome = doc.get("outcome")
    result = None
    if phase == "over":
        if not (
            isinstance(outcome, dict)
            and outcome.get("reason") in _REASONS
            and outcome.get("winner") in (*COLORS, None)
        ):
            raise ValueError("a finished game needs 'outcome' {winner, reason}")
        result = (outcome["winner"], outcome["reason"])
    elif outcome is not None:
        raise ValueError("'outcome' is only for a finished game")

    return Game(
        options=tuple(sorted(opts.items())),
        phase=phase,
        ready=ready,  # type: ignore[arg-type]
        to_move=to_move,
        turn_number=turn_number,
        moved=tuple(moved),
        volcanoes=volcanoes,
        pieces=pieces,
        removed=removed,
        log=tuple(log),
        current=current,
        result=result,
    )


def _piece_doc(p: Piece) -> dict[str, Any]:
    return {
        "id": p.id,
        "type": p.type,
        "color": p.color,
        "row": p.row,
        "col": p.col,
        "revealed": p.revealed,
        "no_return": list(p.no_return) if p.no_return else None,
        "no_return_until": p.no_return_until,
    }


def _move_doc(m: LoggedMove) -> list[Any]:
    return [m[0], list(m[1]), list(m[2]), m[3], m[4]]


def dump_scenario(game: Game) -> dict[str, Any]:
    """The document for ``game``: every key load_scenario reads, so it round-trips."""
    return {
        "phase": game.phase,
        "to_move": game.to_move,
        "turn_number": game.turn_number,
        "options": game.opts,
        "volcanoes": [list(v) for v in game.volcanoes],
        "turn": {"moved": list(game.moved)},
        "pieces": [_piece_doc(p) for p in sorted(game.pieces, key=lambda p: p.square)],
        "ready": dict(zip(COLORS, game.ready, strict=True)),
        "removed": [_piece_doc(p) for p in game.removed],
        "log": [
            {"turn": t.number, "color": t.color, "moves": [_move_doc(m) for m in t.moves]} for t in game.log
        ],
        "current": [_move_doc(m) for m in game.current],
        "outcome": None if game.result is None else {"winner": game.result[0], "reason": game.result[1]},
    }
