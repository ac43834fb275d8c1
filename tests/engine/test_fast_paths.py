"""The engine's fast paths give exactly what their plain rules give.

``games.rules.wec.fastpaths`` lists every fast path with the plain rule it
must equal, and ``FAST_PATHS`` turns them all off. Here:

* random games under random option sets (every option drawn from all its
  values), from the standard position or a crowded scenario, with rarer
  actions played as often as Moves, are played twice in lockstep, fast
  paths on and off, and at every step the ``legal_actions`` listing (order
  and key order included), both views, every history (full and per colour,
  notation and plain English), the outcome and the scenario document are
  compared; on the fast side the indexes ``Derived`` keeps are compared with
  the ones rebuilt from the Pieces;
* the comparison can fail: a fast path broken on purpose is caught;
* the Move cache (``CACHE_MOVES``) and the listing memo (``MEMO_LISTINGS``)
  are each turned off alone and compared the same way, and the memo is seen
  to hand out dicts again (so the comparison exercises it);
* the reused hidden sets and Moves of every state equal the ones worked out
  afresh; the dozings equal the plain rule on crowded boards;
* the Move cache's question codes cannot collide, every Move kind stays
  below ``EMPTY``, and ``same_moves`` agrees with ``moves_key``;
* every entry of ``PATHS`` names functions that exist, and each fast path's
  docstring names the plain rule it equals.

Manual: the rules the plain paths implement are cited where they are
written (sight l. 108-112, 146-153, 488-495; the Move l. 57-65, 775-1330;
the Actions of a Turn l. 57-75; the Game History l. 1755-1800).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.wec import (
    actions,
    apply,
    dump_scenario,
    fastpaths,
    history,
    legal_actions,
    moves,
    new_game,
    outcome,
    plain_history,
    view,
    visibility,
)
from games.rules.wec.moves import Knowledge, all_candidates, piece_candidates
from games.rules.wec.state import Derived, Piece, moves_key, same_moves
from games.rules.wec.visibility import hidden_by_rule, hidden_from
from tools.engine.randomgames import choose, random_options, start_position

COLORS = (None, "black", "white")


def observe(game: Any) -> dict[str, Any]:
    """Everything the facade tells about ``game``."""
    return {
        "actions": legal_actions(game),
        "views": [view(game, "black"), view(game, "white")],
        "histories": [history(game, c) for c in COLORS],
        "plain histories": [plain_history(game, c) for c in COLORS],
        "outcome": outcome(game),
        "document": dump_scenario(game),
    }


def assert_derived_in_step(game: Any) -> None:
    """The indexes the board primitives keep equal the ones rebuilt from the Pieces."""
    kept, fresh = game.derived, Derived.rebuilt(game.pieces)
    assert kept.special == fresh.special
    assert kept.aloft == fresh.aloft
    assert sorted(kept.prims) == sorted(fresh.prims)
    assert kept.sides == fresh.sides


def first_difference(seed: int, opts: dict[str, Any], crowded: bool, steps: int) -> str | None:
    """Play one seeded random game with the fast paths on and off in
    lockstep; what first differs (None: nothing did)."""
    games = []
    for fast in (True, False):
        with fastpaths.switched(fast):
            games.append(start_position(random.Random(seed), opts, crowded)[0])
    rng = random.Random(seed ^ 0xFA57)
    for step in range(steps):
        seen = []
        for fast, game in zip((True, False), games, strict=True):
            with fastpaths.switched(fast):
                seen.append(observe(game))
        fast_seen, plain_seen = seen
        for key in fast_seen:
            if fast_seen[key] != plain_seen[key]:
                return f"step {step}: {key} differ"
        assert_derived_in_step(games[0])
        acts = fast_seen["actions"]
        if not acts:
            return None
        n = acts.index(choose(rng, acts))
        for i, fast in enumerate((True, False)):
            with fastpaths.switched(fast):
                games[i] = apply(games[i], seen[i]["actions"][n])
    return None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), crowded=st.booleans())
def test_fast_paths_change_nothing(seed: int, crowded: bool) -> None:
    opts = random_options(random.Random(seed ^ 0x0971))
    assert first_difference(seed, opts, crowded, 100) is None


def _drop_one_hidden(real: Callable[..., Any]) -> Callable[..., Any]:
    def broken(game: Any, color: Any) -> Any:
        found = real(game, color)
        # Forget a hidden Piece of black's, once there are two.
        black = found[0] if color is None else found[0] if color == "black" else None
        if black is not None and len(black) > 1:
            return (black - {min(black)}, *found[1:])
        return found
    return broken


def _skip_answers(real: Callable[..., Any]) -> Callable[..., Any]:
    # Reuse a Piece's Moves whenever a touched Square's questions are asked again.
    return lambda kn, p, e, touched: True


def _forget_swaps(real: Callable[..., Any]) -> Callable[..., Any]:
    def broken(game: Any, p: Any, own: Any, where: Any, out: list[dict[str, Any]], here: Any = None) -> None:
        start = len(out)
        real(game, p, own, where, out, here)
        out[start:] = [a for a in out[start:] if "swap" not in a]
    return broken


def _stale_aims(real: Callable[..., Any]) -> Callable[..., Any]:
    def broken(game: Any, p: Any, weapon: Any, where: Any, hidden: Any, out: Any, dirs: Any, memo: Any) -> None:
        # The memo's entry handed out whatever place it was built for.
        e = memo.get((p.id, weapon))
        if e is not None:
            out.extend(e.actions)
            return
        real(game, p, weapon, where, hidden, out, dirs, memo)
    return broken


@pytest.mark.parametrize(("module", "name", "breaker"), [
    (visibility, "_hidden_sets", _drop_one_hidden),
    (moves, "_same_answers", _skip_answers),
    (actions, "article_actions", _forget_swaps),
    (actions, "memo_aims", _stale_aims),
], ids=["hidden sets", "Move cache", "inlined article rules", "listing memo"])
def test_a_broken_fast_path_is_caught(monkeypatch: pytest.MonkeyPatch, module: Any, name: str,
                                      breaker: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    monkeypatch.setattr(module, name, breaker(getattr(module, name)))
    found = [first_difference(seed, random_options(random.Random(seed)), seed % 3 != 0, 60) for seed in range(40)]
    assert any(found), f"breaking {name} changed nothing the comparison sees"


# --- the Move cache and the listing memo alone ---------------------------------------------


def _trace(seed: int, opts: dict[str, Any], crowded: bool, steps: int) -> list[Any]:
    """Every listing, both views after every action, then the document and
    the histories of one seeded random game (under the switches as set)."""
    rng = random.Random(seed)
    game, _, _ = start_position(rng, opts, crowded)
    out: list[Any] = []
    for _ in range(steps):
        acts = legal_actions(game)
        out.append(acts)
        if not acts:
            break
        game = apply(game, choose(rng, acts))
        out.append([view(game, "black"), view(game, "white")])
    out.append([dump_scenario(game), history(game), history(game, "black"), history(game, "white")])
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), crowded=st.booleans())
def test_move_cache_changes_nothing(seed: int, crowded: bool) -> None:
    opts = random_options(random.Random(seed ^ 0x5EED))
    with fastpaths.switched(cache_moves=True):
        cached = _trace(seed, opts, crowded, 80)
    with fastpaths.switched(cache_moves=False):
        plain = _trace(seed, opts, crowded, 80)
    for n, (a, b) in enumerate(zip(cached, plain, strict=False)):
        assert a == b, f"step {n // 2} differs"
    assert len(cached) == len(plain)


def test_listing_memo_changes_nothing() -> None:
    # Listings hand out again the action dicts an earlier listing of the same
    # side built (listed actions are read only). The trace with the memo on
    # holds every dict it listed, so a dict changed after it was listed (by
    # the engine, for a later listing or an apply) would differ from the
    # trace built without the memo, whose dicts are never shared.
    again = 0
    for seed in range(12):
        opts = random_options(random.Random(seed ^ 0x5EED))
        crowded = seed % 3 != 0
        with fastpaths.switched(memo_listings=True):
            with_memo = _trace(seed, opts, crowded, 90)
        with fastpaths.switched(memo_listings=False):
            assert with_memo == _trace(seed, opts, crowded, 90), f"seed {seed}: the memo changes the game"
        # Every second entry is a listing (the trace keeps them all alive:
        # ids are unique among them).
        ids = [
            id(a) for acts in with_memo[0::2] if isinstance(acts, list) for a in acts if isinstance(a, dict)
        ]
        again += len(ids) - len(set(ids))
    assert again > 1000, "the memo handed out few dicts again: the test hardly exercises it"


def test_memo_is_per_colour_and_carried_by_copies() -> None:
    game = new_game()
    acts = legal_actions(game)
    memo = game.derived.listings
    assert memo is not None and set(memo) == {"black", "white"}
    assert memo["white"] == {}
    after = apply(game, next(a for a in acts if a["type"] == "move"))
    assert after.derived.listings is memo
    # Each new game has its own memo (what one game lists reaches no other).
    other = new_game()
    assert other.derived.listings is not None and other.derived.listings["black"] is not memo["black"]


# --- reused answers against fresh ones ---------------------------------------------------------


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), crowded=st.booleans())
def test_reused_hidden_sets_and_moves_are_the_fresh_ones(seed: int, crowded: bool) -> None:
    # A side's hidden set after an action is often the one before
    # (visibility.same_sight), and a Piece's Moves are kept once the
    # questions it asked of the touched Squares answer as before
    # (moves._same_answers): every state's against the plain rule.
    rng = random.Random(seed)
    game, _, _ = start_position(rng, random_options(random.Random(seed ^ 0xA11)), crowded)
    for step in range(70):
        acts = legal_actions(game)
        for color in ("black", "white"):
            # The set a state keeps (often reused from the state before)...
            kept = hidden_from(game, color)
            # ...is the one worked out from the board.
            assert kept == hidden_by_rule(game, color), f"step {step}: {color}'s hidden set"
        color = game.to_move
        hidden = hidden_from(game, color)
        cached = all_candidates(game, color, hidden)
        kn = Knowledge(game, color, hidden)
        fresh = {p.id: piece_candidates(game, p, kn) for p in game.pieces.values() if p.color == color}
        for pid, cands in cached.items():
            assert cands == fresh[pid], f"step {step}: Moves of piece {pid}"
        if not acts:
            break
        game = apply(game, choose(rng, acts))


def test_dozing_matches_the_plain_rule_on_crowded_boards() -> None:
    # Crowded scenarios put Pieces side by side, so Dozers have many groups to
    # push and many directions blocked by other groups (the bit-mask path).
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        game, _, _ = start_position(rng, random_options(rng), crowded=True)
        for _ in range(30):
            for p in list(game.pieces.values()):
                if p.type == "dozer" and p.level == 0:
                    for hidden in (hidden_from(game, p.color), frozenset()):
                        kn = Knowledge(game, p.color, hidden)
                        found = moves._dozings(game, p, kn)
                        assert found == moves._dozings_by_rule(game, p, kn)
                        checked += len(found) > 1
            acts = legal_actions(game)
            if not acts:
                break
            game = apply(game, choose(rng, acts))
    assert checked > 200, checked  # positions with more than one dozing


# --- question codes, moves_key ---------------------------------------------------------------


def test_every_move_kind_stays_below_the_empty_question() -> None:
    assert sorted(moves.MOVE_KINDS) == list(range(len(moves.MOVE_KINDS)))
    assert max(moves.MOVE_KINDS) < moves.EMPTY
    # The kind field holds every kind and EMPTY.
    assert moves.EMPTY <= moves.KIND_MASK
    assert moves.KIND_MASK << moves.KIND_SHIFT < 1 << moves.SLOT_SHIFT
    assert moves.ANSWER | moves.CARRY < 1 << moves.KIND_SHIFT


def test_question_codes_cannot_collide() -> None:
    slots = range(10 * 10 * 3)
    seen: dict[int, tuple[Any, ...]] = {}
    for slot in slots:
        questions = [(slot, "empty", False, moves.empty_code(slot))]
        questions += [(slot, kind, carry, moves.land_code(slot, kind, carry))
                      for kind in moves.MOVE_KINDS for carry in (False, True)]
        for *question, code in questions:
            for answer in (False, True):
                full = code | answer
                assert full not in seen, (question, answer, seen.get(full))
                seen[full] = (*question, answer)
                # The reader takes it apart again.
                assert full >> moves.SLOT_SHIFT == slot
                assert full // moves.SQUARE_DIVISOR == slot // 3
                kind = full >> moves.KIND_SHIFT & moves.KIND_MASK
                assert kind == (moves.EMPTY if question[1] == "empty" else question[1])
                assert bool(full & moves.ANSWER) == answer
    # Kept in an array of unsigned shorts.
    assert max(seen) < 1 << 16


@settings(max_examples=300, deadline=None)
@given(a=st.tuples(*[st.integers(0, 2)] * 12), b=st.tuples(*[st.integers(0, 2)] * 12))
def test_same_moves_is_moves_key_equality(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    # Two Pieces drawn field by field from a few values each, so that most
    # fields agree now and then.
    def piece(v: tuple[int, ...]) -> Piece:
        return Piece(1 + v[0], ("tank", "jet", "dozer")[v[1]], ("black", "white", "black")[v[2]], 1 + v[3], 1 + v[4],
                     v[5], (None, "left", "right")[v[6]], ((), ("xxx",), ("stealth",))[v[7]], bool(v[8] % 2), v[9],
                     ((), (("flamer", 1),), ())[v[10]], (None, ("bike", 1, 1, 0, "beeline", False), None)[v[11]])
    p, q = piece(a), piece(b)
    assert same_moves(p, q) == (moves_key(p) == moves_key(q))


# --- the list of fast paths ------------------------------------------------------------------------


def _resolve(dotted: str) -> Any:
    """A function of the engine by its dotted name under games.rules.wec."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj: Any = importlib.import_module("games.rules.wec." + ".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise AssertionError(f"{dotted} names nothing")


@pytest.mark.parametrize("path", fastpaths.PATHS, ids=[p.fast for p in fastpaths.PATHS])
def test_each_fast_path_names_its_plain_rule(path: fastpaths.FastPath) -> None:
    fast, plain = _resolve(path.fast), _resolve(path.plain)
    assert callable(fast) and callable(plain)
    plain_name = path.plain.rsplit(".", 1)[-1]
    assert plain_name in (fast.__doc__ or ""), f"{path.fast}'s docstring does not name {plain_name}"
    assert "fast path" in (fast.__doc__ or ""), f"{path.fast}'s docstring does not say it is a fast path"
