"""The Turn's budget of Actions and the Action Restriction option.

A Turn allows one Move, up to two Fires, and one each of Pick-up, Drop,
Exchange and Reinforce (l. 57-59). The Action Restriction pre-game option can
narrow that to the Move only (l. 328-330), to one Action per Piece, or to the
12DPXMR sequence, optionally for one Piece only (l. 1960-1969).
"""

from __future__ import annotations

from ..state import Game
from .common import illegal

#: The 12DPXMR order of a Turn's actions.
ORDER = "12DPXMR"


CODE_NAME = {"1": "Fire", "2": "Fire", "D": "Drop", "P": "Pick-up", "X": "Exchange", "M": "Move", "R": "Reinforce"}


def fire_code(game: Game) -> str:
    """The 12DPXMR letter of the Turn's next Fire: 1 or 2."""
    return "1" if not game.turn["fires"] else "2"


def restriction_error(game: Game, code: str, pid: int | None) -> str | None:
    """Why the Action Restriction forbids an action now (None if it allows it).

    ``code`` is the action's letter in 12DPXMR; ``pid`` the acting Piece
    (None for a Reinforce, which no Piece performs).
    """
    rule = game.options["action_restriction"]
    if rule == "none":
        return None
    if rule == "move_only":
        return None if code == "M" else "only the Move is allowed in this game"
    turn = game.turn
    if rule == "one_action_per_piece":
        if pid is not None and pid in turn["actors"]:
            return "that piece has already acted this Turn"
        return None
    seq = turn["sequence"]
    if code == "R" and not turn["moved"]:
        return "in 12DPXMR order the Reinforce comes after the Move"
    if seq and ORDER.index(code) <= ORDER.index(seq[-1]):
        return f"in 12DPXMR order a {CODE_NAME[code]} cannot follow this Turn's {CODE_NAME[seq[-1]]}"
    if rule == "12dpxmr_one_piece" and pid is not None and turn["actors"] and pid != turn["actors"][0]:
        return "only the piece that acted first may act this Turn"
    return None


def movers_allowed(game: Game) -> set[int] | None:
    """The ids of Pieces the Action Restriction still lets Move (None: any)."""
    rule = game.options["action_restriction"]
    actors = game.turn["actors"]
    if not actors:
        return None
    if rule == "one_action_per_piece":
        return {pid for pid, p in game.pieces.items() if p.color == game.to_move and pid not in actors}
    if rule == "12dpxmr_one_piece":
        return {actors[0]}
    return None


def note_action(game: Game, code: str, pid: int | None) -> None:
    """Note an action in the Turn's order and its acting Piece."""
    if pid is not None:
        game.turn["actors"].append(pid)
    game.turn["sequence"].append(code)


def check_budget(g: Game, flag: str, code: str, pid: int | None) -> None:
    """Reject an action the Turn has already used or the Action Restriction forbids."""
    if g.turn[flag]:
        raise illegal(f"you have already made this Turn's {CODE_NAME[code]}")
    why = restriction_error(g, code, pid)
    if why:
        raise illegal(why)
