"""`color_name` and `reason_name` (the site's own reasons) for every
game's templates: the filters of games.words."""

from django import template

from games import words

register = template.Library()

register.filter("color_name", words.color_name)
register.filter("reason_name", words.reason_name)
