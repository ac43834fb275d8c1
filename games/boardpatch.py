"""A live board answered as its changed parts.

A live board can be large (Wec's is ~100 KB of HTML), and after an action
most of it is what the page already shows: of a Wec board's 100 Squares only
those whose content changed differ.  A game's board partial may be cut into
parts by comments (`PART_MARK` before each part and after the last one,
`END_MARK` before the closing tag: Wec's grid, games/ui/wec/grid.py, puts
one before each Square), and every answer of such a board says what its
parts are in the `X-Wec-Parts` header: a short hash of each part, in order.
A board without the marks is always answered whole.

A page sends that header back with its next board request (the hashes of
the board it shows, as it was received: static/js/game.js keeps the
received HTML, not the DOM the script has changed since).  When the new
board has as many parts, the answer is only the parts whose hash differs,
each after `<!--s:N-->`, then the rest of the answer as usual (from
END_MARK: the board's closing tag, the record lines, the since-last data),
with `X-Wec-Patch: 1`.  The page puts the parts it kept and the new ones
together, joined by PART_MARK, which gives the very HTML a full answer
would have had (up to the CSRF tokens, which are per request anyway), and
swaps that in as it swaps a full answer.  Anything else (no header, a
different number of parts, a malformed header) gets the whole board.

Nothing here depends on anything but the player's own boards: the hashes
are of the HTML that player is sent, and which parts are sent depends on
the board the page shows and the new one.
"""

from __future__ import annotations

import hashlib
import re

# Between the parts of a live board: before each part and after the last one.
# HTML comments, so the page's DOM is the same with or without the answer
# being patched.
PART_MARK = "<!--s-->"
END_MARK = "<!--e-->"
PARTS_HEADER = "X-Wec-Parts"
PATCH_HEADER = "X-Wec-Patch"
# At most this many parts in a header a page sends (a Wec board has 102).
MAX_PARTS = 256
_HASH = re.compile(r"[0-9a-f]{12}")


class CutHTML(str):
    """A board's HTML that comes with its parts already cut (`cut`, what
    `split` would give), from a renderer that built it from them
    (`with_parts`): most parts are then the very strings kept for the
    player's Squares, whose hashes Python already knows."""

    cut: tuple[list[str], str] | None = None


def with_parts(html: str, parts: list[str]) -> str:
    """`html` as a CutHTML carrying its parts, given the text between its
    marks as the renderer wrote it (`PART_MARK.join(parts)` is in `html`,
    from before its first part's end to its last part's start: Wec's grid
    fills `parts` so).  The middle parts are those very strings; the first
    and the last take in the HTML around them.  `html` unchanged when the
    parts do not fit it (nothing was filled in, or the marks are not where
    the parts say)."""
    if len(parts) < 2:
        return html
    first = html.find(PART_MARK)
    end = html.find(END_MARK, max(first, 0))
    last = html.rfind(PART_MARK, 0, end)
    inner = parts[1:-1]
    if first < 0 or end < 0 or last - first != len(PART_MARK) * len(inner) + sum(map(len, inner)):
        return html
    out = CutHTML(html)
    out.cut = ([html[:first], *inner, html[last + len(PART_MARK):end]], html[end:])
    return out


def split(html: str) -> tuple[list[str], str] | None:
    """(the parts of a board's HTML, the rest from END_MARK on), or None for
    HTML that is not cut into parts (another game's board, a review)."""
    end = html.find(END_MARK)
    if end < 0 or PART_MARK not in html:
        return None
    return html[:end].split(PART_MARK), html[end:]


# Per player (game, colour): the digest of each part already hashed, by the
# part's own Python hash (a board after an action repeats most of the parts
# of the one before, and blake2b over ~100 KB of mostly unchanged HTML was
# half a millisecond per answer).  Kept per player, as Wec's grid keeps
# its Squares, so that how long an answer takes depends only on that
# player's own boards.
_KNOWN: dict[tuple, dict[int, str]] = {}
_KNOWN_PLAYERS = 32
_KNOWN_PARTS = 2048


def digests(parts: list[str], owner: tuple | None = None) -> list[str]:
    """A 48-bit hash of each part (a wrong part kept by a collision would
    need two different Squares of one player's boards to collide); `owner`
    (game id, creation time, colour) keeps the player's digests between
    answers."""
    if owner is None:
        return [hashlib.blake2b(part.encode(), digest_size=6).hexdigest() for part in parts]
    known = _KNOWN.get(owner)
    if known is None:
        if len(_KNOWN) >= _KNOWN_PLAYERS:
            _KNOWN.pop(next(iter(_KNOWN)), None)
        known = _KNOWN[owner] = {}
    elif len(known) > _KNOWN_PARTS:
        known.clear()
    out = []
    for part in parts:
        key = hash(part)
        digest = known.get(key)
        if digest is None:
            digest = known[key] = hashlib.blake2b(part.encode(), digest_size=6).hexdigest()
        out.append(digest)
    return out


def parse_have(value: str | None) -> list[str] | None:
    """The hashes a page says its board has, or None when absent or malformed."""
    if not value:
        return None
    have = value.split(" ")
    if len(have) > MAX_PARTS or not all(_HASH.fullmatch(h) for h in have):
        return None
    return have


def patch(parts: list[str], hashes: list[str], have: list[str] | None) -> str | None:
    """The changed parts, each after its `<!--s:N-->`, for a page whose board
    has the parts `have`; None when the page's board is not known well
    enough to patch (it then gets the whole board)."""
    if have is None or len(have) != len(parts):
        return None
    return "".join(f"<!--s:{i}-->{part}" for i, (part, h, old) in enumerate(zip(parts, hashes, have, strict=True)) if h != old)


def apply(parts: list[str], body: str) -> tuple[list[str], str]:
    """What the page does with a patched answer `body`, given the parts of
    the board it showed: (the new board's parts, the rest from END_MARK).
    For tests and the benchmark's client."""
    end = body.index(END_MARK)
    new = list(parts)
    for chunk in body[:end].split("<!--s:")[1:]:
        index, _sep, text = chunk.partition("-->")
        new[int(index)] = text
    return new, body[end:]
