"""Settings: the embedded default (SQLite, eager Celery) unless the environment names the
real stack.

Only this module reads os.environ. Every variable is explained in docker/.env.example.
"""

import os
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-only-insecure-secret-key-change-me"
# DJANGO_SECRET_KEY as docker/.env.example shipped it until issue 29: refused wherever it is found
# (an .env copied from the old example).
EXAMPLE_SECRET = "replace-me-with-a-long-random-string-of-at-least-fifty-characters"
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)"
    )


def _port(name: str, parts) -> int | None:
    """The URL's port, or ImproperlyConfigured naming the variable (urlparse raises a bare
    ValueError for "host:63x9")."""
    try:
        return parts.port
    except ValueError:
        where = parts.netloc.rsplit("@", 1)[-1]  # never the password
        raise ImproperlyConfigured(
            f"{name} has a port that is not a number from 0 to 65535: {where!r}"
        ) from None


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None


def _sqlite(name: str) -> dict:
    """The embedded SQLite file, set for a service with several threads: readers never wait for a
    writer (the write-ahead log), and a write waits its turn behind another (an import or a publish
    holds the write lock for seconds) instead of failing at once with "database is locked": with
    SQLite's default deferred transactions, a transaction that read first cannot wait for the lock
    and fails at once. JUDGEAPP_SQLITE_BUSY_TIMEOUT (seconds) bounds the wait; past it the request
    answers 503 (judgeapp.api_guard)."""
    return {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": name,
        "OPTIONS": {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
            "transaction_mode": "IMMEDIATE",
            "timeout": env_float("JUDGEAPP_SQLITE_BUSY_TIMEOUT", 10),
        },
    }


def database_from_url(url: str, sqlite_path: Path) -> dict:
    """Django DATABASES entry from a postgres:// or sqlite:// URL; empty means the embedded
    SQLite file."""
    if not url:
        return _sqlite(str(sqlite_path))
    parts = urlparse(url)
    if parts.scheme in ("postgres", "postgresql", "pgsql"):
        # Every wait on PostgreSQL is bounded (issue 29): connecting (libpq's connect_timeout, at
        # least 2 s), a statement on the server (statement_timeout: the generous one here, for
        # workers and imports; web requests set the shorter JUDGEAPP_DB_REQUEST_TIMEOUT on their
        # connections), a peer gone silent (keepalives, tcp_user_timeout), and a server that accepts
        # TCP but never answers (the watchdog of judgeapp.db_guard, the ENGINE). The URL's own
        # query wins.
        options = {
            "connect_timeout": str(env_int("JUDGEAPP_DB_CONNECT_TIMEOUT", 3)),
            "options": (
                "-c "
                f"statement_timeout={int(env_float('JUDGEAPP_DB_STATEMENT_TIMEOUT', 120) * 1000)}"
            ),
            "keepalives": "1",
            "keepalives_idle": "30",
            "keepalives_interval": "5",
            "keepalives_count": "3",
            "tcp_user_timeout": str(env_int("JUDGEAPP_DB_CONNECT_TIMEOUT", 3) * 1000 + 7000),
        }
        options.update({key: values[-1] for key, values in parse_qs(parts.query).items()})
        port = _port("DATABASE_URL", parts)
        return {
            "ENGINE": "judgeapp.db_guard",
            "NAME": unquote(parts.path.lstrip("/")) or "postgres",
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "OPTIONS": options,
            "CONN_MAX_AGE": env_int("DATABASE_CONN_MAX_AGE", 60),
            # A persistent connection the server dropped (a restart, pg_terminate_backend) is
            # checked before a request uses it and replaced, instead of failing that request.
            "CONN_HEALTH_CHECKS": True,
            "TEST": {"NAME": env_str("DATABASE_TEST_NAME", "") or None},
        }
    if parts.scheme == "sqlite":
        return _sqlite(unquote(parts.path) or str(sqlite_path))
    raise ImproperlyConfigured(
        f"DATABASE_URL scheme {parts.scheme!r} is not supported (use postgres:// or sqlite://)"
    )


# Safe by default (issue 29): debug is off unless DJANGO_DEBUG=1 asks for it (`make run`, the
# tests); then a real secret and the host names are required, and the example secret of
# docker/.env.example is refused everywhere (judgeapp.checks reports it in `check --deploy` too).
DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", "").strip()
# No secret in the environment: the file DJANGO_SECRET_KEY_FILE names, which compose's `setup` (and
# scripts/stack) make once with a random secret, so the example environment runs as shipped.
_SECRET_FILE = env_str("DJANGO_SECRET_KEY_FILE", "").strip()
if not SECRET_KEY and _SECRET_FILE:
    try:
        SECRET_KEY = Path(_SECRET_FILE).read_text().strip()
    except OSError as exc:
        raise ImproperlyConfigured(
            f"DJANGO_SECRET_KEY_FILE={_SECRET_FILE!r} cannot be read ({exc.strerror})"
        ) from None
SECRET_KEY = SECRET_KEY or DEV_SECRET
if SECRET_KEY == EXAMPLE_SECRET:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is the example value from docker/.env.example: set a secret of your "
        "own (python -c 'import secrets; print(secrets.token_urlsafe(50))'), or leave it unset "
        "and let DJANGO_SECRET_KEY_FILE name a file that holds one"
    )
if not DEBUG and SECRET_KEY == DEV_SECRET:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY (or DJANGO_SECRET_KEY_FILE) must be set when debug is off "
        "(DJANGO_DEBUG=1 turns debug on for development)"
    )
_hosts = env_str("DJANGO_ALLOWED_HOSTS", "*" if DEBUG else "")
ALLOWED_HOSTS = [h.strip() for h in _hosts.split(",") if h.strip()]
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS must name the site's host names (comma-separated) when debug is off "
        "(DJANGO_DEBUG=1 turns debug on for development)"
    )
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in env_str("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from the project's own static files
    "axes",  # login throttling: session login, admin, basic auth
    "rulesref",
    "search.apps.SearchConfig",
    "judgeapp.apps.JudgeAppConfig",
    "guides.apps.GuidesConfig",
    "jobs.apps.JobsConfig",
    "calllog.apps.CallLogConfig",
    "cards",
    "floor",
]

MIDDLEWARE = [
    "judgeapp.proxy.ForwardedForMiddleware",  # the client's address behind nginx (PROXY_COUNT)
    "judgeapp.db_guard.WebRequestMiddleware",  # a web request's queries get the shorter time limit
    "django.middleware.security.SecurityMiddleware",
    "judgeapp.api_guard.ApiGuardMiddleware",  # every answer under /api/v1/ is JSON
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.middleware.gzip.GZipMiddleware",  # big section pages shrink about tenfold
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # last (django-axes): answers a locked-out login
]

ROOT_URLCONF = "judgeapp.urls"
WSGI_APPLICATION = "judgeapp.wsgi.application"
ASGI_APPLICATION = "judgeapp.asgi.application"

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
            ],
        },
    },
]

DATABASES = {"default": database_from_url(env_str("DATABASE_URL", ""), BASE_DIR / "judge.sqlite3")}
# PostgreSQL's bounds (judgeapp.db_guard): a query of a web request (seconds; the server's
# statement_timeout for those connections, and the watchdog one second later), a query elsewhere
# (workers, imports: JUDGEAPP_DB_STATEMENT_TIMEOUT, in the connection options above), and how long a
# process answers 503 at once after a connect failed or a connection was cut, before trying again.
JUDGEAPP_DB_REQUEST_TIMEOUT = env_float("JUDGEAPP_DB_REQUEST_TIMEOUT", 5)
JUDGEAPP_DB_STATEMENT_TIMEOUT = env_float("JUDGEAPP_DB_STATEMENT_TIMEOUT", 120)
JUDGEAPP_DB_RETRY_SECONDS = env_float("JUDGEAPP_DB_RETRY_SECONDS", 1)
# How long a web request waits for PostgreSQL's first answer (the check of a kept connection, or a
# new connection) before it answers 503 and the process treats the database as away: the first
# request a process sends into a stall answers within a second. The wait grows with the slowest
# such answer the process saw lately (four times it, up to 0.9 s), so a database merely slow under
# load is waited for, not taken for stalled.
JUDGEAPP_DB_FIRST_WAIT = env_float("JUDGEAPP_DB_FIRST_WAIT", 0.6)
# Seconds a client is told to wait (Retry-After) when a dependency is down and the answer is 503.
JUDGEAPP_RETRY_AFTER = env_int("JUDGEAPP_RETRY_AFTER", 5)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

CACHES: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "judgeapp"}
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
CSRF_FAILURE_VIEW = "judgeapp.api_guard.csrf_failure"  # JSON under /api/v1/
# Login throttling (django-axes) for every way in: the sign-in page, the admin and the API's basic
# auth. After JUDGEAPP_LOGIN_FAILURE_LIMIT wrong passwords for one username from one address, that
# pair is locked out for JUDGEAPP_LOGIN_COOLOFF_MINUTES, the right password included.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_ENABLED = env_bool("JUDGEAPP_LOGIN_THROTTLING", True)
AXES_FAILURE_LIMIT = env_int("JUDGEAPP_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_float("JUDGEAPP_LOGIN_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "judgeapp.api_guard.locked_out"
# Proxies in front that set X-Forwarded-For (nginx: 1): judgeapp.proxy puts the client's address
# from it in REMOTE_ADDR, and judgeapp.api_limits.client_ip reads the same entry for the lockout
# and the API's limits alike.
JUDGEAPP_PROXY_COUNT = env_int("JUDGEAPP_PROXY_COUNT", 0)
AXES_IPWARE_PROXY_COUNT = JUDGEAPP_PROXY_COUNT or None
AXES_CLIENT_IP_CALLABLE = "judgeapp.api_limits.client_ip"

# HTTPS, each settable from the environment (off by default for `make run`; on in
# docker/.env.example, where `manage.py check --deploy` is then clean).
SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
# compose's health check asks over plain HTTP inside the network
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
SESSION_COOKIE_SECURE = env_bool("DJANGO_SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("DJANGO_CSRF_COOKIE_SECURE", False)
# Behind a proxy that ends TLS: trust its X-Forwarded-Proto header (only then: a client could
# send it).
SECURE_PROXY_SSL_HEADER = (
    ("HTTP_X_FORWARDED_PROTO", "https")
    if env_bool("DJANGO_SECURE_PROXY_SSL_HEADER", False)
    else None
)
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/events/"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
# collectstatic's folder; nginx serves it (compose: the `static` volume; scripts/stack: .stack/).
STATIC_ROOT = Path(env_str("JUDGEAPP_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
WHITENOISE_USE_FINDERS = DEBUG
# Hashed, compressed static files in production (collectstatic builds them), so a deploy never
# leaves tablets with stale CSS or JavaScript; plain files while developing.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_ROOT = Path(env_str("JUDGEAPP_MEDIA_ROOT", str(BASE_DIR / "media")))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        # django-axes sees its failures and lockouts
        "judgeapp.api_auth.ApiTokenAuthentication",  # Authorization: Token <key> (or Bearer)
        "judgeapp.api_auth.LockableBasicAuthentication",
    ],
    "DEFAULT_THROTTLE_CLASSES": ["judgeapp.api_limits.ApiRateThrottle"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "judgeapp.api_parsers.GuardedJSONParser",
        "judgeapp.api_parsers.GuardedFormParser",
        "judgeapp.api_parsers.GuardedMultiPartParser",
    ],
    "EXCEPTION_HANDLER": "judgeapp.api_errors.handle_api_exception",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # ?format= is no parameter of this API (and a field of game-outcome's body): never DRF's
    # renderer switch, whose unknown values answered a bare 404
    "URL_FORMAT_OVERRIDE": None,
}

# The OpenAPI schema (judgeapp/openapi/): /api/v1/schema/ and the docs page /api/v1/docs/.
SPECTACULAR_SETTINGS = {
    "TITLE": "judgeapp API",
    "DESCRIPTION": (
        "Rules reference, computations and the call log for Magic: The Gathering judges. "
        'Every error is {"error": {"code", "message", "details"}}.'
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "PREPROCESSING_HOOKS": ["judgeapp.openapi.hooks.api_only"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "judgeapp.openapi.hooks.add_default_errors",
        "judgeapp.openapi.hooks.json_request_bodies",
    ],
    # the documents' choice set, one name wherever a field or parameter takes it
    "ENUM_NAME_OVERRIDES": {"DocumentEnum": ["cr", "mtr", "ipg", "jar"]},
}


BROKER_SCHEMES = ("memory", "redis", "rediss", "amqp", "amqps", "pyamqp")


def _broker(url: str) -> str:
    """CELERY_BROKER_URL, checked as the service starts: a misspelt scheme ("reddis://") or port
    passed every check and health, then failed every job with a 500."""
    parts = urlparse(url)
    if parts.scheme not in BROKER_SCHEMES:
        raise ImproperlyConfigured(
            f"CELERY_BROKER_URL scheme {parts.scheme!r} is not supported (use redis://, rediss://, "
            "amqp:// or memory://)"
        )
    _port("CELERY_BROKER_URL", parts)
    return url


# Celery: memory:// (the default) runs every task in-process, eagerly.
CELERY_BROKER_URL = _broker(env_str("CELERY_BROKER_URL", "memory://localhost/"))
CELERY_TASK_ALWAYS_EAGER = CELERY_BROKER_URL.startswith("memory://")
# The queue jobs are sent to and workers take them from: two deployments (or two test runs) that
# share one broker keep their jobs apart by naming different queues.
CELERY_TASK_DEFAULT_QUEUE = env_str("JUDGEAPP_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("JUDGEAPP_TASK_TIME_LIMIT", 120)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("JUDGEAPP_TASK_SOFT_TIME_LIMIT", 100)
if not 0 < CELERY_TASK_SOFT_TIME_LIMIT < CELERY_TASK_TIME_LIMIT:
    raise ImproperlyConfigured(
        f"JUDGEAPP_TASK_SOFT_TIME_LIMIT={CELERY_TASK_SOFT_TIME_LIMIT} must be above 0 and below "
        f"JUDGEAPP_TASK_TIME_LIMIT={CELERY_TASK_TIME_LIMIT} (a job is told to stop at the soft "
        "limit, then killed at the hard one)"
    )
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A web process that sends a job to a broker that is down must find out in well under a second
# (jobs.dispatch leaves the job queued for the re-send); workers keep retrying their own connection.
CELERY_BROKER_CONNECTION_TIMEOUT = env_float("JUDGEAPP_BROKER_CONNECT_TIMEOUT", 0.5)
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": env_float("JUDGEAPP_BROKER_CONNECT_TIMEOUT", 0.5),
    # A broker that accepts TCP and never answers: a publish (or any blocking command) gives up
    # after this many seconds instead of waiting forever (issue 29).
    "socket_timeout": env_float("JUDGEAPP_BROKER_SOCKET_TIMEOUT", 2),
    "socket_keepalive": True,
    # Publishing connects once more at once, then gives up (kombu's default sleeps 2 s in retries).
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.1,
    # A job whose worker died unacknowledged goes back to the queue after this many seconds.
    "visibility_timeout": env_int("JUDGEAPP_VISIBILITY_TIMEOUT", 300),
    # How often (seconds) a worker looks for such jobs; kombu scans on the first look, then
    # every tenth.
    "unacked_restore_interval": env_int("JUDGEAPP_RESTORE_INTERVAL", 10),
}

# The API's counters (judgeapp.api_limits: rate limits, failed sign-ins by address, basic-auth
# successes remembered): one store that every gunicorn worker shares. Redis at
# JUDGEAPP_LIMITS_CACHE_URL, else the broker's Redis when the broker is Redis; else this process's
# memory, which is shared by all the requests of the embedded default (`make run`: one process).
# Short timeouts: a stalled Redis lets requests through uncounted instead of holding them.
JUDGEAPP_LIMITS_CACHE_URL = env_str(
    "JUDGEAPP_LIMITS_CACHE_URL",
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "",
)
CACHES["limits"] = (
    {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": JUDGEAPP_LIMITS_CACHE_URL,
        "KEY_PREFIX": "judgeapp-limits",
        "OPTIONS": {"socket_connect_timeout": 0.3, "socket_timeout": 0.3},
    }
    if JUDGEAPP_LIMITS_CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "limits"}
)
# Requests a minute one client may make to the API (DRF views; health is not counted): anonymous
# clients by address, signed-in judges by account; 0 means no limit.
JUDGEAPP_RATE_ANONYMOUS = env_int("JUDGEAPP_RATE_ANONYMOUS", 120)
JUDGEAPP_RATE_JUDGE = env_int("JUDGEAPP_RATE_JUDGE", 600)
# Computations (job POSTs) a minute, within those.
JUDGEAPP_JOB_RATE_ANONYMOUS = env_int("JUDGEAPP_JOB_RATE_ANONYMOUS", 10)
JUDGEAPP_JOB_RATE_JUDGE = env_int("JUDGEAPP_JOB_RATE_JUDGE", 60)
# What an anonymous shuffle analysis may ask for; more needs a signed-in judge (0: no cap).
JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_CARDS = env_int("JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_CARDS", 100)
JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_SHUFFLES = env_int("JUDGEAPP_ANONYMOUS_SHUFFLE_MAX_SHUFFLES", 20)
# Failed API authentications (basic or token, any username) one address may make in
# JUDGEAPP_AUTH_FAILURE_WINDOW seconds before every further attempt from it answers 429 without
# checking anything (0: no limit); and how long a right basic-auth password is remembered, so a
# client does not pay the password hash on every request (0: never).
JUDGEAPP_AUTH_FAILURE_LIMIT = env_int("JUDGEAPP_AUTH_FAILURE_LIMIT", 10)
JUDGEAPP_AUTH_FAILURE_WINDOW = env_int("JUDGEAPP_AUTH_FAILURE_WINDOW", 300)
JUDGEAPP_BASIC_AUTH_CACHE_SECONDS = env_int("JUDGEAPP_BASIC_AUTH_CACHE_SECONDS", 60)

# Largest rules document accepted by import_rules, the admin upload, the API upload and sync_rules:
# about five times the largest real one (the 2025 CR, 0.94 MB).
JUDGEAPP_MAX_DOCUMENT_BYTES = env_int("JUDGEAPP_MAX_DOCUMENT_BYTES", 5_000_000)
# A PDF is refused past this many pages (the longest real one, the MTR, has under 100) and when one
# of its compressed streams inflates past this many bytes (a "PDF bomb"; real streams are under
# 1 MB).
JUDGEAPP_PDF_MAX_PAGES = env_int("JUDGEAPP_PDF_MAX_PAGES", 500)
JUDGEAPP_PDF_MAX_STREAM_BYTES = env_int("JUDGEAPP_PDF_MAX_STREAM_BYTES", 32 * 1024 * 1024)
# A parsed rule longer than this many characters is refused (the longest real one is under 10,000).
JUDGEAPP_MAX_RULE_CHARS = env_int("JUDGEAPP_MAX_RULE_CHARS", 50_000)
# Where the rules documents live (tests, benchmarks and `setup` read them from here): every version
# in the shared rules folder beside the repository when it is there, else the current ones shipped
# in rules/.
_HISTORY_RULES_DIR = BASE_DIR.parent / "shared" / "rules"
JUDGEAPP_RULES_DIR = Path(
    env_str(
        "JUDGEAPP_RULES_DIR",
        str(_HISTORY_RULES_DIR if _HISTORY_RULES_DIR.is_dir() else BASE_DIR / "rules"),
    )
)
# Budgets for engines that search (STYLE 2): an eager task has no time limit of its own.
JUDGEAPP_LOOP_MAX_STEPS = env_int("JUDGEAPP_LOOP_MAX_STEPS", 10_000)
JUDGEAPP_SHUFFLE_MAX_SAMPLES = env_int("JUDGEAPP_SHUFFLE_MAX_SAMPLES", 200_000)
JUDGEAPP_SHUFFLE_THRESHOLD = env_float("JUDGEAPP_SHUFFLE_THRESHOLD", 0.25)
# Hybrid search: sentence-embedding vectors built after a publish (off: lexical search only).
SEARCH_VECTORS = env_bool("JUDGEAPP_SEARCH_VECTORS", True)
# Search vectors shipped for the shipped documents (search/shipped/), and where built search
# indexes are kept for the next process (empty: not kept).
SEARCH_SHIPPED_VECTORS = env_bool("JUDGEAPP_SEARCH_SHIPPED_VECTORS", True)
SEARCH_INDEX_CACHE = env_str("JUDGEAPP_SEARCH_INDEX_CACHE", str(BASE_DIR / ".cache" / "search"))
# sync_rules: official document URLs, comma-separated.
JUDGEAPP_SYNC_URLS = [
    u.strip()
    for u in env_str(
        "JUDGEAPP_SYNC_URLS",
        "https://media.wizards.com/2025/downloads/MagicCompRules%2020250207.txt",
    ).split(",")
    if u.strip()
]
# Pages whose links sync_rules follows to the MTR, IPG and JAR PDFs (rulesref.sync_pages).
JUDGEAPP_SYNC_PAGES = [
    u.strip()
    for u in env_str("JUDGEAPP_SYNC_PAGES", "https://magic.wizards.com/en/rules").split(",")
    if u.strip()
]

# Cards: Scryfall's bulk-data list (sync_cards and the daily task read it; tests serve their own).
JUDGEAPP_SCRYFALL_BULK_URL = env_str(
    "JUDGEAPP_SCRYFALL_BULK_URL", "https://api.scryfall.com/bulk-data"
)
JUDGEAPP_CARDS_TIMEOUT = env_int("JUDGEAPP_CARDS_TIMEOUT", 60)
# Jobs: ?wait=N holds a request thread; at most this many per web process wait at once, the others
# answer 202 at once (jobs.services.wait_for), so the health check is never starved.
JUDGEAPP_MAX_WAITS = env_int("JUDGEAPP_MAX_WAITS", 4)
# The re-send of jobs left queued (jobs.dispatch): how often beat runs it, how long a job may wait
# unsent before it is picked up, and after how long a sent job never started counts as lost.
JUDGEAPP_RESEND_SECONDS = env_int("JUDGEAPP_RESEND_SECONDS", 30)
JUDGEAPP_RESEND_GRACE_SECONDS = env_int("JUDGEAPP_RESEND_GRACE_SECONDS", 10)
JUDGEAPP_RESEND_STALE_SECONDS = env_int("JUDGEAPP_RESEND_STALE_SECONDS", 900)
# Jobs whose worker died (jobs.recovery): a worker renews a running job's heartbeat every
# JUDGEAPP_JOB_HEARTBEAT_SECONDS; one silent for JUDGEAPP_JOB_STALE_SECONDS is run again (or failed,
# with a message, after its last try) by beat every JUDGEAPP_STALE_CHECK_SECONDS: within a minute.
JUDGEAPP_JOB_HEARTBEAT_SECONDS = env_float("JUDGEAPP_JOB_HEARTBEAT_SECONDS", 5)
JUDGEAPP_JOB_STALE_SECONDS = env_int("JUDGEAPP_JOB_STALE_SECONDS", 40)
JUDGEAPP_STALE_CHECK_SECONDS = env_int("JUDGEAPP_STALE_CHECK_SECONDS", 15)
# Celery beat (run `celery -A judgeapp beat`; compose's beat service): the daily card sync, the
# re-send of jobs that could not be sent, the recovery of jobs whose worker died. One schedule; add
# entries here.
CELERY_BEAT_SCHEDULE = {
    "sync-cards-daily": {
        "task": "cards.sync_cards",
        "schedule": env_int("JUDGEAPP_CARDS_SYNC_SECONDS", 24 * 3600),
    },
    "resend-unsent-jobs": {"task": "jobs.resend_unsent_jobs", "schedule": JUDGEAPP_RESEND_SECONDS},
    "recover-stale-jobs": {
        "task": "jobs.recover_stale_jobs",
        "schedule": JUDGEAPP_STALE_CHECK_SECONDS,
    },
}

# Each line says when, how bad and from where (an operator reading `docker compose logs` or a
# journal needs all three), then the message.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {
            "format": "%(asctime)s %(levelname)s %(name)s [%(process)d]: %(message)s",
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    "root": {"handlers": ["console"], "level": env_str("JUDGEAPP_LOG_LEVEL", "WARNING")},
}
