from django.utils.functional import SimpleLazyObject

from . import selectors


def notifications(request):
    """`unread_notifications`: the signed-in user's unread count, asked only
    when a template uses it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": 0}
    return {"unread_notifications": SimpleLazyObject(lambda: selectors.unread_notification_count(user))}
