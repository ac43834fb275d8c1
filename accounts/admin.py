from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, (_("Wec"), {"fields": (
        "display_name", "time_zone", "is_ai", "email_on_turn",
        "on_vacation", "vacation_days", "vacation_year", "vacation_paid_until",
    )}))
    list_display = ("username", "display_name", "email", "is_ai", "is_staff")
