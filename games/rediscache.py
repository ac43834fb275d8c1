"""The render cache's backend (issue 12): Django's Redis cache, with one
`redis.Redis` client object per connection pool instead of a new one for
every operation.

Django's `RedisCacheClient.get_client` builds a `redis.Redis` around the
(kept) connection pool on each call; redis-py 8 fills some 170 response
callbacks into a new dict for each, ~0.15 ms of CPU, more than the GET it
serves costs.  A board from the render cache is one GET; a submit's answer
and a rendered board are one SET (on the doorbell thread).  A `redis.Redis`
is safe to share between threads (each command takes a connection from the
pool), and the pool is the one Django keeps anyway, so the client is kept
beside it.
"""

from __future__ import annotations

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    """Django's client, its `redis.Redis` objects made once per pool."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))  # the pools are kept for the client's life
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    """`django.core.cache.backends.redis.RedisCache` with the client above."""

    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
