"""Clock texts: "2 days 4 h left", "3 days per move"."""

from __future__ import annotations

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

register = template.Library()


def format_duration(seconds: int) -> str:
    """Whole days and hours (or hours and minutes under a day, minutes under an hour)."""
    days, rest = divmod(max(0, int(seconds)), 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        parts = [ngettext("%(n)d day", "%(n)d days", days) % {"n": days}]
        if hours:
            parts.append(_("%(n)d h") % {"n": hours})
    elif hours:
        parts = [_("%(n)d h") % {"n": hours}]
        if minutes:
            parts.append(_("%(n)d min") % {"n": minutes})
    else:
        parts = [_("%(n)d min") % {"n": max(1, minutes)}]
    return " ".join(parts)


@register.filter
def time_left(deadline, now=None) -> str:
    """'2 days 4 h left' until `deadline` (a datetime); '' for None."""
    if not deadline:
        return ""
    seconds = (deadline - (now or timezone.now())).total_seconds()
    if seconds <= 0:
        return _("time is up")
    return _("%(time)s left") % {"time": format_duration(int(seconds))}


@register.filter
def duration(seconds) -> str:
    """'2 days 4 h' for a number of seconds (a clock paused by vacation)."""
    if seconds in (None, ""):
        return ""
    return format_duration(int(seconds))


@register.filter
def clock_label(days_per_move) -> str:
    if days_per_move in (None, ""):
        return _("No clock")
    n = int(days_per_move)
    return ngettext("%(n)d day per move", "%(n)d days per move", n) % {"n": n}
