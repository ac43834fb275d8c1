"""Detection: who sees which enemy Piece, and what the censored record tells.

Manual: shared/seeds/001_e7d07cd680448a43.txt (Stealth l. 175-180, 620-650;
Stealth vs Submersion l. 660-672; what is seen when l. 752-758; design notes
l. 384-405, 490-505; Continue to See and censored history l. 336-347,
1700-1725, 1755-1760; dominance l. 1940-1952). Rulings: docs/rulings.md
("Seen when firing or taking", "Pick-up and Anti-Stealth lock-on",
"Stealth/Submersion dominance default"). Contract: docs/engine-api.md (View,
history). Every assertion is made through the facade: ``wec.view`` (enemy
Pieces appear only when seen), ``legal_actions``, ``move_targets``, error texts.
Squares are (row, col); Black moves first and its forward is +row.
"""

from __future__ import annotations

import json

import pytest

import games.rules.wec as wec

from .positions import END, A, P, apply, drop, exchange, finish, fire, make, move, pickup


def game(pieces, articles=(), *, to_move="black", kings=True, **options):
    """A scenario with stealth and submersion invisibility as in the standard
    game (on), the given options on top. Range detection of Stealth (on in the
    standard game, l. 761-763) is off unless a test turns it on, so that each
    test sees one detection rule at a time."""
    options.setdefault("stealth_detect_in_range", False)
    return make(pieces, articles, to_move=to_move, options=options, kings=kings, visible=False)


def enemies(g, color) -> list[tuple]:
    """The enemy Pieces ``color``'s view shows, kings left out."""
    return sorted(
        (p["type"], p["row"], p["col"], p["level"])
        for p in wec.view(g, color)["pieces"]
        if p["color"] != color and p["type"] != "king"
    )


def sees(g, color, kind, row, col, level="ground") -> bool:
    return (kind, row, col, level) in enemies(g, color)


def markers(g, color) -> list[tuple]:
    return [(m["row"], m["col"], m["level"], m["type"]) for m in wec.view(g, color)["markers"]]


def error(g, action) -> str:
    with pytest.raises(wec.IllegalAction) as info:
        wec.apply(g, action)
    return str(info.value)


def legal(g) -> list[str]:
    return sorted(json.dumps(a, sort_keys=True) for a in wec.legal_actions(g))


# --- Stealth -------------------------------------------------------------------------------


def test_carried_stealth_hides_an_enemy_piece_from_the_other_side_only():
    g = game([P("dozer", "black", 4, 4), P("dozer", "white", 7, 4, articles=["stealth"]), P("dozer", "white", 7, 6)])
    assert enemies(g, "black") == [("dozer", 7, 6, "ground")]
    # Its own side sees it, with its id.
    own = [p for p in wec.view(g, "white")["pieces"] if (p["row"], p["col"]) == (7, 4)]
    assert len(own) == 1 and "id" in own[0] and own[0]["articles"] == ["stealth"]
    # White's view of Black's unstealthed Dozer is unaffected.
    assert enemies(g, "white") == [("dozer", 4, 4, "ground")]


@pytest.mark.parametrize("kind", ["aaa", "stealth_pawn"])
def test_inherent_stealth_hides_aaa_and_stealth_pawn(kind):
    extra = {"moved": True} if kind.endswith("_pawn") else {}
    g = game([P("dozer", "black", 4, 4), P(kind, "white", 7, 5, **extra)])
    assert enemies(g, "black") == []
    assert sees(g, "white", "dozer", 4, 4)


def test_stealth_invisibility_off_shows_every_stealthed_piece():
    pieces = [P("dozer", "black", 4, 4), P("dozer", "white", 7, 4, articles=["stealth"]), P("aaa", "white", 7, 6),
              P("stealth_pawn", "white", 8, 8, moved=True)]
    assert enemies(game(pieces), "black") == []
    g = game(pieces, stealth_invisibility=False)
    assert enemies(g, "black") == sorted(
        [("dozer", 7, 4, "ground"), ("aaa", 7, 6, "ground"), ("stealth_pawn", 8, 8, "ground")]
    )


def test_a_king_carrying_stealth_is_seen_unless_stealthed_kings():
    pieces = [P("king", "black", 1, 1), P("king", "white", 10, 1, articles=["stealth"])]
    g = game(pieces, kings=False)
    kings = [p for p in wec.view(g, "black")["pieces"] if p["color"] == "white"]
    assert [(p["type"], p["row"], p["col"], p["articles"]) for p in kings] == [("king", 10, 1, ["stealth"])]
    g = game(pieces, kings=False, stealthed_kings=True)
    assert [p for p in wec.view(g, "black")["pieces"] if p["color"] == "white"] == []
    # With stealthed Kings but stealth invisibility off, it is seen again.
    g = game(pieces, kings=False, stealthed_kings=True, stealth_invisibility=False)
    assert [p["type"] for p in wec.view(g, "black")["pieces"] if p["color"] == "white"] == ["king"]


# --- Anti-Stealth lock-on ------------------------------------------------------------------


def test_standard_game_stealth_pawns_see_each_other_but_not_the_aaas():
    g = wec.new_game()
    black = enemies(g, "black")
    assert ("stealth_pawn", 9, 6, "ground") in black
    assert not any(t == "aaa" for t, *_ in black)  # White's AAAs (9,3), (9,8) are stealthed
    white = enemies(g, "white")
    assert ("stealth_pawn", 2, 5, "ground") in white
    assert not any(t == "aaa" for t, *_ in white)
    # Without lock-on nothing sees the enemy Stealth Pawn.
    g = wec.new_game({"stealth_lock_on": False})
    assert not any(t == "stealth_pawn" for t, *_ in enemies(g, "black"))
    assert not any(t == "stealth_pawn" for t, *_ in enemies(g, "white"))


def _lock_scene(**options):
    # Black Dozer (4,4) stands on an Anti-Stealth; White's stealthed Dozer
    # (6,4) is 2 away, its AAA (8,8) 4 away.
    return game(
        [P("dozer", "black", 4, 4), P("dozer", "white", 6, 4, articles=["stealth"]), P("aaa", "white", 8, 8)],
        [A("anti_stealth", 4, 4)],
        **options,
    )


def test_picking_up_anti_stealth_locks_on_to_the_nearest_unseen_stealthed_enemy():
    g = _lock_scene()
    assert enemies(g, "black") == []
    g = apply(g, pickup((4, 4), "anti_stealth"))
    assert enemies(g, "black") == [("dozer", 6, 4, "ground")]
    g = finish(g)
    # The locked-on Dozer moves away: it stays in sight.
    g = apply(g, move((6, 4), (7, 5)), END)
    assert enemies(g, "black") == [("dozer", 7, 5, "ground")]
    g = finish(g)
    g = apply(g, move((7, 5), (8, 6)), END)
    assert enemies(g, "black") == [("dozer", 8, 6, "ground")]


def test_lock_on_skips_stealthed_enemies_already_seen():
    # Black's Stealth Pawn (3,4) already watches the near White Dozer (6,4);
    # the new Anti-Stealth locks on to the next nearest unseen one, the AAA.
    g = game(
        [P("dozer", "black", 4, 4), P("stealth_pawn", "black", 3, 4, moved=True),
         P("dozer", "white", 6, 4, articles=["stealth"]), P("aaa", "white", 8, 8)],
        [A("anti_stealth", 4, 4)],
    )
    doc = wec.dump_scenario(g)
    doc["locks"] = [{"watcher": [3, 4, "ground"], "watched": [6, 4, "ground"]}]
    g = wec.load_scenario(doc)
    assert enemies(g, "black") == [("dozer", 6, 4, "ground")]
    g = apply(g, pickup((4, 4), "anti_stealth"))
    assert enemies(g, "black") == sorted([("dozer", 6, 4, "ground"), ("aaa", 8, 8, "ground")])


def test_lock_on_tie_goes_to_the_lowest_row_then_column():
    # docs/rulings.md: nearest by king steps, ties by lowest row, column.
    g = game(
        [P("dozer", "black", 4, 4), P("dozer", "white", 6, 5, articles=["stealth"]),
         P("dozer", "white", 2, 4, articles=["stealth"]), P("dozer", "white", 6, 3, articles=["stealth"])],
        [A("anti_stealth", 4, 4)],
    )
    g = apply(g, pickup((4, 4), "anti_stealth"))
    assert enemies(g, "black") == [("dozer", 2, 4, "ground")]


def test_lock_lasts_while_the_watcher_holds_the_anti_stealth():
    g = _lock_scene()
    g = finish(apply(g, pickup((4, 4), "anti_stealth")))
    g = finish(g)
    assert enemies(g, "black") == [("dozer", 6, 4, "ground")]
    g = apply(g, drop((4, 4), "anti_stealth"))
    assert enemies(g, "black") == []
    # Picking it up again locks on afresh.
    g = finish(g)
    g = finish(g)
    g = apply(g, pickup((4, 4), "anti_stealth"))
    assert enemies(g, "black") == [("dozer", 6, 4, "ground")]


def test_lock_is_lost_when_the_anti_stealth_is_exchanged_away_and_an_exchange_does_not_lock():
    # docs/rulings.md: only a Pick-up locks on, and the lock lasts while the
    # watcher holds an Anti-Stealth.
    g = game(
        [P("dozer", "black", 4, 4), P("dozer", "black", 4, 5), P("dozer", "white", 6, 4, articles=["stealth"])],
        [A("anti_stealth", 4, 4)],
    )
    g = finish(apply(g, pickup((4, 4), "anti_stealth")))
    g = finish(g)
    assert enemies(g, "black") == [("dozer", 6, 4, "ground")]
    g = apply(g, exchange((4, 4), "anti_stealth", (4, 5)))
    assert enemies(g, "black") == []


def test_no_lock_on_when_the_option_is_off():
    g = apply(_lock_scene(stealth_lock_on=False), pickup((4, 4), "anti_stealth"))
    assert enemies(g, "black") == []


# --- Detection in range --------------------------------------------------------------------


def _radar_scene(**options):
    # Black's Anti-Stealth holder at (4,4); White stealthed Dozers at 1, 2, 3
    # and 4 king steps.
    return game(
        [P("dozer", "black", 4, 4, articles=["anti_stealth"]),
         P("dozer", "white", 5, 3, articles=["stealth"]), P("dozer", "white", 6, 6, articles=["stealth"]),
         P("aaa", "white", 7, 2), P("aaa", "white", 8, 8)],
        **options,
    )


def test_stealthed_enemy_within_detection_range_is_seen():
    g = _radar_scene(stealth_detect_in_range=True)
    assert enemies(g, "black") == sorted([("dozer", 5, 3, "ground"), ("dozer", 6, 6, "ground"), ("aaa", 7, 2, "ground")])


def test_detection_range_option_one_against_three():
    g = _radar_scene(stealth_detect_in_range=True, stealth_detection_range=1)
    assert enemies(g, "black") == [("dozer", 5, 3, "ground")]
    g = _radar_scene(stealth_detect_in_range=True, stealth_detection_range=3)
    assert ("dozer", 6, 6, "ground") in enemies(g, "black")


def test_detection_in_range_is_on_in_the_standard_game():
    # "Stealth and submersion detector ranges are 3" (l. 761-763).
    assert enemies(_radar_scene(stealth_detect_in_range=wec.DEFAULT_OPTIONS["stealth_detect_in_range"]),
                   "black") == enemies(_radar_scene(stealth_detect_in_range=True), "black") != []
    assert enemies(_radar_scene(stealth_detect_in_range=False), "black") == []


def test_stealth_pawn_inherent_anti_stealth_detects_in_range():
    g = game([P("stealth_pawn", "black", 4, 4, moved=True), P("aaa", "white", 6, 5), P("aaa", "white", 9, 9)],
             stealth_detect_in_range=True)
    assert enemies(g, "black") == [("aaa", 6, 5, "ground")]


# --- Submersion ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "detector, options, seen",
    [
        (None, {}, False),
        (P("destroyer", "black", 3, 6), {}, True),  # 3 away: inherent Torpedo Launcher
        (P("sub", "black", 3, 6), {}, True),  # a Sub at ground: inherent Torpedo Launcher
        (P("sub", "black", 4, 7, "sub"), {}, True),
        (P("dozer", "black", 3, 6, articles=["torpedo_launcher"]), {}, True),  # carried Article
        (P("destroyer", "black", 2, 6), {}, False),  # 4 away
        (P("destroyer", "black", 2, 6), {"submersion_detection_range": 4}, True),
        (P("destroyer", "black", 4, 6), {"submersion_detection_range": 1}, False),
        (P("dozer", "black", 4, 6, articles=["anti_stealth"]), {"stealth_detect_in_range": True}, False),
        (None, {"submersion_invisibility": False}, True),
    ],
)
def test_submerged_enemy_seen_only_within_reach_of_a_torpedo_launcher(detector, options, seen):
    pieces = [P("sub", "white", 6, 6, "sub")] + ([detector] if detector else [])
    g = game(pieces, **options)
    assert sees(g, "black", "sub", 6, 6, "sub") is seen


def test_sub_at_ground_level_is_seen_without_detectors():
    g = game([P("sub", "white", 6, 6)])
    assert enemies(g, "black") == [("sub", 6, 6, "ground")]


def test_anti_torpedo_does_not_counter_torpedo_launcher_detection():
    # Glossary: Anti-Torpedo "does NOT counter the detection ability of Torpedo Launchers".
    g = game([P("destroyer", "black", 3, 6), P("sub", "white", 6, 6, "sub", articles=["anti_torpedo"])])
    assert enemies(g, "black") == [("sub", 6, 6, "sub")]


# --- Dominance -----------------------------------------------------------------------------


def _stealth_sub(**options):
    return game([P("destroyer", "black", 3, 6), P("sub", "white", 6, 6, "sub", articles=["stealth"])], **options)


def test_dominance_submersion_shows_a_stealthed_piece_a_torpedo_launcher_detects():
    assert enemies(_stealth_sub(), "black") == [("sub", 6, 6, "sub")]  # the default
    assert enemies(_stealth_sub(dominance="submersion"), "black") == [("sub", 6, 6, "sub")]


def test_dominance_stealth_keeps_it_hidden_unless_stealth_detected_too():
    assert enemies(_stealth_sub(dominance="stealth"), "black") == []
    g = game([P("destroyer", "black", 3, 6), P("dozer", "black", 4, 6, articles=["anti_stealth"]),
              P("sub", "white", 6, 6, "sub", articles=["stealth"])],
             dominance="stealth", stealth_detect_in_range=True)
    assert enemies(g, "black") == [("sub", 6, 6, "sub")]


def test_torpedo_launcher_does_not_see_stealth_above_the_sub_level():
    g = game([P("destroyer", "black", 3, 6), P("sub", "white", 6, 6, articles=["stealth"])])
    assert enemies(g, "black") == []


# --- Seen when firing or taking ------------------------------------------------------------


def _firer(**options):
    # White's stealthed Flamer Pawn (7,5), hidden from Black; it fires north,
    # away from everything.
    return game([P("dozer", "black", 4, 4), P("flamer_pawn", "white", 7, 5, articles=["stealth"], moved=True)],
                to_move="white", **options)


def test_a_hidden_piece_that_fires_is_seen_where_it_stands_until_it_moves():
    g = _firer()
    assert enemies(g, "black") == []
    g = apply(g, fire((7, 5), "flamer", (1, 0)))
    assert enemies(g, "black") == [("flamer_pawn", 7, 5, "ground")]
    g = finish(g)
    assert enemies(g, "black") == [("flamer_pawn", 7, 5, "ground")]
    g = finish(g)
    assert enemies(g, "black") == [("flamer_pawn", 7, 5, "ground")]
    g = apply(g, move((7, 5), (6, 4)), END)
    assert enemies(g, "black") == []


def test_no_sighting_on_firing_when_seen_when_firing_is_off():
    g = apply(_firer(seen_when_firing=False), fire((7, 5), "flamer", (1, 0)))
    assert enemies(g, "black") == []
    assert enemies(finish(g), "black") == []


def test_a_submerged_piece_that_fires_is_seen():
    # Manual l. 757: "Submerged Pieces are seen when they Fire".
    g = game([P("dozer", "black", 4, 4), P("sub", "white", 7, 5, "sub")], to_move="white")
    assert enemies(g, "black") == []
    g = apply(g, fire((7, 5, "sub"), "torpedo_launcher", (1, 0)))
    assert enemies(g, "black") == [("sub", 7, 5, "sub")]


def test_a_hidden_piece_that_takes_by_moving_is_seen():
    # White's Stealth Pawn (6,5) takes Black's Dozer on its attack Square (5,5).
    g = game([P("dozer", "black", 5, 5), P("stealth_pawn", "white", 6, 5, moved=True)], to_move="white")
    assert enemies(g, "black") == []
    g = apply(g, move((6, 5), (5, 5)))
    assert [p for p in wec.dump_scenario(g)["pieces"] if p["type"] == "dozer"] == []
    assert enemies(g, "black") == [("stealth_pawn", 5, 5, "ground")]
    g = finish(g)
    assert enemies(g, "black") == [("stealth_pawn", 5, 5, "ground")]
    g = finish(g)
    g = apply(g, move((5, 5), (4, 4)), END)
    assert enemies(g, "black") == []


def test_a_hidden_piece_on_a_transport_takes_nothing_and_stays_hidden():
    # White's stealthed Dozer sets off by Bike toward (5,5); its first Square
    # (6,5) holds Black's Dozer. Transport is non-combat (l. 510-513, 795-797):
    # it crashes where it stands, takes nothing, and is not given away (the
    # Fire does that only with seen_when_firing, which this test turns off).
    g = game([P("dozer", "black", 6, 5), P("dozer", "white", 7, 5, articles=["xxx", "stealth", "bike"])],
             to_move="white", seen_when_firing=False)
    assert enemies(g, "black") == []
    g = apply(g, fire((7, 5), "bike", to=[5, 5, "ground"]))
    assert sorted((p["color"], p["row"]) for p in wec.dump_scenario(g)["pieces"] if p["type"] == "dozer") == [
        ("black", 6), ("white", 7)]
    assert enemies(g, "black") == []


# --- Moving into unseen enemies; errors that reveal nothing ------------------------------


def test_a_move_into_an_unseen_enemy_is_legal_stops_there_and_takes_it():
    # Black's right-handed Tank (3,5) runs (4,5) (5,5) (6,5) (7,5) (8,6) (9,7) (10,8);
    # White's stealthed Dozer waits unseen at (6,5).
    g = game([P("tank", "black", 3, 5), P("dozer", "white", 6, 5, articles=["stealth"])])
    assert (10, 8, "ground") in wec.move_targets(g, 3, 5, "ground")
    assert any(a["type"] == "move" and a["to"] == [10, 8, "ground"] for a in wec.legal_actions(g))
    g = apply(g, move((3, 5), (10, 8)))
    doc = wec.dump_scenario(g)
    assert [(p["type"], p["row"], p["col"]) for p in doc["pieces"] if p["type"] != "king"] == [("tank", 6, 5)]
    assert {"type": "stealth", "row": 6, "col": 5} in doc["articles"]  # its Article fell where it was taken


def test_a_non_combat_piece_moving_into_an_unseen_enemy_stays_and_takes_nothing():
    # docs/rulings.md, "Non-combat Moves into unseen enemies" (l. 795-797, 1015-1017).
    g = game([P("dozer", "black", 4, 5), P("stealth_pawn", "white", 5, 5, moved=True)])
    assert (5, 5, "ground") in wec.move_targets(g, 4, 5, "ground")
    g = apply(g, move((4, 5), (5, 5)))
    assert sorted((p["type"], p["color"], p["row"]) for p in wec.dump_scenario(g)["pieces"]
                  if p["type"] != "king") == [("dozer", "black", 4), ("stealth_pawn", "white", 5)]


def _with_and_without(pieces, hidden, articles=(), **options):
    """The scene with the hidden enemy (listed last, so own ids match) and without it."""
    return game(pieces + [hidden], articles, **options), game(pieces, articles, **options)


@pytest.mark.parametrize(
    "hidden, action, words, options",
    [
        # A homing SAM at a stealthed Jet in the air.
        (P("jet", "white", 7, 5, "air", articles=["stealth"]),
         fire((5, 5), "sam_launcher", target=[7, 5, "air"]), ["jet", "stealth"], {}),
        # A homing Torpedo at a Sub below, out of the (shortened) detection range.
        (P("sub", "white", 6, 4, "sub"), fire((5, 5), "torpedo_launcher", target=[6, 4, "sub"]), ["sub (", "a sub"],
         {"submersion_detection_range": 0}),
        # A Pick-up "from" the unseen enemy's place.
        (P("dozer", "white", 6, 5, articles=["stealth"]), pickup((6, 5), "bike"), ["dozer", "stealth"], {}),
        # An Exchange to the unseen enemy's place.
        (P("dozer", "white", 6, 5, articles=["stealth"]), exchange((5, 5), "torpedo_launcher", (6, 5)),
         ["dozer", "stealth"], {}),
        # A Move the unseen enemy has nothing to do with.
        (P("dozer", "white", 6, 5, articles=["stealth"]), move((5, 5), (7, 7)), ["dozer", "stealth"], {}),
    ],
)
def test_error_messages_never_mention_hidden_pieces(hidden, action, words, options):
    # Black's AAA (5,5) carries a Torpedo Launcher: SAM and Torpedo both.
    own = [P("aaa", "black", 5, 5, articles=["torpedo_launcher"])]
    g, control = _with_and_without(own, hidden, **options)
    assert enemies(g, "black") == []
    msg = error(g, action)
    assert msg == error(control, action)
    for w in words:
        assert w not in msg.lower()
    assert legal(g) == legal(control)


# --- Continue to see -----------------------------------------------------------------------


def test_marker_where_a_locked_on_piece_went_out_of_sight_when_the_anti_stealth_is_dropped():
    g = _lock_scene()
    g = finish(apply(g, pickup((4, 4), "anti_stealth")))
    g = apply(g, move((6, 4), (6, 5)), END)
    assert enemies(g, "black") == [("dozer", 6, 5, "ground")]
    assert markers(g, "black") == []
    g = apply(g, drop((4, 4), "anti_stealth"))
    assert enemies(g, "black") == []
    assert markers(g, "black") == [(6, 5, "ground", "dozer")]
    assert markers(g, "white") == []
    g = finish(g)
    assert markers(g, "black") == [(6, 5, "ground", "dozer")]  # it stays, though the Dozer may move on


def _radar_markers():
    # Black detectors (4,4) and (4,9), range 3; White stealthed Dozers (7,4)
    # (seen) and (8,9) (4 away: unseen).
    return game(
        [P("dozer", "black", 4, 4, articles=["anti_stealth"]), P("dozer", "black", 4, 9, articles=["anti_stealth"]),
         P("dozer", "white", 7, 4, articles=["stealth"]), P("dozer", "white", 8, 9, articles=["stealth"])],
        to_move="white", stealth_detect_in_range=True,
    )


def test_marker_when_a_piece_leaves_detection_range_and_it_goes_when_seen_again():
    g = _radar_markers()
    assert enemies(g, "black") == [("dozer", 7, 4, "ground")]
    g = apply(g, move((7, 4), (8, 4)), END)
    assert enemies(g, "black") == []
    assert markers(g, "black") == [(7, 4, "ground", "dozer")]
    g = finish(g)
    g = apply(g, move((8, 4), (7, 3)), END)
    assert enemies(g, "black") == [("dozer", 7, 3, "ground")]
    assert markers(g, "black") == []


def test_marker_goes_when_another_enemy_piece_of_that_type_comes_into_sight():
    g = _radar_markers()
    g = apply(g, move((7, 4), (8, 4)), END)
    assert markers(g, "black") == [(7, 4, "ground", "dozer")]
    # Black's second detector steps up and sees the other White Dozer.
    g = apply(g, move((4, 9), (5, 9)))
    assert enemies(g, "black") == [("dozer", 8, 9, "ground")]
    assert markers(g, "black") == []


def test_marker_is_not_removed_by_a_piece_of_another_type():
    g = game(
        [P("dozer", "black", 4, 4, articles=["anti_stealth"]), P("dozer", "black", 4, 9, articles=["anti_stealth"]),
         P("dozer", "white", 7, 4, articles=["stealth"]), P("aaa", "white", 8, 9)],
        to_move="white", stealth_detect_in_range=True,
    )
    g = apply(g, move((7, 4), (8, 4)), END)
    g = apply(g, move((4, 9), (5, 9)))
    assert enemies(g, "black") == [("aaa", 8, 9, "ground")]
    assert markers(g, "black") == [(7, 4, "ground", "dozer")]


# --- Projectiles ---------------------------------------------------------------------------


def _torpedo(detector=None):
    pieces = [P("destroyer", "white", 7, 5)] + ([detector] if detector else [])
    g = game(pieces, to_move="white")
    g = apply(g, fire((7, 5), "torpedo_launcher", (-1, 0)))
    return g


def test_enemy_torpedo_is_hidden_without_a_torpedo_launcher_in_range():
    g = _torpedo()
    assert wec.view(g, "black")["projectiles"] == []  # launched this Turn: never shown
    g = finish(g)
    own = wec.view(g, "white")["projectiles"]
    assert [(p["kind"], p["row"], p["col"], p["level"]) for p in own] == [("torpedo", 6, 5, "sub")]
    assert wec.view(g, "black")["projectiles"] == []


def test_enemy_torpedo_is_shown_within_reach_of_an_own_torpedo_launcher():
    g = finish(_torpedo(P("dozer", "black", 3, 4, articles=["torpedo_launcher"])))
    shown = wec.view(g, "black")["projectiles"]
    assert shown == [{"kind": "torpedo", "color": "white", "row": 6, "col": 5, "level": "sub", "direction": [-1, 0]}]


def test_enemy_rocket_is_shown_once_it_has_left_its_firer():
    g = game([P("rocket_pawn", "white", 7, 5, moved=True)], to_move="white")
    g = apply(g, fire((7, 5), "rocket_launcher", (-1, 0)))
    assert wec.view(g, "black")["projectiles"] == []
    assert [p["kind"] for p in wec.view(g, "white")["projectiles"]] == ["rocket"]
    g = finish(g)
    assert wec.view(g, "black")["projectiles"] == [
        {"kind": "rocket", "color": "white", "row": 6, "col": 5, "level": "ground", "direction": [-1, 0]}
    ]


def test_own_projectile_shows_strength_homing_and_target():
    g = game([P("aaa", "black", 5, 5), P("jet", "white", 7, 5, "air")])
    g = apply(g, fire((5, 5), "sam_launcher", target=[7, 5, "air"]))
    own = wec.view(g, "black")["projectiles"]
    assert own == [{"kind": "sam", "color": "black", "row": 5, "col": 5, "level": "air", "direction": [1, 0],
                    "homing": True, "target": [7, 5, "air"], "strength": 1}]
    g = finish(g)
    seen_by_white = wec.view(g, "white")["projectiles"]
    assert len(seen_by_white) == 1
    assert not {"strength", "homing", "target"} & set(seen_by_white[0])


# --- Censored history ----------------------------------------------------------------------


def test_competitive_history_hides_an_unseen_move_and_unseen_events():
    # White: its stealthed Dozer (7,7) moves unseen and picks up a Bike; its
    # Destroyer (7,5) fires a Torpedo that flies unseen below.
    g = game([P("destroyer", "white", 7, 5), P("dozer", "white", 7, 7, articles=["xxx", "stealth"])],
             [A("bike", 7, 8)], to_move="white", competitive=True)
    g = apply(g, move((7, 7), (7, 8)), pickup((7, 8), "bike"), fire((7, 5), "torpedo_launcher", (-1, 0)), END)
    full = wec.history(g)
    assert wec.history(g, "white") == full
    text = full[0]
    assert text.startswith("MV:DO(7,7)") and ",PU:" in text and "T->(6,5)" in text
    censored = wec.history(g, "black")
    assert censored == ["MV:?,FI1:TL/DS(7,5)->(6,5)"]
    assert wec.view(g, "black")["history"] == censored
    plain = wec.plain_history(g, "black")
    assert wec.plain_history(g, "white") == wec.plain_history(g)
    assert plain != wec.plain_history(g)
    assert "out of sight" in plain[0]
    for secret in ("Dozer", "(7,7)", "(7,8)", "Bike", "(6,5)"):
        assert secret not in plain[0].replace("Destroyer (7,5)", "")


def test_censoring_ends_when_the_game_ends():
    g = game([P("king", "black", 1, 1), P("king", "white", 2, 2), P("dozer", "white", 7, 7, articles=["stealth"])],
             to_move="white", kings=False, competitive=True)
    g = apply(g, move((7, 7), (7, 8)), END)
    assert wec.history(g, "black") == ["MV:?"]
    g = apply(g, move((1, 1), (2, 2)))
    # The result is fixed when the Turn ends (docs/rulings.md, "The end of the game").
    assert wec.outcome(g) is None
    g = apply(g, END)
    assert wec.outcome(g) == {"winner": "black", "reason": "primary_taken"}
    for color in ("black", "white"):
        assert wec.history(g, color) == wec.history(g)
        assert wec.plain_history(g, color) == wec.plain_history(g)
    assert wec.history(g)[0] == "MV:DO(7,7)1SH->(7,8)"
    assert len(wec.history(g)) == 2  # the Turn the game ended in too


def test_non_competitive_history_is_never_censored():
    g = game([P("dozer", "white", 7, 7, articles=["stealth"])], to_move="white")
    g = apply(g, move((7, 7), (7, 8)), END)
    assert enemies(g, "black") == []
    assert wec.history(g, "black") == wec.history(g) == ["MV:DO(7,7)1SH->(7,8)"]
    assert wec.plain_history(g, "black") == wec.plain_history(g)


def test_censored_history_does_not_tell_where_a_piece_went_out_of_sight_to():
    # White's stealthed Dozer is seen at (7,4) (3 from Black's detector) and
    # moves to (8,4), out of range. Black keeps a marker at (7,4); the
    # censored record must not hand it the hidden Dozer's new Square (manual
    # l. 336-347: "the movement of stealthed enemy Pieces does not appear in
    # the game history"; engine-api: a view leaks nothing hidden).
    def played(to):
        g = game([P("dozer", "black", 4, 4, articles=["anti_stealth"]),
                  P("dozer", "white", 7, 4, articles=["stealth"])],
                 to_move="white", stealth_detect_in_range=True, competitive=True)
        return apply(g, move((7, 4), to), END)

    g = played((8, 4))
    assert enemies(g, "black") == []
    assert markers(g, "black") == [(7, 4, "ground", "dozer")]
    assert "(8,4)" not in wec.history(g, "black")[0]
    assert "(8,4)" not in wec.plain_history(g, "black")[0]
    # Going to (8,5) instead (also out of range) must look the same to Black.
    assert wec.view(g, "black") == wec.view(played((8, 5)), "black")


def test_own_history_does_not_tell_of_an_unseen_enemy_hit_by_an_own_fire():
    # Black's Tank fires its Flamer north through (5,5) and (6,5). In one game
    # White's stealthed Flamer Pawn stands unseen at (6,5) and resists; in the
    # other it stands unseen at (8,8). Black's views are the same before, and
    # Black does the same: nothing it can see differs afterwards, so its view
    # (its history included) must not either (engine-api View: "Two games that
    # differ only in what a colour cannot see give that colour the same view";
    # manual l. 1716: "information about unseen pieces will be edited out").
    def played(row, col):
        g = game([P("tank", "black", 4, 5), P("flamer_pawn", "white", row, col, articles=["stealth"], moved=True)],
                 competitive=True)
        return g, finish(apply(g, fire((4, 5), "flamer", (1, 0))))

    before_a, a = played(6, 5)
    before_b, b = played(8, 8)
    assert wec.view(before_a, "black") == wec.view(before_b, "black")
    assert enemies(a, "black") == enemies(b, "black") == []
    assert "FP(6,5)" not in wec.history(a, "black")[0]
    assert wec.view(a, "black") == wec.view(b, "black")


# --- the cap of 8 "continue to see" markers (l. 1719-1721; docs/engine-api.md) -----------------


def test_at_most_eight_markers_are_kept():
    hidden = [P("stealth_pawn", "white", r, c) for r, c in ((6, 3), (6, 4), (6, 5), (6, 6), (6, 7),
                                                               (7, 3), (7, 4), (7, 6), (7, 7))]
    g = make([P("dozer", "black", 5, 5, articles=["anti_stealth"])] + hidden, visible=False,
             options={"stealth_lock_on": False})
    seen = [p for p in wec.view(g, "black")["pieces"] if p["type"] == "stealth_pawn"]
    assert len(seen) == 9
    g = apply(g, drop([5, 5], "anti_stealth"))
    assert [p for p in wec.view(g, "black")["pieces"] if p["type"] == "stealth_pawn"] == []
    assert len(wec.view(g, "black")["markers"]) == 8
