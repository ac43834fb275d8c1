from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User, timezone_choices


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), required=True, help_text=_("Used only to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self):
        email = self.cleaned_data["email"]
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=timezone_choices)

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone", "email_on_turn", "on_vacation")
        labels = {
            "display_name": _("Display name"),
            "email": _("Email"),
            "email_on_turn": _("Email me when it is my turn (and when a game starts or ends)"),
            "on_vacation": _("I am on vacation"),
        }
        help_texts = {
            "on_vacation": _("Your clocks then use vacation days instead of running out."),
        }

    def clean(self):
        data = super().clean()
        if data.get("email_on_turn") and not data.get("email"):
            self.add_error("email", _("Give an email address to get emails."))
        if data.get("on_vacation") and not self.instance.on_vacation and self.instance.vacation_days <= 0:
            self.add_error("on_vacation", _("You have no vacation days left this year."))
        return data
