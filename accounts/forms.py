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
        fields = ("display_name", "email", "time_zone")
        labels = {"display_name": _("Display name"), "email": _("Email")}
