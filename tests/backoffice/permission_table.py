"""The vocabulary of the back office's permission table (test_permissions.py and the
per-area ``cases_*.py`` modules): roles, expected outcomes, and one case's shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

ROLES = ("anonymous", "member", "officer", "other officer", "team")
LOGIN = "login"  # a redirect to the login page
PUBLIC: dict[str, int | str] = dict.fromkeys(ROLES, 200)

# (method, URL arguments from the prepared objects by name, expected status by role).
# The objects always hold "event": officer olga's event with its accepted file.
Case = tuple[str, Callable[[dict[str, Any]], dict[str, Any]], dict[str, int | str]]
NO_ARGS: Callable[[dict[str, Any]], dict[str, Any]] = lambda objects: {}  # noqa: E731


def open_to(*roles: str, others: int = 403) -> dict[str, int | str]:
    """Logged-in roles outside ``roles`` get ``others``; the public goes to the login."""
    expected: dict[str, int | str] = {"anonymous": LOGIN}
    for role in ROLES[1:]:
        expected[role] = 200 if role in roles else others
    return expected


SIGNED_IN = open_to("member", "officer", "other officer", "team")
OFFICE = open_to("officer", "other officer", "team")
TEAM = open_to("team")
