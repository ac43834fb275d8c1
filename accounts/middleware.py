import zoneinfo

from django.utils import timezone


class UserTimezoneMiddleware:
    """Shows times in the signed-in user's own time zone."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        tz_name = getattr(user, "time_zone", None) if user is not None and user.is_authenticated else None
        if not tz_name and hasattr(request, "session"):
            # A visitor's zone, as the browser reported it on the first visit (static/js/tz.js).
            tz_name = request.session.get("wec_tz")
        if tz_name:
            try:
                timezone.activate(zoneinfo.ZoneInfo(tz_name))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)


class UserLanguageMiddleware:
    """A signed-in user's chosen language (User.language) wins over the
    browser's Accept-Language and the cookie (LocaleMiddleware runs first)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        from django.conf import settings
        from django.utils import translation

        user = getattr(request, "user", None)
        lang = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        if lang and lang in dict(settings.LANGUAGES):
            translation.activate(lang)
            request.LANGUAGE_CODE = lang
        return self.get_response(request)
