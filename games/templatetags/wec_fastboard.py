"""`{% wec_grid %}`: the board grid of grid.html, built in Python (games.fastboard)."""

from django import template

from games.fastboard import render_grid

register = template.Library()


@register.simple_tag(takes_context=True)
def wec_grid(context):
    return render_grid(context)
