from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.registry import choices
from wecsite.inputs import JSONInputError, read_json

if TYPE_CHECKING:
    from games.registry import GameUI


def clock_choices():
    choices = [
        (str(d), ngettext_lazy("%(n)d day per move", "%(n)d days per move", d) % {"n": d})
        for d in settings.WEC_DAYS_PER_MOVE_CHOICES
    ]
    return [*choices, ("none", _("No clock"))]


def _game_choices():
    return choices()


class NewGameForm(forms.Form):
    OPPONENTS = [
        ("user", _("A player I name")),
        ("open", _("Anyone (post an open seek)")),
        ("ai", _("The server AI")),
    ]
    COLORS = [("random", _("Random")), ("black", _("Black (moves first)")), ("white", _("White"))]

    engine = forms.ChoiceField(
        label=_("Game"), choices=lambda: _game_choices(), initial=lambda: settings.WEC_ENGINE_NAME, required=False
    )
    opponent = forms.ChoiceField(label=_("Opponent"), choices=OPPONENTS, initial="user", widget=forms.RadioSelect)
    username = forms.CharField(label=_("Opponent's username"), max_length=150, required=False)
    color = forms.ChoiceField(label=_("My color"), choices=COLORS, initial="random")
    days_per_move = forms.ChoiceField(
        label=_("Time per move"),
        choices=clock_choices,
        initial=lambda: str(settings.WEC_DEFAULT_DAYS_PER_MOVE),
        required=False,
        help_text=_("Games against the server AI have no clock unless you ask for one."),
    )

    KINDS = [("competitive", _("Competitive (rated; fixed options, no undo)")), ("friendly", _("Friendly (unrated)"))]
    # easy: the one-action AI; normal and hard search whole Turns from the
    # AI's own view (games.rules.wec.search), hard with the widest budget.
    AI_LEVELS = [("easy", _("Easy")), ("normal", _("Normal")), ("hard", _("Hard"))]
    kind = forms.ChoiceField(label=_("Kind of game"), choices=KINDS, initial="competitive", required=False)
    # Off by default: a friendly game keeps the fog of war unless both agree
    # (the challenged player sees the term before accepting; a seek's taker
    # sees it in the lobby) - docs/rulings.md "Open record".
    open_record = forms.BooleanField(
        label=_("Open record: every hidden action shows in both records while the game runs (friendly games only)"),
        required=False,
    )
    ai_level = forms.ChoiceField(label=_("AI level"), choices=AI_LEVELS, initial="easy", required=False)
    ai_clock = forms.BooleanField(label=_("Give my game against the AI a clock"), required=False)

    increment_hours = forms.IntegerField(
        label=_("Bank clock: hours added after each turn"),
        min_value=0,
        max_value=336,
        required=False,
        help_text=_("Leave empty for a plain time per move. With it, the time per move is each player's starting bank."),
    )
    bank_cap_days = forms.IntegerField(label=_("Bank clock: most days the bank may hold"), min_value=1, max_value=60, required=False)

    def clean_engine(self):
        return self.cleaned_data.get("engine") or settings.WEC_ENGINE_NAME

    def clean_kind(self):
        return self.cleaned_data.get("kind") or "competitive"

    def clean_ai_level(self):
        return self.cleaned_data.get("ai_level") or "easy"

    def clean_days_per_move(self):
        value = self.cleaned_data.get("days_per_move")
        if value in (None, ""):
            return int(settings.WEC_DEFAULT_DAYS_PER_MOVE)
        return None if value == "none" else int(value)

    def clean(self):
        data = super().clean()
        if data.get("opponent") == "user" and not data.get("username", "").strip():
            self.add_error("username", _("Name the player you want to challenge."))
        if data.get("open_record") and data.get("kind") != "friendly":
            self.add_error("open_record", _("An open record is for friendly games only."))
        return data

    def game_kwargs(self) -> dict:
        """The arguments of `services.create_game` this form fixes (a valid
        form): the same whether the game starts from the standard setup or a
        saved scenario."""
        data = self.cleaned_data
        return {
            "opponent": data["opponent"],
            "username": data.get("username", ""),
            "color": data["color"],
            "days_per_move": data["days_per_move"],
            "as_challenge": True,
            "competitive": data["kind"] != "friendly",
            "open_record": bool(data.get("open_record")),
            "engine": data.get("engine") or settings.WEC_ENGINE_NAME,
            "ai_level": data["ai_level"],
            "ai_clock": data["ai_clock"],
            "increment_hours": data.get("increment_hours"),
            "bank_cap_days": data.get("bank_cap_days"),
        }


# --- actions posted to the act endpoint ------------------------------------------------


class ActionError(ValueError):
    """The posted data is not an action at all (a 400 answer)."""


# An action is a small flat document (places are [row, col, level] lists);
# anything much bigger or deeper is not an action.
MAX_ACTION_CHARS = 4000
MAX_ACTION_DEPTH = 6


def action_from_post(data, ui: Callable[[], GameUI]) -> dict:
    """The action a request posted: JSON in `action` (any game), or the game's
    own one-field-per-key form, which its site package reads
    (``GameUI.action_from_fields``).  `ui` is a function giving that package
    (asked only for the field form, so a JSON post needs no read of the
    game).  Raises ActionError when it cannot be read; whether it is legal is
    the service's business."""
    raw = data.get("action")
    if raw not in (None, ""):
        try:
            action = read_json(raw, max_chars=MAX_ACTION_CHARS, max_depth=MAX_ACTION_DEPTH)
        except JSONInputError:
            raise ActionError(_("That is not a valid action.")) from None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise ActionError(_("That is not a valid action."))
        return action
    return ui().action_from_fields(data)
