"""A player's page for the grading team: clubs (ending one by hand), games and grades."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from ecfgrading.backoffice.errors import refused_back
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.lookups.paging import page_number
from ecfgrading.lookups.profiles import TeamPlayer, team_player
from ecfgrading.lookups.search import resolve_code, search_players
from ecfgrading.services.errors import NotFound, ServiceError
from ecfgrading.services.team import memberships


@require_GET
@team_only
def lookup(request: HttpRequest) -> HttpResponse:
    """A grading code typed in the box, with or without its check letter, leads to the
    player's page; a name lists the players it finds, everyone graded or with a graded
    game, as the public lookup reads names (``lookups.search``; issue 24, case 14)."""
    query = (request.GET.get("q") or request.GET.get("code") or "").strip()
    if not query:
        return render(request, _PAGE, {"code": ""})
    code = resolve_code(query)
    if code is not None:
        return redirect("backoffice:team_player", code=code)
    found = search_players(query, inactive=True, page=page_number(request.GET.get("page")))
    context = {"code": query, "found": found, "failure": found.problem}
    return render(request, _PAGE, context, status=404 if found.problem else 200)


_PAGE = "backoffice/team/players.html"


@require_GET
@team_only
def detail(request: HttpRequest, code: str) -> HttpResponse:
    return render(request, "backoffice/team/player.html", {"found": _found(code)})


@team_only
def end_membership(request: HttpRequest, code: str, membership_id: int) -> HttpResponse:
    """GET: the confirm step; POST: the membership ends today (C2: no longer shown)."""
    found = _found(code)
    line = next((m for m in found.profile.clubs if m.id == membership_id), None)
    if line is None:
        raise NotFound(f"expected a membership of {found.profile.code}")
    if request.method == "POST":
        try:
            memberships.end_membership(
                found.profile.code, membership_id, on=timezone.localdate(), user=request.user
            )
        except ServiceError as error:
            return refused_back(request, error, _url(found), prefix="Nothing changed: ")
        messages.success(request, f"{found.profile.name}'s membership of {line.name} is ended.")
        return redirect(_url(found))
    context = {"found": found, "line": line}
    return render(request, "backoffice/team/membership_confirm.html", context)


def _found(code: str) -> TeamPlayer:
    return team_player(code, today=timezone.localdate())


def _url(found: TeamPlayer) -> str:
    return reverse("backoffice:team_player", kwargs={"code": found.profile.code})
