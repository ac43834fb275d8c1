"""Replaying a Wec game from its notation (GAME HISTORY, l. 1755-1800).

Each Turn's text is read (:mod:`.reader`) and its actions are tried on the
game in an order that is legal and writes exactly that text again
(:mod:`.notation`); Undo (:mod:`.undo`) uses the same search. This module sits
above the Actions, which it applies.
"""

from __future__ import annotations

import re
from itertools import product
from typing import Any

from .actions import IllegalAction, apply
from .constants import LEVEL_INDEX
from .notation import SEQUENCE_RE, WRITTEN_ORDER, expected_order, result_items, segment, turn_text
from .options import resolve
from .reader import action_codes, parse_text
from .scenario import load_scenario
from .setup import standard_document
from .state import Game

# --- replaying -------------------------------------------------------------------------

_STRICT_BUDGET = 200
_EXTRA_KEYS = ("actor", "other", "target_piece", "carried", "dozed", "hand", "hidden")


def _matches(p: Any, d: dict[str, Any]) -> bool:
    return p.type == d["type"] and (p.hand or None) == d.get("hand") and list(p.articles) == d["articles"]


def _ids_at(game: Game, place: list[Any], d: dict[str, Any], color: str) -> list[int]:
    """The ids of the pieces at ``place`` that fit the description ``d``, in
    the board's order; only the ``mark``-th of them when ``d`` has a mark."""
    row, col, level = place
    slot = ((row - 1) * 10 + col - 1) * 3 + LEVEL_INDEX[level]
    ids = [i for i in game.board[slot] if game.pieces[i].color == color and _matches(game.pieces[i], d)]
    mark = d.get("mark")
    if mark:
        return ids[mark - 1:mark] or [-1]  # no such piece: nothing will apply
    return ids


def _variants(game: Game, a: dict[str, Any]) -> list[dict[str, Any]]:
    """The action as ``apply`` takes it, once per own piece its descriptions fit."""
    base = {k: v for k, v in a.items() if k not in _EXTRA_KEYS}
    color = game.to_move
    choices: list[list[tuple[str, int]]] = []
    if "actor" in a and a["type"] != "reinforce":
        ids = _ids_at(game, a["from"], a["actor"], color)
        if ids:
            choices.append([("piece", i) for i in ids])
    if a["type"] == "exchange":
        ids = _ids_at(game, a["to"], a["other"], color)
        if ids:
            choices.append([("to_piece", i) for i in ids])
    if not choices:
        return [base]
    return [dict(base, **dict(combo)) for combo in product(*choices)]


def _replay_turn(game: Game, text: str, number: int) -> Game:
    return replay_turn_steps(game, text, number)[0]


_MARK_RE = re.compile(r"#[12]")


def _fits(made: str, given: str) -> bool:
    """Whether the text a replayed action or Turn writes is the one given.

    Records written before the ``#n`` and ``SQ:`` markers existed have
    neither; they still read, the markers left out of the comparison (and the
    search then falls back to trying the orders and alike Pieces it may).
    """
    if made == given:
        return True
    if "#" in made and "#" not in given:
        made = _MARK_RE.sub("", made)
    if ",SQ:" in made and ",SQ:" not in given:
        made = SEQUENCE_RE.sub("", made)
    return made == given


def replay_turn_steps(game: Game, text: str, number: int, order: str | None = None,
                      ) -> tuple[Game, list[dict[str, Any]]]:
    """Replay one Turn; the game after it and its actions in the order found
    (``end_turn`` last, unless the game ended during the Turn). ``order``, the
    12DPXMR letters of the actions as they were taken (kept in the game's log),
    makes that order the first one tried."""
    before_end: list[Game] = []

    actions, results, written = parse_text(text)
    # The order to try first: the one the game's log kept, else the one the
    # text gives, else the one it implies (the written order, or 12DPXMR where
    # an Action Restriction makes that the only legal one).
    order = order or written or expected_order(game.options["action_restriction"])
    if order != WRITTEN_ORDER:
        codes = action_codes(actions)
        rank = {c: i for i, c in enumerate(order)}
        pairs = sorted(zip(codes, actions, strict=True), key=lambda cx: rank.get(cx[0], len(order)))
        actions = [x for _, x in pairs]
    if any(a.get("hidden") for a, _ in actions):
        raise ValueError(f"Turn {number}: {text!r} is censored (MV:?) and cannot be replayed")
    wanted = [r["text"] for r in results]
    end = {"type": "end_turn"}

    budget = [0]

    def search(g: Game, remaining: list[tuple[dict[str, Any], str]], k: int, strict: bool) -> Game | None:
        if not remaining:
            if g.result:
                if not _fits(turn_text(list(g.turn_log), restriction=g.options["action_restriction"]), text):
                    return None
                before_end.append(g)
                return g
            try:
                done = apply(g, end)
            except IllegalAction:
                return None
            if not _fits(done.log[-1]["text"], text):
                return None
            before_end.append(g)
            return done
        if g.result:
            return None
        first_fire = next((n for n, (a, _) in enumerate(remaining) if a["type"] == "fire"), None)
        for n, (a, raw) in enumerate(remaining):
            if a["type"] == "fire" and n != first_fire:
                continue  # FI1 happened before FI2
            variants = _variants(g, a)
            if strict and len(variants) > 1:
                continue
            for variant in variants:
                if strict:
                    budget[0] -= 1
                    if budget[0] < 0:
                        return None
                try:
                    after = apply(g, variant)
                except IllegalAction:
                    continue
                entry = after.turn_log[-1]
                if not _fits(segment(entry), raw):
                    continue
                items = result_items(entry)
                if wanted[k:k + len(items)] != items:
                    continue
                found = search(after, remaining[:n] + remaining[n + 1:], k + len(items), strict)
                if found is not None:
                    return found
        return None

    # Where two alike pieces share a place the text cannot say which one
    # acted: first look for an order in which every action fits one piece
    # only (a bounded search), then accept any.
    budget[0] = _STRICT_BUDGET
    found = search(game, actions, 0, True)
    if found is None:
        found = search(game, actions, 0, False)
    if found is None:
        raise ValueError(f"Turn {number} ({game.to_move}): no order of its actions is legal and gives {text!r}")
    steps = [e["action"] for e in before_end[-1].turn_log]
    if not found.result or found is not before_end[-1]:
        steps.append(end)
    return found, steps


def replay(texts: list[str], options: dict[str, Any] | None = None,
           scenario: dict[str, Any] | None = None) -> Game:
    """The game a history (one notation string per Turn) describes.

    Starts from ``new_game(options)``, or from ``load_scenario(scenario)``
    (``options`` then override the document's), and plays each Turn: its
    actions in an order that is legal and whose notation is exactly the text
    given (the written order is tried first), then ``end_turn``. A last Turn in
    which the game ended has no ``end_turn``. Raises ``ValueError`` naming the
    Turn that cannot be replayed.
    """
    if scenario is not None:
        doc = dict(scenario)
        if options:
            doc["options"] = {**(doc.get("options") or {}), **options}
        game = load_scenario(doc)
    else:
        # new_game(options), without importing the facade above this module.
        game = load_scenario(standard_document(resolve(options)))
    for n, text in enumerate(texts, 1):
        if game.result:
            raise ValueError(f"Turn {n}: the game was already over")
        game = _replay_turn(game, text, n)
    return game


class RecordError(ValueError):
    """A record that cannot be replayed; ``turn`` is its 1-based Turn."""

    def __init__(self, turn: int, message: str):
        super().__init__(message)
        self.turn = turn


def record_steps(texts: list[str], options: dict[str, Any] | None = None,
                 scenario: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The actions (``end_turn`` included) that play the history ``texts``
    from the start ``replay`` would use: what a sandbox steps through.
    Raises :class:`RecordError` naming the first Turn that cannot be replayed
    (unreadable, censored, or no legal order gives its text)."""
    if scenario is not None:
        doc = dict(scenario)
        if options:
            doc["options"] = {**(doc.get("options") or {}), **options}
        game = load_scenario(doc)
    else:
        game = load_scenario(standard_document(resolve(options)))
    steps: list[dict[str, Any]] = []
    for n, text in enumerate(texts, 1):
        if game.result:
            raise RecordError(n, f"Turn {n}: the game was already over")
        try:
            game, turn_steps = replay_turn_steps(game, text, n)
        except RecordError:
            raise
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise RecordError(n, str(exc) if str(exc).startswith("Turn") else f"Turn {n}: {exc}") from None
        steps.extend(turn_steps)
    return steps
