"""`{% wec_grid %}`: the board grid of grid.html, built in Python
(games/ui/wec/grid.py); `{% once "name" %}...{% endonce %}`: a part of a template
that depends on nothing but the language (the legend, the level buttons),
rendered once per language and process and then reused."""

import threading

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, trans_real

from ..grid import render_grid

register = template.Library()


@register.simple_tag(takes_context=True)
def wec_grid(context, marks: bool = False):
    """The grid; `marks=True` on the live board, whose answers may be sent
    as their changed parts (games.boardpatch)."""
    return render_grid(context, marks=marks)


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
