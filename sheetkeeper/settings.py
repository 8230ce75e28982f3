"""Sheetkeeper settings: one module, read from the environment (docs/configuration.md).

Every variable has a safe default: ``DEBUG`` is off unless set (``make run`` and the tests
turn it on, and with it the defaults are for local use); a value that cannot be understood
stops the server at start-up with the variable's name rather than being silently ignored.
"""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured

from rulesets.registry import RULESETS

# Lets the classes that django-stubs types as generic (ModelAdmin[Campaign],
# ModelForm[Session]) be subscripted at run time too: it adds a __class_getitem__ that
# returns the class itself, and changes nothing else.
django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean variable: 1/true/yes/on or 0/false/no/off (any case).

    Raises ImproperlyConfigured for anything else, naming the variable.
    """
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}"
    )


def env_int(name: str, default: int, minimum: int = 0) -> int:
    """Read a whole number of at least ``minimum``.

    Raises ImproperlyConfigured for anything else, naming the variable.
    """
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        value = minimum - 1
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be a whole number >= {minimum}; got {raw!r}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    """Read a comma-separated list; blank items are dropped."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_rate(name: str, default: str) -> str:
    """Read a rate limit: a count, a slash and a period, ``10/h``, ``10/10m`` (s, m, h, d).

    Raises ImproperlyConfigured for anything else, naming the variable.
    """
    raw = (os.environ.get(name) or default).strip()
    match = re.fullmatch(r"([1-9]\d*)/(\d*)([smhd])", raw)
    if match is None or (match.group(2) and int(match.group(2)) == 0):
        raise ImproperlyConfigured(
            f"{name} must be a count per period such as 10/h or 10/10m; got {raw!r}")
    return raw


# Off unless the environment turns it on: a host that forgets the variable serves no debug
# pages and keeps every HTTPS protection. `make run` and the tests turn it on for themselves.
DEBUG = env_bool("DEBUG", default=False)

# The development key is in the repository, so anyone can sign a session with it: it serves
# this machine only (the loopback names), never a host others reach.
_DEV_SECRET_KEY = "sheetkeeper-insecure-development-key-do-not-use-in-production"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (on a development checkout, DEBUG=on "
            "as make run sets it)")
    SECRET_KEY = _DEV_SECRET_KEY
elif len(SECRET_KEY) < 32:
    raise ImproperlyConfigured("SECRET_KEY must be at least 32 characters long")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", list(LOOPBACK_HOSTS) if DEBUG else [])
if not DEBUG and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when DEBUG is off")
if SECRET_KEY == _DEV_SECRET_KEY and set(ALLOWED_HOSTS) - set(LOOPBACK_HOSTS):
    raise ImproperlyConfigured(
        "the development SECRET_KEY is public (it is in the repository) and serves only "
        f"{', '.join(LOOPBACK_HOSTS)}; set SECRET_KEY to serve "
        f"{', '.join(sorted(set(ALLOWED_HOSTS) - set(LOOPBACK_HOSTS)))}")

INSTALLED_APPS = [
    # First, so that `manage.py runserver` serves ASGI (the live table needs it).
    "daphne",
    # Before the admin: both ship registration/password_*.html, and the first app's win, so
    # the password change and reset pages (and the reset email) are the site's, not the
    # admin's. The admin's own password change page uses them too.
    "accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    # Work done off the request path (the reset email, pruning): Django's tasks API, backported
    # to 5.2, and its database backend's queue table and `db_worker` command.
    "django_tasks",
    "django_tasks_db",
    "django_htmx",
    "template_partials",
    "rulesets",
    "core",
    "campaigns",
    "characters",
    "rolls",
    "table",
    "equipment",
    "encounters",
    "history",
    # The group's chat: a campaign's Discord or Slack webhook and the posts it sends
    # (docs/history.md, "The group's chat").
    "chat",
    # Each system's sheet layer is an app of its own so that its templates/ and static/ are
    # found (systems/<slug>/), one per entry of the rules registry: a new system adds no line
    # here. systems.registry finds its SheetSystem by the campaign's slug.
    *(f"systems.{slug}" for slug, ruleset in RULESETS.items() if not ruleset.package),
    "transfer",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Early, so that its process_exception runs last, after any other middleware's: a view
    # that failed because the database is out of reach answers 503 + Retry-After (core).
    "core.unavailable.DatabaseUnavailableMiddleware",
    # Static files straight after the security headers, before sessions and the database.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # After auth, messages and htmx, which it reads: a write inside an archived campaign is
    # refused before its view runs (campaigns/archive.py).
    "campaigns.archive.ArchivedCampaignMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "sheetkeeper.urls"

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

WSGI_APPLICATION = "sheetkeeper.wsgi.application"
# The largest request body the ASGI server reads (sheetkeeper/asgi.py): an import's 10 MB file
# (transfer.format.MAX_UPLOAD_BYTES) with its form around it. A longer declared length is
# refused with 413 before a byte is read; nginx's client_max_body_size says the same first.
REQUEST_BODY_MAX_BYTES = 11 * 1024 * 1024
ASGI_APPLICATION = "sheetkeeper.asgi.application"

# Live events (core/live.py; the pages' stream is campaigns/live.py). One process: the
# in-memory layer. Several server processes share events through Redis: set REDIS_URL
# (redis://host:6379/0).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL:
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"REDIS_URL must be a redis:// URL; got {REDIS_URL!r}")
    # channels_redis' layer with connection settings fit for hour-long idle streams and a
    # pool that waits instead of failing (core/live.py, RedisLayer, says why).
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "core.live.RedisLayer", "CONFIG": {"hosts": [REDIS_URL]}}
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

_DEFAULT_DATABASE_URL = f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
_database_url = os.environ.get("DATABASE_URL", "").strip() or _DEFAULT_DATABASE_URL
try:
    # No persistent connections: under ASGI every request runs in a thread of its own, and a
    # kept connection would stay with a thread that may never serve again (Django's docs,
    # "Persistent connections"). Pooling belongs to the database driver or a pooler.
    DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=0)}
except ValueError as exc:  # dj-database-url raises ValueError for unknown schemes
    raise ImproperlyConfigured(f"DATABASE_URL is not a database URL we understand: {exc}") from exc
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite serialises writers. BEGIN IMMEDIATE takes the write lock when a transaction
    # starts (select_for_update is a no-op here), so two tabs spending the same XP queue up
    # for up to 20 s instead of one failing with "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    )
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "DATABASE_POOL", default=True
):
    # A pool of connections per server process (Django's psycopg pool): a request borrows one
    # and gives it back when it ends, instead of paying for a new PostgreSQL connection and
    # its authentication on every request. Size it so that workers x DATABASE_POOL_MAX stays
    # under PostgreSQL's max_connections (docs/deploy.md).
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_int("DATABASE_POOL_MAX", default=10, minimum=1),
        "timeout": 10,
    }
    # With a pool, Django's health checks become the pool's check: each connection runs an
    # empty query as it leaves the pool. After a PostgreSQL restart the pool still holds
    # connections the server has closed, and without the check the next requests would fail
    # on them (docs/reliability.md); a connection that fails the check is replaced by a new
    # one.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first: it refuses a locked-out login before the password is even checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns:campaign-list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", "").strip() or BASE_DIR / "staticfiles")
# With DEBUG off the server serves the files `manage.py collectstatic` gathered, compressed and
# under content-hashed names that browsers may cache for a year (whitenoise). With DEBUG on,
# files are found where they lie, so an edited stylesheet shows at once.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG

MESSAGE_TAGS = {40: "error"}

# The dice: production rolls with the operating system's CSPRNG (core.dice.get_rng);
# tests inject a seeded random.Random instead.

# HTTPS. With DEBUG off every default is the strict one (`check --deploy` is clean); each can be
# turned off for a plain-HTTP test on loopback. Behind a reverse proxy that ends TLS, set
# SECURE_PROXY_SSL_HEADER=on so Django believes the proxy's X-Forwarded-Proto (docs/deploy.md).
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", default=not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
if env_bool("SECURE_PROXY_SSL_HEADER", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=not DEBUG)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Content Security Policy (django-csp): scripts, styles, images and connections from this site
# only. No page has an inline script, inline style or event-handler attribute, and htmx is told
# not to add its own <style> or evaluate strings (the htmx-config meta tag in base.html), so
# nothing needs 'unsafe-inline' or 'unsafe-eval'.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

# Login rate limiting (django-axes): after AXES_FAILURE_LIMIT failed logins for one username
# from one address, that pair is refused for AXES_COOLOFF_MINUTES (HTTP 429 and a page that says
# so). Locking the pair rather than the username alone means a stranger cannot lock a GM out
# of their own table. Behind a proxy the address is the client's only if the ASGI server is
# told to trust the proxy's X-Forwarded-For (uvicorn --forwarded-allow-ips, docs/deploy.md).
AXES_ENABLED = env_bool("AXES_ENABLED", default=True)
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", default=5, minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", default=15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_VERBOSE = False
# The client's address, for axes as for every other limit: REMOTE_ADDR as the ASGI server set
# it after believing only the trusted proxy (FORWARDED_ALLOW_IPS, docs/deploy.md), never an
# X-Forwarded-For read here (core/net.py). Named, so that django-ipware arriving with some other
# package can never switch axes to the spoofable leftmost forwarded address.
AXES_CLIENT_IP_CALLABLE = "core.net.client_ip"

# The cache: the sign-up and invite limits count in it (core/limits.py). Several server
# processes must share the counts, so with REDIS_URL set it is Redis (Django's own backend;
# short socket timeouts, so a Redis outage delays nobody: the limits then let requests through
# with a warning). Without it, the process's memory: right for one process.
CACHES: dict[str, dict[str, object]]
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "sheetkeeper",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Rendered Markdown (core/markdown.py), kept by each process in its own memory even with
# REDIS_URL set: a render takes at most 50 ms, so each process rendering a text once is cheap,
# while in Redis every saved version of every text would stay until it expired, in the memory
# that carries the live events and the limits' counts, with nothing to bound it. Not the
# default cache either: rendered texts filling it would push out the limits' counts. At most
# 300 texts: a few MB for texts people write, about 60 MB if every one were a bomb.
CACHES["markdown"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "markdown",
    "TIMEOUT": None,
    "OPTIONS": {"MAX_ENTRIES": 300},
}
# Live regions as drawn for a seat at a campaign version (core.regions.recall), kept by each
# process in its own memory: the version in the key keeps an answer from going stale, so
# nothing is ever invalidated, and an entry is only worth keeping while pages ask at that
# version (a few minutes). A migration or a restart starts empty. At most 2,000 answers of a
# few kB each.
CACHES["regions"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "regions",
    "TIMEOUT": 600,
    "OPTIONS": {"MAX_ENTRIES": 2000},
}


# Sign-ups, password-reset requests and joins by invite link per client address
# (django-ratelimit, core/limits.py).
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLED", default=True)
SIGNUP_RATE = env_rate("SIGNUP_RATE", "10/h")
INVITE_JOIN_RATE = env_rate("INVITE_JOIN_RATE", "10/10m")
# Password-reset requests, counted alike for known and unknown addresses (no enumeration).
PASSWORD_RESET_RATE = env_rate("PASSWORD_RESET_RATE", "5/h")
ADDRESS_RATE = env_rate("ADDRESS_RATE", "10/h")
RATELIMIT_IP_META_KEY = "core.net.client_ip"
# A count the cache could not keep (Redis restarting) lets the request through.
RATELIMIT_FAIL_OPEN = True

# Email: the password-reset link. Locally the console backend prints the message where
# `make run` runs; production sets the SMTP variables (docs/configuration.md, "Email").
EMAIL_BACKEND = (os.environ.get("EMAIL_BACKEND", "").strip()
                 or "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "").strip() or "localhost"
EMAIL_PORT = env_int("EMAIL_PORT", default=25, minimum=1)
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
if EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("EMAIL_USE_TLS and EMAIL_USE_SSL cannot both be on: "
                               "STARTTLS (usually port 587) or implicit TLS (port 465)")
# A mail server that does not answer must not hold a request (and its worker) for ever.
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", default=10, minimum=1)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "").strip() or "webmaster@localhost"

# Tasks (django-tasks, Django's own API from 6.0): the reset email and the pruning of old rows
# (core/housekeeping.py) are queued in the database and run by `manage.py db_worker`, a process
# of its own beside the server (`make run` starts both; the Procfile's `worker`). Without a
# worker nothing is lost: the tasks wait in the queue until one starts (docs/configuration.md,
# "Tasks").
TASKS = {
    "default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]},
}

# This site's own address, scheme and host (and port), with no path: what a message sent off the
# site links back to (a post to the group's chat links its roll). Unset, such links are left
# out; `make run` has http://127.0.0.1:8000 (docs/configuration.md).
SITE_URL = (os.environ.get("SITE_URL", "").strip()
            or ("http://127.0.0.1:8000" if DEBUG else "")).rstrip("/")
if SITE_URL and not re.fullmatch(r"https?://[^/\s?#@]+", SITE_URL):
    raise ImproperlyConfigured(
        f"SITE_URL must be a scheme and a host, such as https://table.example.org; "
        f"got {SITE_URL!r}")

# The group's chat (chat/): a webhook is posted to only on https, port 443, at a public
# address (chat/addresses.py). On, http, other ports and loopback addresses are let through
# too, for a developer's local receiver and the tests'; never on a server others reach.
CHAT_WEBHOOKS_ALLOW_LOCAL = env_bool("CHAT_WEBHOOKS_ALLOW_LOCAL", default=False)
# Seconds the worker waits for the chat's server to answer a post before trying again later.
CHAT_WEBHOOK_TIMEOUT = env_int("CHAT_WEBHOOK_TIMEOUT", default=10, minimum=1)

# Errors and warnings to standard error, where systemd's journal or the platform's log keeps
# them; Django's default sends nothing anywhere when DEBUG is off.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # Django gives its "django" logger a console handler of its own (while DEBUG is on), and
    # every record also reaches the root's: each would be printed twice (the development
    # server's access lines, "Not Found: ..."). The root's handler alone prints them.
    "loggers": {"django": {"handlers": [], "propagate": True}},
}
