"""Permission cases of the members pages, merged into test_permissions.CASES: URL name ->
(method, URL arguments from the prepared objects, expected status by role)."""

from __future__ import annotations

from typing import Any

from tests.backoffice.permission_table import Case

CASES: dict[str, Case] = {}


def prepare(users: dict[str, Any]) -> dict[str, Any]:
    """Objects this area's URLs need, by name (the table's argument functions read them)."""
    return {}
