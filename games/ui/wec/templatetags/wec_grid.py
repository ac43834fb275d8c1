"""`{% wec_grid %}`: the board grid, written in Python (games/ui/wec/grid.py);
`{% once "name" %}...{% endonce %}`: a part of a template that depends on
nothing but the language (the legend, the level buttons), rendered once per
language and process and then reused."""

import threading

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, trans_real

from ..grid import GRID_KEYS, render_grid

register = template.Library()

#: The context key of the list into which the live board's grid puts its
#: parts (games/ui/wec/__init__.py render_board hands them to games.boardpatch).
PARTS_KEY = "grid_parts"


@register.simple_tag(takes_context=True)
def wec_grid(context, marks: bool = False, **given):
    """The grid of the context's `board` (see grid.render_grid for what it
    reads), any of those values given here instead: `{% wec_grid
    board=review.board board_label=true_label %}`.  `marks=True` on the
    player's live board, whose answers may be sent as their changed parts
    (games.boardpatch)."""
    unknown = set(given) - set(GRID_KEYS)
    if unknown:
        raise template.TemplateSyntaxError(f"wec_grid does not take {', '.join(sorted(unknown))}")
    values = {key: given[key] if key in given else context.get(key) for key in GRID_KEYS}
    return render_grid(values, marks=marks, segments=context.get(PARTS_KEY) if marks else None)


_ONCE: dict = {}
_once_lock = threading.Lock()


class OnceNode(template.Node):
    def __init__(self, name: str, nodelist):
        self.name, self.nodelist = name, nodelist

    def render(self, context):
        # A new catalogue object (as tests may make) gets its own copies.
        key = (self.name, get_language(), id(trans_real.catalog()))
        html = _ONCE.get(key)
        if html is None:
            html = self.nodelist.render(context)
            with _once_lock:
                if len(_ONCE) > 256:
                    _ONCE.clear()
                _ONCE[key] = html
        return mark_safe(html)


@register.tag
def once(parser, token):
    """{% once "name" %}...{% endonce %}: the enclosed template, which must
    read nothing from the context but the language, rendered once per
    language (a board's legend, its level buttons: a third of board.html's
    template work, the same on every board)."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError('{% once %} takes one quoted name: {% once "legend" %}')
    nodelist = parser.parse(("endonce",))
    parser.delete_first_token()
    return OnceNode(bits[1][1:-1], nodelist)
