"""The canonical link is built from the configured site address, never from the Host
header a visitor sends, even though the page is cached for every visitor (issue 24,
case 11)."""

from __future__ import annotations

import re

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db

SITE = "https://grading.example.org"
PAGES = ["/counties/", "/clubs/", "/events/", "/amendments/", "/players/?q=smith"]


def canonical(response) -> str:
    found = re.search(r'<link rel="canonical" href="([^"]*)">', response.content.decode())
    assert found is not None, response.content.decode()[:500]
    return found.group(1)


@pytest.mark.parametrize("path", PAGES)
def test_a_crafted_host_never_reaches_the_canonical_link_of_the_next_visitor(path: str) -> None:
    """Issue 24, case 11: `Host: localhost:6666` first, then an ordinary visitor."""
    with override_settings(SITE_URL=SITE):
        crafted = Client().get(path, HTTP_HOST="localhost:6666")
        ordinary = Client().get(path)

    assert crafted.status_code == ordinary.status_code == 200
    assert canonical(crafted) == canonical(ordinary)
    assert canonical(crafted).startswith(SITE + path)  # /events/ adds the season shown


def test_the_site_address_defaults_to_where_serve_listens() -> None:
    """Issue 24, case 11: the documented default, http://127.0.0.1:8000."""
    response = Client().get("/counties/", HTTP_HOST="localhost:6666")

    assert canonical(response) == "http://127.0.0.1:8000/counties/"
