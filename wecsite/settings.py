"""Django settings for Wec Online.

Everything that differs between machines comes from the environment:
DATABASE_URL, REDIS_URL, SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS,
EMAIL_* and a few WEC_* knobs (see README.md).  Defaults are the safe
production ones; the dev runner (`./wec run`) sets DEBUG=1.
"""

import os
import sys
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)
TESTING = "pytest" in sys.modules or env_bool("WEC_TESTING", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG or TESTING:
        SECRET_KEY = "insecure-dev-only-key-do-not-use-in-production-0123456789"
    else:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if (DEBUG or TESTING) else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
]

ROOT_URLCONF = "wecsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "games.context_processors.notifications",
            ],
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "wecsite.asgi.application"

# --- Database ---------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/wec"
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0, conn_health_checks=True)}
if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
    raise ImproperlyConfigured("Wec Online needs PostgreSQL (DATABASE_URL=postgres://...).")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- Redis: channels, celery, cache ------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
# Prefix so that several runs (e.g. two test runs) can share one Redis safely.
# Tests get a per-run prefix (and Celery queue) unless one is given.
WEC_REDIS_PREFIX = os.environ.get("WEC_REDIS_PREFIX") or (f"wectest{os.getpid()}" if TESTING else "wec")

CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{WEC_REDIS_PREFIX}:asgi"},
    }
}

CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("WEC_CELERY_QUEUE") or WEC_REDIS_PREFIX
CELERY_TASK_ACKS_LATE = True
# A task whose worker died without acknowledging it (SIGKILL of the whole
# worker, a lost machine) goes back on the queue after this many seconds.
# (A killed pool child is requeued at once: play_ai_turn sets reject_on_worker_lost.)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": int(os.environ.get("WEC_CELERY_VISIBILITY_TIMEOUT", "3600"))}
if os.environ.get("WEC_CELERY_RESTORE_INTERVAL"):  # the fault tests: look for such tasks every N seconds
    CELERY_BROKER_TRANSPORT_OPTIONS["unacked_restore_interval"] = float(os.environ["WEC_CELERY_RESTORE_INTERVAL"])
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE = {
    "check-clocks": {
        "task": "games.tasks.check_clocks",
        "schedule": float(os.environ.get("WEC_CLOCK_CHECK_SECONDS", "60")),
    },
    # Re-queues AI turns that stalled (play_ai_turn is idempotent, so this is safe).
    "resume-ai-turns": {
        "task": "games.tasks.resume_ai_turns",
        "schedule": float(os.environ.get("WEC_AI_RESUME_SECONDS", "60")),
    },
    # Idempotent (a conditional update), so hourly is cheap and catches up after downtime.
    "top-up-vacation": {
        "task": "games.tasks.top_up_vacation",
        "schedule": 3600.0,
    },
}

# --- Auth ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- I18N ---------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static -------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve straight from the finders so no collectstatic step is needed in dev/tests.
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", True)

# --- Email ----------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Wec Online <noreply@localhost>")

# --- Security -------------------------------------------------------------------
SECURE_SSL = env_bool("SECURE_SSL", not DEBUG and not TESTING)
SESSION_COOKIE_SECURE = SECURE_SSL
CSRF_COOKIE_SECURE = SECURE_SSL
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if env_bool("BEHIND_PROXY", False) else None
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if (DEBUG or TESTING) else "3600"))
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# --- Wec --------------------------------------------------------------------------
WEC_ENGINE_NAME = "wec"
WEC_SNAPSHOT_EVERY = int(os.environ.get("WEC_SNAPSHOT_EVERY", "20"))
WEC_AI_USERNAME = os.environ.get("WEC_AI_USERNAME", "wec-ai")
# Correspondence clocks: the choices of days per move (a game may also have no clock).
WEC_DAYS_PER_MOVE_CHOICES = (1, 2, 3, 5, 7, 14)
WEC_DEFAULT_DAYS_PER_MOVE = 3
# Vacation days each user gets per calendar year (reset on 1 January, UTC).
WEC_VACATION_DAYS_PER_YEAR = int(os.environ.get("WEC_VACATION_DAYS", "30"))
# The site's address for links in emails.
WEC_SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}

# --- Robustness (games/tasks.py::play_ai_turn) ------------------------------------
# How often a failing AI turn is retried, and how far apart, before the game is
# flagged `needs_attention` for the operators.
WEC_AI_MAX_RETRIES = int(os.environ.get("WEC_AI_MAX_RETRIES", "3"))
WEC_AI_RETRY_SECONDS = float(os.environ.get("WEC_AI_RETRY_SECONDS", "5"))
# A running game where the AI is to move and nothing happened for this long is
# queued again by the resume-ai-turns beat job.
WEC_AI_STALL_SECONDS = float(os.environ.get("WEC_AI_STALL_SECONDS", "120"))
# Test-only: seconds the AI waits before each action (the fault tests kill a
# worker in the middle of a turn).  Always 0 in production.
WEC_AI_ACTION_DELAY = float(os.environ.get("WEC_AI_ACTION_DELAY", "0"))
