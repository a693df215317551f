"""The one settings module: everything comes from environment variables with defaults
that just work (a SQLite file under ./var/ on a first run, PostgreSQL by one variable).

docs/deploy.md ("Settings") lists every variable; a test keeps that list whole. Each is
read strictly: an unset or blank variable takes its default, and a value that cannot be
read stops start-up with one line naming the variable, the value and what was expected
(``ImproperlyConfigured``; the ``ecfgrading`` command prints it and exits 2). A typo
never silently turns a flag off.
"""

from __future__ import annotations

import os
import re
from datetime import date
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_FLAGS = {"1": True, "true": True, "yes": True, "on": True}
_FLAGS |= {"0": False, "false": False, "no": False, "off": False}


def _given(name: str) -> str | None:
    """The variable's value, or None when it is unset or blank: the default holds."""
    return os.environ.get(name, "").strip() or None


def _bad(name: str, expected: str, value: str) -> ImproperlyConfigured:
    """One line, whatever the value holds (``repr`` shows a newline as \\n)."""
    return ImproperlyConfigured(f"expected {name} {expected}, got {value!r}")


def _flag(name: str, default: bool = False) -> bool:
    value = _given(name)
    if value is None:
        return default
    if value.lower() not in _FLAGS:
        raise _bad(name, "1, 0, true, false, yes, no, on or off", value)
    return _FLAGS[value.lower()]


def _whole(name: str, default: int, expected: str, least: int = 1, most: int | None = None) -> int:
    """A whole number from ``least`` to ``most``, written in plain digits."""
    value = _given(name)
    if value is None:
        return default
    number = int(value) if re.fullmatch(r"[0-9]{1,9}", value) else None
    if number is None or number < least or (most is not None and number > most):
        raise _bad(name, expected, value)
    return number


def _seconds(name: str, default: int) -> int:
    return _whole(name, default, "a whole number of seconds, 1 or more")


def _amount(name: str, default: float, expected: str) -> float:
    """A number of 0 or more in plain digits, with a decimal point if need be."""
    value = _given(name)
    if value is None:
        return default
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]*)?|\.[0-9]+", value):
        raise _bad(name, expected, value)
    return float(value)


def _matching(name: str, default: str, pattern: str, expected: str) -> str:
    value = _given(name)
    if value is None:
        return default
    if not re.fullmatch(pattern, value):
        raise _bad(name, expected, _without_password(value))
    return value


def _list(name: str, default: str, pattern: str = r".+", expected: str = "") -> list[str]:
    """Comma-separated items, each matching ``pattern``."""
    items = [item.strip() for item in (_given(name) or default).split(",") if item.strip()]
    for item in items:
        if not re.fullmatch(pattern, item):
            raise _bad(name, expected, item)
    return items


def _without_password(url: str) -> str:
    return re.sub(r"(://[^:/@]*:)[^@]*@", r"\1***@", url)  # never print a password


# Writers queue for each other this long: imports hold the lock for a second or so per
# file, a grading run for up to half a minute; a clear message comes after this.
LOCK_TIMEOUT = _seconds("ECFGRADING_LOCK_TIMEOUT", 300)
# `ecfgrading serve` stops a worker that has not answered for this long (gunicorn's own
# default), and its workers (ECFGRADING_SERVED, which it sets) wait for the database's
# locks a little less, so that staff read the site's "busy" message rather than a
# dropped connection: an edit in the back office or the admin, an officer's upload.
WORKER_TIMEOUT = 30
if os.environ.get("ECFGRADING_SERVED") == "1":
    LOCK_TIMEOUT = min(LOCK_TIMEOUT, WORKER_TIMEOUT - 5)
# PostgreSQL's planner cost of reading a page out of order, against 1 in order: the common
# value for data in memory or on SSD (the server's default, 4, is for spinning disks).
RANDOM_PAGE_COST = 1.1


_SQLITE = "django.db.backends.sqlite3"
# Django's SQLite backend, each statement's placeholders converted once (issue 25).
_SQLITE_BACKEND = "ecfgrading.registry.backends.sqlite3"
_POSTGRESQL = "django.db.backends.postgresql"
_URL_FORMS = "postgres://user@host:5432/name or sqlite:////absolute/path/file.sqlite3"
_NOT_A_URL = "it is not a URL (a port is a number up to 65535; %-quote special characters)"


def _database(url: str | None, home: Path) -> dict[str, Any]:
    """One database from DATABASE_URL, or the default SQLite file under ECFGRADING_HOME."""
    config = _parsed(url) if url else _parsed(f"sqlite:///{home / 'ecfgrading.sqlite3'}")
    if config["ENGINE"] == _SQLITE:
        config["ENGINE"] = _SQLITE_BACKEND
        config["OPTIONS"] = {
            # WAL lets the public site read while an import or a calculation writes. Set
            # once per connection: a page cache of up to 32 MB (the default 2 MB rereads
            # the games' indexes from the OS while a season is imported; 64 MB imported
            # and served no faster and held the national demo's peak 44 MB higher, issue
            # 25) and temporary sorts in memory. No mmap: it measured no faster here.
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                "PRAGMA cache_size=-32768; PRAGMA temp_store=MEMORY;"
            ),
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
        # (services.locks.busy_as_error); PostgreSQL's default is to wait for ever. The
        # registry is read from memory or SSD: PostgreSQL's default cost of a random page
        # (4, for spinning disks) had it hash every player on record to join a county
        # match's 500 games to their players (40 ms, against 5 by their keys; issue 25).
        options.setdefault(
            "options", f"-c lock_timeout={LOCK_TIMEOUT}s -c random_page_cost={RANDOM_PAGE_COST}"
        )
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
    shown = _without_password(url)
    return ImproperlyConfigured(
        f"expected DATABASE_URL such as {_URL_FORMS}, got {shown!r}: {reason}"
    )


def _folder(name: str, path: Path) -> Path:
    """A folder of ours, made if missing; one that cannot be made is a setting's fault."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise _bad(name, f"a folder that can be made ({error.strerror})", str(path)) from None
    return path


BASE_DIR = Path(__file__).resolve().parent
HOME = _folder("ECFGRADING_HOME", Path(_given("ECFGRADING_HOME") or "var").resolve())


# The site's own "today" (lookups.clock): None is the clock's. A home whose data lives in
# another time keeps its day in this file (`ecfgrading demo` writes its world's date).
SITE_TODAY_FILENAME = "today"


def _site_today(name: str, home: Path) -> date | None:
    """ECFGRADING_TODAY, else the date in the home's file, else None (the clock)."""
    file = home / SITE_TODAY_FILENAME
    value, where = _given(name), name
    if value is None and file.is_file():
        value, where = file.read_text().strip() or None, f"{name} (from {file})"
    if value is None:
        return None
    try:
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
            return date.fromisoformat(value)
    except ValueError:
        pass  # 2015-02-30
    raise _bad(where, "a date YYYY-MM-DD such as 2015-12-16", value)


SITE_TODAY = _site_today("ECFGRADING_TODAY", HOME)

# The key that signs sessions, CSRF and password-reset tokens: ECFGRADING_SECRET_KEY, else
# the home's file (`ecfgrading demo` writes a random one there). Without either, only the
# tests and commands that sign nothing run, on a key everyone knows: `ecfgrading serve`
# and the WSGI application refuse it (issue 24, case 13).
SECRET_KEY_FILENAME = "secret_key"
DEVELOPMENT_SECRET_KEY = "django-insecure-ecfgrading-development-key-do-not-use-in-production"


def _secret_key(name: str, home: Path) -> str | None:
    """The variable's key, else the home's file's, else None."""
    file = home / SECRET_KEY_FILENAME
    if _given(name) is not None or not file.is_file():
        return _given(name)
    return file.read_text().strip() or None


_GIVEN_SECRET_KEY = _secret_key("ECFGRADING_SECRET_KEY", HOME)
SECRET_KEY_GIVEN = _GIVEN_SECRET_KEY is not None
SECRET_KEY = _GIVEN_SECRET_KEY or DEVELOPMENT_SECRET_KEY
NO_SECRET_KEY = (
    "expected ECFGRADING_SECRET_KEY, got nothing: the site will not serve on a key everyone "
    "knows. Make one with python3 -c 'import secrets; print(secrets.token_urlsafe(50))' "
    f"and set it, the same on every server (or write it to {HOME / SECRET_KEY_FILENAME})"
)
DEBUG = _flag("ECFGRADING_DEBUG")
ALLOWED_HOSTS = _list("ECFGRADING_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = _list(
    "ECFGRADING_CSRF_TRUSTED_ORIGINS",
    "",
    r"https?://[^/\s]+",
    "comma-separated origins such as https://grading.example.org",
)
# The site's own address: canonical links and the links in mail are built on it, never
# on a request's Host header (issue 24, cases 10 and 11). The default is the address
# `ecfgrading serve` and `make demo` listen on.
SITE_URL = _matching(
    "ECFGRADING_SITE_URL",
    "http://127.0.0.1:8000",
    r"https?://[^/\s?#]+/?",
    "an address such as https://grading.example.org (scheme and host, no path)",
).rstrip("/")

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
    # Outermost: gzip what holds no secret (the rule: web.middleware.compression).
    "ecfgrading.web.middleware.compression.PublicCompressionMiddleware",
    # A page this worker sent under the current data token goes out again as it was.
    "ecfgrading.web.memory.PageMemoryMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Back-office and admin answers: Cache-Control: private, no-store (backoffice.middleware).
    "ecfgrading.backoffice.middleware.PrivatePagesMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # An address too long to be a lookup: the site's 414 page (web.middleware.addresses).
    "ecfgrading.web.middleware.addresses.LongAddressMiddleware",
    # A ServiceError escaping a public view is its error page or JSON body, by kind.
    "ecfgrading.web.errors.ServiceErrorMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# django-axes counts failed logins before Django's own check of the password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Failed sign-ins pause an account briefly, growing with each further failure, and an
# address that fails across many names for an hour (backoffice.lockout, issue 24, case
# 12): nobody can keep an officer out for long from elsewhere, or from a shared address.
AXES_HANDLER = "ecfgrading.backoffice.lockout.LoginPauses"
AXES_FAILURE_LIMIT = _whole("ECFGRADING_LOGIN_ATTEMPTS", 5, "a whole number of attempts, 1 or more")
LOGIN_ADDRESS_ATTEMPTS = _whole(
    "ECFGRADING_LOGIN_ADDRESS_ATTEMPTS", 30, "a whole number of attempts, 1 or more"
)
AXES_COOLOFF_TIME = 1  # hours: failures older than this are forgotten
AXES_LOCKOUT_PARAMETERS = ["username"]  # a success clears the account's failures only
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False  # a try during a pause never counts
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "ecfgrading.backoffice.lockout.locked_out"
AXES_VERBOSE = False
# The same client address as the feedback form's limit (ECFGRADING_CLIENT_IP_HEADER).
AXES_CLIENT_IP_CALLABLE = "ecfgrading.backoffice.access.client_ip"

LOGIN_URL = "backoffice:login"
LOGIN_REDIRECT_URL = "backoffice:home"
LOGOUT_REDIRECT_URL = "backoffice:login"

# Mail (feedback to officers, password resets) through an SMTP server named by the
# environment; nothing connects at start-up, so a missing server only fails a send.
EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_HOST = _given("ECFGRADING_EMAIL_HOST") or "localhost"
EMAIL_PORT = _whole("ECFGRADING_EMAIL_PORT", 25, "a port number from 1 to 65535", most=65535)
EMAIL_HOST_USER = _given("ECFGRADING_EMAIL_USER") or ""
EMAIL_HOST_PASSWORD = os.environ.get("ECFGRADING_EMAIL_PASSWORD", "")  # spaces may count
EMAIL_USE_TLS = _flag("ECFGRADING_EMAIL_USE_TLS")
EMAIL_TIMEOUT = 30
DEFAULT_FROM_EMAIL = _matching(
    "ECFGRADING_EMAIL_FROM",
    "grading@localhost",
    r"[^@\s]+@[^@\s]+|[^<>]*<[^@\s<>]+@[^@\s<>]+>",
    "an address such as grading@example.org or Grading <grading@example.org>",
)
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Every message waits in the outbox and is sent by the worker (docs/mail.md): a server
# that refuses or is down is tried again after 5, 10, 20... minutes, then given up.
MAIL_MAX_ATTEMPTS = _whole("ECFGRADING_MAIL_ATTEMPTS", 8, "a whole number of tries, 1 or more")
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

DATABASES = {"default": _database(_given("DATABASE_URL"), HOME)}
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
STATIC_ROOT = _folder("ECFGRADING_HOME", HOME / "static")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files served by whitenoise; needs `collectstatic` before serving.
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


# The cache every app server shares: cached pages and rate-limit counters. Redis when
# REDIS_URL names one, else a table in the database (made by `ecfgrading init`).
_REDIS_URL = _matching(
    "REDIS_URL", "", r"(rediss?|unix)://\S+", "a URL such as redis://127.0.0.1:6379/0"
)
CACHES: dict[str, dict[str, Any]] = {
    "default": (
        {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": _REDIS_URL}
        if _REDIS_URL
        else {
            # Django's database cache, a set in one statement (web.table_cache).
            "BACKEND": "ecfgrading.web.table_cache.TableCache",
            "LOCATION": "web_cache",
            # Django's default of 300 entries would cull the pages of a federation's few
            # thousand most-read players all day; 10,000 pages are some hundreds of MB.
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    )
}
# Each worker's memory of the public pages it sent (web.memory), in megabytes.
PAGE_MEMORY_MB = _amount("ECFGRADING_PAGE_MEMORY_MB", 32, "a number of megabytes, 0 or more")
# Two sites sharing one Redis (or a benchmark beside a site) keep their pages apart.
CACHES["default"]["KEY_PREFIX"] = _matching(
    "ECFGRADING_CACHE_PREFIX", "ecfgrading", r"[\w.-]+", "letters, digits, '_', '.' or '-'"
)
CACHES["default"]["TIMEOUT"] = 24 * 3600

# The forms' limits count in Redis when there is one, else in a table of the database,
# atomically either way (services.limits); django-ratelimit's settings name the client.
RATELIMIT_USE_CACHE = "default"
# axes.W006: the per-address limit is counted by backoffice/lockout.py, not by axes's
# parameters (issue 24, case 12), so an attacker rotating agents is still counted.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.E003", "django_ratelimit.W001", "axes.W006"]
FEEDBACK_RATE = _matching(
    "ECFGRADING_FEEDBACK_RATE",
    "5/h",
    r"[0-9]+/[0-9]*[smhd]",
    "forms per period such as 5/h, 20/d or 3/10m",
)
# A forgotten password's link: so many requests per address typed, and per client address
# (issue 24, case 10), whether or not an account has that address.
PASSWORD_RESET_RATE = _matching(
    "ECFGRADING_RESET_RATE",
    "3/h",
    r"[0-9]+/[0-9]*[smhd]",
    "requests per period such as 3/h, 10/d or 1/10m",
)
PASSWORD_RESET_CLIENT_RATE = _matching(
    "ECFGRADING_RESET_CLIENT_RATE",
    "10/h",
    r"[0-9]+/[0-9]*[smhd]",
    "requests per period such as 10/h, 30/d or 5/10m",
)
# Behind a load balancer every request comes from its address: name the header in which
# it sets the client's, one address, e.g. HTTP_X_REAL_IP (docs/deploy.md).
_CLIENT_IP_HEADER = _matching(
    "ECFGRADING_CLIENT_IP_HEADER",
    "",
    r"HTTP_[A-Z0-9_]+",
    "a request header as Django names it, such as HTTP_X_REAL_IP",
)
if _CLIENT_IP_HEADER:
    RATELIMIT_IP_META_KEY = _CLIENT_IP_HEADER

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
