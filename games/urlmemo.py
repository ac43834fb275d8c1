"""`reverse` for the board's own URLs, kept.

A board answer names some ten URLs (the board, the act and clocks
endpoints, resign, draw, take-back, export, help...); `django.urls.reverse`
matches and quotes each anew, ~40 µs apiece, ~0.4 ms of every render.  They
depend only on the URL name, the game id, the URLconf and the script
prefix, so they are kept under all four (a game's URLs are no secret: the
same for every player).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

_URLS: dict[tuple, str] = {}
_LIMIT = 4096


def url(name: str, pk: int | None = None) -> str:
    """`reverse(name)`, or `reverse(name, args=[pk])` with a `pk`."""
    key = (name, pk, get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF)
    found = _URLS.get(key)
    if found is None:
        found = reverse(name) if pk is None else reverse(name, args=[pk])
        if len(_URLS) >= _LIMIT:
            _URLS.clear()
        _URLS[key] = found
    return found
