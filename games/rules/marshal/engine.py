"""Setup (l. 3-4), moves (l. 6-7), fights (l. 8-10, 13-17), reveals (l. 14)
and the ends of the game (l. 19-22).

Every rule here cites the seed (shared/seeds/002_87afa212f8c1bebd.txt) by line;
the rulings the seed leaves open are in docs/rulings.md, "Marshal and Spy".
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from .constants import ARMY, ARMY_SIZE, COLORS, DIES, HQ_TAKEN, IMMOBILE, TYPES, WINS, fight
from .options import resolve
from .state import Game, LoggedMove, Piece, Square, Turn, around, neighbours, other, zone


class IllegalAction(ValueError):
    """An action the rules forbid now. The message is for the player who tried
    it and never names the type of a piece that player may not know."""


def sq(square: Square) -> str:
    """A square as players read it: ``(row,col)``."""
    return f"({square[0]},{square[1]})"


# --------------------------------------------------------------------- setup


def _army_list() -> list[str]:
    """The army's types, mobile pieces first (the default arrangement's order)."""
    return [t for t in TYPES for _ in range(ARMY[t])]


def game_zone(game: Game, color: str) -> list[Square]:
    o = game.opts
    return zone(color, game.rows, o["columns"], o["setup_rows"])


def default_arrangement(game: Game, color: str) -> list[dict[str, Any]]:
    """The project's default setup (docs/engine-api.md): the 25 mobile pieces
    fill the zone from its front row, soldiers by rank, then Spies and Sappers;
    the four Mines and the Headquarters take the last five squares of the back
    row, as the owner sees it. Larger zones leave their spare squares just in
    front of those five."""
    squares = game_zone(game, color)
    army = _army_list()
    mobile = [t for t in army if t not in IMMOBILE]
    fixed = [t for t in army if t in IMMOBILE]
    placed = list(zip(squares[: len(mobile)], mobile, strict=True))
    placed += list(zip(squares[len(squares) - len(fixed) :], fixed, strict=True))
    return [{"type": t, "row": r, "col": c} for (r, c), t in placed]


def random_arrangement(game: Game, color: str, number: int) -> list[dict[str, Any]]:
    """The army placed on random squares of the zone by ``random.Random(number)``."""
    rng = random.Random(number)
    squares = rng.sample(game_zone(game, color), ARMY_SIZE)
    army = _army_list()
    rng.shuffle(army)
    return [{"type": t, "row": r, "col": c} for (r, c), t in zip(squares, army, strict=True)]


def _is_int(value: Any) -> bool:
    return type(value) is int


def _apply_setup(game: Game, action: dict[str, Any]) -> Game:
    color = action.get("color")
    if color not in COLORS:
        raise IllegalAction("A setup must name its colour, 'black' or 'white'.")
    if game.phase != "setup":
        raise IllegalAction("The armies are already set up.")
    index = COLORS.index(color)
    if game.ready[index]:
        raise IllegalAction(f"The {color} army is already set up.")
    keys = set(action)
    if keys == {"type", "color", "random"}:
        if not _is_int(action["random"]):
            raise IllegalAction("'random' must be a whole number.")
        entries = random_arrangement(game, color, action["random"])
    elif keys == {"type", "color", "pieces"}:
        entries = action["pieces"]
    else:
        raise IllegalAction("A setup has 'type', 'color' and either 'pieces' or 'random'.")
    if not isinstance(entries, list):
        raise IllegalAction("'pieces' must be a list.")
    zone_set = set(game_zone(game, color))
    taken: dict[Square, str] = {}
    counts = dict.fromkeys(TYPES, 0)
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not {"type", "row", "col"} <= set(entry) <= {
            "type",
            "row",
            "col",
            "color",
        }:
            raise IllegalAction(f"Piece {n} of the setup must have 'type', 'row' and 'col'.")
        if entry.get("color", color) != color:
            raise IllegalAction(f"Piece {n} of the setup is not {color}.")
        kind, row, col = entry["type"], entry["row"], entry["col"]
        if kind not in TYPES:
            raise IllegalAction(f"Piece {n} of the setup has an unknown type {kind!r}.")
        if not (_is_int(row) and _is_int(col)):
            raise IllegalAction(f"Piece {n} of the setup needs whole-number 'row' and 'col'.")
        if (row, col) not in zone_set:
            raise IllegalAction(f"{sq((row, col))} is outside the {color} setup zone.")
        if (row, col) in taken:
            raise IllegalAction(f"Two pieces are placed on {sq((row, col))}.")
        taken[(row, col)] = kind
        counts[kind] += 1
    for kind in TYPES:
        if counts[kind] != ARMY[kind]:
            raise IllegalAction(f"The army has {ARMY[kind]} of type {kind}, the setup places {counts[kind]}.")
    used = {p.id for p in game.pieces + game.removed}
    next_id = 1 if color == "black" else 101
    new = []
    # Ids follow the squares, so they tell nothing the places do not.
    for (row, col), kind in sorted(taken.items()):
        while next_id in used:
            next_id += 1
        new.append(Piece(next_id, color, kind, row, col))
        used.add(next_id)
    ready = (True, game.ready[1]) if color == "black" else (game.ready[0], True)
    pieces = tuple(sorted(game.pieces + tuple(new), key=lambda p: p.id))
    game = replace(game, pieces=pieces, ready=ready)
    if ready == (True, True):
        # Both armies stand: play begins, Black first (ruling 9).
        game = replace(game, phase="play", to_move="black", moved=(), pieces=_reveal(game, game.pieces))
        if not _has_move(game, "black", ()):
            game = replace(game, phase="over", to_move=None, result=("white", "no_moves"))
    return game


# ---------------------------------------------------------------------- play


def targets(game: Game, piece: Piece) -> list[Square]:
    """Where ``piece`` may step now: an orthogonal neighbour (l. 6) that is no
    volcano (l. 7), holds no own piece (ruling 6) and is not its no-return square."""
    if piece.type in IMMOBILE:
        return []
    board = game.board()
    volcanoes = game.volcano_set()
    out = []
    for n in neighbours((piece.row, piece.col), game.rows, game.columns):
        if n in volcanoes or n == piece.no_return:
            continue
        held = board.get(n)
        if held is not None and held.color == piece.color:
            continue
        out.append(n)
    return out


def _has_move(game: Game, color: str, moved: tuple[int, ...]) -> bool:
    return any(p.color == color and p.id not in moved and targets(game, p) for p in game.pieces)


def legal_moves(game: Game) -> list[dict[str, Any]]:
    """Every move the side to move may make now, sorted by from- and to-square."""
    if game.phase != "play":
        return []
    out = []
    for p in sorted(game.pieces, key=lambda p: p.square):
        if p.color == game.to_move and p.id not in game.moved:
            for t in targets(game, p):
                out.append({"type": "move", "from": [p.row, p.col], "to": [t[0], t[1]]})
    return out


def _square_arg(action: dict[str, Any], key: str, game: Game) -> Square:
    value = action.get(key)
    if not (isinstance(value, (list, tuple)) and len(value) == 2 and all(_is_int(v) for v in value)):
        raise IllegalAction(f"'{key}' must be [row, col].")
    row, col = value
    if not (1 <= row <= game.rows and 1 <= col <= game.columns):
        raise IllegalAction(f"{sq((row, col))} is not on the board.")
    return (row, col)


def _reveal(game: Game, pieces: tuple[Piece, ...]) -> tuple[Piece, ...]:
    """Mark every piece standing next to a live enemy Spy as revealed (l. 14)."""
    by_square = {p.square: p for p in pieces}
    seen: set[int] = set()
    for spy in pieces:
        if spy.type != "spy":
            continue
        for s in around(spy.square, game.rows, game.columns):
            p = by_square.get(s)
            if p is not None and p.color != spy.color and not p.revealed:
                seen.add(p.id)
    if not seen:
        return pieces
    return tuple(replace(p, revealed=True) if p.id in seen else p for p in pieces)


def _apply_move(game: Game, action: dict[str, Any]) -> Game:
    if game.phase == "over":
        raise IllegalAction("The game is over.")
    if game.phase == "setup":
        raise IllegalAction("Both armies must be set up before the first move.")
    if set(action) != {"type", "from", "to"}:
        raise IllegalAction("A move has exactly 'type', 'from' and 'to'.")
    start = _square_arg(action, "from", game)
    end = _square_arg(action, "to", game)
    color = game.to_move
    assert color is not None
    board = game.board()
    mover = board.get(start)
    if mover is None or mover.color != color:
        raise IllegalAction(f"You have no piece on {sq(start)}.")
    if mover.type in IMMOBILE:
        raise IllegalAction(f"Your {mover.type} on {sq(start)} never moves.")
    if mover.id in game.moved:
        raise IllegalAction(
            f"Your {mover.type} on {sq(start)} has already moved this turn; move another piece."
        )
    if end not in neighbours(start, game.rows, game.columns):
        raise IllegalAction(
            f"A piece steps one square sideways or straight ahead or back; {sq(end)} is not next to {sq(start)}."
        )
    if end in game.volcano_set():
        raise IllegalAction(f"{sq(end)} is a volcano; no piece may stand there.")
    target = board.get(end)
    if target is not None and target.color == color:
        raise IllegalAction(f"Your own piece stands on {sq(end)}.")
    if end == mover.no_return:
        raise IllegalAction(f"Your {mover.type} may not step straight back to {sq(end)} yet.")

    until = game.turn_number + 2 if game.opt("no_return") == "next_turn" else None
    stepped = replace(mover, row=end[0], col=end[1], no_return=start, no_return_until=until)
    result = ""
    removed: list[Piece] = []
    if target is None:
        changes = {mover.id: stepped}
    else:
        result = fight(mover.type, target.type)
        if result == DIES:
            changes = {mover.id: None}
            removed.append(mover)
        else:  # WINS (a Sapper clearing a Mine too) or HQ_TAKEN: stand on its square
            changes = {mover.id: stepped, target.id: None}
            removed.append(target)
    pieces = tuple(changes.get(p.id, p) if p.id in changes else p for p in game.pieces)
    pieces = tuple(p for p in pieces if p is not None)
    # Every live Spy looks around after every move (l. 14), not only the one
    # that moved: a loaded scenario may hold a Spy next to an unrevealed piece.
    pieces = _reveal(game, pieces)
    logged: LoggedMove = (mover.id, start, end, None if target is None else target.id, result)
    game = replace(
        game,
        pieces=pieces,
        removed=game.removed + tuple(removed),
        moved=game.moved + (mover.id,),
        current=game.current + (logged,),
    )
    if result == HQ_TAKEN:
        return _finish(game, color, "hq_captured")
    for lost in removed:
        # Ruling 3: a side without a mobile piece has lost, even by its own move.
        if not any(p.color == lost.color and p.type not in IMMOBILE for p in pieces):
            return _finish(game, other(lost.color), "no_mobile_pieces")
    if len(game.moved) >= game.opt("moves_per_turn") or not _has_move(game, color, game.moved):
        return _end_turn(game)
    return game


def _finish(game: Game, winner: str | None, reason: str) -> Game:
    log = game.log + (Turn(game.turn_number, game.to_move or "", game.current),) if game.current else game.log
    return replace(game, phase="over", to_move=None, moved=(), current=(), log=log, result=(winner, reason))


def _end_turn(game: Game) -> Game:
    """Pass the turn; judge the turn limit (ruling 8) and whether the next side can move (ruling 3)."""
    color = game.to_move
    assert color is not None
    number = game.turn_number
    pieces = tuple(
        replace(p, no_return=None, no_return_until=None)
        if p.color == color and p.no_return_until is not None and p.no_return_until <= number
        else p
        for p in game.pieces
    )
    game = replace(game, pieces=pieces)
    limit = game.opt("turn_limit")
    if limit and number >= limit:
        return _finish(game, None, "turn_limit")
    log = game.log + (Turn(number, color, game.current),)
    game = replace(game, log=log, current=(), moved=(), turn_number=number + 1, to_move=other(color))
    if not _has_move(game, other(color), ()):
        return replace(game, phase="over", to_move=None, result=(color, "no_moves"))
    return game


def apply(game: Game, action: Any) -> Game:
    """The game after ``action``; raises :class:`IllegalAction` if the rules forbid it."""
    if not isinstance(action, dict) or "type" not in action:
        raise IllegalAction("An action must be an object with a 'type'.")
    kind = action["type"]
    if kind == "setup":
        return _apply_setup(game, action)
    if kind == "move":
        return _apply_move(game, action)
    raise IllegalAction(f"Unknown action type {kind!r}; Marshal and Spy has 'setup' and 'move'.")


def new_game(options: dict[str, Any] | None = None, seed: int | None = None) -> Game:
    """A game in its setup phase with its volcanoes drawn by ``random.Random(seed)``
    from the neutral rows (l. 18; ruling 9)."""
    opts = resolve(options)
    if seed is None:
        seed = 0
    if not _is_int(seed):
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    first = opts["setup_rows"] + 1
    neutral = [
        (r, c) for r in range(first, first + opts["neutral_rows"]) for c in range(1, opts["columns"] + 1)
    ]
    volcanoes = tuple(sorted(random.Random(seed).sample(neutral, opts["volcanoes"])))
    return Game(
        options=tuple(sorted(opts.items())),
        phase="setup",
        ready=(False, False),
        to_move=None,
        turn_number=1,
        moved=(),
        volcanoes=volcanoes,
        pieces=(),
    )


__all__ = [
    "IllegalAction",
    "apply",
    "new_game",
    "legal_moves",
    "targets",
    "default_arrangement",
    "WINS",
    "DIES",
    "HQ_TAKEN",
]
