"""Writes of the Wec board editor: saving a checked position as a scenario."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Scenario
from games.services import InvalidRequest, NotYourGame
from wecsite.inputs import text_problem

from .scenario_text import ScenarioTextError, check, parse


@transaction.atomic
def save_scenario(*, owner, name: str, text: str, public: bool, scenario_id: int | None = None):
    """Check a board-editor text with the engine and save it under `name`
    (a new scenario, or the owner's own `scenario_id`).  Raises InvalidRequest
    carrying the engine's message."""
    name = (name or "").strip()
    problem = text_problem(name)  # others see the names of public scenarios
    if problem is not None:
        raise InvalidRequest(problem)
    name = name[:80]
    if not name:
        raise InvalidRequest(_("Give the scenario a name."))
    try:
        doc = parse(text)
        check(doc)
    except ScenarioTextError as exc:
        raise InvalidRequest(exc.message) from None
    if scenario_id is not None:
        scenario = Scenario.objects.select_for_update().filter(pk=scenario_id, owner=owner).first()
        if scenario is None:
            raise NotYourGame(_("That is not your scenario."))
        scenario.name, scenario.public, scenario.document = name, bool(public), doc
        scenario.save()
        return scenario
    return Scenario.objects.create(owner=owner, name=name, public=bool(public), document=doc)
