"""The club's pages: challenges and their terms, draw offers, chat, the
spectators' pages and the archive, a game's record and start for
download, players' profiles and the leaderboard.  Thin views."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import selectors, services
from games.club import challenges, draws
from games.club import chat as club_chat
from games.club import selectors as club_selectors
from games.forms import NewGameForm
from games.models import Game, Snapshot
from games.registry import UI_REGISTRY, get_ui
from games.registry import choices as game_choices
from wecsite.ratelimit import rate_limited

from .common import club_refused, participant


def _challenge_context(request, game, seat, proposal_form=None) -> dict:
    creator_seat = next(s for s in game.seats.all() if s.user_id == game.created_by_id)
    other = next(s for s in game.seats.all() if s.pk != seat.pk)
    game_options = get_ui(game.engine).OPTIONS
    proposal = game.proposal or None
    proposal_rows = None
    if proposal:
        proposal_rows = {
            "options": game_options.describe(proposal.get("options") or {}),
            "days_per_move": proposal.get("days_per_move"),
            "swap": proposal.get("swap"),
            # Only shown when the proposal changes the kind of game.
            "competitive": proposal.get("competitive", game.competitive),
            "kind_changes": proposal.get("competitive", game.competitive) != game.competitive,
            # Only shown when the proposal opens or closes the record.
            "open_record": selectors.record_open(proposal.get("options") or {}),
            "record_changes": (
                selectors.record_open(proposal.get("options") or {}) != selectors.record_open(game.options)
            ),
            "mine": proposal.get("by") == seat.color,
        }
    if proposal_form is None:
        proposal_form = game_options.options_form_class(game.options)()
    return {
        "game": game,
        "seat": seat,
        "opponent": other.user,
        "incoming": game.created_by_id != request.user.pk,
        "creator_color": creator_seat.color,
        "open_record": selectors.record_open(game.options),
        "offers_open_record": get_ui(game.engine).OPEN_RECORD,
        "option_rows": game_options.describe(game.options or {}),
        "proposal": proposal_rows,
        "option_groups": game_options.grouped_fields(proposal_form),
        "clock_form": NewGameForm(
            initial={"days_per_move": "none" if game.days_per_move is None else str(game.days_per_move)}
        ),
    }


@login_required
@require_GET
def challenge_detail(request, game_id: int):
    game, seat = participant(request, game_id)
    if game.status != Game.Status.CHALLENGE:
        return redirect("game_detail", game_id=game.pk)
    services.mark_notifications_read(request.user, game.pk)
    return render(request, "games/challenge.html", _challenge_context(request, game, seat))


@login_required
@require_POST
@rate_limited("challenge")
@rate_limited("notify")
def challenge_answer(request, game_id: int):
    """accept / decline the challenge, approve / reject a proposed change."""
    participant(request, game_id)
    answer = request.POST.get("answer", "")
    try:
        if answer == "accept":
            challenges.accept_challenge(game_id=game_id, user=request.user)
            return redirect("game_detail", game_id=game_id)
        if answer == "decline":
            challenges.decline_challenge(game_id=game_id, user=request.user)
            return redirect("home")
        if answer in ("approve", "reject"):
            challenges.answer_proposal(game_id=game_id, user=request.user, approve=answer == "approve")
            return redirect("challenge_detail", game_id=game_id)
        raise services.InvalidRequest(_answer_error())
    except Game.DoesNotExist:
        raise Http404 from None
    except services.GameError as exc:
        return club_refused(request, exc, game_id)


def _answer_error() -> str:
    return _("Choose accept, decline, approve or reject.")


@login_required
@require_POST
@rate_limited("challenge")
@rate_limited("notify")
def challenge_propose(request, game_id: int):
    game, seat = participant(request, game_id)
    game_options = get_ui(game.engine).OPTIONS
    options_form = game_options.options_form_class(game.options)(request.POST)
    clock = NewGameForm(request.POST)
    clock.is_valid()  # only its days_per_move is used here
    if not options_form.is_valid() or "days_per_move" in clock.errors:
        context = _challenge_context(request, game, seat, proposal_form=options_form)
        context["clock_form"] = clock
        return render(request, "games/challenge.html", context, status=400)
    kind = request.POST.get("kind", "")
    record = request.POST.get("open_record", "")
    try:
        if kind not in ("", "competitive", "friendly"):
            raise services.InvalidRequest(_kind_error())
        if record not in ("", "open", "closed"):
            raise services.InvalidRequest(_record_error())
        challenges.propose_change(
            game_id=game_id,
            user=request.user,
            options=game_options.options_from_form(options_form.cleaned_data),
            days_per_move=clock.cleaned_data.get("days_per_move"),
            creator_color=request.POST.get("creator_color") or None,
            competitive=None if not kind else kind == "competitive",
            open_record=None if not record else record == "open",
        )
    except services.GameError as exc:
        return club_refused(request, exc, game_id)
    return redirect("challenge_detail", game_id=game_id)


def _kind_error() -> str:
    return _("Choose a competitive or a friendly game.")


def _record_error() -> str:
    return _("Choose an open or a closed record.")


@login_required
@require_POST
@rate_limited("notify")
def draw(request, game_id: int):
    """offer / accept / decline a draw."""
    participant(request, game_id)
    answer = request.POST.get("answer", "")
    try:
        if answer == "offer":
            draws.offer_draw(game_id=game_id, user=request.user)
        elif answer in ("accept", "decline"):
            draws.answer_draw(game_id=game_id, user=request.user, accept=answer == "accept")
        else:
            raise services.InvalidRequest(_answer_error())
    except services.GameError as exc:
        return club_refused(request, exc, game_id)
    return redirect("game_detail", game_id=game_id)


def _chat_context(request, game) -> dict:
    seat = selectors.seat_for(game, request.user)
    return {
        "game": game,
        "seat": seat,
        "messages_": club_selectors.chat_messages(game, request.user) or [],
        "can_post": seat is not None and game.status in (Game.Status.ACTIVE, Game.Status.FINISHED),
    }


@require_GET
def chat(request, game_id: int):
    """The chat partial: the players', or anyone's once the game has ended."""
    try:
        game = selectors.get_game(game_id)
    except Game.DoesNotExist:
        raise Http404 from None
    if club_selectors.chat_messages(game, request.user) is None:
        raise Http404
    return render(request, "games/partials/chat.html", _chat_context(request, game))


@login_required
@require_POST
@rate_limited("submit")
@rate_limited("notify")
def chat_post(request, game_id: int):
    participant(request, game_id)
    what = request.POST.get("what", "post")
    try:
        if what == "post":
            club_chat.post_chat(game_id=game_id, user=request.user, text=request.POST.get("text", ""))
        elif what in ("mute", "unmute"):
            club_chat.set_chat_muted(game_id=game_id, user=request.user, muted=what == "mute")
        elif what == "report":
            try:
                message_id = int(request.POST.get("message", ""))
            except ValueError:
                raise services.InvalidRequest(_answer_error()) from None
            club_chat.report_chat(message_id=message_id, user=request.user)
        else:
            raise services.InvalidRequest(_answer_error())
    except services.GameError as exc:
        return club_refused(request, exc, game_id)
    if request.htmx:
        return render(request, "games/partials/chat.html", _chat_context(request, selectors.get_game(game_id)))
    return redirect("game_detail", game_id=game_id)


# --- spectators and the archive ------------------------------------------------------


def _watch_context(request, game, at=None) -> dict:
    ui = get_ui(game.engine)
    context = ui.watch_context(game, selectors.load_state(game), at=at)
    context["watch_template"] = ui.WATCH_TEMPLATE
    context["replay_template"] = ui.REPLAY_TEMPLATE
    context["ui_stylesheet"] = ui.STYLESHEET
    return context


def _watchable(game_id: int) -> Game:
    try:
        game = selectors.get_game(game_id)
    except Game.DoesNotExist:
        raise Http404 from None
    if game.status not in (Game.Status.ACTIVE, Game.Status.FINISHED):
        raise Http404
    return game


@require_GET
def watch(request, game_id: int):
    """Anyone may watch: the public view while the game runs, the full review after."""
    game = _watchable(game_id)
    context = _watch_context(request, game)
    context["chat_messages"] = club_selectors.chat_messages(game, None) or []
    return render(request, "games/watch.html", context)


@require_GET
def watch_board(request, game_id: int):
    game = _watchable(game_id)
    context = _watch_context(request, game)
    return render(request, context["watch_template"], context)


@require_GET
def watch_replay(request, game_id: int):
    game = _watchable(game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404
    try:
        at = int(request.GET.get("at", ""))
    except ValueError:
        at = None
    context = _watch_context(request, game, at=at)
    return render(request, context["replay_template"], context)


@require_GET
def archive(request):
    return render(
        request,
        "games/archive.html",
        {"finished": club_selectors.archive(), "running": club_selectors.watchable_games()},
    )


# --- export -------------------------------------------------------------------------


def _exporter(request, game_id: int):
    """The game and the colour whose record the requester may have: a player
    gets their own (censored while the game runs: what that side saw, with no
    starting information beyond the public header); anyone gets the full
    record once the game has ended.  A spectator gets nothing while it runs
    (the public view has no record lines), nor does anyone before it starts."""
    try:
        game = selectors.get_game(game_id)
    except Game.DoesNotExist:
        raise Http404 from None
    seat = selectors.seat_for(game, request.user)
    if game.status == Game.Status.FINISHED:
        return game, seat.color if seat else "black"
    if seat is None or game.status != Game.Status.ACTIVE:
        raise Http404
    return game, seat.color


def _header_value(value) -> str:
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


@require_GET
def export_record(request, game_id: int):
    """The record as a Wec notation file: a header of players, options and
    result in [Key "value"] lines, then one Turn per line."""
    game, color = _exporter(request, game_id)
    state = selectors.load_state(game)
    lines = selectors.history_lines(game, state, color)["notation"]
    players = {s.color: s.user for s in game.seats.all()}
    result = "*"
    if game.status == Game.Status.FINISHED and game.result:
        winner = game.result.get("winner")
        result = {"black": "1-0", "white": "0-1"}.get(winner, "1/2-1/2")
    header = [
        ("Site", "Wec Online"),
        ("Game", game.pk),
        ("Engine", game.engine),
        ("Black", players["black"].username if players.get("black") else "?"),
        ("White", players["white"].username if players.get("white") else "?"),
        ("Competitive", "yes" if game.competitive else "no"),
        ("Options", json.dumps(game.options or {}, sort_keys=True)),
        ("Result", result),
        ("Reason", (game.result or {}).get("reason", "")),
    ]
    if game.status != Game.Status.FINISHED:
        # True of the lines below: the engine's test says whether they hide
        # what this side did not see (an agreed open record does not).
        censored = selectors.record_censored(game, state, color)
        header.append(("Record", f"as {color} saw it" if censored else "open: every action of both sides"))
    text = "".join(f'[{key} "{_header_value(value)}"]\n' for key, value in header) + "\n"
    ui = get_ui(game.engine)
    if ui.RECORD_NUMBERED:  # the notation numbers its own lines
        text += "".join(f"{line}\n" for line in lines)
    else:
        text += "".join(f"{n}. {line}\n" for n, line in enumerate(lines, start=1))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{game.engine}-game-{game.pk}.{ui.EXPORT_EXTENSION}"'
    return response


@require_GET
def export_scenario(request, game_id: int):
    """The starting position as the engine's scenario JSON: only once the game
    has ended (a custom start may hold pieces one side cannot see)."""
    game, _color = _exporter(request, game_id)
    if game.status != Game.Status.FINISHED:
        raise Http404
    snapshot = Snapshot.objects.filter(game=game, seq=0).first()
    if snapshot is None:
        raise Http404
    response = JsonResponse(snapshot.state, json_dumps_params={"indent": 1, "sort_keys": True})
    response["Content-Disposition"] = f'attachment; filename="{game.engine}-game-{game.pk}-start.json"'
    return response


# --- people --------------------------------------------------------------------------


@require_GET
def player_profile(request, username: str):
    user = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if user is None:
        raise Http404
    record = club_selectors.player_record(user)
    return render(
        request,
        "games/player.html",
        {"player": user, "record": record, "plot": club_selectors.rating_plot(record["ratings"])},
    )


@require_GET
def leaderboard(request):
    engine = request.GET.get("game") or settings.WEC_ENGINE_NAME
    if engine not in UI_REGISTRY:
        raise Http404
    context = {"players": club_selectors.leaderboard(engine=engine), "game_choices": game_choices(), "chosen": engine}
    return render(request, "games/leaderboard.html", context)
