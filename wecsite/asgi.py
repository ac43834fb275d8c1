"""ASGI entry point: HTTP through Django, WebSockets through Channels.

HTTP goes through `OneThreadASGIHandler`: Django's ASGI handler, except that
a request's synchronous code (middleware, views) runs on the process's one
thread-sensitive thread instead of a new thread per request.  Django's own
handler wraps every request in asgiref's ThreadSensitiveContext, which
starts a thread for it (and another to join it); the database connection
and the render cache's Redis client are kept per thread, so every request
opened a new PostgreSQL connection (a backend process forked for it) and a
new Redis connection, and CONN_MAX_AGE kept nothing (strace showed two clone3()
and two connect() per request).  On one thread the
persistent connection is reused by every request, as docs/performance.md
describes: a web process runs one request's synchronous code at a time,
and processes, not threads, add concurrency (./wec serve starts several).

What a request hands to the process's doorbell thread (doorbells, cache
writes) starts only once its answer is out (games.doorbells.after_response):
run beside the answer's rendering, that thread took the interpreter lock
from it.
"""

import gc
import os

import django
from django.core.exceptions import ImproperlyConfigured
from django.core.handlers.asgi import ASGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "wecsite.settings")
django.setup(set_prefix=False)

from games.doorbells import after_response  # noqa: E402 (needs the settings)


class OneThreadASGIHandler(ASGIHandler):
    """Django's ASGIHandler without a thread per request (see above); the
    doorbell thread's work of a request waits until its answer was sent."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ImproperlyConfigured(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        async with after_response():
            await self.handle(scope, receive, send)


django_asgi_app = OneThreadASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Everything imported so far lives as long as the process: keep it out of
# the cyclic garbage collector's full passes, which otherwise walk the whole
# of Django on every one of them (about a tenth of a submit's CPU, as
# measured with manage.py bench_cpu).
gc.freeze()
