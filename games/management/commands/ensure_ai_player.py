from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from games.services import ensure_ai_player


class Command(BaseCommand):
    help = _("Create the server's AI player account if it does not exist.")

    def handle(self, *args, **options):
        user = ensure_ai_player()
        self.stdout.write(_("AI player: %(name)s (id %(id)s)") % {"name": user.username, "id": user.pk})
