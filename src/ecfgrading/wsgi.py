"""WSGI entry point for gunicorn (`ecfgrading serve`, or `gunicorn ecfgrading.wsgi`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ecfgrading.settings")

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class HeadWithoutBody:
    """A HEAD answer has the GET's headers and no body (RFC 9110). Django leaves dropping
    the body to the server, and gunicorn logs a warning for every body it drops: one a
    load balancer's health check."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        response = self.app(environ, start_response)
        if environ.get("REQUEST_METHOD") != "HEAD":
            return response
        return _Closing(response)


class _Closing:
    """No bytes, but the response is still closed: that ends Django's request (signals,
    database connections)."""

    def __init__(self, response: Iterable[bytes]) -> None:
        self.response = response

    def __iter__(self) -> Iterator[bytes]:
        return iter(())

    def close(self) -> None:
        close = getattr(self.response, "close", None)
        if close is not None:
            close()


application = HeadWithoutBody(get_wsgi_application())


def _refuse_the_development_key() -> None:
    """`gunicorn ecfgrading.wsgi` never serves on the key everyone knows (issue 24, case
    13); `ecfgrading serve` says so before it gets here."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    if not settings.SECRET_KEY_GIVEN:
        raise ImproperlyConfigured(settings.NO_SECRET_KEY)


_refuse_the_development_key()


def _warm() -> None:
    """What every first request would otherwise pay for: the digest of the code deployed
    that keys the cached pages (``web.deployed``)."""
    from ecfgrading.web.deployed import site_build

    site_build()


_warm()
