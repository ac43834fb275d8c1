"""Per-user rate limits kept in Redis (a fixed window per user and scope).

    @rate_limited("submit")
    def game_act(request, game_id): ...

A scope's limit is `settings.WEC_RATE_LIMITS[scope]`, "count/seconds" (e.g.
"120/60": 120 requests a minute).  Over the limit the view is not called at
all, so nothing changes, and the answer is 429 with a Retry-After header and a
translated message.  Only requests from a signed-in user are counted (the
views are login-only anyway); the AI plays through the services, not the
views, so it is never limited.

Keys are `<WEC_REDIS_PREFIX>:rl:<scope>:<user id>:<window number>` and expire
with their window.  If Redis cannot be reached the request is let through (and
logged): a limit exists to stop abuse, not to take the site down with Redis.
"""

from __future__ import annotations

import functools
import logging
import math
import time
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

logger = logging.getLogger(__name__)

_client: redis.Redis | None = None


def redis_client() -> redis.Redis:
    """The process's client of the site's Redis (REDIS_URL), with short
    timeouts; the rate limits and the remembered site origin use it."""
    global _client
    if _client is None:
        # Short timeouts: a slow Redis must not hold a player's click for long.
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2)
    return _client


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int


def parse_rate(text: str) -> Rate:
    """ "120/60" -> Rate(120, 60)."""
    try:
        count_text, seconds_text = str(text).split("/", 1)
        rate = Rate(int(count_text), int(seconds_text))
    except ValueError:
        raise ImproperlyConfigured(f"A rate limit is 'count/seconds', not {text!r}.") from None
    if rate.count < 1 or rate.seconds < 1:
        raise ImproperlyConfigured(f"A rate limit needs a positive count and period, not {text!r}.")
    return rate


def rate_for(scope: str) -> Rate:
    try:
        return parse_rate(settings.WEC_RATE_LIMITS[scope])
    except KeyError:
        raise ImproperlyConfigured(f"No rate limit set for {scope!r} in WEC_RATE_LIMITS.") from None


def hit(scope: str, user_id: int, now: float | None = None) -> int:
    """Count one request of `user_id` in `scope`.  Returns 0 if it is within the
    limit, else the number of seconds until the window ends (for Retry-After)."""
    rate = rate_for(scope)
    now = time.time() if now is None else now
    window = int(now // rate.seconds)
    key = f"{settings.WEC_REDIS_PREFIX}:rl:{scope}:{user_id}:{window}"
    try:
        pipe = redis_client().pipeline()
        pipe.incr(key)
        pipe.expire(key, rate.seconds + 1)
        count = int(pipe.execute()[0])
    except redis.RedisError:
        logger.warning("rate limit %s not checked: Redis unavailable", scope, exc_info=True)
        return 0
    if count <= rate.count:
        return 0
    return max(1, math.ceil((window + 1) * rate.seconds - now))


def too_many_requests(request: HttpRequest, retry_after: int) -> HttpResponse:
    """The 429 answer.  An htmx request gets the message put at the top of the
    page (the part it meant to replace stays as it is); a plain one a page."""
    message = ngettext(
        "You are doing that too often. Please wait %(seconds)d second and try again.",
        "You are doing that too often. Please wait %(seconds)d seconds and try again.",
        retry_after,
    ) % {"seconds": retry_after}
    template = "partials/rate_limited.html" if getattr(request, "htmx", False) else "rate_limited.html"
    response = render(request, template, {"message": message}, status=429)
    response["Retry-After"] = str(retry_after)
    if getattr(request, "htmx", False):
        response["HX-Retarget"] = "#main"
        response["HX-Reswap"] = "afterbegin"
    return response


def rate_limited(scope: str):
    """View decorator: refuse a signed-in user's request over the scope's limit."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                retry_after = hit(scope, user.pk)
                if retry_after:
                    return too_many_requests(request, retry_after)
            return view(request, *args, **kwargs)

        return wrapper

    return decorator
