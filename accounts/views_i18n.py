"""Language switcher and time zone detection."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.http import HttpResponse, HttpResponseBadRequest, HttpResponseRedirect
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from wecsite.inputs import is_plain_url_text

from . import services


@require_POST
def set_language(request):
    """Switch the interface language: kept on the user (signed in) and in the
    language cookie (everyone)."""
    language = request.POST.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(_("Unknown language."))
    if request.user.is_authenticated:
        services.set_language(request.user, language)
    next_url = request.POST.get("next") or "/"
    # Back to a path of this site only.  Not redirect(): it takes a bare word
    # for a view name, and one that names none raised NoReverseMatch (a 500).
    local = next_url.startswith("/") and not next_url.startswith("//") and is_plain_url_text(next_url)
    if not local or not url_has_allowed_host_and_scheme(
        next_url, {request.get_host()}, require_https=request.is_secure()
    ):
        next_url = "/"
    response = HttpResponseRedirect(next_url)
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, language, max_age=365 * 86400, samesite="Lax")
    translation.activate(language)
    return response


@require_POST
def detect_time_zone(request):
    """static/js/tz.js posts the browser's zone once: a signed-in user still on
    the default zone gets it; a visitor keeps it in the session."""
    zone = request.POST.get("zone", "")
    if zone not in zoneinfo.available_timezones():
        return HttpResponseBadRequest(_("Unknown time zone."))
    if request.user.is_authenticated:
        services.detect_time_zone(request.user, zone)
    else:
        request.session["wec_tz"] = zone
    request.session["wec_tz_sent"] = True
    return HttpResponse(status=204)
