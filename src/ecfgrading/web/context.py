"""Values every page template may use."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from ecfgrading.lookups.site import site_url as site_url  # the pages' canonical links

SITE_NAME = "ECF Grading Database"


def site(request: HttpRequest) -> dict[str, Any]:
    return {"site_name": SITE_NAME}
