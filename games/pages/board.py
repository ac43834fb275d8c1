"""The board partial's answer: rendered once per (game, colour, view version)
and kept in Redis, with the game record sent as appended lines.

The board a player is shown depends only on the game, their colour and their
own view version (which changes exactly when what they are shown changes), the
language, and the server-AI notice; so the rendered HTML of a board without a
selection is cached under those.  Two things in it are the requester's own
and are put in after the cache: the CSRF token of the forms, and the record
lines the page has not got yet (the page says how many it has in the
X-Wec-History header; see static/js/game.js).  Nothing about one player ever
goes into the other colour's key, so the cache cannot leak across sides.

A third is the requester's own too: the Squares changed since the board the
player was shown before ("changed since you last looked", kept per Seat by
games.services.seen.note_board_shown).  It is sent as a small out-of-band element
(games/partials/since_last.html) that the page's script applies to the
board, so the cached board stays the same for every request of a version;
the cache keeps the view's signature (the game's, e.g. Wec's
highlights.signature) beside the HTML for it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import get_language

from games import boardpatch, doorbells, selectors
from games.registry import get_ui
from games.services import seen
from games.store import render_cache

# Stands for the CSRF token in a cached board; never a valid token itself.
CSRF_MARK = "@@wec-csrf@@"
HISTORY_TEMPLATE = "games/partials/history.html"
SINCE_TEMPLATE = "games/partials/since_last.html"


def _store(key: str, value: tuple) -> None:
    # The HTML as a plain str: a CutHTML (games.boardpatch) would pickle its
    # parts along with it, twice the bytes to pickle, send and keep, for a
    # hit that never reads them (it cuts the HTML itself when it needs to).
    if type(value[0]) is not str:
        value = (str.__str__(value[0]), *value[1:])
    render_cache.cache().set(key, value, timeout=settings.WEC_RENDER_CACHE_SECONDS)


def board_key(game, seat) -> str:
    """Everything the cached HTML depends on besides the view version: the
    language and time zone it is written in, the AI notice, the players'
    vacation badges with their dates (also in the view digest since the
    explicit vacation, kept here so the key never depends on a bump), and
    while a clock runs the minute (its "time left" counts down; a paused
    clock does not)."""
    clocks = selectors.game_clocks(game)
    minute = str(int(time.time() // 60)) if any(c.running for c in clocks) else "-"
    return ":".join(
        [
            settings.WEC_REDIS_PREFIX,
            "board",
            str(game.pk),
            seat.color,
            str(seat.version),
            get_language() or "",
            timezone.get_current_timezone_name(),
            "a" if game.needs_attention else "-",
            "/".join(
                (str(int(c.vacation_until.timestamp())) if c.vacation_until else "v") if c.on_vacation else "-"
                for c in clocks
            ),
            minute,
        ]
    )


def history_mode(game) -> str:
    """Which record the page shows: the player's own ("live") while the game
    runs, both sides' whole one ("open") while it runs with an agreed open
    record, the complete one ("review") once it has ended."""
    if selectors.is_review(game):
        return "review"
    # A record that opens or closes changes its earlier lines: a page that
    # holds the other kind gets the whole record again.
    kind = "open" if selectors.record_open(game.options) else "live"
    # After a granted undo (friendly games) the record lost Turns and grew
    # others: a page from another epoch gets the whole record, never a tail.
    epoch = getattr(game, "history_epoch", 0)
    return f"{kind}-e{epoch}" if epoch else kind


def parse_history_header(value: str | None) -> tuple[str, int, int] | None:
    """The page's `mode:plain-count:notation-count`, or None when absent or bad."""
    if not value:
        return None
    parts = value.split(":")
    if len(parts) != 3 or not (parts[0] in ("live", "open", "review") or parts[0].startswith(("live-e", "open-e"))):
        return None
    try:
        plain, notation = int(parts[1]), int(parts[2])
    except ValueError:
        return None
    if plain < 0 or notation < 0:
        return None
    return parts[0], plain, notation


def _fragment(has, mode: str, plain: list[str], notation: list[str], totals: tuple[int, int]) -> str | None:
    """The appended lines for a page that has `has`, when `plain` / `notation`
    are the last lines of records of `totals` lines; None when those lines do
    not reach back far enough (or the page's record is not a prefix of ours)."""
    if has is None or has[0] != mode or has[1] > totals[0] or has[2] > totals[1]:
        return None
    if has[1] == has[2] == 0 and (totals[0] or totals[1]):
        return None  # the page's record is empty, so hidden: replace it whole (it then shows)
    need_plain, need_notation = totals[0] - has[1], totals[1] - has[2]
    if need_plain > len(plain) or need_notation > len(notation):
        return None
    if not need_plain and not need_notation:
        return ""
    new = {
        "plain": plain[len(plain) - need_plain :] if need_plain else [],
        "notation": notation[len(notation) - need_notation :] if need_notation else [],
    }
    return appended_lines(new)


def appended_lines(new: dict) -> str:
    """history.html for `{"history_append": new}`: the lines a page lacks,
    as out-of-band appends."""
    return render_to_string(HISTORY_TEMPLATE, {"history_append": new})


def history_fragment(request, game, seat, history: dict) -> str:
    """The out-of-band part of a board answer: only the record lines the page
    lacks when it told us what it has and it is a prefix of ours, else the
    whole record (replacing the page's)."""
    mode = history_mode(game)
    has = parse_history_header(request.headers.get("X-Wec-History"))
    totals = (len(history["plain"]), len(history["notation"]))
    part = _fragment(has, mode, history["plain"], history["notation"], totals)
    if part is not None:
        return part
    context = {
        "history": history,
        "history_mode": mode,
        "review": selectors.is_review(game),
        "record_open": selectors.record_open(game.options),
        "oob": True,
        "notation_label": get_ui(game.engine).NOTATION_LABEL,
    }
    return render_to_string(HISTORY_TEMPLATE, context)


def since_last(game, seat, signature: str | None, quiet: bool = False) -> dict | None:
    """The "changed since you last looked" data of this answer (None for a
    game whose UI has no such highlight: its page has no element for it)."""
    ui = get_ui(game.engine)
    if not ui.SINCE_LAST:
        return None
    squares = seen.note_board_shown(game, seat, signature, quiet=quiet)
    return {"squares": squares, "keys": " ".join(f"{r}-{c}" for r, c in squares), "text": ui.since_last_text(squares)}


def since_fragment(data: dict | None) -> str:
    """since_last.html for `data`, out of band ("" for a game without the
    highlight: its page has no element for it)."""
    if data is None:
        return ""
    return render_to_string(SINCE_TEMPLATE, {"since_last": data, "oob": True})


# How many of the record's last lines a cached board keeps, so that a page
# that is only a few lines behind (the usual case: one Turn) is answered
# without loading the game at all.
TAIL = 4


def board_response(
    request,
    game,
    seat,
    build_context: Callable[[], dict],
    cacheable: bool,
    status: int = 200,
    fresh: bool = False,
    quiet: bool = False,
) -> HttpResponse:
    """The board partial plus the record lines the page lacks and the
    Squares changed since the player last looked (`quiet`: none, the
    player's own action made this board).  A `cacheable` board (no
    selection, no error) comes from the render cache when there, and goes
    into it when rendered, with the tail of the record and the view's
    signature.  A `fresh` one (the answer to the action that made this view
    version) is not looked for in the cache first."""
    key = board_key(game, seat)
    cached = render_cache.cache().get(key) if cacheable and not fresh else None
    if cached is not None and len(cached) != 7:
        cached = None  # written before the signature and the parts' hashes were kept
    part = None
    cut = None  # the board's parts (games.boardpatch), once cut
    if cached is not None:
        html, mode, totals, plain_tail, notation_tail, signature, hashes = cached
        if mode == history_mode(game):
            has = parse_history_header(request.headers.get("X-Wec-History"))
            part = _fragment(has, mode, plain_tail, notation_tail, tuple(totals))
    if cached is None:
        context = build_context()
        history = context.get("history")
        if history is None:
            history = selectors.history_lines(game, selectors.load_state(game), seat.color)
        signature = context.get("seen_signature")
        context["csrf_token"] = CSRF_MARK
        # The package renders its partial (GameUI.render_board), and may
        # hand over its parts (a boardpatch.CutHTML) so they are not cut again.
        html = get_ui(game.engine).render_board(context)
        cut = html.cut if isinstance(html, boardpatch.CutHTML) and html.cut is not None else boardpatch.split(html)
        owner = (game.pk, str(game.created), seat.color)
        hashes = boardpatch.digests(cut[0], owner) if cut is not None else None
        if cacheable:
            value = (
                html,
                history_mode(game),
                (len(history["plain"]), len(history["notation"])),
                list(history["plain"][-TAIL:]),
                list(history["notation"][-TAIL:]),
                signature,
                hashes,
            )
            # Nothing in this answer waits for its copy in the cache (a fetch
            # that comes first renders it again), so the doorbell thread
            # stores it, not the request.  A board fetch's copy is handed
            # over now (a fetch right after this one looks for it); a
            # submit's answer only once it is sent (its version is new and
            # the mover's page has it: the thread would only slow the
            # answer, docs/performance.md).
            doorbells.later(functools.partial(_store, key, value), after_answer=fresh)
        part = history_fragment(request, game, seat, history)
    elif part is None:
        history = selectors.history_lines(game, selectors.load_state(game), seat.color)
        part = history_fragment(request, game, seat, history)
    since = since_fragment(since_last(game, seat, signature, quiet=quiet))
    # Only the parts the page's board lacks, when it says which it has
    # (games.boardpatch); else the whole board.
    patched = None
    if hashes is not None:
        have = boardpatch.parse_have(request.headers.get(boardpatch.PARTS_HEADER))
        if have is not None:
            cut = cut if cut is not None else boardpatch.split(html)
            changed = boardpatch.patch(cut[0], hashes, have) if cut is not None else None
            patched = None if changed is None else changed + cut[1]
    board = html if patched is None else patched
    body = board.replace(CSRF_MARK, get_token(request)) + part + since
    response = HttpResponse(body, status=status)
    if hashes is not None:
        response[boardpatch.PARTS_HEADER] = " ".join(hashes)
    if patched is not None:
        response[boardpatch.PATCH_HEADER] = "1"
    # For the benchmark and the operators: whether the board came from the cache.
    response["X-Wec-Board-Cache"] = "miss" if cached is None else "hit"
    return response
