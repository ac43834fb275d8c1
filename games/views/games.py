"""The game pages: the home page and its lists, a new game, seeks, a game's
page and board, an action, resignation, the clocks and the review.  Thin
views: parse the request, call a selector or a service, render."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import selectors, services
from games.club import selectors as club_selectors
from games.forms import ActionError, NewGameForm, action_from_post
from games.models import Game
from games.pages import board as board_page
from games.pages import review as review_page
from games.registry import UI_REGISTRY, get_ui
from games.registry import choices as game_choices
from wecsite.ratelimit import rate_limited

from .common import challenged_player, participant, refused, seek_taker

logger = logging.getLogger(__name__)


def _posts_options(data, ui) -> bool:
    """Whether the new-game form came with the chosen game's options section."""
    return any(key.startswith(ui.OPTIONS_PREFIX) for key in data)


def _option_sections(chosen: str | None = None, form=None) -> list[dict]:
    """Every game's options section of the new-game form (the chosen game's
    bound to the posted form when it was refused)."""
    out = []
    for name, label in game_choices():
        ui = get_ui(name)
        bound = form if name == chosen and form is not None else ui.OPTIONS.options_form_class()()
        # The first game's section keeps the page's original id.
        dom_id = "game-options" if name == settings.WEC_ENGINE_NAME else f"game-options-{name}"
        out.append({"engine": name, "label": label, "dom_id": dom_id, "groups": ui.OPTIONS.grouped_fields(bound)})
    return out


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/landing.html")
    context = {
        "games": selectors.user_games(request.user),
        "seeks": selectors.open_seeks(request.user),
        "form": NewGameForm(),
        "option_sections": _option_sections(),
    }
    return render(request, "games/home.html", context)


@login_required
@require_GET
def game_list(request):
    return render(
        request,
        "games/partials/game_list.html",
        {"games": selectors.user_games(request.user), "seeks": selectors.open_seeks(request.user)},
    )


@login_required
@require_POST
@rate_limited("challenge")
@rate_limited("notify")
@rate_limited("challenge_pair", key=challenged_player)
def new_game(request):
    form = NewGameForm(request.POST)
    engine = request.POST.get("engine") or settings.WEC_ENGINE_NAME
    ui = get_ui(engine if engine in UI_REGISTRY else settings.WEC_ENGINE_NAME)
    options_form = ui.OPTIONS.options_form_class()(request.POST) if _posts_options(request.POST, ui) else None
    if not form.is_valid() or (options_form is not None and not options_form.is_valid()):
        context = {
            "games": selectors.user_games(request.user),
            "seeks": selectors.open_seeks(request.user),
            "form": form,
            "option_sections": _option_sections(engine, options_form),
        }
        return render(request, "games/home.html", context, status=400)
    options = ui.OPTIONS.options_from_form(options_form.cleaned_data) if options_form is not None else {}
    try:
        game = services.create_game(creator=request.user, options=options, **form.game_kwargs())
    except services.GameError as exc:
        form.add_error(None, exc.message)
        context = {
            "games": selectors.user_games(request.user),
            "seeks": selectors.open_seeks(request.user),
            "form": form,
            "option_sections": _option_sections(engine, options_form),
        }
        return render(request, "games/home.html", context, status=exc.status)
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_POST
@rate_limited("challenge")
@rate_limited("notify")
def accept_seek(request, game_id: int):
    seek_taker(request, game_id)
    try:
        services.accept_seek(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as exc:
        return refused(request, exc.message, exc.status)
    return redirect("game_detail", game_id=game_id)


@login_required
@require_POST
@rate_limited("notify")
def cancel_seek(request, game_id: int):
    participant(request, game_id)
    try:
        services.cancel_seek(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as exc:
        return refused(request, exc.message, exc.status)
    return redirect("home")


@login_required
@require_GET
def game_detail(request, game_id: int):
    game, seat = participant(request, game_id)
    if game.status == Game.Status.CHALLENGE:
        return redirect("challenge_detail", game_id=game.pk)
    services.mark_notifications_read(request.user, game.pk)
    ui = get_ui(game.engine)
    context = _review_at(request, game, seat, ui.board_context(request, game, seat, **ui.board_params(request.GET)))
    context["ws_path"] = f"/ws/games/{game.pk}/"
    context["history_mode"] = board_page.history_mode(game)
    context["record_open"] = selectors.record_open(game.options)
    context["chat_messages"] = club_selectors.chat_messages(game, request.user) or []
    # Rendered into this page only (never into the cached board partial).
    context["since_last"] = board_page.since_last(game, seat, context.get("seen_signature"))
    context["board_template"] = ui.BOARD_TEMPLATE
    context["notation_label"] = ui.NOTATION_LABEL
    context["ui_script"] = ui.SCRIPT
    context["ui_stylesheet"] = ui.STYLESHEET
    context["ui_sprite"] = ui.SPRITE_TEMPLATE
    return render(request, "games/game.html", context)


@login_required
@require_GET
def game_board(request, game_id: int):
    # The live page fetches this when the game changed: the player has seen
    # it (its notifications are marked read in the same statement).
    try:
        game = services.open_game(game_id, request.user)
    except Game.DoesNotExist:
        raise Http404 from None
    seat = selectors.seat_for(game, request.user)
    if seat is None:
        raise Http404
    ui = get_ui(game.engine)
    params = ui.board_params(request.GET)
    # A review at a chosen Turn (`at`) is not the plain board of this version.
    plain = all(value is None for value in params.values()) and "at" not in request.GET
    return board_page.board_response(
        request,
        game,
        seat,
        lambda: _review_at(request, game, seat, ui.board_context(request, game, seat, **params)),
        cacheable=plain,
    )


def _review_at(request, game, seat, context):
    """An ended game's review at the Turn `at` of the query (a shared link, or
    a live refresh of a page that was showing that Turn)."""
    at = request.GET.get("at", "")
    # ASCII digits, and few of them: int() refuses "²", which str.isdigit() takes.
    if context.get("review") and at.isascii() and at.isdigit() and len(at) <= 9:
        ui = get_ui(game.engine)
        context["review"] = ui.review_context(game, seat, int(at), history=context["history"])
    return context


@login_required
@require_GET
def game_clocks(request, game_id: int):
    game, seat = participant(request, game_id)
    return render(
        request,
        "games/partials/clocks.html",
        {"game": game, "clocks": selectors.game_clocks(game), "clocks_url": reverse("game_clocks", args=[game.pk])},
    )


@login_required
@require_GET
def game_replay(request, game_id: int):
    """A position of an ended game's review (`at` = frame number)."""
    game, seat = participant(request, game_id)
    if not selectors.is_review(game):
        raise Http404
    try:
        at = int(request.GET.get("at", ""))
    except ValueError:
        at = None
    # An ended game never changes: each step is rendered once and kept (games.pages.review).
    return HttpResponse(review_page.step_html(game, seat, at))


def _ui_of(game_id: int):
    """The site package of a game's engine; a game that does not exist is a 404."""
    name = selectors.engine_name(game_id)
    if name is None:
        raise Http404
    return get_ui(name)


@login_required
@require_POST
@rate_limited("submit")
def game_act(request, game_id: int):
    """One action: JSON in `action` or one field per key (see forms.action_from_post),
    with the `version` (the player's own view version) the page showed.
    Anything but one of the player's legal actions is refused with a 4xx and
    changes nothing.

    An accepted action is answered from the game the service has just
    written (its seats carry the new view versions): the game is read once,
    under its lock, not before and again after."""
    error = None
    status = 200
    action = entry = None
    try:
        version_text = request.POST.get("version", "")
        expected = int(version_text) if version_text != "" else None
        action = action_from_post(request.POST, lambda: _ui_of(game_id))
        entry = services.submit_action(
            game_id, request.user, action, expected_version=expected, note_shown=bool(request.htmx)
        )
    except services.NotYourGame:
        raise Http404 from None  # no such game, or not the player's: as every game page answers
    except services.GameError as exc:
        error, status = exc.message, exc.status
    except ValueError as exc:  # ActionError, or a bad version
        error, status = (str(exc) if isinstance(exc, ActionError) else _("That is not a valid action.")), 400
    if entry is None:
        # Refused (rare): the game as it is now, and a stranger still gets a 404.
        game, seat = participant(request, game_id)
    else:
        game = entry.game
        seat = selectors.seat_for(game, request.user)  # with its new view version
    if not request.htmx:
        if error:
            return refused(request, error, status, game.pk)
        return redirect("game_detail", game_id=game.pk)
    ui = get_ui(game.engine)
    sel = ui.kept_selection(action) if error is None else None
    # Rendered once for this action: a board without selection or error goes
    # into the render cache, where the doorbell's refresh of this same version
    # (should it come before this answer is swapped in) finds it.  The
    # version is new, so the cache is not asked first.
    return board_page.board_response(
        request,
        game,
        seat,
        lambda: ui.board_context(request, game, seat, sel=sel, error=error),
        cacheable=sel is None and error is None,
        status=status,
        fresh=entry is not None,
        quiet=error is None,  # the player's own action made this board
    )


@login_required
@require_POST
@rate_limited("notify")
def resign(request, game_id: int):
    game, seat = participant(request, game_id)
    try:
        services.resign(game.pk, request.user)
    except services.GameError as exc:
        return refused(request, exc.message, exc.status, game.pk)
    return redirect("game_detail", game_id=game.pk)
