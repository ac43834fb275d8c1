"""The notifications page, the header's badge, and marking them read."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from games import selectors, services


@login_required
@require_GET
def notifications(request):
    return render(
        request, "games/notifications.html", {"notifications": selectors.user_notifications(request.user)}
    )


@login_required
@require_GET
def notification_badge(request):
    return render(request, "partials/notification_badge.html")


@login_required
@require_POST
def notifications_read(request):
    services.mark_notifications_read(request.user)
    if request.htmx:
        return render(request, "partials/notification_badge.html")
    return redirect("notifications")
