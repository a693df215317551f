"""/api/v1 fuzzed against its own OpenAPI schema (schemathesis) on the tiny demo.

Every operation of /api/v1/openapi.json gets requests that schemathesis generates from
the schema (valid ones and malformed ones) through the WSGI application: no answer may
be a server error, and every answer (its status, content type, headers and body) must be
one the schema documents. Bounded (a few dozen examples per operation) to keep CI fast.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis import checks

pytestmark = pytest.mark.django_db

MAX_EXAMPLES = 25


# The schema as the application serves it (its making reads no data); the requests it
# generates go to the same WSGI application.
schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())


@pytest.fixture(autouse=True)
def _requests_in_the_test_transaction(demo: Any) -> Iterator[None]:
    """Each request runs inside the test's transaction, on its connection, as the Django
    test client runs them: the end of a request must not close that connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_every_answer_conforms_to_the_schema(case: Any) -> None:
    # Schemathesis' WSGI transport asks for gzip and never inflates what it gets: the
    # answers are checked as sent to a client that takes them plain (the compression
    # itself is tests/web/test_edges.py's).
    response = case.call(headers={"Accept-Encoding": "identity"})
    # An address longer than the site reads is refused whole with a documented 414 before
    # any parameter is read (web.middleware.addresses): that is the refusal of malformed
    # data too, though not among the statuses schemathesis expects for it.
    refused = [checks.negative_data_rejection] if response.status_code == 414 else []
    case.validate_response(response, excluded_checks=refused)
