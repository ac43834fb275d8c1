"""The board partial's shortcuts give the same answers as the long way
(games/ui/wec/panels.py's turn panel words, games/ui/wec/board.py's
grouping, board.html's `{% once %}` blocks)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from long_way import positions, signature_long_way

from games.rules import wec as engine_module
from games.ui.wec import board, highlights, panels
from games.ui.wec.words import piece_name

LANGUAGES = ("en", "de", "ru", "pl")


class _GettextWords:
    """The turn panel's words the long way: a gettext call per string, as
    the panel was written before its words were kept per language."""

    tr = staticmethod(_)

    def __init__(self):
        self.done, self.not_yet = _("done"), _("not yet")

    @staticmethod
    def piece(kind) -> str:
        return str(piece_name(kind))


def test_turn_panel_words_are_gettexts_in_every_language():
    states = positions(11, 160)
    seen_waiting = 0
    for language in LANGUAGES:
        with translation.override(language):
            for state in states[::3]:
                color = engine_module.to_move(state)
                view = engine_module.view(state, color, history=False)
                legal = engine_module.legal_actions(state)
                for fake in ({}, {"ready": True}, {"armed": True}):
                    # every state line, and pieces of every kind waiting
                    extra = [dict(r, **fake) for r in view.get("reinforcements") or ()]
                    extra += [{"color": color, "type": kind, "row": 5, "col": 6, **fake}
                              for kind in ("tank", "jet", "sub", "nonesuch")]
                    shown = dict(view, reinforcements=extra)
                    panel = panels.turn_panel(shown, legal, color)
                    slow = panels.turn_panel(shown, legal, color, words=_GettextWords())
                    items, waiting = slow.items, slow.waiting
                    assert panel.items == items
                    assert panel.waiting == waiting
                    assert all(type(w["label"]) is str for w in panel.waiting)
                    seen_waiting += len(waiting)
    assert seen_waiting


def test_turn_panel_words_are_per_language():
    with translation.override("de"):
        de = panels._panel_words()
    with translation.override("en"):
        en = panels._panel_words()
    assert de is not en
    with translation.override("ru"):
        assert panels._panel_words().tr("Move") == _("Move")


def _build_board_long_way(view: dict, color: str, can_select: bool) -> dict:
    """build_board without the memo (every Square built from its items)."""
    return board.build_board(view, color, can_select=can_select)


def test_memo_board_is_the_board_built_the_long_way():
    memo: dict = {}
    for state in positions(17, 150):
        for color in ("black", "white"):
            view = engine_module.view(state, color, history=False)
            for can_select in (True, False):
                quick = board.build_board(view, color, can_select=can_select, memo=memo)
                slow = _build_board_long_way(view, color, can_select)
                for qline, sline in zip(quick["grid"], slow["grid"], strict=True):
                    for q, s in zip(qline["squares"], sline["squares"], strict=True):
                        q = dict(q)
                        key = q.pop("memo_key")
                        assert q == s
                        own = any(p.get("color") == color for b in s["bands"] for p in b["pieces"])
                        assert key[3] == (can_select and own)
                assert {k: v for k, v in quick.items() if k != "grid"} == {k: v for k, v in slow.items() if k != "grid"}


def test_once_blocks_kept_per_language_are_the_templates():
    from django.template import Context, engines

    from games.ui import wec
    from games.ui.wec.templatetags.wec_grid import OnceNode

    template = engines["django"].get_template(wec.BOARD_TEMPLATE).template
    nodes = {n.name: n for n in template.nodelist.get_nodes_by_type(OnceNode)}
    assert set(nodes) >= {"wec-level-bar", "wec-square-zoom", "wec-legend"}
    outs = {}
    for language in LANGUAGES:
        with translation.override(language):
            for node in nodes.values():
                kept = node.render(Context({}))
                assert kept == node.nodelist.render(Context({}))
                assert node.render(Context({})) is kept
            outs[language] = nodes["wec-legend"].render(Context({}))
    assert len(set(outs.values())) == len(LANGUAGES)  # translated, not one language's copy


def test_keyed_squares_are_the_squares_and_signature_of_the_view():
    owners = {c: (-3, "keyed", c) for c in ("black", "white")}
    for owner in owners.values():
        highlights._KEYED.get(owner).clear()
    memos = {c: {} for c in owners}
    tried = 0
    for state in positions(23, 200):
        for color, owner in owners.items():
            view = engine_module.view(state, color, history=False)
            for can_select in (True, False):
                keys: dict = {}
                board.build_board(view, color, can_select=can_select, memo=memos[color], keys=keys)
                assert keys  # every engine view's items are on the board
                squares, sig = highlights.keyed_squares(keys, owner)
                assert squares == highlights._squares(view)
                assert sig == signature_long_way(view)
                assert highlights.keyed_squares(keys) == (squares, sig)  # without a memo
                tried += 1
    assert tried


def test_keys_are_left_empty_when_the_board_is_not_the_squares_map():
    state = positions(29, 30)[-1]
    view = engine_module.view(state, "black", history=False)
    piece = dict(view["pieces"][0])
    odd_views = [
        dict(view, pieces=[*view["pieces"], dict(piece, row=None)]),  # not on the board
        dict(view, pieces=[*view["pieces"], dict(piece, col=None)]),
        dict(view, pieces=[*view["pieces"], dict(piece, row=11)]),  # off the board
        dict(view, pieces=[*view["pieces"], dict(piece, row="3")]),  # not a number
        dict(view, articles=[*view["articles"], {"type": "x", "row": 3, "col": None}]),
        dict(view, markers=["not a marker"]),
        dict(view, projectiles=[{"kind": "rocket", "row": 2, "col": None}]),
        dict(view, pieces=[*view["pieces"], dict(piece, type=type("S", (str,), {})("tank"))]),  # no marshal
    ]
    for odd in odd_views:
        keys: dict = {}
        board.build_board(odd, "black", can_select=True, memo={}, keys=keys)
        assert keys == {}
    keys = {}
    board.build_board(view, "black", memo={}, keys=keys, options=board.MoveOptions(origin=(1, 1, "ground"), kind="move"))
    assert keys == {}  # a selection: not every Square from the memo
    keys = {}
    board.build_board(view, "black", keys=keys)
    assert keys == {}  # no memo
    board.build_board(view, "black", memo={}, keys=keys)
    assert keys
