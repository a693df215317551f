"""The one settings module: everything comes from environment variables with defaults
that just work (a SQLite file under ./var/ on a first run, PostgreSQL by one variable).

ECFGRADING_HOME           data directory, created if missing (default ./var/)
DATABASE_URL              e.g. postgres://user@host:5432/name (default: a SQLite file
                          ECFGRADING_HOME/ecfgrading.sqlite3, in WAL mode)
ECFGRADING_SECRET_KEY     required in production; the default is for development only
ECFGRADING_DEBUG          1/true/yes/on to turn debugging on (default off)
ECFGRADING_ALLOWED_HOSTS  comma-separated (default localhost,127.0.0.1,[::1])
ECFGRADING_CSRF_TRUSTED_ORIGINS  comma-separated origins such as https://grading.example
ECFGRADING_LOCK_TIMEOUT   seconds a writer waits for another (an import, a grading run)
                          before giving up with a clear message (default 300)
REDIS_URL                 e.g. redis://127.0.0.1:6379/0: the cache every app server shares
                          (cached pages, rate-limit counters); default Django's database cache
ECFGRADING_HTTPS          1 when served behind HTTPS: HSTS, secure cookies, redirects
ECFGRADING_FEEDBACK_RATE  feedback forms accepted per address, e.g. 5/h (default 5/h)
ECFGRADING_CLIENT_IP_HEADER  behind a proxy, the request header with the client address
                          (e.g. HTTP_X_REAL_IP); default the connection's address
ECFGRADING_EMAIL_HOST     SMTP server for the back office's mail (default localhost)
ECFGRADING_EMAIL_PORT     its port (default 25)
ECFGRADING_EMAIL_USER     login name at the SMTP server, if it wants one (default none)
ECFGRADING_EMAIL_PASSWORD its password (default none)
ECFGRADING_EMAIL_USE_TLS  1 to speak STARTTLS to the server (default off)
ECFGRADING_EMAIL_FROM     the sender of every message (default grading@localhost)
ECFGRADING_MAIL_ATTEMPTS  tries at delivering one message before it is marked failed
                          (default 8)
ECFGRADING_MAIL_RETRY_SECONDS  wait before the first retry; each later one waits twice as
                          long (default 300: 5, 10, 20 ... minutes)
ECFGRADING_PAGE_MEMORY_MB public pages each worker keeps in memory, sent again while
                          nothing changes (default 32; 0 off)
ECFGRADING_LOGIN_ATTEMPTS failed back-office logins allowed per name and address before
                          a lockout (default 5); the lockout lasts one hour
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured


def _flag(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def _seconds(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise ImproperlyConfigured(f"expected {name} a whole number of seconds, got {value!r}")
    return int(value)


# Writers queue for each other this long: imports hold the lock for a second or so per
# file, a grading run for up to half a minute; a clear message comes after this.
LOCK_TIMEOUT = _seconds("ECFGRADING_LOCK_TIMEOUT", 300)


_SQLITE = "django.db.backends.sqlite3"
_POSTGRESQL = "django.db.backends.postgresql"
_URL_FORMS = "postgres://user@host:5432/name or sqlite:////absolute/path/file.sqlite3"
_NOT_A_URL = "it is not a URL (a port is a number up to 65535; %-quote special characters)"


def _database(url: str | None, home: Path) -> dict[str, Any]:
    """One database from DATABASE_URL, or the default SQLite file under ECFGRADING_HOME."""
    config = _parsed(url) if url else _parsed(f"sqlite:///{home / 'ecfgrading.sqlite3'}")
    if config["ENGINE"] == _SQLITE:
        config["OPTIONS"] = {
            # WAL lets the public site read while an import or a calculation writes.
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            # Take the write lock at BEGIN so two writers queue instead of failing with
            # "database is locked" when a read transaction upgrades to a write.
            "transaction_mode": "IMMEDIATE",
            "timeout": LOCK_TIMEOUT,
        }
        # Keep a worker's connection between requests, as for PostgreSQL: a new one pays
        # for opening the file, the PRAGMAs and reading the schema on every request.
        config["CONN_MAX_AGE"] = 600
    else:
        config["CONN_MAX_AGE"] = 600
        config["CONN_HEALTH_CHECKS"] = True
        options = config.setdefault("OPTIONS", {})
        # A server that does not answer is reported after this long, not waited on for ever.
        options.setdefault("connect_timeout", 10)
        # Row and table locks are waited on as long as the registry lock, then reported
        # (services.locks.busy_as_error); PostgreSQL's default is to wait for ever.
        options.setdefault("options", f"-c lock_timeout={LOCK_TIMEOUT}s")
    return config


def _parsed(url: str) -> dict[str, Any]:
    """DATABASE_URL as Django's settings. A URL that cannot name one of our two databases
    stops start-up with a message (ImproperlyConfigured, shown by the CLI)."""
    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url))
    except dj_database_url.UnknownSchemeError:
        raise _bad_url(url, "its scheme is neither postgres nor sqlite") from None
    except ValueError:  # dj_database_url.ParseError, or a port urllib cannot read
        raise _bad_url(url, _NOT_A_URL) from None
    if config["ENGINE"] not in (_SQLITE, _POSTGRESQL):
        raise _bad_url(url, "only PostgreSQL and SQLite are supported")
    if config["ENGINE"] == _POSTGRESQL and not config["NAME"]:
        raise _bad_url(url, "it names no database")
    if config["ENGINE"] == _SQLITE and config["NAME"] in ("", ":memory:"):
        raise _bad_url(url, "it names no file (an in-memory database keeps nothing)")
    return config


def _bad_url(url: str, reason: str) -> ImproperlyConfigured:
    shown = re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)  # never print a password
    return ImproperlyConfigured(
        f"expected DATABASE_URL such as {_URL_FORMS}, got {shown!r}: {reason}"
    )


BASE_DIR = Path(__file__).resolve().parent
HOME = Path(os.environ.get("ECFGRADING_HOME") or "var").resolve()
HOME.mkdir(parents=True, exist_ok=True)

# Development only: never run a public server on this key (`check --deploy` warns).
SECRET_KEY = os.environ.get(
    "ECFGRADING_SECRET_KEY",
    "django-insecure-ecfgrading-development-key-do-not-use-in-production",
)
DEBUG = _flag("ECFGRADING_DEBUG")
ALLOWED_HOSTS = _list("ECFGRADING_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = _list("ECFGRADING_CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "ecfgrading.registry",
    "ecfgrading.web",
    "ecfgrading.backoffice",
    "axes",
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    # First: a page this worker sent under the current data token goes out again as it was.
    "ecfgrading.web.memory.PageMemoryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# django-axes counts failed logins before Django's own check of the password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Lock a name tried from one address, not the address alone: a club's shared connection
# must not lock every officer out because one of them forgot his password.
AXES_FAILURE_LIMIT = int(os.environ.get("ECFGRADING_LOGIN_ATTEMPTS", "5"))
AXES_COOLOFF_TIME = 1  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "backoffice/locked.html"
AXES_VERBOSE = False
# The same client address as the feedback form's limit (ECFGRADING_CLIENT_IP_HEADER).
AXES_CLIENT_IP_CALLABLE = "ecfgrading.backoffice.access.client_ip"

LOGIN_URL = "backoffice:login"
LOGIN_REDIRECT_URL = "backoffice:home"
LOGOUT_REDIRECT_URL = "backoffice:login"

# Mail (feedback to officers, password resets) through an SMTP server named by the
# environment; nothing connects at start-up, so a missing server only fails a send.
EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = os.environ.get("ECFGRADING_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("ECFGRADING_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("ECFGRADING_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("ECFGRADING_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = _flag("ECFGRADING_EMAIL_USE_TLS")
EMAIL_TIMEOUT = 30
DEFAULT_FROM_EMAIL = os.environ.get("ECFGRADING_EMAIL_FROM", "grading@localhost")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Every message waits in the outbox and is sent by the worker (docs/mail.md): a server
# that refuses or is down is tried again after 5, 10, 20... minutes, then given up.
MAIL_MAX_ATTEMPTS = int(os.environ.get("ECFGRADING_MAIL_ATTEMPTS", "8"))
MAIL_RETRY_SECONDS = _seconds("ECFGRADING_MAIL_RETRY_SECONDS", 300)

# Long work (sending mail, building a mailing) runs in a background worker, queued in the
# database: `ecfgrading mail worker` (django-tasks' database backend, its db_worker).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": ["default"]}}

ROOT_URLCONF = "ecfgrading.urls"
WSGI_APPLICATION = "ecfgrading.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "ecfgrading.web.context.site",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {"default": _database(os.environ.get("DATABASE_URL"), HOME)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "Europe/London"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = HOME / "static"
STATIC_ROOT.mkdir(exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files served by whitenoise; needs `collectstatic` before serving.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


# The cache every app server shares: cached pages and rate-limit counters. Redis when
# REDIS_URL names one, else a table in the database (made by `ecfgrading init`).
_REDIS_URL = os.environ.get("REDIS_URL", "").strip()
CACHES: dict[str, dict[str, Any]] = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _REDIS_URL}
        if _REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "web_cache",
            # Django's default of 300 entries would cull the pages of a federation's few
            # thousand most-read players all day; 10,000 pages are some hundreds of MB.
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    )
}
# Each worker's memory of the public pages it sent (web.memory), in megabytes.
PAGE_MEMORY_MB = float(os.environ.get("ECFGRADING_PAGE_MEMORY_MB", "32"))
CACHES["default"]["KEY_PREFIX"] = os.environ.get("ECFGRADING_CACHE_PREFIX", "ecfgrading")
CACHES["default"]["TIMEOUT"] = 24 * 3600

# django-ratelimit counts in the shared cache; the database cache increments without
# Redis's atomicity, which is close enough for a feedback form's limit.
RATELIMIT_USE_CACHE = "default"
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001"]
FEEDBACK_RATE = os.environ.get("ECFGRADING_FEEDBACK_RATE", "5/h")
# Behind a load balancer every request comes from its address: name the header in which
# it sets the client's, one address, e.g. HTTP_X_REAL_IP (docs/deploy.md).
if os.environ.get("ECFGRADING_CLIENT_IP_HEADER"):
    RATELIMIT_IP_META_KEY = os.environ["ECFGRADING_CLIENT_IP_HEADER"]

# Security headers. The content security policy allows no inline script or style.
HTTPS = _flag("ECFGRADING_HTTPS")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
if HTTPS:
    SECURE_HSTS_SECONDS = 365 * 24 * 3600
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_SSL_REDIRECT = True
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# A server error's traceback goes to stderr, beside gunicorn's messages (Django's default
# shows it only under DEBUG, or mails it to ADMINS, which we do not have): the 500 page
# promises that the error has been logged.
LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s [%(process)d] %(levelname)s %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "loggers": {"django.request": {"handlers": ["stderr"], "level": "ERROR"}},
}

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'none'"],
        "object-src": ["'none'"],
    }
}
