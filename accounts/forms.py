from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from wecsite.inputs import forbidden_character, validate_one_line_text
from wecsite.ratelimit import first_in

from .models import User, timezone_choices
from .names import name_key
from .selectors import name_taken


def check_display_name(display_name: str, exclude_pk: int | None = None) -> str:
    """A display name others cannot mistake for another player's name (see
    accounts.names); raises ValidationError with the reason."""
    display_name = display_name.strip()
    if not display_name:
        return ""
    # The site's text policy (wecsite.inputs), without the joiners free text
    # allows: the fold drops them, so two names could differ by one.
    if forbidden_character(display_name) is not None:
        raise forms.ValidationError(_("A display name may not contain invisible or control characters."))
    if "@" in display_name:
        # "@" marks usernames on the site ("Name (@username)").
        raise forms.ValidationError(_("A display name may not contain “@”."))
    key = name_key(display_name)
    if not key:
        raise forms.ValidationError(_("A display name needs at least one letter or digit."))
    if name_taken(key, exclude_pk):
        raise forms.ValidationError(
            _("This display name is taken, or looks too much like another player's name. Please choose another.")
        )
    return display_name


class LoginForm(AuthenticationForm):
    """Django's login form, with the username's length and the text policy
    checked on the server: Django sets only the widget's maxlength, so a
    longer name reached authenticate() and django-axes stored the failed
    attempt in a 255-character column (a DataError)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators = [*field.validators, MaxLengthValidator(field.max_length or 150), validate_one_line_text]


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), required=True, help_text=_("Used only to reset your password."))

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "display_name", "email")
        labels = {"display_name": _("Display name")}
        help_texts = {"display_name": _("Optional. Others see it next to your username.")}

    def clean_username(self):
        username = super().clean_username()
        if not username or "username" in self._errors:  # already refused (taken in any case)
            return username
        if forbidden_character(username) is not None:
            raise forms.ValidationError(_("A username may not contain invisible or control characters."))
        if name_taken(name_key(username)):
            raise forms.ValidationError(
                _("This username is taken, or looks too much like another player's name. Please choose another.")
            )
        return username

    def clean_display_name(self):
        return check_display_name(self.cleaned_data.get("display_name", ""))

    def clean_email(self):
        email = self.cleaned_data["email"]
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class ProfileForm(forms.ModelForm):
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=timezone_choices)

    class Meta:
        model = User
        fields = ("display_name", "email", "time_zone", "email_on_turn", "email_digest", "auto_vacation")
        labels = {
            "display_name": _("Display name"),
            "email": _("Email"),
            "email_on_turn": _("Email me when it is my turn (and when a game starts or ends)"),
            "auto_vacation": _("Automatic vacation days"),
        }
        help_texts = {
            "auto_vacation": _(
                "When a clock of yours runs out, a vacation day is taken and you get one more day "
                "instead of losing the game."
            ),
        }

    def clean_display_name(self):
        return check_display_name(self.cleaned_data.get("display_name", ""), exclude_pk=self.instance.pk)

    def clean(self):
        data = super().clean()
        if data.get("email_on_turn") and not data.get("email"):
            self.add_error("email", _("Give an email address to get emails."))
        if data.get("auto_vacation") and not self.instance.auto_vacation and self.instance.vacation_days <= 0:
            self.add_error("auto_vacation", _("You have no vacation days left this year."))
        return data

    def save(self, commit: bool = True):
        """Only the form's own fields are written: the vacation balance and
        the vacation itself change under a row lock elsewhere (the clock
        check, games.vacation) and must not be overwritten with the
        values this request read."""
        user = super().save(commit=False)
        if commit:
            user.save(update_fields=[*self._meta.fields])
        return user


class VacationForm(forms.Form):
    """Start a vacation: for a number of days, or until it is ended (or the
    allowance runs out)."""

    days = forms.IntegerField(
        label=_("For how many days (leave empty to end it yourself)"), min_value=1, max_value=366, required=False
    )


class LimitedPasswordResetForm(PasswordResetForm):
    """Sends an account at most one reset email per WEC_RESET_EMAIL_SECONDS.
    A request within that time is answered as any other (no second email, no
    different page), so the answer never says whether the address is known."""

    def send_mail(self, subject_template_name, email_template_name, context, from_email, to_email, **kwargs):
        if not first_in("reset-email", context["user"].pk, settings.WEC_RESET_EMAIL_SECONDS):
            return
        super().send_mail(subject_template_name, email_template_name, context, from_email, to_email, **kwargs)
