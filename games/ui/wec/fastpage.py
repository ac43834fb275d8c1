"""The live board partial (templates/games/wec/board.html) built in Python
(issue 12): its header, turn line, clocks, turn panel, controls and the
parts around the grid, byte for byte what the template writes.

After the grid went to Python (grid.py), the rest of board.html was
still a third of a submit's rendering: some fifty template nodes, five
includes and a dozen `{% url %}` per board, every one of them walked on
every answer.  Here the same markup is written by string building, every
value that comes from data escaped as autoescaping does and every
user-facing string taken from the same catalogue entries as the template's
(`gettext` of the very msgids, so `makemessages` still finds them in the
templates, which stay the reference).

What is rare and large is still the template's own output, rendered from
here with the same context: the review (replay.html), a selected piece's
action panel (action_panel.html) and running or banked clocks
(clocks.html). The parts that depend on the language only (the level
buttons, the Square zoom, the legend) are the template's `{% once %}`
blocks, rendered once per language.

tests/site/test_site_fastpage.py renders both over real games (every
colour, selection, mode, choice, take-back, draw offer, ended games, all
four languages) and made-up contexts; tests/conftest.py also checks every
board the site tests render through this module against the template.  A
change to board.html or the partials it includes must be made here too.
"""

from __future__ import annotations

from django.template import Context, engines
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

from games import urlmemo
from games.boardpatch import END_MARK, CutHTML
from games.templatetags.clock_time import clock_label

from .grid import Catalogue, LanguageMemos, csrf_input, render_grid
from .grid import escape_value as _e
from .templatetags.wec_fastboard import OnceNode
from .words import color_name, level_name, piece_name, reason_name

BOARD_TEMPLATE = "games/wec/board.html"

_MISSING = object()


def _get(obj, name: str):
    """`{{ obj.name }}` as the template resolves it: a key, then an
    attribute; _MISSING when neither (the template then writes "")."""
    if obj is None or obj is _MISSING:
        return _MISSING
    if isinstance(obj, dict):
        return obj.get(name, _MISSING)
    value = getattr(obj, name, _MISSING)
    if callable(value) and value is not _MISSING and not getattr(value, "do_not_call_in_templates", False):
        try:
            value = value()
        except TypeError:
            return _MISSING
    return value


def _s(value) -> str:
    """`{{ value }}`: escaped text ("" for a missing value)."""
    return "" if value is _MISSING else _e(value)


def _t(value) -> bool:
    """`{% if value %}`."""
    return value is not _MISSING and bool(value)


class _Words(Catalogue):
    """The fixed strings of one language, translated once (`_words`)."""

    def __init__(self):
        super().__init__()
        self.help_url = _e(urlmemo.url("help"))
        self.once: dict = {}  # the board template's `{% once %}` blocks in this language

    def bt(self, msgid: str, **values) -> str:
        """`{% blocktranslate with k=v %}`, a missing value as ""."""
        return super().bt(msgid, **{k: ("" if v is _MISSING else v) for k, v in values.items()})


_WORDS = LanguageMemos(16, _Words)


def _words() -> _Words:
    return _WORDS.get()


def _template(name: str):
    """The compiled template (the loader's cache keeps it)."""
    return engines["django"].get_template(name).template


def _include(name: str, context: dict, **extra) -> str:
    """`{% include name %}` (with `extra` as its `with`): the template's own
    output for what this module does not build."""
    return _template(name).render(Context({**context, **extra}))


_ONCE_NODES: dict = {}


def _once(name: str, w: _Words) -> str:
    """The board template's `{% once name %}` block (language only), kept in
    the language's words: the node's own memo is keyed by the language too,
    but asking it costs a Context and two asgiref Local lookups a block."""
    out = w.once.get(name)
    if out is None:
        node = _ONCE_NODES.get(name)
        if node is None:
            for found in _template(BOARD_TEMPLATE).nodelist.get_nodes_by_type(OnceNode):
                _ONCE_NODES[found.name] = found
            node = _ONCE_NODES[name]
        out = w.once[name] = node.render(Context({}))
    return out


def render_board(context: dict) -> str:
    """board.html for the template context `context` (board_context's)."""
    w = _words()
    game = context.get("game")
    status = _get(game, "status")
    seat = context.get("seat")
    version = _s(_get(seat, "version"))
    csrf = csrf_input(context)
    color = context.get("color")
    opponent = context.get("opponent")
    view = context.get("view")
    pk = _get(game, "pk")
    out = [
        '\n<section id="board" class="board-wrap" data-title="',
        _tab_title(context, w, game, status, opponent),
        f'" data-version="{version}" data-query="{_s(context.get("sel_query", _MISSING))}" '
        f'data-status="{_s(status)}" data-selected="{_s(context.get("selected_key", _MISSING))}" '
        'aria-labelledby="board-h">\n  <header class="game-head">\n    <h1 id="board-h">',
        w.bt("Game %(id)s", id=pk),
        "</h1>\n    <p class=\"players\">\n      ",
        w.bt("You play %(color)s", color=color_name(color)),
        "\n      ",
        w.bt("against %(name)s", name=_get(opponent, "shown_name")) if _t(opponent)
        else "— " + w.tr("waiting for an opponent"),
        '\n    </p>\n    <p class="turn-line" id="turn-status" role="status">\n      ',
    ]
    if status == "finished":
        result = _get(game, "result")
        winner = _get(result, "winner")
        reason = _get(result, "reason")
        if winner == color:
            said = w.tr("You won.")
        elif _t(winner):
            said = w.tr("You lost.")
        else:
            said = w.tr("Drawn.")
        out.append(
            f"\n        <strong>{w.tr('Game over.')}</strong>\n        {said}\n        "
            f"{'(' + _e(reason_name(reason)) + ')' if _t(reason) else ''}\n      "
        )
    elif status == "open":
        out.append(f"\n        {w.tr('Waiting for someone to accept your seek.')}\n      ")
    elif _t(context.get("my_turn", _MISSING)):
        if _t(_get(_get(view, "turn"), "moved")):
            what = "— " + w.tr("you have moved; end your turn when ready.")
        else:
            what = "— " + w.tr("pick one of your pieces to move it or see what else it can do.")
        out.append(f'\n        <strong class="your-turn-flag">{w.tr("Your turn")}</strong>\n        {what}\n      ')
    else:
        out.append(
            '\n        <span class="their-turn-flag">'
            + w.bt("%(color)s to move", color=color_name(_get(game, "to_move")))
            + "</span>\n        — " + w.tr("waiting for your opponent.") + "\n      "
        )
    out.append('\n      <span class="muted">')
    out.append(w.bt("Turn %(n)s", n=_get(view, "turn_number")))
    out.append("</span>\n    </p>\n    ")
    out.append(_clocks(context, w, game, status))
    out.append("\n    ")
    highlight_text = context.get("highlight_text", _MISSING)
    if _t(highlight_text):
        hl = context.get("highlights", _MISSING)
        out.append('<p class="changes small" id="changes">')
        if _t(_get(hl, "enemy_count")):
            out.append('<span class="hl-key enemy" aria-hidden="true"></span>'
                       + w.tr("outlined red: the enemy's last turn"))
        if _t(_get(hl, "own_count")):
            out.append(' <span class="hl-key own" aria-hidden="true"></span>'
                       + w.tr("outlined blue: your actions this turn"))
        out.append(f" — {_e(highlight_text)}</p>")
    since_text = _get(context.get("since_last", _MISSING), "text")
    out.append(
        '\n    <p class="changes since-last small" id="since-last-text"'
        f'{"" if _t(since_text) else " hidden"}><span class="hl-key seen" aria-hidden="true"></span>'
        f"{_s(since_text)}</p>\n    "
    )
    error = context.get("error", _MISSING)
    if _t(error):
        out.append(f'<p class="error" role="alert" id="board-error">{_e(error)}</p>')
    out.append("\n    ")
    if _t(_get(game, "needs_attention")) and status == "active":
        out.append(
            '<p class="notice" role="status" id="attention-notice">'
            + w.tr("The server AI is having trouble with this game. "
                   "The operators have been told and will look into it.")
            + "</p>"
        )
    out.append('\n  </header>\n\n  <div class="board-area">\n  ')
    review = context.get("review", _MISSING)
    if not _t(review):
        out.append(_once("wec-level-bar", w))
    out.append("\n  ")
    if not _t(review):
        out.append(_once("wec-square-zoom", w))
    out.append("\n  ")
    if _t(review):
        out.append(_include("games/wec/replay.html", context))
    else:
        out.append(
            '<div class="board-scroll" data-keep-scroll="board" tabindex="0" role="region" aria-label="'
            + w.tr("Board (scrolls sideways on small screens)") + '">'
        )
        segments: list[str] = []
        grid_at = len(out)
        out.append(render_grid(context, marks=True, segments=segments))
        arrows = context.get("arrows", _MISSING)
        if _t(_get(arrows, "arrows")):
            out.append(_arrows(arrows, w))
        out.append("</div>")
    out.append('\n  </div>\n\n  <div class="controls">\n    ')
    act_url = _s(context.get("act_url", _MISSING))
    choice = context.get("choice", _MISSING)
    if _t(choice):
        out.append(
            '\n    <div class="choice-panel" role="group" aria-labelledby="choice-h">\n      '
            f'<h2 id="choice-h">{_s(_get(choice, "title"))}</h2>\n      '
        )
        for ch in _get(choice, "choices") or ():
            confirm = _get(ch, "confirm")
            out.append(
                f'\n      <form method="post" action="{act_url}" hx-post="{act_url}" hx-target="#board" '
                'hx-swap="outerHTML" hx-disabled-elt="find button" class="inline"'
                + (f' data-confirm="{_e(confirm)}" data-confirm-danger="1" data-confirm-yes="{w.tr("Fire anyway")}"'
                   if _t(confirm) else "")
                + f'>\n        {csrf}\n        <input type="hidden" name="action" value="{_s(_get(ch, "action_json"))}">'
                f'\n        <input type="hidden" name="version" value="{version}">\n        '
                f'<button type="submit" class="choice-btn">{_s(_get(ch, "label"))}</button>\n      </form>\n      '
            )
        out.append("\n    </div>\n    ")
    out.append("\n    ")
    selected = context.get("selected", _MISSING)
    if _t(selected):
        out.append(_selection(context, w, selected))
    out.append("\n    ")
    if _t(context.get("panel", _MISSING)):
        out.append(_include("games/wec/action_panel.html", context))
    out.append("\n    ")
    turn_panel = context.get("turn_panel", _MISSING)
    if _t(turn_panel):
        out.append(_turn_panel(turn_panel, w, act_url, version, csrf))
    out.append("\n    ")
    takeback = context.get("takeback", _MISSING)
    if _t(takeback):
        out.append(_takeback(takeback, w, pk, version, csrf))
    out.append("\n    ")
    if status == "active":
        out.append(
            '\n    <div class="turn-buttons">\n      '
            f'<form method="post" action="{_e(urlmemo.url("resign", pk))}" class="inline" '
            f'data-confirm="{w.tr("Resign this game?")}" data-confirm-yes="{w.tr("Resign")}" '
            f'data-confirm-danger="1">\n        {csrf}<button type="submit" class="secondary">{w.tr("Resign")}'
            "</button>\n      </form>\n    </div>\n    "
        )
    out.append("\n    ")
    out.append(_club_controls(game, status, color, pk, w, csrf))
    out.append("\n  </div>\n\n  ")
    out.append(_once("wec-legend", w))
    out.append("\n<!--e--></section>\n")
    if _t(review):
        return mark_safe("".join(out))
    # The parts games.boardpatch cuts the board into, from the grid's own
    # segments: no cutting, and the kept Squares' hashes are known.
    prefix, suffix = "".join(out[:grid_at]), "".join(out[grid_at + 1:])
    html = CutHTML(prefix + out[grid_at] + suffix)
    end = suffix.find(END_MARK)
    if len(segments) > 1 and end >= 0:
        html.cut = ([prefix + segments[0], *segments[1:-1], segments[-1] + suffix[:end]], suffix[end:])
    return html


def _tab_title(context: dict, w: _Words, game, status, opponent) -> str:
    """templates/games/partials/tab_title.html."""
    if status == "finished":
        out = w.tr("Game over")
    elif status == "open":
        out = w.tr("Waiting for an opponent")
    elif _t(context.get("my_turn", _MISSING)):
        out = "▶ " + w.tr("Your turn")
    else:
        out = w.bt("%(color)s to move", color=color_name(_get(game, "to_move")))
    if _t(opponent):
        out += " · " + w.bt("vs %(name)s", name=_get(opponent, "shown_name"))
    return out + " · " + w.bt("Game %(id)s", id=_get(game, "pk")) + " · " + w.tr("Wec Online")


def _clocks(context: dict, w: _Words, game, status) -> str:
    """templates/games/partials/clocks.html: written here when no clock is
    shown (no time limit, no bank, nobody on vacation); else the template's."""
    days = _get(game, "days_per_move")
    increment = _get(game, "increment_hours")
    clocks = context.get("clocks", _MISSING)
    if (
        days is _MISSING
        or _t(days)
        or (increment is not _MISSING and increment is not None)
        or (status == "active" and any(_t(_get(c, "on_vacation")) for c in (clocks if _t(clocks) else ())))
    ):
        return _include("games/partials/clocks.html", context)
    out = f'\n<div class="clocks" id="clocks">\n  <span class="clock-mode">{_e(clock_label(days))}</span>\n  '
    if status == "active":
        out += "\n  \n  "
    return out + "\n</div>\n"


def _selection(context: dict, w: _Words, selected) -> str:
    """board.html's line about the selected piece."""
    mode = context.get("mode", _MISSING)
    board_url = _s(context.get("board_url", _MISSING))
    selected_key = _s(context.get("selected_key", _MISSING))
    out = [
        '\n    <p class="selection">\n      ',
        w.bt("Selected %(r)s,%(c)s (%(level)s).", r=selected[0], c=selected[1], level=level_name(selected[2])),
        "\n      ",
    ]
    weapon = context.get("mode_weapon", _MISSING)
    if mode == "aim":
        out.append(w.bt("Orange squares: click one to fire the %(weapon)s that way.", weapon=weapon) + "\n      ")
    elif mode == "dest":
        out.append(w.bt("Blue squares: click one to send the piece there by %(weapon)s.", weapon=weapon)
                   + "\n      ")
    elif not _t(context.get("selected_has_targets", _MISSING)):
        out.append(w.tr("That piece cannot move now."))
    else:
        out.append(w.tr("Highlighted squares are where it can go."))
    out.append("\n      ")
    if not _t(mode):
        out.append(
            f'<a class="help-ref" href="{w.help_url}#action-move" aria-label="{w.tr("Rules & help")}: '
            f'{w.tr("Move")}">?</a>'
        )
    out.append("\n      ")
    for kind in context.get("selected_kinds") or ():
        out.append(
            f'<a class="help-ref about-piece" href="{w.help_url}#piece-{_e(kind)}">'
            + w.bt("About the %(piece)s", piece=piece_name(kind)) + "</a>"
        )
    out.append("\n      ")
    if _t(mode):
        out.append(
            f'<button type="button" class="secondary" id="cancel-mode" hx-get="{board_url}?sel={selected_key}" '
            f'hx-target="#board" hx-swap="outerHTML">{w.tr("Back to moving")}</button>'
        )
    out.append(
        f'\n      <button type="button" class="secondary" id="clear-selection" hx-get="{board_url}" '
        f'hx-target="#board" hx-swap="outerHTML">{w.tr("Clear selection")}</button>\n    </p>\n    '
    )
    return "".join(out)


def _action_button(ch, w: _Words, act_url: str, version: str, csrf: str, btn_class: str = "secondary") -> str:
    """templates/games/wec/action_button.html."""
    confirm = _get(ch, "confirm")
    short = _get(ch, "short")
    label = _s(_get(ch, "label"))
    return (
        f'<form method="post" action="{act_url}" hx-post="{act_url}" hx-target="#board" hx-swap="outerHTML" '
        'hx-disabled-elt="find button" class="inline act-form"'
        + (f' data-confirm="{_e(confirm)}" data-confirm-danger="1" data-confirm-yes="{w.tr("Fire anyway")}"'
           if _t(confirm) else "")
        + f'>\n  {csrf}\n  <input type="hidden" name="action" value="{_s(_get(ch, "action_json"))}">\n  '
        f'<input type="hidden" name="version" value="{version}">\n  '
        f'<button type="submit" class="{btn_class} act-btn" data-kind="{_s(_get(_get(ch, "action"), "type"))}"'
        + (' data-own-fire="1"' if _t(confirm) else "")
        + (f' aria-label="{label}" title="{label}"' if _t(short) else "")
        + f">{_e(short) if _t(short) else label}</button>\n</form>\n"
    )


def _help_ref(w: _Words, anchor: str, what: str) -> str:
    return f'<a class="help-ref" href="{w.help_url}#{anchor}" aria-label="{w.tr("Rules & help")}: {what}">?</a>'


def _turn_panel(panel, w: _Words, act_url: str, version: str, csrf: str) -> str:
    """templates/games/wec/turn_panel.html."""
    out = [
        '\n<section class="turn-panel" id="turn-panel" aria-labelledby="turn-panel-h">\n  '
        f'<h2 id="turn-panel-h">{w.tr("This turn")} {_help_ref(w, "actions", w.tr("Actions"))}</h2>\n  '
        '<ul class="turn-items">\n    '
    ]
    for item in _get(panel, "items") or ():
        out.append(
            f'\n    <li class="{"done" if _t(_get(item, "done")) else ""}" data-item="{_s(_get(item, "key"))}">'
            f'<span class="ti-label">{_s(_get(item, "label"))}</span> '
            f'<span class="ti-state">{_s(_get(item, "text"))}</span></li>\n    '
        )
    out.append("\n  </ul>\n  ")
    ready = _get(panel, "reinforcements")
    if _t(ready):
        out.append(
            '\n  <div class="act-group" data-group="reinforce"><h3>'
            f'{w.tr("Reinforcements ready")} {_help_ref(w, "action-reinforce", w.tr("Reinforce"))}</h3>\n    '
        )
        for ch in ready:
            out.append(_action_button(ch, w, act_url, version, csrf))
        out.append("\n  </div>\n  ")
    out.append("\n  ")
    waiting = _get(panel, "waiting")
    if _t(waiting):
        out.append(
            f'\n  <details class="small" data-keep="waiting"><summary>{w.tr("Reinforcements waiting")}</summary>'
            "\n    <ul>"
        )
        for item in waiting:
            out.append(f"<li>{_s(_get(item, 'label'))}</li>")
        out.append("</ul>\n  </details>\n  ")
    out.append("\n  ")
    end_help = _help_ref(w, "action-end_turn", w.tr("End turn"))
    if _t(_get(panel, "can_end_turn")):
        out.append(
            f'\n  <form method="post" action="{act_url}" hx-post="{act_url}" hx-target="#board" '
            'hx-swap="outerHTML" hx-disabled-elt="find button" class="inline end-turn-form" '
            f'data-confirm="{w.tr("End your turn now? You cannot act again until your opponent has played.")}" '
            f'data-confirm-yes="{w.tr("End turn")}">\n    {csrf}\n    '
            f'<input type="hidden" name="action" value="{_s(_get(_get(panel, "end_turn"), "action_json"))}">\n    '
            f'<input type="hidden" name="version" value="{version}">\n    '
            f'<button type="submit" id="end-turn" class="primary">{w.tr("End turn")}</button>\n  </form>\n  '
            f"{end_help}\n  "
        )
    else:
        out.append(
            f'\n  <p class="small muted">{w.tr("Make your Move to be able to end the turn.")} {end_help}</p>\n  '
        )
    out.append("\n</section>\n")
    return "".join(out)


_ARROW_DEFS = (
    '\n<svg class="board-arrows" aria-hidden="true" focusable="false">\n  <defs>\n'
    '    <marker id="ah-enemy" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
    'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="ah ah-enemy"/></marker>\n'
    '    <marker id="ah-own" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
    'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="ah ah-own"/></marker>\n'
    '    <marker id="sh-enemy" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" markerHeight="5">'
    '<path d="M1,1 L9,9 M9,1 L1,9" class="sh sh-enemy"/></marker>\n'
    '    <marker id="sh-own" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="5" markerHeight="5">'
    '<path d="M1,1 L9,9 M9,1 L1,9" class="sh sh-own"/></marker>\n  </defs>\n  '
)


def _arrows(arrows, w: _Words) -> str:
    """templates/games/wec/arrows.html."""
    out = [_ARROW_DEFS]
    for a in _get(arrows, "arrows") or ():
        side, kind = _s(_get(a, "side")), _get(a, "kind")
        out.append(
            f'<line class="arrow arrow-{side} arrow-{_s(kind)}" data-from="{_s(_get(a, "from_key"))}" '
            f'data-to="{_s(_get(a, "to_key"))}" x1="0" y1="0" x2="0" y2="0" '
            f'marker-end="url(#{"sh" if kind == "shot" else "ah"}-{side})"/>'
        )
    out.append('\n</svg>\n<div class="sr-only" id="arrows-text">\n  ')
    enemy, own = _get(arrows, "enemy"), _get(arrows, "own")
    if _t(enemy):
        said = w.tr("The enemy's last turn, as you saw it:")
        out.append(f"<p>{said} {_join(enemy)}.</p>")
    out.append("\n  ")
    if _t(own):
        out.append(f"<p>{w.tr('Your actions this turn:')} {_join(own)}.</p>")
    out.append("\n</div>\n")
    return "".join(out)


def _join(items) -> str:
    """`{{ items|join:"; " }}` with autoescaping."""
    return "; ".join(conditional_escape(x) for x in items)


def _takeback(tb, w: _Words, pk, version: str, csrf: str) -> str:
    """templates/games/partials/takeback.html."""
    out = ['\n<div class="takeback-controls" id="takeback-controls">\n  ']
    if _t(_get(tb, "can_take_back")):
        url = _e(urlmemo.url("take_back", pk))
        out.append(
            f'\n  <form method="post" action="{url}" hx-post="{url}" hx-target="#board" hx-swap="outerHTML" '
            'hx-disabled-elt="find button" class="inline" id="take-back-form">\n    '
            f'{csrf}\n    <input type="hidden" name="version" value="{version}">\n    '
            '<input type="hidden" name="steps" value="1">\n    '
            '<button type="submit" class="secondary" id="take-back" aria-keyshortcuts="u">'
            f'{w.tr("Take back your last action")}</button>\n  </form>\n  '
        )
    out.append("\n  ")
    undo_url = _e(urlmemo.url("undo_request", pk))
    can_request = _t(_get(tb, "can_request"))
    if can_request or _t(_get(tb, "requested_by_me")):
        out.append(f'\n  <form method="post" action="{undo_url}" class="inline" id="undo-form">\n    {csrf}\n    ')
        if can_request:
            out.append(
                '\n    <input type="hidden" name="answer" value="request">\n    '
                '<button type="submit" class="secondary" id="request-undo">'
                f'{w.tr("Ask your opponent to undo your last turn")}</button>\n    '
            )
        else:
            out.append(
                f'\n    <span id="undo-status">{w.tr("You asked your opponent to undo your last turn.")}</span>\n    '
                '<input type="hidden" name="answer" value="decline">\n    '
                f'<button type="submit" class="secondary" id="withdraw-undo">{w.tr("Withdraw the request")}'
                "</button>\n    "
            )
        out.append("\n  </form>\n  ")
    elif _t(_get(tb, "requested_by_opponent")):
        out.append(
            f'\n  <p><strong id="undo-status">{w.tr("Your opponent asks you to undo their last turn.")}'
            "</strong></p>\n  "
        )
        if _t(_get(tb, "can_grant")):
            out.append(
                f'\n  <form method="post" action="{undo_url}" class="inline" id="grant-undo-form" '
                f'data-confirm="{w.tr("Undo your opponent’s last turn? Any actions you took this turn are cancelled too.")}" '
                f'data-confirm-yes="{w.tr("Grant the undo")}">\n    '
                f'{csrf}<input type="hidden" name="answer" value="grant">\n    '
                f'<button type="submit" id="grant-undo">{w.tr("Grant the undo")}</button>\n  </form>\n  '
            )
        out.append(
            f'\n  <form method="post" action="{undo_url}" class="inline" id="decline-undo-form">\n    '
            f'{csrf}<input type="hidden" name="answer" value="decline">\n    '
            f'<button type="submit" class="secondary" id="decline-undo">{w.tr("Decline")}</button>\n  </form>\n  '
        )
    out.append("\n</div>\n")
    return "".join(out)


def _club_controls(game, status, color, pk, w: _Words, csrf: str) -> str:
    """templates/games/partials/club_controls.html."""
    out = ["\n"]
    if status == "active":
        offer = _get(game, "draw_offer")
        out.append(
            '\n<div class="draw-controls" id="draw-controls">\n  '
            f'<form method="post" action="{_e(urlmemo.url("draw", pk))}" class="inline">{csrf}\n  '
        )
        if not _t(offer):
            out.append(
                '\n    <button type="submit" name="answer" value="offer" class="secondary" id="offer-draw">'
                f'{w.tr("Offer a draw")}</button>\n  '
            )
        elif offer == color:
            out.append(
                f'\n    <span id="draw-status">{w.tr("You offered a draw.")}</span>\n    '
                '<button type="submit" name="answer" value="decline" class="secondary" id="withdraw-draw">'
                f'{w.tr("Withdraw the offer")}</button>\n  '
            )
        else:
            out.append(
                f'\n    <strong id="draw-status">{w.tr("Your opponent offers a draw.")}</strong>\n    '
                f'<button type="submit" name="answer" value="accept" id="accept-draw">{w.tr("Accept the draw")}'
                '</button>\n    <button type="submit" name="answer" value="decline" class="secondary" '
                f'id="decline-draw">{w.tr("Decline")}</button>\n  '
            )
        out.append("\n  </form>\n</div>\n")
    out.append("\n\n")
    if status in ("active", "finished"):
        finished = status == "finished"
        out.append(
            '\n<p class="export-links small" id="export-links">\n  '
            f'<a href="{_e(urlmemo.url("export_record", pk))}" id="export-record">'
            + (w.tr("Download the record") if finished else w.tr("Download your record so far (as you saw it)"))
            + "</a>\n  "
        )
        if finished:
            out.append(
                f'· <a href="{_e(urlmemo.url("export_scenario", pk))}" id="export-start">'
                f'{w.tr("Download the starting position (JSON)")}</a>'
            )
        out.append("\n</p>\n")
    out.append("\n")
    return "".join(out)
