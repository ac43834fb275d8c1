"""Exact records under random options: ``python3 -m games.rules.wec.exactness``.

Plays seeded random games through the public facade, each under a random
valid option set (every documented option and value can come up) and from
either the option set's standard game or a crowded scenario that puts pairs
of alike Pieces (same type, colour, hand and Articles) on one place, and
checks at random points that the game's records are exact:

* ``undo``: ``undo(g, n)`` equals the game ``n`` actions before (scenario
  document, both colours' views, ``legal_actions``);
* ``reload``: ``load_scenario(dump_scenario(g))`` behaves like ``g`` for every
  later action (same legal actions after each, same document, views and
  histories, both colours and plain English, at the end);
* ``replay``: ``replay(history(g), ...)`` of the game at its last Turn
  boundary (or its end) equals it;
* ``censored``: the same replay gives both colours the same censored history
  (counted apart from ``replay`` when that is all that differs);
* ``error``: a legal action, an Undo or a replay raised.

Prints the count of each kind of mismatch (the goal is 0 of every kind). The
property tests in tests/engine/test_exact_records.py run the same checks on
fewer games.

It checks the Game History (l. 1755-1800), Undo (l. 331-341) and the
pre-game options (l. 316-330, 752-775) as the facade offers them; it
implements no rule itself.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

from . import (
    apply,
    dump_scenario,
    history,
    legal_actions,
    load_scenario,
    new_game,
    plain_history,
    replay,
    undo,
    view,
)
from .constants import COEXIST, HANDED, NATIVE_LEVELS
from .options import SPEC

KINDS = ("undo", "reload", "replay", "censored", "error")

_ARTICLES = ["flamer", "stunner", "conversion", "rocket_launcher", "sam_launcher", "torpedo_launcher", "stealth",
             "anti_flamer", "anti_stunner", "anti_conversion", "anti_rocket", "anti_sam", "anti_torpedo",
             "anti_stealth", "bike", "jump_pack", "scuba", "xxx"]
_GROUND_TYPES = ["queen", "tank", "dozer", "destroyer", "aaa", "cleric", "rocket_pawn", "stunner_pawn",
                 "flamer_pawn", "conversion_pawn", "stealth_pawn", "xxx_pawn", "sam_torpedo_pawn", "jet", "chopper",
                 "sub"]
_CENSOR_KEYS = ("censored", "own", "plain_censored", "plain_own")


def option_values(name: str) -> list[Any]:
    """Every value the option ``name`` may take."""
    allowed = SPEC[name][1]
    if allowed is bool:
        return [False, True]
    return list(allowed)


def random_options(rng: random.Random, pinned: dict[str, Any] | None = None) -> dict[str, Any]:
    """A random valid option set: every option drawn from all its values
    (those in ``pinned`` kept), then the one combination rule of
    ``options.resolve`` honoured by changing an option that is not pinned."""
    pinned = pinned or {}
    opts = {name: pinned[name] if name in pinned else rng.choice(option_values(name)) for name in SPEC}
    if opts["sub_jet_combat"] and (opts["movement"] == "weaponized" or opts["action_restriction"] != "move_only"):
        if "sub_jet_combat" not in pinned and (pinned.keys() & {"movement", "action_restriction"}
                                               or rng.random() < 0.5):
            opts["sub_jet_combat"] = False
        else:
            if opts["movement"] == "weaponized":
                opts["movement"] = rng.choice(["standard_chess", "mass_destruction"])
            opts["action_restriction"] = "move_only"
    return opts


def _capacity(kind: str, articles: list[str]) -> int:
    if kind == "xxx_pawn":
        return 2
    return 3 if "xxx" in articles else 1


def _random_piece(rng: random.Random, kind: str, color: str, row: int, col: int, level: str) -> dict[str, Any]:
    d: dict[str, Any] = {"type": kind, "color": color, "row": row, "col": col, "level": level}
    if kind in HANDED:
        d["hand"] = rng.choice(["left", "right"])
    n = rng.choice([0, 0, 1, 1, 2])
    arts = [rng.choice(_ARTICLES) for _ in range(n)]
    if n > 1 and kind != "xxx_pawn":
        arts[0] = "xxx"
    d["articles"] = arts[: _capacity(kind, arts)]
    return d


def crowded_scenario(rng: random.Random, opts: dict[str, Any]) -> dict[str, Any]:
    """Kings in the corners, a crowd of random Pieces and Articles in the
    middle, and two to four pairs of alike Pieces sharing one place each."""
    pieces = [{"type": "king", "color": "black", "row": 1, "col": 1},
              {"type": "king", "color": "white", "row": 10, "col": 10}]
    used: set[tuple[int, int, str]] = set()
    for _ in range(rng.randint(2, 4)):
        kind = rng.choice(sorted(COEXIST))
        level = rng.choice(sorted({"ground"} | {("air", "sub")[lv - 1] for lv in NATIVE_LEVELS.get(kind, ()) if lv}))
        row, col = rng.randint(3, 8), rng.randint(2, 9)
        if (row, col, level) in used:
            continue
        used.add((row, col, level))
        one = _random_piece(rng, kind, rng.choice(["black", "white"]), row, col, level)
        pieces += [one, dict(one, articles=list(one["articles"]))]
    for _ in range(rng.randint(6, 16)):
        kind = rng.choice(_GROUND_TYPES)
        level = "ground"
        if kind in ("jet", "chopper") and rng.random() < 0.5:
            level = "air"
        if kind == "sub" and rng.random() < 0.5:
            level = "sub"
        row, col = rng.randint(3, 8), rng.randint(2, 9)
        if (row, col, level) in used:
            continue
        used.add((row, col, level))
        pieces.append(_random_piece(rng, kind, rng.choice(["black", "white"]), row, col, level))
    ground: Counter[tuple[int, int]] = Counter()
    articles = []
    for _ in range(rng.randint(4, 16)):
        row, col = rng.randint(2, 9), rng.randint(2, 9)
        if ground[(row, col)] < 2:
            ground[(row, col)] += 1
            articles.append({"type": rng.choice(_ARTICLES), "row": row, "col": col})
    return {"to_move": rng.choice(["black", "white"]), "options": opts, "pieces": pieces, "articles": articles,
            "reinforcements": [{"type": "jet", "color": "black", "row": 7, "col": 5},
                               {"type": "sub", "color": "white", "row": 4, "col": 6}]}


def start_position(rng: random.Random, options: dict[str, Any] | None = None, crowded: bool | None = None,
                   ) -> tuple[Any, dict[str, Any] | None, dict[str, Any]]:
    """A random starting game, its scenario document (None for a standard
    game) and its options (``options`` if given, else random ones); a
    crowded scenario or not as ``crowded`` says, else at random."""
    opts = random_options(rng) if options is None else options
    if crowded is None:
        crowded = rng.random() < 0.6
    if crowded:
        for _ in range(50):
            doc = crowded_scenario(rng, opts)
            try:
                return load_scenario(doc), doc, opts
            except ValueError:
                continue
    return new_game(opts), None, opts


def choose(rng: random.Random, actions: list[dict[str, Any]]) -> dict[str, Any]:
    """An action type first, then an action of that type, so that rarer
    actions (Drops, Exchanges, Reinforces) get played as well as Moves."""
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_type.setdefault(a.get("weapon", a["type"]), []).append(a)
    return rng.choice(by_type[rng.choice(sorted(by_type))])


def snapshot(game: Any) -> tuple[Any, ...]:
    """What must match for two games to count as equal: the document, both
    views and the legal actions."""
    return (dump_scenario(game), view(game, "black"), view(game, "white"), legal_actions(game))


def histories(game: Any) -> tuple[Any, ...]:
    return tuple((history(game, c), plain_history(game, c)) for c in (None, "black", "white"))


def _strip_censored(doc: dict[str, Any]) -> dict[str, Any]:
    doc = dict(doc)
    doc["log"] = [{k: v for k, v in t.items() if k not in _CENSOR_KEYS} for t in doc["log"]]
    return doc


def check_game(seed: int, cap: int = 60, undo_rate: float = 0.15, details: list[str] | None = None,
               options: dict[str, Any] | None = None, crowded: bool | None = None) -> Counter[str]:
    """Play one seeded random game of at most ``cap`` actions and count its
    mismatches by kind (see the module's docstring). ``options`` and
    ``crowded`` fix the option set and the kind of start (else random)."""
    rng = random.Random(seed)
    found: Counter[str] = Counter()

    def miss(kind: str, what: str) -> None:
        found[kind] += 1
        if details is not None:
            details.append(f"seed {seed}: {kind}: {what}")

    try:
        game, doc, opts = start_position(rng, options, crowded)
    except Exception:  # noqa: BLE001 - a crash is what this counts
        miss("error", "start: " + traceback.format_exc(limit=3))
        return found
    states = [game]
    shadow = None
    reload_at = rng.randrange(cap)
    for k in range(cap):
        acts = legal_actions(game)
        if shadow is not None and legal_actions(shadow) != acts:
            miss("reload", f"legal actions differ after action {k}")
            shadow = None
        if not acts:
            break
        action = choose(rng, acts)
        try:
            game = apply(game, action)
        except Exception:  # noqa: BLE001
            miss("error", f"apply {action}: " + traceback.format_exc(limit=3))
            return found
        states.append(game)
        if shadow is not None:
            try:
                shadow = apply(shadow, action)
            except Exception as exc:  # noqa: BLE001
                miss("reload", f"reloaded game refused {action}: {exc}")
                shadow = None
        if k == reload_at:
            shadow = load_scenario(dump_scenario(game))
        if not opts["competitive"] and rng.random() < undo_rate:
            n = rng.randint(1, min(len(states) - 1, 12))
            try:
                back = undo(game, n)
            except Exception:  # noqa: BLE001
                miss("error", f"undo {n} at action {k + 1}: " + traceback.format_exc(limit=3))
                continue
            if snapshot(back) != snapshot(states[-1 - n]):
                miss("undo", f"undo({n}) at action {k + 1}")
    if shadow is not None:
        if snapshot(shadow) != snapshot(game) or histories(shadow) != histories(game):
            miss("reload", "reloaded game differs at the end")
    # Replay the game at its last Turn boundary (or where it ended).
    last = next(g for g in reversed(states) if g.result or not g.turn_log)
    try:
        again = replay(history(last), scenario=doc) if doc is not None else replay(history(last), options=opts)
    except Exception as exc:  # noqa: BLE001
        miss("replay", f"replay raised: {exc}")
        return found
    a, b = snapshot(again), snapshot(last)
    if a != b:
        if (_strip_censored(a[0]),) + a[1:] == (_strip_censored(b[0]),) + b[1:]:
            miss("censored", "replayed game differs only in censored history")
        else:
            miss("replay", "replayed game differs")
    elif histories(again) != histories(last):
        miss("censored", "replayed game's histories differ")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--cap", type=int, default=60, help="actions per game at most")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="print the first N mismatches")
    args = parser.parse_args(argv)
    totals: Counter[str] = Counter()
    details: list[str] = []
    bad_games = 0
    started = time.perf_counter()
    for n in range(args.games):
        found = check_game(args.seed * 1_000_003 + n, args.cap, details=details)
        totals.update(found)
        bad_games += bool(found)
    elapsed = time.perf_counter() - started
    print(f"{args.games} random-option games of at most {args.cap} actions (seed {args.seed}) in {elapsed:.1f} s; "
          f"{bad_games} with a mismatch")
    for kind in KINDS:
        print(f"{kind} mismatches: {totals[kind]}")
    for line in details[: args.show]:
        print(line)
    return 0 if not totals else 1


if __name__ == "__main__":
    sys.exit(main())
