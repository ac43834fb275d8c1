"""Reads of accounts."""

from __future__ import annotations

from django.db.models import Q

from .models import User


def name_taken(key: str, exclude_pk: int | None = None) -> bool:
    """Whether a folded name (accounts.names.name_key) is some other user's
    username or display name."""
    if not key:
        return False
    users = User.objects.filter(Q(username_key=key) | Q(display_key=key))
    if exclude_pk is not None:
        users = users.exclude(pk=exclude_pk)
    return users.exists()
