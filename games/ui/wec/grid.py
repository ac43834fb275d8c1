"""The board grid: 100 Squares of three Levels, each with its tokens,
buttons and forms, written in Python.  This module is the grid's one source:
every page that shows a Wec board (the live board, the review, the
spectators' board, the sandbox, the board editor's preview) draws it through
the `{% wec_grid %}` tag (templatetags/wec_grid.py), which calls
`render_grid`.

Why not a template: a grid through the template engine (a `{% for %}` per
Square and Level, an `{% include %}` per token group) took about 16 ms, some
60% of a submit; written here it takes a fraction of a millisecond, and with
the Squares' HTML kept between renders (below) a board after an action
builds only the Squares that changed.  Every value that comes from data is
escaped (`_e`: what autoescaping does); every user-facing string is a
literal msgid in a `gettext` / `gettext_noop` call, so `makemessages` finds
it here, translated through the language's catalogue (`Catalogue`).
tests/site/test_site_grid.py checks the grid's content, escaping, languages
and memos.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from html import escape as _escape

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, gettext_noop, trans_real

from games import urlmemo
from games.boardpatch import PART_MARK

from .icons import article_icon, piece_icon
from .words import (
    article_abbr,
    article_name,
    color_name,
    level_name,
    piece_abbr,
    piece_name,
    piece_title,
)


def _attr(obj, name: str):
    """A field of a Choice (dataclass) or a key of a dict, None when absent."""
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _e(value) -> str:
    """`value` as HTML text, escaped (str() of lazy strings, ints as text).
    Plain str and int (nearly every value) skip Django's lazy-aware wrapper;
    html.escape is what django.utils.html.escape applies."""
    cls = value.__class__
    if cls is str:
        return _escape(value)
    if cls is int:
        return str(value)
    return conditional_escape(value)


def _bt(words: Catalogue, msgid: str, **values) -> str:
    """The translation of `msgid` (not escaped: the catalogue is trusted)
    with the values escaped put in; the msgid's own text when a
    translation's placeholders do not fit (as `{% blocktranslate %}` does)."""
    data = {k: _e(v) for k, v in values.items()}
    try:
        return words.tr(msgid) % data
    except (KeyError, ValueError):
        return msgid % data


class Catalogue:
    """Literal msgids translated into the active language, each looked up
    once (the base of the per-language word memos of the grid and the turn
    panel): `gettext` is an asgiref Local lookup per call, and a grid has
    some 400 labels."""

    def __init__(self):
        self._tr: dict[str, str] = {}

    def tr(self, msgid: str) -> str:
        """The translation of a literal msgid, as is (the catalogue is
        trusted text, as a template's `{% translate %}` of a literal is)."""
        out = self._tr.get(msgid)
        if out is None:
            out = self._tr[msgid] = gettext(msgid)
        return out

    def bt(self, msgid: str, **values) -> str:
        """The translation with `values` escaped and put in (see `_bt`)."""
        return _bt(self, msgid, **values)


class _Words(Catalogue):
    """The fixed strings, names and repeated fragments of one player's board
    in one language, translated and built once each and kept between renders
    (`_words()`): a board's 300 bands and 100 Square labels repeat the same
    few dozen strings, and an action changes only a few Squares, so a board
    after it builds only those.

    Kept per game and colour (the memos of rendered Squares, tokens and
    labels hold only what that player's own boards showed), so whether a
    Square is already built, and so a render's time, depends on nothing but
    that player's own view history."""

    LIMIT = 500  # entries per memo before it is emptied (a board has 100 Squares)

    def __init__(self):
        super().__init__()
        self._names = {}
        self.labels: dict = {}  # (msgid, values) -> the label with its values
        self.tokens: dict = {}  # piece keys -> the tokens' HTML
        self.squares: dict = {}  # a Square's _square_sig -> its HTML
        # Translations as they are (trusted text, not escaped).
        self.board_default = gettext("Board, seen from your side")
        self.enemy_changed = gettext("changed in the enemy's last turn")
        self.own_changed = gettext("changed by you this turn")
        self.fire_anyway = gettext("Fire anyway")
        self.rules_help = gettext("Rules & help")

    def name(self, fn, kind) -> str:
        """`fn(kind)` (fn one of words.py's names or icons.py's icons), escaped."""
        key = (fn, kind)
        out = self._names.get(key)
        if out is None:
            out = self._names[key] = conditional_escape(fn(kind))
        return out

    def level(self, level) -> str:
        return self.name(level_name, level)

    def label_at(self, msgid: str, r, c, level=None, kinds: tuple | None = None) -> str:
        """`_bt(msgid, r=r, c=c[, level=level's name][, pieces=names])` for a
        Square's coordinates, memoised (`kinds`: the pieces' types)."""
        key = (msgid, r, c, level, kinds)
        out = self.labels.get(key)
        if out is None:
            values = {"r": r, "c": c}
            if level is not None:
                values["level"] = level_name(level)
            if kinds is not None:
                values["pieces"] = ", ".join(str(piece_name(k)) for k in kinds)
            if len(self.labels) > self.LIMIT:
                self.labels.clear()
            out = self.labels[key] = _bt(self, msgid, **values)
        return out


class OwnerMemos:
    """Per-process memos, one per owner, the `kept` most recently used of
    them; `factory()` makes a new one.  The owner is a player's board (game
    id, game created, colour), so what a memo holds, and so a render's time,
    depends only on that player's own view history."""

    def __init__(self, kept: int, factory):
        self.kept = kept
        self.factory = factory
        self._memos: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def _key(self, owner):
        return owner

    def get(self, owner=None):
        key = self._key(owner)
        with self._lock:
            memo = self._memos.get(key)
            if memo is None:
                memo = self._memos[key] = self.factory()
                while len(self._memos) > self.kept:
                    self._memos.popitem(last=False)
            else:
                self._memos.move_to_end(key)
        return memo


class LanguageMemos(OwnerMemos):
    """OwnerMemos of words, one per (active language, catalogue object,
    owner): a new catalogue object, as tests may make, gets new memos."""

    def _key(self, owner):
        return (get_language(), id(trans_real.catalog()), owner)


_WORDS = LanguageMemos(32, _Words)  # players' boards whose memos a process keeps


def _words(owner=None) -> _Words:
    """The _Words of `owner` (game id, game created, colour) in the active language."""
    return _WORDS.get(owner)


def _piece_key(p) -> tuple:
    """Everything a token shows of one piece (its tooltip included)."""
    return (
        p.get("type"),
        p.get("color"),
        p.get("hand") or None,
        p.get("level") or "ground",
        bool(p.get("stun")),
        tuple(p.get("articles") or ()),
        tuple((b.get("cls"), b.get("text"), str(b.get("title", ""))) for b in p.get("badges") or ()),
    )


def _tokens_memo(pieces, words: _Words, help_url: str = "") -> str:
    """_tokens, memoised per language by what the pieces show."""
    try:
        key = (help_url, *(_piece_key(p) for p in pieces))
        out = words.tokens.get(key)
    except TypeError:  # an unhashable value in a made-up view: no memo
        return _tokens(pieces, words, help_url)
    if out is None:
        if len(words.tokens) > words.LIMIT:
            words.tokens.clear()
        out = words.tokens[key] = _tokens(pieces, words, help_url)
    return out


def _tokens(pieces, words: _Words, help_url: str = "") -> str:
    """The pieces' tokens (and a newline); with `help_url` each token is a
    link to its piece's entry in Rules & help."""
    out = []
    for p in pieces:
        kind = p.get("type")
        title = _e(piece_title(p))  # the tooltip filter's own phrases
        articles = p.get("articles")
        badges = p.get("badges") or ()
        level = p.get("level") or "ground"
        if help_url:
            out.append(
                f'<a class="tok-link" href="{help_url}#piece-{_e(kind)}" tabindex="-1" '
                f'aria-label="{words.rules_help}: {title}">'
            )
        out.append(
            f'<span class="tok tok-{_e(p.get("color"))} lvl-{_e(level)}{" stunned" if p.get("stun") else ""}" '
            f'title="{title}">{words.name(piece_icon, kind)}<span class="tag">{words.name(piece_abbr, kind)}</span>'
            f'{"<sup>+</sup>" if articles else ""}'
        )
        for b in badges:
            out.append(f'<span class="tb {_e(b.get("cls"))}" aria-hidden="true">{_e(b.get("text"))}</span>')
        out.append("</span></a>" if help_url else "</span>")
    out.append("\n")
    return "".join(out)


def _band(sq, band, ctx, words: _Words) -> str:
    level = band.get("level")
    lname = words.level(level)
    pieces = band.get("pieces")
    choices = band.get("choices")
    single = band.get("single")
    cls = "band band-" + _e(level)
    if pieces:
        cls += " has-pieces"
    if band.get("selected"):
        cls += " selected"
    if choices:
        cls += " is-target target-" + _e(ctx["mode"])
    out = [f'\n        <div class="{cls}" data-level="{_e(level)}" data-level-name="{lname}">\n          ']
    for pr in band.get("projectiles") or ():
        title = _e(pr.get("title"))
        out.append(
            f'<span class="proj{" proj-own" if pr.get("own") else ""}" data-kind="{_e(pr.get("kind"))}" '
            f'title="{title}" aria-label="{title}">{_e(pr.get("glyph"))}</span>'
        )
    out.append("\n          ")
    r, c, key = sq["row"], sq["col"], _e(band.get("key"))
    if single:
        confirm = ""
        if _attr(single, "confirm"):
            confirm = (
                f' data-confirm="{_e(_attr(single, "confirm"))}" data-confirm-danger="1" '
                f'data-confirm-yes="{words.fire_anyway}"'
            )
        if ctx["mode"] == "move":
            label = 'aria-label="' + words.label_at(gettext_noop("Move here: %(r)s,%(c)s %(level)s"), r, c, level) + '"'
        else:
            text = _e(_attr(single, "label"))
            label = f'aria-label="{text}" title="{text}"'
        out.append(
            f'\n          <form method="post" action="{ctx["act_url"]}" hx-post="{ctx["act_url"]}" hx-target="#board" '
            f'hx-swap="outerHTML" hx-disabled-elt="find button" class="fill"{confirm}>\n            '
            f'{ctx["csrf"]}\n            '
            f'<input type="hidden" name="action" value="{_e(_attr(single, "action_json"))}">\n            '
            f'<input type="hidden" name="version" value="{ctx["version"]}">\n            '
            f'<button type="submit" class="cell-btn target-btn" data-target="{key}" {label}>{_tokens_memo(pieces or (), words)}'
            f'{"" if pieces else _DOT}</button>\n          </form>\n          '
        )
    elif choices:
        if ctx["mode"] == "move":
            label = words.label_at(gettext_noop("Move here (choose how): %(r)s,%(c)s %(level)s"), r, c, level)
        else:
            label = words.label_at(gettext_noop("Here (choose how): %(r)s,%(c)s %(level)s"), r, c, level)
        out.append(
            f'\n          <button type="button" class="cell-btn target-btn" data-target="{key}" '
            f'hx-get="{ctx["board_url"]}?{ctx["sel_query"]}&amp;to={key}" hx-target="#board" hx-swap="outerHTML" '
            f'aria-label="{label}">{_tokens_memo(pieces or (), words)}{"" if pieces else _DOT}</button>\n          '
        )
    elif band.get("selectable"):
        selected = band.get("selected")
        label = words.label_at(
            gettext_noop("Your piece at %(r)s,%(c)s %(level)s: %(pieces)s"), r, c, level,
            tuple(p.get("type") for p in pieces or ()),
        )
        out.append(
            f'\n          <button type="button" class="cell-btn piece-btn" data-place="{key}" '
            f'hx-get="{ctx["board_url"]}?sel={"" if selected else key}" hx-target="#board" hx-swap="outerHTML" '
            f'aria-pressed="{"true" if selected else "false"}" aria-label="{label}">'
            f"{_tokens_memo(pieces or (), words)}</button>\n          "
        )
    elif pieces:
        out.append(f'\n          <span class="cell-static">{_tokens_memo(pieces, words, ctx["help_url"])}</span>\n          ')
    out.append("\n        </div>\n        ")
    return "".join(out)


_DOT = '<span class="dot" aria-hidden="true">●</span>'


def _square_sig(sq, ctx):
    """Everything a Square's HTML depends on, for a Square without targets
    (no forms or choice buttons: their actions, URLs, version and token are
    not in it); None for one with targets."""
    g = sq.get
    if g("is_target"):
        return None
    memo_key = g("memo_key")
    if memo_key is not None:
        # A Square from the live board's memo (games.ui.wec.board
        # build_board): its raw view items are its content; only the
        # highlights and the board's URL are set after it was built.  The
        # URL is in a selectable band's button, and a band is selectable
        # only on a Square whose key says it holds a selectable own piece
        # (memo_key[3]): keying by the URL whenever that is set is a key at
        # least as fine, without looking through the bands.
        return (
            "memo", memo_key, bool(g("hl_enemy")), bool(g("hl_own")), bool(g("hl_learn")),
            ctx["board_url"] if memo_key[3] else None,
        )
    bands = []
    url = None
    for b in g("bands") or ():
        bg = b.get
        if bg("choices") or bg("single"):
            return None
        pieces, projs = bg("pieces"), bg("projectiles")
        selectable = bool(bg("selectable"))
        if selectable:
            url = ctx["board_url"]
        bands.append((
            bg("level"),
            bg("key"),
            tuple(_piece_key(p) for p in pieces) if pieces else (),
            bool(bg("selected")),
            selectable,
            tuple((str(pr.get("title")), bool(pr.get("own")), pr.get("kind"), pr.get("glyph")) for pr in projs)
            if projs else (),
        ))
    return (
        sq["row"], sq["col"], bool(g("dark")), bool(g("hl_enemy")), bool(g("hl_own")), bool(g("hl_learn")),
        tuple((w.get("color"), w.get("type")) for w in g("reinf") or ()),
        tuple(a.get("type") for a in g("articles") or ()),
        tuple((m.get("type"), m.get("level")) for m in g("markers") or ()),
        tuple(bands), url,
    )


def _square(sq, ctx, words: _Words) -> str:
    """One Square; one without targets (nearly all of them) from the
    language's memo of Squares, keyed by everything it shows, so a board
    after an action builds only the Squares that changed."""
    try:
        sig = _square_sig(sq, ctx)
        out = words.squares.get(sig) if sig is not None else None
    except TypeError:  # an unhashable value in a made-up view: no memo
        return _render_square(sq, ctx, words)
    if out is None:
        out = _render_square(sq, ctx, words)
        if sig is not None:
            if len(words.squares) > words.LIMIT:
                words.squares.clear()
            words.squares[sig] = out
    return out


def _render_square(sq, ctx, words: _Words) -> str:
    r, c = sq["row"], sq["col"]
    cls = "sq dark" if sq.get("dark") else "sq light"
    if sq.get("is_target"):
        cls += " target"
    if sq.get("hl_enemy"):
        cls += " hl-enemy"
    if sq.get("hl_own"):
        cls += " hl-own"
    if sq.get("hl_learn"):
        cls += " hl-learn"
    label = words.label_at(gettext_noop("Square %(r)s,%(c)s"), r, c)
    if sq.get("hl_enemy"):
        label += ", " + words.enemy_changed
    if sq.get("hl_own"):
        label += ", " + words.own_changed
    out = [f'\n      <div class="{cls}" role="gridcell" data-row="{_e(r)}" data-col="{_e(c)}" aria-label="{label}">\n        ']
    for band in sq.get("bands") or ():
        out.append(_band(sq, band, ctx, words))
    out.append("\n        ")
    reinf = sq.get("reinf")
    if reinf:
        out.append('<div class="reinfs">')
        for w in reinf:
            color, kind = w.get("color"), w.get("type")
            if kind:
                title = _bt(words, gettext_noop("%(color)s reinforcement waiting: %(piece)s"),
                            color=color_name(color), piece=piece_name(kind))
            else:
                title = _bt(words, gettext_noop("%(color)s reinforcement waiting"), color=color_name(color))
            out.append(
                f'<span class="reinf reinf-{_e(color)}" title="{title}">{words.name(piece_abbr, kind) if kind else "R"}</span>'
            )
        out.append("</div>")
    out.append("\n        ")
    articles, markers = sq.get("articles"), sq.get("markers")
    if articles or markers:
        out.append('\n        <div class="arts">\n          ')
        for a in articles or ():
            kind = a.get("type")
            name = words.name(article_name, kind)
            out.append(
                f'<a class="art" href="{ctx["help_url"]}#article-{_e(kind)}" tabindex="-1" title="{name}" '
                f'aria-label="{words.rules_help}: {name}">{words.name(article_icon, kind)}'
                f'<span class="tag">{words.name(article_abbr, kind)}</span></a>'
            )
        out.append("\n          ")
        for m in markers or ():
            text = _bt(
                words,
                gettext_noop("Marker: an enemy %(piece)s went out of sight here (%(level)s)"),
                piece=piece_name(m.get("type")),
                level=level_name(m.get("level")),
            )
            out.append(f'<span class="marker" role="img" title="{text}" aria-label="{text}">◆</span>')
        out.append("\n        </div>\n        ")
    out.append("\n      </div>\n      ")
    return "".join(out)


def csrf_input(context) -> str:
    """The CSRF token's hidden field for `context` (a dict or a Context), as
    `{% csrf_token %}` writes it (nothing without a token)."""
    token = context.get("csrf_token")
    if token and token != "NOTPROVIDED":
        return f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(token)}">'
    return ""


#: What `render_grid` reads of its context.
GRID_KEYS = ("board", "color", "board_label", "act_url", "board_url", "sel_query", "seat", "csrf_token", "game")


def render_grid(context, marks: bool = False, segments: list | None = None) -> SafeString:
    """The grid for `context` (a dict or a Context): `board` (board.py's
    build_board), `color` (the side it is seen from), `board_label` (its
    accessible name; the default says it is the player's own), `act_url`,
    `board_url`, `sel_query`, `seat` (its `version` goes into the forms) and
    `csrf_token`.

    `marks`: the player's live board (`game` is then read too): PART_MARK
    before each Square and after the last (its parts, games.boardpatch), and
    the Squares kept in that player's own memo (game, creation time,
    colour).  Every other grid (a review, the spectators' board, the
    sandbox, the editor) uses the language's shared memo, so that what a
    player's memo holds, and so how long their board takes, depends only on
    their own boards.  `segments` (with `marks`): filled with the grid's text
    between its marks, the very strings `str.split(PART_MARK)` of the grid
    would give, most of them the kept Squares themselves (their hashes are
    known)."""
    get = context.get
    board = get("board") or {}
    seat = get("seat")
    csrf = csrf_input(context)
    ctx = {
        "mode": board.get("mode"),
        "act_url": _e(get("act_url") or ""),
        "board_url": _e(get("board_url") or ""),
        "sel_query": _e(get("sel_query") or ""),
        "version": _e(getattr(seat, "version", "")) if seat is not None else "",
        "csrf": csrf,
        "help_url": _e(urlmemo.url("help")),
    }
    game = get("game") if marks else None
    owner = (game.pk, str(game.created), get("color")) if getattr(game, "pk", None) is not None else None
    words = _words(owner)
    label = get("board_label")
    out = [
        f'\n  <div class="board board-{_e(get("color") or "")}" role="grid" '
        f'aria-label="{_e(label) if label else words.board_default}">\n    '
    ]
    if segments is None:
        segments = []
    _segments(board, ctx, words, out, segments)
    return mark_safe((PART_MARK if marks else "").join(segments))


def _files(board) -> str:
    out = ['\n    <div class="rank files" aria-hidden="true">\n      <span class="coord"></span>\n      ']
    for c in board.get("cols") or ():
        out.append(f'<span class="coord file-coord">{_e(c)}</span>')
    out.append("\n    </div>\n  </div>\n")
    return "".join(out)


def _segments(board, ctx, words: _Words, head: list, segments: list) -> None:
    """Put into `segments` the grid's text between the places of its marks:
    `head`, then each Square with what follows it up to the next, then the
    file letters."""
    pending = head  # the text since the last mark
    for line in board.get("grid") or ():
        pending.append(
            f'\n    <div class="rank" role="row">\n      <span class="coord rank-coord" aria-hidden="true">'
            f'{_e(line["row"])}</span>\n      '
        )
        for sq in line["squares"]:
            segments.append(pending[0] if len(pending) == 1 else "".join(pending))
            pending = [_square(sq, ctx, words)]
        pending.append("\n    </div>\n    ")
    segments.append(pending[0] if len(pending) == 1 else "".join(pending))
    segments.append(_files(board))
