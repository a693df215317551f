"""The identification queue: cases beside their candidates; link, create or merge, each
previewed on a page of its own before a POST carries it out."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ecfgrading.backoffice.errors import refused
from ecfgrading.backoffice.forms_team import LinkForm, MergeForm
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.lookups.identification import case_detail, open_case_list, remembered_decisions
from ecfgrading.lookups.profiles import Profile
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.merge import merge_players
from ecfgrading.services.team import identification

_T = "backoffice/team/"
_NO_ACTION = "expected an action: link or new"


@require_GET
@team_only
def queue(request: HttpRequest) -> HttpResponse:
    context = {"cases": open_case_list(), "remembered": remembered_decisions()}
    return render(request, _T + "identify.html", context)


@require_GET
@team_only
def case(request: HttpRequest, case_id: int) -> HttpResponse:
    """The case as its file gave it, its waiting games, and its candidates side by side."""
    return render(request, _T + "case.html", _case_context(case_id))


@require_GET
@team_only
def preview(request: HttpRequest, case_id: int) -> HttpResponse:
    """What linking to a code, or creating a new player, will do: confirm or go back."""
    action = request.GET.get("action", "")
    code = request.GET.get("code", "").strip()
    try:
        if action == "link":
            shown = identification.preview_link(case_id, code)
        elif action == "new":
            shown = identification.preview_new(case_id)
        else:
            raise ServiceError(_NO_ACTION)
    except ServiceError as error:  # a case gone is the error page: its page is gone too
        return refused(request, _T + "case.html", _case_context(case_id), error)
    context = {"preview": shown, "case_id": case_id, "action": action, "code": code}
    return render(request, _T + "case_confirm.html", context)


@require_POST
@team_only
def decide(request: HttpRequest, case_id: int) -> HttpResponse:
    action = request.POST.get("action", "")
    code = request.POST.get("code", "").strip()
    try:
        if action == "link":
            player = identification.link(case_id, code, user=request.user)
        elif action == "new":
            player = identification.create(case_id, user=request.user)
        else:
            raise ServiceError(_NO_ACTION)
    except ServiceError as error:
        return refused(request, _T + "case.html", _case_context(case_id), error)
    verb = "linked to" if action == "link" else "created as"
    messages.success(request, f"Case {case_id} {verb} {player.name} ({player.ref}).")
    return redirect("backoffice:team_identify")


@team_only
def merge(request: HttpRequest) -> HttpResponse:
    """GET: the form, and the preview once both codes are given; POST: the merge."""
    data = request.POST if request.method == "POST" else request.GET
    form = MergeForm(data or None)
    context: dict[str, object] = {"form": form}
    if form.is_bound and form.is_valid():
        absorbed, into = form.cleaned_data["absorbed"], form.cleaned_data["into"]
        try:
            if request.method == "POST":
                kept = merge_players(
                    absorbed, into, why=form.cleaned_data["why"], user=request.user
                )
                messages.success(
                    request, f"{absorbed.upper()} merged into {kept.name} ({kept.ref})."
                )
                return redirect("backoffice:team_player", code=kept.ref)
            context["preview"] = identification.preview_merge(absorbed, into)
        except ServiceError as error:
            return refused(request, _T + "merge.html", context, error)
    status = 400 if request.method == "POST" else 200
    return render(request, _T + "merge.html", context, status=status)


def _case_context(case_id: int) -> dict[str, object]:
    """The case page's context (a case not on record raises CaseNotFound: a 404)."""
    detail = case_detail(case_id, today=timezone.localdate())
    return {"case": detail, "link": LinkForm(), "merge_pairs": _pairs(detail.candidates)}


def _pairs(candidates: tuple[Profile, ...]) -> list[tuple[str, str]]:
    """Pairs of candidates that may be one person: (absorbed, into) codes."""
    codes = [c.code for c in candidates if not c.merged_into]
    return [(a, b) for a in codes for b in codes if a != b][:6]
