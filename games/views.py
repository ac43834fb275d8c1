"""Thin views: parse the request, call a selector or a service, render."""

from __future__ import annotations

import logging
import sys
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.db import DatabaseError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from wecsite.ratelimit import rate_limited

from . import (
    arrows,
    boardcache,
    game_options,
    highlights,
    panels,
    review_cache,
    selectors,
    services,
    takeback,
)
from . import review as review_data
from .board import build_board, parse_place, place_key
from .engine import get_game_engine
from .forms import ActionError, NewGameForm, action_from_post
from .models import Game, other_color

logger = logging.getLogger(__name__)


def _refused(request, message: str, status: int, game_id: int | None = None):
    """A refused plain (non-htmx) POST: a small page saying why, with the
    refusal's own 4xx status (never a redirect that hides it)."""
    back_url = reverse("game_detail", args=[game_id]) if game_id is not None else ""
    return render(request, "games/refused.html", {"message": message, "back_url": back_url}, status=status)


def _posts_options(data) -> bool:
    """Whether the new-game form came with the game options section."""
    return any(key.startswith("opt_") for key in data)


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/landing.html")
    context = {
        "games": selectors.user_games(request.user),
        "seeks": selectors.open_seeks(request.user),
        "form": NewGameForm(),
        "option_groups": game_options.grouped_fields(game_options.options_form_class()()),
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
def new_game(request):
    form = NewGameForm(request.POST)
    options_form = game_options.options_form_class()(request.POST) if _posts_options(request.POST) else None
    if not form.is_valid() or (options_form is not None and not options_form.is_valid()):
        context = {
            "games": selectors.user_games(request.user),
            "seeks": selectors.open_seeks(request.user),
            "form": form,
            "option_groups": game_options.grouped_fields(options_form or game_options.options_form_class()()),
        }
        return render(request, "games/home.html", context, status=400)
    options = game_options.options_from_form(options_form.cleaned_data) if options_form is not None else {}
    try:
        game = services.create_game(creator=request.user, options=options, **form.game_kwargs())
    except services.GameError as exc:
        form.add_error(None, exc.message)
        context = {
            "games": selectors.user_games(request.user),
            "seeks": selectors.open_seeks(request.user),
            "form": form,
            "option_groups": game_options.grouped_fields(options_form or game_options.options_form_class()()),
        }
        return render(request, "games/home.html", context, status=exc.status)
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_POST
@rate_limited("challenge")
def accept_seek(request, game_id: int):
    try:
        services.accept_seek(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as exc:
        return _refused(request, exc.message, exc.status)
    return redirect("game_detail", game_id=game_id)


@login_required
@require_POST
def cancel_seek(request, game_id: int):
    try:
        services.cancel_seek(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as exc:
        return _refused(request, exc.message, exc.status)
    return redirect("home")


def _participant(request, game_id: int):
    try:
        game = selectors.get_game(game_id)
    except Game.DoesNotExist:
        raise Http404 from None
    seat = selectors.seat_for(game, request.user)
    if seat is None:
        raise Http404
    return game, seat


BOARD_MODES = ("aim", "dest")


def _board_params(data) -> dict:
    """The board partial's selection from query (or posted) data: `sel` place,
    optional `to` (a target with several choices), `mode` ("aim" / "dest"),
    `weapon` and own `piece` id for those modes."""
    params = {"sel": parse_place(data.get("sel")), "to": parse_place(data.get("to"))}
    mode = data.get("mode")
    if mode in BOARD_MODES and data.get("weapon"):
        params["mode"] = mode
        params["weapon"] = str(data.get("weapon"))[:40]
        try:
            params["piece"] = int(data["piece"]) if data.get("piece") else None
        except ValueError:
            params["piece"] = None
    return params


def _board_context(request, game, seat, sel=None, to=None, mode=None, weapon=None, piece=None, error=None):
    """Everything the board partial shows, from the player's own view and own
    legal actions only."""
    engine = get_game_engine(game.engine)
    state = selectors.load_state(game)
    view = engine.view(state, seat.color)
    my_turn = game.status == Game.Status.ACTIVE and game.to_move == seat.color
    legal = engine.legal_actions(state) if my_turn else []
    own_places = {
        (p.get("row"), p.get("col"), p.get("level", "ground"))
        for p in view.get("pieces", []) if p.get("color") == seat.color
    }
    if sel is not None and (not my_turn or sel not in own_places):
        sel = None
    options = panel = None
    if sel is not None:
        if mode in BOARD_MODES:
            options = panels.board_targets(legal, view, seat.color, sel, mode, weapon, piece)
        if not options or not options.targets:
            mode = None
            options = selectors.move_options(game, seat.color, *sel, state=state, view=view, legal=legal)
        panel = panels.action_panel(legal, view, seat.color, sel)
    board = build_board(view, seat.color, options=options, can_select=my_turn)
    hl = highlights.for_player(game, seat.color, view)
    highlights.mark(board, hl)
    choice = None
    if options and to is not None and to in options.targets:
        choice = {"to": to, "choices": options.targets[to], "title": panels.choice_title(options.kind, to)}
    query = {}
    if sel is not None:
        query["sel"] = place_key(sel)
        if mode:
            query.update({"mode": mode, "weapon": weapon})
            if piece is not None:
                query["piece"] = piece
    opponent_seat = selectors.seat_by_color(game, other_color(seat.color))
    history = selectors.history_lines(game, state, seat.color)
    review = _review_context(game, seat, history=history, state=state) if selectors.is_review(game) else None
    return {
        "game": game,
        "seat": seat,
        "color": seat.color,
        "opponent": opponent_seat.user if opponent_seat else None,
        "view": view,
        "board": board,
        "my_turn": my_turn,
        "turn_panel": panels.turn_panel(view, legal, seat.color) if my_turn else None,
        "selected": sel,
        "selected_key": place_key(sel) if sel else "",
        "sel_query": urlencode(query),
        "mode": mode,
        "mode_weapon": panels.weapon_name(weapon) if mode else "",
        "selected_has_targets": bool(options and options.targets),
        "choice": choice,
        "panel": panel,
        "error": error,
        "board_url": reverse("game_board", args=[game.pk]),
        "act_url": reverse("game_act", args=[game.pk]),
        "history": history,
        "review": review,
        "highlights": hl,
        "highlight_text": highlights.summary(hl),
        "clocks": selectors.game_clocks(game),
        "clocks_url": reverse("game_clocks", args=[game.pk]),
        "takeback": takeback.controls(game, seat, state),
        "arrows": arrows.for_player(game, seat.color, state, history["notation"]),
    }


def _review_context(game, seat, at=None, history=None, state=None):
    """One position of an ended game's replay: the true board after frame `at`
    (default: the end) with the plain-English line of the Turn that led to it.
    Only for ended games: before that, intermediate positions would leak."""
    frames = selectors.replay_frames(game)
    last = len(frames) - 1
    at = last if at is None else max(0, min(int(at), last))
    if history is None:
        history = selectors.history_lines(game, selectors.load_state(game), seat.color)
    # The true board comes from the review's frames (computed once per ended
    # game; games.review), not from a replay per step.
    view = review_data.frames_of(game, frames)[at].full
    three = _review_boards(game, seat, frames, at)
    line = plain = ""
    if at > 0:
        if at - 1 < len(history["notation"]):
            line = history["notation"][at - 1]
        if at - 1 < len(history["plain"]):
            plain = history["plain"][at - 1]
    return {
        "at": at,
        "last": last,
        "seq": frames[at],
        "board": build_board(view, seat.color),
        "line": line,
        "plain": plain,
        "url": reverse("game_replay", args=[game.pk]),
        "detail_url": reverse("game_detail", args=[game.pk]),
        **three,
    }


def _review_boards(game, seat, frames, at):
    """The review's knowledge boards (what Black and White each knew after
    frame `at`), the Squares where each learned something that Turn, the
    closest calls of hidden pieces, and the plot over the game."""
    fs = review_data.frames_of(game, frames)
    prev = fs[at - 1] if at > 0 else None
    boards = []
    for color in ("black", "white"):
        board = build_board(fs[at].views[color], seat.color)
        learned = review_data.learned(prev, fs[at], color)
        for line in board["grid"]:
            for sq in line["squares"]:
                sq["hl_learn"] = (sq["row"], sq["col"]) in learned
        near = review_data.threat(fs[at], color)
        boards.append({"color": color, "board": board, "learned": len(learned), "near": near[0] if near[1] else None})
    stats = review_data.summary(game, frames)
    return {"knowledge": boards, "stats": stats, "plot": review_data.plot(stats, at)}


@login_required
@require_GET
def game_detail(request, game_id: int):
    game, seat = _participant(request, game_id)
    if game.status == Game.Status.CHALLENGE:
        return redirect("challenge_detail", game_id=game.pk)
    services.mark_notifications_read(request.user, game.pk)
    context = _review_at(request, game, seat, _board_context(request, game, seat, **_board_params(request.GET)))
    context["ws_path"] = f"/ws/games/{game.pk}/"
    context["history_mode"] = boardcache.history_mode(game)
    context["chat_messages"] = selectors.chat_messages(game, request.user) or []
    return render(request, "games/game.html", context)


@login_required
@require_GET
def game_board(request, game_id: int):
    game, seat = _participant(request, game_id)
    # The live page fetches this when the game changed: the player has seen it.
    services.mark_notifications_read(request.user, game.pk)
    params = _board_params(request.GET)
    # A review at a chosen Turn (`at`) is not the plain board of this version.
    plain = params["sel"] is None and params["to"] is None and "mode" not in params and "at" not in request.GET
    return boardcache.board_response(
        request,
        game,
        seat,
        lambda: _review_at(request, game, seat, _board_context(request, game, seat, **params)),
        cacheable=plain,
    )


def _review_at(request, game, seat, context):
    """An ended game's review at the Turn `at` of the query (a shared link, or
    a live refresh of a page that was showing that Turn)."""
    if context.get("review") and request.GET.get("at", "").isdigit():
        context["review"] = _review_context(game, seat, int(request.GET["at"]), history=context["history"])
    return context


@login_required
@require_GET
def game_clocks(request, game_id: int):
    game, seat = _participant(request, game_id)
    return render(
        request,
        "games/partials/clocks.html",
        {"game": game, "clocks": selectors.game_clocks(game), "clocks_url": reverse("game_clocks", args=[game.pk])},
    )


@login_required
@require_GET
def game_replay(request, game_id: int):
    """A position of an ended game's review (`at` = frame number)."""
    game, seat = _participant(request, game_id)
    if not selectors.is_review(game):
        raise Http404
    try:
        at = int(request.GET.get("at", ""))
    except ValueError:
        at = None
    # An ended game never changes: each step is rendered once and kept (games.review_cache).
    html = review_cache.step_html(game, seat, at)
    return HttpResponse(html)


# --- notifications ----------------------------------------------------------------------


@login_required
@require_GET
def notifications(request):
    return render(
        request, "games/notifications.html", {"notifications": selectors.user_notifications(request.user)}
    )


@login_required
@require_GET
def notification_badge(request):
    return render(request, "partials/notification_badge.html")


@login_required
@require_POST
def notifications_read(request):
    services.mark_notifications_read(request.user)
    if request.htmx:
        return render(request, "partials/notification_badge.html")
    return redirect("notifications")


# After these, the acting piece stays selected (its panel shows what it may still do).
KEEP_SELECTION = ("fire", "pickup", "drop", "exchange")


def _kept_selection(action: dict):
    """The acting piece's place, to keep it selected after its action (not
    after a Move, End Turn or Transport, which leave or end it)."""
    if action.get("type") not in KEEP_SELECTION or (action["type"] == "fire" and "to" in action):
        return None
    frm = action.get("from")
    if not isinstance(frm, list) or len(frm) != 3:
        return None
    return parse_place("-".join(str(x) for x in frm))


@login_required
@require_POST
@rate_limited("submit")
def game_act(request, game_id: int):
    """One action: JSON in `action` or one field per key (see forms.action_from_post),
    with the `version` (the player's own view version) the page showed.
    Anything but one of the player's legal actions is refused with a 4xx and
    changes nothing."""
    game, seat = _participant(request, game_id)
    error = None
    status = 200
    action = None
    try:
        version_text = request.POST.get("version", "")
        expected = int(version_text) if version_text != "" else None
        action = action_from_post(request.POST)
        services.submit_action(game.pk, request.user, action, expected_version=expected)
    except services.GameError as exc:
        error, status = exc.message, exc.status
    except ValueError as exc:  # ActionError, or a bad version
        error, status = (str(exc) if isinstance(exc, ActionError) else _("That is not a valid action.")), 400
    if not request.htmx:
        if error:
            return _refused(request, error, status, game.pk)
        return redirect("game_detail", game_id=game.pk)
    game = selectors.get_game(game.pk)
    seat = selectors.seat_for(game, request.user)  # with its new view version
    sel = _kept_selection(action) if error is None else None
    # Rendered once for this action: a board without selection or error goes
    # into the render cache, where the doorbell's refresh of this same version
    # (should it come before this answer is swapped in) finds it.
    return boardcache.board_response(
        request,
        game,
        seat,
        lambda: _board_context(request, game, seat, sel=sel, error=error),
        cacheable=sel is None and error is None,
        status=status,
    )


@login_required
@require_POST
def resign(request, game_id: int):
    game, seat = _participant(request, game_id)
    try:
        services.resign(game.pk, request.user)
    except services.GameError as exc:
        return _refused(request, exc.message, exc.status, game.pk)
    return redirect("game_detail", game_id=game.pk)


def healthz(request):
    return HttpResponse("ok", content_type="text/plain")


def server_error(request):
    """handler500: a plain page that needs neither the database nor a session
    (either may be what failed).  A database outage is answered 503 (try again
    shortly); anything else 500.  Django has already logged the trace."""
    exc = sys.exc_info()[1]
    if isinstance(exc, DatabaseError):
        status = 503
        title = _("Wec Online is briefly unavailable")
        message = _("We cannot reach our database just now. Nothing you sent was half-done; please try again in a minute.")
    else:
        status = 500
        title = _("Something went wrong")
        message = _("Something went wrong on our side. The operators have been told; please try again later.")
    html = render_to_string("server_error.html", {"title": title, "message": message})
    response = HttpResponse(html, status=status)
    if status == 503:
        response["Retry-After"] = "30"
    return response
