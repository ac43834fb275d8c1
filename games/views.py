"""Thin views: parse the request, call a selector or a service, render."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import selectors, services
from .board import build_board, parse_place, place_key
from .engine import get_game_engine
from .forms import NewGameForm
from .models import Game, other_color


def home(request):
    if not request.user.is_authenticated:
        return render(request, "games/landing.html")
    context = {
        "games": selectors.user_games(request.user),
        "seeks": selectors.open_seeks(request.user),
        "form": NewGameForm(),
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
def new_game(request):
    form = NewGameForm(request.POST)
    if not form.is_valid():
        context = {
            "games": selectors.user_games(request.user),
            "seeks": selectors.open_seeks(request.user),
            "form": form,
        }
        return render(request, "games/home.html", context, status=400)
    try:
        game = services.create_game(
            creator=request.user,
            opponent=form.cleaned_data["opponent"],
            username=form.cleaned_data.get("username", ""),
            color=form.cleaned_data["color"],
        )
    except services.GameError as exc:
        form.add_error(None, exc.message)
        context = {
            "games": selectors.user_games(request.user),
            "seeks": selectors.open_seeks(request.user),
            "form": form,
        }
        return render(request, "games/home.html", context, status=exc.status)
    return redirect("game_detail", game_id=game.pk)


@login_required
@require_POST
def accept_seek(request, game_id: int):
    try:
        services.accept_seek(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    return redirect("game_detail", game_id=game_id)


@login_required
@require_POST
def cancel_seek(request, game_id: int):
    try:
        services.cancel_seek(game_id=game_id, user=request.user)
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as exc:
        messages.error(request, exc.message)
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


def _board_context(request, game, seat, sel=None, to=None, error=None):
    engine = get_game_engine(game.engine)
    state = selectors.load_state(game)
    view = engine.view(state, seat.color)
    my_turn = game.status == Game.Status.ACTIVE and game.to_move == seat.color
    legal = engine.legal_actions(state) if my_turn else []
    options = None
    if my_turn and sel is not None:
        options = selectors.move_options(game, seat.color, *sel, state=state, view=view)
    board = build_board(view, seat.color, options=options, can_select=my_turn)
    choice = None
    if options and to is not None and to in options.targets:
        choice = {"to": to, "choices": options.targets[to]}
    names = {p["id"]: p["type"] for p in view.get("pieces", []) if p.get("id") is not None}
    other_here = []
    general = []
    for action in legal:
        kind = action.get("type")
        if kind in ("move", "end_turn"):
            continue
        label = selectors.describe_action(action, selectors._piece_names(view))
        frm = action.get("from")
        if sel is not None and frm is not None and tuple(frm) == sel:
            other_here.append(selectors.Choice(action=action, label=label))
        elif frm is None:
            general.append(selectors.Choice(action=action, label=label))
    opponent_seat = selectors.seat_by_color(game, other_color(seat.color))
    return {
        "game": game,
        "seat": seat,
        "color": seat.color,
        "opponent": opponent_seat.user if opponent_seat else None,
        "view": view,
        "board": board,
        "my_turn": my_turn,
        "can_end_turn": any(a.get("type") == "end_turn" for a in legal),
        "end_turn_json": json.dumps({"type": "end_turn"}),
        "selected": sel,
        "selected_key": place_key(sel) if sel else "",
        "selected_has_targets": bool(options and options.targets),
        "choice": choice,
        "other_here": other_here,
        "general_actions": general,
        "error": error,
        "piece_types": names,
        "board_url": reverse("game_board", args=[game.pk]),
        "act_url": reverse("game_act", args=[game.pk]),
        "history": _history(engine, state, seat.color),
    }


def _history(engine, state, color):
    try:
        return list(engine.history(state, color))
    except Exception:  # history is a nicety; never break the board for it
        return []


@login_required
@require_GET
def game_detail(request, game_id: int):
    game, seat = _participant(request, game_id)
    sel = parse_place(request.GET.get("sel"))
    to = parse_place(request.GET.get("to"))
    context = _board_context(request, game, seat, sel=sel, to=to)
    context["ws_path"] = f"/ws/games/{game.pk}/"
    return render(request, "games/game.html", context)


@login_required
@require_GET
def game_board(request, game_id: int):
    game, seat = _participant(request, game_id)
    sel = parse_place(request.GET.get("sel"))
    to = parse_place(request.GET.get("to"))
    return render(request, "games/partials/board.html", _board_context(request, game, seat, sel=sel, to=to))


@login_required
@require_POST
def game_act(request, game_id: int):
    game, seat = _participant(request, game_id)
    error = None
    status = 200
    try:
        action = json.loads(request.POST.get("action", ""))
    except (TypeError, ValueError):
        action = None
    seq_text = request.POST.get("seq", "")
    try:
        expected = int(seq_text) if seq_text != "" else None
        if action is None:
            raise services.MalformedAction(_("That is not a valid action."))
        services.submit_action(game.pk, request.user, action, expected)
    except services.GameError as exc:
        error, status = exc.message, exc.status
    except ValueError:
        error, status = _("That is not a valid action."), 400
    if not request.htmx:
        if error:
            messages.error(request, error)
        response = redirect("game_detail", game_id=game.pk)
        return response
    game = selectors.get_game(game.pk)
    return render(
        request, "games/partials/board.html", _board_context(request, game, seat, error=error), status=status
    )


@login_required
@require_POST
def resign(request, game_id: int):
    game, seat = _participant(request, game_id)
    try:
        services.resign(game.pk, request.user)
    except services.GameError as exc:
        messages.error(request, exc.message)
    return redirect("game_detail", game_id=game.pk)


def healthz(request):
    return HttpResponse("ok", content_type="text/plain")
