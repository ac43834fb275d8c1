"""Response headers the browser enforces, and the client address.

Django's SecurityMiddleware already sends X-Content-Type-Options,
Referrer-Policy, Cross-Origin-Opener-Policy and HSTS, and XFrameOptionsMiddleware
sends X-Frame-Options; this adds the Content-Security-Policy and the
Permissions-Policy.  The policy allows scripts, styles, images and fonts only
from the site itself: no template has an inline script, style or event
handler (htmx runs with `includeIndicatorStyles: false`, so it injects no
<style> either), so no nonce is needed.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse


def content_security_policy(request: HttpRequest) -> str:
    """The policy for one response.  The WebSocket address is listed as well as
    'self' because older browsers do not count ws(s):// as the page's own origin."""
    host = request.get_host()
    ws = f"wss://{host}" if request.is_secure() else f"ws://{host} wss://{host}"
    directives = [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        f"connect-src 'self' {ws}",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
    return "; ".join(directives)


class SecurityHeadersMiddleware:
    """Adds Content-Security-Policy and Permissions-Policy to every response
    (a header a view set itself is left alone)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        header = (
            "Content-Security-Policy-Report-Only"
            if settings.WEC_CSP_REPORT_ONLY
            else "Content-Security-Policy"
        )
        try:
            policy = content_security_policy(request)
        except DisallowedHost:  # the response is already Django's 400 for a bad Host
            policy = content_security_policy_without_host()
        response.headers.setdefault(header, policy)
        response.headers.setdefault("Permissions-Policy", settings.WEC_PERMISSIONS_POLICY)
        return response


def content_security_policy_without_host() -> str:
    """The policy when the request's host is unusable (the response is an error page)."""
    return "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for login lockout.  Behind a proxy (BEHIND_PROXY=1)
    the right-most X-Forwarded-For entry is the one our own proxy added, so the
    client cannot forge it; otherwise the socket's peer address."""
    if settings.BEHIND_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        parts = [part.strip() for part in forwarded.split(",") if part.strip()]
        if parts:
            return parts[-1]
    return request.META.get("REMOTE_ADDR")
