"""Thin views of take-backs and undo requests (friendly games; games.services.takeback)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors, services
from games.pages import board as board_page
from games.registry import get_ui
from games.services import takeback
from wecsite.ratelimit import rate_limited

from .common import participant, refused


@login_required
@require_POST
@rate_limited("submit")
def take_back(request, game_id: int):
    """Take back the player's last action of the Turn in progress (`steps`,
    default 1), with the `version` the page showed."""
    game, seat = participant(request, game_id)
    error, status = None, 200
    try:
        version_text = request.POST.get("version", "")
        expected = int(version_text) if version_text != "" else None
        steps = int(request.POST.get("steps", "1") or "1")
        takeback.take_back(game.pk, request.user, steps=steps, expected_version=expected)
    except services.GameError as exc:
        error, status = exc.message, exc.status
    except ValueError:
        error, status = _("That is not a valid request."), 400
    if not request.htmx:
        if error:
            return refused(request, error, status, game.pk)
        return redirect("game_detail", game_id=game.pk)
    game = selectors.get_game(game.pk)
    seat = selectors.seat_for(game, request.user)
    return board_page.board_response(
        request,
        game,
        seat,
        lambda: get_ui(game.engine).board_context(request, game, seat, error=error),
        cacheable=error is None,
        status=status,
        quiet=error is None,  # the player's own take-back made this board
    )


@login_required
@require_POST
@rate_limited("submit")
@rate_limited("notify")
def undo(request, game_id: int):
    """`answer`: request / grant / decline (the asker's decline withdraws it)."""
    game, seat = participant(request, game_id)
    answer = request.POST.get("answer", "")
    try:
        if answer == "request":
            takeback.request_undo(game.pk, request.user)
        elif answer in ("grant", "decline"):
            takeback.answer_undo(game.pk, request.user, grant=answer == "grant")
        else:
            raise services.InvalidRequest(_("Answer with request, grant or decline."))
    except services.GameError as exc:
        return refused(request, exc.message, exc.status, game.pk)
    return redirect("game_detail", game_id=game.pk)
