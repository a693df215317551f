"""The grading team's audit log: who did what and when, before and after (issue 11,
item 7). Read only; lookups.audit builds the page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import urlencode
from django.views.decorators.http import require_GET

from ecfgrading.backoffice.errors import office_view
from ecfgrading.lookups.audit import AuditFilter, audit_entries
from ecfgrading.lookups.paging import page_number
from ecfgrading.lookups.roles import Role


@require_GET
@office_view(Role.TEAM)
def log(request: HttpRequest) -> HttpResponse:
    """``/backoffice/audit/?player=261619B&event=XX123&person=tess&page=2``."""
    filters = AuditFilter(
        player=request.GET.get("player", "").strip()[:20],
        event=request.GET.get("event", "").strip()[:40],
        person=request.GET.get("person", "").strip()[:150],
    )
    found = audit_entries(filters, page=page_number(request.GET.get("page")))
    query = {k: v for k, v in vars(filters).items() if v}
    context = {"found": found, "page": found.page, "base_query": urlencode(query)}
    return render(request, "backoffice/audit/log.html", context)
