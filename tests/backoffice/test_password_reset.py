"""A forgotten password (issue 24, case 10): the link goes through the outbox (kept when
the mail server is down), is built on the configured site address (never the Host
header), the request answers the same whether or not the address is known (the worker
does the mail work), and requests are limited per address typed and per client.

Tests that run the worker commit (``transaction=True``), as test_mail.py's do.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from ecfgrading.lookups.roles import Role
from ecfgrading.registry.models import OutboxMessage
from ecfgrading.services.accounts import create_user
from tests.backoffice.conftest import PASSWORD, Mailbox, _free_port
from tests.backoffice.test_mail import run_worker

RESET = "/backoffice/password/reset/"
SITE = "https://grading.example.org"
OLGA = "olga@club.example"


@pytest.fixture(autouse=True)
def _fresh_counts() -> None:
    """The limits' counters of one test (in Redis on the PostgreSQL pass) never count in
    another's."""
    cache.clear()


def olga() -> Any:
    return create_user("olga", role=Role.OFFICER, email=OLGA, password=PASSWORD)


def link_in(message: Any) -> str:
    found = re.search(r"(\S+/backoffice/password/reset/\S+/)", message.get_content())
    assert found is not None, message.get_content()
    return found.group(1)


@pytest.mark.django_db(transaction=True)
def test_the_link_goes_through_the_outbox_on_the_site_address_and_sets_a_password(
    smtp: Mailbox,
) -> None:
    """Issue 24, case 10: a crafted Host never reaches the link; the worker sends it."""
    user = olga()
    client = Client()
    with override_settings(SITE_URL=SITE):
        response = client.post(RESET, {"email": OLGA}, HTTP_HOST="localhost:6666")
        assert response.status_code == 302
        assert (smtp.messages, OutboxMessage.objects.count()) == ([], 0)  # not in the request

        run_worker()

    (message,) = smtp.messages
    assert smtp.recipients == [[OLGA]]
    link = link_in(message)
    assert link.startswith(f"{SITE}/backoffice/password/reset/"), link
    # The crafted host itself, not its port alone: a Message-ID's random digits may hold
    # "6666" (they did once in CI).
    assert "localhost:6666" not in message.as_string()
    queued = OutboxMessage.objects.get()
    assert (queued.kind, queued.to, queued.status) == ("password reset", OLGA, "sent")

    form = client.get(link.removeprefix(SITE), follow=True)
    new = "a fresh passphrase 2026"
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": new, "new_password2": new}, follow=True
    )
    assert "Password set" in done.content.decode()
    user.refresh_from_db()
    assert user.check_password(new)


def _asked(email: str, smtp: Mailbox) -> tuple[Any, list[str]]:
    """The answer to one request, and its SQL with the values taken out."""
    with CaptureQueriesContext(connection) as queries:
        response = Client().post(RESET, {"email": email})
    assert (smtp.messages, OutboxMessage.objects.count()) == ([], 0)
    shapes = [re.sub(r"'[^']*'|\bs\d+_x\d+\b|\b\d+\b", "?", query["sql"]) for query in queries]
    return response, shapes


@pytest.mark.django_db
def test_the_request_does_the_same_work_for_a_known_and_an_unknown_address(
    smtp: Mailbox,
) -> None:
    """Issue 24, case 10: no mail work in the request, only the same task handed over;
    the same answer, the same statements (so no measurable difference in time)."""
    olga()

    known, known_work = _asked(OLGA, smtp)
    unknown, unknown_work = _asked("nobody@club.example", smtp)

    assert (known.status_code, known["Location"]) == (
        302,
        reverse("backoffice:password_reset_done"),
    )
    assert (unknown.status_code, unknown["Location"]) == (known.status_code, known["Location"])
    assert known.content == unknown.content
    assert known_work == unknown_work
    assert DBTaskResult.objects.count() == 2  # one task each, for the worker


@pytest.mark.django_db(transaction=True)
def test_a_link_is_kept_in_the_outbox_when_the_mail_server_is_down() -> None:
    """Issue 24, case 10: not lost, and on record with the server's error."""
    olga()
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    with override_settings(EMAIL_BACKEND=smtp, EMAIL_HOST="127.0.0.1", EMAIL_PORT=_free_port()):
        assert Client().post(RESET, {"email": OLGA}).status_code == 302
        run_worker()

    queued = OutboxMessage.objects.get()
    assert (queued.kind, queued.to, queued.status, queued.attempts) == (
        "password reset",
        OLGA,
        "queued",
        1,
    )
    assert queued.last_error


@pytest.mark.django_db(transaction=True)
def test_eight_requests_for_one_address_send_three_links(smtp: Mailbox) -> None:
    """Issue 24, case 10: 8 mails in 5 s to one person before; the default 3/h now, and
    an unknown address is refused alike."""
    olga()
    client = Client()
    known = [client.post(RESET, {"email": OLGA}).status_code for _ in range(8)]
    elsewhere = {"REMOTE_ADDR": "192.0.2.20"}  # the client's own limit is not reached
    unknown = [
        client.post(RESET, {"email": "who@x.example"}, **elsewhere).status_code for _ in range(4)
    ]

    refused = client.post(RESET, {"email": OLGA.upper()}, **elsewhere)  # the same, in capitals
    run_worker()

    assert known == [302] * 3 + [429] * 5
    assert unknown == [302] * 3 + [429]
    assert refused.status_code == 429
    assert "Too many requests" in refused.content.decode()
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert smtp.recipients == [[OLGA]] * 3


@pytest.mark.django_db
def test_one_client_asking_for_many_addresses_is_limited_and_another_is_not() -> None:
    """Issue 24, case 10: the default 10/h per client address."""
    answers = [
        Client().post(RESET, {"email": f"guess{n}@x.example"}).status_code for n in range(11)
    ]
    elsewhere = Client().post(RESET, {"email": "guess0@y.example"}, REMOTE_ADDR="192.0.2.9")

    assert answers == [302] * 10 + [429]
    assert elsewhere.status_code == 302


@pytest.mark.django_db
def test_an_address_that_is_no_address_is_sent_back_with_the_form() -> None:
    response = Client().post(RESET, {"email": "not an address"})

    assert response.status_code == 400
    assert "Enter a valid email address" in response.content.decode()
    assert DBTaskResult.objects.count() == 0
