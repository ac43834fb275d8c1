"""The server AI player (games/rules/wec/ai.py): it picks legal actions, wins
when it can, spares its own Pieces and primary, never uses what it cannot see,
finishes its Turns, and beats a random player."""

from __future__ import annotations

import random
import time

import pytest

import games.rules.wec as wec
from games.rules.wec.ai import belief, choose_action, piece_value


def P(kind, color, row, col, level="ground", **extra):
    d = {"type": kind, "color": color, "row": row, "col": col, "level": level}
    d.update(extra)
    return d


def make(pieces, to_move="black", **doc):
    return wec.load_scenario({"to_move": to_move, "pieces": pieces, **doc})


def play_turn(game, seed=0, limit=12):
    """The AI's whole Turn: (the game after it, the actions it took)."""
    taken = []
    for _ in range(limit):
        legal = wec.legal_actions(game)
        a = choose_action(game, seed)
        assert a in legal
        taken.append(a)
        game = wec.apply(game, a)
        if a["type"] == "end_turn" or wec.outcome(game):
            return game, taken
    raise AssertionError(f"the AI did not end its Turn: {taken}")


def material(game, color):
    # The primary counts as little as a Queen here: only the game's end decides it.
    return sum(min(piece_value(p), 9.0) * (1 if p.color == color else -1) for p in game.pieces.values())


# --- basics --------------------------------------------------------------------------


def test_returns_a_legal_action_in_the_standard_position():
    g = wec.new_game()
    a = choose_action(g, 1)
    assert a in wec.legal_actions(g)
    assert choose_action(g, 1) == a  # deterministic for a seed


def test_returns_none_once_the_game_is_over():
    g = make([P("king", "black", 1, 5), P("flamer_pawn", "black", 5, 5), P("king", "white", 6, 5)])
    g = wec.apply(g, {"type": "move", "from": [5, 5, "ground"], "to": [6, 5, "ground"]})
    # The result is fixed when the Turn ends (docs/rulings.md, "The end of the game").
    g = wec.apply(g, {"type": "end_turn"})
    assert wec.outcome(g)["winner"] == "black"
    assert choose_action(g, 0) is None


def test_fast_enough_in_the_standard_position():
    g = wec.new_game()
    times = []
    for seed in range(3):
        t = time.perf_counter()
        choose_action(g, seed)
        times.append(time.perf_counter() - t)
    assert sorted(times)[1] < 2.0  # about 0.1 s on one core; loose for slow machines


# --- winning and not losing ------------------------------------------------------------


def test_takes_the_enemy_king_rather_than_the_queen():
    g = make([
        P("king", "black", 1, 5),
        P("flamer_pawn", "black", 5, 5),
        P("king", "white", 6, 5),
        P("queen", "white", 5, 6),
        P("tank", "white", 5, 4),
    ])
    for seed in range(3):
        a = choose_action(g, seed)
        assert wec.outcome(wec.apply(wec.apply(g, a), {"type": "end_turn"})) == {"winner": "black",
                                                                                  "reason": "primary_taken"}


def test_converts_the_enemy_king_with_a_fire():
    g = make([
        P("king", "white", 10, 1),
        P("cleric", "white", 5, 5),
        P("king", "black", 6, 5),
        P("rocket_pawn", "black", 9, 9),
    ], to_move="white")
    a = choose_action(g, 0)
    assert a["type"] == "fire" and a["weapon"] == "conversion"
    assert wec.outcome(wec.apply(wec.apply(g, a), {"type": "end_turn"}))["winner"] == "white"


def test_never_walks_its_king_into_its_own_rocket():
    # A strength-2 Rocket of Black's flies to (4, 5) when this Turn ends; taking
    # the Pawn there with the King would lose the game.
    rocket = {"kind": "rocket", "color": "black", "row": 3, "col": 5, "level": "ground", "direction": [1, 0],
              "target": None, "strength": 2, "fresh": False}
    g = make([P("king", "black", 5, 4), P("rocket_pawn", "white", 4, 5), P("king", "white", 10, 10)],
             projectiles=[rocket])
    assert {"type": "move", "piece": 1, "from": [5, 4, "ground"], "to": [4, 5, "ground"]} in wec.legal_actions(g)
    for seed in range(4):
        g2, taken = play_turn(g, seed)
        assert wec.outcome(g2) is None, taken


def test_moves_the_king_out_of_a_tank_flamer():
    # White's Tank (strength 2 with its Flamer Article) would burn the King
    # through its Anti-Flamer from two Squares away.
    g = make([
        P("king", "black", 3, 5),
        P("tank", "white", 5, 5, articles=["flamer"]),
        P("king", "white", 10, 10),
    ])
    g2, _ = play_turn(g, 0)
    king = next(p for p in g2.pieces.values() if p.type == "king" and p.color == "black")
    assert not (king.col == 5 and king.row in (3, 4)) and not (abs(king.row - 5) == abs(king.col - 5) <= 2)


# --- friendly fire --------------------------------------------------------------------


@pytest.mark.parametrize("clean_target", [True, False])
def test_does_not_flame_its_own_pieces(clean_target):
    # The Flamer Pawn at (5, 5) sees a White Pawn to the north-east with a
    # stunned (so unmovable) Black Pawn behind it; with ``clean_target``
    # another White Pawn to the south-west, alone.
    pieces = [
        P("king", "black", 1, 1),
        P("flamer_pawn", "black", 5, 5),
        P("stunner_pawn", "white", 6, 6),
        P("xxx_pawn", "black", 7, 7, stun=2),
        P("king", "white", 10, 10),
    ]
    if clean_target:
        pieces.append(P("stunner_pawn", "white", 4, 4))
    g = make(pieces)
    before = {p.id: p for p in g.pieces.values() if p.color == "black"}
    for seed in range(3):
        g2, taken = play_turn(g, seed)
        after = {p.id: p for p in g2.pieces.values() if p.color == "black"}
        assert set(before) <= set(after), taken
        assert all(after[i].stun <= before[i].stun for i in before), taken
        assert {"type": "fire", "from": [5, 5, "ground"], "piece": 2, "weapon": "flamer",
                "direction": [1, 1]} not in taken
        if clean_target:
            assert {"type": "fire", "from": [5, 5, "ground"], "piece": 2, "weapon": "flamer",
                    "direction": [-1, -1]} in taken
            assert not any(p.color == "white" and (p.row, p.col) == (4, 4) for p in g2.pieces.values())


# --- no hidden information ------------------------------------------------------------


@pytest.mark.parametrize("hidden", [
    P("aaa", "white", 4, 3),  # Stealth, in reach of Black's Flamer Pawn at (2, 3)
    P("sub", "white", 6, 5, "sub"),  # submerged, beyond Black's Torpedo Launchers
    P("stealth_pawn", "white", 3, 5),  # Stealth, right in front of Black's Pawns
])
def test_same_choice_whatever_it_cannot_see(hidden):
    doc = wec.dump_scenario(wec.new_game())
    doc2 = {**doc, "pieces": doc["pieces"] + [dict(hidden, id=500)]}
    doc.pop("start"), doc2.pop("start")
    # Range detection (on in the standard game) would show the Stealth cases
    # to Black's Stealth Pawn; this test is about what Black cannot see.
    for d in (doc, doc2):
        d["options"] = dict(d["options"], stealth_detect_in_range=False)
    g1, g2 = wec.load_scenario(doc), wec.load_scenario(doc2)
    assert 500 in wec.hidden_from(g2, "black")
    assert wec.view(g1, "black") == wec.view(g2, "black")
    assert wec.dump_scenario(belief(g1, "black")) == wec.dump_scenario(belief(g2, "black"))
    for seed in range(3):
        a, b = g1, g2
        for _ in range(8):  # Black's whole first Turn, in step
            x, y = choose_action(a, seed), choose_action(b, seed)
            assert x == y
            a, b = wec.apply(a, x), wec.apply(b, y)
            if x["type"] == "end_turn" or wec.view(a, "black") != wec.view(b, "black"):
                break


def test_same_choice_mid_game_without_the_hidden_pieces():
    # Random positions; the same game with every Piece hidden from the side
    # to move removed gives the same choice.
    rng = random.Random(7)
    g = wec.new_game()
    compared = 0
    for k in range(240):
        g = wec.apply(g, rng.choice(wec.legal_actions(g)))
        if wec.outcome(g):
            break
        me = g.to_move
        hidden = wec.hidden_from(g, me)
        if k % 6 or not hidden:
            continue
        doc = wec.dump_scenario(g)
        doc["pieces"] = [p for p in doc["pieces"] if p["id"] not in hidden]
        doc["locks"] = [lk for lk in doc["locks"] if lk["watcher"] not in hidden and lk["watched"] not in hidden]
        doc["revealed"] = [r for r in doc["revealed"] if r[0] not in hidden]
        doc["turn"]["hits"] = [h for h in doc["turn"]["hits"] if h[0] not in hidden]
        g2 = wec.load_scenario(doc)
        if wec.view(g, me) != wec.view(g2, me):
            continue
        assert choose_action(g, k) == choose_action(g2, k)
        compared += 1
    assert compared >= 5


# --- whole games ----------------------------------------------------------------------


def test_ai_against_itself_for_60_turns():
    g = wec.new_game()
    while g.turn_number <= 60 and not wec.outcome(g):
        g, _ = play_turn(g, g.turn_number)
    assert g.turn_number > 60 or wec.outcome(g)


def test_beats_a_random_player():
    wins = 0
    for seed in range(6):
        ai = "black" if seed % 2 == 0 else "white"
        rng = random.Random(seed)
        g = wec.new_game()
        while g.turn_number <= 80 and not wec.outcome(g):
            if g.to_move == ai:
                g, _ = play_turn(g, rng.randrange(1 << 30))
                continue
            for _ in range(30):  # the random player: any legal action, uniformly
                a = rng.choice(wec.legal_actions(g))
                g = wec.apply(g, a)
                if a["type"] == "end_turn" or wec.outcome(g):
                    break
        result = wec.outcome(g)
        if (result and result["winner"] == ai) or (not result and material(g, ai) > 0):
            wins += 1
    assert wins >= 5
