from django.contrib import admin

from .models import Game, GameAction, Notification, Seat, Snapshot


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "engine", "status", "seq", "to_move", "days_per_move", "created", "updated")
    list_filter = ("status", "engine")
    inlines = [SeatInline]


@admin.register(GameAction)
class GameActionAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "created")
    readonly_fields = ("game", "seq", "seat", "action", "created")


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "created")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "kind", "created", "read", "emailed")
    list_filter = ("kind", "read")
