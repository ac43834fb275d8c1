"""The standard game, checked Square by Square against the manual's two
starting charts (GAME CHARTS, "Standard Game").

Both charts are transcribed below exactly as the manual draws them: from
Black's side, top row first. The top row is Black's row 10 and the bottom row
Black's row 1; the leftmost column is column 1. The two rows at the top are
White's Pieces, the two at the bottom Black's.
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.rules.wec import dump_scenario, history, legal_actions, new_game, outcome, view

# --- the manual's charts, as drawn ------------------------------------------------

# Names as they appear in the charts, mapped to the engine's type names.
PIECE_NAMES = {
    "Tank": "tank",
    "Dozer": "dozer",
    "Sub": "sub",
    "Cleric": "cleric",
    "Chopper": "chopper",
    "Jet": "jet",
    "King": "king",
    "Queen": "queen",
    "Rocket Launcher Pawn": "rocket_pawn",
    "Stunner Pawn": "stunner_pawn",
    "Flamer Pawn": "flamer_pawn",
    "Conversion Pawn": "conversion_pawn",
    "Stealth Pawn": "stealth_pawn",
    "XXX Pawn": "xxx_pawn",
    "AAA": "aaa",
    "Destroyer": "destroyer",
}

ARTICLE_NAMES = {
    "Stealth": "stealth",
    "Anti Stealth": "anti_stealth",
    "Torpedo Lnchr": "torpedo_launcher",
    "Anti Torpedo": "anti_torpedo",
    "SAM Lnchr": "sam_launcher",
    "Anti SAM": "anti_sam",
    "Rocket Lnchr": "rocket_launcher",
    "Anti Rocket": "anti_rocket",
    "Flamer": "flamer",
    "Anti Flamer": "anti_flamer",
    "Stunner": "stunner",
    "Anti Stunner": "anti_stunner",
    "Conversion": "conversion",
    "Anti Conversion": "anti_conversion",
    "Bike": "bike",
    "Jump Pack": "jump_pack",
    "Scuba": "scuba",
    "XXX": "xxx",
}

E: tuple[str, ...] = ()  # 'empty'

_BACK_ROW = [
    ("Tank",), ("Dozer", "Sub"), ("Cleric",), ("Chopper", "Jet"), ("King",),
    ("Queen",), ("Chopper", "Jet"), ("Cleric",), ("Dozer", "Sub"), ("Tank",),
]

# Starting Position for the Player Pieces, top row (Black's row 10) first.
PIECES_CHART: list[list[tuple[str, ...]]] = [
    [("Tank",), ("Dozer", "Sub"), ("Cleric",), ("Chopper", "Jet"), ("Queen",),
     ("King",), ("Chopper", "Jet"), ("Cleric",), ("Dozer", "Sub"), ("Tank",)],
    [("Rocket Launcher Pawn",), ("Stunner Pawn",), ("Flamer Pawn", "AAA"), ("Conversion Pawn", "Destroyer"),
     ("XXX Pawn",), ("Stealth Pawn",), ("Conversion Pawn", "Destroyer"), ("Flamer Pawn", "AAA"),
     ("Stunner Pawn",), ("Rocket Launcher Pawn",)],
    [E] * 10,
    [E] * 10,
    [E] * 10,
    [E] * 10,
    [E] * 10,
    [E] * 10,
    [("Rocket Launcher Pawn",), ("Stunner Pawn",), ("Flamer Pawn", "AAA"), ("Conversion Pawn", "Destroyer"),
     ("Stealth Pawn",), ("XXX Pawn",), ("Conversion Pawn", "Destroyer"), ("Flamer Pawn", "AAA"),
     ("Stunner Pawn",), ("Rocket Launcher Pawn",)],
    _BACK_ROW,
]

# Starting Position for the Articles, top row (Black's row 10) first.
ARTICLES_CHART: list[list[tuple[str, ...]]] = [
    [E] * 10,
    [E] * 10,
    [("Stealth",), ("Torpedo Lnchr",), ("Bike", "SAM Lnchr"), ("Jump Pack",), ("Scuba",),
     ("Scuba",), ("Jump Pack",), ("Bike", "SAM Lnchr"), ("Torpedo Lnchr",), ("Anti Stealth",)],
    [("Anti Torpedo",), ("Anti Stealth",), ("SAM Lnchr",), ("Anti Conversion",), ("Anti Rocket",),
     ("Anti Flamer",), ("Anti Stunner",), ("SAM Lnchr",), ("Anti Stealth",), ("Anti Torpedo",)],
    [("Torpedo Lnchr",), ("Stealth",), ("Anti SAM",), ("Conversion",), ("XXX", "Rocket Lnchr"),
     ("XXX", "Flamer"), ("Stunner",), ("Anti SAM",), ("Stealth",), ("Torpedo Lnchr",)],
    [("Torpedo Lnchr",), ("Stealth",), ("Anti SAM",), ("Stunner",), ("XXX", "Flamer"),
     ("XXX", "Rocket Lnchr"), ("Conversion",), ("Anti SAM",), ("Stealth",), ("Torpedo Lnchr",)],
    [("Anti Torpedo",), ("Anti Stealth",), ("SAM Lnchr",), ("Anti Stunner",), ("Anti Flamer",),
     ("Anti Rocket",), ("Anti Conversion",), ("SAM Lnchr",), ("Anti Stealth",), ("Anti Torpedo",)],
    [("Anti Stealth",), ("Torpedo Lnchr",), ("Bike", "SAM Lnchr"), ("Jump Pack",), ("Scuba",),
     ("Scuba",), ("Jump Pack",), ("Bike", "SAM Lnchr"), ("Torpedo Lnchr",), ("Stealth",)],
    [E] * 10,
    [E] * 10,
]

SQUARES = [(r, c) for r in range(1, 11) for c in range(1, 11)]


def _chart(chart: list[list[tuple[str, ...]]], names: dict[str, str]) -> dict[tuple[int, int], list[str]]:
    """{(row, col): sorted engine type names} from a chart drawn top row first."""
    assert len(chart) == 10 and all(len(row) == 10 for row in chart)
    out = {}
    for i, drawn in enumerate(chart):
        for j, cell in enumerate(drawn):
            out[(10 - i, j + 1)] = sorted(names[n] for n in cell)
    return out


CHART_PIECES = _chart(PIECES_CHART, PIECE_NAMES)
CHART_ARTICLES = _chart(ARTICLES_CHART, ARTICLE_NAMES)


def _color_of_row(row: int) -> str | None:
    return "black" if row <= 2 else "white" if row >= 9 else None


def _mirror(rc: tuple[int, int]) -> tuple[int, int]:
    return (11 - rc[0], 11 - rc[1])


# --- fixtures ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def doc():
    return dump_scenario(new_game())


def _pieces_at(doc, row, col, level=None):
    return [p for p in doc["pieces"] if p["row"] == row and p["col"] == col and (level is None or p["level"] == level)]


# --- the transcription itself -----------------------------------------------------

def test_transcribed_charts_are_half_turn_symmetric():
    # The manual's rule: White's position is Black's turned half a circle. The
    # charts as drawn obey it (this guards the transcription).
    for rc in SQUARES:
        assert CHART_PIECES[rc] == CHART_PIECES[_mirror(rc)], rc
        assert CHART_ARTICLES[rc] == CHART_ARTICLES[_mirror(rc)], rc


def test_transcribed_chart_totals():
    pieces = Counter(t for rc, ts in CHART_PIECES.items() for t in ts)
    assert sum(pieces.values()) == 56
    assert sum(len(v) for v in CHART_ARTICLES.values()) == 68
    # Nothing in rows 3..8 (pieces) nor in rows 1, 2, 9, 10 (Articles).
    assert all(not CHART_PIECES[(r, c)] for r in range(3, 9) for c in range(1, 11))
    assert all(not CHART_ARTICLES[(r, c)] for r in (1, 2, 9, 10) for c in range(1, 11))


# --- pieces -------------------------------------------------------------------------

@pytest.mark.parametrize("rc", SQUARES, ids=[f"{r}-{c}" for r, c in SQUARES])
def test_square_pieces_match_chart(doc, rc):
    row, col = rc
    here = _pieces_at(doc, row, col)
    expected_color = _color_of_row(row)
    assert sorted(p["type"] for p in here) == CHART_PIECES[rc]
    for p in here:
        assert p["level"] == "ground", p
        assert p["color"] == expected_color, p
        assert p["articles"] == [], p
        assert not p.get("stun"), p
        assert not p.get("transport"), p


@pytest.mark.parametrize("rc", SQUARES, ids=[f"{r}-{c}" for r, c in SQUARES])
def test_square_articles_match_chart(doc, rc):
    row, col = rc
    here = sorted(a["type"] for a in doc["articles"] if a["row"] == row and a["col"] == col)
    assert here == CHART_ARTICLES[rc]


def test_only_ground_level_is_used(doc):
    assert {p["level"] for p in doc["pieces"]} == {"ground"}


@pytest.mark.parametrize("color", ["black", "white"])
def test_piece_counts(doc, color):
    kinds = Counter(p["type"] for p in doc["pieces"] if p["color"] == color)
    pawns = sum(n for t, n in kinds.items() if t.endswith("_pawn"))
    assert pawns == 10
    for t in ("tank", "dozer", "sub", "chopper", "destroyer", "aaa", "cleric", "jet"):
        assert kinds[t] == 2, t
    assert kinds["king"] == 1
    assert kinds["queen"] == 1
    assert sum(kinds.values()) == 28
    assert Counter(t for t in kinds.elements() if t.endswith("_pawn")) == Counter(
        {"rocket_pawn": 2, "stunner_pawn": 2, "flamer_pawn": 2, "conversion_pawn": 2, "stealth_pawn": 1,
         "xxx_pawn": 1}
    )


def test_white_is_black_turned_half_a_circle(doc):
    black = Counter((p["row"], p["col"], p["type"]) for p in doc["pieces"] if p["color"] == "black")
    white = Counter((11 - p["row"], 11 - p["col"], p["type"]) for p in doc["pieces"] if p["color"] == "white")
    assert black == white


def test_black_to_move_at_the_start():
    g = new_game()
    d = dump_scenario(g)
    assert d["to_move"] == "black"
    assert outcome(g) is None
    assert history(g) == []
    assert d["turn"]["moved"] is False
    actions = legal_actions(g)
    assert actions and {a["type"] for a in actions} <= {"move", "fire", "pickup"}
    assert "end_turn" not in {a["type"] for a in actions}
    assert all(tuple(a["from"][:2]) in {(1, c) for c in range(1, 11)} | {(2, c) for c in range(1, 11)}
               for a in actions)


def test_new_game_is_reproducible():
    assert new_game() == new_game()
    assert new_game(None) == new_game({})
    assert dump_scenario(new_game()) == dump_scenario(new_game())


# --- hands ----------------------------------------------------------------------------

# Each Tank and Cleric takes the hand whose only on-board path from the back
# row ends in the enemy half (docs/rulings.md, "Starting hands"); the Choppers
# follow the Tanks. Black's left is column 1.
BLACK_HANDS = {
    (1, 1): ("tank", "right"),
    (1, 3): ("cleric", "left"),
    (1, 4): ("chopper", "right"),
    (1, 7): ("chopper", "left"),
    (1, 8): ("cleric", "right"),
    (1, 10): ("tank", "left"),
}


@pytest.mark.parametrize("color", ["black", "white"])
@pytest.mark.parametrize("rc", sorted(BLACK_HANDS))
def test_handed_pieces_turn_toward_the_middle(doc, color, rc):
    kind, hand = BLACK_HANDS[rc]
    row, col = rc if color == "black" else _mirror(rc)
    [p] = [p for p in _pieces_at(doc, row, col, "ground") if p["type"] == kind]
    assert p["color"] == color
    assert p.get("hand") == hand


def test_only_tanks_clerics_and_choppers_are_handed(doc):
    for p in doc["pieces"]:
        if p["type"] in ("tank", "cleric", "chopper"):
            assert p.get("hand") in ("left", "right"), p
        else:
            assert p.get("hand") is None, p


# --- reinforcements ----------------------------------------------------------------------

REINFORCEMENT_KINDS = Counter(
    {"jet": 2, "sub": 2, "queen": 1, "dozer": 1, "cleric": 1, "tank": 1, "aaa": 1, "destroyer": 1}
)


@pytest.mark.parametrize("color", ["black", "white"])
def test_reinforcements(doc, color):
    mine = [r for r in doc["reinforcements"] if r["color"] == color]
    assert Counter(r["type"] for r in mine) == REINFORCEMENT_KINDS
    enemy_half = range(6, 11) if color == "black" else range(1, 6)
    for r in mine:
        assert r["row"] in enemy_half, r
        assert 1 <= r["col"] <= 10, r
        assert not r.get("articles"), r
        assert not r.get("armed") and not r.get("ready"), r


def test_twenty_reinforcements(doc):
    assert len(doc["reinforcements"]) == 20


def test_handed_reinforcements(doc):
    by_square = Counter((r["row"], r["col"]) for r in doc["reinforcements"])
    for r in doc["reinforcements"]:
        if r["type"] in ("tank", "cleric", "chopper"):
            # Alone on its activation Square (manual, handed reinforcements).
            assert by_square[(r["row"], r["col"])] == 1, r
            # Toward the middle: Black's left wing is columns 1..5, White's 6..10.
            left_wing = r["col"] <= 5 if r["color"] == "black" else r["col"] >= 6
            assert r.get("hand") == ("right" if left_wing else "left"), r
        else:
            assert r.get("hand") is None, r


def test_enemy_reinforcements_show_only_their_squares():
    v = view(new_game(), "black")
    theirs = [r for r in v["reinforcements"] if r["color"] == "white"]
    assert len(theirs) == 10
    assert all("type" not in r for r in theirs)


# --- Stealth Pawns lock-on and what each side sees --------------------------------------

@pytest.mark.parametrize("color", ["black", "white"])
def test_view_at_start(color):
    g = new_game()
    doc = dump_scenario(g)
    v = view(g, color)
    enemy = "white" if color == "black" else "black"
    seen = Counter((p["row"], p["col"], p["level"], p["type"]) for p in v["pieces"] if p["color"] == enemy)
    expected = Counter(
        (p["row"], p["col"], p["level"], p["type"]) for p in doc["pieces"]
        if p["color"] == enemy and p["type"] != "aaa"
    )
    # Every enemy Piece but the two AAAs (inherent Stealth) is seen; the enemy
    # Stealth Pawn is seen because our Stealth Pawn is locked on to it.
    assert seen == expected
    stealth_pawn_at = (9, 6) if enemy == "white" else (2, 5)
    assert (*stealth_pawn_at, "ground", "stealth_pawn") in seen
    assert not any(t == "aaa" for *_, t in seen)
    mine = [p for p in v["pieces"] if p["color"] == color]
    assert len(mine) == 28
    assert all("id" in p for p in mine)
    assert all("id" not in p for p in v["pieces"] if p["color"] == enemy)


def test_stealth_pawns_lock_on_to_each_other(doc):
    ids = {(p["row"], p["col"]): p["id"] for p in doc["pieces"] if p["type"] == "stealth_pawn"}
    assert set(ids) == {(2, 5), (9, 6)}
    locks = {(lk["watcher"], lk["watched"]) for lk in doc["locks"]}
    black, white = ids[(2, 5)], ids[(9, 6)]
    assert locks == {(black, white), (white, black)}


def test_without_lock_on_mode_the_enemy_stealth_pawn_is_unseen():
    # Lock-on is one of the two ways Stealth is countered; with lock-on mode off
    # (and range detection off, as in a standard game) nothing counters the
    # enemy Stealth Pawn's Stealth at the start.
    g = new_game({"stealth_lock_on": False})
    for color, enemy in (("black", "white"), ("white", "black")):
        v = view(g, color)
        assert not [p for p in v["pieces"] if p["color"] == enemy and p["type"] == "stealth_pawn"]


def test_without_stealth_invisibility_everything_is_seen():
    g = new_game({"stealth_invisibility": False})
    for color in ("black", "white"):
        assert len(view(g, color)["pieces"]) == 56


# --- other governments and amounts -------------------------------------------------------

GOVERNMENTS = {
    "monarchy": ("king", "queen"),
    "dictatorship": ("dictator", "assassin"),
    "theocracy": ("avatar", "acolyte"),
    "democracy": ("president", "prime_minister"),
}


@pytest.mark.parametrize("government", sorted(GOVERNMENTS))
@pytest.mark.parametrize("color", ["black", "white"])
def test_governments(color, government):
    primary, secondary = GOVERNMENTS[government]
    doc = dump_scenario(new_game({f"{color}_government": government}))
    assert doc["options"][f"{color}_government"] == government
    p_rc, s_rc = ((1, 5), (1, 6)) if color == "black" else ((10, 6), (10, 5))
    assert [p["type"] for p in _pieces_at(doc, *p_rc)] == [primary]
    assert [p["type"] for p in _pieces_at(doc, *s_rc)] == [secondary]
    # The other side keeps its Monarchy.
    other = "white" if color == "black" else "black"
    theirs = Counter(p["type"] for p in doc["pieces"] if p["color"] == other)
    assert theirs["king"] == 1 and theirs["queen"] == 1
    mine = Counter(p["type"] for p in doc["pieces"] if p["color"] == color)
    assert mine[primary] == 1 and mine[secondary] == 1
    assert sum(mine.values()) == 28
    # The reinforcement "Queen" is the government's secondary Piece.
    reinf = Counter(r["type"] for r in doc["reinforcements"] if r["color"] == color)
    assert reinf[secondary] == 1
    if government != "monarchy":
        assert reinf["queen"] == 0 and mine["king"] == 0 and mine["queen"] == 0


WEAPON_ARTICLES = {"flamer", "stunner", "conversion", "rocket_launcher", "sam_launcher", "torpedo_launcher"}


def test_no_weapon_articles():
    doc = dump_scenario(new_game({"weapon_articles": "none"}))
    for rc in SQUARES:
        here = sorted(a["type"] for a in doc["articles"] if (a["row"], a["col"]) == rc)
        assert here == [a for a in CHART_ARTICLES[rc] if a not in WEAPON_ARTICLES], rc
    assert len(doc["pieces"]) == 56


def test_no_xxx_boxes():
    doc = dump_scenario(new_game({"xxx_boxes": "none"}))
    for rc in SQUARES:
        here = sorted(a["type"] for a in doc["articles"] if (a["row"], a["col"]) == rc)
        assert here == [a for a in CHART_ARTICLES[rc] if a != "xxx"], rc
    # The XXX Pawn is a Piece, not a box on the ground: it stays.
    assert sum(p["type"] == "xxx_pawn" for p in doc["pieces"]) == 2


def test_no_reinforcements():
    doc = dump_scenario(new_game({"reinforcements": "none"}))
    assert doc["reinforcements"] == []
    assert len(doc["pieces"]) == 56
    assert len(doc["articles"]) == 68


@pytest.mark.parametrize("color", ["black", "white"])
@pytest.mark.parametrize("rc", [(1, 1), (1, 3), (1, 8), (1, 10)])
def test_wing_tank_and_cleric_paths_reach_the_enemy_half(color, rc):
    """The ruling's reason, checked: from the standard setup, the one path of
    each wing Tank and Cleric that stays on the board ends on the enemy's
    side of the middle (row 8 for Black, row 3 for White), not in its own."""
    from games.rules.wec import load_scenario, move_targets

    row, col = rc if color == "black" else _mirror(rc)
    g = new_game()
    doc = dump_scenario(g)
    # Clear the board but for this Piece, to see its whole path.
    doc["pieces"] = [p for p in doc["pieces"] if (p["row"], p["col"]) == (row, col)]
    doc["to_move"] = color
    doc["reinforcements"] = []
    doc["locks"] = []
    g = load_scenario(doc)
    targets = move_targets(g, row, col, "ground")
    assert len(targets) == 1
    [(r, _c, _lv)] = targets
    assert r == (8 if color == "black" else 3)
