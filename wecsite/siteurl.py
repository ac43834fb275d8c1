"""The site's own address for links in emails sent outside a request (Celery).

`SITE_URL` wins when it is set.  Otherwise every request's origin (scheme,
host and port, as Django validated them against ALLOWED_HOSTS) is remembered
in Redis, so an email sent by a worker links to the address people actually
use, not to a guessed port."""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.core.exceptions import DisallowedHost

from .ratelimit import redis_client

logger = logging.getLogger(__name__)

FALLBACK = "http://127.0.0.1:8000"
_last_seen: str | None = None  # per process: write to Redis only when it changes


def _key() -> str:
    return f"{settings.WEC_REDIS_PREFIX}.site_origin"


def remember_origin(request) -> None:
    global _last_seen
    try:
        origin = f"{request.scheme}://{request.get_host()}"
    except DisallowedHost:
        return
    if origin == _last_seen:
        return
    try:
        redis_client().set(_key(), origin)
        _last_seen = origin
    except redis.RedisError:
        logger.warning("could not remember the site origin", exc_info=True)


def site_url() -> str:
    """The base address for absolute links (no trailing slash)."""
    if settings.WEC_SITE_URL:
        return settings.WEC_SITE_URL
    try:
        value = redis_client().get(_key())
    except redis.RedisError:
        value = None
    return value.decode() if value else FALLBACK


class RememberOriginMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        remember_origin(request)
        return self.get_response(request)
