"""Marshal's own endpoint: saving a favourite setup (thin; the write is in
favourites.save, the check is the engine's)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors
from games.engines.marshal import engine_options
from games.models import Game
from games.rules import marshal as rules
from wecsite.inputs import read_json

from . import NAME, favourites
from .refusals import translate

MAX_SETUP_CHARS = 8000


@login_required
@require_POST
def save_favourite(request, game_id: int):
    try:
        game = selectors.get_game(game_id)
    except Game.DoesNotExist:
        raise Http404 from None
    seat = selectors.seat_for(game, request.user)
    if seat is None or game.engine != NAME:
        raise Http404
    try:
        # A setup is a flat list of small objects (JSONInputError is a ValueError).
        pieces = read_json(request.POST.get("pieces", ""), max_chars=MAX_SETUP_CHARS, max_depth=2)
        if not isinstance(pieces, list) or len(pieces) > 60:
            raise ValueError
        pieces = [{"type": str(p["type"]), "row": int(p["row"]), "col": int(p["col"])} for p in pieces]
        # The engine judges the arrangement on an empty board of this game's shape.
        fresh = rules.new_game(engine_options(game.options or {}))
        rules.apply(fresh, {"type": "setup", "color": seat.color, "pieces": pieces})
    except (ValueError, TypeError, KeyError) as exc:
        message = translate(str(exc)) if isinstance(exc, rules.IllegalAction) else _("That is not a valid setup.")
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    favourites.save(request.user, rules.view(fresh, seat.color), seat.color, pieces)
    return HttpResponse(_("Saved as your favourite setup."), content_type="text/plain; charset=utf-8")
