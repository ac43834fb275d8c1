"""Reads of Wec's own pages: the scenarios the board editor, the sandbox and
a new game start from, and the sandbox's list of actions."""

from __future__ import annotations

from django.utils.translation import gettext as _


def scenario_document(source: str, user) -> tuple[str, dict] | None:
    """(name, document) of `source`: "shipped:<key>" or "id:<n>" (own or public)."""
    from games.models import Scenario

    from .scenario_text import SHIPPED, shipped_document

    kind, _sep, key = (source or "").partition(":")
    if kind == "shipped" and key in SHIPPED:
        return str(SHIPPED[key].title), shipped_document(key)
    if kind == "id" and key.isdigit():
        scenario = Scenario.objects.filter(pk=int(key)).first()
        if scenario and (scenario.public or (user.is_authenticated and scenario.owner_id == user.pk)):
            return scenario.name, scenario.document
    return None


def sandbox_choices(engine, state) -> list[tuple[str, list[tuple[int, str]]]]:
    """The side to move's legal actions in the sandbox, grouped for a select:
    [(group label, [(index into legal_actions, label)])]."""
    from .panels import _Names, describe, place_label

    if engine.outcome(state):
        return []
    color = engine.to_move(state)
    view = engine.view(state, color)
    names = _Names(view, color)
    groups: dict[str, list[tuple[int, str]]] = {}
    for index, action in enumerate(engine.legal_actions(state)):
        kind = action.get("type")
        place = action.get("from")
        if kind == "move":
            label = _("%(piece)s %(from)s to %(to)s") % {
                "piece": names.own(action.get("piece"), place), "from": place_label(place), "to": place_label(action["to"]),
            }
            if action.get("doze"):
                label += " " + _("dozing %(squares)s") % {
                    "squares": " ".join(f"({r},{c})" for r, c in action["doze"])}
            extra = sorted(k for k in action if k not in ("type", "piece", "from", "to", "doze"))
            if extra:  # anything else that tells two Moves apart
                label += " [" + ", ".join(f"{k}={action[k]}" for k in extra) + "]"
            group = _("Moves")
        elif kind == "end_turn":
            label, group = _("End turn"), _("End the Turn")
        else:
            label = describe(action, names, color).label
            if place is not None:
                label = f"{names.own(action.get('piece'), place)} {place_label(place)}: {label}"
            group = {"fire": _("Fires"), "reinforce": _("Reinforcements")}.get(kind, _("Articles"))
        groups.setdefault(str(group), []).append((index, str(label)))
    return list(groups.items())
