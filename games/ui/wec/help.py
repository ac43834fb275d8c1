"""The Rules & Help page: every Piece, Article and Action in our own words,
each with a small board diagram drawn by our own templates.

The Piece diagrams are not drawn by hand: the engine itself is asked where a
lone Black Piece may Move (`move_targets`), so a diagram can never disagree
with the rules the site plays by."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engines import get_engine

SIZE = 10


@dataclass
class Diagram:
    """A small board seen from Black's side (row 10 on top): each cell a dict
    with a `mark` ("piece", "move", "fire", "hit", "article", "friend",
    "enemy", "proj" or ""), an optional piece/Article type, and an optional
    `article` drawn beside a piece (one it carries, or one lying on its
    own Square)."""

    rows: list = field(default_factory=list)
    caption: str = ""


def _blank(n: int = SIZE) -> list[list[dict]]:
    return [[{"mark": "", "type": "", "article": "", "dark": (r + c) % 2 == 0} for c in range(1, n + 1)]
            for r in range(1, n + 1)]


def _diagram(cells: dict[tuple[int, int], tuple], n: int = SIZE) -> list[dict]:
    """Cells are (mark, type) or (mark, type, article)."""
    grid = _blank(n)
    for (r, c), cell in cells.items():
        mark, kind = cell[0], cell[1]
        grid[r - 1][c - 1].update(mark=mark, type=kind, article=cell[2] if len(cell) > 2 else "")
    return [{"row": r, "cells": grid[r - 1]} for r in range(n, 0, -1)]


LEVEL_OF = {"jet": "air", "chopper": "air", "sub": "sub"}
HANDED = ("tank", "cleric")
STARTS = ((5, 5), (4, 4), (3, 3), (2, 2), (1, 1), (3, 5), (2, 5), (1, 5), (4, 6))


@lru_cache(maxsize=64)
def _move_cells(kind: str) -> tuple:
    """Where a lone Black `kind` may Move from the start Square that shows the
    most of its Moves: ((row, col) of the piece, frozenset of targets)."""
    engine = get_engine("wec")
    level = LEVEL_OF.get(kind, "ground")
    best = ((5, 5), frozenset())
    for row, col in STARTS:
        piece = {"type": kind, "color": "black", "row": row, "col": col, "level": level}
        if kind in HANDED:
            piece["hand"] = "right"
        pieces = [piece, {"type": "king", "color": "white", "row": 10, "col": 10}]
        if kind != "king":
            pieces.append({"type": "king", "color": "black", "row": 10, "col": 1} if (row, col) != (10, 1)
                          else {"type": "king", "color": "black", "row": 9, "col": 1})
        try:
            game = engine.load_scenario({"to_move": "black", "options": {"reinforcements": "none"}, "pieces": pieces})
            targets = frozenset((r, c) for r, c, _lv in engine.move_targets(game, row, col, level))
        except ValueError:
            continue
        if len(targets) > len(best[1]):
            best = ((row, col), targets)
    return best


def piece_diagram(kind: str) -> list[dict]:
    (row, col), targets = _move_cells(kind)
    cells = {t: ("move", "") for t in targets}
    cells[(row, col)] = ("piece", kind)
    return _diagram(cells)


PIECES = [
    # (type, government/group, text)
    ("king", _("Monarchy: primary"), _("The piece you must keep. It steps one Square in any direction and takes an enemy by stepping onto it. If your primary piece is destroyed or converted you lose; if you get the enemy's, you win.")),
    ("dictator", _("Dictatorship: primary"), _("The primary piece of a dictatorship. It steps like a King; losing it loses the game.")),
    ("avatar", _("Theocracy: primary"), _("The primary piece of a theocracy. It steps like a King; losing it loses the game.")),
    ("president", _("Democracy: primary"), _("The primary piece of a democracy. It steps like a King; losing it loses the game.")),
    ("queen", _("Monarchy: secondary"), _("Travels along both the Tank's and the Cleric's bent paths, and can Exchange Articles with a friendly piece anywhere on the board, however far.")),
    ("assassin", _("Dictatorship: secondary"), _("The secondary piece of a dictatorship: it moves like a Queen and Exchanges at any distance.")),
    ("acolyte", _("Theocracy: secondary"), _("The secondary piece of a theocracy: it moves like a Queen and Exchanges at any distance.")),
    ("prime_minister", _("Democracy: secondary"), _("The secondary piece of a democracy: it moves like a Queen and Exchanges at any distance.")),
    ("tank", pgettext_lazy("level", "Ground"), _("Carries a Flamer. It goes four Squares straight (forward, back, left or right) and then bends diagonally for three more, to its own side (a right or a left Tank); it lands only at the end of such a path.")),
    ("cleric", pgettext_lazy("level", "Ground"), _("Carries a Conversion: a Fire turns the enemy pieces on the next Square to your side. It travels bent paths of its own.")),
    ("dozer", pgettext_lazy("level", "Ground"), _("No weapon, but it dozes: moving one Square, it can push the ground pieces in front of it along. Its Moves never take.")),
    ("destroyer", pgettext_lazy("level", "Ground"), _("Carries a Torpedo Launcher and notices enemy Subs near it. Steps one Square; never takes by moving.")),
    ("aaa", pgettext_lazy("level", "Ground"), _("Anti-aircraft: carries Stealth and a SAM Launcher. Steps one Square; never takes by moving.")),
    ("chopper", pgettext_lazy("level", "Air"), _("Flies at air level with a Stunner and can carry one friendly piece of its level with it.")),
    ("jet", pgettext_lazy("level", "Air"), _("Flies up to two Squares at air level, takes off and lands in its own Square. Carries a SAM Launcher and a short-range Rocket that hits a piece on the ground close by (directly below it in the standard game).")),
    ("sub", _("Sub level"), _("Moves below the ground (sub level), can surface or dive in its Square, carries a Torpedo Launcher and the same short-range Rocket as the Jet, and can carry a friendly piece.")),
    ("rocket_pawn", _("Pawn"), _("A Pawn with a Rocket Launcher. Pawns move forward, as the diagram shows.")),
    ("stunner_pawn", _("Pawn"), _("A Pawn with a Stunner.")),
    ("flamer_pawn", _("Pawn"), _("A Pawn with a Flamer.")),
    ("conversion_pawn", _("Pawn"), _("A Pawn with a Conversion.")),
    ("stealth_pawn", _("Pawn"), _("A Pawn with Stealth: hidden from the enemy unless it comes close.")),
    ("xxx_pawn", _("Pawn"), _("A Pawn carrying an XXX box, so it can hold more Articles.")),
    ("sam_torpedo_pawn", _("Pawn"), _("A Pawn with both a SAM Launcher and a Torpedo Launcher.")),
]

ARTICLES = [
    ("flamer", _("Weapon"), _("Burns every piece at the firer's level on the next Squares in one direction (two by default), friends too.")),
    ("stunner", _("Weapon"), _("Stuns the pieces on the first occupied Square in one direction: they cannot act for a few of their own Turns and drop what they carry.")),
    ("conversion", _("Weapon"), _("Turns the enemy pieces on the neighbouring Square in one direction to your side.")),
    ("rocket_launcher", _("Weapon"), _("Launches a Rocket along the ground. It flies one Square at the end of each of your Turns and destroys what it meets, friend or enemy.")),
    ("sam_launcher", _("Weapon"), _("Launches a SAM at air level: in a direction, or homing on an enemy flyer you see nearby.")),
    ("torpedo_launcher", _("Weapon"), _("Launches a Torpedo at sub level: in a direction, or homing on an enemy below that you see nearby.")),
    ("stealth", _("Cover"), _("Hides the piece carrying it from the enemy until it comes within detection range.")),
    ("anti_flamer", _("Protection"), _("Each Anti cancels one attack of its kind on its piece per Turn.")),
    ("anti_stunner", _("Protection"), _("Cancels one Stunner attack per Turn.")),
    ("anti_conversion", _("Protection"), _("Cancels one Conversion attack per Turn.")),
    ("anti_rocket", _("Protection"), _("Cancels one Rocket hit per Turn.")),
    ("anti_sam", _("Protection"), _("Cancels one SAM hit per Turn.")),
    ("anti_torpedo", _("Protection"), _("Cancels one Torpedo hit per Turn.")),
    ("anti_stealth", _("Detection"), _("Finds hidden Stealth pieces: it locks on to the nearest one you cannot see.")),
    ("bike", _("Transport"), _("Carries its piece across the ground, one Square per Turn, to a destination you pick.")),
    ("jump_pack", _("Transport"), _("Lifts its piece into the air and flies it to a destination, landing on arrival.")),
    ("scuba", _("Transport"), _("Takes its piece below the ground and on to a destination, surfacing on arrival.")),
    ("xxx", _("Box"), _("A box that lets a piece carry up to three Articles (the box counts as one).")),
]


def article_diagram(kind: str) -> list[dict]:
    """A 5-Square strip: a Black Tank carrying the Article (drawn on the
    Tank's own Square), and what it reaches."""
    cells: dict[tuple[int, int], tuple] = {(3, 1): ("piece", "tank", kind)}
    if kind in ("flamer",):
        cells.update({(3, 2): ("hit", ""), (3, 3): ("hit", "")})
    elif kind in ("stunner", "conversion"):
        cells.update({(3, 2): ("hit", ""), (3, 3): ("enemy", "tank")})
    elif kind.endswith("launcher"):
        cells.update({(3, 2): ("fire", ""), (3, 3): ("fire", ""), (3, 4): ("fire", ""), (3, 5): ("enemy", "tank")})
    elif kind in ("bike", "jump_pack", "scuba"):
        cells.update({(3, 2): ("fire", ""), (3, 3): ("fire", ""), (3, 4): ("move", "")})
    return [r for r in _diagram(cells, 5) if r["row"] == 3]


ACTIONS = [
    ("move", _("Move"), _("Exactly one per Turn, and it comes before End Turn. Pick your piece, then one of the highlighted places. Where several Moves lead to the same place (carrying a passenger, a Dozer's push) you are asked which."),
     {(3, 3): ("piece", "king"), (2, 2): ("move", ""), (2, 3): ("move", ""), (2, 4): ("move", ""), (3, 2): ("move", ""),
      (3, 4): ("move", ""), (4, 2): ("move", ""), (4, 3): ("move", ""), (4, 4): ("move", "")}),
    ("fire", _("Fire"), _("Up to two per Turn, each by a different weapon or piece. Choose the direction with the compass buttons or on the board, or a target for homing weapons. A Fire that may hit your own piece asks you first."),
     {(3, 1): ("piece", "tank"), (3, 2): ("hit", ""), (3, 3): ("hit", ""), (3, 4): ("enemy", "rocket_pawn")}),
    ("pickup", _("Pick-up"), _("One per Turn: a piece on the ground takes an Article lying on its Square, if it has room."),
     {(3, 3): ("piece", "tank", "bike")}),
    ("drop", _("Drop"), _("One per Turn: a piece puts down an Article it carries on its Square."),
     {(3, 3): ("piece", "tank", "flamer")}),
    ("exchange", _("Exchange"), _("One per Turn: hand an Article to a friendly piece on the same or a neighbouring Square (any distance for the secondary piece), or swap one for one."),
     {(3, 2): ("piece", "tank"), (3, 3): ("friend", "dozer")}),
    ("reinforce", _("Reinforce"), _("One per Turn: a reinforcement waiting at an activation Square enters once one of your pieces has stood there and later left it empty."),
     {(3, 3): ("move", "cleric")}),
    ("end_turn", _("End Turn"), _("After your Move. Then your projectiles fly one Square, Transports go one Square on and your counters count down. The page asks you to confirm."),
     # A Rocket of yours flies one Square on; a Tank travelling by Bike goes one Square on.
     {(4, 2): ("fire", ""), (4, 3): ("proj", "rocket"), (3, 2): ("piece", "tank", "bike"), (3, 3): ("move", "")}),
]


def action_entries() -> list[dict]:
    return [{"key": key, "name": name, "text": text, "diagram": [r for r in _diagram(cells, 5) if r["row"] in (4, 3, 2)]}
            for key, name, text, cells in ACTIONS]


OPTIONS = [
    ("movement", _("How pieces move: Weaponized (the Wec paths), Standard Chess, or Chess of Mass Destruction.")),
    ("competitive", _("A competitive game is rated and allows no take-backs. A friendly game is unrated, its options may change by agreement, and you may take back actions of your Turn before ending it and ask your opponent to undo your last Turn. In both, each side's record hides what that side did not see while the game runs.")),
    ("open_record", _("Friendly games only, off unless both players agree: every hidden action shows in both records while the game runs, as when both sides share one screen.")),
    ("black_government / white_government", _("Monarchy, dictatorship, theocracy or democracy: which primary and secondary pieces a side has.")),
    ("tank_range, cleric_range, queen_*_range", _("How far Tanks, Clerics and the secondary piece travel (6, 7 or 8).")),
    ("reinforcements, weapon_articles, xxx_boxes", _("Whether reinforcements, loose weapon Articles and XXX boxes are in the game.")),
    ("action_restriction", _("Narrows a Turn: only Moves, one action per piece, or a fixed order of actions.")),
    ("stealth_invisibility, submersion_invisibility", _("Whether Stealth and being below ground hide pieces from the enemy, and within which detection ranges.")),
    ("seen_when_firing", _("A hidden piece that Fires is seen.")),
    ("flamer_range, stunner_range, homing_range, jet_rocket_range", _("How far the weapons reach.")),
    ("*_rate, stun_turns", _("How many Turns a weapon needs before it fires again, and how long a stun lasts.")),
    ("doze_enemies", _("Whether a Dozer may push enemy pieces too.")),
    ("transport_ground_to_ground_only, transport_from_carrier", _("Where Transports may start and end.")),
]

NOTATION = [
    ("(4,7)", _("a Square: row, then column, both counted from Black's side.")),
    ("^ v", _("before a Square: air (^) or sub (v) level; nothing means ground.")),
    ("MV:JE^(4,7)->^(4,9)", _("the Turn's Move: the piece (type, level, Square) and where it went. MV:- no Move was possible; MV:? a Move you could not see.")),
    ("FI1: FI2:", _("the first and second Fire: weapon/piece, then -> the next Square in the direction fired, or => the piece aimed at.")),
    ("PU: DR: EX: RE:", _("Pick-up, Drop, Exchange and Reinforce.")),
    ("RS:", _("what happened as a result: pieces destroyed, stunned or converted, projectiles flying.")),
    ("#2", _("after a piece: which of two alike pieces on one place acted.")),
    ("SQ:", _("at the end: the order the actions were taken in, when it is not the usual one.")),
]

KEYS = [
    ("Tab / Shift+Tab", _("go through your pieces and the buttons")),
    (_("Arrow keys"), _("on the board: go to the next Square in that direction that has a button")),
    (_("Enter or Space"), _("select the piece, play the highlighted Move, press the button")),
    ("m", _("go to the first highlighted Move (or your first piece)")),
    ("f", _("go to the selected piece's first Fire button (or the first button of its action panel)")),
    ("a", _("aim the selected piece's first weapon on the board")),
    ("t", _("go to the selected piece's Transport: the destination list")),
    ("p", _("go to the selected piece's Pick-up buttons")),
    ("d", _("go to the selected piece's Drop buttons")),
    ("x", _("go to the selected piece's Exchange buttons")),
    ("r", _("go to the ready reinforcements (no piece needs to be selected)")),
    ("Escape", _("leave aiming, or clear the selection")),
    ("e", _("End Turn (asks you to confirm)")),
    ("u", _("friendly games: take back your last action of this Turn")),
    ("h", _("open the Rules & help entry of the piece, Article or action that has the focus")),
    ("1 2 3 4", _("show all levels, only air, only ground, only sub")),
    ("z", _("zoom the focused Square: its three levels, large (or tap a Square's background)")),
    ("?", _("open this page")),
    (_("In the review"), _("Left and Right arrows step one Turn, Home and End jump to the start and the end")),
]

# Every Action by keyboard alone, step by step (static/js/game.js; the
# browser test tests/browser/test_browser_table.py plays them).  The key is
# the Action's help entry, so each recipe sits under its Action too.
RECIPES = [
    ("move", _("Move"), _("Press m to reach your first piece (or Tab to it, or move between pieces with the arrow keys) and Enter to select it. The focus goes to its first highlighted Square: arrow keys to the one you want, Enter. When the page asks how (several Moves lead there), Enter picks the focused choice, Tab goes to the next.")),
    ("fire", _("Fire"), _("Select the piece, press f: the focus is on its first Fire button. Tab to the direction or target you want and press Enter; a Fire that may hit your own piece asks first (Enter fires, Escape cancels). Or press a to aim on the board: arrow keys to an orange Square, Enter.")),
    ("transport", _("Transport"), _("Select the piece carrying the Bike, Jump pack or Scuba and press t: the focus is on the destination list. Choose with the arrow keys, Tab to the path (where there is a choice) and to the Go button, Enter.")),
    ("pickup", _("Pick-up"), _("Select the piece standing on the Article, press p, then Enter (Tab to another Article first if there are several).")),
    ("drop", _("Drop"), _("Select the piece, press d, Tab to the Article to put down, Enter.")),
    ("exchange", _("Exchange"), _("Select the piece, press x, Tab to the hand-over or swap you want, Enter.")),
    ("reinforce", _("Reinforce"), _("Press r (no piece needs to be selected): the focus is on the first ready reinforcement; Tab to another, Enter brings it in.")),
    ("end_turn", _("End Turn"), _("Press e, then Enter to confirm (Escape to go back).")),
    ("take_back", _("Take back"), _("Friendly games only: press u to take back your last action of this Turn.")),
]
