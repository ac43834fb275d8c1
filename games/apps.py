from django.apps import AppConfig
from django.core import checks
from django.utils.translation import gettext_lazy as _

from wecsite import siteurl

# Its request signal receivers, connected from the first request on.
from . import afteranswer  # noqa: F401


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = _("Games")

    def ready(self):
        # games.tasks registers the Celery tasks, which the services queue by
        # name (games.queue), in every process; the club hears of a game's
        # end through the core services' signal.
        # deferred: Django's app loading (these modules use the models, ready only now)
        from . import tasks  # noqa: F401
        from .club import draws, ratings
        from .services import signals

        # With DEBUG off the site refuses to run without SITE_URL (wecsite.E001).
        checks.register(siteurl.check_site_url, checks.Tags.security)
        signals.game_ended.connect(draws.offer_lapses, dispatch_uid="games.club.draws.offer_lapses")
        signals.game_ended.connect(ratings.rate_game, dispatch_uid="games.club.ratings.rate_game")
