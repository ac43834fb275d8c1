from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # games.afteranswer connects its request signal receivers from the
        # first request on; games.tasks registers the Celery tasks, which
        # the services queue by name (games.queue), in every process.
        # deferred: Django's app loading (these modules use the models, ready only now)
        from . import afteranswer, tasks  # noqa: F401
        from .club import draws, ratings
        from .services import signals

        # What the club does when a game ends; the core services only send.
        signals.game_ended.connect(draws.offer_lapses, dispatch_uid="games.club.draws.offer_lapses")
        signals.game_ended.connect(ratings.rate_game, dispatch_uid="games.club.ratings.rate_game")
