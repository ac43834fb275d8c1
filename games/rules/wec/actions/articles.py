"""Pick-up, Drop and Exchange: Articles taken from the ground, put down, or
passed between two friendly Pieces.

The three Actions of l. 567-577, one each per Turn (l. 57-59). A Piece
carries one Article, three with an XXX box (the XXX Pawn's own box lets it
carry two; l. 105-107, 179, 569-571). A Drop onto a full ground goes where
stunned-off Articles would (l. 311-313, 594-597). The secondary government
Piece Exchanges at any distance (l. 256-258, 576-577). Picking up an
Anti-Stealth may lock on to an unseen Stealthed enemy (l. 488-492).
"""

from __future__ import annotations

from typing import Any

from ..constants import GROUND, LEVELS, SECONDARY, SIZE
from ..moves import describe, drop_order
from ..scenario import capacity
from ..state import Game, Piece
from ..visibility import hidden_from, is_stealthed
from .budget import check_budget, note_action, restriction_error
from .common import acting_piece, check_awake, dist, illegal, read_article


def do_pickup(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Carry out a ``pickup`` action on ``g``; its log entry."""
    art = read_article(action)
    p = acting_piece(g, action, wants=lambda q: len(q.articles) < capacity(q.type, q.articles + (art,)))
    check_awake(p)
    check_budget(g, "pickup", "P", p.id)
    if p.level != GROUND:
        raise illegal("only a piece at ground level can pick up an Article")
    if art not in g.ground[p.sq]:
        raise illegal(f"there is no {art.replace('_', ' ')} on the ground at ({p.row}, {p.col})")
    new = p.articles + (art,)
    if len(new) > capacity(p.type, new):
        raise illegal("that piece has no room for another Article")
    arts = list(g.ground[p.sq])
    arts.remove(art)
    g.set_ground(p.sq, tuple(arts))
    g.update(p.id, articles=new)
    g.turn["pickup"] = True
    note_action(g, "P", p.id)
    if art == "anti_stealth":
        lock_on(g, g.pieces[p.id])
    return {"action": {"type": "pickup", "from": [p.row, p.col, "ground"], "piece": p.id, "article": art},
            "actor": describe(p)}


def lock_on(g: Game, watcher: Piece) -> None:
    """An Anti-Stealth just picked up locks on to the nearest enemy Piece with
    Stealth that its side cannot see (lock-on mode), if there is one."""
    if not g.options["stealth_lock_on"]:
        return
    hidden = hidden_from(g, watcher.color)
    candidates = [g.pieces[i] for i in hidden if is_stealthed(g, g.pieces[i])]
    if not candidates:
        return
    # Ties go to the lowest row, then column, then level as Black numbers them:
    # a fixed rule that uses nothing but the board.
    target = min(candidates, key=lambda q: (dist((q.row, q.col), (watcher.row, watcher.col)), q.row, q.col, q.level,
                                             q.type))
    g.locks = g.locks + ((watcher.id, target.id),)


def do_drop(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Carry out a ``drop`` action on ``g``; its log entry."""
    art = read_article(action)
    p = acting_piece(g, action, wants=lambda q: art in q.articles)
    check_awake(p)
    check_budget(g, "drop", "D", p.id)
    if art not in p.articles:
        raise illegal(f"that piece carries no {art.replace('_', ' ')}")
    if p.transport is not None and p.transport[0] == art and p.articles.count(art) == 1:
        raise illegal("that Article is driving the piece's Transport")
    # Where the ground of the Square is full, the Article goes where a
    # stunned-off one would (l. 311-313, 1923-1939; docs/rulings.md, "Dropping
    # onto a full Square").
    where = drop_square(g, p)
    if where is None:
        raise illegal("there is no room left on the board's ground for another Article")
    arts = list(p.articles)
    arts.remove(art)
    if len(arts) > capacity(p.type, arts):
        raise illegal("without that XXX box the piece could not hold its other Articles; drop them first")
    g.update(p.id, articles=tuple(arts))
    g.set_ground(where, g.ground[where] + (art,))
    g.turn["drop"] = True
    note_action(g, "D", p.id)
    return {"action": {"type": "drop", "from": [p.row, p.col, LEVELS[p.level]], "piece": p.id, "article": art},
            "actor": describe(p)}


def drop_square(g: Game, p: Piece) -> int | None:
    """The Square an Article dropped by ``p`` lands on: its own if the ground
    there has room, else the first with room in the stunned-off order."""
    if len(g.ground[p.sq]) < 2:
        return p.sq
    for s in drop_order(p.color, p.sq):
        if len(g.ground[s]) < 2:
            return s
    return None


def locked_article(p: Piece, art: str) -> bool:
    """Whether ``art`` is the Article driving ``p``'s Transport (it cannot leave it)."""
    return p.transport is not None and p.transport[0] == art and p.articles.count(art) == 1


def exchange_reach(a: Piece, b: Piece) -> bool:
    """Whether two Pieces are near enough to Exchange (the secondary government
    Piece reaches any distance)."""
    return a.type in SECONDARY or b.type in SECONDARY or dist((a.row, a.col), (b.row, b.col)) <= 1


def do_exchange(g: Game, action: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Carry out an ``exchange`` action on ``g``; its log entry."""
    art = read_article(action)
    swap = read_article(action, "swap") if action.get("swap") is not None else None
    a = acting_piece(g, action, wants=lambda q: art in q.articles)
    b = acting_piece(g, action, key="to", piece_key="to_piece",
               wants=(lambda q: swap in q.articles) if swap else (lambda q: q.id != a.id))
    check_awake(a)
    check_awake(b)
    check_budget(g, "exchange", "X", a.id)
    if a.id == b.id:
        raise illegal("an Exchange needs two different pieces")
    if not exchange_reach(a, b):
        raise illegal("those pieces are too far apart to Exchange (only the secondary government piece reaches any "
                   "distance)")
    if art not in a.articles:
        raise illegal(f"the giving piece carries no {art.replace('_', ' ')}")
    if locked_article(a, art) or (swap and locked_article(b, swap)):
        raise illegal("an Article driving a Transport cannot be exchanged")
    a_arts = list(a.articles)
    a_arts.remove(art)
    b_arts = list(b.articles)
    if swap is not None:
        if swap not in b.articles:
            raise illegal(f"the other piece carries no {swap.replace('_', ' ')}")
        b_arts.remove(swap)
        a_arts.append(swap)
    b_arts.append(art)
    for q, arts in ((a, a_arts), (b, b_arts)):
        if len(arts) > capacity(q.type, arts):
            raise illegal("that Exchange would leave a piece carrying more Articles than it can")
    g.update(a.id, articles=tuple(a_arts))
    g.update(b.id, articles=tuple(b_arts))
    g.turn["exchange"] = True
    note_action(g, "X", a.id)
    out = {"type": "exchange", "from": [a.row, a.col, LEVELS[a.level]], "piece": a.id, "article": art,
           "to": [b.row, b.col, LEVELS[b.level]], "to_piece": b.id}
    if swap is not None:
        out["swap"] = swap
    return {"action": out, "actor": describe(a), "other": describe(b)}


def article_actions(game: Game, p: Piece, own: list[Piece], where: list[Any], out: list[dict[str, Any]],
                    here: tuple[str, ...] | None = None) -> None:
    """:func:`article_actions_by_rule` with ``capacity``,
    ``locked_article``, ``drop_square`` and ``exchange_reach`` inlined where
    the listing calls them most (a fast path); ``here``, when the caller
    has them, the Articles on the ground under ``p`` if it stands at ground
    level (else ``()``)."""
    arts = p.articles
    if here is None:
        here = game.ground[(p.row - 1) * SIZE + p.col - 1] if p.level == GROUND else ()
    if not arts and not here:
        # Nothing to pick up, drop or give: most Pieces, most of the time.
        return
    turn = game.turn
    free = game.options["action_restriction"] == "none"
    pid, kind = p.id, p.type
    if here and not turn["pickup"] and (free or not restriction_error(game, "P", pid)):
        # capacity(kind, arts + (art,)): 2 for the XXX Pawn, else 3 with an XXX box among them, else 1.
        n = len(arts) + 1
        if kind == "xxx_pawn":
            room = n <= 2
            for art in (here if len(here) < 2 or here[0] != here[1] else here[:1]):
                if room:
                    out.append({"type": "pickup", "from": where, "piece": pid, "article": art})
        else:
            boxed = "xxx" in arts
            for art in (here if len(here) < 2 or here[0] != here[1] else here[:1]):
                if n <= (3 if boxed or art == "xxx" else 1):
                    out.append({"type": "pickup", "from": where, "piece": pid, "article": art})
    if not arts:
        return
    # Each Article it may give up (not driving its Transport): with what it
    # would keep, and whether it could keep that (a lone Article: nothing
    # left to hold, so it always could).
    transport = p.transport
    if len(arts) == 1:
        art = arts[0]
        locked = transport is not None and transport[0] == art
        choices = [(art, [], locked, True)]
    else:
        choices = []
        for art in dict.fromkeys(arts):
            rest = list(arts)
            rest.remove(art)
            choices.append((art, rest, transport is not None and transport[0] == art and arts.count(art) == 1,
                            len(rest) <= capacity(kind, rest)))
    # drop_square(game, p) is not None, with its first test inlined (the
    # ground under the Piece has room, nearly always).
    if (not turn["drop"] and (free or not restriction_error(game, "D", pid))
            and (len(game.ground[(p.row - 1) * SIZE + p.col - 1]) < 2 or drop_square(game, p) is not None)):
        for art, _, locked, fits in choices:
            if not locked and fits:
                out.append({"type": "drop", "from": where, "piece": pid, "article": art})
    if turn["exchange"] or not (free or not restriction_error(game, "X", pid)):
        return
    choices = [c for c in choices if not c[2]]
    if not choices:
        return
    # exchange_reach, inlined: the secondary government Piece reaches any distance.
    far = kind in SECONDARY
    row, col = p.row, p.col
    for q in own:
        if q.stun or q is p:  # (``own`` holds ``p`` itself; ids are unique)
            continue
        if not (far or -1 <= q.row - row <= 1 and -1 <= q.col - col <= 1 or q.type in SECONDARY):
            continue
        to = [q.row, q.col, LEVELS[q.level]]
        q_arts = q.articles
        q_kind = q.type
        qid = q.id
        # capacity(q_kind, q_arts + [art]) from that of q_arts alone.
        q_cap = 2 if q_kind == "xxx_pawn" else 3 if "xxx" in q_arts else 1
        n = len(q_arts) + 1
        for art, rest, _, fits in choices:
            if fits and n <= (3 if q_cap == 1 and art == "xxx" else q_cap):
                out.append({"type": "exchange", "from": where, "piece": pid, "article": art, "to": to,
                            "to_piece": qid})
            if q_arts:
                for swap in dict.fromkeys(q_arts):
                    if swap == art or locked_article(q, swap):
                        continue
                    mine = rest + [swap]
                    theirs = list(q_arts)
                    theirs.remove(swap)
                    theirs.append(art)
                    if len(mine) <= capacity(kind, mine) and len(theirs) <= capacity(q_kind, theirs):
                        out.append({"type": "exchange", "from": where, "piece": pid, "article": art, "to": to,
                                    "to_piece": qid, "swap": swap})


def article_actions_by_rule(game: Game, p: Piece, own: list[Piece], where: list[Any],
                            out: list[dict[str, Any]]) -> None:
    """Add every legal Pick-up, Drop and Exchange of ``p`` (not stunned) to
    ``out``, each once a Turn (l. 57-59) and as the Action Restriction
    allows; ``own`` are its side's Pieces in id order.

    A Pick-up of each Article on the ground under ``p`` at ground level, the
    two alike listed once, where ``p`` has room for it (l. 105-107, 179,
    569-571). A Drop of each Article ``p`` carries (each kind once) unless
    it drives ``p``'s Transport or ``p`` could not hold the rest without it
    (an XXX box), where the board's ground has room (l. 311-313, 594-597).
    An Exchange of each such Article with each other awake Piece of its
    side in reach (``exchange_reach``, l. 256-258, 576-577) that has room
    for it, then the same with each Article that Piece carries in return
    (each kind once, not the same kind, not one driving its Transport),
    where both can hold what they end with."""
    turn = game.turn
    arts = p.articles
    pid, kind = p.id, p.type
    here = game.ground[p.sq] if p.level == GROUND else ()
    if not turn["pickup"] and not restriction_error(game, "P", pid):
        for art in dict.fromkeys(here):
            if len(arts) + 1 <= capacity(kind, arts + (art,)):
                out.append({"type": "pickup", "from": where, "piece": pid, "article": art})
    # Each Article it may give up, with what it would keep and whether it could keep that.
    choices = []
    for art in dict.fromkeys(arts):
        rest = list(arts)
        rest.remove(art)
        if not locked_article(p, art):
            choices.append((art, rest, len(rest) <= capacity(kind, rest)))
    if not turn["drop"] and not restriction_error(game, "D", pid) and drop_square(game, p) is not None:
        for art, _, fits in choices:
            if fits:
                out.append({"type": "drop", "from": where, "piece": pid, "article": art})
    if turn["exchange"] or restriction_error(game, "X", pid):
        return
    for q in own:
        if q.stun or q.id == pid or not exchange_reach(p, q):
            continue
        to = [q.row, q.col, LEVELS[q.level]]
        for art, rest, fits in choices:
            if fits and len(q.articles) + 1 <= capacity(q.type, q.articles + (art,)):
                out.append({"type": "exchange", "from": where, "piece": pid, "article": art, "to": to,
                            "to_piece": q.id})
            for swap in dict.fromkeys(q.articles):
                if swap == art or locked_article(q, swap):
                    continue
                mine = rest + [swap]
                theirs = list(q.articles)
                theirs.remove(swap)
                theirs.append(art)
                if len(mine) <= capacity(kind, mine) and len(theirs) <= capacity(q.type, theirs):
                    out.append({"type": "exchange", "from": where, "piece": pid, "article": art, "to": to,
                                "to_piece": q.id, "swap": swap})
