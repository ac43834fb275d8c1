from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = (*BaseUserAdmin.fieldsets, (_("Wec"), {"fields": ("display_name", "time_zone", "is_ai")}))
    list_display = ("username", "display_name", "email", "is_ai", "is_staff")
