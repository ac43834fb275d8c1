"""Marshal and Spy's game options in plain words and as a form (the same
interface as games/ui/wec/options.py for Wec).  The engine's options.resolve
stays the judge of what is valid."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules.marshal import DEFAULT_OPTIONS

PREFIX = "mopt_"

# (name, label, kind, choices): "int" choices are (low, high).
GROUPS: list[tuple[Any, list[tuple[str, Any, str, tuple]]]] = [
    (
        _("Board"),
        [
            ("columns", _("Columns"), "int", (10, 12)),
            ("setup_rows", _("Rows in each setup zone"), "int", (3, 4)),
            ("neutral_rows", _("Neutral rows between the zones"), "int", (2, 6)),
            ("volcanoes", _("Volcanoes (at random in the neutral rows)"), "int", (0, 11)),
        ],
    ),
    (
        _("Turns"),
        [
            ("moves_per_turn", _("Moves per turn"), "choice", (("2", _("Two, by different pieces")), ("1", _("One")))),
            ("no_return", _("Stepping straight back"), "choice", (
                ("next_turn", _("Not during the side's next turn")),
                ("until_moved", _("Not until the piece has moved elsewhere")),
            )),
            ("turn_limit", _("Turn limit (0: none; a draw when reached)"), "int", (0, 1000)),
        ],
    ),
]

ALL = [opt for _title, opts in GROUPS for opt in opts]


def field_name(name: str) -> str:
    return PREFIX + name


def options_form_class(initial: dict | None = None) -> type[forms.Form]:
    values = {**DEFAULT_OPTIONS, **(initial or {})}
    fields: dict[str, forms.Field] = {}
    for name, label, kind, choices in ALL:
        if kind == "int":
            fields[field_name(name)] = forms.IntegerField(
                label=label, min_value=choices[0], max_value=choices[1], initial=values.get(name)
            )
        else:
            fields[field_name(name)] = forms.ChoiceField(label=label, choices=list(choices), initial=str(values.get(name)))
    return type("MarshalOptionsForm", (forms.Form,), fields)


def options_from_form(cleaned: dict) -> dict:
    """Only the values that differ from the standard game."""
    out = {}
    for name, _label, _kind, _choices in ALL:
        key = field_name(name)
        if key not in cleaned:
            continue
        value = cleaned[key]
        if isinstance(DEFAULT_OPTIONS[name], int):
            value = int(value)
        if value != DEFAULT_OPTIONS[name]:
            out[name] = value
    return out


def grouped_fields(form: forms.Form) -> list[tuple[Any, list]]:
    return [(title, [form[field_name(o[0])] for o in opts]) for title, opts in GROUPS]


def describe(options: dict) -> list[tuple[Any, list[tuple[Any, Any]]]]:
    out = []
    for title, opts in GROUPS:
        rows = []
        for name, label, kind, choices in opts:
            if name not in options or options[name] == DEFAULT_OPTIONS[name]:
                continue
            value = options[name]
            rows.append((label, dict(choices).get(str(value), value) if kind == "choice" else value))
        if rows:
            out.append((title, rows))
    return out
