"""The site's own answers: the health check and the server-error page."""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _


def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


def server_error(request):
    """handler500: a plain page that needs neither the database nor a session
    (either may be what failed).  A database outage is answered 503 (try again
    shortly); anything else 500.  Django has already logged the trace.

    Only connection-level errors (psycopg's OperationalError and
    InterfaceError, as Django wraps them) are an outage: a DataError or
    IntegrityError is a value the database refused, a bug to fix, and
    calling it an outage would let anyone who finds one fake outages."""
    exc = sys.exc_info()[1]
    if isinstance(exc, (OperationalError, InterfaceError)):
        status = 503
        title = _("Wec Online is briefly unavailable")
        message = _("We cannot reach our database just now. Nothing you sent was half-done; please try again in a minute.")
    else:
        status = 500
        title = _("Something went wrong")
        message = _("Something went wrong on our side. The operators have been told; please try again later.")
    html = render_to_string("server_error.html", {"title": title, "message": message})
    response = HttpResponse(html, status=status)
    if status == 503:
        response["Retry-After"] = "30"
    return response
