"""Compute a list version, read its reports and its difference from the version before
it, and publish it (G26, G27). A national list computes in a few seconds: the request
waits for it."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from ecfgrading.backoffice.errors import refused
from ecfgrading.backoffice.forms_team import ComputeForm
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.engine import Rate
from ecfgrading.lookups import drafts
from ecfgrading.services.errors import NotFound, ServiceError
from ecfgrading.services.team import publishing

_T = "backoffice/team/"


@team_only
def index(request: HttpRequest) -> HttpResponse:
    """The recent versions and the compute form (the latest list's next version)."""
    chosen = drafts.default_choice(timezone.localdate())
    initial = {"list_id": chosen.list_id, "rate": chosen.rate, "version": chosen.version}
    form = ComputeForm(request.POST or None, initial=initial)
    context: dict[str, object] = {"form": form, "versions": drafts.recent_versions()}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            run = publishing.compute(
                data["list_id"], Rate(data["rate"]), data["version"], user=request.user
            )
        except ServiceError as error:
            return refused(request, _T + "lists.html", context, error)
        seconds = sum(run.seconds.values())
        messages.success(
            request,
            f"Computed {run.rate} {run.list_id} {run.version}: {run.published} players "
            f"published, in {seconds:.1f} s.",
        )
        return redirect(_draft_url(run.list_id, run.rate, run.version))
    status = 400 if request.method == "POST" else 200
    return render(request, _T + "lists.html", context, status=status)


@require_GET
@team_only
def draft(request: HttpRequest, list_id: str, rate: str, version: str) -> HttpResponse:
    """A version's reports and who changes since the version before it, and why."""
    page = _page(list_id, rate, version)
    return render(request, _T + "draft.html", {"page": page})


@team_only
def publish(request: HttpRequest, list_id: str, rate: str, version: str) -> HttpResponse:
    """GET: the confirm step; POST: publish (published versions are immutable, G26)."""
    page = _page(list_id, rate, version)
    if request.method == "POST":
        try:
            publishing.publish(list_id, Rate(rate), version, user=request.user)
        except ServiceError as error:
            return refused(request, _T + "publish.html", {"page": page}, error)
        messages.success(request, f"Published {rate} {list_id} {version}.")
        return redirect(_draft_url(list_id, rate, version))
    return render(request, _T + "publish.html", {"page": page})


def _page(list_id: str, rate: str, version: str) -> drafts.DraftPage:
    if rate not in {r.value for r in Rate}:
        raise NotFound(f"expected a rate standard or rapid, got {rate!r}")
    return drafts.draft_page(list_id, Rate(rate), version, today=timezone.localdate())


def _draft_url(list_id: str, rate: str, version: str) -> str:
    return reverse(
        "backoffice:team_draft", kwargs={"list_id": list_id, "rate": rate, "version": version}
    )
