"""Wec's icons for its templates (games/ui/wec/icons.py)."""

from django import template

from .. import icons

register = template.Library()

register.filter("piece_icon", icons.piece_icon)
register.filter("article_icon", icons.article_icon)


@register.simple_tag
def wec_icon_sprite():
    return icons.SPRITE
