"""Back-office tests: one login per role, and a real SMTP server on loopback.

Users are logged in with ``force_login``: django-axes guards ``authenticate``, which the
test client's ``login()`` calls without a request. The login form itself is tested by
posting to it, as a browser does.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any, TypeVar

import pytest
from aiosmtpd.controller import Controller
from django.test import Client, override_settings

from ecfgrading.lookups.roles import Role
from ecfgrading.services.accounts import create_user

PASSWORD = "correct horse battery 42"


@pytest.fixture(autouse=True)
def _quick_hashing() -> Iterator[None]:
    """PBKDF2's deliberate slowness is for attackers, not for tests (the login tests still
    check that passwords are stored hashed)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def team(db: None) -> Any:
    return create_user("tess", role=Role.TEAM, email="tess@team.example", password=PASSWORD)


@pytest.fixture
def officer(db: None) -> Any:
    return create_user("olga", role=Role.OFFICER, email="olga@club.example", password=PASSWORD)


@pytest.fixture
def other_officer(db: None) -> Any:
    return create_user("oscar", role=Role.OFFICER, email="oscar@club.example", password=PASSWORD)


@pytest.fixture
def member(db: None) -> Any:
    return create_user("mia", role=Role.MEMBER, email="mia@home.example", password=PASSWORD)


def signed_in(user: Any, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


@dataclass
class Mailbox:
    """What a real SMTP server on loopback received."""

    messages: list[EmailMessage] = field(default_factory=list)
    recipients: list[list[str]] = field(default_factory=list)
    arrived: threading.Event = field(default_factory=threading.Event)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.messages.append(parsed)
        self.recipients.append(list(envelope.rcpt_tos))
        self.arrived.set()
        return "250 Message accepted for delivery"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[Mailbox]:
    """aiosmtpd on 127.0.0.1, with Django's SMTP backend pointed at it."""
    yield from serving(Mailbox())


Box = TypeVar("Box", bound=Mailbox)


def serving(box: Box) -> Iterator[Box]:
    """Serve ``box`` by SMTP on a free loopback port while Django sends there (a
    fixture's body: ``yield from serving(...)``)."""
    port = _free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=port,
            EMAIL_HOST_USER="",
            EMAIL_HOST_PASSWORD="",
            EMAIL_USE_TLS=False,
        ):
            yield box
    finally:
        controller.stop()
