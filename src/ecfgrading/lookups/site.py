"""The site's own address (``ECFGRADING_SITE_URL``): what canonical links and the links
in mail are built on, never a request's Host header (issue 24, cases 10 and 11)."""

from __future__ import annotations

from django.conf import settings


def site_url(path: str) -> str:
    """The absolute address of ``path`` (with its query) on the site as configured: a
    canonical link is cached for every visitor, and a link in a mail is followed from
    outside, so neither may carry the host a visitor chose to send."""
    return f"{settings.SITE_URL}{path}"
