"""``/downloads/rgradesYYYYMM.csv``: the seeds' name for a rapid list's file.

The list export writes the January rapid list (and the rapid part of a July list) in the
seeds' 20 columns; the website serves it as ``gradesYYYYMM-rapid.csv``
(``lookups.list_files``). This maps the older name onto that file, with the same
bytes, ETag and caching; only the name the browser saves it under is the one asked for.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from ecfgrading.web.views import lists


@csrf_exempt  # read-only: a POST gets 405, not a CSRF page
@require_safe
def rapid_grades(request: HttpRequest, year: str, month: str) -> HttpResponse:
    response = lists.download(request, f"grades{year}{month}-rapid.csv")
    if response.has_header("Content-Disposition"):
        response["Content-Disposition"] = f'attachment; filename="rgrades{year}{month}.csv"'
    return response
