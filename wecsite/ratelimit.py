"""Rate limits kept in Redis (a fixed window per scope and key).

    @rate_limited("submit")                      # keyed by the signed-in user
    def game_act(request, game_id): ...

    @rate_limited("signup", key=by_address)      # keyed by the client's address
    def signup(request): ...

A scope's limit is `settings.WEC_RATE_LIMITS[scope]`, "count/seconds" (e.g.
"120/60": 120 requests a minute).  Over the limit the view is not called at
all, so nothing changes, and the answer is 429 with a Retry-After header and a
translated message.  A key function picks what is counted: `by_user` (the
default: only signed-in users are counted; the AI plays through the
services, not the views, so it is never limited), `by_address` (the client's
address, as the login lockout sees it: wecsite.security.client_ip), or a
view's own key through `limit_response` (e.g. `target_key` of an address
typed into a form).

Keys are `<WEC_REDIS_PREFIX>:rl:<scope>:<key>:<window number>` and expire
with their window.  `first_in` keeps a silent "at most once per period" mark
(`<WEC_REDIS_PREFIX>:once:<name>:<key>`).  If Redis cannot be reached the
request is let through (and logged): a limit exists to stop abuse, not to
take the site down with Redis.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

from .security import client_ip

logger = logging.getLogger(__name__)

_client: redis.Redis | None = None


def redis_client() -> redis.Redis:
    """The process's client of the site's Redis (REDIS_URL), with short
    timeouts; the rate limits use it."""
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


def hit(scope: str, key: int | str, now: float | None = None) -> int:
    """Count one request of `key` (a user id, an address...) in `scope`.
    Returns 0 if it is within the limit, else the number of seconds until the
    window ends (for Retry-After)."""
    rate = rate_for(scope)
    now = time.time() if now is None else now
    window = int(now // rate.seconds)
    redis_key = f"{settings.WEC_REDIS_PREFIX}:rl:{scope}:{key}:{window}"
    try:
        pipe = redis_client().pipeline()
        pipe.incr(redis_key)
        pipe.expire(redis_key, rate.seconds + 1)
        count = int(pipe.execute()[0])
    except redis.RedisError:
        logger.warning("rate limit %s not checked: Redis unavailable", scope, exc_info=True)
        return 0
    if count <= rate.count:
        return 0
    return max(1, math.ceil((window + 1) * rate.seconds - now))


def first_in(name: str, key: int | str, seconds: int) -> bool:
    """True the first time `key` is seen in `name` within `seconds` (then the
    mark is kept that long), False while the mark stands.  Redis down: True."""
    try:
        return bool(
            redis_client().set(f"{settings.WEC_REDIS_PREFIX}:once:{name}:{key}", 1, nx=True, ex=seconds)
        )
    except redis.RedisError:
        logger.warning("once-per-period mark %s not checked: Redis unavailable", name, exc_info=True)
        return True


def forget(name: str, key: int | str) -> None:
    """Drop a `first_in` mark (what it stood for did not happen after all)."""
    try:
        redis_client().delete(f"{settings.WEC_REDIS_PREFIX}:once:{name}:{key}")
    except redis.RedisError:
        logger.warning("once-per-period mark %s not dropped: Redis unavailable", name, exc_info=True)


def by_user(request: HttpRequest) -> str | None:
    """The signed-in user's id; None (not counted) for anonymous requests."""
    user = getattr(request, "user", None)
    return str(user.pk) if user is not None and user.is_authenticated else None


def by_address(request: HttpRequest) -> str:
    """The client's address (BEHIND_PROXY aware, as the login lockout)."""
    return "ip:" + (client_ip(request) or "unknown")


def target_key(text: str) -> str:
    """A key for what a form names (an email address typed for a reset):
    normalised (trimmed, case-folded) and hashed, so that Redis holds no
    addresses and a known and an unknown address are counted alike."""
    return "t:" + hashlib.sha256(text.strip().casefold().encode()).hexdigest()[:32]


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


def limit_response(request: HttpRequest, scope: str, key: int | str | None) -> HttpResponse | None:
    """Count one request of `key` in `scope`: the 429 answer when it is over
    the limit, else None.  A key of None is not counted."""
    if key is None:
        return None
    retry_after = hit(scope, key)
    return too_many_requests(request, retry_after) if retry_after else None


def rate_limited(scope: str, key: Callable[[HttpRequest], int | str | None] = by_user):
    """View decorator: refuse a request over the scope's limit for its key
    (by default the signed-in user; anonymous requests are not counted)."""

    def decorator(view):
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            refused = limit_response(request, scope, key(request))
            if refused is not None:
                return refused
            return view(request, *args, **kwargs)

        # The scopes a view is limited by, outermost last (the site's tests
        # check that every endpoint that notifies someone has "notify").
        wrapper.rate_limit_scopes = (*getattr(view, "rate_limit_scopes", ()), scope)
        return wrapper

    return decorator
