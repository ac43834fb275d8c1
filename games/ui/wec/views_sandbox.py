"""The sandbox's thin views: one person plays both sides of a position."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from games import selectors, services
from games.engines import get_engine
from wecsite.ratelimit import rate_limited

from . import selectors as wec_selectors
from . import services_sandbox
from .board import build_board
from .panels import sandbox_choices
from .scenario_text import SHIPPED
from .selectors import scenario_document


def _context(request, box: dict | None) -> dict:
    context = {
        "shipped": [(key, shipped.title) for key, shipped in SHIPPED.items()],
        "scenarios": selectors.scenarios_for(request.user),
        "box": box,
    }
    if box is None:
        return context
    engine = get_engine("wec")
    state = services_sandbox.state_of(box)
    context.update({
        "board": build_board(wec_selectors.true_board(engine, state), "black"),
        "to_move": engine.to_move(state),
        "turn_number": state.turn_number,
        "outcome": engine.outcome(state),
        "choices": sandbox_choices(engine, state),
        "cursor": box["cursor"],
        "last": len(box["steps"]),
        "record": [str(line) for line in engine.history(state, None)],
    })
    return context


def _answer(request, status: int = 200, error: str = ""):
    context = _context(request, services_sandbox.current(request.session))
    context["error"] = error
    template = "games/wec/sandbox_panel.html" if request.htmx else "games/wec/sandbox.html"
    return render(request, template, context, status=status)


@login_required
def sandbox(request):
    """The sandbox page: start one, or play and step through the one kept in the session."""
    return _answer(request)


@login_required
@require_POST
@rate_limited("sandbox")
def sandbox_start(request):
    found = scenario_document(request.POST.get("source", ""), request.user)
    if found is None:
        raise Http404
    name, doc = found
    try:
        services_sandbox.start(request.session, doc, name)
    except services.GameError as exc:
        return _answer(request, exc.status, exc.message)
    return redirect("sandbox")


@login_required
@require_POST
@rate_limited("submit")
def sandbox_act(request):
    try:
        if "where" in request.POST:
            services_sandbox.step(request.session, request.POST["where"], request.POST.get("step"))
        elif request.POST.get("what") == "clear":
            services_sandbox.clear(request.session)
        else:
            services_sandbox.play(request.session, request.POST.get("action"), request.POST.get("step"))
    except services.GameError as exc:
        return _answer(request, exc.status, exc.message)
    if request.htmx:
        return _answer(request)
    return redirect("sandbox")


@login_required
@require_POST
@rate_limited("sandbox")
def sandbox_import(request):
    """A .wec record (pasted or uploaded), optionally with its starting
    position as JSON, to step through; a bad one is a 400 naming its line."""
    text = request.POST.get("record", "")
    upload = request.FILES.get("record_file")
    start_json = request.POST.get("start", "")
    try:
        if upload is not None:
            if upload.size > services_sandbox.MAX_RECORD_CHARS:
                raise services_sandbox.RecordError("too long")
            text = upload.read().decode("utf-8")
        services_sandbox.import_record(request.session, text, start_json)
    except UnicodeDecodeError:
        return _answer(request, 400, str(services_sandbox.RecordError("the file is not UTF-8 text").message))
    except services.GameError as exc:
        return _answer(request, exc.status, exc.message)
    return redirect("sandbox")
