"""Bare views for the benchmark's baselines: the same middleware, session
and login as the game views, and nothing else, so that bench_site can put
each figure of the site next to what the stack alone costs.  Routed only
when WEC_BENCH_VIEWS=1 (the benchmark's own servers, tools/site/urls.py),
never in production."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpResponse
from django.views.decorators.http import require_GET, require_POST

BENCH_TABLE = "wec_bench_row"


@login_required
@require_POST
def bare_insert(request):
    """One INSERT, like the one row a submit must at least write."""
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {BENCH_TABLE} (n) VALUES (%s)", [1])
    return HttpResponse("ok", content_type="text/plain")


@login_required
@require_GET
def bare_bytes(request):
    """`n` bytes of HTML, like a board partial of that size."""
    try:
        n = max(0, min(int(request.GET.get("n", "0")), 10_000_000))
    except ValueError:
        n = 0
    return HttpResponse(b"x" * n, content_type="text/html; charset=utf-8")
