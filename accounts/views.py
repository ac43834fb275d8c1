import math
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm
from django.db import IntegrityError, transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.services.errors import GameError, InvalidRequest
from games.vacation import services as vacation_services
from wecsite import ratelimit
from wecsite.ratelimit import rate_limited
from wecsite.siteurl import site_url

from .forms import LimitedPasswordResetForm, ProfileForm, SignUpForm, VacationForm


def posting_address(request) -> str | None:
    """The client's address for a form post; a GET (showing the form) is not counted."""
    return ratelimit.by_address(request) if request.method == "POST" else None


@require_http_methods(["GET", "POST"])
@rate_limited("signup", key=posting_address)
def signup(request):
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the same (folded) name between the check and the save.
            form.add_error(None, _("That name was taken a moment ago. Please choose another."))
            return render(request, "accounts/signup.html", {"form": form}, status=409)
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Wec Online, %(name)s!") % {"name": user.username})
        return redirect("home")
    return render(request, "accounts/signup.html", {"form": form})


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset request, limited per client address and per address
    typed (known or not: the answers never tell whether an account exists),
    with at most one email per account per WEC_RESET_EMAIL_SECONDS (silently:
    the same page, no second email; LimitedPasswordResetForm), and links
    built from SITE_URL only, never from the request's Host."""

    form_class = LimitedPasswordResetForm

    def post(self, request, *args, **kwargs):
        refused = ratelimit.limit_response(request, "reset", ratelimit.by_address(request))
        if refused is None:
            typed = request.POST.get("email", "")
            refused = ratelimit.limit_response(request, "reset_target", ratelimit.target_key(typed))
        if refused is not None:
            return refused
        base = site_url()
        self.extra_email_context = {
            "site_url": base,
            "site_name": urlsplit(base).netloc,
            "domain": urlsplit(base).netloc,
            "protocol": urlsplit(base).scheme,
        }
        return super().post(request, *args, **kwargs)


def _profile_context(form, vacation_form=None) -> dict:
    return {
        "form": form,
        "vacation_form": vacation_form or VacationForm(),
        "vacation_per_year": settings.WEC_VACATION_DAYS_PER_YEAR,
    }


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:
            request.user.refresh_from_db()
            form.add_error("display_name", _("That name was taken a moment ago. Please choose another."))
            return render(request, "accounts/profile.html", _profile_context(form), status=409)
        messages.success(request, _("Your profile was saved."))
        return redirect("profile")
    return render(request, "accounts/profile.html", _profile_context(form))


@login_required
@require_POST
@rate_limited("challenge")
def vacation(request):
    """Start (`what=start`, optional `days`) or end (`what=end`) a vacation:
    every running clock of the player's is paused meanwhile
    (games.vacation).  A refusal is a 4xx on the profile page with
    the reason, and nothing changes."""
    what = request.POST.get("what", "")
    vacation_form = VacationForm(request.POST)
    try:
        if what == "start":
            if not vacation_form.is_valid():
                raise InvalidRequest(" ".join(str(e) for errors in vacation_form.errors.values() for e in errors))
            vacation_services.start_vacation(request.user, days=vacation_form.cleaned_data.get("days"))
            messages.success(request, _("Your vacation has started: your clocks are paused."))
        elif what == "end":
            vacation_services.end_vacation(request.user)
            messages.success(request, _("Welcome back: your clocks are running again."))
        else:
            raise InvalidRequest(_("Choose to start or to end your vacation."))
    except GameError as exc:
        request.user.refresh_from_db()
        context = _profile_context(ProfileForm(instance=request.user), vacation_form)
        context["vacation_error"] = exc.message
        return render(request, "accounts/profile.html", context, status=exc.status)
    return redirect("profile")


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer once a username+address pair has failed too often:
    the login page again, with the reason, status 429 and Retry-After (the
    whole cool-off; each further failure starts it again)."""
    if isinstance(original_response, dict) and credentials is None:
        # axes' async middleware (the site under daphne) passes (request, credentials).
        credentials = original_response
    minutes = max(1, math.ceil(settings.AXES_COOLOFF_TIME.total_seconds() / 60))
    message = ngettext(
        "Too many failed logins for this account from your address. "
        "Please try again in %(minutes)d minute, or reset your password.",
        "Too many failed logins for this account from your address. "
        "Please try again in %(minutes)d minutes, or reset your password.",
        minutes,
    ) % {"minutes": minutes}
    username = (credentials or {}).get("username") or request.POST.get("username", "")
    form = AuthenticationForm(request, initial={"username": username})
    response = render(
        request,
        "registration/login.html",
        {"form": form, "lockout_message": message, "next": request.POST.get("next", "")},
        status=settings.AXES_HTTP_RESPONSE_CODE,
    )
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
