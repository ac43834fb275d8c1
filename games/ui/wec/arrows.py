"""From-to arrows and shot marks over the board: the enemy's last
Turn as this player saw it, and the player's own actions this Turn.

The enemy's Turn comes from the player's own record only (its censored
notation line, read back by the engine's `parse_turn`): a Move the player did
not see is written `MV:?` there and gets no arrow, so an arrow never shows
more than the record already says.  The player's own actions come from the
Turn in progress, which only the side to move is shown."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.models import Game, other_color
from games.rules import wec as rules

from .selectors import LEVELS

TRANSPORTS = ("bike", "jump_pack", "scuba")


@dataclass
class Arrow:
    side: str  # "enemy" or "own"
    kind: str  # "move" (from-to) or "shot" (a Fire: towards its first Square, or at its target)
    frm: tuple[int, int, str]
    to: tuple[int, int, str]

    @property
    def from_key(self) -> str:
        return "-".join(str(x) for x in self.frm)

    @property
    def to_key(self) -> str:
        return "-".join(str(x) for x in self.to)

    @property
    def text(self) -> str:
        a = f"({self.frm[0]},{self.frm[1]})"
        b = f"({self.to[0]},{self.to[1]})"
        if self.kind == "move":
            return _("moved from %(a)s to %(b)s") % {"a": a, "b": b}
        return _("fired from %(a)s towards %(b)s") % {"a": a, "b": b}


def _place(value) -> tuple[int, int, str] | None:
    if not isinstance(value, (list, tuple)) or len(value) < 2:
        return None
    try:
        row, col = int(value[0]), int(value[1])
    except (TypeError, ValueError):
        return None
    level = value[2] if len(value) > 2 and value[2] in LEVELS else "ground"
    return (row, col, level)


def _arrows_of(actions: list[dict], side: str) -> list[Arrow]:
    out = []
    for action in actions:
        if not isinstance(action, dict) or action.get("hidden"):
            continue
        kind = action.get("type")
        frm = _place(action.get("from"))
        if frm is None:
            continue
        if kind == "move":
            to = _place(action.get("to"))
            if to is not None and to != frm:
                out.append(Arrow(side, "move", frm, to))
        elif kind == "fire":
            weapon = action.get("weapon")
            to = _place(action.get("to")) or _place(action.get("target"))
            direction = action.get("direction")
            if to is not None and to != frm:
                # A Transport (`to`) carries its piece: drawn as a move; an aimed Fire (`target`) as a shot.
                out.append(Arrow(side, "move" if weapon in TRANSPORTS else "shot", frm, to))
            elif isinstance(direction, (list, tuple)) and len(direction) == 2:
                try:
                    dr, dc = int(direction[0]), int(direction[1])
                except (TypeError, ValueError):
                    continue
                if (dr, dc) != (0, 0):
                    out.append(Arrow(side, "shot", frm, (frm[0] + dr, frm[1] + dc, frm[2])))
    return out


def _enemy_line(game: Game, color: str, notation: list[str]) -> str | None:
    """The record line of the enemy's last finished Turn (the player's own,
    censored record)."""
    if not notation:
        return None
    last_mover = other_color(game.to_move)
    if last_mover != color:
        return notation[-1]
    return notation[-2] if len(notation) >= 2 else None


def for_player(game: Game, color: str, state, notation: list[str]) -> dict:
    """{"arrows": [Arrow], "enemy": [text], "own": [text]} for the live board
    (nothing once the game is over: the review has its own boards)."""
    empty = {"arrows": [], "enemy": [], "own": [], "censored": True}
    if game.status != Game.Status.ACTIVE:
        return empty
    enemy: list[Arrow] = []
    line = _enemy_line(game, color, notation)
    if line:
        try:
            enemy = _arrows_of(rules.parse_turn(line), "enemy")
        except Exception:  # the arrows are a nicety: a line the reader cannot take gets none
            enemy = []
    own: list[Arrow] = []
    if game.to_move == color:
        own = _arrows_of(rules.turn_actions(state), "own")
    return {
        "arrows": enemy + own,
        "enemy": [a.text for a in enemy],
        "own": [a.text for a in own],
        # The words say "as you saw it" only when it is true: the record
        # the arrows come from hides what this side did not see.
        "censored": rules.censors(state, color),
    }
