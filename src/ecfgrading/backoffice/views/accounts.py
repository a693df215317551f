"""The back office's front page; logins and passwords are Django's auth views with our
templates (backoffice/urls.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from ecfgrading.backoffice.errors import office_view
from ecfgrading.lookups.roles import Role, roles_of


@office_view(Role.TEAM, Role.OFFICER, Role.MEMBER)
def home(request: HttpRequest) -> HttpResponse:
    """What this account can do, by its roles."""
    roles = roles_of(request.user)
    return render(
        request,
        "backoffice/home.html",
        {
            "roles": sorted(role.value for role in roles),
            "is_team": Role.TEAM in roles,
            "is_officer": Role.OFFICER in roles,
            "is_member": Role.MEMBER in roles,
        },
    )
