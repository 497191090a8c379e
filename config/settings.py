"""Tianhei settings, read from the environment.

Defaults give the embedded set-up (SQLite file, Celery tasks run in-process) with DEBUG
off: production sets DATABASE_URL, CELERY_BROKER_URL and SECRET_KEY; `make run` and
`make test` set DEBUG=1 for development, and `make run` adds TASKS_RUN_IN=thread: tasks in
threads of the web process, off the request thread. Security settings: docs/security.md.
"""

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config.env import database_from_url, env_bool, env_int, env_list

BASE_DIR = Path(__file__).resolve().parent.parent

#: Off unless set: a forgotten variable must not expose tracebacks and settings.
DEBUG = env_bool("DEBUG", False)

_DEV_SECRET = "dev-only-insecure-key-never-used-when-DEBUG-is-off"
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off"
            " (for development set DEBUG=1, as `make run` and `make test` do)."
        )
    SECRET_KEY = _DEV_SECRET

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc served from 'self', not a CDN
    "axes",  # login throttling and lockout
    "django_otp",
    "django_otp.plugins.otp_totp",  # two-factor log-in with a TOTP app
    "config.accounts",  # log-in with a second factor, API tokens, docs/security.md
    "league",
    "games",
    "results",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "config.csp.ContentSecurityPolicyMiddleware",  # on every response, errors included
    "config.limits.RequestSizeLimitMiddleware",  # 413 before reading an oversized body
    "config.limits.RefuseNulMiddleware",  # 400 for a NUL byte in the path, query or form
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django_otp.middleware.OTPMiddleware",  # request.user.is_verified()
    "config.accounts.middleware.SessionIdleMiddleware",  # idle sessions end
    "config.accounts.middleware.RequireTwoFactorMiddleware",  # staff when OTP_REQUIRED_FOR_STAFF
    "config.middleware.ProfileLanguageMiddleware",  # profile > cookie > browser
    "django.contrib.messages.middleware.MessageMiddleware",
    "league.errors.UserErrorMiddleware",  # a page's UserError: message and back, or its page
    "league.middleware.RequestTimezoneMiddleware",  # a club's time zone ends with its request
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # answers a locked-out log-in with 429
    "config.db_retry.RetryDroppedConnectionMiddleware",  # a GET whose connection dropped: once more
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database: SQLite in the project by default, PostgreSQL in production ---------------
DATABASES = {
    "default": database_from_url(os.environ.get("DATABASE_URL", "sqlite:///db.sqlite3"), BASE_DIR),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Persistent connections save a connect per request (measured in docs/benchmarks.md).
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "60"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # Server-side binding lets psycopg prepare a statement after a few uses, so the hot
    # pages' queries are not planned again on every request (measured in
    # docs/benchmarks.md). Behind a transaction-pooling PgBouncer: DB_PREPARED_STATEMENTS=0.
    if env_bool("DB_PREPARED_STATEMENTS", True):
        pg_options = DATABASES["default"]["OPTIONS"]
        assert isinstance(pg_options, dict)
        pg_options.setdefault("server_side_binding", True)
        pg_options.setdefault("prepare_threshold", 5)
else:
    DATABASES["default"]["OPTIONS"] = {"timeout": 20}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache: Redis when configured, process memory otherwise ------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # a cache outage must cost a page a second at most, never hang it
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Celery: a real broker when configured, otherwise tasks run eagerly in-process -------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# Without a broker: "eager" runs a task inside delay() (the tests rely on it); "thread"
# (`make run`) runs it in a pool of TASKS_THREADS threads of the web process, so a request
# never waits for a draw and its page shows the progress (config/embedded_tasks.py).
TASKS_RUN_IN = os.environ.get("TASKS_RUN_IN", "").strip().lower() or (
    "worker" if CELERY_BROKER_URL else "eager"
)
if TASKS_RUN_IN not in (("worker",) if CELERY_BROKER_URL else ("eager", "thread")):
    raise ImproperlyConfigured(
        f"TASKS_RUN_IN={TASKS_RUN_IN!r}: use eager or thread without CELERY_BROKER_URL;"
        " with a broker, tasks run in the worker (leave TASKS_RUN_IN unset)."
    )
TASKS_THREADS = env_int("TASKS_THREADS", 2)
if TASKS_RUN_IN == "thread" and DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Task threads write (a draw's progress, its rounds) while requests do. A deferred
    # transaction that reads then writes gets "database is locked" at once when another
    # writer holds the lock (SQLite cannot wait there without a deadlock); BEGIN IMMEDIATE
    # takes the write lock first and waits up to `timeout`. Measured: 0 errors instead of
    # 98 failed check-ins during a 48-player draw (WAL alone made it worse).
    sqlite_options = DATABASES["default"]["OPTIONS"]
    assert isinstance(sqlite_options, dict)
    sqlite_options["transaction_mode"] = "IMMEDIATE"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = (
    os.environ.get(
        "CELERY_RESULT_BACKEND",
        CELERY_BROKER_URL if CELERY_BROKER_URL.startswith("redis") else "",
    )
    or None
)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A broker or result-backend outage: a request that enqueues gives up within ~2 s (the
# work stays stale for games.heal_results), instead of retrying for ~20 s.
CELERY_BROKER_CONNECTION_TIMEOUT = 1
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 2}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 1
CELERY_REDIS_SOCKET_TIMEOUT = 2
# The Redis result backend retries a lost server 20 times a second apart (~19 s) inside
# delay(); one quick retry, as for publishing.
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {
        "max_retries": 1,
        "interval_start": 0,
        "interval_step": 0.2,
        "interval_max": 0.2,
    }
}
# Standings left stale by a lost task (worker down, broker restarted) heal within a minute.
CELERY_BEAT_SCHEDULE = {
    "heal-results": {"task": "games.heal_results", "schedule": 60.0},
}

# --- Auth, i18n, static ------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
AUTHENTICATION_BACKENDS = [
    "config.accounts.backends.LockoutBackend",  # refuses a locked-out log-in first
    "django.contrib.auth.backends.ModelBackend",
]

# --- E-mail and sign-up (docs/accounts.md) -------------------------------------------------
# SMTP when EMAIL_HOST is set; otherwise every e-mail (sign-up links, password resets) is
# printed to the console, as under `make run`. EMAIL_BACKEND, when set, wins.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip()
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "").strip() or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)  # implicit TLS, usually port 465
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)  # STARTTLS, usually 587
if EMAIL_USE_SSL and EMAIL_USE_TLS:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL: set one of them, not both.")
EMAIL_PORT = env_int("EMAIL_PORT", 465 if EMAIL_USE_SSL else 587 if EMAIL_USE_TLS else 25)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
#: Seconds an SMTP server may take before sending gives up (the request then says so).
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "noreply@localhost"
SERVER_EMAIL = DEFAULT_FROM_EMAIL
#: The site's address as players reach it (``https://club.example``), for links in e-mails
#: sent by tasks, which have no request to take it from; empty: such links are paths.
SITE_URL = os.environ.get("SITE_URL", "").strip().rstrip("/")
#: Seconds a sign-up's confirmation link stays valid.
SIGNUP_VERIFY_SECONDS = env_int("SIGNUP_VERIFY_SECONDS", 3 * 24 * 60 * 60)
#: Seconds a password-reset link stays valid (Django's setting).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_SECONDS", 3 * 24 * 60 * 60)
#: Sign-ups, new confirmation links and password resets from one address per hour.
ACCOUNT_EMAILS_PER_HOUR = env_int("ACCOUNT_EMAILS_PER_HOUR", 10)

# --- Log-in throttling and lockout (django-axes; docs/security.md) -----------------------
#: Wrong passwords for one username from one address before both are locked out.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
#: How long the lockout lasts, in seconds.
AXES_COOLOFF_TIME = timedelta(seconds=env_int("LOGIN_LOCKOUT_SECONDS", 15 * 60))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_ENABLE_ACCESS_FAILURE_LOG = True  # every failure stays in the admin, with its address
AXES_SENSITIVE_PARAMETERS = ["password", "otp_token"]
AXES_CLIENT_IP_CALLABLE = "config.accounts.backends.client_ip"
#: Reverse proxies in front of the site that append to X-Forwarded-For (0: none, the
#: client is REMOTE_ADDR). The lockout counts by the address the nearest proxy saw.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0") or "0")

# --- Sessions: an idle session ends (config/accounts/middleware.py) ----------------------
#: Seconds without a request before a signed-in session ends.
SESSION_COOKIE_AGE = env_int("SESSION_IDLE_SECONDS", 8 * 60 * 60)
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"

# --- Two-factor log-in (django-otp, TOTP; docs/security.md) -------------------------------
#: Staff and superusers must enrol and give a code before using the site.
OTP_REQUIRED_FOR_STAFF = env_bool("OTP_REQUIRED_FOR_STAFF", False)
OTP_TOTP_ISSUER = "Tianhei"

# --- Content-Security-Policy (config/csp.py) ---------------------------------------------
CONTENT_SECURITY_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
}

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hans", _("Simplified Chinese")), ("es", _("Spanish"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- API -------------------------------------------------------------------------------
# --- Input limits (docs/security.md): every one a clear 400/413, each set by environment ----
#: Largest request body (uploads included) in bytes.
REQUEST_MAX_BYTES = env_int("REQUEST_MAX_BYTES", 10 * 1024 * 1024)
#: Largest non-file form body Django reads into memory, and its field count.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 2 * 1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = env_int("DATA_UPLOAD_MAX_NUMBER_FIELDS", 2000)
#: One game record (KGR/1 JSON) in bytes; a whole game is a few KiB.
RECORD_MAX_BYTES = env_int("RECORD_MAX_BYTES", 256 * 1024)
#: Violations stored and shown per record (the rest are counted in one last entry).
RECORD_MAX_VIOLATIONS = env_int("RECORD_MAX_VIOLATIONS", 200)
#: Files in one upload of game records.
UPLOAD_MAX_FILES = env_int("UPLOAD_MAX_FILES", 100)
#: Nesting of any JSON read from a request or a file.
JSON_MAX_DEPTH = env_int("JSON_MAX_DEPTH", 32)
#: A player CSV import: bytes and rows.
CSV_MAX_BYTES = env_int("CSV_MAX_BYTES", 1024 * 1024)
CSV_MAX_ROWS = env_int("CSV_MAX_ROWS", 2000)
#: A past-results spreadsheet (docs/imports.md): bytes and rows.
RESULTS_IMPORT_MAX_BYTES = env_int("RESULTS_IMPORT_MAX_BYTES", CSV_MAX_BYTES)
RESULTS_IMPORT_MAX_ROWS = env_int("RESULTS_IMPORT_MAX_ROWS", CSV_MAX_ROWS)
#: An event or club archive (docs/archives.md): the file, its members, their unpacked size.
ARCHIVE_MAX_BYTES = env_int("ARCHIVE_MAX_BYTES", 50 * 1024 * 1024)
ARCHIVE_MAX_MEMBERS = env_int("ARCHIVE_MAX_MEMBERS", 100_000)
ARCHIVE_MAX_UNCOMPRESSED = env_int("ARCHIVE_MAX_UNCOMPRESSED", 500 * 1024 * 1024)

#: Age in seconds after which an API token is refused (a new one is issued at
#: /api/v1/auth/token/); revoke one with `manage.py revoke_token USER`.
API_TOKEN_MAX_AGE = env_int("API_TOKEN_MAX_AGE", 30 * 24 * 60 * 60)

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": [
        "config.limits.StrictJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "config.accounts.tokens.ExpiringTokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "league.errors.api_exception_handler",  # UserError: status + code
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Tianhei API",
    "DESCRIPTION": "Leagues, events, draws, game records and standings for the Killer game.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Served from our own static files: the CSP allows no other origin.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Several models have a `status`; name each choice set after its model.
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "league.models.Event.Status",
        "RoundStatusEnum": "league.models.Round.Status",
        "RegistrationStatusEnum": "league.models.Registration.Status",
        "DrawJobStatusEnum": "league.models.DrawJob.Status",
        "GameStatusEnum": "games.models.Game.Status",
        "GameVersionStatusEnum": "games.models.GameVersion.Status",
    },
}

# --- Production hardening (passes `manage.py check --deploy` when DEBUG is off) ----------
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SAMESITE = "Lax"
    SECURE_CONTENT_TYPE_NOSNIFF = True
    if env_bool("BEHIND_TLS_PROXY", True):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
