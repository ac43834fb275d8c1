"""The Wec board editor's thin views: write a position (as text or by
clicking), check it with the engine, save it, start a game from it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games import selectors, services
from games.forms import NewGameForm
from games.views.common import challenged_player, club_refused
from wecsite.ratelimit import rate_limited

from . import NAME, OPTIONS, OPTIONS_PREFIX, board_editor
from .board import build_board
from .scenario_text import SHIPPED, ScenarioTextError, check, parse, shipped_about, to_text
from .selectors import scenario_document
from .services_scenarios import save_scenario


def _preview(doc: dict):
    """The whole position as the author wrote it (the author knows it all)."""
    view = {
        "pieces": [dict(p, stun=0) for p in doc.get("pieces", [])],
        "articles": doc.get("articles", []),
        "reinforcements": doc.get("reinforcements", []),
        "projectiles": [],
        "markers": [],
    }
    return build_board(view, "black")


def _editor_context(text: str, held: str = "") -> dict:
    """The point-and-click editor's palette and grid for the position in `text`
    (a text the parser refuses gets no grid: the text form shows the error)."""
    context = {
        "palette": board_editor, "held": held,
        "palette_tools": [("place", _("Place")), ("remove", _("Remove")), ("move", _("Move (pick up, then click where)"))],
        "palette_kinds": [("piece", _("Piece")), ("article", _("Article")), ("reinforcement", _("Reinforcement"))],
        "palette_governments": [("monarchy", _("Monarchy")), ("dictatorship", _("Dictatorship")),
                                ("theocracy", _("Theocracy")), ("democracy", _("Democracy"))],
    }
    try:
        doc = parse(text)
    except ScenarioTextError:
        return context
    context["grid"] = board_editor.squares(doc, held)
    context["governments"] = {color: board_editor.government_of(doc, color) for color in ("black", "white")}
    return context


@login_required
def scenario_editor(request):
    """Write a position, check it with the engine, save it, start a game from it.
    A click on the point-and-click editor's board posts here too (`square` or
    `what=government`): the text is changed and the editor comes back."""
    context = {"shipped": [(key, shipped.title) for key, shipped in SHIPPED.items()],
               "scenarios": selectors.scenarios_for(request.user)}
    status = 200
    held = ""
    if request.method == "POST":
        text = request.POST.get("text", "")[:20000]
        context.update({"text": text, "name": request.POST.get("name", ""), "public": bool(request.POST.get("public")),
                        "palette_state": board_editor.Palette.from_post(request.POST)})
        if request.POST.get("square") or request.POST.get("what") == "government":
            try:
                text, held, problem = board_editor.edit(text, request.POST)
                context["text"] = text
                if problem is not None:
                    context["error"], context["error_square"] = problem.message, problem.square
                else:
                    context["checked"] = True
                context["board"] = None
            except board_editor.EditorError as exc:
                # Nothing changes: the same text comes back with the complaint.
                context["error"], context["error_square"] = exc.message, exc.square
                status = 400
            context.update(_editor_context(context["text"], held))
            context["palette_state"].held = held
            if request.htmx:
                return render(request, "games/wec/scenario_editor.html", context, status=status)
            context["form"] = NewGameForm()
            return render(request, "games/wec/scenarios.html", context, status=status)
        try:
            doc = parse(text)
            check(doc)
            context["board"] = _preview(doc)
            if request.POST.get("what") == "save":
                scenario = save_scenario(
                    owner=request.user, name=context["name"], text=text, public=context["public"]
                )
                return redirect(f"{reverse('scenario_editor')}?from=id:{scenario.pk}")
            context["checked"] = True
        except ScenarioTextError as exc:
            context["error"], context["error_square"] = exc.message, exc.square
            status = 400
        except services.GameError as exc:
            context["error"] = exc.message
            status = exc.status
    else:
        found = scenario_document(request.GET.get("from", "shipped:standard"), request.user)
        if found is None:
            raise Http404
        name, doc = found
        context.update({"text": to_text(doc), "name": name, "board": _preview(doc),
                        "source": request.GET.get("from", "shipped:standard"),
                        "about": shipped_about(request.GET.get("from", "shipped:standard")),
                        "start_option_groups": _scenario_option_groups(doc)})
        context["palette_state"] = board_editor.Palette()
    context.update(_editor_context(context["text"], held))
    context["form"] = NewGameForm()
    return render(request, "games/wec/scenarios.html", context, status=status)


def _scenario_option_groups(doc: dict) -> list:
    """The options section of the scenario start form, set to the scenario's own options."""
    return OPTIONS.grouped_fields(OPTIONS.options_form_class(doc.get("options") or {})())


@login_required
@require_POST
@rate_limited("challenge")
@rate_limited("notify")
@rate_limited("challenge_pair", key=challenged_player)
def scenario_start(request):
    """A challenge, seek or AI game from a scenario, with the same choices as
    the new-game form (opponent, AI level and clock, colour, time per move or
    bank clock, competitive or friendly, the game options); only the position
    differs.  Options left out of the post are the scenario's own."""
    found = scenario_document(request.POST.get("source", ""), request.user)
    if found is None:
        raise Http404
    _name, doc = found
    form = NewGameForm(request.POST)
    options_form = None
    if any(key.startswith(OPTIONS_PREFIX) for key in request.POST):
        options_form = OPTIONS.options_form_class(doc.get("options") or {})(request.POST)
    if not form.is_valid():
        return club_refused(request, services.InvalidRequest(_answer_error_form(form)))
    if options_form is not None and not options_form.is_valid():
        return club_refused(request, services.InvalidRequest(_answer_error_form(options_form)))
    options = OPTIONS.options_from_form(options_form.cleaned_data) if options_form is not None else None
    try:
        # Scenarios are positions of this game: never another engine's.
        game = services.create_game(
            creator=request.user, scenario=doc, options=options, **{**form.game_kwargs(), "engine": NAME}
        )
    except services.GameError as exc:
        return club_refused(request, exc)
    return redirect("game_detail", game_id=game.pk)


def _answer_error_form(form) -> str:
    return " ".join(str(e) for errors in form.errors.values() for e in errors)
