"""The render cache: Django's cache named by settings.WEC_RENDER_CACHE
(Redis), holding rendered boards and review steps (games.pages) and the
per-view-version data a game's package keeps there (Wec's highlights).

`cache()` gives one backend object per process.  `caches[...]` gives each
request context its own backend object, and Django's Redis backend keeps
its connections per object: under ASGI that was a new Redis connection for
every request.  The shared object's connection pool is thread-safe.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import BaseCache, caches

_shared: tuple[str, BaseCache] | None = None


def cache() -> BaseCache:
    """The render cache, one client per process, made anew when the cache
    settings change (tests)."""
    global _shared
    alias = settings.WEC_RENDER_CACHE
    stamp = f"{alias}:{settings.CACHES.get(alias)!r}"
    hit = _shared
    if hit is None or hit[0] != stamp:
        hit = _shared = (stamp, caches.create_connection(alias))
    return hit[1]
