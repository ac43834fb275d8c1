from django import forms
from django.utils.translation import gettext_lazy as _


class NewGameForm(forms.Form):
    OPPONENTS = [
        ("user", _("A player I name")),
        ("open", _("Anyone (post an open seek)")),
        ("ai", _("The server AI")),
    ]
    COLORS = [("random", _("Random")), ("black", _("Black (moves first)")), ("white", _("White"))]

    opponent = forms.ChoiceField(label=_("Opponent"), choices=OPPONENTS, initial="user", widget=forms.RadioSelect)
    username = forms.CharField(label=_("Opponent's username"), max_length=150, required=False)
    color = forms.ChoiceField(label=_("My color"), choices=COLORS, initial="random")

    def clean(self):
        data = super().clean()
        if data.get("opponent") == "user" and not data.get("username", "").strip():
            self.add_error("username", _("Name the player you want to challenge."))
        return data
