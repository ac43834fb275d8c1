from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.utils.translation import gettext_lazy as _

from .forms import check_display_name
from .models import User


class WecUserChangeForm(UserChangeForm):
    """Staff edits go through the same look-alike check as the profile form."""

    def clean_display_name(self):
        return check_display_name(self.cleaned_data.get("display_name", ""), exclude_pk=self.instance.pk)


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = WecUserChangeForm
    fieldsets = (*BaseUserAdmin.fieldsets, (_("Wec"), {"fields": (
        "display_name", "time_zone", "is_ai", "email_on_turn",
        "auto_vacation", "vacation_days", "vacation_year", "vacation_paid_until",
        "vacation_started", "vacation_until",
    )}))
    list_display = ("username", "display_name", "email", "is_ai", "is_staff")
