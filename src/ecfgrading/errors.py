"""The one error contract of the project's use cases (style.md 14).

Every mistake a user can make, or an operation the records refuse, reaches the caller as
a ``ServiceError`` that says what was expected. Each edge turns it into its own form
once: the CLI prints the message and exits 1, a web page shows it, the API answers with
the status its ``kind`` names. Anything else escaping a service is a bug and must show
as one.

This module imports only the standard library so that every layer that refuses a
user's request can raise it: the services (through ``services.errors``), and the
registry beneath them, whose refusals (codes used up, a published version changed)
reach users through several services and the admin. The pure packages (engine,
formats, matching) raise ``ValueError`` or collect problems; services translate those
at their boundary.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum


class ErrorKind(StrEnum):
    """What went wrong, in the terms an HTTP edge needs."""

    INVALID = "invalid"  # the request itself is wrong (400)
    NOT_FOUND = "not-found"  # it names something not on record (404)
    CONFLICT = "conflict"  # the records' state forbids it (409)

    @property
    def http_status(self) -> int:
        """The status every HTTP door answers it with: the site and its JSON twins, the
        back office and /api/v1 (each maps it once)."""
        return _HTTP_STATUS[self]


_HTTP_STATUS = {ErrorKind.INVALID: 400, ErrorKind.NOT_FOUND: 404, ErrorKind.CONFLICT: 409}


class ServiceError(Exception):
    """A user's mistake or a refused operation, with a message fit to show."""

    kind: ErrorKind = ErrorKind.INVALID

    def __init__(self, message: str, *, kind: ErrorKind | None = None) -> None:
        super().__init__(message)
        self.message = message
        if kind is not None:
            self.kind = kind

    def __str__(self) -> str:
        return self.message


class NotFound(ServiceError):
    """Something named (a player, a list, a case) is not on record."""

    kind = ErrorKind.NOT_FOUND


class Conflict(ServiceError):
    """The records' state forbids the operation (already decided, already published)."""

    kind = ErrorKind.CONFLICT


@contextmanager
def user_input(error: type[ServiceError] = ServiceError) -> Iterator[None]:
    """Around parsing a user's text only (``ListId.parse``, ``GradingCode.parse``,
    ``Rate(...)``): the parser's ``ValueError`` already says what was expected, so it
    becomes ``error`` (INVALID) with that message. Never wrap more than the parsing: a
    ``ValueError`` from anywhere else is a bug and must escape as one."""
    try:
        yield
    except ValueError as bad:
        raise error(str(bad)) from None
