"""The site's own address for absolute links (emails sent by Celery, the
password reset).

Only the setting `WEC_SITE_URL` (environment `SITE_URL`) decides it: never a
request, so nobody can change the links another user receives by sending
a Host header.  With DEBUG off the setting must be given (system check
`wecsite.E001`); in development and tests the settings default to the
address the development server listens on (`dev_site_url`, from HOST and
PORT as `./wec run` uses them)."""

from __future__ import annotations

from django.conf import settings
from django.core import checks

# Addresses a server listens on but a browser cannot open.
_ANY_ADDRESS = {"", "0.0.0.0", "::", "[::]"}


def dev_site_url(host: str | None, port: str | int | None) -> str:
    """The development server's address: http://HOST:PORT, with a
    listen-everywhere HOST replaced by the loopback address."""
    host = (host or "").strip()
    if host in _ANY_ADDRESS:
        host = "127.0.0.1"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"  # an IPv6 address
    return f"http://{host}:{int(port or 8000)}"


def site_url() -> str:
    """The base address for absolute links (no trailing slash)."""
    return settings.WEC_SITE_URL


def check_site_url(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """With DEBUG off the emails' links need the site's real address: refuse to
    run without SITE_URL, as Django's own checks refuse a missing SECRET_KEY."""
    if settings.DEBUG or settings.WEC_SITE_URL:
        return []
    return [
        checks.Error(
            "SITE_URL is not set.",
            hint="Set SITE_URL to the site's public address (e.g. https://wec.example.org): "
            "the links in emails use it and nothing else.",
            id="wecsite.E001",
        )
    ]
