"""Django settings for Wec Online.

Everything that differs between machines comes from the environment:
DATABASE_URL, REDIS_URL, SECRET_KEY, DEBUG, ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS,
EMAIL_* and a few WEC_* knobs (see README.md).  Defaults are the safe
production ones; the dev runner (`./wec run`) sets DEBUG=1.
"""

import os
import sys
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from games.registry import template_libraries
from wecsite.siteurl import dev_site_url

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
    "axes",
    "accounts",
    "games",
]
# The development tools (tools/site: benchmarks, load and soak commands, the
# benchmark's bare views) are an app of their own, installed only in
# development and tests so that a production install (DEBUG off, `./wec
# serve`) never loads them; WEC_DEVTOOLS=1 (or 0) decides explicitly.
WEC_DEVTOOLS = env_bool("WEC_DEVTOOLS", DEBUG or TESTING)
if WEC_DEVTOOLS:
    INSTALLED_APPS.append("tools.site")
# The benchmark's bare baseline views (tools/site/views.py): routed only on the
# benchmark's own web processes, which set WEC_BENCH_VIEWS=1, and never
# without the development tools' app.  Not on every development server: one
# of them writes to a table only the benchmark creates.
WEC_BENCH_VIEWS = WEC_DEVTOOLS and env_bool("WEC_BENCH_VIEWS", False)

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # CSP, Permissions-Policy and the other headers Django does not set.
    "wecsite.security.SecurityHeadersMiddleware",
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
    # The language a signed-in user chose wins over the browser's.
    "accounts.middleware.UserLanguageMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its answer.
    "axes.middleware.AxesMiddleware",
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
            # Each game's template tag libraries, from its site package's
            # templatetags folder (games.registry): the shared app's own
            # libraries (games/templatetags/) are found as any app's.
            "libraries": template_libraries(),
        },
    },
]

WSGI_APPLICATION = None
ASGI_APPLICATION = "wecsite.asgi.application"

# --- Database ---------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/wec"
# Persistent connections, checked before reuse: a request no longer
# pays for a new PostgreSQL connection.  Each web process runs its sync views
# on one thread (asgiref's thread-sensitive executor), so it holds one
# connection (plus one per websocket lookup thread at most); size PostgreSQL's
# max_connections (or the pooler, docs/scaling.md) for processes x 2.
# WEC_CONN_MAX_AGE=0 gives a new connection per request again.
DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=int(os.environ.get("WEC_CONN_MAX_AGE", "300")), conn_health_checks=True
    )
}
# The board fetch's few hand-written statements are prepared on each
# connection's first run of them (games.store.sql.prepared_cursor): on by default
# with persistent connections only (preparing costs a round trip, once per
# connection).  Turn off (WEC_PREPARED_STATEMENTS=0) behind a pooler in
# transaction mode that does not keep protocol-level prepared statements
# (PgBouncer before 1.21, or max_prepared_statements = 0): docs/scaling.md.
WEC_PREPARED_STATEMENTS = env_bool("WEC_PREPARED_STATEMENTS", DATABASES["default"]["CONN_MAX_AGE"] != 0)
if not DATABASES["default"]["ENGINE"].endswith("postgresql"):
    raise ImproperlyConfigured("Wec Online needs PostgreSQL (DATABASE_URL=postgres://...).")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- Redis: channels, celery, cache ------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
# Prefix so that several runs (e.g. two test runs) can share one Redis safely.
# Tests get a per-run prefix (and Celery queue) unless one is given.
WEC_REDIS_PREFIX = os.environ.get("WEC_REDIS_PREFIX") or (f"wectest{os.getpid()}" if TESTING else "wec")

# The layer's idle receive is a server-side blocking pop of
# RedisChannelLayer.brpop_timeout (5 s).  redis-py 8 gives every connection a
# 5 s client read timeout by default, which fires before the pop's empty reply
# comes back, so idle sockets died with 1011 every ~5 s (channels_redis#422,
# redis-py#4091).  The client read timeout must be longer than the blocking
# pop: 3x leaves room for a slow Redis, and still notices a dead connection
# (keepalive helps on top) instead of waiting for ever as `None` would.
CHANNEL_LAYER_SOCKET_TIMEOUT = float(os.environ.get("WEC_CHANNEL_SOCKET_TIMEOUT", "15"))
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    # A Redis of its own for the socket doorbells when given
                    # (docs/scaling.md): the broker's queues then never delay them.
                    "address": os.environ.get("WEC_CHANNELS_REDIS_URL") or REDIS_URL,
                    "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
                    "socket_connect_timeout": 5,
                    "socket_keepalive": True,
                }
            ],
            "prefix": f"{WEC_REDIS_PREFIX}:asgi",
        },
    }
}

# The rendered-board cache (games.pages.board): Redis, so every web process
# shares what any one of them rendered.  Its own alias, so that nothing else
# starts using Redis by accident through the default cache.
# Doorbells (Channels group messages after a commit) are sent by a
# background thread of each process, so a request does not wait for Redis
# (games/doorbells.py).  Off under pytest, where tests read the messages
# right after the call; WEC_DOORBELLS_IN_BACKGROUND=0 turns it off anywhere.
WEC_DOORBELLS_IN_BACKGROUND = env_bool("WEC_DOORBELLS_IN_BACKGROUND", "pytest" not in sys.modules)
WEC_RENDER_CACHE = "render"
WEC_RENDER_CACHE_SECONDS = int(os.environ.get("WEC_RENDER_CACHE_SECONDS", "3600"))
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    WEC_RENDER_CACHE: {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ.get("WEC_CACHE_REDIS_URL") or REDIS_URL,
        "KEY_PREFIX": f"{WEC_REDIS_PREFIX}:render",
        "TIMEOUT": WEC_RENDER_CACHE_SECONDS,
    },
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
    # The club: reminders before a timeout, and the daily digest.
    "send-reminders": {"task": "games.tasks.send_reminders", "schedule": 3600.0},
    "send-digests": {"task": "games.tasks.send_digests", "schedule": 86400.0},
}
# Remind a player this many hours before their time runs out.
WEC_REMINDER_HOURS = float(os.environ.get("WEC_REMINDER_HOURS", "24"))

# --- Auth ---------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Axes first: it refuses a locked-out username+address before the password is
# even checked; ModelBackend then does the real authentication.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- I18N ---------------------------------------------------------------------
LANGUAGE_CODE = "en"
# The interface languages; catalogues in locale/<lang>/LC_MESSAGES.
# Each name is written in its own language, so a reader finds their own.
LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("ru", "Русский"), ("pl", "Polski")]
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

# --- Security (see docs/security.md) ------------------------------------------------
SECURE_SSL = env_bool("SECURE_SSL", not DEBUG and not TESTING)
SESSION_COOKIE_SECURE = SECURE_SSL
CSRF_COOKIE_SECURE = SECURE_SSL
# A site served over HTTPS sends plain-HTTP visitors there (W008); a proxy that
# already redirects may turn this off.  /healthz stays reachable over HTTP for
# load balancers that probe the backend directly.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", SECURE_SSL)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "3600" if SECURE_SSL else "0"))
# W005 / W021: HSTS covers subdomains and may be preloaded.  Both only take
# effect with HSTS on; a domain whose subdomains still serve plain HTTP sets
# them to 0 (and accepts the check's warnings).
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# The Permissions-Policy header: the site uses none of these browser features.
WEC_PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=()"
)
# CSP_REPORT_ONLY=1 sends the policy as Content-Security-Policy-Report-Only
# (to try a change on a live site without breaking it).
WEC_CSP_REPORT_ONLY = env_bool("CSP_REPORT_ONLY", False)

# Login lockout (django-axes): after AXES_FAILURE_LIMIT failed logins for one
# username from one address, that pair is refused for AXES_COOLOFF_MINUTES.
# Tests get a limit no other suite reaches; the lockout test sets its own.
AXES_ENABLED = env_bool("AXES_ENABLED", True)
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", "1000" if TESTING else "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "wecsite.security.client_ip"
AXES_VERBOSE = False
AXES_HTTP_RESPONSE_CODE = 429

# Rate limits ("count/seconds", a fixed window in Redis; wecsite/ratelimit.py),
# per user unless said otherwise.  Generous: a player clicking fast makes a
# few actions a second at most.  Tests use limits no suite reaches; the
# rate-limit tests set their own (the production ones: WEC_RATE_LIMIT_DEFAULTS).
WEC_RATE_LIMIT_DEFAULTS = {
    "submit": "120/60",
    "challenge": "20/600",
    # Starting a sandbox or importing a record into it (a record is replayed
    # by the engine's search: some CPU per import).
    "sandbox": "30/600",
    # Every request that tells another player something (draw offers and
    # answers, take-back and undo requests, chat, challenges and their
    # answers, proposals, seeks answered): on top of the scopes above.
    "notify": "60/600",
    # New games against one named player, per challenger and name typed.
    "challenge_pair": "5/3600",
    # Per client address (wecsite.security.client_ip): sign-up and
    # password-reset form posts; per address typed: reset requests.
    "signup": "10/3600",
    "reset": "10/3600",
    "reset_target": "5/3600",
}
_RATE_LIMIT_VARIABLES = {
    "submit": "WEC_RATE_SUBMITS",
    "challenge": "WEC_RATE_CHALLENGES",
    "sandbox": "WEC_RATE_SANDBOX",
    "notify": "WEC_RATE_NOTIFY",
    "challenge_pair": "WEC_RATE_CHALLENGE_PAIR",
    "signup": "WEC_RATE_SIGNUP",
    "reset": "WEC_RATE_RESET",
    "reset_target": "WEC_RATE_RESET_TARGET",
}
WEC_RATE_LIMITS = {
    scope: os.environ.get(_RATE_LIMIT_VARIABLES[scope], "100000/60" if TESTING else rate)
    for scope, rate in WEC_RATE_LIMIT_DEFAULTS.items()
}
# A notice of the same kind for the same game within this many seconds
# renews the recipient's earlier one instead of adding a row, and is not
# emailed again (games.services.events.notify).
WEC_NOTICE_COALESCE_SECONDS = int(os.environ.get("WEC_NOTICE_COALESCE_SECONDS", "3600"))
# At most one password-reset email per account in this many seconds (a
# request within it is answered alike, without a second email).
WEC_RESET_EMAIL_SECONDS = int(os.environ.get("WEC_RESET_EMAIL_SECONDS", "900"))

# --- Wec --------------------------------------------------------------------------
WEC_ENGINE_NAME = "wec"
WEC_SNAPSHOT_EVERY = int(os.environ.get("WEC_SNAPSHOT_EVERY", "20"))
WEC_AI_USERNAME = os.environ.get("WEC_AI_USERNAME", "wec-ai")
# Correspondence clocks: the choices of days per move (a game may also have no clock).
WEC_DAYS_PER_MOVE_CHOICES = (1, 2, 3, 5, 7, 14)
WEC_DEFAULT_DAYS_PER_MOVE = 3
# Vacation days each user gets per calendar year (reset on 1 January, UTC).
WEC_VACATION_DAYS_PER_YEAR = int(os.environ.get("WEC_VACATION_DAYS", "30"))
# The site's address for every absolute link (emails): only this setting,
# never a request's Host (wecsite/siteurl.py).  Required with DEBUG off
# (system check wecsite.E001); development and tests default to the address
# the development server listens on (HOST and PORT, as `./wec run` uses them).
WEC_SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/") or (
    dev_site_url(os.environ.get("HOST"), os.environ.get("PORT")) if DEBUG or TESTING else ""
)
# Glicko-2's system constant (games/glicko2.py).
WEC_GLICKO_TAU = float(os.environ.get("WEC_GLICKO_TAU", "0.5"))

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
