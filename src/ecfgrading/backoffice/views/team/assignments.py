"""Starting grades (G6): the latest, and a new one, its FIDE conversion (G29, G30)
shown on a confirm step before it is saved."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from ecfgrading.backoffice.errors import refused
from ecfgrading.backoffice.forms_team import AssignmentForm
from ecfgrading.backoffice.views.team import team_only
from ecfgrading.engine import Rate
from ecfgrading.lookups.assignments import latest
from ecfgrading.services.errors import ServiceError
from ecfgrading.services.team import assignments


@team_only
def index(request: HttpRequest) -> HttpResponse:
    """GET: the form and the latest assignments. POST: the proposal to confirm; POST
    with ``confirm``: saved."""
    form = AssignmentForm(request.POST or None)
    context: dict[str, object] = {
        "form": form,
        "rows": latest(),
        "fide_formula": assignments.fide_formula(),
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        grade = float(data["grade"]) if data["grade"] is not None else None
        try:
            proposed = assignments.propose(
                data["code"],
                Rate(data["rate"]),
                valid_from=data["valid_from"],
                grade=grade,
                fide=data["fide"],
                reason=data["reason"],
            )
            if "confirm" not in request.POST:
                return render(
                    request,
                    "backoffice/team/assignment_confirm.html",
                    {"proposed": proposed, "form": form},
                )
            assignments.assign(proposed, user=request.user)
        except ServiceError as error:
            return refused(request, "backoffice/team/assignments.html", context, error)
        messages.success(request, f"Saved: {proposed.words}")
        if proposed.unused:  # G6: saved as asked, but said plainly (issue 24, case 14)
            messages.warning(request, f"Note that {proposed.unused}.")
        return redirect("backoffice:team_assignments")
    status = 400 if request.method == "POST" else 200
    return render(request, "backoffice/team/assignments.html", context, status=status)
