"""The seeds' Grading Feedback Form and the status of a report.

No account: a report gets an unguessable reference and ``/feedback/<ref>/`` shows where
it stands. The form is CSRF protected (Django's middleware) and limited per client
address (``settings.FEEDBACK_RATE``, counted atomically by ``services.limits``, exact
however many arrive at once); over the limit it says when to try again. Neither page is
cached: the form carries a CSRF token, and a status changes when the grading team answers.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from ecfgrading.backoffice.access import client_ip
from ecfgrading.lookups.queries import feedback_status
from ecfgrading.services.feedback import (
    KINDS,
    MAX_LENGTHS,
    FeedbackError,
    NewFeedback,
    submit_feedback,
)
from ecfgrading.services.limits import Rate, give_back, take, wait_words
from ecfgrading.web.render import respond

RATE_GROUP = "feedback"
TEMPLATE = "web/feedback/form.html"


class FeedbackForm(forms.Form):
    """The report as typed. Every rule about what is acceptable is the service's
    (FeedbackError names each problem), so the form only carries the text."""

    kind = forms.CharField(required=False)
    player_code = forms.CharField(required=False)
    event = forms.CharField(required=False)
    message = forms.CharField(required=False)
    name = forms.CharField(required=False)
    email = forms.CharField(required=False)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def form(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, _prefilled(request))
    wait = take(RATE_GROUP, _client(request), Rate.parse(settings.FEEDBACK_RATE))
    if wait is not None:
        return _too_many(request, FeedbackForm(request.POST), wait)
    sent = FeedbackForm(request.POST)
    if not sent.is_valid():
        _give_back(request)
        return _page(request, sent, status=400)
    try:
        ref = submit_feedback(NewFeedback(**sent.cleaned_data))
    except FeedbackError as error:
        _give_back(request)
        for field, problem in error.problems.items():
            sent.add_error(field if field in sent.fields else None, problem)
        return _page(request, sent, status=error.kind.http_status)
    return redirect(f"{_status_url(ref)}?sent=1")


@never_cache
@require_safe
def status(request: HttpRequest, ref: str) -> HttpResponse:
    found = feedback_status(ref)
    if found.ref != ref:  # fb-7k3m9qxa: the canonical address has capitals
        return redirect(_status_url(found.ref), permanent=True)
    context = {"report": found, "just_sent": request.GET.get("sent") == "1"}
    return respond(request, "web/feedback/status.html", context, data=found)


def _status_url(ref: str) -> str:
    return reverse("web:feedback-status", args=[ref])


def _prefilled(request: HttpRequest) -> FeedbackForm:
    """A link such as /feedback/?code=123456A&kind=wrong-result fills the form in."""
    initial = {
        "player_code": request.GET.get("code", "")[:10],
        "kind": request.GET.get("kind", ""),
        "event": request.GET.get("event", "")[: MAX_LENGTHS["event"]],
    }
    return FeedbackForm(initial={k: v for k, v in initial.items() if v})


def _page(
    request: HttpRequest, sent: FeedbackForm, *, status: int = 200, wait: str = ""
) -> HttpResponse:
    context: dict[str, Any] = {
        "form": sent,
        "kinds": KINDS,
        "max_lengths": MAX_LENGTHS,
        "problems": [] if wait else _problems(sent),
        "wait": wait,
    }
    return render(request, TEMPLATE, context, status=status)


# Each field's input on the page and the words the error summary names it by.
_FIELDS = {
    "kind": ("fb-kind-1", "What is wrong"),
    "player_code": ("fb-code", "Grading code"),
    "event": ("fb-event", "Event"),
    "message": ("fb-message", "What is wrong, and what should it be"),
    "name": ("fb-name", "Name"),
    "email": ("fb-email", "E-mail address"),
}


def _problems(sent: FeedbackForm) -> list[tuple[str, str, str]]:
    """(input id, label, message) for the summary above a form sent back."""
    if not sent.is_bound:
        return []
    found = []
    for field, errors in sent.errors.items():
        input_id, label = _FIELDS.get(field, ("", ""))
        found += [(input_id, label, str(message)) for message in errors]
    return found


# The limit per client address --------------------------------------------------------------


def _client(request: HttpRequest) -> str:
    return client_ip(request) or "unknown"


def _give_back(request: HttpRequest) -> None:
    """Only accepted reports count, so a sender correcting his form is never locked out
    by it: a form sent back gives its use back."""
    give_back(RATE_GROUP, _client(request), Rate.parse(settings.FEEDBACK_RATE))


def _too_many(request: HttpRequest, sent: FeedbackForm, seconds: int) -> HttpResponse:
    """429: the form again, with what was typed, saying when to try again."""
    sent.is_valid()  # keeps what was typed; its errors are not shown over the limit
    response = _page(request, sent, status=429, wait=wait_words(seconds))
    response["Retry-After"] = str(seconds)
    return response
