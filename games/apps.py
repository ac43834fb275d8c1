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
        # deferred: Django's app loading (the tasks use the models, ready only now)
        from . import afteranswer, tasks  # noqa: F401
