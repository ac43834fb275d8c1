"""`{% kept_url "name" [pk] %}`: `{% url "name" [pk] %}` for the board's own
URLs, kept per process (games/urlmemo.py): a board names some ten of them,
and `reverse` matches and quotes each anew (~30 µs apiece)."""

from django import template

from games import urlmemo

register = template.Library()


@register.simple_tag
def kept_url(name: str, pk: int | None = None) -> str:
    return urlmemo.url(name, pk)
