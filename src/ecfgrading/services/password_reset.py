"""A forgotten password: a link to set a new one, by mail through the outbox (issue 24,
case 10).

The web request only hands the address typed to the mail worker (``request_reset``):
the same work, the same answer and the same time whether or not an account has that
address, so the form tells nobody which addresses are known. The worker finds the
accounts, makes each a link on the site's configured address (``ECFGRADING_SITE_URL``,
never a request's Host header) and queues it in the outbox, where a server that is down
is tried again and every message is on record.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django_tasks import task

from ecfgrading.lookups.site import site_url
from ecfgrading.services import mail

TEMPLATES = "backoffice/accounts/"


def request_reset(email: str) -> None:
    """What the form's request does, whatever the address: enqueue the worker's task."""
    mail_reset_links_task.enqueue(email)


@task()
def mail_reset_links_task(email: str) -> int:
    """The worker's half: queue the links, then deliver them."""
    queued = mail_reset_links(email)
    if queued:
        mail.request_delivery()
    return queued


def mail_reset_links(email: str) -> int:
    """Queue a link for each active account with that address (Django's rule: any case,
    a usable password); the number queued."""
    users = list(PasswordResetForm().get_users(email))
    for user in users:
        context = {"user": user, "reset_url": reset_url(user)}
        subject = render_to_string(TEMPLATES + "password_reset_subject.txt", context)
        text = render_to_string(TEMPLATES + "password_reset_email.txt", context)
        mail.queue_mail("password reset", user.email, subject, text)
    return len(users)


def reset_url(user: Any) -> str:
    """The link that lets ``user`` choose a password, valid as Django's tokens are
    (PASSWORD_RESET_TIMEOUT, three days), on the site's own address."""
    path = reverse(
        "backoffice:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return site_url(path)
