"""What a request sent to the database for its page, the shared cache's own statements
left out: the table cache counts its table once every so many sets (web.table_cache),
so a request's statements of the cache differ from one request to the next."""

from __future__ import annotations

from typing import Any


def page_statements(captured: Any) -> list[str]:
    """The statements of a ``CaptureQueriesContext`` but the cache's and its savepoints."""
    return [
        query["sql"]
        for query in captured.captured_queries
        if "web_cache" not in query["sql"]
        and not query["sql"].startswith(("SAVEPOINT", "RELEASE", "ROLLBACK TO"))
    ]
