"""Every engine option of a Wec game, in plain words, grouped as the manual
groups its pre-game options (manual l. 301-345: movement system, Action
Restrictions, visibility, rates of fire, government, reinforcements, weapons,
XXX boxes).  The engine's own `resolve_options` stays the judge of what is
valid; this module only names things and builds the form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules.wec import DEFAULT_OPTIONS


@dataclass(frozen=True)
class Option:
    name: str
    label: Any
    kind: str  # "bool", "int", "choice"
    choices: tuple = ()  # (value, label) for "choice"; (low, high) for "int"


def _rng(low: int, high: int) -> tuple:
    return (low, high)


GOVERNMENT_CHOICES = (
    ("monarchy", _("Monarchy (King and Queen)")),
    ("dictatorship", _("Dictatorship (Dictator and Assassin)")),
    ("theocracy", _("Theocracy (Avatar and Acolyte)")),
    ("democracy", _("Democracy (President and Prime Minister)")),
)
AMOUNT_CHOICES = (("normal", _("As in the standard game")), ("none", _("None")))
RANGE_678 = (("6", "6"), ("7", "7"), ("8", "8"))

GROUPS: list[tuple[Any, list[Option]]] = [
    (
        _("Movement system and ranges"),
        [
            Option("movement", _("Movement system"), "choice", (
                ("weaponized", _("Weaponized Chess")),
                ("standard_chess", _("Standard chess movement")),
                ("mass_destruction", _("Chess of Mass Destruction")),
            )),
            Option("pawn_movement", _("Pawn movement (Chess of Mass Destruction)"), "choice", (
                ("all_sides_and_forward", _("Sideways and forward")),
                ("all_forward", _("Forward only")),
                ("all_but_front", _("Every way but straight ahead")),
            )),
            Option("tank_range", _("Tank range"), "choice", RANGE_678),
            Option("cleric_range", _("Cleric range"), "choice", RANGE_678),
            Option("queen_tank_range", _("Queen's range as a Tank"), "choice", RANGE_678),
            Option("queen_cleric_range", _("Queen's range as a Cleric"), "choice", RANGE_678),
            Option("sub_jet_combat", _("Subs and Jets take by moving (needs move-only restriction)"), "bool"),
            Option("doze_enemies", _("Dozers may push enemy Pieces"), "bool"),
            Option("transport_ground_to_ground_only", _("Transports go from ground to ground only"), "bool"),
            Option("transport_from_carrier", _("A carried Piece may start a Transport"), "bool"),
            Option("forbid_king_flying_sub", _("The King may not fly or dive"), "bool"),
        ],
    ),
    (
        _("Visibility"),
        [
            Option("stealth_invisibility", _("Stealthed Pieces are invisible"), "bool"),
            Option("submersion_invisibility", _("Submerged Pieces are invisible"), "bool"),
            Option("stealth_lock_on", _("Stealth blocks homing lock-on"), "bool"),
            Option("stealth_detect_in_range", _("Stealth is detected within range"), "bool"),
            Option("stealth_detection_range", _("Stealth detection range"), "int", _rng(0, 9)),
            Option("submersion_detection_range", _("Submersion detection range"), "int", _rng(0, 9)),
            Option("seen_when_firing", _("A hidden Piece is seen when it Fires"), "bool"),
            Option("dominance", _("Which concealment wins"), "choice", (
                ("submersion", _("Submersion")),
                ("stealth", _("Stealth")),
            )),
            Option("stealthed_kings", _("Kings start stealthed"), "bool"),
        ],
    ),
    (
        _("Action Restrictions"),
        [
            Option("action_restriction", _("Action Restriction"), "choice", (
                ("none", _("None")),
                ("move_only", _("Move only")),
                ("one_action_per_piece", _("One Action per Piece")),
                ("12dpxmr", _("12DPXMR")),
                ("12dpxmr_one_piece", _("12DPXMR for one Piece only")),
            )),
        ],
    ),
    (
        _("Rates of fire (turns between Fires)"),
        [
            Option("stunner_rate", _("Stunner"), "int", _rng(1, 9)),
            Option("flamer_rate", _("Flamer"), "int", _rng(1, 9)),
            Option("conversion_rate", _("Conversion"), "int", _rng(1, 9)),
            Option("rocket_rate", _("Rocket Launcher"), "int", _rng(1, 9)),
            Option("sam_rate", _("SAM Launcher"), "int", _rng(1, 9)),
            Option("torpedo_rate", _("Torpedo Launcher"), "int", _rng(1, 9)),
        ],
    ),
    (
        _("Government per player"),
        [
            Option("black_government", _("Black's government"), "choice", GOVERNMENT_CHOICES),
            Option("white_government", _("White's government"), "choice", GOVERNMENT_CHOICES),
        ],
    ),
    (_("Reinforcements"), [Option("reinforcements", _("Reinforcements"), "choice", AMOUNT_CHOICES)]),
    (
        _("Weapons"),
        [
            Option("weapon_articles", _("Weapon Articles on the board"), "choice", AMOUNT_CHOICES),
            Option("jet_rocket_range", _("Jet Rocket range (0 = none)"), "int", _rng(0, 9)),
            Option("homing_range", _("Homing range"), "int", _rng(0, 9)),
            Option("stunner_range", _("Stunner range"), "int", _rng(1, 9)),
            Option("stun_turns", _("Turns a stunned Piece stays stunned"), "int", _rng(1, 9)),
            Option("flamer_range", _("Flamer range"), "int", _rng(1, 9)),
        ],
    ),
    (_("XXX boxes"), [Option("xxx_boxes", _("XXX boxes"), "choice", AMOUNT_CHOICES)]),
]

ALL_OPTIONS = [opt for _group, opts in GROUPS for opt in opts]


def defaults() -> dict:
    return dict(DEFAULT_OPTIONS)


def field_name(name: str) -> str:
    return f"opt_{name}"


def options_form_class(initial: dict | None = None) -> type[forms.Form]:
    """A form with one field per option, initialised to `initial` (or the
    standard game's values)."""
    values = {**defaults(), **(initial or {})}
    fields: dict[str, forms.Field] = {}
    for opt in ALL_OPTIONS:
        value = values.get(opt.name)
        if opt.kind == "bool":
            fields[field_name(opt.name)] = forms.BooleanField(label=opt.label, required=False, initial=bool(value))
        elif opt.kind == "int":
            low, high = opt.choices
            fields[field_name(opt.name)] = forms.IntegerField(
                label=opt.label, min_value=low, max_value=high, initial=value
            )
        else:
            fields[field_name(opt.name)] = forms.ChoiceField(
                label=opt.label, choices=list(opt.choices), initial=str(value)
            )
    return type("GameOptionsForm", (forms.Form,), fields)


def options_from_form(cleaned: dict) -> dict:
    """The option dict from a valid options form: only the values that differ
    from the standard game (so records stay short)."""
    std = defaults()
    out = {}
    for opt in ALL_OPTIONS:
        key = field_name(opt.name)
        if key not in cleaned:
            continue
        value = cleaned[key]
        if opt.kind == "choice" and isinstance(std.get(opt.name), int):
            value = int(value)
        if value != std.get(opt.name):
            out[opt.name] = value
    return out


def grouped_fields(form: forms.Form) -> list[tuple[Any, list]]:
    """The form's bound fields grouped for the template."""
    return [(title, [form[field_name(o.name)] for o in opts]) for title, opts in GROUPS]


def describe(options: dict) -> list[tuple[Any, list[tuple[Any, Any]]]]:
    """The options that differ from the standard game, in plain words by group."""
    std = defaults()
    out = []
    for title, opts in GROUPS:
        rows = []
        for opt in opts:
            if opt.name not in options or options[opt.name] == std.get(opt.name):
                continue
            value = options[opt.name]
            if opt.kind == "bool":
                shown = _("yes") if value else _("no")
            elif opt.kind == "choice":
                shown = dict(opt.choices).get(str(value), value)
            else:
                shown = value
            rows.append((opt.label, shown))
        if rows:
            out.append((title, rows))
    return out
