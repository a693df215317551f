"""Addresses reversed once for each address configuration and mount point.

Django's ``reverse`` walks the URL patterns on every call; a player page links two
dozen rule citations to the help page and hundreds of games to their events and
opponents, and the compression middleware asks for the staff's prefixes on every
response: reversing was a twentieth of a cold player page (issue 25). The answer
depends on the address configuration and on where the site is mounted (the script
prefix ``reverse`` reads), so it is kept under both: a second mount point, or a test's
own configuration, gets its own.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def reversed_once(name: str, **kwargs: str) -> str:
    """``reverse(name, kwargs=kwargs)`` for the current configuration and mount point,
    reversed the first time it is asked for; NoReverseMatch as ``reverse`` raises it."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    return _reversed(name, tuple(sorted(kwargs.items())), urlconf, get_script_prefix())


@functools.lru_cache(maxsize=256)
def _reversed(
    name: str, kwargs: tuple[tuple[str, str], ...], urlconf: object, script_prefix: str
) -> str:
    return reverse(name, kwargs=dict(kwargs), urlconf=urlconf)  # reads script_prefix itself
