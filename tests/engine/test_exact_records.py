"""Exact records where two alike Pieces share a place, and of homing projectiles.

Four cases where two alike Pieces (same type, colour, hand
and Articles) share a place, built with scenario documents and played only
through the public facade; the homing projectile whose target is gone; and
the ``#n`` and ``SQ:`` markers of docs/notation.md, old records without them
included. Random-option property tests are in test_random_option_records.py.
"""

from __future__ import annotations

from typing import Any

import pytest

import games.rules.wec as wec

G = "ground"


def P(kind: str, color: str, row: int, col: int, level: str = G, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "color": color, "row": row, "col": col, "level": level, **extra}


def doc(pieces: list[dict[str, Any]], to_move: str = "black", **options: Any) -> dict[str, Any]:
    kings = [P("king", "black", 1, 1), P("king", "white", 10, 10)]
    return {"to_move": to_move, "options": options, "pieces": kings + pieces}


def ids_at(game: wec.Game, row: int, col: int, level: str) -> list[int]:
    view = wec.view(game, wec.to_move(game))
    return sorted(p["id"] for p in view["pieces"] if (p["row"], p["col"], p["level"]) == (row, col, level))


def moves_of(game: wec.Game, piece: int) -> list[dict[str, Any]]:
    return [a for a in wec.legal_actions(game) if a["type"] == "move" and a.get("piece") == piece]


def king_step(game: wec.Game) -> dict[str, Any]:
    color = wec.to_move(game)
    king = next(p["id"] for p in wec.view(game, color)["pieces"] if p["type"] == "king" and p["color"] == color)
    return moves_of(game, king)[0]


def snapshot(game: wec.Game) -> tuple[Any, ...]:
    return (wec.dump_scenario(game), wec.view(game, "black"), wec.view(game, "white"), wec.legal_actions(game))


def assert_same(a: wec.Game, b: wec.Game) -> None:
    sa, sb = snapshot(a), snapshot(b)
    assert sa[0] == sb[0]
    assert sa[1:] == sb[1:]
    for color in (None, "black", "white"):
        assert wec.history(a, color) == wec.history(b, color)
        assert wec.plain_history(a, color) == wec.plain_history(b, color)


def play(game: wec.Game, *actions: dict[str, Any]) -> wec.Game:
    for a in actions:
        game = wec.apply(game, a)
    return game


# --- case 1: Undo picks the other piece ----------------------------------------------------

def test_undo_after_end_turn_keeps_the_jet_that_flew():
    d = doc([P("jet", "black", 4, 7, "air"), P("jet", "black", 4, 7, "air")])
    g = wec.load_scenario(d)
    first, second = ids_at(g, 4, 7, "air")
    flight = next(a for a in moves_of(g, second) if a["to"] == [4, 9, "air"])
    moved = wec.apply(g, flight)
    ended = wec.apply(moved, {"type": "end_turn"})
    assert {p["id"]: (p["row"], p["col"]) for p in wec.view(wec.undo(ended, 1), "black")["pieces"]
            if p["type"] == "jet"} == {first: (4, 7), second: (4, 9)}
    assert_same(wec.undo(ended, 1), moved)
    assert_same(wec.undo(ended, 2), g)
    assert_same(wec.replay(wec.history(ended), scenario=d), ended)
    # The text says which of the two Jets flew: the second in id order.
    assert wec.history(ended) == ["MV:JE^(4,7)#2->^(4,9)"]


# --- case 2: replay and Undo raised -------------------------------------------------------

def test_replay_and_undo_follow_the_right_destroyer():
    d = doc([P("destroyer", "black", 2, 4), P("destroyer", "black", 2, 4)])
    g = wec.load_scenario(d)
    first, second = ids_at(g, 2, 4, G)
    torpedo = next(a for a in wec.legal_actions(g) if a.get("weapon") == "torpedo_launcher"
                   and a.get("piece") == second and a.get("direction") == [1, 0])
    g = play(g, torpedo, king_step(g), {"type": "end_turn"})
    g = play(g, king_step(g), {"type": "end_turn"})
    # The second Destroyer is cooling down; the first moves and fires.
    step = next(a for a in moves_of(g, first) if a["to"] == [3, 5, G])
    g = wec.apply(g, step)
    shot = next(a for a in wec.legal_actions(g) if a.get("weapon") == "torpedo_launcher"
                and a.get("piece") == first)
    before_end = wec.apply(g, shot)
    done = wec.apply(before_end, {"type": "end_turn"})
    assert_same(wec.replay(wec.history(done), scenario=d), done)
    assert_same(wec.undo(done, 1), before_end)
    assert_same(wec.undo(done, 3), wec.undo(before_end, 2))
    assert "DS(2,4)#2" in wec.history(done)[0]
    assert wec.history(done)[2].startswith("MV:DS(2,4)#1->(3,5)")


# --- case 3: a reload reordered a shared Square -------------------------------------------

def test_a_reloaded_game_writes_the_same_history():
    # The AAA has the lower id but arrives second on the Pawn's Square.
    d = doc([P("aaa", "white", 7, 5), P("rocket_pawn", "white", 6, 5), P("flamer_pawn", "black", 4, 5)],
            to_move="white", stealth_invisibility=False)
    g = wec.load_scenario(d)
    aaa = ids_at(g, 7, 5, G)[0]
    g = play(g, next(a for a in moves_of(g, aaa) if a["to"] == [6, 5, G]), {"type": "end_turn"})
    reloaded = wec.load_scenario(wec.dump_scenario(g))
    assert_same(reloaded, g)
    flame = next(a for a in wec.legal_actions(g) if a.get("weapon") == "flamer" and a.get("direction") == [1, 0])
    turn = [flame, king_step(g), {"type": "end_turn"}]
    live, again = play(g, *turn), play(reloaded, *turn)
    assert wec.history(live)[-1].count("FK*") == 2
    assert_same(live, again)
    assert_same(wec.load_scenario(wec.dump_scenario(live)), live)


# --- case 4: censored history from what happened ------------------------------------------

def test_censored_history_follows_the_order_the_actions_were_taken_in():
    # Black's Anti-Stealth Rocket Pawn is locked on White's AAA (inherent
    # Stealth); White's Flamer Pawn destroys it, then the AAA, now unseen,
    # moves: Black must read MV:?, in the played and in the replayed game.
    d = doc([P("aaa", "white", 7, 5), P("flamer_pawn", "white", 6, 3),
             P("rocket_pawn", "black", 4, 3, articles=["anti_stealth"])], to_move="white", competitive=True)
    d["locks"] = [{"watcher": [4, 3, G], "watched": [7, 5, G]}]
    g = wec.load_scenario(d)
    assert any(p["type"] == "aaa" for p in wec.view(g, "black")["pieces"])
    flame = next(a for a in wec.legal_actions(g) if a.get("weapon") == "flamer" and a.get("direction") == [-1, 0])
    g = wec.apply(g, flame)
    aaa = ids_at(g, 7, 5, G)[0]
    g = wec.apply(g, next(a for a in moves_of(g, aaa) if a["to"] == [6, 5, G]))
    g = wec.apply(g, {"type": "end_turn"})
    black = wec.history(g, "black")
    assert black[0].startswith("MV:?,FI1:FL/FP(6,3)->(5,3)")
    assert "AAA" not in black[0]
    full = wec.history(g)
    again = wec.replay(full, scenario=d)
    assert wec.history(again, "black") == black
    assert_same(again, g)
    assert full[0].endswith(",SQ:1M")


# --- a homing projectile whose target is gone ------------------------------------------

def test_a_second_homing_sam_at_a_destroyed_target_is_spent():
    d = doc([P("aaa", "white", 5, 5), P("aaa", "white", 5, 5), P("chopper", "black", 5, 5, "air", hand="right")],
            to_move="white", stealth_invisibility=False)
    g = wec.load_scenario(d)
    first, second = ids_at(g, 5, 5, G)
    sams = [a for a in wec.legal_actions(g) if a.get("weapon") == "sam_launcher" and "target" in a]
    assert {a["piece"] for a in sams} == {first, second}
    g = play(g, *sams, king_step(g))
    g = wec.apply(g, {"type": "end_turn"})  # raised KeyError before the fix
    [text] = wec.history(g)
    assert text.startswith("MV:K(10,10)->")
    assert text.endswith(",FI1:SL/AAA(5,5)#1=>CH^(5,5)>,FI2:SL/AAA(5,5)#2=>CH^(5,5)>,RS:SK*CH^(5,5)>B,SQ:12M")
    assert wec.dump_scenario(g)["projectiles"] == []
    assert wec.plain_history(g)[0].endswith("a SAM lost its target, the SAM, with no heading to fly on, was spent.")
    assert_same(wec.replay(wec.history(g), scenario=d), g)


def test_a_homing_sam_whose_target_lands_flies_on_in_its_heading():
    # The lock breaks when the target leaves the air; the SAM keeps its heading
    # (l. 139-141).
    d = doc([P("aaa", "white", 5, 5), P("chopper", "black", 8, 5, "air", hand="right")],
            to_move="white", stealth_invisibility=False)
    g = wec.load_scenario(d)
    sam = next(a for a in wec.legal_actions(g) if a.get("weapon") == "sam_launcher" and "target" in a)
    g = play(g, sam, king_step(g), {"type": "end_turn"})
    chopper = ids_at(g, 8, 5, "air")[0]
    land = next(a for a in moves_of(g, chopper) if a["to"][2] == G and a["to"][1] != 5)
    g = play(g, land, {"type": "end_turn"})
    g = play(g, king_step(g), {"type": "end_turn"})
    text = wec.history(g)[-1]
    assert "S->(7,5)(1,0)" in text
    assert "lost its target" in wec.plain_history(g)[-1]


# --- the markers and old records -----------------------------------------------------------

def test_markers_parse_and_old_records_still_read():
    d = doc([P("jet", "black", 4, 7, "air"), P("jet", "black", 4, 7, "air")])
    g = wec.load_scenario(d)
    _, second = ids_at(g, 4, 7, "air")
    g = play(g, next(a for a in moves_of(g, second) if a["to"] == [4, 9, "air"]), {"type": "end_turn"})
    text = wec.history(g)[0]
    parsed = wec.parse_turn(text)
    assert parsed[0]["actor"]["mark"] == 2
    # An old record (no marker) still reads; which Jet flew is then the
    # reader's guess, as before.
    old = wec.replay([text.replace("#2", "")], scenario=d)
    assert wec.history(old) in (["MV:JE^(4,7)#1->^(4,9)"], ["MV:JE^(4,7)#2->^(4,9)"])


@pytest.mark.parametrize("text, where", [
    ("MV:JE^(4,7)#3->^(4,9)", "'#1' or '#2'"),
    ("MV:K(1,1)->(1,2),SQ:1M", "does not list"),
    ("MV:K(1,1)->(1,2),SQ:MM", "does not list"),
])
def test_bad_markers_are_refused_with_a_reason(text, where):
    with pytest.raises(ValueError, match=where):
        wec.parse_turn(text)


def test_a_mark_naming_no_piece_does_not_replay():
    d = doc([P("jet", "black", 4, 7, "air")])
    with pytest.raises(ValueError, match="Turn 1"):
        wec.replay(["MV:JE^(4,7)#2->^(4,9)"], scenario=d)


def test_the_enemy_reads_no_marker_for_a_piece_it_cannot_tell_apart():
    # Two alike Black AAAs (inherent Stealth) share a Square; White sees
    # neither, so its censored text has no marker; Black's own text has it.
    d = doc([P("aaa", "black", 4, 4), P("aaa", "black", 4, 4), P("flamer_pawn", "black", 3, 6)],
            competitive=True, seen_when_firing=False)
    g = wec.load_scenario(d)
    _, second = ids_at(g, 4, 4, G)
    sam = next(a for a in wec.legal_actions(g) if a.get("piece") == second and a.get("weapon") == "sam_launcher"
               and a.get("direction") == [1, 0])
    g = play(g, sam, king_step(g), {"type": "end_turn"})
    assert "AAA(4,4)#2" in wec.history(g, "black")[0]
    assert "#" not in wec.history(g, "white")[0]
    assert "SQ:" not in wec.history(g, "white")[0]
