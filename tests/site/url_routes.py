"""The project's URL conf as the fuzz tests walk it: every route as one
pattern string ("games/<int:game_id>/draw/"), so that a route added to the
site is fuzzed (or fails a coverage test) without anyone listing it."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver


def _walk(patterns, prefix: str = "") -> Iterator[str]:
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _walk(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern)


def all_routes() -> list[str]:
    """Every route of the root URL conf, the admin's included, sorted."""
    return sorted(set(_walk(get_resolver().url_patterns)))
