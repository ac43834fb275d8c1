"""Wec's words for its templates: the filters of games/ui/wec/words.py
(and the colours, games.words, so a Wec template loads one library)."""

from django import template

from .. import words

register = template.Library()

register.filter("action_name", words.action_name)
register.filter("article_abbr", words.article_abbr)
register.filter("article_name", words.article_name)
register.filter("color_name", words.color_name)
register.filter("level_name", words.level_name)
register.filter("piece_abbr", words.piece_abbr)
register.filter("piece_name", words.piece_name)
register.filter("reason_name", words.reason_name)
