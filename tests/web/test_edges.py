"""The site's edges (issue 23, item 15): what is compressed and what never is, the styled
refusal of an address too long to read, and the back office titled as the site.

Compression follows one rule (web.middleware.compression): a response anyone would be
sent is gzipped for a client that asks; a response that may carry a secret (a CSRF
token, a signed-in user's page: BREACH) never is.
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from ecfgrading.demo.summary import DemoSummary

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br"}  # what a browser sends
SITE_NAME = "ECF Grading Database"


def vary(response: object) -> set[str]:
    header = response.get("Vary", "")  # type: ignore[attr-defined]
    return {part.strip().lower() for part in header.split(",") if part.strip()}


def title(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html, re.S)
    assert found is not None
    return found.group(1).strip()


# compressed: pages and JSON anyone would be sent -------------------------------------------


@pytest.mark.parametrize("path", ["/", "/players/?q=smith", "/lists/"])
def test_a_public_page_is_gzipped_for_a_browser_that_asks(
    client: Client, demo: DemoSummary, path: str
) -> None:
    plain = client.get(path)
    packed = client.get(path, **GZIP)

    assert packed.status_code == plain.status_code == 200
    assert packed["Content-Encoding"] == "gzip"
    assert "accept-encoding" in vary(packed) and "accept-encoding" in vary(plain)
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) * 0.6  # even a short page halves


def test_a_client_that_does_not_ask_gets_the_page_plain(client: Client, demo: DemoSummary) -> None:
    response = client.get("/players/?q=smith")

    assert not response.has_header("Content-Encoding")
    assert response.content.lstrip().startswith(b"<!DOCTYPE html>")


@pytest.mark.parametrize("path", ["/api/v1/lists", "/lists/?format=json"])
def test_json_is_gzipped_too(client: Client, demo: DemoSummary, path: str) -> None:
    response = client.get(path, **GZIP)

    assert response["Content-Encoding"] == "gzip"
    assert response["Content-Type"].startswith("application/json")


def test_a_gzipped_page_keeps_its_etag_weakly_and_still_answers_304(
    client: Client, demo: DemoSummary
) -> None:
    first = client.get("/players/?q=smith", **GZIP)
    etag = first["ETag"]

    assert etag.startswith('W/"')  # RFC 9110 8.8.1: a transformed body's tag is weak
    again = client.get("/players/?q=smith", HTTP_IF_NONE_MATCH=etag, **GZIP)
    assert again.status_code == 304
    assert again["ETag"] == etag


# never compressed: anything that may hold a secret -----------------------------------------


def test_the_back_office_login_with_its_csrf_token_is_never_compressed(
    client: Client, demo: DemoSummary
) -> None:
    response = client.get("/backoffice/login/", **GZIP)

    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content  # readable: not compressed
    assert not response.has_header("Content-Encoding")


def test_a_signed_in_back_office_page_is_never_compressed(
    client: Client, demo: DemoSummary
) -> None:
    client.force_login(User.objects.get(username="olivia"))  # a grading officer of the demo

    response = client.get("/backoffice/", **GZIP)

    assert response.status_code == 200
    assert b"olivia" in response.content
    assert not response.has_header("Content-Encoding")


def test_the_feedback_form_is_never_compressed(client: Client, demo: DemoSummary) -> None:
    response = client.get("/feedback/", **GZIP)

    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content
    assert not response.has_header("Content-Encoding")


def test_a_public_page_seen_signed_in_is_compressed_only_if_it_shows_nothing_of_the_session(
    client: Client, demo: DemoSummary
) -> None:
    client.force_login(User.objects.get(username="olivia"))

    response = client.get("/players/?q=smith", **GZIP)

    # The public page is the same for everyone (it never reads the session): compressed.
    assert "cookie" not in vary(response)
    assert response["Content-Encoding"] == "gzip"
    assert b"olivia" not in gzip.decompress(response.content)


def test_the_staff_prefixes_follow_where_the_site_is_mounted() -> None:
    """Reversed once per mount point, not once for ever: under a second script prefix
    the back office is still known, and never compressed (BREACH)."""
    from django.urls import get_script_prefix, set_script_prefix

    from ecfgrading.web.middleware.compression import _private_prefixes

    mounted = get_script_prefix()
    try:
        set_script_prefix("/")
        at_root = _private_prefixes()
        set_script_prefix("/grading/")
        under = _private_prefixes()
    finally:
        set_script_prefix(mounted)

    assert "/backoffice/" in at_root
    assert "/grading/backoffice/" in under


def test_a_games_links_follow_where_the_site_is_mounted() -> None:
    from django.urls import get_script_prefix, set_script_prefix

    from ecfgrading.web.templatetags.player_tags import player_href

    mounted = get_script_prefix()
    try:
        set_script_prefix("/")
        at_root = player_href("123456A")
        set_script_prefix("/grading/")
        under = player_href("123456A")
    finally:
        set_script_prefix(mounted)

    assert (at_root, under) == ("/players/123456A/", "/grading/players/123456A/")


# an address too long to read ---------------------------------------------------------------


def test_an_address_over_4_kb_gets_the_sites_414_page(client: Client, demo: DemoSummary) -> None:
    response = client.get("/players/", {"q": "x" * 5000})

    assert response.status_code == 414
    html = response.content.decode()
    assert title(html) == f"Not understood - {SITE_NAME}"  # the site's layout and title
    assert "5,012 characters long" in html  # /players/?q= and the 5,000 letters
    assert 'See <a href="/players/">/players/</a> without the options given' in html
    assert 'name="q"' in html  # the lookup box to try again


def test_its_json_twin_is_the_one_error_body(client: Client, demo: DemoSummary) -> None:
    response = client.get("/players/", {"q": "x" * 5000}, HTTP_ACCEPT="application/json")

    assert response.status_code == 414
    body = response.json()
    assert (body["status"], body["kind"]) == (414, "invalid")
    assert body["message"].startswith("This address is 5,012 characters long")


@pytest.mark.parametrize("path", ["/api/v1/players", "/api/players/fuzzy-names", "/v2/new/api.php"])
def test_the_apis_answer_a_long_address_in_json_whatever_is_accepted(
    client: Client, demo: DemoSummary, path: str
) -> None:
    """An API's every answer is JSON (its clients parse whatever comes), the 414 too, and
    /api/v1 documents it (tests/web/test_api_schema.py)."""
    response = client.get(path, {"q": "x" * 5000}, HTTP_ACCEPT="text/html")

    assert response.status_code == 414
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["status"] == 414


def test_an_address_just_under_the_limit_is_still_answered(
    client: Client, demo: DemoSummary
) -> None:
    query = "x" * (4094 - len("/players/?q="))

    assert client.get("/players/", {"q": query}).status_code == 200


# the back office titled as the site --------------------------------------------------------


def test_the_back_office_login_is_titled_as_the_site_not_the_host(
    client: Client, demo: DemoSummary
) -> None:
    html = client.get("/backoffice/login/").content.decode()

    assert title(html) == f"Sign in to the back office - {SITE_NAME}"
    assert "testserver" not in html  # the host Django's login would name the site after


def test_the_admin_login_is_titled_as_the_site(client: Client, demo: DemoSummary) -> None:
    html = client.get("/admin/login/").content.decode()

    assert title(html).endswith(f"{SITE_NAME} admin")
    assert "Django" not in title(html)
