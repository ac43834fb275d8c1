from django.contrib import admin

from .models import Game, GameAction, Notification, Seat, Snapshot
from .store.action_log import purge_game


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "engine", "status", "seq", "to_move", "days_per_move", "needs_attention", "created", "updated")
    list_filter = ("needs_attention", "status", "engine")
    inlines = [SeatInline]

    def delete_model(self, request, obj):
        # The action log is append-only in the database; a whole game goes
        # only through purge_game, which the trigger lets through.
        purge_game(obj.pk)

    def delete_queryset(self, request, queryset):
        for pk in list(queryset.values_list("pk", flat=True)):
            purge_game(pk)


@admin.register(GameAction)
class GameActionAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "seat", "created")
    readonly_fields = ("game", "seq", "seat", "action", "created", "prev_hash", "hash")

    def has_change_permission(self, request, obj=None):
        return False  # append-only: the database refuses changes anyway

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "created")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("user", "game", "kind", "created", "read", "emailed")
    list_filter = ("kind", "read")
